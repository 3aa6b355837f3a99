"""What differs between the systems a player uses, in one place (the rest of the code is the same).

On Windows asyncio's default loop (proactor) cannot watch a socket for readiness, which the TLS
streams (``net/tlsio.py``) and zeroconf need: the commands run on the selector loop there.
"""

from __future__ import annotations

import sys


def prepare_event_loop() -> None:
    """Before ``asyncio.run``: the selector event loop on Windows; nothing elsewhere."""
    if sys.platform == "win32":
        import asyncio

        asyncio.set_event_loop_policy(asyncio.WindowsSelectorEventLoopPolicy())
