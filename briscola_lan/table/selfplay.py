"""Self-play through the full protocol in one process: a HostTable and one ClientSession per seat.

Every message goes through the codec's bytes (encode_frame, FrameDecoder) as on a real
connection; each seat has its own identity and seeds. Used by ``briscola-lan simulate --save``
(which saves ``SelfPlayResult.transcripts()`` through ``net.games``), the tests and benchmarks.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from briscola_lan.fairness.identity import Identity
from briscola_lan.rules.cards import Card
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.core import ChiamataBot, chiamata_bot_factory
from briscola_lan.table.host import Bot, BotFactory, HostTable, Outgoing, default_bot_factory
from briscola_lan.wire.codec import FrameDecoder, encode_frame
from briscola_lan.wire.messages import Message

Chooser = Callable[[SeatView], Card]


@dataclass(slots=True)
class SelfPlayResult:
    """A finished self-play match: the host and the clients."""

    host: HostTable
    clients: list[ClientSession]
    messages: int

    def transcripts(self) -> list[tuple[str, list[tuple[bytes, bytes]]]]:
        """Every party's transcript, labelled ``host`` and ``seat<N>`` (for saving)."""
        out = [("host", list(self.host.records))]
        for i, c in enumerate(self.clients):
            seat = c.state.seat if c.state.seat is not None else i  # moved by a draw
            out.append((f"seat{seat}", list(c.records)))
        return out


class Wire:
    """In-memory connections: every message crosses as frame bytes through a FrameDecoder."""

    def __init__(self, host: HostTable, clients: list[ClientSession]) -> None:
        self.host, self.clients = host, clients
        self.to_host: deque[tuple[int, bytes]] = deque()
        self.to_client: deque[tuple[int, bytes]] = deque()
        self.host_dec = {i: FrameDecoder() for i in range(len(clients))}
        self.client_dec = {i: FrameDecoder() for i in range(len(clients))}
        self.received: dict[int, list[Message]] = {i: [] for i in range(len(clients))}
        self.count = 0
        self.tap: Callable[[int, Message], Message | None] | None = None  # test hook

    def send_to_host(self, conn: int, msgs: list[Message]) -> None:
        for msg in msgs:
            self.to_host.append((conn, encode_frame(msg)))

    def deliver(self, outs: list[Outgoing]) -> None:
        for o in outs:
            msg: Message | None = o.message
            if self.tap is not None:
                msg = self.tap(o.conn, o.message)
            if msg is not None:
                self.to_client.append((o.conn, encode_frame(msg)))

    def pump(self) -> None:
        """Move messages both ways until nothing is in flight."""
        while self.to_host or self.to_client:
            while self.to_client:
                conn, frame = self.to_client.popleft()
                for msg in self.client_dec[conn].feed(frame):
                    self.count += 1
                    self.received[conn].append(msg)
                    self.send_to_host(conn, self.clients[conn].receive(msg))
            while self.to_host:
                conn, frame = self.to_host.popleft()
                for msg in self.host_dec[conn].feed(frame):
                    self.count += 1
                    self.deliver(self.host.receive(conn, msg))


def counter_entropy(label: str = "t") -> Callable[[int], bytes]:
    """Deterministic 'entropy' for reproducible runs (tests and benchmarks; never a real game):
    the n-th call gives SHA-256 blocks of ``label/n/offset``."""
    state = {"i": 0}

    def entropy(n: int) -> bytes:
        state["i"] += 1
        out = b""
        while len(out) < n:
            out += hashlib.sha256(f"{label}/{state['i']}/{len(out)}".encode()).digest()
        return out[:n]

    return entropy


def seat_clients(
    options: TableOptions,
    *,
    entropy: Callable[[int], bytes] = secrets.token_bytes,
    name: str = "selfplay",
    host_identity: Identity | None = None,
    draw_partners: bool = False,
    draw_dealer: bool = False,
    clock: Callable[[], float] = time.time,
    deal: str | None = None,
    ai_seats: dict[int, str] | None = None,
) -> tuple[HostTable, list[ClientSession], Wire]:
    """A table with one connected, seated, ready ClientSession per seat that ``ai_seats`` (seat
    -> level) leaves to a person: client i sits in the i-th such seat (with no AI seats, seat i).

    ``clock`` dates the host's receipts: give a fixed one for byte-for-byte repeatable runs;
    ``deal`` is "blind" or "classic" (default: the table's default, blind for two people or more).
    """
    host = HostTable(
        options,
        name=name,
        identity=host_identity or Identity.generate(entropy(32)),
        entropy=entropy,
        draw_partners=draw_partners,
        draw_dealer=draw_dealer,
        clock=clock,
        deal=deal,
        ai_seats=ai_seats,
    )
    humans = [s for s in range(options.players) if s not in (ai_seats or {})]
    clients = [
        ClientSession(Identity.generate(entropy(32)), f"bot{s}", entropy=entropy) for s in humans
    ]
    host.tick(0.0)  # start the table's clock at 0
    wire = Wire(host, clients)
    for i, (seat, c) in enumerate(zip(humans, clients, strict=True)):
        wire.deliver(host.connect(i))
        wire.send_to_host(i, c.hello())
        wire.pump()
        wire.send_to_host(i, c.take_seat(seat) + c.ready())
        wire.pump()
    return host, clients, wire


def play_out(
    wire: Wire,
    choosers: list[Chooser],
    max_idle: int = 200,
    *,
    auction: list[ChiamataBot] | None = None,
) -> None:
    """Let every seat's chooser play whenever its view says it is its turn, until the match ends
    (at five players ``auction``'s bots bid and call for the seats, and choose their cards).

    Raises RuntimeError after ``max_idle`` rounds in a row in which no seat could move.
    """
    idle = 0
    while idle < max_idle:
        wire.pump()
        if wire.host.phase == "over":
            return
        before = len(wire.host.records)
        deal = wire.host.deal
        to_play = deal.to_play if deal is not None else None
        for i, c in enumerate(wire.clients):
            v = c.state.view
            if v is None or to_play != v.seat:
                continue
            if auction is not None and (v.my_bid or v.my_call):
                bot = auction[i]
                wire.send_to_host(i, c.bid(bot.bid(v)) if v.my_bid else c.call(bot.call(v)))
                wire.pump()
                break
            if v.my_turn:
                wire.send_to_host(i, c.play(choosers[i](v)))
                wire.pump()
                break
        if len(wire.host.records) != before:
            idle = 0
        else:
            idle += 1
            wire.deliver(wire.host.tick(wire.host.now + 1.0))
    raise RuntimeError("self-play did not finish: no seat could move")


def run_selfplay(
    options: TableOptions,
    *,
    levels: list[str] | None = None,
    seed: int = 0,
    entropy: Callable[[int], bytes] = secrets.token_bytes,
    bot_factory: BotFactory | None = None,
    draw_partners: bool = False,
    draw_dealer: bool = False,
    deal: str | None = None,
    chiamata_factory: Callable[[str, int], ChiamataBot] | None = None,
) -> SelfPlayResult:
    """Play a whole match between bots through the full protocol (at five players the bots of
    ``chiamata_factory``, by default ``chiamata_bot_factory``, which bid and call too).

    ``draw_partners`` (4 players) and ``draw_dealer`` open the match with the verifiable draw;
    client ``i`` joins in lobby seat ``i`` and may end up in another seat.

    ``SelfPlayResult.transcripts()`` are the host's and every seat's transcripts; each verifies
    with ``briscola-lan verify`` once saved (``briscola_lan.net.games.save_transcripts``).
    """
    factory = bot_factory or default_bot_factory
    host, clients, wire = seat_clients(
        options,
        entropy=entropy,
        draw_partners=draw_partners,
        draw_dealer=draw_dealer,
        deal=deal,
    )
    levels = levels or ["rules"] * options.players
    if options.chiamata:
        make = chiamata_factory or chiamata_bot_factory
        five = [make(levels[i % len(levels)], seed + i) for i in range(5)]
        wire.send_to_host(0, clients[0].start())
        wire.pump()
        play_out(wire, [b.choose for b in five], auction=five)
        return SelfPlayResult(host, clients, wire.count)
    bots: list[Bot] = [factory(levels[i % len(levels)], seed + i) for i in range(len(clients))]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [b.choose for b in bots])
    return SelfPlayResult(host, clients, wire.count)


__all__ = ["SelfPlayResult", "Wire", "play_out", "run_selfplay", "seat_clients"]
