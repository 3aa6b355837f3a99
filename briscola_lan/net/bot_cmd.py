"""``briscola-lan bot``: an AI player that joins a table over the network and plays one match."""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence

from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, parse_address, resolve_target
from briscola_lan.net.discovery import DiscoveryError, resolve_interfaces
from briscola_lan.net.player import MatchFailed, auto_play, connect, make_chooser
from briscola_lan.net.tables_cmd import add_interfaces_option


def add_target_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", metavar="NAME|HOST:PORT", help="table name (mDNS) or address")
    parser.add_argument("--fingerprint", help="the host's certificate fingerprint (64 hex)")
    add_interfaces_option(parser)
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to look for the table by name"
    )
    parser.add_argument("--seat", type=int, help="seat to take (default: the first free one)")


def configure(parser: argparse.ArgumentParser) -> None:
    add_target_options(parser)
    parser.add_argument("--level", default="rules", help="random, rules or strong")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot's own choices")
    parser.add_argument("--name", help="player name (default: bot-LEVEL)")
    parser.add_argument("--no-start", action="store_true", help="in seat 0, do not start the match")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each card")


async def play(args: argparse.Namespace) -> int:
    interfaces: list[str] = []
    if parse_address(args.table) is None or args.interfaces:
        interfaces = resolve_interfaces(args.interfaces)
    target = await resolve_target(
        args.table,
        interfaces=interfaces,
        timeout=args.timeout,
        fingerprint=tls.normalize_fingerprint(args.fingerprint) if args.fingerprint else None,
    )
    chooser = make_chooser(args.level, args.seed)
    client = await connect(
        target,
        args.name or f"bot-{args.level}",
        known_tables=tls.KnownTables(),
        interfaces=interfaces,
    )
    try:

        def on_play(hand: int, index: int) -> None:
            if hand == 0 and index < client.session.state.options.players:
                print(f"playing in seat {client.session.state.seat}", flush=True)

        stats = await auto_play(
            client,
            chooser,
            seat=args.seat,
            start=not args.no_start,
            delay=args.delay,
            on_play=on_play,
        )
        state = client.session.state
        checks = ", ".join(c.summary for c in state.checks)
        print(
            f"match over: seat {state.seat}, winner side {state.winner}, hands won "
            f"{state.hands_won}, points {state.total_points}; {stats.plays} cards played, "
            f"{stats.reconnects} reconnects; {checks}",
            flush=True,
        )
        failed = [c for c in state.checks if c.status == "failed"]
        return 3 if failed else 0
    finally:
        await client.close()


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(play(args))
    except (ConnectError, DiscoveryError, tls.TlsError, MatchFailed) as exc:
        print(f"briscola-lan bot: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="briscola-lan bot")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
