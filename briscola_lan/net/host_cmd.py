"""``briscola-lan host``: its options, and the tables they ask for (or, with ``--resume``, the
tables saved in ``--state-dir``), served by ``net/serving.py`` until the host is stopped.

The host runs the pure ``HostTable`` inside ``HostServer``. Every change of a table is written
to its journal before anything it causes is sent (``net/journal.py``), in ``--state-dir`` or by
default in ``$XDG_STATE_HOME/briscola-lan/host`` (``net/host_state.py``); ``--resume``
restarts from it on the same port so that the clients reconnect by themselves. ``--tables N``
serves N tables from one process (capacity).
Once a match is over and its players have left, the table opens for a new match (``--one-match``
keeps the result on show instead; ``net/next_match.py``). A full or read-only disk stops
nothing: the host says so once and retries (``net/host_saves.py``). Stopping (SIGINT/SIGTERM)
saves every transcript with everything played, an unfinished hand included.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

from briscola_lan.choices import AI_LEVELS, AI_PACE, DEAL_MODES
from briscola_lan.fairness.identity import IdentityError
from briscola_lan.net import serving, tls
from briscola_lan.net.discovery import DiscoveryError, resolve_interfaces
from briscola_lan.net.files import describe_os_error
from briscola_lan.net.games import GamesDirError, check_writable
from briscola_lan.net.host_state import open_state
from briscola_lan.net.next_match import REOPEN_AFTER
from briscola_lan.net.server import HELLO_TIMEOUT
from briscola_lan.net.serving import HostRun, ServedTable
from briscola_lan.net.stop_guard import STOP_WAIT, StopGuard
from briscola_lan.net.table_spec import (
    HostError,
    TableSettings,
    TableSpec,
    default_table_name,
)
from briscola_lan.net.tables_cmd import add_interfaces_option
from briscola_lan.net.transport import Heartbeat, heartbeat_option
from briscola_lan.rules.cards import Suit
from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import MatchFormat, TableOptions


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name", help="table name shown in the lobby (default: USER@HOSTNAME, unique on the LAN)"
    )
    parser.add_argument(
        "--players",
        type=int,
        default=2,
        choices=(2, 3, 4, 5),
        help="5: Briscola chiamata, an auction and a called partner (blind deal: nobody but "
        "the partner knows who it is until the called card is played, the host included "
        "but for its AI seats; --deal classic: the host knows the cards, and so the partner)",
    )
    parser.add_argument(
        "--format",
        dest="match_format",
        default=None,
        choices=[str(f) for f in MatchFormat],
        help="hands: first side to win N hands (61+); points: 2 hands (3 at 3p), most points; "
        "total: 5 players, each hand's score summed (default: hands; 3 players always play "
        "points, 5 total)",
    )
    parser.add_argument(
        "--points-to-win", type=int, default=61, help="5 players: what a rank bid needs (61-120)"
    )
    parser.add_argument(
        "--no-double", action="store_true", help="5 players: no double score for all 120 points"
    )
    parser.add_argument(
        "--match-hands", type=int, default=5, help="5 players: hands in a match (1-20)"
    )
    parser.add_argument("--hands-to-win", type=int, default=2, help="1..5 (format 'hands')")
    parser.add_argument(
        "--no-exchange", action="store_true", help="4 players: no partner hand exchange"
    )
    parser.add_argument(
        "--signals",
        action="store_true",
        help="4 players: partners may signal to each other (the traditional segni; default: "
        "strict play, no signals)",
    )
    parser.add_argument(
        "--removed-two", default="d", help="3 players: the 2 removed (d h s c or a suit name)"
    )
    parser.add_argument("--port", type=int, default=0, help="TCP port (0: any free port)")
    add_interfaces_option(parser)
    parser.add_argument("--ai", type=int, default=0, metavar="N", help="fill N seats with AIs")
    parser.add_argument(
        "--ai-level", default="rules", help=f"AI level for --ai ({', '.join(AI_LEVELS)})"
    )
    parser.add_argument(
        "--ai-delay", type=float, default=AI_PACE, metavar="SECONDS",
        help="the AI players' pace: seconds an AI waits after the last card played, so that "
        f"people can follow (default {AI_PACE}, as in the client; 0: at once)",
    )  # fmt: skip
    parser.add_argument(
        "--quiet", action="store_true",
        help="no line per event on the console (players joining and leaving, hands, results)",
    )  # fmt: skip
    parser.add_argument(
        "--hints", action="store_true",
        help="allow the players to ask their client's AI for hints (a practice table)",
    )  # fmt: skip
    parser.add_argument(
        "--ai-seats",
        default="",
        metavar="SEAT:LEVEL,...",
        help="AI players on given seats, e.g. 1:strong,3:rules",
    )
    parser.add_argument(
        "--state-dir", type=Path, metavar="DIR",
        help="where the tables' journals are kept (default: $XDG_STATE_HOME/briscola-lan/host); "
        "every change is written there before it is sent",
    )  # fmt: skip
    parser.add_argument(
        "--resume", action="store_true",
        help="continue the tables saved in --state-dir (default: the default folder), on their "
        "ports: the players' clients rejoin by themselves",
    )  # fmt: skip
    parser.add_argument(
        "--force", action="store_true",
        help="start a new table over an unfinished match saved in --state-dir",
    )  # fmt: skip
    parser.add_argument(
        "--no-journal", action="store_true",
        help="keep no journal: a table the host stops cannot be continued (measurements)",
    )  # fmt: skip
    parser.add_argument(
        "--games",
        type=Path,
        help="save the match transcripts here (default: $XDG_DATA_HOME/briscola-lan/games)",
    )
    parser.add_argument("--tables", type=int, default=1, help="serve N tables (benchmarks)")
    parser.add_argument(
        "--draw-partners",
        action="store_true",
        help="4 players: draw partnerships (two higher cards against two lower), verifiably",
    )
    parser.add_argument(
        "--draw-dealer", action="store_true", help="draw who deals first, verifiably"
    )
    parser.add_argument(
        "--deal",
        choices=DEAL_MODES,
        default=None,
        help="blind: nobody, the host included, sees a card before the rules show it; classic: "
        "the host's engine knows the deck (both verifiable; default: blind when two or more "
        "seats are for people, classic against AI players only; the host knows the cards of "
        "the AI seats it plays)",
    )
    parser.add_argument("--no-mdns", action="store_true", help="do not advertise over mDNS")
    parser.add_argument(
        "--one-match",
        action="store_true",
        help="keep a finished match's result on show; by default the table opens for a new "
        "match once everyone has left it",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=30.0,
        help="seconds a dropped player has to come back before an AI plays the seat "
        "(in the lobby: before the seat is freed)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="seconds each seat has for its seed commitment, its seed reveal and its "
        "acknowledgement of a hand (default 60)",
    )
    parser.add_argument(
        "--call",
        type=float,
        default=10.0,
        metavar="S",
        help="blind deal: seconds the players have to answer a hand's call; a seat that does "
        "not answer is played by the host for that hand (default 10)",
    )
    parser.add_argument(
        "--play-timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="seconds a player has for each card when two or more people play (classic deal: "
        "the AI then plays the seat to the end of the hand; blind deal: the hand is aborted "
        "naming the seat; default 120)",
    )
    parser.add_argument(
        "--hello-timeout",
        type=float,
        default=HELLO_TIMEOUT,
        help="seconds a new connection has, from the TCP accept, to be welcomed (TLS, "
        f"challenge, hello; default {HELLO_TIMEOUT:g})",
    )
    parser.add_argument(
        "--reopen-after",
        type=float,
        default=REOPEN_AFTER,
        help="seconds a finished match waits with none of its players connected before the "
        f"table opens for a new one (default {REOPEN_AFTER:g})",
    )
    parser.add_argument(
        "--tick", type=float, default=0.05, help="seconds between timer ticks (AI moves)"
    )
    parser.add_argument(
        "--stop-wait", type=float, default=STOP_WAIT, metavar="SECONDS",
        help="how long a stop waits for the disk to finish its writes before it ends without "
        f"them (default {STOP_WAIT:g}; 0: no limit); a second Ctrl-C ends it at once",
    )  # fmt: skip
    parser.add_argument(
        "--heartbeat",
        type=heartbeat_option,
        default=Heartbeat(),
        metavar="INTERVAL/TIMEOUT",
        help="ping a player quiet for INTERVAL s, drop one silent for TIMEOUT s (default 5/15)",
    )


def check_numbers(args: argparse.Namespace) -> None:
    """Refuse option values that mean nothing (a table count of 0, a negative grace...)."""
    if not 0 <= args.port <= 65535:
        raise HostError(f"--port {args.port}: a port is 0..65535 (0 picks a free one)")
    if args.tables < 1:
        raise HostError(f"--tables {args.tables}: serve at least 1 table")
    if args.port and args.port + args.tables - 1 > 65535:
        raise HostError(f"--port {args.port} with --tables {args.tables} goes past port 65535")
    if not args.grace >= 0:
        raise HostError(f"--grace {args.grace}: give 0 or more seconds")
    if not args.timeout > 0:
        raise HostError(f"--timeout {args.timeout}: give more than 0 seconds")
    if not args.ai_delay >= 0:
        raise HostError(f"--ai-delay {args.ai_delay}: give 0 or more seconds")
    if not args.play_timeout > 0:
        raise HostError(f"--play-timeout {args.play_timeout}: give more than 0 seconds")
    if not args.call > 0:
        raise HostError(f"--call {args.call}: give more than 0 seconds")
    if not args.hello_timeout > 0:
        raise HostError(f"--hello-timeout {args.hello_timeout}: give more than 0 seconds")
    if not args.reopen_after >= 0:
        raise HostError(f"--reopen-after {args.reopen_after}: give 0 or more seconds")
    if not args.tick > 0:
        raise HostError(f"--tick {args.tick}: give more than 0 seconds")
    if not args.stop_wait >= 0:
        raise HostError(f"--stop-wait {args.stop_wait}: give 0 or more seconds (0: no limit)")


def match_format(args: argparse.Namespace) -> MatchFormat:
    """The --format given, else 'hands' (2 and 4 players) or 'points' (3 players)."""
    if args.match_format is not None:
        return MatchFormat(args.match_format)
    if args.players == 3:
        if not args.resume:
            print("3 players play the 'points' format (--format points)", flush=True)
        return MatchFormat.POINTS
    if args.players == 5:
        return MatchFormat.TOTAL
    return MatchFormat.HANDS


def parse_options(args: argparse.Namespace) -> TableOptions:
    try:
        return TableOptions.make(
            players=args.players,
            match_format=match_format(args),
            hands_to_win=args.hands_to_win,
            partner_exchange=not args.no_exchange,
            removed_two=Suit.parse(args.removed_two),
            signals=args.signals,
            points_to_win=args.points_to_win,
            double_all=not args.no_double,
            match_hands=args.match_hands,
        )
    except (OptionsError, ValueError) as exc:
        raise HostError(str(exc)) from exc


def ai_seat_order(players: int) -> list[int]:
    """Seats --ai fills, last first; at 4 players the humans stay partners (0+2) as long as can."""
    return [1, 3, 2] if players == 4 else list(range(players - 1, 0, -1))


def parse_ai_seats(args: argparse.Namespace, players: int) -> dict[int, str]:
    seats: dict[int, str] = {}
    if args.ai:
        order = ai_seat_order(players)
        if not 0 <= args.ai <= len(order):
            raise HostError(f"--ai takes 0..{len(order)} at {players} players (seat 0 is yours)")
        for seat in order[: args.ai]:
            seats[seat] = args.ai_level
    for item in filter(None, (p.strip() for p in args.ai_seats.split(","))):
        seat_text, _, level = item.partition(":")
        if not seat_text.isdigit() or not 0 <= int(seat_text) < players:
            raise HostError(f"--ai-seats: {item!r} is not SEAT:LEVEL with a seat 1..{players - 1}")
        if int(seat_text) == 0:
            raise HostError(
                f"--ai-seats: {item!r}: seat 0 is yours (it starts the match); "
                f"use seats 1..{players - 1}"
            )
        seats[int(seat_text)] = level or args.ai_level
    from briscola_lan.table.host import unknown_level

    for level in seats.values():
        problem = unknown_level(level)
        if problem is not None:
            raise HostError(problem)
    return seats


def table_specs(args: argparse.Namespace) -> list[TableSpec]:
    """The tables the options ask for: ``--tables N`` of them, alike but for name and port."""
    options = parse_options(args)
    if args.draw_partners and options.players != 4:
        raise HostError("--draw-partners needs --players 4 (partnerships are at 4 players)")
    ai_seats = parse_ai_seats(args, options.players)
    base = args.name or default_table_name()
    specs = []
    for i in range(args.tables):
        name = base if args.tables == 1 else f"{base} {i + 1}"
        port = args.port + i if args.port else 0
        deal = getattr(args, "deal", None)
        specs.append(
            TableSpec(name, options, ai_seats, port, args.draw_partners, args.draw_dealer, deal)
        )
    return specs


def table_settings(args: argparse.Namespace) -> TableSettings:
    """How the tables run: their timers, the AI players' pace, hints (resumed tables too)."""
    return TableSettings(
        grace=args.grace,
        timeout=args.timeout,
        call_wait=args.call,
        play_timeout=args.play_timeout,
        ai_delay=args.ai_delay,
        hints=args.hints,
    )


async def serve(
    args: argparse.Namespace,
    *,
    stop: asyncio.Event | None = None,
    guard: StopGuard | None = None,
) -> int:
    """Run the host until SIGINT/SIGTERM (or ``stop``); returns the exit status. ``guard``
    watches the stop once it begins (``net/stop_guard.py``)."""
    from briscola_lan.net.files import load_or_create_identity

    check_numbers(args)
    interfaces = resolve_interfaces(args.interfaces)
    if args.no_journal and (args.resume or args.state_dir is not None or args.force):
        raise HostError("--no-journal keeps no journal: --state-dir, --resume and --force need one")
    if args.games is not None:
        check_writable(args.games, "--games")
    try:
        cert = tls.load_or_create_certificate()
    except OSError as exc:
        raise HostError(
            f"cannot create the host certificate in {tls.config_dir()}: {describe_os_error(exc)}"
        ) from exc
    identity = load_or_create_identity()
    settings = table_settings(args)
    if args.no_journal:
        state = None
        tables = [(ServedTable(spec, settings, identity), None) for spec in table_specs(args)]
    else:
        state = open_state(
            args.state_dir,
            resume=args.resume,
            force=args.force,
            specs=[] if args.resume else table_specs(args),
            identity=identity,
        )
        tables = [
            (ServedTable(spec, settings, identity, journal=journal), restored)
            for spec, journal, restored in state.tables
        ]
    try:
        if state is not None:
            for line in state.kept:
                print(line, flush=True)
        server = serving.host_server(
            cert,
            interfaces,
            advertise=not args.no_mdns,
            tick_interval=args.tick,
            heartbeat=args.heartbeat,
            hello_timeout=args.hello_timeout,
        )
        run = HostRun(
            state_dir=None if state is None else state.directory,
            resume="" if state is None else state.resume,
            games=args.games,
            one_match=args.one_match,
            reopen_after=args.reopen_after,
            quiet=args.quiet,
            on_stop=None if guard is None else guard.begin,
        )
        if guard is not None:
            guard.kept = (
                "Without a journal (--no-journal), what was not saved yet is lost."
                if state is None
                else "The journal holds every change the players were sent: continue with "
                f"`{state.resume}`."
            )
        return await serving.serve(server, tables, run, stop=stop)
    finally:
        if state is not None:
            state.close()


def run(args: argparse.Namespace) -> int:
    guard = StopGuard(args.stop_wait if args.stop_wait > 0 else None)
    try:
        return asyncio.run(serve(args, guard=guard))
    except (HostError, DiscoveryError, tls.TlsError, GamesDirError, IdentityError) as exc:
        print(f"briscola-lan host: {exc}", file=sys.stderr)
        return 2
    finally:
        guard.end()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command without the CLI dispatcher (used by tests and benchmarks)."""
    parser = argparse.ArgumentParser(prog="briscola-lan host")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
