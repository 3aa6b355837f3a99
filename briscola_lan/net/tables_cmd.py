"""``briscola-lan tables``: list the tables advertised on the local network over mDNS."""

from __future__ import annotations

import argparse
import asyncio
import json

from briscola_lan.net.discovery import DiscoveryError, list_tables, resolve_interfaces


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
    print(f"{'NAME':24} {'ADDRESS':22} {'SEATS':7} {'FREE':4} {'STATE':8} {'DEAL':7} RULES")
    for t in tables:
        print(
            f"{t.name[:24]:24} {t.address:22} {t.seated}/{t.players:<5} {t.free:<4} "
            f"{state_word(t.phase):8} {t.deal or 'classic':7} {t.rules}"
        )
    return 0


def state_word(phase: str) -> str:
    """A table's phase as a player reads it: open (waiting for players), playing, or over."""
    return {"": "open", "lobby": "open", "over": "over"}.get(phase, "playing")
