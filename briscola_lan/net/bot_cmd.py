"""``briscola-lan bot``: an AI player that joins a table over the network and plays one match.

Each bot name has its own identity key and resume state in ``CONFIG/bots/NAME/`` (never the
player's own key), so a bot restarted with the same name takes its seat back like ``join`` does.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import sys
import urllib.parse
from collections.abc import Iterator, Sequence
from pathlib import Path

from briscola_lan.fairness.identity import IdentityError
from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, TableClient
from briscola_lan.net.connect import (
    UsageError,
    add_target_options,
    check_common,
    check_level,
    check_target,
    client_saver,
    lost_reason,
    open_table,
    winner_text,
)
from briscola_lan.net.discovery import DiscoveryError
from briscola_lan.net.files import private_dir
from briscola_lan.net.lock import try_lock
from briscola_lan.net.player import Chooser, MatchFailed, auto_play

# Kept importable from here for the callers that know them as bot_cmd's.
__all__ = ["UsageError", "check_target", "claim_bot_home", "lost_reason", "main", "run"]

BOTS_DIR = "bots"
MAX_SLOTS = 100  # bots of one name running at once on one account


def configure(parser: argparse.ArgumentParser) -> None:
    add_target_options(parser)
    parser.add_argument("--level", default="rules", help="random, rules or strong")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot's own choices")
    parser.add_argument("--name", help="player name (default: bot-LEVEL)")
    parser.add_argument("--no-start", action="store_true", help="in seat 0, do not start the match")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each card")
    parser.add_argument(
        "--quiet", action="store_true", help="say nothing while connecting, only the result"
    )


def bot_dir_name(name: str) -> str:
    """A file name for a bot's name: percent-encoded (no ``/``, ``.`` or ``..``), hashed if long."""
    quoted = urllib.parse.quote(name, safe="").replace(".", "%2E")
    if len(quoted) <= 100:
        return quoted
    return "sha256-" + hashlib.sha256(name.encode("utf-8")).hexdigest()


@contextlib.contextmanager
def claim_bot_home(name: str, config: Path | None = None) -> Iterator[Path]:
    """The directory with the identity and resume state of the bot called ``name``, locked while
    this bot runs.

    A second bot of the same name running at the same time gets its own directory
    (``NAME.2``, ...) and so its own identity: the host gives one seat per identity, and the two
    must not take each other's seat with the same resume token. A bot that died left its lock
    free, so its restart (the lowest free directory) takes back its identity and seat.
    """
    base = (config or tls.config_dir()) / BOTS_DIR
    stem = bot_dir_name(name)
    for slot in range(1, MAX_SLOTS + 1):
        home = base / (stem if slot == 1 else f"{stem}.{slot}")
        try:
            private_dir(home, tighten=True)
            lock = try_lock(home / "lock")
        except OSError as exc:
            raise IdentityError(f"cannot keep the bot's identity in {home}: {exc}") from exc
        if lock is None:
            continue
        try:
            yield home
        finally:
            lock.release()
        return
    raise IdentityError(f"{MAX_SLOTS} bots called {name!r} are running already: give --name")


async def play(args: argparse.Namespace) -> int:
    check_common(args)
    chooser = check_level(args.level, args.seed)
    name = args.name or f"bot-{args.level}"

    def say(text: str) -> None:
        if not args.quiet:
            print(f"{name}: {text}", flush=True)

    with claim_bot_home(name) as home:
        say(f"looking for table {args.table} (up to {args.timeout:g} s)")
        client = await open_table(
            args.table,
            name=name,
            fingerprint=args.fingerprint,
            interfaces=args.interfaces,
            timeout=args.timeout,
            home=home,
        )
        target = client.target
        say(f"connected to {target.host}:{target.port} (TLS, pinned {client.pinned[:16]}...); "
            "taking a seat")  # fmt: skip
        # A second bot of this name saves under its own label (NAME.2), not over the first's file.
        label = name + home.name.removeprefix(bot_dir_name(name))
        return await play_match(args, client, chooser, label)


async def play_match(
    args: argparse.Namespace, client: TableClient, chooser: Chooser, label: str
) -> int:
    """Play the match on a connected client, print the result and save the transcript."""
    saver = client_saver(client, label, args.games, "briscola-lan bot")
    quiet = bool(getattr(args, "quiet", False))
    try:

        def on_play(hand: int, index: int) -> None:
            if hand == 0 and index < client.session.state.options.players and not quiet:
                print(f"playing in seat {client.session.state.seat}", flush=True)

        try:
            stats = await auto_play(
                client,
                chooser,
                seat=args.seat,
                start=not args.no_start,
                delay=args.delay,
                on_play=on_play,
            )
        except MatchFailed as exc:
            if client.error is not None:
                raise MatchFailed(
                    lost_reason(client, client.session.state.seat is not None)
                ) from exc
            raise
        state = client.session.state
        checks = ", ".join(c.summary for c in state.checks)
        print(
            f"match over: seat {state.seat}, won by {winner_text(state)}, hands won "
            f"{state.hands_won}, points {state.total_points}; {stats.plays} cards played, "
            f"{stats.reconnects} reconnects; {checks}",
            flush=True,
        )
        saver.save(whole=True)
        if saver.path is not None:
            print(f"saved {saver.path}", flush=True)
        failed = [c for c in state.checks if c.status == "failed"]
        return 3 if failed else 0
    finally:
        if client.session.state.match_over or client.error is not None:
            saver.save(whole=True)
        else:
            saver.save()
        await client.close()


def run(args: argparse.Namespace) -> int:
    try:
        return asyncio.run(play(args))
    except (
        ConnectError,
        DiscoveryError,
        tls.TlsError,
        MatchFailed,
        UsageError,
        IdentityError,
    ) as exc:
        print(f"briscola-lan bot: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="briscola-lan bot")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
