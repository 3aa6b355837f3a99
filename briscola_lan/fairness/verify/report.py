"""The verifier's report: a fault and who is at fault, who an unfinished file waits for, and the
verdicts on the draw, on each hand and on the whole file (protocol/fairness.md §8.9, §9).

``Fault.blame`` is the one rule of who a fault names (the host, a seat, or the host or a seat when
a file cannot tell them apart), and ``party_name``, ``Fault.party`` and ``Fault.who`` its one
wording, which the verifier's reports, ``briscola-lan verify`` and the clients share (the
terminal client translates the same three cases from ``Fault.blame``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.rules.cards import Suit
from briscola_lan.rules.chiamata import CallResult
from briscola_lan.rules.events import TrickTaken
from briscola_lan.rules.options import TableOptions

HOST = -1  # "seat at fault" value meaning the host

Record = tuple[bytes, bytes]


def party_name(seat: int, also_host: bool = False) -> str:
    """A party as the reports write it in sentences: "the host", "seat N", or "the host or seat
    N" (``also_host``: a file that cannot tell them apart)."""
    if seat == HOST:
        return "the host"
    return f"the host or seat {seat}" if also_host else f"seat {seat}"


class Blame(StrEnum):
    """Who a fault names (fairness.md §8.7): the host; a seat, on evidence it signed itself; or
    the host or a seat, when the file cannot tell them apart."""

    HOST = "host"
    SEAT = "seat"
    HOST_OR_SEAT = "host or seat"


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
    def blame(self) -> Blame:
        """Who the fault names."""
        if self.seat == HOST:
            return Blame.HOST
        return Blame.HOST_OR_SEAT if self.also_host else Blame.SEAT

    @property
    def party(self) -> str:
        """Who is at fault, as the spec writes it: "host", "seat N" or "host or seat N"."""
        blame = self.blame
        return "host" if blame is Blame.HOST else f"{blame.value} {self.seat}"

    @property
    def who(self) -> str:
        """Who is at fault, in a sentence: "the host", "seat N" or "the host or seat N"."""
        return party_name(self.seat, self.blame is Blame.HOST_OR_SEAT)

    def describe(self) -> str:
        where = f"record {self.index} ({self.kind})" if self.index is not None else self.kind
        apart = " (cannot be told apart)" if self.blame is Blame.HOST_OR_SEAT else ""
        return f"{where}: {self.reason} — at fault: {self.who}{apart}"


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
    passed_out: bool = False  # five players: everyone passed; void, dealt again (fairness.md §13)
    call: CallResult | None = None  # five players: the call and each seat's score
    trump: Suit | None = None  # once its records fix it
    tricks: tuple[TrickTaken, ...] = ()  # the tricks its records prove, in order

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
                    **_call_dict(h),
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


def _call_dict(h: HandReport) -> dict[str, object]:
    """Five players: whether everyone passed, and the call with each seat's score."""
    c = h.call
    if c is None and not h.passed_out:
        return {}
    call = None
    if c is not None:
        call = {
            "caller": c.caller,
            "partner": c.partner,
            "bid": c.bid,
            "called": c.called.code,
            "target": c.target,
            "points": c.points,
            "won": c.won,
            "scores": list(c.scores),
        }
    return {"passed_out": h.passed_out, "call": call}


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


__all__ = [
    "HOST",
    "Blame",
    "DrawReport",
    "Fault",
    "HandReport",
    "MatchReport",
    "Record",
    "Violation",
    "Waiting",
    "party_name",
]
