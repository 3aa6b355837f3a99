"""The ``briscola-lan`` command: one subcommand per module, the lobby when none is given.

Each command module exposes ``configure(parser)`` to add its arguments and ``run(args) -> int``.
A command's module is imported only when that command is named (to run it or show its help), so
``briscola-lan --help`` costs little more than argparse. The default command's options, which the
top-level help shows, come from ``commands/play.py``, which imports argparse alone.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from briscola_lan.about import describe
from briscola_lan.portable import prepare_event_loop

# name -> (module, one-line help). Keep in sync with README.md and docs/.
COMMANDS: dict[str, tuple[str, str]] = {
    "simulate": ("briscola_lan.sim", "play matches between AI levels and print totals"),
    "arena": ("briscola_lan.arena", "compare two AI levels over seeded deals, seats swapped"),
    "verify": ("briscola_lan.fairness.verify_cmd", "check saved games offline"),
    "stats": ("briscola_lan.commands.stats", "your wins, losses and points from the saved games"),
    "play": ("briscola_lan.commands.play", "open the full-screen client: lobby, tables, practice"),
    "host": ("briscola_lan.net.host_cmd", "host a table on the local network (TLS, mDNS)"),
    "join": (
        "briscola_lan.commands.join",
        "join a table by name or HOST:PORT in the full-screen client",
    ),
    "tables": ("briscola_lan.net.tables_cmd", "list the tables found on the local network"),
    "bot": ("briscola_lan.net.bot_cmd", "run an AI player that joins a table over the network"),
}

DEFAULT_COMMAND = "play"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with every command listed; only ``command`` and the default get their options.

    A command's options are added (its module imported) only when it is the one named, so
    ``--help`` imports no command module but the default command's (light) one.
    """
    parser = argparse.ArgumentParser(
        prog="briscola-lan",
        description="Peer-to-peer Briscola for the local network, with a verifiable deal.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version",
        action="store_true",
        help="print the version and the protocol versions it speaks, then exit",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name in (command, DEFAULT_COMMAND):
            importlib.import_module(module_name).configure(p)
    default = sub.choices.get(DEFAULT_COMMAND)
    if default is not None:  # say what a bare `briscola-lan [OPTIONS]` does, with its options
        text = default.format_help()
        options = text[text.find("options:") :] if "options:" in text else text
        parser.epilog = (
            f"With no COMMAND, briscola-lan runs '{DEFAULT_COMMAND}' "
            f"({COMMANDS[DEFAULT_COMMAND][1]}),\nwhich takes these {options}"
        )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--version"]:
        print(describe())
        return 0
    if (
        not args_list or (args_list[0].startswith("-") and args_list[0] not in ("-h", "--help"))
    ) and (DEFAULT_COMMAND in COMMANDS):
        args_list.insert(0, DEFAULT_COMMAND)
    parser = build_parser(args_list[0] if args_list else None)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help()
        return 2
    module = importlib.import_module(COMMANDS[args.command][0])
    prepare_event_loop()
    try:
        return int(module.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (``briscola-lan verify F | head``): stop quietly, like other tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 141
