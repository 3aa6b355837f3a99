"""Connecting a front end to a table: find and join it, check the command line, save its game.

What every network front end shares (``join``'s line client, ``bot``, and the full-screen client
through ``join``): ``open_table`` (find + connect, pinned TLS, trust on first use), the checks of
the target and options, the transcript saver, and how a lost table or a result is worded.
"""

from __future__ import annotations

import argparse
import ipaddress
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, TableClient, parse_address, resolve_target
from briscola_lan.net.discovery import resolve_interfaces
from briscola_lan.net.games import GameSaver, GamesDirError, check_writable
from briscola_lan.net.player import Chooser, make_chooser
from briscola_lan.net.resume_store import ResumeStore
from briscola_lan.net.tables_cmd import add_interfaces_option


class UsageError(Exception):
    """A command-line value that cannot work (bad address, unknown level, bad number)."""


def _looks_like_host(text: str) -> bool:
    if text == "localhost":
        return True
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def check_target(text: str) -> None:
    """Refuse ``HOST:PORT`` with a port that is not 1..65535 (an address, not a table name)."""
    text = text.strip()
    if text.startswith("["):
        host, sep, port = text[1:].partition("]:")
        looks = bool(sep)
    else:
        host, sep, port = text.rpartition(":")
        looks = bool(sep) and (_looks_like_host(host) or (port.isdigit() and ":" not in host))
    if not looks:
        return
    if not port.isdigit() or not 1 <= int(port) <= 65535:
        raise UsageError(f"{text!r} is not a valid address: the port must be a number 1..65535")


def check_level(level: str, seed: int = 0) -> Chooser:
    """The bot for ``level``, or UsageError naming the levels there are."""
    try:
        return make_chooser(level, seed)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def check_common(args: argparse.Namespace) -> None:
    check_target(args.table)
    if not args.timeout >= 0:
        raise UsageError(f"--timeout {args.timeout}: give 0 or more seconds")
    games = getattr(args, "games", None)
    if games is not None:
        try:
            check_writable(games, "--games")
        except GamesDirError as exc:
            raise UsageError(str(exc)) from exc


def client_saver(client: TableClient, label: str, directory: Path | None, prog: str) -> GameSaver:
    """Save this client's transcript (complete hands as they end, everything at the end)."""
    session = client.session
    saver = GameSaver(
        directory,
        label,
        lambda: session.records,
        lambda: session.state.game_id,
        on_error=lambda text: print(f"{prog}: {text}", file=sys.stderr, flush=True),
    )

    def on_change() -> None:
        saver.save()

    client.on_change = on_change
    return saver


def lost_reason(client: TableClient, was_seated: bool) -> str:
    """Why the connection is gone for good, worded for a host that was reached before."""
    error: Any = client.error
    if isinstance(error, ConnectError) and was_seated:
        cause = error.__cause__
        detail = f" ({cause})" if cause is not None and str(cause) else ""
        return (
            f"the host went away: table at {client.target.host}:{client.target.port} did not "
            f"come back{detail}"
        )
    return str(error)


def add_target_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("table", metavar="NAME|HOST:PORT", help="table name (mDNS) or address")
    parser.add_argument("--fingerprint", help="the host's certificate fingerprint (64 hex)")
    add_interfaces_option(parser)
    parser.add_argument(
        "--timeout", type=float, default=5.0, help="seconds to look for the table by name"
    )
    parser.add_argument("--seat", type=int, help="seat to take (default: the first free one)")
    parser.add_argument(
        "--games",
        type=Path,
        help="save the match transcript here (default: $XDG_DATA_HOME/briscola-lan/games)",
    )


def winner_text(state: Any) -> str:
    """The winning side of a finished match by its players' names (``TableOptions.side_text``)."""
    if state.winner is None or state.options is None:
        return "nobody"
    names = [info.name for info in sorted(state.seats, key=lambda i: i.seat)]
    return str(state.options.side_text(state.winner, names))


async def open_table(
    where: str,
    *,
    name: str,
    fingerprint: str | None = None,
    interfaces: Sequence[str] | None = None,
    timeout: float = 5.0,
    identity: Any = None,
    home: Path | None = None,
) -> TableClient:
    """Find (by name) and connect to a table; the client then reconnects by itself.

    ``home`` is the directory that keeps the identity key and the resume state (the config dir
    unless given: ``bot`` gives each bot its own).
    """
    from briscola_lan.net.files import load_or_create_identity
    from briscola_lan.table.client import ClientSession

    ifaces: list[str] = []
    if parse_address(where) is None or interfaces:
        ifaces = resolve_interfaces(interfaces)
    target = await resolve_target(
        where,
        interfaces=ifaces,
        timeout=timeout,
        fingerprint=tls.normalize_fingerprint(fingerprint) if fingerprint else None,
    )
    session = ClientSession(identity or load_or_create_identity(home), name)
    store = ResumeStore(None if home is None else home / "resume_tokens")
    # A restarted join takes its seat back, and can still reveal a seed it committed to.
    store.attach_secrets(session, target.key)
    client = TableClient(
        session, target, known_tables=tls.KnownTables(), interfaces=ifaces, resume_store=store
    )
    try:
        await client.start()
    except BaseException:
        await client.close()
        raise
    return client
