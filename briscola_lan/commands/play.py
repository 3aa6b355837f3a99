"""``briscola-lan play`` (the default): its options, and the full-screen client when it runs.

The options are built from argparse alone, because the top-level ``--help`` shows them: the
client (``tui/command.py``, prompt_toolkit, the network) is imported only when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

# The bot levels, as briscola_lan.ai.LEVELS names them (importing ai/ would cost --help ~90 ms;
# tests/test_cli_imports.py checks that the two agree).
AI_LEVELS: tuple[str, ...] = ("random", "rules", "strong")


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name", default=None, help="your name at the table (default: $BRISCOLA_NAME, else $USER)"
    )
    parser.add_argument(
        "--ascii", action="store_true",
        help="plain ASCII, no colour (automatic when NO_COLOR is set or the locale is not UTF-8)",
    )  # fmt: skip
    parser.add_argument(
        "--interfaces", nargs="+", metavar="ADDR", default=None,
        help="IP addresses of this machine for discovery (default: $BRISCOLA_LAN_INTERFACES, "
        "else every LAN interface; 127.0.0.1 for this machine only); commas also separate",
    )  # fmt: skip
    parser.add_argument(
        "--ai-level", choices=AI_LEVELS, default="rules", help="level of the AI players"
    )
    parser.add_argument(
        "--ai-delay", type=float, default=0.6, help="seconds an AI waits before it plays"
    )
    parser.add_argument("--games", type=Path, default=None, help="directory of saved games")


def run(args: argparse.Namespace) -> int:
    from briscola_lan.tui.command import run as run_client

    return run_client(args)
