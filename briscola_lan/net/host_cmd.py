"""``briscola-lan host``: host a table on the LAN (TLS, mDNS), optionally resuming after a crash.

The host runs the pure ``HostTable`` inside ``HostServer``. With ``--state-dir`` it writes the
table's snapshot after every change; ``--resume`` restarts from it on the same port so that the
clients reconnect by themselves. ``--tables N`` serves N tables from one process (capacity).
Once a match is over and everyone has left, the table opens for a new match (``--one-match``
keeps the result on show instead).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import json
import signal
import socket
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola_lan.net import tls
from briscola_lan.net.discovery import Advertiser, DiscoveryError, resolve_interfaces
from briscola_lan.net.games import GameSaver, GamesDirError, check_writable
from briscola_lan.net.server import HostServer
from briscola_lan.net.tables_cmd import add_interfaces_option
from briscola_lan.net.transport import Heartbeat, heartbeat_option
from briscola_lan.rules.cards import Suit
from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import MatchFormat, TableOptions

META_FILE = "table.json"
SAVE_EVERY = 0.25  # seconds between looks at the host's transcript (saved when it grew)


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


def make_table(
    spec: TableSpec, identity: Any, snapshot: bytes | None = None, *, grace: float = 30.0
) -> Any:
    """A fresh HostTable, or one restored from ``snapshot``."""
    from briscola_lan.table.host import HostTable, SnapshotError

    if snapshot is not None:
        try:
            table = HostTable.restore(snapshot, identity=identity)
        except SnapshotError as exc:
            raise HostError(f"cannot resume: {exc}") from exc
        table.grace = grace
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
    }
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")


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
        )
    except (OSError, ValueError, KeyError, TypeError, OptionsError) as exc:
        raise HostError(f"cannot resume from {path}: {exc}") from exc


async def serve(args: argparse.Namespace, *, stop: asyncio.Event | None = None) -> int:
    """Run the host until SIGINT/SIGTERM (or ``stop``); returns the exit status."""
    from briscola_lan.fairness.identity import load_or_create

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
        check_writable(state_dir, "--state-dir")
    if args.games is not None:
        check_writable(args.games, "--games")
    cert = tls.load_or_create_certificate()
    identity = load_or_create()
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
            snapshots.append(snap_path.read_bytes() if snap_path.exists() else None)
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
                TableSpec(name, options, ai_seats, port, args.draw_partners, args.draw_dealer)
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
    )
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    quiet_cancelled_callbacks(loop)
    savers: list[tuple[Any, GameSaver]] = []
    reopeners: list[Reopener] = []
    saving: asyncio.Task[None] | None = None
    reopening: asyncio.Task[None] | None = None
    try:
        for i, (spec, snap) in enumerate(zip(specs, snapshots, strict=True)):
            table = make_table(spec, identity, snap, grace=args.grace)
            if snap is not None and is_over(table):
                then = (
                    "result only (start a new match with --force, or another --state-dir)"
                    if args.one_match
                    else "result until nobody is connected, then a new match"
                )
                print(
                    f"the match of table {spec.name!r} saved in {state_dir} is over: serving its "
                    + then,
                    flush=True,
                )
            savers.append((table, host_saver(table, args.games)))
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
            reopeners.append(Reopener(spec, hosted, len(savers) - 1))
            if state_dir is not None:
                _save_meta(state_dir / f"{stem}.json", spec)
            where = ", ".join(f"{a}:{hosted.port}" for a in interfaces)
            print(
                f"table {spec.name!r} ({spec.options.summary()}) on {where} "
                f"fingerprint {cert.fingerprint}",
                flush=True,
            )
        print("ready", flush=True)
        saving = loop.create_task(save_loop(savers))
        if not args.one_match:

            def fresh(spec: TableSpec) -> Any:
                return make_table(spec, identity, None, grace=args.grace)

            reopening = loop.create_task(reopen_loop(server, reopeners, savers, fresh, args.games))
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
        await server.close()
        save_all(savers)
    print("host stopped", flush=True)
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


def due_for_reopening(r: Reopener, now: float) -> bool:
    """A finished match nobody has been connected to for ``REOPEN_AFTER`` seconds."""
    if not is_over(r.hosted.table) or r.hosted.conns:
        r.empty_since = None
        return False
    if r.empty_since is None:
        r.empty_since = now
    return now - r.empty_since >= REOPEN_AFTER


async def reopen_loop(
    server: HostServer,
    reopeners: Sequence[Reopener],
    savers: list[tuple[Any, GameSaver]],
    fresh: Callable[[TableSpec], Any],
    games: Path | None,
) -> None:
    """Open each finished table for a new match once everyone has left it: the same name, port,
    options and AI players, a new game (its own id, seeds and transcript)."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(REOPEN_CHECK)
        for r in reopeners:
            if not due_for_reopening(r, loop.time()):
                continue
            _, saver = savers[r.saver]
            saver.save(whole=True)  # the finished match's transcript, complete
            table = fresh(r.spec)
            savers[r.saver] = (table, host_saver(table, games))
            server.replace_table(r.hosted, table)
            r.empty_since = None
            print(f"table {r.spec.name!r}: the match is over and everyone left; open for a new "
                  "match", flush=True)  # fmt: skip


def host_saver(table: Any, directory: Path | None) -> GameSaver:
    """The host's transcript (every record) saved as ``<game>-host.briscola.json``."""
    return GameSaver(
        directory,
        "host",
        lambda: table.records,
        lambda: table.game_id,
        on_error=lambda text: print(f"briscola-lan host: {text}", file=sys.stderr, flush=True),
    )


def save_all(savers: Sequence[tuple[Any, GameSaver]]) -> None:
    """Complete hands while a match runs, the whole transcript once it is over."""
    for table, saver in savers:
        saver.save(whole=is_over(table))


async def save_loop(savers: Sequence[tuple[Any, GameSaver]]) -> None:
    while True:
        await asyncio.sleep(SAVE_EVERY)
        save_all(savers)


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
    except (HostError, DiscoveryError, tls.TlsError, GamesDirError) as exc:
        print(f"briscola-lan host: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command without the CLI dispatcher (used by tests and benchmarks)."""
    parser = argparse.ArgumentParser(prog="briscola-lan host")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
