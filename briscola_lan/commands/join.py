"""``briscola-lan join``: the full-screen client on a terminal, else the line client of net/.

This choice is why the command sits above both layers: ``net/join_cmd.py`` (the line client and
the options) never imports ``tui/``, and the full-screen client is imported only when it opens.
"""

from __future__ import annotations

import argparse
import sys


def configure(parser: argparse.ArgumentParser) -> None:
    from briscola_lan.commands.play import DECKS, LANGUAGES, TRICK_PAUSE
    from briscola_lan.net.join_cmd import configure as configure_join

    configure_join(parser)
    parser.add_argument(
        "--trick-pause", type=float, default=TRICK_PAUSE, metavar="SECONDS",
        help="full-screen client: seconds a completed trick stays on the table",
    )  # fmt: skip
    parser.add_argument("--deck", choices=DECKS, default=None, help="full-screen client: cards")
    parser.add_argument(
        "--hand-order", choices=("sorted", "dealt"), default="sorted",
        help="full-screen client: your hand sorted, or as dealt",
    )  # fmt: skip
    parser.add_argument(
        "--hide-points", action="store_true",
        help="full-screen client: hide the running point count (p shows it)",
    )  # fmt: skip
    parser.add_argument(
        "--no-bell", dest="bell", action="store_false",
        help="full-screen client: never ring the terminal's bell (it rings when your move "
        "comes after a wait)",
    )  # fmt: skip
    parser.add_argument("--lang", choices=LANGUAGES, default=None, help="full-screen client")


def full_screen(args: argparse.Namespace) -> bool:
    """The full-screen client unless asked for lines or an autopilot, or not on a terminal."""
    return not args.line and args.auto is None and sys.stdin.isatty() and sys.stdout.isatty()


def run(args: argparse.Namespace) -> int:
    from briscola_lan.net import join_cmd
    from briscola_lan.net.connect import UsageError, check_common

    if not full_screen(args):
        return join_cmd.run(args)
    try:
        check_common(args)
    except UsageError as exc:
        print(f"briscola-lan join: {exc}", file=sys.stderr)
        return 2
    from briscola_lan.tui.command import run_join

    return run_join(args)
