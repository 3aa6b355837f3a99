"""Seat a client and play a whole match over the network: the loop behind bots and benchmarks.

``connect`` opens a ``TableClient`` around a fresh ``ClientSession``; ``auto_play`` takes a free
seat, says ready, starts the match from seat 0 when everyone is ready, and plays whatever
``choose`` picks whenever the view says it is this seat's turn, until the match ends. It copes
with reconnects (the session resumes its seat) and with refused commands (it tries again on the
next change). Run as a module it is the capacity benchmark's client process.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.tls import KnownTables
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.rules.hand import SeatView

Chooser = Callable[[SeatView], Card]


class MatchFailed(Exception):
    """The match could not be played to its end (lost table, refused seat, timeout)."""


class BotPlayer:
    """The bot at ``level`` (briscola_lan.ai), deterministic for ``seed``: called with a view it
    chooses a card (a ``Chooser``); at five players it also bids and calls, and its cards are
    the five-player bot's (made when a five-player table first asks)."""

    def __init__(self, level: str, seed: int = 0) -> None:
        from briscola_lan.ai import make_bot

        self.level, self.seed = level, seed
        self._bot: Any = make_bot(level, seed)  # an unknown level is refused here, at once
        self._five: Any = None

    @property
    def five(self) -> Any:
        if self._five is None:
            from briscola_lan.ai import make_chiamata_bot

            self._five = make_chiamata_bot(self.level, self.seed)
        return self._five

    def __call__(self, view: SeatView) -> Card:
        if view.options.chiamata:
            card: Card = self.five.choose(view)
            return card
        chosen: Card = self._bot.choose(view)
        return chosen

    def bid(self, view: SeatView) -> Bid | None:
        bid: Bid | None = self.five.bid(view)
        return bid

    def call(self, view: SeatView) -> Suit:
        suit: Suit = self.five.call(view)
        return suit


def make_chooser(level: str, seed: int = 0) -> Chooser:
    """The moves of the bot at ``level`` (briscola_lan.ai), deterministic for ``seed``: its
    card, and at five players its bid and call (``BotPlayer``)."""
    return BotPlayer(level, seed)


def new_session(name: str, identity: Any = None) -> Any:
    """A ClientSession with the given identity (a fresh one when None)."""
    from briscola_lan.fairness.identity import Identity
    from briscola_lan.table.client import ClientSession

    return ClientSession(identity or Identity.generate(), name)


async def connect(
    target: Target,
    name: str,
    *,
    identity: Any = None,
    known_tables: KnownTables | None = None,
    interfaces: Sequence[str] = (),
) -> TableClient:
    """Connect to a table and say hello; returns the running client."""
    client = TableClient(
        new_session(name, identity),
        target,
        known_tables=known_tables,
        interfaces=interfaces,
    )
    try:
        await client.start()
    except BaseException:
        await client.close()
        raise
    return client


@dataclass
class PlayStats:
    """What ``auto_play`` did (for tests and benchmarks)."""

    plays: int = 0
    reconnects: int = 0
    errors: list[str] = field(default_factory=list)


def _all_ready(state: Any) -> bool:
    seats = state.seats
    return bool(seats) and all(s.occupied and (s.ai is not None or s.ready) for s in seats)


async def auto_play(
    client: TableClient,
    choose: Chooser,
    *,
    seat: int | None = None,
    start: bool = True,
    timeout: float | None = 600.0,
    on_play: Callable[[int, int], None] | None = None,
    delay: float = 0.0,
    gate: Callable[[], Awaitable[None]] | None = None,
) -> PlayStats:
    """Sit, get ready, (start), and play until the match is over; raises MatchFailed.

    ``delay`` waits that long before each card, like a person thinking; ``gate`` is awaited
    before each card (the latency benchmark waits there until the previous card is everywhere).
    """
    session = client.session
    stats = PlayStats()
    deadline = None if timeout is None else time.monotonic() + timeout
    asked_seat: int | None = None
    ready_sent = False
    start_sent_for: object = None
    last_play: tuple[int, int] | None = None  # (hand, cards played), or bids as -1 - bids
    waited: tuple[int, int] | None = None
    errors_seen = 0
    reconnects_seen = 0
    while True:
        state = session.state
        if client.error is not None:
            raise MatchFailed(str(client.error)) from client.error
        if client.closed:
            raise MatchFailed("the client was closed")
        if state.match_over:
            stats.reconnects = client.reconnects
            return stats
        if client.reconnects != reconnects_seen:  # the host gets everything again
            reconnects_seen = client.reconnects
            ready_sent, start_sent_for, last_play, asked_seat = False, None, None, None
        for err in state.errors[errors_seen:]:
            stats.errors.append(f"{err.code}: {err.text}")
            if err.code in ("seat_taken", "not_allowed", "no_such_seat") and asked_seat is not None:
                if seat is not None:
                    raise MatchFailed(f"cannot take seat {seat}: {err.text}")
                asked_seat = None
            if err.code == "wrong_phase" and asked_seat is not None and state.seat is None:
                # seats are taken only in the lobby: the match here is under way
                raise MatchFailed(
                    f"cannot take seat {asked_seat}: a match is under way at this table "
                    f"({err.text})"
                )
            if err.code in ("not_your_turn", "illegal_play", "wrong_phase", "bad_statement"):
                last_play = None
            if err.code == "not_ready":
                start_sent_for = None
        errors_seen = len(state.errors)
        # Act only on live state: a resumed seat's replay ends with replay_done (SPEC.md §6b);
        # a card chosen from a replayed turn would be refused as out of date.
        live = client.connected.is_set() and client.live
        if live and state.phase == "lobby" and state.seats:
            if state.seat is None and asked_seat is None:
                free = [s.seat for s in state.seats if not s.occupied]
                want = seat if seat is not None else (free[0] if free else None)
                if want is None:
                    raise MatchFailed("the table is full")
                asked_seat = want
                client.send(*session.take_seat(want))
            elif state.seat is not None:
                mine = state.seats[state.seat]
                if not mine.ready and not ready_sent:
                    client.send(*session.ready())
                    ready_sent = True
                if (
                    start
                    and state.seat == 0
                    and _all_ready(state)
                    and start_sent_for is not state.seats
                ):
                    start_sent_for = state.seats
                    client.send(*session.start())
        elif live and state.phase == "playing":
            view = state.view
            mine = view is not None and not getattr(state, "taken_over", False)
            if mine and view is not None and (view.my_bid or view.my_call):
                key = (state.hand_number, -1 - len(view.auction) - 100 * view.my_call)
                if key != last_play:
                    if not isinstance(choose, BotPlayer):
                        raise MatchFailed("five players: this player cannot bid or call")
                    if (delay > 0 or gate is not None) and waited != key:
                        waited = key  # a bid or call is thought over as a card is
                        if delay > 0:
                            await asyncio.sleep(delay)
                        if gate is not None:
                            await gate()
                        continue  # look again: the state may have moved on meanwhile
                    made = choose.bid(view) if view.my_bid else None
                    msgs = session.bid(made) if view.my_bid else session.call(choose.call(view))
                    if client.send(*msgs):
                        last_play = key
            elif mine and view is not None and view.my_turn:
                key = (state.hand_number, len(view.played_cards))
                if key != last_play:
                    if (delay > 0 or gate is not None) and waited != key:
                        waited = key
                        if delay > 0:
                            await asyncio.sleep(delay)
                        if gate is not None:
                            await gate()
                        continue  # look again: the state may have moved on meanwhile
                    card = choose(view)
                    if client.send(*session.play(card)):
                        last_play = key
                        stats.plays += 1
                        if on_play is not None:
                            on_play(state.hand_number, key[1])
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise MatchFailed(f"the match did not end within {timeout} s")
        if state.phase == "playing" and live and hasattr(session, "my_turn"):
            # Another seat's card, a trick, a draw: nothing to do until it is this seat's turn
            # or something else happens (the client asks this at each change, waking no task).
            await client.wait_for(_my_move(client, errors_seen, reconnects_seen), left)
        else:
            await client.wait_change(left)


def _my_move(client: TableClient, errors: int, reconnects: int) -> Callable[[], bool]:
    """While a match is played: whether the bot may have something to do (its turn, an error,
    a reconnect, the end of the match, a phase or connection change)."""
    session = client.session
    state = session.state
    seen = client.version  # a change first (as ``wait_change``): never true at once

    def ready() -> bool:
        return client.version != seen and (
            bool(getattr(session, "my_move", session.my_turn))
            or state.phase != "playing"
            or state.match_over
            or len(state.errors) != errors
            or client.reconnects != reconnects
            or not (client.live and client.connected.is_set())
            or client.error is not None
            or client.closed
        )

    return ready


# --- benchmark helpers ----------------------------------------------------------------------------


async def play_tables(
    tables: Sequence[tuple[str, int, str]],
    *,
    matches: int = 1,
    level: str = "random",
    seconds: float | None = None,
    isolate: bool = False,
) -> list[float]:
    """Four clients per table play ``matches`` matches (or for ``seconds``); returns latencies.

    A latency is the time from just before a client writes a card until all four clients have
    checked and applied it. With ``isolate`` a bot plays only once the previous card is with
    all four clients, so that no card's time includes the next player's move.
    """
    lat, _ = await _play_tables(
        tables, matches=matches, level=level, seconds=seconds, isolate=isolate
    )
    return [x for per in lat for x in per]


async def _play_tables(
    tables: Sequence[tuple[str, int, str]],
    *,
    matches: int,
    level: str,
    seconds: float | None,
    delay: float = 0.0,
    stagger: float = 0.0,
    isolate: bool = False,
) -> tuple[list[list[float]], int]:
    from briscola_lan.wire.messages import CardPlayed, PlayCard

    per_table: list[list[float]] = [[] for _ in tables]
    stop_at = None if seconds is None else time.perf_counter() + seconds
    completed = 0

    async def one_table(t: int, host: str, port: int, fp: str) -> None:
        nonlocal completed
        if stagger > 0:  # spread the tables' starts (real tables do not start in step)
            await asyncio.sleep(stagger * t / len(tables))
        # A card is known by its play statement's bytes: the PlayCard and every CardPlayed
        # relaying it carry the same body, so nothing is decoded to time it.
        sent: dict[bytes, float] = {}
        seen: dict[bytes, int] = {}
        quiet = asyncio.Event()  # no card of this table on its way
        quiet.set()

        def on_send(message: Any) -> None:
            if type(message) is PlayCard:
                quiet.clear()
                sent[message.body] = time.perf_counter()  # just before the write

        def on_message(message: Any) -> None:
            if type(message) is CardPlayed:
                n = seen.get(message.body, 0) + 1
                seen[message.body] = n
                if n == 4 and message.body in sent:
                    per_table[t].append(time.perf_counter() - sent.pop(message.body))
                    if not sent:
                        quiet.set()

        async def settled() -> None:
            """Until the card on its way is with all four (a lost one is waited for 1 s)."""
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(quiet.wait(), 1.0)

        for _ in range(matches if seconds is None else 10**6):
            if stop_at is not None and time.perf_counter() >= stop_at:
                return
            clients = [await connect(Target(host, port, None, fp), f"p{i}") for i in range(4)]
            for c in clients:
                c.before_send, c.on_message = on_send, on_message
            try:
                # Seats in order so that seat 0 (which starts the match) is a client.
                tasks = []
                for i, c in enumerate(clients):
                    tasks.append(
                        asyncio.create_task(
                            auto_play(
                                c,
                                make_chooser(level, t * 4 + i),
                                seat=i,
                                delay=delay,
                                gate=settled if isolate else None,
                            )
                        )
                    )
                await asyncio.gather(*tasks)
                completed += 1
            finally:
                for c in clients:
                    await c.close()
            # One match per table here: a host opens a finished table again only once everyone
            # has left it (and after a pause), so benchmarks serve a table per match.
            return

    await asyncio.gather(*(one_table(t, *spec) for t, spec in enumerate(tables)))
    return per_table, completed


async def play_one_seat(
    host: str, port: int, fingerprint: str, seat: int, level: str
) -> dict[str, dict[str, float]]:
    """Play one seat of a table and time every card: when this seat sent it, and when this
    client had it (frame decoded: ``got``; verified and applied: ``applied``)."""
    from briscola_lan.wire.messages import CardPlayed, PlayCard

    times: dict[str, dict[str, float]] = {"sent": {}, "got": {}, "applied": {}}
    client = await connect(Target(host, port, None, fingerprint), f"p{seat}")

    def stamp(kind: str, cls: type[PlayCard | CardPlayed]) -> Callable[[Any], None]:
        """Time ``cls`` messages, keyed by their play statement's bytes (the same in all)."""
        where = times[kind]

        def hook(message: Any) -> None:
            if type(message) is cls:
                where[message.body.hex()] = time.perf_counter()

        return hook

    client.before_send = stamp("sent", PlayCard)  # just before the write
    client.before_message = stamp("got", CardPlayed)
    client.on_message = stamp("applied", CardPlayed)
    try:
        await auto_play(client, make_chooser(level, seat), seat=seat)
    finally:
        await client.close()
    return times


def main(argv: Sequence[str] | None = None) -> int:
    """Benchmark client: play every seat of the given tables (or one ``--seat``); print JSON."""
    parser = argparse.ArgumentParser(prog="python -m briscola_lan.net.player")
    parser.add_argument("ports", type=int, nargs="+")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--fingerprint", required=True)
    parser.add_argument("--seat", type=int, help="play only this seat of the first table")
    parser.add_argument("--level", default="random")
    parser.add_argument(
        "--delay", type=float, default=0.0, help="seconds each bot waits before a card"
    )
    parser.add_argument(
        "--stagger", type=float, default=0.0, help="spread the tables' starts over this many s"
    )
    parser.add_argument(
        "--skip-client-signature-checks",
        action="store_true",
        help="load generator only: these clients trust every signature (the host still checks "
        "all of them), so that a few processes can drive many tables",
    )
    args = parser.parse_args(argv)
    if args.skip_client_signature_checks:
        from briscola_lan.fairness import verify
        from briscola_lan.table import client as client_module

        def trust(public_key: bytes, body: bytes, sig: bytes) -> bool:
            return len(public_key) == 32 and len(sig) == 64

        for module in (verify, client_module):
            setattr(module, "verify_signature", trust)  # noqa: B010 - a module-level swap
    if args.seat is not None:
        times = asyncio.run(
            play_one_seat(args.host, args.ports[0], args.fingerprint, args.seat, args.level)
        )
        print(json.dumps(times))
        return 0
    tables = [(args.host, p, args.fingerprint) for p in args.ports]
    per_table, completed = asyncio.run(
        _play_tables(
            tables,
            matches=1,
            level=args.level,
            seconds=None,
            delay=args.delay,
            stagger=args.stagger,
        )
    )
    flat = [x for per in per_table for x in per]
    p99s = [sorted(per)[int(0.99 * (len(per) - 1))] for per in per_table if per]
    print(
        json.dumps(
            {
                "all": flat,
                "table_p99": p99s,
                "completed": completed,
                "median": statistics.median(flat) if flat else None,
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
