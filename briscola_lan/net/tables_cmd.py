"""``briscola-lan tables``: list the tables advertised on the local network over mDNS."""

from __future__ import annotations

import argparse
import asyncio
import json

from briscola_lan.net.discovery import DiscoveryError, TableAd, list_tables, resolve_interfaces


def add_interfaces_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--interfaces",
        nargs="+",
        metavar="ADDR",
        help="IP addresses of this machine to use for mDNS (default: $BRISCOLA_LAN_INTERFACES, "
        "else every LAN interface; 127.0.0.1 for this machine only)",
    )


def configure(parser: argparse.ArgumentParser) -> None:
    add_interfaces_option(parser)
    parser.add_argument(
        "--timeout", type=float, default=1.5, help="seconds to listen (default 1.5)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per table")


def run(args: argparse.Namespace) -> int:
    if not args.timeout > 0:
        print(f"briscola-lan tables: --timeout {args.timeout:g}: give more than 0 seconds")
        return 2
    try:
        interfaces = resolve_interfaces(args.interfaces)
        tables = asyncio.run(list_tables(interfaces, args.timeout))
    except DiscoveryError as exc:
        print(f"briscola-lan tables: {exc}")
        return 1
    if args.json:
        for t in tables:
            print(
                json.dumps(
                    {
                        "name": t.name,
                        "address": t.address,
                        "addresses": list(t.addresses),
                        "port": t.port,
                        "players": t.players,
                        "seated": t.seated,
                        "free": t.free,
                        "rules": t.rules,
                        "phase": t.phase,
                        "deal": t.deal or "classic",
                        "fingerprint": t.fingerprint,
                        "version": t.version,
                    }
                )
            )
        return 0
    if not tables:
        print(f"no tables found on {', '.join(interfaces)} within {args.timeout:g} s")
        return 0
    for line in table_lines(tables):
        print(line)
    return 0


WIDTH = 79  # the listing fits an 80-column terminal


def table_lines(tables: list[TableAd]) -> list[str]:
    """The listing: a header and one line per table, each at most ``WIDTH`` columns (a long
    name or rules text is cut; an IPv6 address is never cut, so it may go past)."""
    head = f"{'NAME':16} {'ADDRESS':21} {'SEATS':5} {'STATE':7} {'DEAL':7} RULES"
    out = [head]
    for t in tables:
        left = f"{t.name[:16]:16} {t.address:21} {f'{t.seated}/{t.players}':5} "
        left += f"{state_word(t.phase):7} {(t.deal or 'classic')[:7]:7} "
        out.append(left + t.rules[: max(8, WIDTH - len(left))])
    return out


def state_word(phase: str) -> str:
    """A table's phase as a player reads it: open (waiting for players), playing, or over."""
    return {"": "open", "lobby": "open", "over": "over"}.get(phase, "playing")
