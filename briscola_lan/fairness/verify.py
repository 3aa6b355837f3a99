"""The verifier: checks a transcript of signed statements one by one and names who is at fault.

Used offline (``briscola-lan verify``) and by every client at the end of each hand. It checks
signatures, order, seed commitments and reveals, the shuffle, every card commitment and opening,
the public deal schedule, every play through the rules engine, the partner exchange, the points,
and that every seat acknowledged the same chain hash (protocol/fairness.md §8).

Blame rules: a seat is at fault only on evidence it signed itself (a seed reveal that does not
open the seat's commitment, published by the host or receipted to the seat). Everything the host
assembles and relays (order, context, signatures it should have checked, legality it should have
enforced, the deck, openings, points) is the host's fault. An abort for a statement that never
came, without evidence, is "the host or seat N": they cannot be told apart, unless the file holds
the host's receipt for that statement, which makes it the host's fault.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from briscola_lan.fairness.blind_hand import BlindFault, BlindHand, Presence
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.draw import DrawResult, draw
from briscola_lan.fairness.encoding import (
    DRAW_HAND,
    HOST_PARTY,
    card_commitment,
    deck_seed,
    draw_seed,
    seed_commitment,
)
from briscola_lan.fairness.identity import fingerprint, verify_signature
from briscola_lan.fairness.shuffle import deal_deck
from briscola_lan.fairness.statements import (
    BLIND_PARTY_KINDS,
    KINDS,
    Abort,
    Ack,
    BlindEnd,
    BlindPlay,
    BlindStart,
    Complaint,
    Deal,
    DeckCommit,
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
from briscola_lan.rules.options import MatchFormat, TableOptions
from briscola_lan.rules.schedule import PublicSchedule

HOST = -1  # "seat at fault" value meaning the host

Record = tuple[bytes, bytes]


BENCHED_AFTER = 2  # a seat named by this many aborts is played by the host from then on (§8.7)
AI_LEVELS = ("", "random", "rules", "strong")  # "" is a human seat (fairness.md §8, valid options)


def party_name(seat: int) -> str:
    return "the host" if seat == HOST else f"seat {seat}"


@dataclass(frozen=True, slots=True)
class Fault:
    """Why verification failed: the record (index in the transcript), its kind, who is at fault.

    ``also_host``: the file cannot tell the host and ``seat`` apart (an abort for a statement
    that never came, with no evidence and no receipt): either may be at fault.
    """

    index: int | None
    kind: str
    seat: int  # HOST (-1) or a seat number
    reason: str
    also_host: bool = False

    @property
    def party(self) -> str:
        """Who is at fault, as the spec writes it: "host", "seat N" or "host or seat N"."""
        if self.seat == HOST:
            return "host"
        return f"host or seat {self.seat}" if self.also_host else f"seat {self.seat}"

    def describe(self) -> str:
        where = f"record {self.index} ({self.kind})" if self.index is not None else self.kind
        if self.also_host and self.seat != HOST:
            who = f"the host or seat {self.seat} (cannot be told apart)"
        else:
            who = party_name(self.seat)
        return f"{where}: {self.reason} — at fault: {who}"


@dataclass(frozen=True, slots=True)
class Waiting:
    """Who an unfinished file waits for (fairness.md §8.7): ending early is not a fault, so this
    names nobody at fault, only the party whose record would come next."""

    seat: int  # HOST (-1) or a seat number (a lobby seat in the draw)
    what: str  # what that party owes next, as people read it
    lobby: bool = False  # ``seat`` is a lobby seat (the draw)

    @property
    def party(self) -> str:
        """As the JSON report writes it: "host" or "seat N"."""
        return "host" if self.seat == HOST else f"seat {self.seat}"

    def describe(self) -> str:
        who = party_name(self.seat)
        if self.lobby and self.seat != HOST:
            who = "lobby " + who
        return f"waiting for: {who} ({self.what})"


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
    status: str  # "verified", "failed", "aborted", "incomplete", "unacknowledged"
    points: tuple[int, ...] | None = None
    fault: Fault | None = None  # a failed check, or the abort's blame
    acks: int = 0
    missing_acks: tuple[int, ...] = ()  # seats whose acknowledgement the file does not hold
    parties: tuple[int, ...] = ()  # a blind hand's parties, once its call is over (§11.3)
    withheld: list[Fault] = field(default_factory=list)  # key reveals overdue (§11.8), named
    waiting: Waiting | None = None  # the file ends in this hand: who it waits for (no fault)

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
    fault: Fault | None = None  # a failed check, or the abort's blame
    waiting: Waiting | None = None  # the file ends in the draw: who it waits for (no fault)

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
            "waiting_for": self.waiting.party if self.waiting is not None else None,
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
    match_ended: bool = False  # the file holds the match-end record
    keys_due: bool = False  # the file ends in a blind hand's key reveals (after its result)
    receipts: int = 0  # receipts from the host in this file (a seat's own file holds them)
    deal: str = ""  # "classic" or "blind", from the match's first hand
    waiting: Waiting | None = None  # an incomplete file: who it waits for (nobody is at fault)

    @property
    def verdict(self) -> str:
        """The file's verdict (protocol/fairness.md §8.9): verified, failed, aborted, incomplete
        (the file stops before the match ends), withheld (complete, but a party withheld a key
        reveal after its hand's result was fixed: named, the results stand) or unacknowledged
        (complete, but some hand lacks a seat's acknowledgement)."""
        if self.fault is not None:  # also a record after the draw's abort (§8.3 step 3)
            return "failed"
        if self.draw is not None and self.draw.status == "failed":
            return "failed"
        if any(h.status == "failed" for h in self.hands):
            return "failed"
        if (self.draw is not None and self.draw.status == "aborted") or any(
            h.status == "aborted" for h in self.hands
        ):
            return "aborted"
        if not self.match_ended or self.keys_due:
            return "incomplete"
        if any(h.withheld for h in self.hands):
            return "withheld"
        if any(h.status == "unacknowledged" for h in self.hands):
            return "unacknowledged"
        return "verified"

    @property
    def ok(self) -> bool:
        """True when the whole match verified: every hand, every acknowledgement, its end."""
        return self.verdict == "verified"

    @property
    def blame(self) -> Fault | None:
        """The fault that decides the verdict (a failed check or the abort's), if any."""
        if self.fault is not None:
            return self.fault
        if (
            self.draw is not None
            and self.draw.fault is not None
            and self.draw.status in ("failed", "aborted")
        ):
            return self.draw.fault
        for h in self.hands:
            if h.status in ("failed", "aborted") and h.fault is not None:
                return h.fault
        if self.verdict == "withheld":
            return next(h.withheld[0] for h in self.hands if h.withheld)
        return None

    def to_dict(self) -> dict[str, object]:
        """The JSON report (fairness.md §9): ``at_fault`` and ``fault`` (the record named) for a
        failed or aborted file, ``waiting_for`` for an incomplete one, null otherwise."""
        blame = self.blame
        return {
            "ok": self.ok,
            "verdict": self.verdict,
            "at_fault": blame.party if blame is not None else None,
            "waiting_for": self.waiting.party if self.waiting is not None else None,
            "match_ended": self.match_ended,
            "receipts": self.receipts,
            "deal": self.deal or None,
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
                    "missing_acks": list(h.missing_acks),
                    "parties": ["host" if q == HOST_PARTY else f"seat {q}" for q in h.parties],
                    "fault": _fault_dict(h.fault),
                    "withheld": [_fault_dict(f) for f in h.withheld],
                    "waiting_for": h.waiting.party if h.waiting is not None else None,
                }
                for h in self.hands
            ],
            "fault": _fault_dict(blame),
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
        "at_fault": f.party,
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


def options_problem(ms: MatchStart) -> str | None:
    """Why a match-start's options are not valid options (fairness.md §8), or None."""
    if ms.players not in (2, 3, 4):
        return f"a match for {ms.players} players"
    if ms.match_format not in (MatchFormat.HANDS.value, MatchFormat.POINTS.value):
        return f"unknown match format {ms.match_format!r}"
    if not 1 <= ms.hands_to_win <= 5:
        return f"hands_to_win must be 1 to 5, not {ms.hands_to_win}"
    if ms.partner_exchange not in (0, 1):
        return f"partner_exchange must be 0 or 1, not {ms.partner_exchange}"
    if not 0 <= ms.removed_two <= 3:
        return f"removed_two must be a suit 0 to 3, not {ms.removed_two}"
    if ms.match_format == MatchFormat.HANDS.value and ms.players == 3:
        return "the hands format is not played by 3 players"
    if any(level not in AI_LEVELS for level in ms.ai_levels):
        return "an AI level that is not random, rules or strong"
    return None


@dataclass(slots=True)
class _Hand:
    number: int
    dealer: int
    commit: HostCommit | BlindStart
    sched: PublicSchedule
    blind: BlindHand | None = None  # a blind hand's public state (§11), once its parties are known
    presence: Presence | None = None  # a blind hand's call (§11.3); None in a classic hand
    commits: list[bytes] = field(default_factory=list)
    seeds: list[bytes] = field(default_factory=list)
    deck_commit: DeckCommit | None = None
    deck_index: int = 0
    deals: list[tuple[int, Deal]] = field(default_factory=list)
    exchanges: list[tuple[int, Exchange]] = field(default_factory=list)
    upcard: tuple[int, Upcard] | None = None
    plays: list[tuple[int, Play]] = field(default_factory=list)
    played: set[int] = field(default_factory=set)  # card codes played so far
    revealed: bool = False  # the hand's result is in (host-reveal, blind-end) or it was aborted
    aborted: bool = False  # counts for nothing; dealt again unless the abort named the host
    keys_due: bool = False  # a blind hand after its blind-end: the key reveals come next
    end_due: bool = False  # the host-reveal decided the match: match-end comes next
    chain_at_reveal: bytes = b""
    acks: list[int] = field(default_factory=list)
    acks_closed: bool = False
    # The deals the schedule makes now (seat -> positions), from the deck-commit or a trick's
    # end until the next record of another kind; which seats got theirs, and the exchange.
    window: dict[int, list[int]] | None = None
    window_seen: list[int] = field(default_factory=list)
    exchange_due: bool = False
    exchange_seen: list[int] = field(default_factory=list)


@dataclass(slots=True)
class _Draw:
    start: DrawStart
    commits: list[bytes] = field(default_factory=list)
    seeds: list[bytes] = field(default_factory=list)
    result: DrawResult | None = None
    aborted: bool = False


@dataclass(frozen=True, slots=True)
class _Receipted:
    """A statement the host gave a seat a receipt for."""

    index: int  # the receipt's record
    statement: Statement
    time: int


def draw_result(st: DrawStart, host_seed: bytes, seeds: Sequence[bytes]) -> DrawResult:
    """The draw the seeds give (§7a): the full 40-card pack, lobby seat i takes position i."""
    return draw(
        range(40),
        draw_seed(st.game_id, host_seed, list(seeds)),
        st.players,
        draw_partners=bool(st.draw_partners),
        draw_dealer=bool(st.draw_dealer),
    )


# Never a blind hand's shares or shows (fairness.md §8.10): a client opens its cards with the keys
# they hold, and would sign a complaint about a key the host forged on the way. A blind-play MAY
# wait: its key is checked against the final deck at once, and no one but the seat can make it.
_DEFERRABLE: tuple[type[Statement], ...] = (
    Play,
    Deal,
    Upcard,
    Exchange,
    Receipt,
    BlindPlay,
)
_DEFERRABLE_TYPES = frozenset(_DEFERRABLE)  # exact classes: statements are final dataclasses
_SEAT_NAMES = tuple(f"seat {s}" for s in range(8))
_WINDOW_KINDS: tuple[type[Statement], ...] = (Deal, Exchange, Receipt)


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
    hand (play, deal, upcard, exchange, receipt, blind-play; never a blind hand's shares or
    shows, whose keys the client uses at once) are queued instead of checked at once; everything
    else about them (order, context, openings against their commitments) is still checked at once.
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
        self.context = ContextChain()  # the chain, and the context a statement must carry
        self.index = -1
        self._ms: MatchStart | None = None
        self._options: TableOptions | None = None
        self._match: Match | None = None
        self._hand: _Hand | None = None
        self._taken_over: set[int] = set()
        self._blind_mode: bool | None = None  # fixed by the match's first hand (§11.3)
        # A blind abort's owed statement, as judged (party, kind, play number or window).
        self.owed_at_abort: tuple[int, str, int] | None = None
        self._closed = False  # after an abort naming the host (or the draw's) nothing may follow
        self._replays = 0  # hands aborted naming a seat, each dealt again (§8.7)
        self._named: dict[int, int] = {}  # seat -> the aborts that named it
        self._draw: _Draw | None = None
        # The seats whose private records this file holds (every seat in the host's file, one
        # in a seat's own file): the seats dealt to in the first deal of the match.
        self._recipients: frozenset[int] | None = None
        # (hand, kind, seat, play index or 0) -> the receipted statement
        self._receipts: dict[tuple[int, str, int, int], _Receipted] = {}
        self._play_receipts: dict[tuple[int, int], list[tuple[int, str, int, int]]] = {}
        # (hand, kind, seat, index) -> the published statement of a seat (§8.5: a receipt and
        # the published statement of the same slot are the same bytes)
        self._published: dict[tuple[int, str, int, int], tuple[int, Statement]] = {}
        self._evidence: tuple[int, int] | None = None  # (record, seat): an abort must follow
        # hand -> (its blind state, its report): hands whose key reveals were named overdue
        self._late: dict[int, tuple[BlindHand, HandReport]] = {}
        # (key, body, signature) triples already known to verify: a seat's statement comes
        # back inside its receipt and again as a public record; a client knows its own.
        self._good: set[tuple[bytes, bytes, bytes]] = set()

    # --- public API ---------------------------------------------------------------------------

    def add(self, body: bytes, sig: bytes) -> None:
        """Check one record. Raises Violation (and records the fault) on the first problem."""
        self.last_statement = None
        if self.report.fault is not None:
            self._follow_chain(body)
            raise Violation(self.report.fault)
        self.index += 1
        self.report.records = self.index + 1
        chain = self.context.chain
        try:
            self._add(body, sig)
        except Violation as v:
            if self.context.chain == chain:
                self._follow_chain(body)
            fault = self._for_the_host(v.fault)
            earlier = self._first_queued_fault()  # an earlier record's bad signature or proof
            if earlier is not None and (fault.index is None or earlier.index < fault.index):  # type: ignore[operator]
                fault = earlier
            self._record_fault(fault)
            raise Violation(fault) from None

    def _for_the_host(self, fault: Fault) -> Fault:
        """A fault of a seat the host plays (an AI seat, a seat it took over, a seat left out of
        a blind hand) is the host's: it signed for that seat (fairness.md §8.7)."""
        seat = fault.seat
        ms = self._ms
        if seat == HOST or ms is None or not 0 <= seat < len(ms.ai_levels):
            return fault
        if ms.ai_levels[seat] == "" and seat not in self._taken_over:
            return fault
        return Fault(
            fault.index,
            fault.kind,
            HOST,
            f"{fault.reason} (seat {seat} is played by the host, which signed for it)",
        )

    def _first_queued_fault(self) -> Fault | None:
        """Check every queued signature and lock proof; the first bad one by record, if any."""
        faults = []
        for check in (self._check_pending, self._check_proofs):
            try:
                check()
            except Violation as v:
                faults.append(v.fault)
        return min(faults, key=lambda f: f.index or 0) if faults else None

    def _check_proofs(self) -> None:
        """A live client's queued lock proofs (fairness.md §8.10), checked in order."""
        h = self._hand
        if h is None or h.blind is None:
            return
        try:
            h.blind.check_locks()
        except BlindFault as bf:
            party = HOST if bf.party == HOST_PARTY else bf.party
            raise Violation(Fault(bf.record, bf.kind, party, bf.reason)) from None

    def _follow_chain(self, body: bytes) -> None:
        """Past a fault nothing is checked, but the chain (and the context a live client signs
        with) follows the host's records, so that the client can still play along."""
        cls = KINDS.get(_tag_of(body))
        if cls is not None and cls.PUBLIC:
            self.context.published(cls.KIND, body)

    def known_good(self, key: bytes, body: bytes, sig: bytes) -> None:
        """Tell the checker a signature is good without checking it: only for a signature this
        process made itself (a client's own statements), so the verdict cannot change."""
        self._good.add((key, body, sig))

    def _verify(self, key: bytes, body: bytes, sig: bytes, *, remember: bool = False) -> bool:
        """Check a signature; ``remember`` a good one that can come again (a seat's statement
        comes back inside its receipt), so that it is checked once."""
        triple = (key, body, sig)
        if triple in self._good:
            return True
        if verify_signature(key, body, sig):
            if remember:
                self._good.add(triple)
            return True
        return False

    @property
    def chain(self) -> bytes:
        """The chain hash over the public records so far (§8.1)."""
        return self.context.chain

    def context_for(self, kind: str) -> bytes:
        """The context a statement of ``kind`` must carry if it is published next (§8.1)."""
        return self.context.expected(kind)

    @property
    def pending_signatures(self) -> int:
        """How many signatures are queued (always 0 unless ``defer_signatures``)."""
        return len(self._pending)

    @property
    def blind(self) -> BlindHand | None:
        """The current hand's public blind state (None in a classic hand or before a hand)."""
        h = self._hand
        return h.blind if h is not None and (not h.revealed or h.keys_due) else None

    @property
    def presence(self) -> Presence | None:
        """The current blind hand's call while its answers come in (None otherwise)."""
        h = self._hand
        if h is None or h.revealed or h.presence is None or h.presence.closed:
            return None
        return h.presence

    def close_presence(self) -> None:
        """The host published the answers to the call (``hand_joined``): the hand's parties are
        fixed now, as at the next record (raises Violation)."""
        h = self._hand
        if h is None or h.presence is None or h.presence.closed or self.report.fault is not None:
            return
        try:
            self._close_presence(h)
        except Violation as v:
            self._record_fault(v.fault)
            raise

    @property
    def taken_over(self) -> frozenset[int]:
        """The seats the host plays now (a takeover with ai = 1 in force)."""
        return frozenset(self._taken_over)

    def acks_complete(self) -> None:
        """The live client saw the hand's acknowledgements relayed (all in one message): check
        them now as the offline verifier does at the next hand; raises Violation."""
        h = self._hand
        if h is None or not h.revealed or h.aborted or self._closed or self.report.fault:
            return
        try:
            self._close_acks(h)
        except Violation as v:
            self._record_fault(v.fault)
            raise

    def receipt_for(self, hand: int, kind: str, seat: int, index: int = 0) -> _Receipted | None:
        """The host's receipt in this file for a seat's statement, if there is one."""
        return self._receipts.get((hand, kind, seat, index))

    def flush(self) -> None:
        """Check every queued signature and lock proof now; raises Violation on the first bad
        one (by record)."""
        if self.report.fault is not None:
            raise Violation(self.report.fault)
        fault = self._first_queued_fault()
        if fault is not None:
            self._record_fault(fault)
            raise Violation(fault)

    def _check_pending(self) -> None:
        pending, self._pending = self._pending, []
        for p in pending:
            seat = p.who != "the host"
            if not any(self._verify(k, p.body, p.sig, remember=seat) for k in p.keys):
                raise Violation(
                    Fault(
                        p.index, p.kind, HOST, f"signature is not {p.who}'s (relayed by the host)"
                    )
                )

    def _record_fault(self, fault: Fault) -> None:
        self.report.fault = fault
        if self._hand is not None and self.report.hands:
            last = self.report.hands[-1]
            if last.hand == self._hand.number and last.status in (
                "incomplete",
                "verified",
                "unacknowledged",
            ):
                last.status = "failed"
                last.fault = fault
        dr = self.report.draw
        if dr is not None and dr.status == "incomplete":
            dr.status, dr.fault = "failed", fault

    def finish(self) -> MatchReport:
        """Close the transcript: an unfinished hand is reported incomplete with who holds it up."""
        rep = self.report
        if self.index < 0:
            rep.fault = Fault(None, "transcript", HOST, "the file holds no record")
            return rep
        if rep.fault is None:
            with contextlib.suppress(Violation):
                self.flush()  # queued signatures, and lock passes no reveal judged
        if rep.fault is None and self._evidence is not None:
            index, _seat = self._evidence
            rep.fault = Fault(index, Evidence.KIND, HOST, "evidence published without its abort")
            self._record_fault(rep.fault)
        # Who an unfinished file waits for (§8.7): the first seat without a commitment, else the
        # first without a reveal, else the host. Ending early is not a fault: nobody is blamed.
        waiting: Waiting | None = None
        d, dr = self._draw, rep.draw
        if rep.fault is None and d is not None and dr is not None and dr.status == "incomplete":
            n = d.start.players
            if len(d.commits) < n:
                who, what = len(d.commits), "its commitment to its draw seed"
            elif len(d.seeds) < n:
                who, what = len(d.seeds), "the reveal of its draw seed"
            else:
                who, what = HOST, "the draw-reveal: the draw is not finished"
            if who != HOST:
                what = f"{d.start.names[who]!r}: {what}"
            dr.waiting = waiting = Waiting(who, what, lobby=True)
        h = self._hand
        if (
            rep.fault is None
            and h is not None
            and not h.revealed
            and h.blind is None
            and h.presence is not None
        ):
            what = "the players' answers to its call (the presents it received)"
            rep.hands[-1].waiting = waiting = Waiting(HOST, what)
        elif rep.fault is None and h is not None and not h.revealed and h.blind is not None:
            kind, owing = h.blind.owed()
            party = owing[0] if owing else HOST_PARTY
            if kind in (Show.KIND, BlindPlay.KIND) and owing:
                party = h.blind.owner(owing[0])
            who = HOST if party == HOST_PARTY else party
            what = f"its {kind}" if who != HOST else f"the {kind} (the host's own)"
            rep.hands[-1].waiting = waiting = Waiting(who, what)
        elif rep.fault is None and h is not None and not h.revealed:
            n = self._n
            if len(h.commits) < n:
                who, what = len(h.commits), "its commitment to its seed"
            elif len(h.seeds) < n:
                who, what = len(h.seeds), "the reveal of its seed"
            else:
                who, what = HOST, "the rest of the hand, up to its host-reveal"
            rep.hands[-1].waiting = waiting = Waiting(who, what)
        elif rep.fault is None and h is not None and h.keys_due and not h.end_due and h.blind:
            rep.keys_due = True
            kind, owing = h.blind.owed()
            party = owing[0] if owing else HOST_PARTY
            who = HOST if party == HOST_PARTY else party
            what = "its key reveal" if who != HOST else "the key reveal (the host's own)"
            rep.hands[-1].waiting = waiting = Waiting(who, what)
        elif rep.fault is None and h is not None and not self._closed and not h.aborted:
            if h.end_due:
                rep.hands[-1].waiting = waiting = Waiting(HOST, "the match-end record")
            else:
                with contextlib.suppress(Violation):
                    try:
                        self._close_acks(h)
                    except Violation as v:
                        self._record_fault(v.fault)
                        raise
        if rep.verdict == "incomplete":
            if waiting is None:  # between hands, or before the first one
                if self._ms is None:
                    what = "the match-start record"
                else:
                    opener = "blind-start" if self._blind_mode else "host-commit"
                    what = f"the {'next' if h is not None else 'first'} hand's {opener}"
                waiting = Waiting(HOST, what)
            rep.waiting = waiting
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
        if self._evidence is not None and not isinstance(st, Abort):
            raise self._fail(st, HOST, "evidence must be followed at once by its abort")
        if self._ms is None:
            assert d is not None
            if isinstance(st, MatchStart):
                self._start(st, body, sig)
                return
            self._check_signature(st, body, sig)
            self._check_context(st)
            if st.PUBLIC:
                self.context.published(st.KIND, body)
            self._on_draw_statement(d, st)
            return
        if isinstance(st, MatchStart):
            raise self._fail(st, HOST, "a second match-start in one transcript")
        if isinstance(st, DrawReveal):
            raise self._fail(st, HOST, "a draw-reveal after the match started")
        late = self._late.get(getattr(st, "hand", -1))
        if isinstance(st, KeyReveal) and late is not None and st.seat in late[0].late:
            self._late_reveal(st, body, sig)  # a reveal named overdue, coming later
            return
        h = self._hand
        if h is not None and not isinstance(st, _WINDOW_KINDS):
            if h.window is not None:
                self._close_window(h, st)
            if h.end_due and not isinstance(st, MatchEnd):
                raise self._fail(st, HOST, "the match was decided: match-end must come next")
        self._check_signature(st, body, sig)
        self._check_context(st)
        if type(st) in _AFTER_PROOFS:
            self._check_proofs()  # lock passes no reveal judged: by their proofs, now
        if st.PUBLIC:
            self.context.published(st.KIND, body)
        if (  # also once the hand ended: a blind hand takes no seed-commit after its blind-end
            h is not None
            and type(st) in _HAND_KINDS
            and (h.presence is not None) != (type(st) in _BLIND_KINDS)
        ):
            mode = "blind" if h.presence is not None else "classic"
            raise self._fail(st, HOST, f"a {st.KIND} record in a {mode} hand")
        try:
            _HANDLERS[type(st)](self, st)
            if type(st) in _SLOTTED:
                self._published_slot(st)
        except BlindFault as bf:
            record = self.index if bf.record is None else bf.record
            party = HOST if bf.party == HOST_PARTY else bf.party
            raise Violation(
                Fault(record, bf.kind or st.KIND, party, bf.reason, also_host=bf.also_host)
            ) from None

    def _start(self, st: Statement, body: bytes, sig: bytes) -> None:
        if not isinstance(st, MatchStart):
            raise self._fail(st, HOST, "a transcript must open with the match-start statement")
        if not verify_signature(st.host_key, body, sig):
            raise self._fail(st, HOST, "bad host signature on match-start")
        problem = options_problem(st)
        if problem is not None:
            raise self._fail(st, HOST, f"bad table options: {problem}")
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
        self.context.published(st.KIND, body)
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
        self.context.published(st.KIND, body)
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
        if isinstance(st, Receipt):
            self._on_receipt(st)
        elif isinstance(st, SeedCommit):
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
        elif isinstance(st, Evidence):
            self._on_evidence(st, d.commits, d.seeds, n)
        elif isinstance(st, Abort):
            seat = HOST if st.seat == HOST_PARTY else st.seat
            if seat != HOST and not 0 <= seat < n:
                raise self._fail(st, HOST, "abort names a seat that does not exist")
            fault = self._abort_fault(
                st, seat, hand=DRAW_HAND, commits=d.commits, seeds=d.seeds, n=n, dealt=False
            )
            if fault.seat != HOST:
                fault = Fault(
                    fault.index,
                    fault.kind,
                    fault.seat,
                    f"{fault.reason} (lobby seat {seat}, {d.start.names[seat]!r})",
                    fault.also_host,
                )
            assert self.report.draw is not None
            self.report.draw.status = "aborted"
            self.report.draw.fault = fault
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

    def _keys(self) -> tuple[bytes, tuple[bytes, ...], int]:
        if self._ms is not None:
            return self._ms.host_key, self._ms.seat_keys, self._n
        assert self._draw is not None
        ds = self._draw.start
        return ds.host_key, ds.seat_keys, ds.players

    def _check_signature(self, st: Statement, body: bytes, sig: bytes) -> None:
        host_key, seat_keys, n = self._keys()
        if st.HOST_SIGNED or getattr(st, "seat", None) == HOST_PARTY:
            keys: tuple[bytes, ...] = (host_key,)
            who = "the host"
        else:
            seat = st.seat  # type: ignore[attr-defined]
            if not 0 <= seat < n:
                raise self._fail(st, HOST, f"seat {seat} does not exist")
            keys = (seat_keys[seat], host_key) if seat in self._taken_over else (seat_keys[seat],)
            who = _SEAT_NAMES[seat] if seat < len(_SEAT_NAMES) else f"seat {seat}"
        if self.defer_signatures and type(st) in _DEFERRABLE_TYPES:
            self._pending.append(_PendingSignature(self.index, st.KIND, body, sig, keys, who))
            return
        self._check_pending()
        seat_signed = not st.HOST_SIGNED and keys[0] != host_key
        if not any(self._verify(k, body, sig, remember=seat_signed) for k in keys):
            raise self._fail(st, HOST, f"signature is not {who}'s (relayed by the host)")

    def _check_context(self, st: Statement) -> None:
        """A party statement names the history it was made over: the context due here (§8.1).
        Another context means the host showed its signer another past than this file's, or
        relayed a statement made for another history: the host's fault either way."""
        context = getattr(st, "context", None)
        if context is None or context == self.context.expected(st.KIND):
            return
        party = st.seat  # type: ignore[attr-defined]
        who = "the host" if party == HOST_PARTY else f"seat {party}"
        raise self._fail(
            st,
            HOST,
            f"{who}'s {st.KIND} was made over another history than this file's (its context is "
            "not the chain here): the host showed players different pasts (equivocation), "
            "withheld a record from this file, or relayed a statement made for another history",
        )

    def _seat_statement(self, st: Receipt | Evidence, hand: int) -> Statement:
        """The seat's own signed statement inside a receipt or evidence, checked."""
        _host_key, seat_keys, n = self._keys()
        if not 0 <= st.seat < n:
            raise self._fail(st, HOST, f"seat {st.seat} does not exist")
        try:
            inner = decode(st.statement)
        except StatementError as exc:
            raise self._fail(st, HOST, f"the statement inside is not valid: {exc}") from exc
        if not isinstance(inner, (SeedCommit, SeedReveal, Play, Ack, *BLIND_PARTY_KINDS)):
            raise self._fail(st, HOST, f"a {inner.KIND} is not a statement a seat sends")
        if inner.game_id != st.game_id or inner.hand != hand or inner.seat != st.seat:  # type: ignore[attr-defined]
            raise self._fail(st, HOST, "the statement inside is of another game, hand or seat")
        if not self._verify(seat_keys[st.seat], st.statement, st.signature, remember=True):
            raise self._fail(st, HOST, f"the statement inside is not signed by seat {st.seat}")
        return inner

    def _published_slot(self, st: Statement) -> None:
        """A seat's statement was published (or an ack relayed): if the host receipted another
        statement for the same slot, it received one and published another (§8.5)."""
        key = (st.hand, st.KIND, st.seat, _receipt_index(st))  # type: ignore[attr-defined]
        receipted = self._receipts.get(key)
        if receipted is not None and receipted.statement != st:
            raise self._fail(
                st,
                HOST,
                f"the host received another {st.KIND} of {party_name(st.seat)} (its receipt, "  # type: ignore[attr-defined]
                f"record {receipted.index}) than the one it published here",
            )
        self._published.setdefault(key, (self.index, st))

    def _on_receipt(self, st: Receipt) -> None:
        hand = DRAW_HAND if self._ms is None else self._need_hand(st).number
        if st.hand != hand:
            raise self._fail(st, HOST, "a receipt outside the hand of its statement")
        inner = self._seat_statement(st, hand)
        index = _receipt_index(inner)
        h = self._hand
        plays: Sequence[tuple[int, Statement]] = ()
        if h is not None:
            plays = h.blind.plays if h.blind is not None else h.plays
        if isinstance(inner, Play | BlindPlay) and index < len(plays):
            published = plays[index][1]
            if published != inner:
                raise self._fail(
                    st,
                    HOST,
                    f"the host received seat {st.seat}'s play number {index} (this receipt) and "
                    f"published another (record {plays[index][0]})",
                )
        key = (hand, inner.KIND, st.seat, index)
        slot = self._published.get(key)
        if slot is not None and slot[1] != inner:
            raise self._fail(
                st,
                HOST,
                f"the host received this {inner.KIND} of seat {st.seat} (this receipt) and "
                f"published another (record {slot[0]})",
            )
        if (
            isinstance(inner, Present)
            and h is not None
            and h.number == hand
            and h.presence is not None
            and h.presence.closed
            and inner.seat not in h.presence.present
        ):
            raise self._fail(st, HOST, _left_out(inner.seat, self.index, st.time))
        if key not in self._receipts:
            self._receipts[key] = _Receipted(self.index, inner, st.time)
            if isinstance(inner, Play):  # what _on_play looks up, in the order received
                self._play_receipts.setdefault((hand, index), []).append(key)
        self.report.receipts += 1

    def _on_evidence(
        self, st: Evidence, commits: Sequence[bytes], seeds: Sequence[bytes], n: int
    ) -> None:
        hand = DRAW_HAND if self._ms is None else self._need_hand(st).number
        if st.hand != hand or len(commits) < n or len(seeds) >= n:
            raise self._fail(st, HOST, "evidence outside the seed reveals of its hand")
        inner = self._seat_statement(st, hand)
        if not isinstance(inner, SeedReveal):
            raise self._fail(st, HOST, "evidence that is not a seed reveal")
        assert isinstance(inner, SeedReveal)
        if seed_commitment(st.game_id, hand, st.seat, inner.seed) == commits[st.seat]:
            raise self._fail(
                st, HOST, f"the evidence shows seat {st.seat}'s seed reveal opening its commitment"
            )
        self._evidence = (self.index, st.seat)

    def _on_hand_evidence(self, st: Evidence) -> None:
        h = self._need_hand(st)
        self._on_evidence(st, h.commits, h.seeds, self._n)

    def _abort_fault(
        self,
        st: Abort,
        seat: int,
        *,
        hand: int,
        commits: Sequence[bytes],
        seeds: Sequence[bytes],
        n: int,
        dealt: bool,
    ) -> Fault:
        """Who an abort makes at fault (fairness.md §8, blame)."""
        evidence, self._evidence = self._evidence, None
        if seat == HOST:
            return Fault(self.index, st.KIND, HOST, st.reason)
        if evidence is not None:
            index, ev_seat = evidence
            if ev_seat != seat:
                raise self._fail(
                    st, HOST, f"the evidence is seat {ev_seat}'s, the abort names {seat}"
                )
            return Fault(
                index,
                Evidence.KIND,
                seat,
                "revealed a seed that does not open its "
                "commitment (its signed reveal is published as evidence)",
            )
        if len(seeds) >= n:
            return Fault(
                self.index,
                st.KIND,
                HOST,
                f"the host aborted naming seat {seat} after every seed was revealed: that seat "
                "owed nothing",
            )
        if dealt:
            return Fault(
                self.index,
                st.KIND,
                HOST,
                f"the host aborted after the deal naming seat {seat}: nothing that seat owed "
                "could stop the hand (the host plays a seat that does not)",
            )
        if seat in self._taken_over:
            return Fault(self.index, st.KIND, HOST, f"the host itself plays seat {seat} (takeover)")
        kind = SeedCommit.KIND if len(commits) < n else SeedReveal.KIND
        what = "commit to its seed" if kind == SeedCommit.KIND else "reveal its seed"
        receipted = self._receipts.get((hand, kind, seat, 0))
        if receipted is not None:
            inner = receipted.statement
            if isinstance(inner, SeedReveal) and (
                seed_commitment(st.game_id, hand, seat, inner.seed) != commits[seat]
            ):
                return Fault(
                    receipted.index,
                    Receipt.KIND,
                    seat,
                    "revealed a seed that does not open its commitment (its signed reveal is in "
                    "the host's receipt)",
                )
            return Fault(
                self.index,
                st.KIND,
                HOST,
                f"the host claims seat {seat} did not {what}, but this file holds the host's "
                f"receipt for it (record {receipted.index}, received at "
                f"{_utc(receipted.time)}): the host is at fault",
            )
        return Fault(
            self.index,
            st.KIND,
            seat,
            f"{st.reason}; no evidence and no receipt: the host and seat {seat} cannot be told "
            "apart",
            also_host=True,
        )

    # --- a hand ----------------------------------------------------------------------------------

    def _need_hand(self, st: Statement) -> _Hand:
        h = self._hand
        if h is None or st.hand != h.number:  # type: ignore[attr-defined]
            raise self._fail(st, HOST, "statement outside its hand, or for another hand")
        return h

    def _open_hand(self, st: HostCommit | BlindStart) -> _Hand:
        """The checks every hand's first record passes; the new hand (§8.3 host-commit)."""
        assert self._match is not None and self._options is not None
        blind = isinstance(st, BlindStart)
        if self._blind_mode is not None and self._blind_mode != blind:
            mode = "blind" if self._blind_mode else "classic"
            raise self._fail(st, HOST, f"a {st.KIND} in a {mode} match: the mode never changes")
        prev = self._hand
        if prev is not None and (not prev.revealed or prev.keys_due):
            raise self._fail(st, HOST, "a new hand started before the last one ended")
        if self._match.is_over:
            raise self._fail(st, HOST, "a hand started after the match was decided")
        if prev is not None and not prev.aborted:
            self._close_acks(prev)
        number = self._match.hand_number + self._replays  # every deal begun has its number
        if st.hand != number:
            raise self._fail(st, HOST, f"expected hand {number}, got {st.hand}")
        if st.dealer != self._match.next_dealer:
            raise self._fail(st, HOST, f"dealer must be seat {self._match.next_dealer}")
        self._blind_mode = blind
        self.report.deal = "blind" if blind else "classic"
        self._hand = _Hand(st.hand, st.dealer, st, PublicSchedule(self._options, st.dealer))
        self.report.hands.append(HandReport(st.hand, st.dealer, "incomplete"))
        return self._hand

    def _on_host_commit(self, st: HostCommit) -> None:
        self._open_hand(st)

    def _close_acks(self, h: _Hand) -> None:
        """The hand's acknowledgements are all in: a seat missing from them is reported."""
        if h.acks_closed:
            return
        h.acks_closed = True
        missing = tuple(s for s in range(self._n) if s not in h.acks)
        for s in missing:
            receipted = self._receipts.get((h.number, Ack.KIND, s, 0))
            if receipted is not None:
                raise Violation(
                    Fault(
                        receipted.index,
                        Receipt.KIND,
                        HOST,
                        f"the host received seat {s}'s acknowledgement (this receipt) but did "
                        "not relay it",
                    )
                )
        rep = self.report.hands[-1]
        if missing and rep.status == "verified":
            rep.status, rep.missing_acks = "unacknowledged", missing

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
        h.window, h.window_seen = {s: list(p) for s, p in h.sched.initial.items()}, []

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

    def _close_window(self, h: _Hand, st: Statement) -> None:
        """A record of another kind ends the deals the schedule made: all of them are here."""
        seen = set(h.window_seen)
        if self._recipients is None:
            if not seen:
                raise self._fail(st, HOST, "the initial deal is missing: no seat was dealt to")
            self._recipients = frozenset(seen)
        missing = sorted(self._recipients - seen)
        if missing:
            raise self._fail(
                st, HOST, f"seat {missing[0]} was not sent the cards the schedule deals it now"
            )
        if h.exchange_due and set(h.exchange_seen) != self._recipients:
            raise self._fail(st, HOST, "the partner exchange is missing at the end of the stock")
        h.window, h.window_seen, h.exchange_due, h.exchange_seen = None, [], False, []

    def _window_seat(self, st: Deal | Exchange, h: _Hand) -> None:
        if h.window is None:
            raise self._fail(
                st, HOST, f"a {st.KIND} when the schedule deals nothing (early, late or twice)"
            )
        if self._recipients is not None and st.seat not in self._recipients:
            raise self._fail(
                st, HOST, f"a {st.KIND} for seat {st.seat}, whose cards this file does not hold"
            )

    def _on_deal(self, st: Deal) -> None:
        h = self._need_dealt(st)
        self._window_seat(st, h)
        assert h.window is not None
        if not 0 <= st.seat < self._n:
            raise self._fail(st, HOST, f"seat {st.seat} does not exist")
        if h.exchange_seen or (h.window_seen and st.seat <= h.window_seen[-1]):
            raise self._fail(st, HOST, "deals out of seat order or duplicated")
        want = h.window.get(st.seat, [])
        got = [o.position for o in st.openings]
        if got != want:
            raise self._fail(
                st, HOST, f"dealt positions {got}, but the schedule gives seat {st.seat} {want} now"
            )
        self._check_openings(st, h, st.openings)
        h.window_seen.append(st.seat)
        h.deals.append((self.index, st))

    def _on_upcard(self, st: Upcard) -> None:
        h = self._need_dealt(st)
        if h.upcard is not None or h.plays:
            raise self._fail(st, HOST, "upcard turned twice or after play began")
        if st.opening.position != 3 * self._n:
            raise self._fail(st, HOST, f"the upcard is position {3 * self._n}")
        self._check_openings(st, h, [st.opening])
        h.upcard = (self.index, st)
        h.sched.trump = Card.from_code(st.opening.card).suit

    def _on_exchange(self, st: Exchange) -> None:
        h = self._need_dealt(st)
        self._window_seat(st, h)
        if not h.exchange_due:
            raise self._fail(st, HOST, "an exchange when the schedule makes none (early or late)")
        assert self._recipients is not None
        if set(h.window_seen) != self._recipients:
            raise self._fail(st, HOST, "the exchange came before the last draw's cards")
        if h.exchange_seen and st.seat <= h.exchange_seen[-1]:
            raise self._fail(st, HOST, "exchanges out of seat order or duplicated")
        assert self._options is not None
        partner = self._options.partner_of(st.seat)
        if partner is None or st.partner != partner:
            raise self._fail(st, HOST, f"seat {st.seat}'s partner is seat {partner}")
        positions = [o.position for o in st.openings]
        dealt = set(h.sched.positions_of(partner))
        if (
            len(set(positions)) != len(positions)
            or len(positions) != h.sched.hand_sizes[partner]
            or any(p not in dealt for p in positions)
            or any(o.card in h.sched.played[partner] for o in st.openings)
        ):
            raise self._fail(
                st, HOST, f"cards shown to seat {st.seat} are not the cards its partner holds"
            )
        self._check_openings(st, h, st.openings)
        h.exchange_seen.append(st.seat)
        h.exchanges.append((self.index, st))

    def _on_play(self, st: Play) -> None:
        h = self._need_dealt(st)
        if h.upcard is None:
            raise self._fail(st, HOST, "a card was played before the upcard was turned")
        if st.index != len(h.plays):
            raise self._fail(st, HOST, f"expected play number {len(h.plays)}, got {st.index}")
        if h.sched.to_play is None:
            raise self._fail(st, HOST, "a card was played after the last trick")
        if st.seat != h.sched.to_play:
            raise self._fail(
                st, HOST, f"seat {st.seat} played out of turn (seat {h.sched.to_play} was to play)"
            )
        if not 0 <= st.card < 40 or st.card in h.played:
            raise self._fail(st, HOST, f"card {st.card} cannot be played (no such card, or twice)")
        for key in self._play_receipts.get((h.number, st.index), ()):
            receipted = self._receipts[key]
            _hand, _kind, seat, index = key
            if receipted.statement != st:
                raise self._fail(
                    st,
                    HOST,
                    f"the host received seat {seat}'s play number {index} (receipt, record "
                    f"{receipted.index}) and published another",
                )
        h.plays.append((self.index, st))
        h.played.add(st.card)
        outcome = h.sched.play(st.seat, Card.from_code(st.card))
        if outcome is not None and outcome.draws:
            h.window = {}
            for seat, pos in outcome.draws:
                h.window.setdefault(seat, []).append(pos)
            h.window_seen, h.exchange_due = [], outcome.exchange

    def _on_takeover(self, st: Takeover) -> None:
        if self._blind_mode:
            raise self._fail(
                st, HOST, "no takeover in a blind match: each hand's parties say who the host plays"
            )
        h = self._need_hand(st)
        if not 0 <= st.seat < self._n or st.at_play != len(h.plays):
            raise self._fail(st, HOST, "takeover of a seat that does not exist, or out of place")
        if st.ai not in (0, 1):
            raise self._fail(st, HOST, "a takeover's ai flag is 0 or 1")
        if st.ai and st.seat not in self._taken_over and not h.aborted:
            self._check_no_own_secret(st, h)
        if not st.ai and len(h.seeds) < self._n and not h.aborted:  # an aborted hand's are moot
            raise self._fail(
                st,
                HOST,
                f"seat {st.seat} handed back while the hand's seeds are committed and revealed: "
                "the AI holds the seat's seed until they are all revealed (SPEC.md §6a)",
            )
        if st.ai:
            self._taken_over.add(st.seat)
        else:
            self._taken_over.discard(st.seat)
        self.report.takeovers.append((st.hand, st.seat, bool(st.ai), st.at_play))

    def _check_no_own_secret(self, st: Takeover, h: _Hand) -> None:
        """The host MUST NOT take a seat between the seat's own seed-commit and its seed-reveal
        (SPEC.md §6a): only the seat can open that commitment. The file shows it when it holds
        the host's receipt for the seat's seed-commit and neither the seat's reveal nor the
        receipt for it came before (a seat's own file). The host publishes the reveals only
        once all are in, so that a seat that revealed and then dropped is rightly taken over
        before its reveal is published: without the receipts a file cannot tell."""
        committed = self._receipts.get((h.number, SeedCommit.KIND, st.seat, 0))
        revealed = st.seat < len(h.seeds) or (
            (h.number, SeedReveal.KIND, st.seat, 0) in self._receipts
        )
        if committed is not None and not revealed:
            raise self._fail(
                st,
                HOST,
                f"the host took seat {st.seat} over while the seat held its own unrevealed seed "
                f"(the host's receipt for its seed commitment is record {committed.index}, and "
                "the seat had not revealed): only the seat can open it (SPEC.md §6a)",
            )

    def _on_abort(self, st: Abort) -> None:
        h = self._need_hand(st)
        if h.revealed:
            raise self._fail(st, HOST, "abort after the hand was revealed")
        seat = HOST if st.seat == HOST_PARTY else st.seat
        if seat != HOST and not 0 <= seat < self._n:
            raise self._fail(st, HOST, "abort names a seat that does not exist")
        if h.presence is not None and h.blind is None:  # during the call
            reason = st.reason
            if seat != HOST:
                reason = (
                    f"the host aborted naming seat {seat} during the call, when a seat owes "
                    "nothing (one that does not answer is played by the host)"
                )
            self._end_aborted(h, st, Fault(self.index, st.KIND, HOST, reason))
            return
        if h.blind is not None:
            self._end_aborted(h, st, self._blind_abort_fault(st, seat, h, h.blind))
            return
        fault = self._abort_fault(
            st,
            seat,
            hand=h.number,
            commits=h.commits,
            seeds=h.seeds,
            n=self._n,
            dealt=h.deck_commit is not None,
        )
        self._end_aborted(h, st, fault)

    def _end_aborted(self, h: _Hand, st: Abort, fault: Fault) -> None:
        """The hand counts for nothing (§8.7). An abort naming a seat: the same dealer deals it
        again with the next hand number; one naming the host ends the match."""
        rep = self.report.hands[-1]
        rep.status = "aborted"
        rep.fault = self._for_the_host(fault)
        h.revealed = h.aborted = True
        if st.seat == HOST_PARTY:
            self._closed = True
        else:
            self._replays += 1
            self._named[st.seat] = self._named.get(st.seat, 0) + 1

    def benched(self, seat: int) -> bool:
        """Whether aborts named the seat twice: the host plays it to the end of the match."""
        return self._named.get(seat, 0) >= BENCHED_AFTER

    def _on_ack(self, st: Ack) -> None:
        h = self._need_hand(st)
        if h.aborted:
            raise self._fail(st, HOST, "an acknowledgement of an aborted hand")
        if not h.revealed or self._closed or h.end_due or h.keys_due:
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

    def _on_match_end(self, st: MatchEnd) -> None:
        h, match = self._hand, self._match
        assert match is not None
        if h is None or not h.end_due:
            raise self._fail(st, HOST, "match-end before the match was decided")
        h.end_due = False
        want = (len(match.results), match.winner, match.hands_won(), match.total_points())
        if (st.hands, st.winner, st.hands_won, st.points) != want:
            raise self._fail(
                st,
                HOST,
                f"the match-end says {st.hands} hands, side {st.winner} won, hands "
                f"{list(st.hands_won)}, points {list(st.points)}; the hands give {want[0]}, side "
                f"{want[1]}, {list(want[2])}, {list(want[3])}",
            )
        if not h.keys_due:  # a blind hand's acks cover its key reveals, after the match-end
            h.chain_at_reveal = self.chain  # the deciding hand's acks cover the match-end
        self.report.match_ended = True

    # --- a blind hand (protocol/fairness.md §11) -------------------------------------------------

    def _need_blind(self, st: Statement) -> BlindHand:
        h = self._need_hand(st)
        if h.presence is not None and not h.presence.closed and not h.revealed:
            self._close_presence(h)  # the first record after the answers fixes the parties
        after_end = h.keys_due and isinstance(st, KeyReveal | Overdue)
        if h.blind is None or (h.revealed and not after_end):
            raise self._fail(st, HOST, f"a {st.KIND} outside a blind hand in progress")
        return h.blind

    def _on_blind_start(self, st: BlindStart) -> None:
        ms = self._ms
        assert ms is not None
        h = self._open_hand(st)
        h.presence = Presence([level == "" for level in ms.ai_levels])
        self._taken_over = set()

    def _on_present(self, st: Present) -> None:
        h = self._need_hand(st)
        if h.presence is None or h.presence.closed or h.revealed:
            raise self._fail(st, HOST, "a present outside the call of a blind hand")
        h.presence.on_present(st, self.index)

    def _close_presence(self, h: _Hand) -> None:
        """The call is over: the parties are the seats that answered (§11.3). A seat left out
        whose present the host receipted is the host's fault (this file holds the receipt)."""
        opts = self._options
        assert opts is not None and h.presence is not None
        assert isinstance(h.commit, BlindStart)
        parties = h.presence.close()
        h.blind = BlindHand(
            opts,
            h.commit.game_id,
            h.number,
            h.dealer,
            parties,
            check_proofs=False,  # judged by the revealed keys, or by their proofs (§11.4)
        )
        self.report.hands[-1].parties = parties
        self._taken_over = set(h.presence.left_out())  # the host signs for them this hand
        for seat in h.presence.left_out():
            receipted = self._receipts.get((h.number, Present.KIND, seat, 0))
            if receipted is not None:
                raise Violation(
                    Fault(
                        receipted.index,
                        Receipt.KIND,
                        HOST,
                        _left_out(seat, receipted.index, receipted.time),
                    )
                )

    def _on_shuffle(self, st: ShufflePass) -> None:
        self._need_blind(st).on_shuffle(st, self.index)

    def _on_lock(self, st: LockPass) -> None:
        self._need_blind(st).on_lock(st, self.index)

    def _on_shares(self, st: Shares) -> None:
        self._need_blind(st).on_shares(st, self.index)

    def _on_show(self, st: Show) -> None:
        self._need_blind(st).on_show(st, self.index)

    def _on_complaint(self, st: Complaint) -> None:
        self._need_blind(st).on_complaint(st, self.index)

    def _on_key_reveal(self, st: KeyReveal) -> None:
        b = self._need_blind(st)
        b.on_key_reveal(st, self.index)
        h = self._hand
        assert h is not None
        if h.keys_due and b.expected() == "done":
            self._keys_closed(h)

    def _on_overdue(self, st: Overdue) -> None:
        """The key reveals that did not come in time, after the result was fixed (§11.8): each
        is named (the host, if it receipted one or if it is its own), never a void result."""
        b = self._need_blind(st)
        h = self._hand
        assert h is not None
        if not h.keys_due:
            raise self._fail(st, HOST, "overdue key reveals named before the hand's blind-end")
        b.on_overdue(st.parties)
        rep = self.report.hands[-1]
        for q in st.parties:
            if q == HOST_PARTY:
                rep.withheld.append(
                    Fault(self.index, st.KIND, HOST, "the host withheld its own key reveal")
                )
                continue
            receipted = self._receipts.get((h.number, KeyReveal.KIND, q, 0))
            if receipted is not None:
                raise Violation(
                    Fault(
                        receipted.index,
                        Receipt.KIND,
                        HOST,
                        f"the host names seat {q}'s key reveal overdue, but this file holds the "
                        f"host's receipt for it (record {receipted.index}, received at "
                        f"{_utc(receipted.time)}): the host is at fault",
                    )
                )
            rep.withheld.append(
                Fault(
                    self.index,
                    st.KIND,
                    q,
                    f"seat {q}'s key reveal did not come in time (no receipt: the host and seat "
                    f"{q} cannot be told apart); the hand's result stands on its proved plays",
                    also_host=True,
                )
            )
        self._late[h.number] = (b, rep)
        self._keys_closed(h)

    def _keys_closed(self, h: _Hand) -> None:
        """A blind hand's key reveals are all in (or the overdue ones named): its acks follow,
        over the chain as it is now."""
        h.keys_due = False
        h.chain_at_reveal = self.chain

    def _late_reveal(self, st: KeyReveal, body: bytes, sig: bytes) -> None:
        """A key reveal named overdue, published later (it makes nothing due, §8.1): checked
        now against its own hand; the party is then no longer withheld."""
        b, rep = self._late[st.hand]
        self._check_signature(st, body, sig)
        if st.context != b.reveal_context:
            raise self._fail(
                st, HOST, "a late key reveal made over another history than its hand's reveals"
            )
        self.context.published(st.KIND, body, transparent=True)
        try:
            b.on_key_reveal(st, self.index)
        except BlindFault as bf:
            record = self.index if bf.record is None else bf.record
            party = HOST if bf.party == HOST_PARTY else bf.party
            raise Violation(Fault(record, bf.kind or st.KIND, party, bf.reason)) from None
        rep.withheld = [f for f in rep.withheld if f.seat != st.seat]

    def _on_blind_play(self, st: BlindPlay) -> None:
        b = self._need_blind(st)
        receipted = self._receipts.get((b.hand, BlindPlay.KIND, st.seat, st.index))
        if receipted is not None and receipted.statement != st:
            raise self._fail(
                st,
                HOST,
                f"the host received seat {st.seat}'s play number {st.index} (receipt, record "
                f"{receipted.index}) and published another",
            )
        b.on_play(st, self.index)

    def _on_blind_end(self, st: BlindEnd) -> None:
        """The hand's result, fixed by its proved plays (§11.8): every card played once, each
        proved at its position, so its points follow from the public cards alone."""
        b = self._need_blind(st)
        h, match = self._hand, self._match
        assert h is not None and match is not None
        if b.disputed:
            raise self._fail(st, HOST, "a disputed hand ends with an abort, not a blind-end")
        if b.expected() != "end":
            raise self._fail(st, HOST, "the hand was closed before every trick was played")
        points = b.points()
        if tuple(st.points) != points:
            raise self._fail(st, HOST, f"announced points {st.points} but the plays give {points}")
        b.on_end()
        b.reveal_context = self.context.expected(KeyReveal.KIND)
        match.record_points(points, h.dealer)
        h.keys_due = True
        self._result(h, points)

    def _blind_abort_fault(self, st: Abort, seat: int, h: _Hand, b: BlindHand) -> Fault:
        """Who a blind hand's abort makes at fault (§11.9)."""
        if b.verdict is not None:  # a complaint its proof decided, whoever the abort names
            bf = b.verdict
            party = HOST if bf.party == HOST_PARTY else bf.party
            return Fault(bf.record, bf.kind, party, bf.reason)
        if seat == HOST:
            return Fault(self.index, st.KIND, HOST, st.reason)
        if b.disputed:
            if len(b.reveals) == len(b.parties):
                bf = b.dispute_verdict()
                party = HOST if bf.party == HOST_PARTY else bf.party
                return Fault(bf.record, bf.kind, party, bf.reason)
            missing = next(q for q in b.parties if q not in b.reveals)
            return self._owed_fault(st, h, missing, KeyReveal.KIND, 0)
        kind, who = b.owed()
        owing = [b.owner(x) for x in who] if kind in (Show.KIND, BlindPlay.KIND) else list(who)
        if b.owner(seat) != seat or seat not in owing:
            return Fault(
                self.index,
                st.KIND,
                HOST,
                f"the host aborted naming seat {seat}, which owed nothing then (the hand "
                f"waited for: {kind})",
            )
        index = len(b.plays) if kind == BlindPlay.KIND else 0
        if kind == Shares.KIND and b.window is not None:
            index = b.window.number
        return self._owed_fault(st, h, seat, kind, index)

    def _owed_fault(self, st: Abort, h: _Hand, party: int, kind: str, index: int) -> Fault:
        """An abort for a statement ``party`` owed: the host's fault if it is the host, or if
        this file holds the host's receipt for it; else the host and the seat cannot be told
        apart."""
        self.owed_at_abort = (party, kind, index)
        if party == HOST_PARTY:
            return Fault(self.index, st.KIND, HOST, f"the host did not send its {kind}")
        receipted = self._receipts.get((h.number, kind, party, index))
        if receipted is not None:
            return Fault(
                self.index,
                st.KIND,
                HOST,
                f"the host claims seat {party} did not send its {kind}, but this file holds the "
                f"host's receipt for it (record {receipted.index}, received at "
                f"{_utc(receipted.time)}): the host is at fault",
            )
        return Fault(
            self.index,
            st.KIND,
            party,
            f"{st.reason}; no evidence and no receipt: the host and seat {party} cannot be told "
            "apart",
            also_host=True,
        )

    def _on_host_reveal(self, st: HostReveal) -> None:
        h = self._need_dealt(st)
        opts, match = self._options, self._match
        assert opts is not None and match is not None and h.deck_commit is not None
        assert isinstance(h.commit, HostCommit)
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
        self._hand_closed(h, hand)

    def _hand_closed(self, h: _Hand, hand: Hand) -> None:
        """A classic hand's end record checked: the match records it."""
        match = self._match
        assert match is not None
        match.record(hand)
        h.chain_at_reveal = self.chain
        self._result(h, hand.returns())

    def _result(self, h: _Hand, points: tuple[int, ...]) -> None:
        """The hand's result is in: a match-end comes next when it decides the match."""
        match = self._match
        assert match is not None
        h.revealed = True
        h.end_due = match.is_over
        rep = self.report.hands[-1]
        rep.status, rep.points = "verified", points
        self.report.winner = match.winner
        self.report.match_over = match.is_over


def _left_out(seat: int, record: int, time: int) -> str:
    return (
        f"the host left seat {seat} out of the hand and played it itself, but this file holds "
        f"the host's receipt for the seat's answer to the call (record {record}, received at "
        f"{_utc(time)}): a connected player takes part in every hand, so the host is at fault"
    )


def _utc(seconds: int) -> str:
    """A receipt's time as people read it (UTC)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


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
    Receipt: TranscriptChecker._on_receipt,
    MatchEnd: TranscriptChecker._on_match_end,
    Evidence: TranscriptChecker._on_hand_evidence,
    BlindStart: TranscriptChecker._on_blind_start,
    Present: TranscriptChecker._on_present,
    ShufflePass: TranscriptChecker._on_shuffle,
    LockPass: TranscriptChecker._on_lock,
    Shares: TranscriptChecker._on_shares,
    Show: TranscriptChecker._on_show,
    BlindPlay: TranscriptChecker._on_blind_play,
    Complaint: TranscriptChecker._on_complaint,
    KeyReveal: TranscriptChecker._on_key_reveal,
    BlindEnd: TranscriptChecker._on_blind_end,
    Overdue: TranscriptChecker._on_overdue,
}  # a statement of the match (after match-start) -> its check

# The records of a hand in progress, by mode: each mode's kinds are refused in the other's hands.
_CLASSIC_KINDS = frozenset({SeedCommit, SeedReveal, DeckCommit, Deal, Upcard, Play, Exchange})
_BLIND_KINDS = frozenset(
    {
        Present,
        ShufflePass,
        LockPass,
        Shares,
        Show,
        BlindPlay,
        Complaint,
        KeyReveal,
        BlindEnd,
        Overdue,
    }
)
# Records before which the lock passes not judged by their party's revealed keys are judged by
# their proofs (fairness.md §11.4): an abort (the hand ends without the reveals), an ack, the
# next hand's first record.
_AFTER_PROOFS = frozenset({Abort, Ack, BlindStart, HostCommit, Overdue})
# A seat's statements whose published copy must be the receipted one (§8.5); plays are checked
# by their own rule, which also covers a play receipted for another seat.
_SLOTTED = frozenset(
    {
        SeedCommit,
        SeedReveal,
        Ack,
        Present,
        ShufflePass,
        LockPass,
        Shares,
        Show,
        Complaint,
        KeyReveal,
    }
)
_HAND_KINDS = _CLASSIC_KINDS | _BLIND_KINDS | {HostReveal, Evidence}


def _tag_of(body: bytes) -> bytes:
    """A statement's tag bytes, without decoding it (empty if there is none)."""
    size = int.from_bytes(body[:4], "big") if len(body) >= 4 else 0
    return body[4 : 4 + size]


def _receipt_index(st: Statement) -> int:
    """What tells apart a seat's statements of one kind in a hand: a play's number, the window
    of its shares; 0 for the rest."""
    if isinstance(st, Play | BlindPlay):
        return st.index
    if isinstance(st, Shares):
        return st.window
    return 0


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
    "Waiting",
    "draw_result",
    "opening_matches",
    "options_of",
    "verify_records",
]
