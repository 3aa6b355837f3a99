"""``briscola-lan play`` (the default): its options, and the full-screen client when it runs.

The options are built from argparse alone, because the top-level ``--help`` shows them: the
client (``tui/command.py``, prompt_toolkit, the network) is imported only when the command runs.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from briscola_lan.choices import AI_LEVELS, AI_PACE

# The trick pause (tui/follow.py), the decks and the languages, as the client names them
# (importing tui/ would cost --help tens of ms; tests/test_cli_imports.py checks that they agree).
TRICK_PAUSE = 1.5
DECKS: tuple[str, ...] = ("french", "italian")
LANGUAGES: tuple[str, ...] = ("en", "it")


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
        "--ai-delay", type=float, default=AI_PACE,
        help=f"the AI players' pace: seconds an AI waits after the last card (default {AI_PACE})",
    )  # fmt: skip
    parser.add_argument(
        "--trick-pause", type=float, default=TRICK_PAUSE, metavar="SECONDS",
        help="seconds a completed trick stays on the table (any key clears it; 0: none; "
        f"default {TRICK_PAUSE})",
    )  # fmt: skip
    parser.add_argument(
        "--deck", choices=DECKS, default=None,
        help="the cards' look: French suits (♦ ♥ ♠ ♣) or Italian (Denari, Coppe, Spade, "
        "Bastoni); default: Italian in Italian, else French",
    )  # fmt: skip
    parser.add_argument(
        "--hand-order", choices=("sorted", "dealt"), default="sorted",
        help="your hand sorted by suit (the briscola apart) and strength, or as dealt",
    )  # fmt: skip
    parser.add_argument(
        "--hide-points", action="store_true",
        help="hide the running point count during a hand (count them in your head); "
        "p shows it at the table",
    )  # fmt: skip
    parser.add_argument(
        "--no-bell", dest="bell", action="store_false",
        help="never ring the terminal's bell (it rings when your move comes after a wait)",
    )  # fmt: skip
    parser.add_argument(
        "--lang", choices=LANGUAGES, default=None,
        help="the client's language (default: from the locale, LANG=it_IT.UTF-8 is Italian)",
    )  # fmt: skip
    parser.add_argument("--games", type=Path, default=None, help="directory of saved games")


def run(args: argparse.Namespace) -> int:
    from briscola_lan.tui.command import run as run_client

    return run_client(args)
