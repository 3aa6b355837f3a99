"""The program's version and the versions of the protocols it speaks, written once."""

from __future__ import annotations

from briscola_lan import __version__

# The wire protocol (protocol/SPEC.md): a table refuses a hello of another version.
# 3: fairness protocol version 2 (every party statement binds its context).
PROTOCOL_VERSION = 3
# The fairness protocol (protocol/fairness.md §10): its hashes' domain, its statements' tags and
# the saved games' header.
FAIRNESS_VERSION = 2


# ``{version}``, ``{wire}``, ``{fairness}``; the client shows it translated (tui/render_menus.py)
LINE = "briscola-lan {version} (wire protocol {wire}, fairness protocol and saved games {fairness})"


def describe(template: str = LINE) -> str:
    """One line a user quotes in a bug report: ``briscola-lan --version`` and the keys' help."""
    return template.format(version=__version__, wire=PROTOCOL_VERSION, fairness=FAIRNESS_VERSION)
