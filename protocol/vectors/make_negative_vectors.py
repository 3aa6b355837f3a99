"""Regenerate the negative transcript vectors, protocol/vectors/negative/ and negative.json.

Each case is an honest match played by the pure host and its clients (fixed entropy, fixed keys,
a fixed clock), then edited and re-signed with the editor's own keys (the host's and the seats'
test keys), so that exactly one rule of protocol/fairness.md §8 (or of §11, for the blind deal's
cases, named blind-*) fails. The expected verdict, record and party at fault of each case are
written here from the rules, not read from a verifier. Run from the repo root:
``python protocol/vectors/make_negative_vectors.py``.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from briscola_lan.fairness.blind import PartyKeys, derive_keys, lock_pass
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY
from briscola_lan.fairness.group import L, base, mult, scalar_bytes
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.proofs import dleq_prove, lock_commitments, lock_prove, proof_label
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    BlindEnd,
    BlindPlay,
    BlindStart,
    Complaint,
    Deal,
    DrawReveal,
    DrawStart,
    Evidence,
    Exchange,
    HostCommit,
    HostReveal,
    KeyReveal,
    LockPass,
    MatchEnd,
    MatchStart,
    Opening,
    Overdue,
    Play,
    Present,
    Receipt,
    SeedCommit,
    SeedReveal,
    Shares,
    Show,
    ShufflePass,
    Statement,
    Takeover,
    Upcard,
    decode,
)
from briscola_lan.fairness.transcript import dumps
from briscola_lan.rules import TableOptions
from briscola_lan.rules.cards import Card
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.schedule import PublicSchedule, initial_deal
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Message

HERE = Path(__file__).parent
OUT_DIR = HERE / "negative"
INDEX = HERE / "negative.json"
CLOCK = 1_767_225_600  # the receipts' time: 2026-01-01 00:00:00 UTC

Record = tuple[bytes, bytes]
AI_1 = {1: "rules"}  # a blind match with an AI seat: the host is a party (it plays seat 1)
NO_CONTEXT = bytes(32)  # a statement's context until ``Edit.records`` sets the one due


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


@dataclass(slots=True)
class Case:
    name: str
    description: str
    verdict: str
    record: int | None
    at_fault: str | None
    records: list[Record]
    waiting_for: str | None = None  # an incomplete file: who it waits for (fairness.md §8.7)


# --- the cases ------------------------------------------------------------------------------


def cases() -> list[Case]:
    out: list[Case] = []

    def add(  # noqa: PLR0917 (one row of the index, in its column order)
        name: str,
        description: str,
        verdict: str,
        record: int | None,
        at_fault: str | None,
        records: list[Record],
        *,
        waiting_for: str | None = None,
    ) -> None:
        assert (waiting_for is None) == (verdict != "incomplete"), name
        out.append(Case(name, description, verdict, record, at_fault, records, waiting_for))

    two = honest(TableOptions.make(players=2, hands_to_win=1), "2p")
    host2 = list(two.host.records)
    seat0 = list(two.clients[0].records)

    def e2() -> Edit:
        return Edit(two, host2)

    # deals outside their window (fairness.md §8, deal windows)
    e = e2()
    i = e.find(Deal, seat=1)  # seat 1's initial deal; the upcard follows
    e.sts.insert(i + 1, Deal(e.get(i).game_id, 0, 0, (e.opening(7),)))
    add(
        "deal-future-card-before-upcard",
        "an extra deal of a stock card (position 7) to seat 0 before the upcard",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Deal, 1, seat=0)  # seat 0's draw after the first trick
    d = e.get(i)
    later = e.opening(e.get(e.find(Deal, 2, seat=0)).openings[0].position)
    e.sts[i] = dataclasses.replace(d, openings=(*d.openings, later))
    add(
        "deal-future-card-after-trick",
        "seat 0's draw after the first trick also carries the card it draws after the second",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Play, index=2)  # the first card of the second trick: no deal window is open
    nxt = e.get(e.find(Deal, 2, seat=1))
    e.sts.insert(i + 1, nxt)
    add(
        "deal-early-mid-trick",
        "seat 1's draw after the second trick sent during the second trick",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Deal, 1, seat=0)
    e.sts.insert(i + 1, e.get(i))
    add(
        "deal-duplicate",
        "seat 0's draw after the first trick sent twice",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    e = e2()
    up = e.find(Upcard)
    dc = e.find(Deal, seat=0)
    e.sts.insert(dc, e.sts.pop(up))
    add(
        "upcard-before-initial-deals",
        "the upcard turned before the initial deals",
        "failed",
        dc,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Deal, 1, seat=1)
    del e.sts[i]
    add(
        "deal-missing",
        "seat 1's draw after the first trick removed from the host's file",
        "failed",
        i,
        "host",
        e.records(),
    )

    # the partner exchange (4 players)
    four = honest(TableOptions.make(players=4, hands_to_win=1), "4p")
    e = Edit(four, four.host.records)
    first = e.find(Exchange)
    exchanges = [st for st in e.sts if isinstance(st, Exchange)]
    assert len(exchanges) == 4
    del e.sts[first : first + 4]
    assert isinstance(e.get(first), Play)
    e.sts[first + 1 : first + 1] = exchanges
    add(
        "exchange-late",
        "4 players: the partner exchange sent after the next card played, not with the last draw",
        "failed",
        first,
        "host",
        e.records(),
    )

    # aborts
    e = e2()
    i = e.find(Play, index=0)  # the first card of the first trick (no deal window open)
    gid = e.get(0).game_id
    seat = 1 - e.get(i).seat  # the seat to play next
    e.sts[i + 1 :] = [Abort(gid, 0, seat, "did not play in time")]
    add(
        "abort-mid-play-blames-seat",
        f"an abort naming seat {seat}, the seat to play, in the middle of the first trick",
        "aborted",
        i + 1,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(SeedCommit, seat=0)
    e.sts[i + 1 :] = [Abort(gid, 0, 1, "did not commit to its seed in time")]
    add(
        "abort-commit-timeout-no-evidence",
        "an abort naming seat 1 in the commit stage, no evidence, no receipt",
        "aborted",
        i + 1,
        "host or seat 1",
        e.records(),
    )
    e = e2()
    i = e.find(SeedCommit, seat=1)
    e.sts[i + 1 :] = [Abort(gid, 0, 7, "did not reveal its seed in time")]
    add(
        "abort-unknown-seat",
        "an abort naming seat 7 at a 2-player table",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    for cheat in (False, True):
        run = reveal_withheld("withheld-cheat" if cheat else "withheld", cheat=cheat)
        blamed = 1 if cheat else 0
        files = [
            ("host", run.host.records),
            *((f"seat{k}", run.clients[k].records) for k in (0, 1)),
        ]
        for who, recs in files:
            e = Edit(run, recs)
            ab = e.find(Abort)
            assert e.get(ab).seat == blamed and ab == len(e.sts) - 1
            if cheat:
                base = "reveal-receipted-abort"
                desc = "the host receipted seat 1's seed reveal, then aborted naming seat 1"
            else:
                base = "reveal-timeout-abort"
                desc = "seat 0's seed reveal never reached the host; timeout abort naming seat 0"
            party = "host" if cheat and who == "seat1" else f"host or seat {blamed}"
            add(f"{base}-{who}", f"{desc} ({who}'s file)", "aborted", ab, party, e.records())

    # after an abort (§8.7): the hand is dealt again with the next number, by the same dealer
    run = reveal_withheld("withheld", cheat=False)
    e = Edit(run, run.host.records)
    ab = e.find(Abort)
    commit = e.get(e.find(HostCommit))
    e.sts[ab + 1 :] = [HostCommit(commit.game_id, 1, commit.dealer, fixed("dealt again"))]
    add(
        "abort-dealt-again",
        "a timeout abort naming seat 0, then the hand dealt again as hand 1 by the same dealer "
        "(the match goes on: the verdict is the abort's)",
        "aborted",
        ab,
        "host or seat 0",
        e.records(),
    )
    e.sts[ab + 1] = HostCommit(commit.game_id, 0, commit.dealer, fixed("dealt again"))
    add(
        "abort-dealt-again-same-number",
        "the hand dealt again after an abort under the aborted hand's number",
        "failed",
        ab + 1,
        "host",
        e.records(),
    )
    e.sts[ab:] = [
        dataclasses.replace(e.get(ab), seat=HOST_PARTY, reason="the host stopped"),
        HostCommit(commit.game_id, 1, commit.dealer, fixed("dealt again")),
    ]
    add(
        "abort-host-then-dealt-again",
        "an abort naming the host ends the match: a hand dealt after it",
        "failed",
        ab + 1,
        "host",
        e.records(),
    )

    # evidence
    def bad_reveal(ed: Edit, seat: int, hand: int = 0) -> tuple[bytes, bytes]:
        return ed.signed_inner(
            SeedReveal(gid, hand, seat, NO_CONTEXT, fixed("not the committed seed"))
        )

    e = e2()
    i = e.find(SeedReveal, seat=1)
    good = host2[i]
    e.sts[i:] = [Evidence(gid, 0, 1, *good), Abort(gid, 0, 1, "bad seed reveal")]
    add(
        "evidence-opens-commitment",
        "evidence whose seed reveal does opens seat 1's commitment",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    e.sts[i:] = [Evidence(gid, 0, 1, *bad_reveal(e, 1)), Abort(gid, 0, 1, "bad seed reveal")]
    add(
        "evidence-bad-reveal",
        "seat 1's signed reveal that does not open its commitment, published, then the abort",
        "aborted",
        i,
        "seat 1",
        e.records(),
    )
    e = e2()
    e.sts[i:i] = [Evidence(gid, 0, 1, *bad_reveal(e, 1))]
    add(
        "evidence-without-abort",
        "evidence against seat 1 followed by seat 1's reveal instead of the abort",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    e = e2()
    e.sts[i:] = [Evidence(gid, 0, 1, *bad_reveal(e, 0)), Abort(gid, 0, 1, "bad seed reveal")]
    add(
        "evidence-of-another-seat",
        "evidence naming seat 1 whose inner bad reveal is seat 0's",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    e.sts[i:] = [Evidence(gid, 0, 1, *bad_reveal(e, 1)), Abort(gid, 0, 0, "bad seed reveal")]
    add(
        "evidence-abort-other-seat",
        "evidence against seat 1 followed by an abort naming seat 0",
        "failed",
        i + 1,
        "host",
        e.records(),
    )

    # options (match-start)
    def options_case(name: str, desc: str, base: Edit, **changes: Any) -> None:
        base.sts[0] = dataclasses.replace(base.get(0), **changes)
        add(name, desc, "failed", 0, "host", base.records())

    options_case(
        "options-partner-exchange-2",
        "match-start with partner_exchange = 2",
        e2(),
        partner_exchange=2,
    )
    points = honest(TableOptions.make(players=2, match_format="points"), "2p-points")
    for htw in (0, 9):
        options_case(
            f"options-points-hands-to-win-{htw}",
            f"points format with hands_to_win = {htw}",
            Edit(points, points.host.records),
            hands_to_win=htw,
        )
    options_case("options-ai-level-unknown", 'an AI level "expert"', e2(), ai_levels=("", "expert"))
    options_case("options-removed-two-4", "removed_two = 4 (not a suit)", e2(), removed_two=4)
    options_case("options-first-dealer-2", "first_dealer = 2 at 2 players", e2(), first_dealer=2)
    three = honest(TableOptions.make(players=3, match_format="points"), "3p")
    options_case(
        "options-hands-format-3p",
        "3 players in the hands format",
        Edit(three, three.host.records),
        match_format="hands",
    )

    # plays
    e = Edit(three, three.host.records)
    i, card = illegal_play(e)
    e.sts[i] = dataclasses.replace(e.get(i), card=card)
    add(
        "play-card-not-held",
        f"3 players: a play of card {card}, the two left out of the pack (nobody holds it)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    a, b = e.find(Play, index=0), e.find(Play, index=1)
    pa, pb = e.get(a), e.get(b)
    e.sts[a], e.sts[b] = dataclasses.replace(pb, index=0), dataclasses.replace(pa, index=1)
    add(
        "play-out-of-turn",
        "the second player of the first trick plays first",
        "failed",
        a,
        "host",
        e.records(),
    )
    e = e2()
    p1 = e.get(e.find(Play, index=1))
    i = next(k for k in (e.find(Play, index=2), e.find(Play, index=3)) if e.get(k).seat == p1.seat)
    e.sts[i] = dataclasses.replace(e.get(i), card=p1.card)
    add(
        "play-card-twice",
        "a seat plays again the card it played in the first trick",
        "failed",
        i,
        "host",
        e.records(),
    )

    # the end of the match
    e = e2()
    del e.sts[e.find(Ack, seat=1)]
    add(
        "ack-removed", "seat 1's acknowledgement removed", "unacknowledged", None, None, e.records()
    )
    e = e2()
    add(
        "only-match-start",
        "a file holding only the match-start",
        "incomplete",
        None,
        None,
        e.records()[:1],
        waiting_for="host",  # its first host-commit
    )
    e = e2()
    rev = e.find(MatchEnd)
    add(
        "ends-at-deciding-reveal",
        "the file stops at the host-reveal that decides the match",
        "incomplete",
        None,
        None,
        e.records()[:rev],
        waiting_for="host",  # its match-end
    )
    e = e2()
    me = e.get(rev)
    e.sts[rev] = dataclasses.replace(me, points=(me.points[0] + 1, me.points[1] - 1))
    add(
        "match-end-wrong-points",
        "match-end with one card point moved between the sides",
        "failed",
        rev,
        "host",
        e.records(),
    )
    e = e2()
    del e.sts[rev]
    add(
        "match-end-missing",
        "no match-end after the deciding host-reveal (the acks follow)",
        "failed",
        rev,
        "host",
        e.records(),
    )
    e = e2()
    e.sts.append(HostCommit(gid, 1, 1, fixed("a commitment")))
    add(
        "hand-after-match-end",
        "a host-commit for another hand after the match-end",
        "failed",
        len(e.sts) - 1,
        "host",
        e.records(),
    )
    longer = honest(TableOptions.make(players=2, hands_to_win=2), "2p-long")
    e = Edit(longer, longer.host.records)
    last = max(i for i, st in enumerate(e.sts) if isinstance(st, HostCommit))
    assert last > 1
    add(
        "last-hand-removed",
        "a match of several hands with its whole last hand removed",
        "incomplete",
        None,
        None,
        e.records()[:last],
        waiting_for="host",  # the next hand's host-commit
    )

    # receipts (a seat's own file)
    def es0() -> Edit:
        return Edit(two, seat0)

    e = es0()
    i = e.find(Receipt)
    r = e.get(i)
    inner = decode(r.statement)
    assert isinstance(inner, SeedCommit)
    e.sts[i] = dataclasses.replace(r, signature=e.seat_key(1).sign(r.statement))
    add(
        "receipt-inner-wrong-key",
        f"seat 0's file: a receipt for its {inner.KIND} whose inner "
        "statement is signed by seat 1's key",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = es0()
    body, sig = e.signed_inner(dataclasses.replace(inner, hand=1))
    e.sts[i] = dataclasses.replace(r, hand=1, statement=body, signature=sig)
    add(
        "receipt-other-hand",
        "seat 0's file: a receipt for a statement of hand 1 during hand 0",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = es0()
    del e.sts[e.find(Ack, seat=0)]
    ack_receipt = next(
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt) and isinstance(decode(st.statement), Ack)
    )
    add(
        "ack-receipted-not-relayed",
        "seat 0's file: its acknowledgement receipted by the host "
        "but missing from the relayed acks",
        "failed",
        ack_receipt,
        "host",
        e.records(),
    )
    e = es0()
    pr = next(
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt) and isinstance(decode(st.statement), Play)
    )
    rp = e.get(pr)
    played = decode(rp.statement)
    assert isinstance(played, Play)
    pi = e.find(Play, index=played.index)
    assert pi < pr
    other = next(c for c in range(40) if c != played.card)
    body, sig = e.signed_inner(dataclasses.replace(played, card=other))
    e.sts.pop(pr)
    e.sts.insert(pi, dataclasses.replace(rp, statement=body, signature=sig))
    add(
        "play-differs-from-receipt",
        f"seat 0's file: the host receipted seat 0's play number "
        f"{played.index} as card {other} and published card {played.card}",
        "failed",
        pi + 1,
        "host",
        e.records(),
    )

    # the draw (fairness.md §7a)
    drawn = honest(
        TableOptions.make(players=4, hands_to_win=1),
        "4p-draw",
        draw_partners=True,
        draw_dealer=True,
    )
    e = Edit(drawn, drawn.host.records)
    ds = e.get(0)
    assert isinstance(ds, DrawStart)
    commits = e.find(SeedCommit, 3, hand=DRAW_HAND)
    e.sts[commits + 1 :] = [Abort(ds.game_id, DRAW_HAND, 2, "did not reveal its seed in time")]
    add(
        "draw-abort-no-evidence",
        "the draw aborted naming lobby seat 2 after the commitments, no evidence",
        "aborted",
        commits + 1,
        "host or seat 2",
        e.records(),
    )
    e = Edit(drawn, drawn.host.records)
    reveal = e.get(commits + 1)
    assert isinstance(reveal, SeedReveal) and reveal.hand == DRAW_HAND
    e.sts[commits + 1 :] = [
        Abort(ds.game_id, DRAW_HAND, 2, "did not reveal its seed in time"),
        reveal,
    ]
    add(
        "record-after-draw-abort",
        "a draw seed reveal published after the draw's abort (nothing may follow an abort)",
        "failed",
        commits + 2,
        "host",
        e.records(),
    )
    e = Edit(drawn, drawn.host.records)
    bad = e.signed_inner(
        SeedReveal(ds.game_id, DRAW_HAND, 1, NO_CONTEXT, fixed("not the draw seed"))
    )
    e.sts[commits + 1 :] = [
        Evidence(ds.game_id, DRAW_HAND, 1, *bad),
        Abort(ds.game_id, DRAW_HAND, 1, "revealed a seed that does not match its commitment"),
    ]
    add(
        "draw-bad-reveal-evidence",
        "the draw: lobby seat 1's bad seed reveal published as evidence, then the abort",
        "aborted",
        commits + 1,
        "seat 1",
        e.records(),
    )
    # --- more cases at the edges of the rules ---------------------------------------------
    # deal windows
    e = e2()
    a, b = e.find(Deal, seat=0), e.find(Deal, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    add(
        "deals-out-of-seat-order",
        "the initial deals sent seat 1 first, then seat 0",
        "failed",
        b,
        "host",
        e.records(),
    )
    e = e2()
    last0 = e.find(Deal, 17, seat=0)  # each seat's last deal: the upcard goes to the loser
    last1 = e.find(Deal, 17, seat=1)
    d0, d1 = e.get(last0), e.get(last1)
    e.sts[last0] = dataclasses.replace(d0, openings=d1.openings)
    e.sts[last1] = dataclasses.replace(d1, openings=d0.openings)
    first_last = min(last0, last1)
    add(
        "deal-last-draw-swapped",
        "the last draw: the trick winner given the upcard and the loser the last stock card",
        "failed",
        first_last,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Deal, seat=0)
    d = e.get(i)
    bad_o = dataclasses.replace(d.openings[0], salt=fixed("another salt"))
    e.sts[i] = dataclasses.replace(d, openings=(bad_o, *d.openings[1:]))
    add(
        "deal-bad-opening",
        "seat 0's initial deal with a salt that does not open the commitment",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Upcard)
    e.sts[i] = dataclasses.replace(e.get(i), opening=e.opening(7))
    add(
        "upcard-wrong-position",
        "the upcard opens position 7 instead of 6 (3n)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    up = e.find(Upcard)
    e.sts.insert(up + 2, e.sts.pop(up))
    add(
        "play-before-upcard",
        "the first card played before the upcard is turned",
        "failed",
        up,
        "host",
        e.records(),
    )

    # a seat's own file: R is that seat alone
    e = es0()
    i = e.find(Deal, seat=0)
    del e.sts[i]
    add(
        "seat-file-initial-deal-missing",
        "seat 0's file without its initial deal (no seat dealt to before the upcard)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = es0()
    i = next(
        k
        for k, st in enumerate(e.sts[:-1])
        if isinstance(st, Deal) and isinstance(e.sts[k + 1], Receipt)
    )
    del e.sts[i]
    close = next(k for k in range(i, len(e.sts)) if not isinstance(e.sts[k], Receipt))
    add(
        "seat-file-draw-missing",
        "seat 0's file without one of its draws (the receipt that follows it in the window "
        "does not close the window)",
        "failed",
        close,
        "host",
        e.records(),
    )
    e = es0()
    i = e.find(Deal, 1, seat=0)
    hosted = Edit(two, host2)
    e.sts.insert(i + 1, hosted.get(hosted.find(Deal, 1, seat=1)))
    add(
        "seat-file-deal-for-other-seat",
        "seat 0's file holding seat 1's draw too",
        "failed",
        i + 1,
        "host",
        e.records(),
    )

    # the partner exchange (4 players)
    def e4() -> Edit:
        return Edit(four, four.host.records)

    e = e4()
    e.sts[first], e.sts[first + 1] = e.sts[first + 1], e.sts[first]
    add(
        "exchange-out-of-seat-order",
        "4 players: seat 1's exchange before seat 0's",
        "failed",
        first + 1,
        "host",
        e.records(),
    )
    e = e4()
    del e.sts[first + 2]
    add(
        "exchange-missing-one",
        "4 players: seat 2's exchange missing",
        "failed",
        first + 3,
        "host",
        e.records(),
    )
    e = e4()
    ex = e.get(first)
    partner_plays = {st.card for st in e.sts if isinstance(st, Play) and st.seat == ex.partner}
    gone = next(
        o
        for st in e.sts
        if isinstance(st, Deal) and st.seat == ex.partner
        for o in st.openings
        if o.card in partner_plays
    )
    e.sts[first] = dataclasses.replace(ex, openings=(gone, *ex.openings[1:]))
    add(
        "exchange-played-card",
        "4 players: seat 0 is shown a card its partner already played",
        "failed",
        first,
        "host",
        e.records(),
    )
    e = e4()
    last_deal = first - 1
    assert isinstance(e.get(last_deal), Deal)
    e.sts.insert(first + 3, e.sts.pop(last_deal))
    add(
        "exchange-before-last-deal",
        "4 players: the exchanges start before the last seat's draw",
        "failed",
        last_deal,
        "host",
        e.records(),
    )

    # aborts
    e = e2()
    i = e.find(SeedCommit, seat=1)
    e.sts[i + 1 :] = [Abort(gid, 0, HOST_PARTY, "the host stopped the hand")]
    add(
        "abort-by-host",
        "the host aborts naming itself in the reveal stage",
        "aborted",
        i + 1,
        "host",
        e.records(),
    )
    e = e2()
    hc = e.find(HostCommit)
    e.sts[hc + 1 :] = [
        Takeover(gid, 0, 1, 1, 0),
        e.get(e.find(SeedCommit, seat=0)),
        Abort(gid, 0, 1, "did not commit to its seed in time"),
    ]
    add(
        "abort-taken-over-seat",
        "an abort naming seat 1, which the host plays (takeover)",
        "aborted",
        hc + 3,
        "host",
        e.records(),
    )
    e = es0()
    r = e.find(Receipt)
    e.sts[r + 1 :] = [Abort(gid, 0, 0, "did not commit to its seed in time")]
    add(
        "commit-receipted-abort-seat0",
        "seat 0's file: the host receipted its seed commitment, then aborted naming it",
        "aborted",
        r + 1,
        "host",
        e.records(),
    )
    cheater = reveal_withheld("withheld-cheat", cheat=True)
    e = Edit(cheater, cheater.clients[1].records)
    r = max(k for k, st in enumerate(e.sts) if isinstance(st, Receipt))
    rc = e.get(r)
    body, sig = e.signed_inner(
        SeedReveal(rc.game_id, 0, 1, NO_CONTEXT, fixed("not the committed seed"))
    )
    e.sts[r] = dataclasses.replace(rc, statement=body, signature=sig)
    add(
        "reveal-receipted-bad-seed-seat1",
        "seat 1's file: the host's receipt holds seat 1's "
        "reveal that does not open its commitment; abort naming seat 1",
        "aborted",
        r,
        "seat 1",
        e.records(),
    )

    # evidence
    e = e2()
    i = e.find(SeedReveal, seat=1)
    e.sts[i:] = [Evidence(gid, 0, 1, *bad_reveal(e, 1))]
    add(
        "evidence-at-end",
        "the file ends with evidence against seat 1 (no abort)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Upcard)
    e.sts[i + 1 :] = [Evidence(gid, 0, 1, *bad_reveal(e, 1)), Abort(gid, 0, 1, "bad reveal")]
    add(
        "evidence-after-reveals",
        "evidence against seat 1 after every reveal was published",
        "failed",
        i + 1,
        "host",
        e.records(),
    )

    # acknowledgements
    e = e2()
    i = e.find(Ack, seat=1)
    e.sts[i] = dataclasses.replace(e.get(i), chain_hash=fixed("another history"))
    add(
        "ack-other-chain",
        "seat 1 acknowledges a different chain hash (equivocation)",
        "failed",
        i,
        "host",
        e.records(fix_acks=False),
    )
    e = e2()
    a, b = e.find(Ack, seat=0), e.find(Ack, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    add(
        "acks-out-of-order",
        "seat 1's acknowledgement relayed before seat 0's",
        "failed",
        b,
        "host",
        e.records(),
    )
    e = e2()
    b = e.find(Ack, seat=1)
    e.sts.insert(b + 1, e.get(b))
    add("ack-twice", "seat 1's acknowledgement relayed twice", "failed", b + 1, "host", e.records())

    # hands and plays
    e = Edit(longer, longer.host.records)
    i = e.find(HostCommit, hand=1)
    e.sts[i] = dataclasses.replace(e.get(i), dealer=e.get(e.find(HostCommit, hand=0)).dealer)
    add(
        "host-commit-wrong-dealer",
        "hand 1 dealt by hand 0's dealer again",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Play, index=1)
    e.sts[i] = dataclasses.replace(e.get(i), index=2)
    add("play-index-skipped", "the second play numbered 2", "failed", i, "host", e.records())
    e = e2()
    i = e.find(HostReveal)
    e.sts.insert(i, Play(gid, 0, e.get(i - 1).seat, NO_CONTEXT, 40, e.get(i - 1).card))
    add(
        "play-after-last-trick",
        "a 41st play after the last trick",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(HostCommit)
    e.sts[i] = dataclasses.replace(e.get(i), game_id=fixed("another game", 16))
    add(
        "statement-of-another-game",
        "a host-commit of another game",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    e.sigs.pop(host2[0][0])
    e.run = cheater  # the match-start re-signed by another host's key
    add(
        "match-start-bad-signature",
        "the match-start signed by a key other than its host_key",
        "failed",
        0,
        "host",
        e.records()[:1] + host2[1:],
    )
    e = es0()
    i = e.find(Receipt)
    deal_rec = next(rec for rec in seat0 if isinstance(decode(rec[0]), Deal))
    e.sts[i] = dataclasses.replace(e.get(i), statement=deal_rec[0], signature=deal_rec[1])
    add(
        "receipt-for-host-statement",
        "seat 0's file: a receipt whose inner statement is a deal (not a statement a seat sends)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = e2()
    i = e.find(Play, index=5)
    e.sts[i + 1 :] = []
    add(
        "stops-mid-hand",
        "the host's file stops in the middle of play",
        "incomplete",
        None,
        None,
        e.records(),
        waiting_for="host",  # every seed was revealed: the rest of the hand is the host's
    )
    e = e2()
    i = e.find(SeedReveal, seat=0)
    add(
        "stops-before-a-reveal",
        "the host's file cut after seat 0's seed reveal, before seat 1's",
        "incomplete",
        None,
        None,
        e.records()[: i + 1],
        waiting_for="seat 1",  # the first seat without a reveal (not a fault)
    )

    # the draw
    def ed() -> Edit:
        return Edit(drawn, drawn.host.records)

    e = ed()
    i = e.find(DrawReveal)
    dr = e.get(i)
    e.sts[i] = dataclasses.replace(dr, dealer=(dr.dealer + 1) % 4)
    add(
        "draw-reveal-wrong-dealer",
        "the draw-reveal names another first dealer than the cards give",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = ed()
    i = e.find(MatchStart)
    ms = e.get(i)
    e.sts[i] = dataclasses.replace(ms, first_dealer=(ms.first_dealer + 1) % 4)
    add(
        "draw-match-start-wrong-dealer",
        "the match-start names another first dealer than the draw",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = ed()
    i = e.find(SeedReveal, 1, hand=DRAW_HAND)
    e.sts[i] = dataclasses.replace(e.get(i), seed=fixed("a seed never committed"))
    add(
        "draw-bad-reveal-published",
        "the draw: lobby seat 1's seed reveal that does not open "
        "its commitment, published as a reveal",
        "failed",
        i,
        "seat 1",
        e.records(),
    )

    # gaps: cases the rules decide only by their principles (see the report to the lead)
    e = e2()
    i = e.find(SeedReveal, seat=1)  # every reveal published, no deck-commit yet
    e.sts[i + 1 :] = [Abort(gid, 0, 1, "did not reveal its seed in time")]
    add(
        "abort-after-all-reveals",
        "an abort naming seat 1 after every seed reveal was published (seat 1 owed nothing)",
        "aborted",
        i + 1,
        "host",
        e.records(),
    )
    e = Edit(longer, longer.host.records)
    i = e.find(Ack, hand=0, seat=0)
    del e.sts[i]
    add(
        "ack-missing-in-first-hand",
        "a match of several hands: seat 0's acknowledgement of hand 0 removed",
        "unacknowledged",
        None,
        None,
        e.records(),
    )
    e = es0()
    del e.sts[e.find(Ack, seat=0)]
    del e.sts[
        next(
            k
            for k, st in enumerate(e.sts)
            if isinstance(st, Receipt) and isinstance(decode(st.statement), Ack)
        )
    ]
    add(
        "seat-file-own-ack-missing",
        "seat 0's file without its own acknowledgement and without its receipt",
        "unacknowledged",
        None,
        None,
        e.records(),
    )
    e = Edit(points, points.host.records)
    i = e.find(MatchEnd)
    me = e.get(i)
    e.sts[i] = dataclasses.replace(me, hands_won=tuple(reversed(me.hands_won)))
    if me.hands_won == tuple(reversed(me.hands_won)):
        e.sts[i] = dataclasses.replace(me, hands_won=(me.hands_won[0] + 1, *me.hands_won[1:]))
    add(
        "match-end-wrong-hands-won",
        "points format: match-end with wrong hands won per side",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = es0()
    pr = next(
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt) and isinstance(decode(st.statement), Play)
    )
    rp = e.get(pr)
    played = decode(rp.statement)
    assert isinstance(played, Play)
    other = next(c for c in range(40) if c != played.card)
    body, sig = e.signed_inner(dataclasses.replace(played, card=other))
    e.sts[pr] = dataclasses.replace(rp, statement=body, signature=sig)
    add(
        "play-differs-from-later-receipt",
        f"seat 0's file: the receipt after seat 0's play "
        f"number {played.index} says it sent card {other}, the host published {played.card}",
        "failed",
        pr,  # fairness.md §8.5: the receipt, where the two are compared
        "host",
        e.records(),
    )

    # takeovers never over a seat's own secret, and no hand-back before play (SPEC.md §6a)
    def receipt_of(ed: Edit, kind: type[Statement]) -> int:
        return next(
            k
            for k, st in enumerate(ed.sts)
            if isinstance(st, Receipt) and isinstance(decode(st.statement), kind)
        )

    e = es0()
    r = receipt_of(e, SeedCommit)
    assert e.find(SeedCommit) > r  # the commitments are published once all are in
    e.sts.insert(r + 1, Takeover(gid, 0, 0, 1, 0))
    add(
        "takeover-after-own-commit-seat0",
        "seat 0's file: the host receipted seat 0's seed commitment, then took the seat over "
        "before the commitments were published (seat 0 holds its own unrevealed seed)",
        "failed",
        r + 1,
        "host",
        e.records(),
    )
    e = es0()
    last_commit = e.find(SeedCommit, seat=1)
    assert receipt_of(e, SeedReveal) > last_commit
    e.sts.insert(last_commit + 1, Takeover(gid, 0, 0, 1, 0))
    add(
        "takeover-before-own-reveal-seat0",
        "seat 0's file: the host took seat 0 over after the commitments, before it received "
        "seat 0's reveal (its receipt comes later)",
        "failed",
        last_commit + 1,
        "host",
        e.records(),
    )
    e = e2()
    hc = e.find(HostCommit)
    e.sts.insert(hc + 1, Takeover(gid, 0, 1, 1, 0))  # the AI commits for seat 1
    last_commit = e.find(SeedCommit, seat=1)
    e.sts.insert(last_commit + 1, Takeover(gid, 0, 1, 0, 0))
    add(
        "handback-in-reveal-phase",
        "seat 1 taken over at the commit and handed back after the commitments, before the "
        "reveals (the AI holds its seed)",
        "failed",
        last_commit + 1,
        "host",
        e.records(),
    )

    blind_cases(add, longer)
    return out


Add = Callable[..., None]  # cases()'s add(name, description, verdict, record, at_fault, records)
FRESH = base(123456789)  # a valid group element that is no card's point in any of these decks


def with_point(st: Any, index: int, point: bytes) -> Any:
    """A pass with one point replaced."""
    points = list(st.points)
    points[index] = point
    return dataclasses.replace(st, points=tuple(points))


def flipped(value: bytes) -> bytes:
    """A 32-byte value with its lowest bit changed (a sealed key: another key once unsealed)."""
    return bytes([value[0] ^ 1]) + value[1:]


def blind_cases(add: Add, classic_long: Run) -> None:
    """The blind deal (fairness.md §11): honest blind matches, edited and re-signed so that one
    rule of §11 fails; each expected verdict, record and party is the one §11 gives."""
    b2 = honest(TableOptions.make(players=2, hands_to_win=1), "blind-2p", deal="blind")
    b4 = honest(TableOptions.make(players=4, hands_to_win=1), "blind-4p", deal="blind")
    b2long = honest(TableOptions.make(players=2, hands_to_win=2), "blind-2p-long", deal="blind")
    bai = honest(
        TableOptions.make(players=2, hands_to_win=1), "blind-2p-ai", deal="blind", ai_seats=AI_1
    )

    def eb() -> Edit:
        return Edit(b2, b2.host.records)

    e = eb()
    gid = e.get(0).game_id
    start = e.get(e.find(BlindStart))
    assert [type(e.get(e.find(BlindStart) + k)) for k in (1, 2)] == [Present, Present]
    size = 40
    seat0 = [p for p, s in initial_deal(2, start.dealer) if s == 0]  # seat 0's initial positions
    seat1 = [p for p, s in initial_deal(2, start.dealer) if s == 1]

    # §11.4 the passes: a malformed pass is its party's fault; order is the host's
    i = e.find(ShufflePass, seat=1)
    e.sts[i] = with_point(e.get(i), 5, b"\x01" + bytes(31))
    add(
        "blind-pass-invalid-point",
        "seat 1's shuffle pass holds the neutral element, not a valid point (§11.4)",
        "failed",
        i,
        "seat 1",
        e.records(),
    )
    e = eb()
    i = e.find(LockPass, seat=0)
    lock0 = e.get(i)
    e.sts[i] = with_point(lock0, 5, lock0.points[4])
    add(
        "blind-pass-duplicate-point",
        "seat 0's lock pass holds one point twice (§11.4)",
        "failed",
        i,
        "seat 0",
        e.records(),
    )
    e = eb()
    a, b = e.find(ShufflePass, seat=0), e.find(ShufflePass, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    add(
        "blind-shuffle-out-of-party-order",
        "seat 1's shuffle pass before seat 0's, the first party (§11.4)",
        "failed",
        a,
        "host",
        e.records(),
    )
    e = eb()
    s1 = e.find(ShufflePass, seat=1)
    e.sts.insert(s1, e.sts.pop(e.find(LockPass, seat=0)))
    add(
        "blind-lock-before-every-shuffle",
        "seat 0's lock pass before seat 1 shuffled (§11.4)",
        "failed",
        s1,
        "host",
        e.records(),
    )

    # §11.5 the shares of a deal window
    e = eb()
    i = e.find(Shares, seat=1, window=0)
    sh = e.get(i)
    e.sts[i] = dataclasses.replace(
        sh, positions=(sh.positions[1], sh.positions[0], *sh.positions[2:])
    )
    add(
        "blind-shares-wrong-positions",
        "seat 1's shares of the initial deal hold its positions in another order (§11.5)",
        "failed",
        i,
        "seat 1",
        e.records(),
    )
    e = eb()
    i = e.find(Shares, seat=0, window=0)
    e.sts[i] = dataclasses.replace(e.get(i), window=1)
    add(
        "blind-shares-other-window",
        "seat 0's shares of the initial deal say window 1 (§11.5)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = eb()
    a, b = e.find(Shares, seat=0, window=0), e.find(Shares, seat=1, window=0)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    add(
        "blind-shares-out-of-party-order",
        "the initial deal's shares published seat 1's first (§11.5)",
        "failed",
        a,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(Shares, seat=1, window=0)
    del e.sts[i]
    assert isinstance(e.get(i), BlindPlay)
    add(
        "blind-shares-missing-party",
        "seat 1's shares of the initial deal missing: the first play comes while the window "
        "waits for them (§11.10)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(Shares, seat=1, window=0)
    sh = e.get(i)
    assert sh.positions[-1] == 3 * 2  # the upcard, its key in the clear
    e.sts[i] = dataclasses.replace(sh, values=(*sh.values[:-1], b"\xff" * 32))
    add(
        "blind-upcard-key-not-a-scalar",
        "seat 1's public key for the upcard is not below the group order (§11.5)",
        "failed",
        i,
        "seat 1",
        e.records(),
    )
    e = eb()
    i = e.find(Shares, seat=1, window=0)
    sh = e.get(i)
    other = scalar_bytes(int.from_bytes(sh.values[-1], "little") * 3 % L)  # a key, not its own
    e.sts[i] = dataclasses.replace(sh, values=(*sh.values[:-1], other))
    add(
        "blind-upcard-key-not-committed",
        "seat 1's public key for the upcard is a key, but not the one its lock pass committed "
        "to (§11.5)",
        "failed",
        i,
        "seat 1",
        e.records(),
    )

    # §11.7 plays
    e = eb()
    i = e.find(BlindPlay, index=0)
    play = e.get(i)
    twice = scalar_bytes(int.from_bytes(play.key, "little") * 2 % L)
    e.sts[i] = dataclasses.replace(play, key=twice)
    add(
        "blind-play-key-does-not-open",
        f"the first play (seat {play.seat}) published with a key that does not open its card "
        "(§11.7)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = eb()
    i, j = e.find(BlindPlay, index=0), e.find(BlindPlay, index=1)
    first, second = e.get(i), e.get(j)
    e.sts[i] = dataclasses.replace(second, index=0)
    e.sts[j] = dataclasses.replace(first, index=1)
    add(
        "blind-play-out-of-turn",
        f"the first trick's cards swapped: seat {second.seat} leads out of turn (§11.7)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(BlindEnd)
    end = e.get(i)
    points = tuple(reversed(end.points))
    if points == end.points:
        points = (end.points[0] + 1, *end.points[1:])
    e.sts[i] = dataclasses.replace(end, points=points)
    add(
        "blind-end-wrong-points",
        "a blind-end with other points than the hand's (§11.8)",
        "failed",
        i,
        "host",
        e.records(),
    )

    # §11.8 key reveals: everything a party sent is recomputed from its secret
    e = eb()
    i = e.find(KeyReveal, seat=0)
    e.sts[i] = dataclasses.replace(e.get(i), secret=fixed("not seat 0's secret"))
    add(
        "blind-key-reveal-wrong-secret",
        "seat 0 reveals a secret whose keys do not give its shuffle pass (§11.8)",
        "failed",
        e.find(ShufflePass, seat=0),
        "seat 0",
        e.records(),
    )
    e = eb()
    a, b = e.find(KeyReveal, seat=0), e.find(KeyReveal, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    add(
        "blind-key-reveals-out-of-party-order",
        "seat 1's key reveal before seat 0's: the reveals after the blind-end come in party "
        "order, each party once (§11.8)",
        "failed",
        b,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(Shares, seat=1, window=0) + 1
    e.sts.insert(i, e.get(e.find(KeyReveal, seat=0)))
    add(
        "blind-key-reveal-before-the-end",
        "seat 0's key reveal right after the initial deal, before the hand is over or "
        "disputed (§11.10)",
        "failed",
        i,
        "host",
        e.records(),
    )

    # §11.9 disputes: a complaint after the initial deal, the key reveals, the abort
    reveals = [e.get(e.find(KeyReveal, seat=q)) for q in (0, 1)]
    keys = [derive_keys(gid, 0, q, reveals[q].secret, size) for q in (0, 1)]

    def disputed(ed: Edit, complainer: int, position: int, revealed: int, blamed: int) -> int:
        """The hand cut after the initial deal's shares: a complaint, the first ``revealed``
        key reveals, the host's abort naming ``blamed``. Returns the complaint's record."""
        cut = ed.find(Shares, seat=1, window=0) + 1
        ed.sts[cut:] = [
            Complaint(gid, 0, complainer, NO_CONTEXT, position, complainer, bytes(32), ()),
            *reveals[:revealed],
            Abort(gid, 0, blamed, "a card does not open"),
        ]
        return cut

    e = eb()
    i = e.find(ShufflePass, seat=1)
    shuffled = with_point(e.get(i), seat0[0], FRESH)  # seat 1 shuffles last: position seat0[0]
    e.sts[i] = shuffled
    l0, l1 = e.find(LockPass, seat=0), e.find(LockPass, seat=1)
    e.remake = {l0: relock(keys[0], reveals[0].secret), l1: relock(keys[1], reveals[1].secret)}
    disputed(e, 0, seat0[0], 2, 1)
    add(
        "blind-dispute-shuffle-not-from-keys",
        f"seat 1's shuffle swaps in a point at position {seat0[0]}, dealt to seat 0 (the locks "
        "made from it): seat 0 complains, both reveal, seat 1's keys do not give its shuffle "
        "(§11.8)",
        "failed",
        i,
        "seat 1",
        e.records(),
    )
    e = eb()
    i = e.find(LockPass, seat=1)
    e.sts[i] = with_point(e.get(i), seat0[0], FRESH)
    add(
        "blind-lock-proof-fails",
        f"seat 1's lock swaps in a point at position {seat0[0]}: its proof fails, caught when "
        "it arrives (§11.4)",
        "failed",
        i,
        "seat 1",
        e.records(),
    )
    x1 = e.get(e.find(ShufflePass, seat=1)).ecdh  # seat 1's exchange point (shares)

    def wrong_share(ed: Edit, position: int) -> int:
        """Seat 1's initial shares seal a wrong key for ``position`` (dealt to seat 0)."""
        i = ed.find(Shares, seat=1, window=0)
        sh = ed.get(i)
        values = list(sh.values)
        values[sh.positions.index(position)] = flipped(values[sh.positions.index(position)])
        ed.sts[i] = dataclasses.replace(sh, values=tuple(values))
        return i

    def complained(ed: Edit, position: int, about: int) -> int:
        """The hand cut after the initial deal's shares: seat 0's complaint about ``about``'s
        share of ``position``, then the host's abort naming ``about``."""
        cut = ed.find(Shares, seat=1, window=0) + 1
        ed.sts[cut:] = [
            Complaint(gid, 0, 0, NO_CONTEXT, position, about, bytes(32), ()),
            Abort(gid, 0, about, "a card does not open"),
        ]
        return cut

    e = eb()
    i = wrong_share(e, seat0[1])
    c = complained(e, seat0[1], 1)
    e.remake = {c: proved_complaint(keys[0], reveals[0].secret, x1)}
    add(
        "blind-wrong-share-proved",
        f"seat 1 seals a wrong key for position {seat0[1]}, dealt to seat 0: seat 0's complaint "
        "reveals their shared point with its proof, which shows the key is not the one seat 1 "
        "committed to; decided at once, whatever seat 1 does next (§11.9)",
        "aborted",
        i,
        "seat 1",
        e.records(),
    )
    e = eb()
    c = complained(e, seat0[1], 1)
    e.remake = {c: proved_complaint(keys[0], reveals[0].secret, x1)}
    add(
        "blind-false-share-complaint",
        f"seat 0 complains that seat 1's key for position {seat0[1]} is wrong, with the proof of "
        "their shared point, which unseals the right key: the complaint is false (§11.9)",
        "aborted",
        c,
        "seat 0",
        e.records(),
    )
    e = eb()
    wrong_share(e, seat0[1])
    c = complained(e, seat0[1], 1)
    e.remake = {c: proved_complaint(keys[0], reveals[0].secret, x1, wrong=True)}
    add(
        "blind-complaint-bad-proof",
        "seat 0's complaint about seat 1's share, with a proof that does not show the point it "
        "reveals: the host must refuse it (§11.9)",
        "failed",
        c,
        "host",
        e.records(),
    )
    e = eb()
    c = disputed(e, 0, seat0[0], 2, 0)
    add(
        "blind-dispute-false-complaint",
        f"seat 0 complains that position {seat0[0]}, its own card, does not open; both reveal "
        "and all they sent checks: the complaint was false (§11.9 rule 2)",
        "aborted",
        c,
        "seat 0",
        e.records(),
    )
    e = eb()
    disputed(e, 0, seat0[0], 2, 0)
    del e.sts[-1]
    add(
        "blind-dispute-stops-before-the-abort",
        "a complaint and both key reveals, and the file ends: a disputed hand waits for the "
        "host's abort, never a blind-end (§11.9)",
        "incomplete",
        None,
        None,
        e.records(),
        waiting_for="host",
    )
    e = eb()
    c = disputed(e, 0, seat0[0], 1, 1)
    add(
        "blind-dispute-missing-reveal",
        "a complaint, seat 0's key reveal, then the abort naming seat 1, whose reveal never "
        "came: no receipt in the host's file (§11.9 rules 3 and 5)",
        "aborted",
        c + 2,
        "host or seat 1",
        e.records(),
    )
    e = Edit(b2, b2.clients[1].records)
    kr1 = next(
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt) and isinstance(decode(st.statement), KeyReveal)
    )
    receipt = e.get(kr1)
    c = disputed(e, 0, seat0[0], 1, 1)
    e.sts.insert(c + 1, receipt)
    add(
        "blind-dispute-receipted-reveal-seat1",
        "seat 1's file: a complaint, the host's receipt for seat 1's key reveal, seat 0's "
        "reveal, then the abort naming seat 1 (§11.9 rules 3 and 5)",
        "aborted",
        c + 3,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(Shares, seat=1, window=0) + 1
    e.sts.insert(i, Complaint(gid, 0, 0, NO_CONTEXT, seat1[0], 0, bytes(32), ()))
    add(
        "blind-complaint-not-its-card",
        f"seat 0 complains about position {seat1[0]}, dealt to seat 1 (§11.9)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(KeyReveal, seat=0) + 1
    e.sts.insert(i, Complaint(gid, 0, 1, NO_CONTEXT, seat1[0], 1, bytes(32), ()))
    add(
        "blind-complaint-after-a-reveal",
        "seat 1 complains after seat 0 revealed its keys at the end of the hand (§11.9)",
        "failed",
        i,
        "host",
        e.records(),
    )

    # §11.9 aborts without a dispute
    e = eb()
    i = e.find(BlindPlay, index=0)
    led = e.get(i).seat
    e.sts[i + 1 :] = [Abort(gid, 0, led, "did not play in time")]
    add(
        "blind-abort-seat-owes-nothing",
        f"an abort naming seat {led}, which just led, while seat {1 - led} is to play "
        "(§11.9 rule 4)",
        "aborted",
        i + 1,
        "host",
        e.records(),
    )
    e = eb()
    e.sts[i + 1 :] = [Abort(gid, 0, 1 - led, "did not play in time")]
    add(
        "blind-abort-seat-to-play",
        f"an abort naming seat {1 - led}, the seat to play (the host cannot play a party's "
        "cards): no receipt (§11.9 rule 5)",
        "aborted",
        i + 1,
        f"host or seat {1 - led}",
        e.records(),
    )
    e = eb()
    i = e.find(ShufflePass, seat=1)
    e.sts[i:] = [Abort(gid, 0, HOST_PARTY, "the host stopped the hand")]
    add(
        "blind-abort-by-host",
        "the host aborts naming itself before seat 1 shuffled (§11.9 rule 1)",
        "aborted",
        i,
        "host",
        e.records(),
    )
    for who, recs in (("host", b2.host.records), ("seat1", b2.clients[1].records)):
        e = Edit(b2, recs)
        w1 = e.find(Shares, window=1)
        got = [
            k
            for k, st in enumerate(e.sts)
            if isinstance(st, Receipt)
            and isinstance(decode(st.statement), Shares)
            and decode(st.statement).window == 1  # type: ignore[attr-defined]
        ]
        assert (got and got[0] < w1) if who == "seat1" else not got
        e.sts[w1:] = [Abort(gid, 0, 1, "did not send its shares in time")]
        add(
            f"blind-abort-shares-receipted-{who}",
            f"{who}'s file: the host receipted seat 1's shares for the first draw, then aborted "
            "naming seat 1 (§11.9 rule 5)",
            "aborted",
            w1,
            "host" if who == "seat1" else "host or seat 1",
            e.records(),
        )
    e = Edit(b2, b2.clients[0].records)
    p = e.find(BlindPlay, seat=0)
    r = next(
        k
        for k, st in enumerate(e.sts)
        if k > p and isinstance(st, Receipt) and decode(st.statement) == e.get(p)
    )
    e.sts[p:] = [e.get(r), Abort(gid, 0, 0, "did not play in time")]
    add(
        "blind-abort-play-receipted-seat0",
        "seat 0's file: the host receipted seat 0's play and did not publish it, then aborted "
        "naming seat 0 (§11.9 rule 5)",
        "aborted",
        p + 1,
        "host",
        e.records(),
    )
    e = Edit(b2, b2.clients[0].records)
    r = next(
        k
        for k, st in enumerate(e.sts)
        if k > p and isinstance(st, Receipt) and decode(st.statement) == e.get(p)
    )
    rp = e.get(r)
    other = dataclasses.replace(decode(rp.statement), card=(e.get(p).card + 1) % 40)
    body, sig = e.signed_inner(other)
    e.sts[r] = dataclasses.replace(rp, statement=body, signature=sig)
    add(
        "blind-receipt-play-differs",
        "seat 0's file: the receipt for seat 0's first play holds another card than the play "
        "published (§11.10)",
        "failed",
        r,
        "host",
        e.records(),
    )

    # §11.6 the partner exchange (4 players)
    def e4() -> Edit:
        return Edit(b4, b4.host.records)

    e = e4()
    i = e.find(Show, seat=1)
    show = e.get(i)
    e.sts[i] = dataclasses.replace(show, values=(flipped(show.values[0]), *show.values[1:]))
    add(
        "blind-show-false",
        "4 players: seat 1's show holds a wrong key for its first position; found once every "
        "party revealed (§11.8)",
        "failed",
        i,
        "seat 1",
        e.records(),
    )
    e = e4()
    i = e.find(Show, seat=2)
    show = e.get(i)
    e.sts[i] = dataclasses.replace(show, positions=show.positions[1:], values=show.values[1:])
    add(
        "blind-show-not-the-whole-hand",
        "4 players: seat 2 shows its partner two of its three cards (§11.6)",
        "failed",
        i,
        "seat 2",
        e.records(),
    )
    e = e4()
    a, b = e.find(Show, seat=0), e.find(Show, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    add(
        "blind-shows-out-of-seat-order",
        "4 players: seat 1's show published before seat 0's (§11.6)",
        "failed",
        a,
        "host",
        e.records(),
    )

    # §11.3 the call, the parties and modes
    e = eb()
    a, b = e.find(Present, seat=0), e.find(Present, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    add(
        "blind-presents-out-of-order",
        "seat 1's present published before seat 0's (§11.3: seat order)",
        "failed",
        b,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(Present, seat=1)
    e.sts.insert(i + 1, e.get(i))
    add(
        "blind-present-twice",
        "seat 1's present published twice (§11.3)",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    e = Edit(bai, bai.host.records)
    i = e.find(Present, seat=0)
    e.sts.insert(i + 1, dataclasses.replace(e.get(i), seat=1))
    add(
        "blind-present-of-ai-seat",
        "AI in seat 1: a present for the AI seat, signed with its key (§11.3: only a person's "
        "seat answers the call)",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(ShufflePass, seat=0)
    e.sts.insert(i + 1, e.get(e.find(Present, seat=1)))
    add(
        "blind-present-after-call",
        "seat 1's present again after the first shuffle pass (§11.3: the call is over)",
        "failed",
        i + 1,
        "host",
        e.records(),
    )
    e = Edit(b2, b2.clients[1].records)
    i = e.find(Present, seat=1)
    receipt = next(
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt) and isinstance(decode(st.statement), Present)
    )
    del e.sts[i]
    add(
        "blind-left-out-with-receipt",
        "seat 1's own file: the host receipted seat 1's present, then published the call's "
        "answers without it and played the seat itself (§11.3: a fake 'away')",
        "failed",
        receipt,
        "host",
        e.records(),
    )
    e = eb()
    e.sts[e.find(Present, seat=1) + 1 :] = [Abort(gid, 0, 1, "did not answer the call")]
    add(
        "blind-abort-during-call",
        "an abort naming seat 1 while the call's answers come in: a seat that does not answer "
        "is played by the host, never a reason to abort (§11.3)",
        "aborted",
        e.find(Abort),
        "host",
        e.records(),
    )
    e = Edit(bai, bai.host.records)
    i = e.find(ShufflePass, seat=HOST_PARTY)
    e.sts[i] = with_point(e.get(i), 3, e.get(i).points[2])
    add(
        "blind-host-party-pass-duplicate-point",
        "AI in seat 1: the host's own shuffle pass, as the party of the seat it plays, holds "
        "one point twice (§11.4: its party's fault)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(BlindStart) + 1
    e.sts.insert(i, Takeover(gid, 0, 1, 1, 0))
    add(
        "blind-takeover",
        "a takeover in a blind match (§11.3)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = eb()
    i = e.find(ShufflePass, seat=0)
    e.sts.insert(i, SeedCommit(gid, 0, 0, NO_CONTEXT, fixed("a seed commitment")))
    add(
        "blind-classic-record-in-blind-hand",
        "seat 0's seed-commit in a blind hand (§11.3)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = Edit(b2long, b2long.host.records)
    i = e.find(BlindStart, hand=1)
    assert isinstance(e.get(i - 1), Ack)
    e.sts.insert(i, SeedCommit(gid_of(e), 0, 0, NO_CONTEXT, fixed("a seed commitment")))
    add(
        "blind-classic-record-after-blind-hand",
        "seat 0's seed-commit for the first hand after its blind-end and acks (§11.3)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = Edit(b2long, b2long.host.records)
    i = e.find(BlindStart, hand=1)
    second = e.get(i)
    e.sts[i] = HostCommit(second.game_id, 1, second.dealer, fixed("a host commitment"))
    add(
        "blind-host-commit-after-blind-hand",
        "the second hand of a blind match opened with a host-commit (§11.3)",
        "failed",
        i,
        "host",
        e.records(),
    )
    e = Edit(classic_long, classic_long.host.records)
    i = e.find(HostCommit, hand=1)
    hc = e.get(i)
    e.sts[i] = BlindStart(hc.game_id, 1, hc.dealer, 10)
    add(
        "blind-start-in-classic-match",
        "the second hand of a classic match opened with a blind-start (§11.3)",
        "failed",
        i,
        "host",
        e.records(),
    )

    # §11.10 incomplete files: who the hand waits for
    e = eb()
    e.sts[e.find(ShufflePass, seat=1) + 1 :] = []
    add(
        "blind-stops-before-the-locks",
        "the file ends after the shuffles: the hand waits for seat 0's lock (§11.10)",
        "incomplete",
        None,
        None,
        e.records(),
        waiting_for="seat 0",
    )
    e = eb()
    i = e.find(BlindPlay, index=0)
    e.sts[i + 1 :] = []
    add(
        "blind-stops-mid-trick",
        f"the file ends after the first card: the hand waits for seat {1 - led}'s play (§11.10)",
        "incomplete",
        None,
        None,
        e.records(),
        waiting_for=f"seat {1 - led}",
    )
    e = eb()
    e.sts[e.find(BlindEnd) :] = []
    add(
        "blind-stops-before-blind-end",
        "the file ends after the last card: the hand waits for the host's blind-end (§11.10)",
        "incomplete",
        None,
        None,
        e.records(),
        waiting_for="host",
    )
    e = eb()
    e.sts[e.find(KeyReveal, seat=0) + 1 :] = []
    add(
        "blind-stops-in-the-key-reveals",
        "the file ends after the blind-end, the match-end and seat 0's key reveal: the result "
        "is in, the hand waits for seat 1's reveal (§11.8)",
        "incomplete",
        None,
        None,
        e.records(),
        waiting_for="seat 1",
    )

    # §11.8 the result stands on the plays: reveals that do not come are named, never a void
    e = eb()
    k1 = e.find(KeyReveal, seat=1)
    gid = gid_of(e)
    e.sts[k1] = Overdue(gid, 0, (1,))
    add(
        "blind-reveal-overdue-no-receipt",
        "seat 1's key reveal did not come in time after the result: named overdue; no receipt "
        "in the host's file: the result stands, the verdict names the host or seat 1 (§11.8)",
        "withheld",
        k1,
        "host or seat 1",
        e.records(),
    )
    e = Edit(b2, b2.clients[1].records)
    k1 = e.find(KeyReveal, seat=1)
    e.sts[k1] = Overdue(gid, 0, (1,))
    receipt = next(
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt) and isinstance(decode(st.statement), KeyReveal)
    )
    add(
        "blind-reveal-overdue-receipted",
        "seat 1's own file: the host names seat 1's key reveal overdue, but holds its receipt "
        "(§11.8)",
        "failed",
        receipt,
        "host",
        e.records(),
    )
    e = eb()
    k0 = e.find(KeyReveal, seat=0)
    e.sts[k0 : k0 + 2] = [Overdue(gid, 0, (1,))]
    add(
        "blind-reveal-overdue-wrong-parties",
        "the overdue record names seat 1 alone while seat 0's reveal did not come either (§11.8)",
        "failed",
        k0,
        "host",
        e.records(),
    )


def gid_of(e: Edit) -> bytes:
    gid: bytes = e.get(0).game_id
    return gid


def illegal_play(e: Edit) -> tuple[int, int]:
    """A play of the first hand that can become the removed two (a card nobody holds) without
    changing who takes the trick, so every later record stays in order."""
    ms = e.get(0)
    assert isinstance(ms, MatchStart) and ms.players == 3
    two = ms.removed_two * 10 + 9
    opts = TableOptions.make(players=3, match_format="points", removed_two=ms.removed_two)
    hc = e.get(e.find(HostCommit, hand=0))
    trump = Card.from_code(e.get(e.find(Upcard, hand=0)).opening.card).suit
    plays = [(k, st) for k, st in enumerate(e.sts) if isinstance(st, Play) and st.hand == 0]

    def winners(swap: int | None) -> list[tuple[int, tuple[tuple[int, int], ...]]] | None:
        sched = PublicSchedule(opts, hc.dealer)
        sched.trump = trump
        got = []
        for k, st in plays:
            if sched.to_play != st.seat:
                return None
            o = sched.play(st.seat, Card.from_code(two if k == swap else st.card))
            if o is not None:
                got.append((o.winner, o.draws))
        return got

    want = winners(None)
    for k, st in plays[3:]:
        if winners(k) == want and st.index % 3 != 0:
            return k, two
    raise AssertionError("no play can become the removed two")


def main() -> None:
    OUT_DIR.mkdir(exist_ok=True)
    for old in OUT_DIR.glob("*.briscola.json"):
        old.unlink()
    for name, data in generated().items():
        (HERE / name).write_bytes(data)


def index_text(index: list[dict[str, Any]]) -> str:
    out = {
        "description": "Negative transcript vectors (protocol/fairness.md §8, and §11 for the "
        "blind deal's, named blind-*): each file is an "
        "honest match edited and re-signed with the editor's own test keys so that one rule "
        "fails. verdict: failed, aborted, incomplete or unacknowledged; record: the index of "
        "the record at fault (null when nobody is at fault); at_fault: host, seat N, "
        "host or seat N (null for incomplete and unacknowledged files); waiting_for: who an "
        "incomplete file waits for, host or seat N (null for every other verdict).",
        "cases": index,
    }
    return json.dumps(out, indent=1, ensure_ascii=False) + "\n"


def honest_bases() -> list[Run]:
    """The honest matches the cases are edited from (each of their files verifies)."""
    return [
        honest(TableOptions.make(players=2, hands_to_win=1), "2p"),
        honest(TableOptions.make(players=4, hands_to_win=1), "4p"),
        honest(TableOptions.make(players=2, match_format="points"), "2p-points"),
        honest(TableOptions.make(players=3, match_format="points"), "3p"),
        honest(TableOptions.make(players=2, hands_to_win=2), "2p-long"),
        honest(
            TableOptions.make(players=4, hands_to_win=1),
            "4p-draw",
            draw_partners=True,
            draw_dealer=True,
        ),
        honest(TableOptions.make(players=2, hands_to_win=1), "blind-2p", deal="blind"),
        honest(TableOptions.make(players=4, hands_to_win=1), "blind-4p", deal="blind"),
        honest(TableOptions.make(players=2, hands_to_win=2), "blind-2p-long", deal="blind"),
        honest(
            TableOptions.make(players=2, hands_to_win=1), "blind-2p-ai", deal="blind", ai_seats=AI_1
        ),
    ]


def generated() -> dict[str, bytes]:
    """Every output file (path relative to this directory -> bytes), made in memory."""
    index = []
    files: dict[str, bytes] = {}
    for case in cases():
        fname = f"negative/{case.name}.briscola.json"
        files[fname] = dumps(case.records)
        index.append(
            {
                "file": fname,
                "description": case.description,
                "verdict": case.verdict,
                "record": case.record,
                "at_fault": case.at_fault,
                "waiting_for": case.waiting_for,
            }
        )
    files["negative.json"] = index_text(index).encode()
    return files


if __name__ == "__main__":
    main()
