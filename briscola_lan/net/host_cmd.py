"""``briscola-lan host``: host a table on the LAN (TLS, mDNS), optionally resuming after a crash.

The host runs the pure ``HostTable`` inside ``HostServer``. With ``--state-dir`` it writes the
table's snapshot after every change; ``--resume`` restarts from it on the same port so that the
clients reconnect by themselves. ``--tables N`` serves N tables from one process (capacity).
Once a match is over and its players have left, the table opens for a new match (``--one-match``
keeps the result on show instead); a newcomer meanwhile waits for it (``NextMatchTable``). A full
or read-only disk stops nothing: the host says so once (``SaveReporter``) and retries. Stopping
(SIGINT/SIGTERM) saves every transcript with everything played, an unfinished hand included.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import json
import secrets
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola_lan.fairness.identity import IdentityError
from briscola_lan.net import files, tls
from briscola_lan.net.console import Console
from briscola_lan.net.discovery import Advertiser, DiscoveryError, resolve_interfaces
from briscola_lan.net.files import describe_os_error
from briscola_lan.net.games import GameSaver, GamesDirError, check_writable
from briscola_lan.net.outlet import Outlet
from briscola_lan.net.server import HELLO_TIMEOUT, HostedTable, HostServer, TableWrapper
from briscola_lan.net.tables_cmd import add_interfaces_option
from briscola_lan.net.transport import Heartbeat, heartbeat_option
from briscola_lan.rules.cards import Suit
from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import MatchFormat, TableOptions
from briscola_lan.wire.messages import Hello

META_FILE = "table.json"
AI_PACE_DEFAULT = 0.6  # table/host.py AI_PACE (not imported here: --help stays light)
SAVE_EVERY = 0.25  # seconds between looks at the host's transcript (saved when it grew)
RETRY_SAVES = 2.0  # seconds between tries to save what a full or read-only disk refused


def default_table_name() -> str:
    """``<user>@<hostname>``: unique enough that two hosts on a LAN do not share a name."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "player"
    host = socket.gethostname().split(".")[0] or "host"
    return f"{user}@{host}"[:40]


class HostError(Exception):
    """A hosting problem a user can fix (bad options, missing state, port in use)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name", help="table name shown in the lobby (default: USER@HOSTNAME, unique on the LAN)"
    )
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument(
        "--format",
        dest="match_format",
        default=None,
        choices=[str(f) for f in MatchFormat],
        help="hands: first side to win N hands (61+); points: 2 hands (3 at 3p), most points "
        "(default: hands; 3 players always play points)",
    )
    parser.add_argument("--hands-to-win", type=int, default=2, help="1..5 (format 'hands')")
    parser.add_argument(
        "--no-exchange", action="store_true", help="4 players: no partner hand exchange"
    )
    parser.add_argument(
        "--removed-two", default="d", help="3 players: the 2 removed (d h s c or a suit name)"
    )
    parser.add_argument("--port", type=int, default=0, help="TCP port (0: any free port)")
    add_interfaces_option(parser)
    parser.add_argument("--ai", type=int, default=0, metavar="N", help="fill N seats with AIs")
    parser.add_argument(
        "--ai-level", default="rules", help="AI level for --ai (random, rules, strong)"
    )
    parser.add_argument(
        "--ai-delay", type=float, default=AI_PACE_DEFAULT, metavar="SECONDS",
        help="the AI players' pace: seconds an AI waits after the last card played, so that "
        "people can follow (default 0.6, as in the client; 0: at once)",
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
    parser.add_argument("--state-dir", type=Path, help="write the table state here after changes")
    parser.add_argument(
        "--resume", action="store_true", help="continue the table saved in --state-dir"
    )
    parser.add_argument(
        "--force", action="store_true", help="start a new table over one saved in --state-dir"
    )
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
        choices=("blind", "classic"),
        default=None,
        help="blind: nobody, the host included, sees a card before the rules show it; classic: "
        "the host's engine knows the deck (both verifiable; default: blind when two or more "
        "seats are for people, classic against AI players only)",
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


def match_format(args: argparse.Namespace) -> MatchFormat:
    """The --format given, else 'hands' (2 and 4 players) or 'points' (3 players)."""
    if args.match_format is not None:
        return MatchFormat(args.match_format)
    if args.players == 3:
        if not args.resume:
            print("3 players play the 'points' format (--format points)", flush=True)
        return MatchFormat.POINTS
    return MatchFormat.HANDS


def parse_options(args: argparse.Namespace) -> TableOptions:
    try:
        return TableOptions.make(
            players=args.players,
            match_format=match_format(args),
            hands_to_win=args.hands_to_win,
            partner_exchange=not args.no_exchange,
            removed_two=Suit.parse(args.removed_two),
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


@dataclass
class TableSpec:
    """What is needed to build (or rebuild) one hosted table."""

    name: str
    options: TableOptions
    ai_seats: dict[int, str]
    port: int
    draw_partners: bool = False
    draw_dealer: bool = False
    deal: str | None = None  # "blind" or "classic"; None: the table's default


def make_table(
    spec: TableSpec,
    identity: Any,
    snapshot: bytes | None = None,
    *,
    grace: float = 30.0,
    timeout: float = 60.0,
    call_wait: float = 10.0,
    play_timeout: float = 120.0,
    ai_delay: float = 0.0,
    hints: bool = False,
) -> Any:
    """A fresh HostTable, or one restored from ``snapshot`` (with the timers given now)."""
    from briscola_lan.table.host import HostTable, SnapshotError

    if snapshot is not None:
        try:
            table = HostTable.restore(snapshot, identity=identity)
        except SnapshotError as exc:
            raise HostError(f"cannot resume: {exc}") from exc
        table.grace, table.timeout, table.ai_delay = grace, timeout, ai_delay
        table.call_wait, table.play_timeout = call_wait, play_timeout
        return table
    try:
        return HostTable(
            spec.options,
            name=spec.name,
            identity=identity,
            ai_seats=spec.ai_seats,
            draw_partners=spec.draw_partners,
            draw_dealer=spec.draw_dealer,
            grace=grace,
            timeout=timeout,
            call_wait=call_wait,
            play_timeout=play_timeout,
            deal=spec.deal,
            ai_delay=ai_delay,
            hints=hints,
        )
    except ValueError as exc:  # e.g. an unknown AI level in a hand-edited saved table
        raise HostError(f"cannot make table {spec.name!r}: {exc}") from exc


def _save_meta(path: Path, spec: TableSpec) -> None:
    data = {
        "name": spec.name,
        "options": spec.options.to_dict(),
        "ai_seats": {str(k): v for k, v in spec.ai_seats.items()},
        "port": spec.port,
        "draw_partners": spec.draw_partners,
        "draw_dealer": spec.draw_dealer,
        "deal": spec.deal,
    }
    files.write_private(path, json.dumps(data, indent=1).encode("utf-8"))


def _load_meta(path: Path) -> TableSpec:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return TableSpec(
            name=str(data["name"]),
            options=TableOptions.from_dict(data["options"]),
            ai_seats={int(k): str(v) for k, v in data["ai_seats"].items()},
            port=int(data["port"]),
            draw_partners=bool(data.get("draw_partners", False)),
            draw_dealer=bool(data.get("draw_dealer", False)),
            deal=data.get("deal"),
        )
    except (OSError, ValueError, KeyError, TypeError, OptionsError) as exc:
        raise HostError(f"cannot resume from {path}: {exc}") from exc


async def serve(args: argparse.Namespace, *, stop: asyncio.Event | None = None) -> int:
    """Run the host until SIGINT/SIGTERM (or ``stop``); returns the exit status."""
    from briscola_lan.net.files import load_or_create_identity

    check_numbers(args)
    interfaces = resolve_interfaces(args.interfaces)
    state_dir: Path | None = args.state_dir
    if args.resume and state_dir is None:
        raise HostError("--resume needs --state-dir, the directory the host saved to")
    if state_dir is not None:
        if not args.resume and not args.force and sorted(state_dir.glob("table*.json")):
            raise HostError(
                f"a saved table is in {state_dir}: continue it with --resume, or choose another "
                "--state-dir (--force starts a new table over it)"
            )
        check_writable(state_dir, "--state-dir", tighten=True)  # it holds the live deck
    if args.games is not None:
        check_writable(args.games, "--games")
    try:
        cert = tls.load_or_create_certificate()
    except OSError as exc:
        raise HostError(
            f"cannot create the host certificate in {tls.config_dir()}: {describe_os_error(exc)}"
        ) from exc
    identity = load_or_create_identity()
    specs: list[TableSpec] = []
    snapshots: list[bytes | None] = []
    if args.resume:
        assert state_dir is not None
        meta_paths = sorted(state_dir.glob("table*.json"))
        if not meta_paths:
            raise HostError(f"nothing to resume in {state_dir}: no table was saved there")
        for meta in meta_paths:
            spec = _load_meta(meta)
            specs.append(spec)
            snap_path = meta.with_suffix(".state")
            try:
                snapshots.append(snap_path.read_bytes() if snap_path.exists() else None)
            except OSError as exc:
                raise HostError(
                    f"cannot resume from {snap_path}: {describe_os_error(exc)}"
                ) from exc
    else:
        options = parse_options(args)
        if args.draw_partners and options.players != 4:
            raise HostError("--draw-partners needs --players 4 (partnerships are at 4 players)")
        ai_seats = parse_ai_seats(args, options.players)
        base = args.name or default_table_name()
        for i in range(args.tables):
            name = base if args.tables == 1 else f"{base} {i + 1}"
            port = args.port + i if args.port else 0
            specs.append(
                TableSpec(
                    name,
                    options,
                    ai_seats,
                    port,
                    args.draw_partners,
                    args.draw_dealer,
                    getattr(args, "deal", None),
                )
            )
            snapshots.append(None)
    advertiser = None if args.no_mdns else Advertiser(interfaces)
    server = HostServer(
        tls.server_context(cert),
        hosts=interfaces,
        fingerprint=cert.fingerprint,
        advertiser=advertiser,
        tick_interval=args.tick,
        heartbeat=args.heartbeat,
        hello_timeout=args.hello_timeout,
    )
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    quiet_cancelled_callbacks(loop)
    # While it serves, the host never waits for whoever reads its output (a full pipe, a
    # stopped terminal): each line is queued, and left out (counted) if nobody reads.
    out, err = Outlet(sys.stdout), Outlet(sys.stderr)
    try:
        return await _serve(args, server, specs, snapshots, identity, cert, interfaces,
                            state_dir, stop, out.write, err.write)  # fmt: skip
    finally:
        out.close()
        err.close()


async def _serve(  # noqa: PLR0917 (serve's state, handed over once)
    args: argparse.Namespace,
    server: HostServer,
    specs: list[TableSpec],
    snapshots: list[bytes | None],
    identity: Any,
    cert: Any,
    interfaces: list[str],
    state_dir: Path | None,
    stop: asyncio.Event,
    say: Callable[[str], None],
    warn: Callable[[str], None],
) -> int:
    loop = asyncio.get_running_loop()
    reporter = SaveReporter(server, warn)
    server.on_saving = reporter.state_saving
    savers: list[tuple[Any, GameSaver]] = []
    reopeners: list[Reopener] = []
    consoles: list[Console | None] = []
    saving: asyncio.Task[None] | None = None
    reopening: asyncio.Task[None] | None = None
    try:
        for i, (spec, snap) in enumerate(zip(specs, snapshots, strict=True)):
            table = make_table(
                spec,
                identity,
                snap,
                grace=args.grace,
                timeout=args.timeout,
                call_wait=args.call,
                play_timeout=args.play_timeout,
                ai_delay=args.ai_delay,
                hints=args.hints,
            )
            if not args.one_match:
                table = NextMatchTable(table)
            console = None if args.quiet else Console(say)
            consoles.append(console)
            if console is not None:  # one line per event (a player joined, a hand ended...)
                table = console.watch(table)
            if snap is not None and is_over(table):
                then = (
                    "result only (start a new match with --force, or another --state-dir)"
                    if args.one_match
                    else "result until nobody is connected, then a new match"
                )
                say(f"the match of table {spec.name!r} saved in {state_dir} is over: serving its "
                    + then)  # fmt: skip
            savers.append((table, host_saver(table, args.games, reporter, warn)))
            stem = "table" if len(specs) == 1 else f"table{i:03d}"
            state_path = None
            if state_dir is not None:
                state_path = state_dir / f"{stem}.state"
            try:
                hosted = await server.add_table(stem, table, port=spec.port, state_path=state_path)
            except OSError as exc:
                raise HostError(
                    f"cannot listen on {', '.join(interfaces)} port {spec.port}: {exc.strerror}. "
                    "Pick another --port (0 picks a free one)."
                ) from exc
            spec.port = hosted.port
            reopeners.append(Reopener(spec, hosted, len(savers) - 1, after=args.reopen_after))
            if state_dir is not None:
                try:
                    _save_meta(state_dir / f"{stem}.json", spec)
                except OSError as exc:
                    raise HostError(
                        f"--state-dir: cannot write in {state_dir}: {describe_os_error(exc)}"
                    ) from exc
            where = ", ".join(f"{a}:{hosted.port}" for a in interfaces)
            say(
                f"table {spec.name!r} ({spec.options.summary()}, {table.deal_mode} deal) on "
                f"{where} fingerprint {cert.fingerprint}"
            )
        say("ready")
        for console in consoles:
            if console is not None:
                console.start()
        saving = loop.create_task(save_loop(server, savers))

        if not args.one_match:

            def fresh(spec: TableSpec) -> Any:
                table = NextMatchTable(
                    make_table(
                        spec,
                        identity,
                        None,
                        grace=args.grace,
                        timeout=args.timeout,
                        call_wait=args.call,
                        play_timeout=args.play_timeout,
                        ai_delay=args.ai_delay,
                        hints=args.hints,
                    )
                )
                console = consoles[specs.index(spec)]
                return table if console is None else console.watch(table)

            reopening = loop.create_task(
                reopen_loop(
                    server, reopeners, savers, fresh, args.games, reporter=reporter, say=say
                )
            )
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        for task in (saving, reopening):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        try:
            await server.close()
        finally:
            # Everything played is kept: a hand in progress too (``verify`` reports it as
            # incomplete), and the state file if a full disk had refused it until now.
            save_all(savers, whole=True)
            server.retry_saves()
    say("host stopped")
    return 0


def is_over(table: Any) -> bool:
    return str(getattr(table, "phase", "")) == "over"


REOPEN_AFTER = 2.0  # seconds a finished table stays empty before it opens for a new match
REOPEN_CHECK = 0.5


@dataclass
class Reopener:
    """What it takes to open a table again: its spec, where it is served, its saver's index."""

    spec: TableSpec
    hosted: Any
    saver: int
    empty_since: float | None = None
    after: float = REOPEN_AFTER  # seconds it stays finished and empty (host --reopen-after)


def players_connected(table: Any) -> bool:
    """Whether a seated player of the table's match is connected (visitors do not count)."""
    return any(getattr(s, "conn", None) is not None for s in getattr(table, "seats", ()))


def due_for_reopening(r: Reopener, now: float) -> bool:
    """A finished match none of whose players has been connected for ``r.after`` seconds,
    or at once when none is and someone waits for the next match (``NextMatchTable``)."""
    table = r.hosted.table
    if not is_over(table) or players_connected(table):
        r.empty_since = None
        return False
    if getattr(table, "waiting", None):
        return True
    if r.empty_since is None:
        r.empty_since = now
    return now - r.empty_since >= r.after


class NextMatchTable(TableWrapper):
    """A ``HostTable`` served by a host that opens a finished table for a new match.

    While the match is over, a ``hello`` that does not resume a seat of it is held, not answered:
    the newcomer came for the next match, not to be shown the finished one's taken seats (and
    told "the table is full"). Its connection does not keep the table from reopening; when the
    table reopens it is closed and the client connects again, to the new match. Everything
    else goes to the table as is."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.waiting: set[int] = set()  # connections whose hello waits for the next match

    def receive(self, conn: int, message: Any) -> list[Any]:
        if type(message) is Hello and is_over(self.table) and not self._resumes(message):
            self.waiting.add(conn)
            return []
        return list(self.table.receive(conn, message))

    def _resumes(self, hello: Any) -> bool:
        token = hello.resume_token
        return token is not None and any(
            s.token is not None and secrets.compare_digest(s.token, token) for s in self.table.seats
        )

    def disconnect(self, conn: int) -> list[Any]:
        self.waiting.discard(conn)
        return list(self.table.disconnect(conn))


async def reopen_loop(
    server: HostServer,
    reopeners: Sequence[Reopener],
    savers: list[tuple[Any, GameSaver]],
    fresh: Callable[[TableSpec], Any],
    games: Path | None,
    *,
    reporter: SaveReporter | None = None,
    say: Callable[[str], None] = print,
) -> None:
    """Open each finished table for a new match once its players have left it: the same name,
    port, options and AI players, a new game (its own id, seeds and transcript)."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(REOPEN_CHECK)
        for r in reopeners:
            if not due_for_reopening(r, loop.time()):
                continue
            _, saver = savers[r.saver]
            saver.save(whole=True)  # the finished match's transcript, complete
            if saver.failing:  # a full disk: keep the finished match until it is saved
                continue
            table = fresh(r.spec)
            warn = reporter.warn if reporter is not None else _stderr
            savers[r.saver] = (table, host_saver(table, games, reporter, warn))
            server.replace_table(r.hosted, table)
            r.empty_since = None
            say(f"table {r.spec.name!r}: the match is over and everyone left; open for a new "
                "match")  # fmt: skip


class SaveReporter:
    """Tells the host's console (one line) and the players (one ``notice``) when saving stops
    working (a full or read-only disk), whichever file it is, and again once it all works."""

    def __init__(self, server: HostServer, warn: Callable[[str], None] | None = None) -> None:
        self.server = server
        self.warn = warn or _stderr  # the console's error stream
        self.failing: dict[object, Path] = {}  # what cannot be saved now, and where

    def update(self, what: object, path: Path, exc: OSError | None) -> None:
        """``what`` (a state file, a transcript) failed with ``exc``, or was saved (None)."""
        from briscola_lan.wire.messages import NoticeCode

        was_failing = bool(self.failing)
        if exc is not None:
            self.failing[what] = path
            if not was_failing:
                text = f"cannot save the game: {describe_os_error(exc)} ({path})"
                self.warn(f"briscola-lan host: {text}; play goes on, saving is tried again "
                          f"every {RETRY_SAVES:g} s")  # fmt: skip
                self.server.notify(NoticeCode.NOT_SAVING, f"{text}; play goes on")
            return
        self.failing.pop(what, None)
        if was_failing and not self.failing:
            self.warn(f"briscola-lan host: the game is saved again ({path})")
            self.server.notify(NoticeCode.SAVING, "the host saves the game again")

    def state_saving(self, hosted: HostedTable, path: Path, exc: OSError | None) -> None:
        self.update(("state", hosted.key), path, exc)

    def saver(self, saver: GameSaver) -> Callable[[Path, OSError | None], None]:
        return lambda path, exc: self.update(("games", id(saver)), path, exc)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def host_saver(
    table: Any,
    directory: Path | None,
    reporter: SaveReporter | None = None,
    warn: Callable[[str], None] = _stderr,
) -> GameSaver:
    """The host's transcript (every record) saved as ``<game>-host.briscola.json``."""
    saver = GameSaver(
        directory,
        "host",
        lambda: table.records,
        lambda: table.game_id,
        on_error=lambda text: warn(f"briscola-lan host: {text}"),
    )
    if reporter is not None:
        saver.on_saving = reporter.saver(saver)
    return saver


def save_all(savers: Sequence[tuple[Any, GameSaver]], *, whole: bool = False) -> None:
    """Complete hands while a match runs, the whole transcript once it is over (or ``whole``:
    the host stops, and keeps the hand being played too)."""
    for table, saver in savers:
        saver.save(whole=whole or is_over(table))


async def save_loop(server: HostServer, savers: Sequence[tuple[Any, GameSaver]]) -> None:
    """Save the transcripts as they grow; retry what a full disk refused every few seconds."""
    loop = asyncio.get_running_loop()
    retry_at = 0.0
    while True:
        await asyncio.sleep(SAVE_EVERY)
        retry = loop.time() >= retry_at
        if retry:
            retry_at = loop.time() + RETRY_SAVES
            server.retry_saves()
        save_all([(t, s) for t, s in savers if retry or not s.failing])


def quiet_cancelled_callbacks(loop: asyncio.AbstractEventLoop) -> None:
    """Shutting down cancels the connection tasks: a CancelledError that reaches a loop callback
    then is expected, not worth a traceback. Report anything else as usual."""

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), asyncio.CancelledError):
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(serve(args))
    except (HostError, DiscoveryError, tls.TlsError, GamesDirError, IdentityError) as exc:
        print(f"briscola-lan host: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command without the CLI dispatcher (used by tests and benchmarks)."""
    parser = argparse.ArgumentParser(prog="briscola-lan host")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
