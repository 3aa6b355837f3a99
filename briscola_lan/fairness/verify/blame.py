"""Blame: who an abort makes at fault, and the receipts that decide it (protocol/fairness.md §8.5,
§8.7, §11.9).

A seat is at fault only on evidence it signed itself; an abort for a statement that never came,
with no evidence, is "the host or seat N" unless the file holds the host's receipt for that
statement, which makes it the host's fault.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from briscola_lan.fairness.blind_hand import SEAT_KINDS, BlindFault, BlindHand
from briscola_lan.fairness.classic_hand import SeedRound
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.predicates import seed_opens
from briscola_lan.fairness.statements import (
    Abort,
    BidStatement,
    BlindPlay,
    Evidence,
    KeyReveal,
    Play,
    Receipt,
    SeedCommit,
    SeedReveal,
    Shares,
    Signal,
    Statement,
)
from briscola_lan.fairness.verify.report import HOST, Fault, Violation

BENCHED_AFTER = 2  # a seat named by this many aborts is played by the host from then on (§8.7)

Slot = tuple[int, str, int, int]  # (hand, kind, seat, play number / window / 0)


@dataclass(frozen=True, slots=True)
class Receipted:
    """A statement the host gave a seat a receipt for."""

    index: int  # the receipt's record
    statement: Statement
    time: int


def receipt_index(st: Statement) -> int:
    """What tells apart a seat's statements of one kind in a hand: a play's number, the window
    of its shares; 0 for the rest."""
    if isinstance(st, Play | BlindPlay | BidStatement):
        return st.index
    if isinstance(st, Shares):
        return st.window
    if isinstance(st, Signal):
        return st.index // 4  # its trick: a seat signals at most once a trick (§12)
    return 0


class Receipts:
    """The host's receipts in a file, and the seats' statements it published, by slot."""

    def __init__(self) -> None:
        self.receipted: dict[Slot, Receipted] = {}
        self.plays: dict[tuple[int, int], list[Slot]] = {}  # (hand, play number) -> slots
        self.published: dict[Slot, tuple[int, Statement]] = {}

    def get(self, hand: int, kind: str, seat: int, index: int = 0) -> Receipted | None:
        return self.receipted.get((hand, kind, seat, index))

    def add(self, slot: Slot, receipted: Receipted) -> None:
        """The first receipt for a slot counts (a classic play's in the order received)."""
        if slot not in self.receipted:
            self.receipted[slot] = receipted
            if isinstance(receipted.statement, Play):
                self.plays.setdefault((slot[0], slot[3]), []).append(slot)


def utc(seconds: int) -> str:
    """A receipt's time as people read it (UTC)."""
    return datetime.fromtimestamp(seconds, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def left_out(seat: int, record: int, time: int) -> str:
    return (
        f"the host left seat {seat} out of the hand and played it itself, but this file holds "
        f"the host's receipt for the seat's answer to the call (record {record}, received at "
        f"{utc(time)}): a connected player takes part in every hand, so the host is at fault"
    )


def receipted_anyway(party: int, what: str, r: Receipted) -> str:
    """The host claims a statement never came that its own receipt shows it received."""
    return (
        f"the host claims seat {party} did not {what}, but this file holds the host's receipt "
        f"for it (record {r.index}, received at {utc(r.time)}): the host is at fault"
    )


def seed_abort_fault(
    index: int,
    st: Abort,
    seat: int,
    *,
    seeds: SeedRound,
    dealt: bool,
    evidence: tuple[int, int] | None,
    taken_over: frozenset[int] | set[int],
    receipts: Receipts,
) -> Fault:
    """Who an abort of a seed round (a classic hand's, or the draw's) makes at fault (§8.7)."""
    if seat == HOST:
        return Fault(index, st.KIND, HOST, st.reason)
    if evidence is not None:
        ev_index, ev_seat = evidence
        if ev_seat != seat:
            raise Violation(
                Fault(
                    index,
                    st.KIND,
                    HOST,
                    f"the evidence is seat {ev_seat}'s, the abort names {seat}",
                )
            )
        return Fault(
            ev_index,
            Evidence.KIND,
            seat,
            "revealed a seed that does not open its "
            "commitment (its signed reveal is published as evidence)",
        )
    if seeds.done:
        return Fault(
            index,
            st.KIND,
            HOST,
            f"the host aborted naming seat {seat} after every seed was revealed: that seat "
            "owed nothing",
        )
    if dealt:
        return Fault(
            index,
            st.KIND,
            HOST,
            f"the host aborted after the deal naming seat {seat}: nothing that seat owed "
            "could stop the hand (the host plays a seat that does not)",
        )
    if seat in taken_over:
        return Fault(index, st.KIND, HOST, f"the host itself plays seat {seat} (takeover)")
    kind = SeedCommit.KIND if len(seeds.commits) < seeds.players else SeedReveal.KIND
    what = "commit to its seed" if kind == SeedCommit.KIND else "reveal its seed"
    receipted = receipts.get(seeds.hand, kind, seat)
    if receipted is not None:
        inner = receipted.statement
        if isinstance(inner, SeedReveal) and not seeds.opens(seat, inner.seed):
            return Fault(
                receipted.index,
                Receipt.KIND,
                seat,
                "revealed a seed that does not open its commitment (its signed reveal is in "
                "the host's receipt)",
            )
        return Fault(index, st.KIND, HOST, receipted_anyway(seat, what, receipted))
    return Fault(
        index,
        st.KIND,
        seat,
        f"{st.reason}; no evidence and no receipt: the host and seat {seat} cannot be told apart",
        also_host=True,
    )


def evidence_problem(st: Evidence, inner: SeedReveal, seeds: SeedRound) -> str | None:
    """Why published evidence is not a seed reveal that fails to open its commitment."""
    if seed_opens(st.game_id, seeds.hand, st.seat, inner.seed, seeds.commits[st.seat]):
        return f"the evidence shows seat {st.seat}'s seed reveal opening its commitment"
    return None


def blind_fault(bf: BlindFault) -> Fault:
    """A blind hand's fault in the report's terms."""
    party = HOST if bf.party == HOST_PARTY else bf.party
    return Fault(bf.record, bf.kind, party, bf.reason, also_host=bf.also_host)


def owed_fault(
    index: int, st: Abort, hand: int, owed: tuple[int, str, int], receipts: Receipts
) -> Fault:
    """An abort for a statement ``party`` owed: the host's fault if it is the host, or if the
    file holds the host's receipt for it; else the host and the seat cannot be told apart.
    ``owed``: (party, kind, play number or window)."""
    party, kind, idx = owed
    if party == HOST_PARTY:
        return Fault(index, st.KIND, HOST, f"the host did not send its {kind}")
    receipted = receipts.get(hand, kind, party, idx)
    if receipted is not None:
        return Fault(index, st.KIND, HOST, receipted_anyway(party, f"send its {kind}", receipted))
    return Fault(
        index,
        st.KIND,
        party,
        f"{st.reason}; no evidence and no receipt: the host and seat {party} cannot be told apart",
        also_host=True,
    )


def blind_abort_fault(
    index: int, st: Abort, seat: int, b: BlindHand, receipts: Receipts
) -> tuple[Fault, tuple[int, str, int] | None]:
    """Who a blind hand's abort makes at fault (§11.9), and the statement it judged owed
    (party, kind, play number or window), if any."""
    if b.verdict is not None:  # a complaint its proof decided, whoever the abort names
        return blind_fault(b.verdict), None
    if seat == HOST:
        return Fault(index, st.KIND, HOST, st.reason), None
    if b.disputed:
        if len(b.reveals) == len(b.parties):
            return blind_fault(b.dispute_verdict()), None
        missing = next(q for q in b.parties if q not in b.reveals)
        owed = (missing, KeyReveal.KIND, 0)
        return owed_fault(index, st, b.hand, owed, receipts), owed
    kind, who = b.owed()
    owing = [b.owner(x) for x in who] if kind in SEAT_KINDS else list(who)
    if b.owner(seat) != seat or seat not in owing:
        return (
            Fault(
                index,
                st.KIND,
                HOST,
                f"the host aborted naming seat {seat}, which owed nothing then (the hand "
                f"waited for: {kind})",
            ),
            None,
        )
    idx = (
        len(b.plays) if kind == BlindPlay.KIND else len(b.bids) if kind == BidStatement.KIND else 0
    )
    if kind == Shares.KIND and b.window is not None:
        idx = b.window.number
    owed = (seat, kind, idx)
    return owed_fault(index, st, b.hand, owed, receipts), owed


__all__ = [
    "BENCHED_AFTER",
    "Receipted",
    "Receipts",
    "blind_abort_fault",
    "blind_fault",
    "evidence_problem",
    "left_out",
    "owed_fault",
    "receipt_index",
    "seed_abort_fault",
    "utc",
]
