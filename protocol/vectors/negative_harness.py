"""The harness of the negative vectors: honest matches, the editor that re-signs them, the cases.

A case is a small function that edits one honest match (fixed entropy, fixed keys, a fixed clock)
so that exactly one rule fails, and says what the rules give: the verdict, the record and the party
at fault, or who an incomplete file waits for. The honest matches are played once and shared.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from briscola_lan.fairness.blind import PartyKeys, lock_pass
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY
from briscola_lan.fairness.group import base, mult
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.proofs import dleq_prove, lock_commitments, lock_prove, proof_label
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    Complaint,
    Deal,
    DrawStart,
    Exchange,
    LockPass,
    MatchStart,
    Opening,
    Receipt,
    ShufflePass,
    Statement,
    Upcard,
    decode,
)
from briscola_lan.rules import TableOptions
from briscola_lan.rules.cards import Card
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.signals import SignalValue
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Message

CLOCK = 1_767_225_600  # the receipts' time: 2026-01-01 00:00:00 UTC

Record = tuple[bytes, bytes]
AI_1 = {1: "rules"}  # a blind match with an AI seat: the host is a party (it plays seat 1)
NO_CONTEXT = bytes(32)  # a statement's context until ``Edit.records`` sets the one due
FRESH = base(123456789)  # a valid group element that is no card's point in any of these decks


def fixed(label: str, n: int = 32) -> bytes:
    """Deterministic test bytes: SHA-256 of a label, repeated as needed."""
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(f"negative/{label}/{i}".encode()).digest()
        i += 1
    return out[:n]


def counter_entropy(label: str) -> Callable[[int], bytes]:
    state = {"i": 0}

    def entropy(n: int) -> bytes:
        state["i"] += 1
        return fixed(f"{label}/{state['i']}", n)

    return entropy


def first_legal(view: SeatView) -> Card:
    return view.legal_plays[0]


# --- honest runs ------------------------------------------------------------------------------


@dataclass(slots=True)
class Run:
    """An honest (or scripted) match: the host's and every seat's records and all the keys."""

    host: HostTable
    clients: list[ClientSession]
    wire: Wire

    @property
    def host_key(self) -> Identity:
        return self.host.identity

    def keys(self) -> dict[bytes, Identity]:
        """Every key of the run by public key (the editor controls all of them)."""
        out = {self.host.identity.public_key: self.host.identity}
        for c in self.clients:
            out[c.identity.public_key] = c.identity
        for seat in self.host.seats:  # an AI seat signs with its own key
            if seat.ai_identity is not None:
                out[seat.ai_identity.public_key] = seat.ai_identity
        return out


def table(
    options: TableOptions,
    label: str,
    *,
    draw_partners: bool = False,
    draw_dealer: bool = False,
    drop: Callable[[int, Message], bool] | None = None,
    deal: str = "classic",
    ai_seats: dict[int, str] | None = None,
) -> Run:
    """A table with one seated, ready client per human seat (the AI seats come last); ``drop``
    loses client->host messages."""
    entropy = counter_entropy(label)
    host = HostTable(
        options,
        name=f"negative {label}",
        identity=Identity.generate(entropy(32)),
        entropy=entropy,
        ai_seats=ai_seats,
        draw_partners=draw_partners,
        draw_dealer=draw_dealer,
        clock=lambda: CLOCK,
        deal=deal,
    )
    clients = [
        ClientSession(Identity.generate(entropy(32)), f"bot{i}", entropy=entropy)
        for i in range(options.players - len(ai_seats or {}))
    ]
    host.tick(0.0)
    wire = Wire(host, clients)
    if drop is not None:
        send = wire.send_to_host

        def filtered(conn: int, msgs: list[Message]) -> None:
            send(conn, [x for x in msgs if not drop(conn, x)])

        wire.send_to_host = filtered  # type: ignore[method-assign]
    for i, c in enumerate(clients):
        wire.deliver(host.connect(i))
        wire.send_to_host(i, c.hello())
        wire.pump()
        wire.send_to_host(i, c.take_seat(i) + c.ready())
        wire.pump()
    return Run(host, clients, wire)


def honest(options: TableOptions, label: str, **kw: Any) -> Run:
    run = table(options, label, **kw)
    run.wire.send_to_host(0, run.clients[0].start())
    run.wire.pump()
    play_out(run.wire, [first_legal] * options.players)
    return run


def reveal_withheld(label: str, *, cheat: bool) -> Run:
    """2 players; seat 0's seed reveal is lost on the way to the host.

    ``cheat=False``: the host waits out its deadline and aborts naming seat 0 (honest timeout).
    ``cheat=True``: the host has receipted seat 1's reveal and aborts naming seat 1 at once.
    """
    run = table(
        TableOptions.make(players=2, hands_to_win=1),
        label,
        drop=lambda conn, msg: conn == 0 and isinstance(msg, m.RevealSeed),
    )
    run.wire.send_to_host(0, run.clients[0].start())
    run.wire.pump()
    host = run.host
    if cheat:
        out: list[Any] = []
        host.abort(1, "did not reveal its seed in time", out)
        run.wire.deliver(out)
    else:
        run.wire.deliver(host.tick(host.now + host.timeout + 1.0))
    run.wire.pump()
    for records in (host.records, *(c.records for c in run.clients)):
        # each file ends with the abort: the hand's deal again that follows it is not the vector's
        cut = next(i for i, (b, _) in enumerate(records) if isinstance(decode(b), Abort))
        del records[cut + 1 :]
    return run


# --- the editor ---------------------------------------------------------------------------


@dataclass(slots=True)
class Edit:
    """A transcript as decoded statements; ``records()`` re-signs what changed."""

    run: Run
    records_in: Sequence[Record]
    sts: list[Statement] = field(default_factory=list)
    sigs: dict[bytes, bytes] = field(default_factory=dict)
    # statements made again over the edited history: record -> f(statement, context due,
    # the last pass's points) (a lock pass and a complaint bind their proofs to the context)
    remake: dict[int, Callable[[Any, bytes, tuple[bytes, ...]], Statement]] = field(
        default_factory=dict
    )

    def __post_init__(self) -> None:
        self.sts = [decode(b) for b, _ in self.records_in]
        self.sigs = dict(self.records_in)

    def find(self, kind: type[Statement], n: int = 0, **fields: Any) -> int:
        """The index of the n-th statement of ``kind`` whose fields equal ``fields``."""
        hits = [
            i
            for i, st in enumerate(self.sts)
            if isinstance(st, kind) and all(getattr(st, k) == v for k, v in fields.items())
        ]
        return hits[n]

    def get(self, i: int) -> Any:
        return self.sts[i]

    def seat_key(self, seat: int, *, draw: bool = False) -> Identity:
        keys = self.run.keys()
        head = self.sts[0]
        if draw or (
            isinstance(head, DrawStart) and not any(isinstance(s, MatchStart) for s in self.sts)
        ):
            assert isinstance(head, DrawStart)
            return keys[head.seat_keys[seat]]
        ms = next(s for s in self.sts if isinstance(s, MatchStart))
        return keys[ms.seat_keys[seat]]

    def signed_inner(self, st: Statement, key: Identity | None = None) -> tuple[bytes, bytes]:
        """A seat statement and its signature (by the seat's key unless ``key``)."""
        body = st.encode()
        signer = key or self.signer(st)
        return body, signer.sign(body)

    def signer(self, st: Statement) -> Identity:
        """The key a statement is signed with: the host's for its own statements and its party
        (HOST) in a blind hand, else the seat's (the lobby seat's in the draw)."""
        seat = getattr(st, "seat", None)
        if st.HOST_SIGNED or seat == HOST_PARTY:
            return self.run.host_key
        assert isinstance(seat, int)
        return self.seat_key(seat, draw=getattr(st, "hand", None) == DRAW_HAND)

    def opening(self, position: int) -> Opening:
        """The opening of a deck position, from the deals and the upcard in this transcript."""
        for st in self.sts:
            if isinstance(st, Deal | Exchange):
                for o in st.openings:
                    if o.position == position:
                        return o
            if isinstance(st, Upcard) and st.opening.position == position:
                return st.opening
        raise KeyError(position)

    def receipt_of(self, kind: type[Statement]) -> int:
        """The index of the first receipt whose inner statement is of ``kind``."""
        return next(
            k
            for k, st in enumerate(self.sts)
            if isinstance(st, Receipt) and isinstance(decode(st.statement), kind)
        )

    def records(
        self, *, fix_acks: bool = True, keep_context: frozenset[int] = frozenset()
    ) -> list[Record]:
        """The edited transcript, every changed record re-signed; with ``fix_acks`` every ack
        carries the chain hash at its place, as honest seats would sign it. Every party
        statement carries the context due at its place (fairness.md §8.1), as the parties would
        sign it over the edited history, except the records in ``keep_context``; a receipt of a
        statement so changed holds the changed statement."""
        out: list[Record] = []
        ctx = ContextChain()
        changed: dict[bytes, Record] = {}  # old body -> the statement as re-signed
        deck: tuple[bytes, ...] = ()  # the last pass's points, as edited
        for i, original in enumerate(self.sts):
            st = original
            if fix_acks and isinstance(st, Ack) and st.chain_hash != ctx.chain:
                st = dataclasses.replace(st, chain_hash=ctx.chain)
            if i in self.remake:
                st = self.remake[i](st, ctx.expected(st.KIND), deck)
            context = getattr(st, "context", None)
            if context is not None and i not in keep_context and st.PUBLIC:
                want = ctx.expected(st.KIND)
                if context != want:
                    old = st.encode()
                    st = dataclasses.replace(st, context=want)  # type: ignore[call-arg]
                    body = st.encode()
                    changed[old] = (body, self.signer(st).sign(body))
                    self.sigs.setdefault(body, changed[old][1])
            body = st.encode()
            sig = self.sigs.get(body)
            if sig is None:
                sig = self.signer(st).sign(body)
            if st.PUBLIC:
                ctx.follow(body)  # a late key reveal makes nothing due
            if isinstance(st, ShufflePass | LockPass):
                deck = st.points
            out.append((body, sig))
        for i, (body, _sig) in enumerate(out):  # receipts of statements re-signed above
            st = decode(body)
            if isinstance(st, Receipt) and st.statement in changed:
                inner, inner_sig = changed[st.statement]
                st = dataclasses.replace(st, statement=inner, signature=inner_sig)
                new = st.encode()
                out[i] = (new, self.signer(st).sign(new))
        return out


def relock(keys: PartyKeys, secret: bytes) -> Callable[[Any, bytes, tuple[bytes, ...]], Statement]:
    """The lock pass the party's keys give over the edited deck, with commitments and proof."""

    def make(st: LockPass, context: bytes, inputs: tuple[bytes, ...]) -> Statement:
        points = lock_pass(keys, inputs)
        key, commits = lock_commitments(keys.shuffle_key, keys.locks)
        label = proof_label(st.game_id, st.hand, st.seat, context, LockPass.KIND)
        proof = lock_prove(keys.shuffle_key, keys.locks, inputs, points, label=label, secret=secret)
        return dataclasses.replace(
            st, context=context, points=points, commits=commits, key=key, proof=proof
        )

    return make


def proved_complaint(
    keys: PartyKeys, secret: bytes, other: bytes, *, show: bool = False, wrong: bool = False
) -> Callable[[Any, bytes, tuple[bytes, ...]], Statement]:
    """A complaint about another party's value: the shared point of the complainer (``keys``)
    and the other party (its exchange point ``other``), with the proof (``wrong``: a proof
    made for another point, that does not verify)."""

    def make(st: Complaint, context: bytes, _deck: tuple[bytes, ...]) -> Statement:
        x = keys.show_key if show else keys.ecdh_key
        shared = mult(x, other)
        label = proof_label(st.game_id, st.hand, st.seat, context, Complaint.KIND)
        proof = dleq_prove(x + 1 if wrong else x, base(1), other, label=label, secret=secret)
        return dataclasses.replace(st, context=context, shared=shared, proof=proof)

    return make


def with_point(st: Any, index: int, point: bytes) -> Any:
    """A pass with one point replaced."""
    points = list(st.points)
    points[index] = point
    return dataclasses.replace(st, points=tuple(points))


def flipped(value: bytes) -> bytes:
    """A 32-byte value with its lowest bit changed (a sealed key: another key once unsealed)."""
    return bytes([value[0] ^ 1]) + value[1:]


def gid_of(e: Edit) -> bytes:
    """The game id of an edited file (its first statement's)."""
    gid: bytes = e.get(0).game_id
    return gid


# --- the honest matches the cases are edited from (each played once) ----------------------


@cache
def honest_2p() -> Run:
    return honest(TableOptions.make(players=2, hands_to_win=1), "2p")


@cache
def honest_4p() -> Run:
    return honest(TableOptions.make(players=4, hands_to_win=1), "4p")


@cache
def honest_2p_points() -> Run:
    return honest(TableOptions.make(players=2, match_format="points"), "2p-points")


@cache
def honest_3p() -> Run:
    return honest(TableOptions.make(players=3, match_format="points"), "3p")


@cache
def honest_2p_long() -> Run:
    return honest(TableOptions.make(players=2, hands_to_win=2), "2p-long")


@cache
def honest_4p_draw() -> Run:
    return honest(
        TableOptions.make(players=4, hands_to_win=1),
        "4p-draw",
        draw_partners=True,
        draw_dealer=True,
    )


@cache
def honest_blind_2p() -> Run:
    return honest(TableOptions.make(players=2, hands_to_win=1), "blind-2p", deal="blind")


@cache
def honest_blind_4p() -> Run:
    return honest(TableOptions.make(players=4, hands_to_win=1), "blind-4p", deal="blind")


@cache
def honest_blind_2p_long() -> Run:
    return honest(TableOptions.make(players=2, hands_to_win=2), "blind-2p-long", deal="blind")


@cache
def honest_blind_2p_ai() -> Run:
    return honest(
        TableOptions.make(players=2, hands_to_win=1), "blind-2p-ai", deal="blind", ai_seats=AI_1
    )


def honest_signals(label: str, deal: str) -> Run:
    """4 players at a table that allows signals (fairness.md §12), one hand: persons in seats 0
    to 2, an AI in seat 3. Seat 0 signals in every trick, seat 1 in the first; the AI signals
    once, truthfully; seat 2 never."""
    run = table(
        TableOptions.make(players=4, hands_to_win=1, signals=True),
        label,
        deal=deal,
        ai_seats={3: "rules"},
    )
    wire = run.wire
    pump = wire.pump
    values = list(SignalValue)

    def signalling_pump() -> None:
        pump()
        for seat, c in enumerate(run.clients[:2]):
            view = c.state.view
            if view is None or (seat == 1 and view.played_cards):
                continue
            index = len(view.played_cards)
            if index >= 40 or any(x.mine and x.index // 4 == index // 4 for x in c.state.signals):
                continue
            try:
                msgs = c.signal(values[(index // 4 + seat) % len(values)])
            except ValueError:
                continue
            wire.send_to_host(seat, msgs)
            pump()

    wire.pump = signalling_pump  # type: ignore[method-assign]
    wire.send_to_host(0, run.clients[0].start())
    wire.pump()
    play_out(wire, [first_legal] * 3)
    return run


@cache
def honest_4p_signals() -> Run:
    return honest_signals("4p-signals", "classic")


@cache
def honest_blind_4p_signals() -> Run:
    return honest_signals("blind-4p-signals", "blind")


def honest_five(label: str, *, pass_first: bool, deal: str = "classic") -> Run:
    """5 players, Briscola chiamata (fairness.md §13), a match of one hand, every seat a person
    played by the rules bot; ``pass_first``: everyone passes the first deal (dealt again);
    ``deal``: classic, or blind (every seat a party, §13.9)."""
    from briscola_lan.table.core import chiamata_bot_factory

    opts = TableOptions.make(players=5, match_format="total", match_hands=1)
    run = table(opts, label, deal=deal)
    host = run.host
    bots = [chiamata_bot_factory("rules", seat) for seat in range(5)]

    class Seat:
        def __init__(self, bot: Any) -> None:
            self.bot = bot

        def bid(self, view: SeatView) -> Any:
            return None if pass_first and host.hand_number == 0 else self.bot.bid(view)

        def call(self, view: SeatView) -> Any:
            return self.bot.call(view)

        def choose(self, view: SeatView) -> Card:
            return self.bot.choose(view)  # type: ignore[no-any-return]

    seats = [Seat(b) for b in bots]
    run.wire.send_to_host(0, run.clients[0].start())
    run.wire.pump()
    play_out(run.wire, [s.choose for s in seats], auction=seats)  # type: ignore[arg-type]
    return run


@cache
def honest_5p() -> Run:
    return honest_five("5p", pass_first=False)


@cache
def honest_5p_redealt() -> Run:
    return honest_five("5p-redealt", pass_first=True)


@cache
def honest_blind_5p() -> Run:
    return honest_five("blind-5p", pass_first=False, deal="blind")


@cache
def honest_blind_5p_redealt() -> Run:
    return honest_five("blind-5p-redealt", pass_first=True, deal="blind")


HONEST = (
    honest_2p,
    honest_4p,
    honest_2p_points,
    honest_3p,
    honest_2p_long,
    honest_4p_draw,
    honest_blind_2p,
    honest_blind_4p,
    honest_blind_2p_long,
    honest_blind_2p_ai,
    honest_4p_signals,
    honest_blind_4p_signals,
    honest_5p,
    honest_5p_redealt,
    honest_blind_5p,
    honest_blind_5p_redealt,
)


@cache
def withheld(*, cheat: bool) -> Run:
    """The 2-player match whose seat 0's seed reveal is lost (see ``reveal_withheld``)."""
    return reveal_withheld("withheld-cheat" if cheat else "withheld", cheat=cheat)


def host_file(run: Run) -> Edit:
    """The host's file of a run, to edit."""
    return Edit(run, run.host.records)


def seat_file(run: Run, seat: int) -> Edit:
    """A seat's own file of a run, to edit."""
    return Edit(run, run.clients[seat].records)


# --- what a case gives, and the registry of cases -----------------------------------------


@dataclass(frozen=True, slots=True)
class Outcome:
    """An edited file and what the rules give for it: one row of negative.json but its name."""

    description: str
    verdict: str
    record: int | None
    at_fault: str | None
    records: list[Record]
    waiting_for: str | None = None  # an incomplete file: who it waits for (fairness.md §8.7)


def failed(description: str, record: int, at_fault: str, records: list[Record]) -> Outcome:
    """A rule broken at ``record``, by ``at_fault`` (host, or seat N)."""
    return Outcome(description, "failed", record, at_fault, records)


def aborted(description: str, record: int, at_fault: str, records: list[Record]) -> Outcome:
    """An abort, judged at ``record``: host, seat N, or host or seat N without evidence."""
    return Outcome(description, "aborted", record, at_fault, records)


def withheld_reveal(description: str, record: int, at_fault: str, records: list[Record]) -> Outcome:
    """The result stands; a key reveal that did not come is named at ``record`` (§11.8)."""
    return Outcome(description, "withheld", record, at_fault, records)


def incomplete(description: str, records: list[Record], waiting_for: str) -> Outcome:
    """A file that ends early: nobody at fault, ``waiting_for`` (host or seat N) owes the next."""
    return Outcome(description, "incomplete", None, None, records, waiting_for)


def unacknowledged(description: str, records: list[Record]) -> Outcome:
    """A whole match with an acknowledgement missing: nobody at fault."""
    return Outcome(description, "unacknowledged", None, None, records)


@dataclass(frozen=True, slots=True)
class Case:
    """A named outcome: one vector file and its row of negative.json."""

    name: str
    outcome: Outcome


Make = Callable[[], Outcome]


class Cases:
    """The cases of one module, in the order of negative.json. ``@cases`` registers a function
    as the case named like it (``_`` read as ``-``); ``cases.add`` names one explicitly."""

    def __init__(self) -> None:
        self.makers: list[tuple[str, Make]] = []

    def __call__(self, make: Make) -> Make:
        self.add(make.__name__.replace("_", "-"), make)
        return make

    def add(self, name: str, make: Make) -> None:
        assert name not in {n for n, _ in self.makers}, name
        self.makers.append((name, make))

    def made(self) -> Iterator[Case]:
        for name, make in self.makers:
            yield Case(name, make())
