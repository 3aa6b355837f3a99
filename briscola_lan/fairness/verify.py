"""The verifier: checks a transcript of signed statements one by one and names who is at fault.

Used offline (``briscola-lan verify``) and by every client at the end of each hand. It checks
signatures, order, seed commitments and reveals, the shuffle, every card commitment and opening,
the public deal schedule, every play through the rules engine, the partner exchange, the points,
and that every seat acknowledged the same chain hash (protocol/fairness.md §8).

Blame rules: a statement that is inconsistent with its own signer's earlier statement (a seed
reveal that does not open the seat's commitment) is that signer's fault. Everything the host
assembles and relays (order, context, signatures it should have checked, legality it should have
enforced, the deck, openings, points) is the host's fault.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from briscola_lan.fairness.draw import DrawResult, draw
from briscola_lan.fairness.encoding import (
    CHAIN_START,
    DRAW_HAND,
    HOST_PARTY,
    card_commitment,
    chain_next,
    deck_seed,
    draw_seed,
    seed_commitment,
)
from briscola_lan.fairness.identity import fingerprint, verify_signature
from briscola_lan.fairness.shuffle import deal_deck
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    Deal,
    DeckCommit,
    DrawReveal,
    DrawStart,
    Exchange,
    HostCommit,
    HostReveal,
    MatchStart,
    Opening,
    Play,
    SeedCommit,
    SeedReveal,
    Statement,
    StatementError,
    Takeover,
    Upcard,
    decode,
)
from briscola_lan.rules.cards import Card
from briscola_lan.rules.errors import OptionsError, RulesError
from briscola_lan.rules.events import CardDealt
from briscola_lan.rules.hand import Hand
from briscola_lan.rules.match import Match
from briscola_lan.rules.options import TableOptions

HOST = -1  # "seat at fault" value meaning the host

Record = tuple[bytes, bytes]


def party_name(seat: int) -> str:
    return "the host" if seat == HOST else f"seat {seat}"


@dataclass(frozen=True, slots=True)
class Fault:
    """Why verification failed: the record (index in the transcript), its kind, who is at fault."""

    index: int | None
    kind: str
    seat: int  # HOST (-1) or a seat number
    reason: str

    def describe(self) -> str:
        where = f"record {self.index} ({self.kind})" if self.index is not None else self.kind
        return f"{where}: {self.reason} — at fault: {party_name(self.seat)}"


class Violation(Exception):
    """Raised inside the checker; carries the Fault."""

    def __init__(self, fault: Fault) -> None:
        super().__init__(fault.describe())
        self.fault = fault


@dataclass(slots=True)
class HandReport:
    """The verdict on one hand."""

    hand: int
    dealer: int
    status: str  # "verified", "failed", "aborted", "incomplete"
    points: tuple[int, ...] | None = None
    fault: Fault | None = None
    acks: int = 0

    @property
    def verified(self) -> bool:
        return self.status == "verified"


@dataclass(slots=True)
class DrawReport:
    """The verdict on the seat and dealer draw (seat numbers in it are lobby seats)."""

    draw_partners: bool
    draw_dealer: bool
    names: tuple[str, ...]  # in lobby seat order
    status: str = "incomplete"  # "verified", "failed", "aborted", "incomplete"
    cards: tuple[int, ...] = ()
    seating: tuple[int, ...] = ()
    dealer: int | None = None
    fault: Fault | None = None

    @property
    def verified(self) -> bool:
        return self.status == "verified"

    def to_dict(self) -> dict[str, object]:
        return {
            "draw_partners": self.draw_partners,
            "draw_dealer": self.draw_dealer,
            "names": list(self.names),
            "status": self.status,
            "cards": list(self.cards),
            "seating": list(self.seating),
            "dealer": self.dealer,
            "fault": _fault_dict(self.fault),
        }


@dataclass(slots=True)
class MatchReport:
    """The verdict on a whole transcript."""

    game_id: str = ""
    table_name: str = ""
    host_fingerprint: str = ""
    options: TableOptions | None = None
    names: tuple[str, ...] = ()
    hands: list[HandReport] = field(default_factory=list)
    fault: Fault | None = None
    winner: int | None = None
    match_over: bool = False
    records: int = 0
    draw: DrawReport | None = None
    # (hand, seat, ai, at_play): the host played ``seat`` for a dropped player (ai) or gave it back
    takeovers: list[tuple[int, int, bool, int]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when there is no fault, the draw (if any) and every hand verified."""
        if self.draw is not None and not self.draw.verified:
            return False
        return self.fault is None and bool(self.hands) and all(h.verified for h in self.hands)

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "game_id": self.game_id,
            "table": self.table_name,
            "host_fingerprint": self.host_fingerprint,
            "options": self.options.to_dict() if self.options else None,
            "names": list(self.names),
            "records": self.records,
            "match_over": self.match_over,
            "winner_side": self.winner,
            "hands": [
                {
                    "hand": h.hand,
                    "dealer": h.dealer,
                    "status": h.status,
                    "points": list(h.points) if h.points else None,
                    "acks": h.acks,
                    "fault": _fault_dict(h.fault),
                }
                for h in self.hands
            ],
            "fault": _fault_dict(self.fault),
            "draw": self.draw.to_dict() if self.draw is not None else None,
            "takeovers": [
                {"hand": h, "seat": seat, "ai": ai, "at_play": at}
                for h, seat, ai, at in self.takeovers
            ],
        }


def _fault_dict(f: Fault | None) -> dict[str, object] | None:
    if f is None:
        return None
    return {
        "record": f.index,
        "kind": f.kind,
        "seat_at_fault": "host" if f.seat == HOST else f.seat,
        "reason": f.reason,
    }


def opening_matches(game_id: bytes, hand: int, commitments: Sequence[bytes], o: Opening) -> bool:
    """Whether an opening opens the commitment at its position."""
    if not 0 <= o.position < len(commitments) or not 0 <= o.card < 40:
        return False
    return card_commitment(game_id, hand, o.position, o.card, o.salt) == commitments[o.position]


def options_of(ms: MatchStart) -> TableOptions:
    return TableOptions.from_dict(
        {
            "players": ms.players,
            "match_format": ms.match_format,
            "hands_to_win": ms.hands_to_win,
            "partner_exchange": bool(ms.partner_exchange),
            "removed_two": ms.removed_two,
        }
    )


@dataclass(slots=True)
class _Hand:
    number: int
    dealer: int
    commit: HostCommit
    commits: list[bytes] = field(default_factory=list)
    seeds: list[bytes] = field(default_factory=list)
    deck_commit: DeckCommit | None = None
    deck_index: int = 0
    deals: list[tuple[int, Deal]] = field(default_factory=list)
    exchanges: list[tuple[int, Exchange]] = field(default_factory=list)
    upcard: tuple[int, Upcard] | None = None
    plays: list[tuple[int, Play]] = field(default_factory=list)
    revealed: bool = False
    chain_at_reveal: bytes = b""
    acks: list[int] = field(default_factory=list)


@dataclass(slots=True)
class _Draw:
    start: DrawStart
    commits: list[bytes] = field(default_factory=list)
    seeds: list[bytes] = field(default_factory=list)
    result: DrawResult | None = None
    aborted: bool = False


def draw_result(st: DrawStart, host_seed: bytes, seeds: Sequence[bytes]) -> DrawResult:
    """The draw the seeds give (§7a): the full 40-card pack, lobby seat i takes position i."""
    return draw(
        range(40),
        draw_seed(st.game_id, host_seed, list(seeds)),
        st.players,
        draw_partners=bool(st.draw_partners),
        draw_dealer=bool(st.draw_dealer),
    )


_DEFERRABLE: tuple[type[Statement], ...] = (Play, Deal, Upcard, Exchange)


@dataclass(frozen=True, slots=True)
class _PendingSignature:
    index: int
    kind: str
    body: bytes
    sig: bytes
    keys: tuple[bytes, ...]
    who: str


class TranscriptChecker:
    """Feeds records one at a time; ``report`` holds the verdict so far.

    With ``defer_signatures=True`` (the live client) the signatures of the per-card records of a
    hand (play, deal, upcard, exchange) are queued instead of checked at once; everything else
    about them (order, context, openings against their commitments) is still checked at once.
    The queue is checked in order, in one batch, before any other record is checked (the
    host's reveal that ends the hand, an abort, an acknowledgement, a seed or deck statement),
    by ``flush()``, by ``finish()``, and before any other fault is reported, so the first
    failing record and the party blamed are the same as when checking at once.
    """

    def __init__(self, defer_signatures: bool = False) -> None:
        self.defer_signatures = defer_signatures
        self._pending: list[_PendingSignature] = []
        self.last_statement: Statement | None = None  # the last record added, decoded
        self.report = MatchReport()
        self.chain = CHAIN_START
        self.index = -1
        self._ms: MatchStart | None = None
        self._options: TableOptions | None = None
        self._match: Match | None = None
        self._hand: _Hand | None = None
        self._taken_over: set[int] = set()
        self._closed = False  # after an abort nothing more may follow
        self._draw: _Draw | None = None

    # --- public API ---------------------------------------------------------------------------

    def add(self, body: bytes, sig: bytes) -> None:
        """Check one record. Raises Violation (and records the fault) on the first problem."""
        self.last_statement = None
        if self.report.fault is not None:
            raise Violation(self.report.fault)
        self.index += 1
        self.report.records = self.index + 1
        try:
            self._add(body, sig)
        except Violation as v:
            fault = v.fault
            try:
                self._check_pending()  # an earlier record's bad signature comes first
            except Violation as earlier:
                fault = earlier.fault
            self._record_fault(fault)
            raise Violation(fault) from None

    @property
    def pending_signatures(self) -> int:
        """How many signatures are queued (always 0 unless ``defer_signatures``)."""
        return len(self._pending)

    def flush(self) -> None:
        """Check every queued signature now, in order; raises Violation on the first bad one."""
        if self.report.fault is not None:
            raise Violation(self.report.fault)
        try:
            self._check_pending()
        except Violation as v:
            self._record_fault(v.fault)
            raise

    def _check_pending(self) -> None:
        pending, self._pending = self._pending, []
        for p in pending:
            if not any(verify_signature(k, p.body, p.sig) for k in p.keys):
                raise Violation(
                    Fault(
                        p.index, p.kind, HOST, f"signature is not {p.who}'s (relayed by the host)"
                    )
                )

    def _record_fault(self, fault: Fault) -> None:
        self.report.fault = fault
        if self._hand is not None and self.report.hands:
            last = self.report.hands[-1]
            if last.hand == self._hand.number and last.status == "incomplete":
                last.status = "failed"
                last.fault = fault
        dr = self.report.draw
        if dr is not None and dr.status == "incomplete":
            dr.status, dr.fault = "failed", fault

    def finish(self) -> MatchReport:
        """Close the transcript: an unfinished hand is reported incomplete with who holds it up."""
        rep = self.report
        if rep.fault is None and self._pending:
            with contextlib.suppress(Violation):
                self.flush()
        d, dr = self._draw, rep.draw
        if rep.fault is None and d is not None and dr is not None and dr.status == "incomplete":
            n = d.start.players
            if len(d.commits) < n:
                who, what = len(d.commits), "never committed to its draw seed"
            elif len(d.seeds) < n:
                who, what = len(d.seeds), "never revealed its draw seed"
            else:
                who, what = HOST, "never revealed its draw seed (draw not finished)"
            if who != HOST:
                what += f" (lobby seat {who}, {d.start.names[who]!r})"
            dr.fault = rep.fault = Fault(None, "end of transcript", who, what)
        if rep.fault is None and dr is not None and dr.status == "aborted":
            rep.fault = dr.fault
        if rep.fault is None and self._hand is not None and not self._hand.revealed:
            h = self._hand
            n = self._n
            if len(h.commits) < n:
                who, what = len(h.commits), "never committed to its seed"
            elif len(h.seeds) < n:
                who, what = len(h.seeds), "never revealed its seed"
            else:
                who, what = HOST, "never revealed its seed and salts (hand not finished)"
            rep.hands[-1].fault = Fault(None, "end of transcript", who, what)
        if not rep.hands and rep.fault is None:
            rep.fault = Fault(None, "transcript", HOST, "no hand was played")
        return rep

    # --- internals ----------------------------------------------------------------------------

    @property
    def _n(self) -> int:
        assert self._options is not None
        return self._options.players

    def _fail(self, st: Statement | None, seat: int, reason: str) -> Violation:
        return Violation(Fault(self.index, st.KIND if st else "record", seat, reason))

    def _add(self, body: bytes, sig: bytes) -> None:
        try:
            st = decode(body)
        except StatementError as exc:
            raise self._fail(None, HOST, f"not a valid statement: {exc}") from exc
        self.last_statement = st
        if self._ms is None and self._draw is None:
            if isinstance(st, DrawStart):
                self._start_draw(st, body, sig)
            else:
                self._start(st, body, sig)
            return
        if isinstance(st, DrawStart):
            raise self._fail(st, HOST, "a second draw-start in one transcript")
        d = self._draw
        game_id = self._ms.game_id if self._ms is not None else d.start.game_id  # type: ignore[union-attr]
        if st.game_id != game_id:  # type: ignore[attr-defined]
            raise self._fail(st, HOST, "statement belongs to another game")
        if self._closed:
            raise self._fail(st, HOST, "statement after the match was aborted")
        if self._ms is None:
            assert d is not None
            if isinstance(st, MatchStart):
                self._start(st, body, sig)
                return
            self._check_signature(st, body, sig)
            self.chain = chain_next(self.chain, body)
            self._on_draw_statement(d, st)
            return
        if isinstance(st, MatchStart):
            raise self._fail(st, HOST, "a second match-start in one transcript")
        if isinstance(st, DrawReveal):
            raise self._fail(st, HOST, "a draw-reveal after the match started")
        self._check_signature(st, body, sig)
        if st.PUBLIC:
            self.chain = chain_next(self.chain, body)
        _HANDLERS[type(st)](self, st)

    def _start(self, st: Statement, body: bytes, sig: bytes) -> None:
        if not isinstance(st, MatchStart):
            raise self._fail(st, HOST, "a transcript must open with the match-start statement")
        if not verify_signature(st.host_key, body, sig):
            raise self._fail(st, HOST, "bad host signature on match-start")
        try:
            opts = options_of(st)
        except OptionsError as exc:
            raise self._fail(st, HOST, f"bad table options: {exc}") from exc
        n = opts.players
        if not (len(st.seat_keys) == len(st.names) == len(st.ai_levels) == n):
            raise self._fail(st, HOST, f"match-start must list {n} seats")
        if not 0 <= st.first_dealer < n:
            raise self._fail(st, HOST, "first dealer is not a seat")
        if self._draw is not None:
            self._check_drawn_seats(st)
        self._ms, self._options = st, opts
        self._match = Match(opts, st.first_dealer)
        self.chain = chain_next(self.chain, body)
        self.report.game_id = st.game_id.hex()
        self.report.table_name = st.table_name
        self.report.host_fingerprint = fingerprint(st.host_key)
        self.report.options = opts
        self.report.names = st.names

    # --- the draw (protocol/fairness.md §7a) ---------------------------------------------------

    def _start_draw(self, st: DrawStart, body: bytes, sig: bytes) -> None:
        if not verify_signature(st.host_key, body, sig):
            raise self._fail(st, HOST, "bad host signature on draw-start")
        n = st.players
        if n not in (2, 3, 4):
            raise self._fail(st, HOST, f"a draw for {n} players")
        if not (len(st.seat_keys) == len(st.names) == n):
            raise self._fail(st, HOST, f"draw-start must list {n} seats")
        if st.draw_partners not in (0, 1) or st.draw_dealer not in (0, 1):
            raise self._fail(st, HOST, "draw flags must be 0 or 1")
        if st.draw_partners and n != 4:
            raise self._fail(st, HOST, "partnerships are drawn only at 4 players")
        self._draw = _Draw(st)
        self.chain = chain_next(self.chain, body)
        self.report.game_id = st.game_id.hex()
        self.report.host_fingerprint = fingerprint(st.host_key)
        self.report.names = st.names
        self.report.draw = DrawReport(bool(st.draw_partners), bool(st.draw_dealer), st.names)

    def _on_draw_statement(self, d: _Draw, st: Statement) -> None:
        n = d.start.players
        if getattr(st, "hand", DRAW_HAND) != DRAW_HAND:
            raise self._fail(st, HOST, "a hand statement before the draw ended")
        if d.result is not None:
            raise self._fail(st, HOST, "only match-start may follow the draw's result")
        if isinstance(st, SeedCommit):
            if len(d.commits) >= n or st.seat != len(d.commits):
                raise self._fail(st, HOST, "draw seed commitment out of order or duplicated")
            d.commits.append(st.commitment)
        elif isinstance(st, SeedReveal):
            if len(d.commits) < n:
                raise self._fail(st, HOST, "a draw seed was revealed before every commitment")
            if len(d.seeds) >= n or st.seat != len(d.seeds):
                raise self._fail(st, HOST, "draw seed reveal out of order or duplicated")
            if seed_commitment(st.game_id, DRAW_HAND, st.seat, st.seed) != d.commits[st.seat]:
                raise self._fail(
                    st,
                    st.seat,
                    "revealed draw seed does not match the seat's commitment "
                    f"(lobby seat {st.seat}, {d.start.names[st.seat]!r})",
                )
            d.seeds.append(st.seed)
        elif isinstance(st, DrawReveal):
            self._on_draw_reveal(d, st)
        elif isinstance(st, Abort):
            seat = HOST if st.seat == HOST_PARTY else st.seat
            if seat != HOST and not 0 <= seat < n:
                raise self._fail(st, HOST, "abort names a seat that does not exist")
            assert self.report.draw is not None
            self.report.draw.status = "aborted"
            self.report.draw.fault = Fault(self.index, st.KIND, seat, st.reason)
            d.aborted = self._closed = True
        else:
            raise self._fail(st, HOST, f"a {st.KIND} statement during the draw")

    def _on_draw_reveal(self, d: _Draw, st: DrawReveal) -> None:
        if len(d.seeds) < d.start.players:
            raise self._fail(st, HOST, "the draw was revealed before every seat revealed its seed")
        own = seed_commitment(st.game_id, DRAW_HAND, HOST_PARTY, st.host_seed)
        if own != d.start.commitment:
            raise self._fail(st, HOST, "host draw seed does not match the host's commitment")
        result = draw_result(d.start, st.host_seed, d.seeds)
        if (tuple(st.cards), tuple(st.seating), st.dealer) != (
            result.cards,
            result.seating,
            result.dealer,
        ):
            raise self._fail(
                st, HOST, "the announced cards, seats or dealer are not what the seeds draw"
            )
        d.result = result
        dr = self.report.draw
        assert dr is not None
        dr.status, dr.cards, dr.seating, dr.dealer = (
            "verified",
            result.cards,
            result.seating,
            result.dealer,
        )

    def _check_drawn_seats(self, st: MatchStart) -> None:
        d = self._draw
        assert d is not None
        r = d.result
        if r is None:
            raise self._fail(st, HOST, "match-start before the draw's result")
        ds = d.start
        if st.host_key != ds.host_key or st.players != ds.players:
            raise self._fail(st, HOST, "match-start does not match the draw-start")
        for lobby, seat in enumerate(r.seating):
            if st.seat_keys[seat] != ds.seat_keys[lobby] or st.names[seat] != ds.names[lobby]:
                raise self._fail(
                    st, HOST, f"the player drawn to seat {seat} is not the one seated there"
                )
        if st.first_dealer != r.dealer:
            raise self._fail(st, HOST, f"the draw makes seat {r.dealer} the first dealer")

    # --- signatures ------------------------------------------------------------------------------

    def _check_signature(self, st: Statement, body: bytes, sig: bytes) -> None:
        if self._ms is not None:
            host_key, seat_keys, n = self._ms.host_key, self._ms.seat_keys, self._n
        else:
            assert self._draw is not None
            ds = self._draw.start
            host_key, seat_keys, n = ds.host_key, ds.seat_keys, ds.players
        if st.HOST_SIGNED:
            keys = [host_key]
            who = "the host"
        else:
            seat = st.seat  # type: ignore[attr-defined]
            if not 0 <= seat < n:
                raise self._fail(st, HOST, f"seat {seat} does not exist")
            keys = [seat_keys[seat]]
            if seat in self._taken_over:
                keys.append(host_key)
            who = f"seat {seat}"
        if self.defer_signatures and isinstance(st, _DEFERRABLE):
            self._pending.append(
                _PendingSignature(self.index, st.KIND, body, sig, tuple(keys), who)
            )
            return
        self._check_pending()
        if not any(verify_signature(k, body, sig) for k in keys):
            raise self._fail(st, HOST, f"signature is not {who}'s (relayed by the host)")

    def _need_hand(self, st: Statement) -> _Hand:
        h = self._hand
        if h is None or st.hand != h.number:  # type: ignore[attr-defined]
            raise self._fail(st, HOST, "statement outside its hand, or for another hand")
        return h

    def _on_host_commit(self, st: HostCommit) -> None:
        assert self._match is not None
        if self._hand is not None and not self._hand.revealed:
            raise self._fail(st, HOST, "a new hand started before the last one ended")
        if self._match.is_over:
            raise self._fail(st, HOST, "a hand started after the match was decided")
        if st.hand != self._match.hand_number:
            raise self._fail(st, HOST, f"expected hand {self._match.hand_number}, got {st.hand}")
        if st.dealer != self._match.next_dealer:
            raise self._fail(st, HOST, f"dealer must be seat {self._match.next_dealer}")
        self._hand = _Hand(st.hand, st.dealer, st)
        self.report.hands.append(HandReport(st.hand, st.dealer, "incomplete"))

    def _on_seed_commit(self, st: SeedCommit) -> None:
        h = self._need_hand(st)
        if len(h.commits) >= self._n or st.seat != len(h.commits):
            raise self._fail(st, HOST, "seed commitment out of order or duplicated")
        h.commits.append(st.commitment)

    def _on_seed_reveal(self, st: SeedReveal) -> None:
        h = self._need_hand(st)
        if len(h.commits) < self._n:
            raise self._fail(st, HOST, "a seed was revealed before every seat had committed")
        if len(h.seeds) >= self._n or st.seat != len(h.seeds):
            raise self._fail(st, HOST, "seed reveal out of order or duplicated")
        if seed_commitment(st.game_id, st.hand, st.seat, st.seed) != h.commits[st.seat]:
            raise self._fail(st, st.seat, "revealed seed does not match the seat's commitment")
        h.seeds.append(st.seed)

    def _on_deck_commit(self, st: DeckCommit) -> None:
        h = self._need_hand(st)
        assert self._options is not None
        if len(h.seeds) < self._n or h.deck_commit is not None:
            raise self._fail(st, HOST, "deck committed before every seed was revealed, or twice")
        if len(st.commitments) != self._options.deck_size:
            raise self._fail(st, HOST, f"expected {self._options.deck_size} card commitments")
        h.deck_commit, h.deck_index = st, self.index

    def _need_dealt(self, st: Statement) -> _Hand:
        h = self._need_hand(st)
        if h.deck_commit is None or h.revealed:
            raise self._fail(st, HOST, f"{st.KIND} before the deck was committed or after the end")
        return h

    def _check_openings(self, st: Statement, h: _Hand, openings: Sequence[Opening]) -> None:
        assert h.deck_commit is not None
        for o in openings:
            if not opening_matches(st.game_id, h.number, h.deck_commit.commitments, o):  # type: ignore[attr-defined]
                raise self._fail(
                    st, HOST, f"opening for position {o.position} does not match its commitment"
                )

    def _on_deal(self, st: Deal) -> None:
        h = self._need_dealt(st)
        self._check_openings(st, h, st.openings)
        h.deals.append((self.index, st))

    def _on_upcard(self, st: Upcard) -> None:
        h = self._need_dealt(st)
        if h.upcard is not None or h.plays:
            raise self._fail(st, HOST, "upcard turned twice or after play began")
        if st.opening.position != 3 * self._n:
            raise self._fail(st, HOST, f"the upcard is position {3 * self._n}")
        self._check_openings(st, h, [st.opening])
        h.upcard = (self.index, st)

    def _on_exchange(self, st: Exchange) -> None:
        h = self._need_dealt(st)
        self._check_openings(st, h, st.openings)
        h.exchanges.append((self.index, st))

    def _on_play(self, st: Play) -> None:
        h = self._need_dealt(st)
        if h.upcard is None:
            raise self._fail(st, HOST, "a card was played before the upcard was turned")
        if st.index != len(h.plays):
            raise self._fail(st, HOST, f"expected play number {len(h.plays)}, got {st.index}")
        h.plays.append((self.index, st))

    def _on_takeover(self, st: Takeover) -> None:
        h = self._need_hand(st)
        if not 0 <= st.seat < self._n or st.at_play != len(h.plays):
            raise self._fail(st, HOST, "takeover of a seat that does not exist, or out of place")
        if st.ai:
            self._taken_over.add(st.seat)
        else:
            self._taken_over.discard(st.seat)
        self.report.takeovers.append((st.hand, st.seat, bool(st.ai), st.at_play))

    def _on_abort(self, st: Abort) -> None:
        h = self._need_hand(st)
        if h.revealed:
            raise self._fail(st, HOST, "abort after the hand was revealed")
        seat = HOST if st.seat == HOST_PARTY else st.seat
        if seat != HOST and not 0 <= seat < self._n:
            raise self._fail(st, HOST, "abort names a seat that does not exist")
        rep = self.report.hands[-1]
        rep.status = "aborted"
        rep.fault = Fault(self.index, st.KIND, seat, st.reason)
        h.revealed = True
        self._closed = True

    def _on_ack(self, st: Ack) -> None:
        h = self._need_hand(st)
        if not h.revealed or self._closed:
            raise self._fail(st, HOST, "acknowledgement before the end of the hand")
        if (h.acks and st.seat <= h.acks[-1]) or not 0 <= st.seat < self._n:
            raise self._fail(st, HOST, "acknowledgements out of seat order or duplicated")
        if st.chain_hash != h.chain_at_reveal:
            raise self._fail(
                st,
                HOST,
                f"seat {st.seat} acknowledged a different history: the host sent different "
                "messages to different players (equivocation)",
            )
        h.acks.append(st.seat)
        self.report.hands[-1].acks = len(h.acks)

    def _on_host_reveal(self, st: HostReveal) -> None:
        h = self._need_dealt(st)
        opts, match = self._options, self._match
        assert opts is not None and match is not None and h.deck_commit is not None
        if seed_commitment(st.game_id, h.number, HOST_PARTY, st.host_seed) != h.commit.commitment:
            raise self._fail(st, HOST, "host seed does not match the host's commitment")
        if len(st.salts) != opts.deck_size:
            raise self._fail(st, HOST, f"expected {opts.deck_size} salts")
        deck = deal_deck(opts, deck_seed(st.game_id, h.number, st.host_seed, h.seeds))
        for pos, card in enumerate(deck):
            c = card_commitment(st.game_id, h.number, pos, card.code, st.salts[pos])
            if c != h.deck_commit.commitments[pos]:
                raise Violation(
                    Fault(
                        h.deck_index,
                        DeckCommit.KIND,
                        HOST,
                        f"position {pos}: the committed card is not the card the seeds shuffle "
                        "there (cards swapped, invented or a bad salt)",
                    )
                )
        hand = Hand(opts, deck, h.dealer)
        dealt_to: dict[int, int] = {}
        for ev in hand.deal_events:
            if isinstance(ev, CardDealt):
                dealt_to[ev.position] = ev.seat
        for idx, play in h.plays:
            if hand.current_player != play.seat:
                raise Violation(Fault(idx, Play.KIND, HOST, f"seat {play.seat} played out of turn"))
            try:
                events = hand.play(play.seat, Card.from_code(play.card))
            except (RulesError, ValueError) as exc:
                fault = Fault(idx, Play.KIND, HOST, f"illegal play accepted: {exc}")
                raise Violation(fault) from exc
            for ev in events:
                if isinstance(ev, CardDealt):
                    dealt_to[ev.position] = ev.seat
        if not hand.is_terminal:
            raise self._fail(st, HOST, "the hand was closed before every trick was played")
        for idx, deal in h.deals:
            for o in deal.openings:
                if dealt_to.get(o.position) != deal.seat:
                    raise Violation(
                        Fault(
                            idx,
                            Deal.KIND,
                            HOST,
                            f"position {o.position} was not dealt to seat {deal.seat} by the "
                            "public schedule",
                        )
                    )
        shown = hand.exchange_shown
        for idx, ex in h.exchanges:
            if shown is None or opts.partner_of(ex.seat) != ex.partner:
                raise Violation(Fault(idx, Exchange.KIND, HOST, "exchange that should not happen"))
            held = sorted(c.code for c in shown[ex.partner])
            codes = sorted(o.card for o in ex.openings)
            wrong = [o.position for o in ex.openings if dealt_to.get(o.position) != ex.partner]
            if codes != held or wrong:
                raise Violation(
                    Fault(
                        idx,
                        Exchange.KIND,
                        HOST,
                        f"cards shown to seat {ex.seat} are not the cards its partner holds",
                    )
                )
        points = hand.returns()
        if tuple(st.points) != points:
            raise self._fail(st, HOST, f"announced points {st.points} but the plays give {points}")
        match.record(hand)
        h.revealed = True
        h.chain_at_reveal = self.chain
        rep = self.report.hands[-1]
        rep.status, rep.points = "verified", points
        self.report.winner = match.winner
        self.report.match_over = match.is_over


_HANDLERS: dict[type[Statement], Callable[[TranscriptChecker, Any], None]] = {
    HostCommit: TranscriptChecker._on_host_commit,
    SeedCommit: TranscriptChecker._on_seed_commit,
    SeedReveal: TranscriptChecker._on_seed_reveal,
    DeckCommit: TranscriptChecker._on_deck_commit,
    Deal: TranscriptChecker._on_deal,
    Upcard: TranscriptChecker._on_upcard,
    Play: TranscriptChecker._on_play,
    Exchange: TranscriptChecker._on_exchange,
    Takeover: TranscriptChecker._on_takeover,
    HostReveal: TranscriptChecker._on_host_reveal,
    Abort: TranscriptChecker._on_abort,
    Ack: TranscriptChecker._on_ack,
}  # a statement of the match (after match-start) -> its check


def verify_records(records: Sequence[Record]) -> MatchReport:
    """Verify a whole transcript; the report says which hands verified and the first fault."""
    checker = TranscriptChecker()
    for body, sig in records:
        try:
            checker.add(body, sig)
        except Violation:
            break
    return checker.finish()


__all__ = [
    "HOST",
    "DrawReport",
    "Fault",
    "HandReport",
    "MatchReport",
    "TranscriptChecker",
    "Violation",
    "draw_result",
    "opening_matches",
    "options_of",
    "verify_records",
]
