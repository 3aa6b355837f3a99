"""The program's version and the versions of the protocols it speaks, written once."""

from __future__ import annotations

from briscola_lan import __version__

# The wire protocol (protocol/SPEC.md): a table refuses a hello of another version.
# 3: fairness protocol version 2 (every party statement binds its context).
PROTOCOL_VERSION = 3
# The fairness protocol (protocol/fairness.md §10): its hashes' domain, its statements' tags and
# the saved games' header.
FAIRNESS_VERSION = 2


def describe() -> str:
    """One line a user quotes in a bug report: ``briscola-lan --version`` and the keys' help."""
    return (
        f"briscola-lan {__version__} (wire protocol {PROTOCOL_VERSION}, "
        f"fairness protocol and saved games {FAIRNESS_VERSION})"
    )
