"""``briscola-lan host``: host a table on the LAN (TLS, mDNS), optionally resuming after a crash.

The host runs the pure ``HostTable`` inside ``HostServer``. With ``--state-dir`` it writes the
table's snapshot after every change; ``--resume`` restarts from it on the same port so that the
clients reconnect by themselves. ``--tables N`` serves N tables from one process (capacity).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import signal
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola_lan.net import tls
from briscola_lan.net.discovery import Advertiser, DiscoveryError, resolve_interfaces
from briscola_lan.net.server import HostServer
from briscola_lan.net.tables_cmd import add_interfaces_option
from briscola_lan.net.transport import Heartbeat, heartbeat_option
from briscola_lan.rules.cards import Suit
from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import MatchFormat, TableOptions

META_FILE = "table.json"


class HostError(Exception):
    """A hosting problem a user can fix (bad options, missing state, port in use)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--name", default="Briscola", help="table name shown in the lobby")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument(
        "--format",
        dest="match_format",
        default="hands",
        choices=[str(f) for f in MatchFormat],
        help="hands: first side to win N hands (61+); points: 2 hands (3 at 3p), most points",
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
        "--grace",
        type=float,
        default=30.0,
        help="seconds a dropped player has to come back before an AI plays the seat",
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


def parse_options(args: argparse.Namespace) -> TableOptions:
    try:
        return TableOptions.make(
            players=args.players,
            match_format=MatchFormat(args.match_format),
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
            raise HostError(f"--ai-seats: {item!r} is not SEAT:LEVEL with a seat 0..{players - 1}")
        seats[int(seat_text)] = level or args.ai_level
    try:
        from briscola_lan.ai import LEVELS
    except ImportError:
        return seats
    for level in seats.values():
        if level not in LEVELS:
            raise HostError(f"unknown AI level {level!r}: use one of {', '.join(LEVELS)}")
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
    return HostTable(
        spec.options,
        name=spec.name,
        identity=identity,
        ai_seats=spec.ai_seats,
        draw_partners=spec.draw_partners,
        draw_dealer=spec.draw_dealer,
        grace=grace,
    )


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

    interfaces = resolve_interfaces(args.interfaces)
    cert = tls.load_or_create_certificate()
    identity = load_or_create()
    state_dir: Path | None = args.state_dir
    specs: list[TableSpec] = []
    snapshots: list[bytes | None] = []
    if args.resume:
        if state_dir is None:
            raise HostError("--resume needs --state-dir, the directory the host saved to")
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
        for i in range(args.tables):
            name = args.name if args.tables == 1 else f"{args.name} {i + 1}"
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
    try:
        for i, (spec, snap) in enumerate(zip(specs, snapshots, strict=True)):
            table = make_table(spec, identity, snap, grace=args.grace)
            stem = "table" if len(specs) == 1 else f"table{i:03d}"
            state_path = None
            if state_dir is not None:
                state_dir.mkdir(parents=True, exist_ok=True)
                state_path = state_dir / f"{stem}.state"
            try:
                hosted = await server.add_table(stem, table, port=spec.port, state_path=state_path)
            except OSError as exc:
                raise HostError(
                    f"cannot listen on {', '.join(interfaces)} port {spec.port}: {exc.strerror}. "
                    "Pick another --port (0 picks a free one)."
                ) from exc
            spec.port = hosted.port
            if state_dir is not None:
                _save_meta(state_dir / f"{stem}.json", spec)
            where = ", ".join(f"{a}:{hosted.port}" for a in interfaces)
            print(
                f"table {spec.name!r} ({spec.options.summary()}) on {where} "
                f"fingerprint {cert.fingerprint}",
                flush=True,
            )
        print("ready", flush=True)
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        await server.close()
    return 0


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(serve(args))
    except (HostError, DiscoveryError, tls.TlsError) as exc:
        print(f"briscola-lan host: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command without the CLI dispatcher (used by tests and benchmarks)."""
    parser = argparse.ArgumentParser(prog="briscola-lan host")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
