"""The checker's steps for what a seat said and the host answers for: its receipts, evidence
and the abort that must follow it, the aborts and who they blame (``blame``), the
acknowledgements, and partners' signals (``signals``), in a hand of either deal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from briscola_lan.fairness.classic_hand import SeedRound
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY
from briscola_lan.fairness.predicates import foreign
from briscola_lan.fairness.statements import (
    BLIND_PARTY_KINDS,
    Abort,
    Ack,
    BidStatement,
    BlindPlay,
    CallStatement,
    Evidence,
    Play,
    Present,
    Receipt,
    SeedCommit,
    SeedReveal,
    Signal,
    Statement,
    StatementError,
    decode,
)
from briscola_lan.fairness.verify.blame import (
    Receipted,
    blind_abort_fault,
    evidence_problem,
    left_out,
    receipt_index,
)
from briscola_lan.fairness.verify.report import HOST, Fault, party_name
from briscola_lan.fairness.verify.state import CheckerState, HandState


class SeatRecords(CheckerState):
    """Receipts, evidence, aborts, acknowledgements and signals, checked."""

    def _seat_statement(self, st: Receipt | Evidence, hand: int) -> Statement:
        """The seat's own signed statement inside a receipt or evidence, checked."""
        _host_key, seat_keys, n = self._keys()
        if not 0 <= st.seat < n:
            raise self._fail(st, HOST, f"seat {st.seat} does not exist")
        try:
            inner = decode(st.statement)
        except StatementError as exc:
            raise self._fail(st, HOST, f"the statement inside is not valid: {exc}") from exc
        seat_kinds = (SeedCommit, SeedReveal, Play, BidStatement, CallStatement, Ack, Signal)
        if not isinstance(inner, (*seat_kinds, *BLIND_PARTY_KINDS)):
            raise self._fail(st, HOST, f"a {inner.KIND} is not a statement a seat sends")
        if foreign(inner, st.game_id, hand, st.seat) is not None:
            raise self._fail(st, HOST, "the statement inside is of another game, hand or seat")
        if not self._sigs.verify(seat_keys[st.seat], st.statement, st.signature, remember=True):
            raise self._fail(st, HOST, f"the statement inside is not signed by seat {st.seat}")
        return inner

    def _published_slot(self, st: Statement) -> None:
        """A seat's statement was published (or an ack relayed): if the host receipted another
        statement for the same slot, it received one and published another (§8.5)."""
        key = (st.hand, st.KIND, st.seat, receipt_index(st))  # type: ignore[attr-defined]
        receipted = self._receipts.receipted.get(key)
        if receipted is not None and receipted.statement != st:
            raise self._fail(
                st,
                HOST,
                f"the host received another {st.KIND} of {party_name(st.seat)} (its receipt, "  # type: ignore[attr-defined]
                f"record {receipted.index}) than the one it published here",
            )
        self._receipts.published.setdefault(key, (self.index, st))

    def _on_receipt(self, st: Receipt) -> None:
        hand = DRAW_HAND if self._ms is None else self._need_hand(st).number
        if st.hand != hand:
            raise self._fail(st, HOST, "a receipt outside the hand of its statement")
        inner = self._seat_statement(st, hand)
        index = receipt_index(inner)
        h = self._hand
        plays: Sequence[tuple[int, Statement]] = ()
        if h is not None and h.blind is not None:
            plays = h.blind.plays
        elif h is not None and h.classic is not None:
            plays = h.classic.plays
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
        slot = self._receipts.published.get(key)
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
            raise self._fail(st, HOST, left_out(inner.seat, self.index, st.time))
        if isinstance(inner, Signal):
            self._signals.on_receipt(inner)
        self._receipts.add(key, Receipted(self.index, inner, st.time))
        self.report.receipts += 1

    def _on_evidence(self, st: Evidence, seeds: SeedRound | None) -> None:
        hand = DRAW_HAND if self._ms is None else self._need_hand(st).number
        if st.hand != hand or seeds is None or len(seeds.commits) < seeds.players or seeds.done:
            raise self._fail(st, HOST, "evidence outside the seed reveals of its hand")
        inner = self._seat_statement(st, hand)
        if not isinstance(inner, SeedReveal):
            raise self._fail(st, HOST, "evidence that is not a seed reveal")
        problem = evidence_problem(st, inner, seeds)
        if problem is not None:
            raise self._fail(st, HOST, problem)
        self._evidence = (self.index, st.seat)

    def _on_hand_evidence(self, st: Evidence) -> None:
        h = self._need_hand(st)
        self._on_evidence(st, h.seeds)

    def _on_abort(self, st: Abort) -> None:
        h = self._need_hand(st)
        if h.revealed:
            raise self._fail(st, HOST, "abort after the hand was revealed")
        seat = HOST if st.seat == HOST_PARTY else st.seat
        if seat != HOST and not 0 <= seat < self._n:
            raise self._fail(st, HOST, "abort names a seat that does not exist")
        if h.presence is not None and not h.call_over:  # during the call
            reason = st.reason
            if seat != HOST:
                reason = (
                    f"the host aborted naming seat {seat} during the call, when a seat owes "
                    "nothing (one that does not answer is played by the host)"
                )
            self._end_aborted(h, st, Fault(self.index, st.KIND, HOST, reason))
            return
        if h.blind is not None:
            fault, owed = blind_abort_fault(self.index, st, seat, h.blind, self._receipts)
            if owed is not None:
                self.owed_at_abort = owed
            self._end_aborted(h, st, fault)
            return
        c = h.classic
        assert c is not None
        fault = self._seed_abort_fault(st, seat, c.seeds, dealt=c.deck_commit is not None)
        self._end_aborted(h, st, fault)

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

    def _on_signal(self, st: Signal) -> None:
        """A seat's signal to its partner (§12): allowed, made by a seat that plays for itself,
        at the moment the hand is at, once a trick. Its sealed value only the partners read."""
        h = self._need_hand(st)
        assert self._options is not None
        sched = None
        host_plays = False
        if h.classic is not None:
            c = h.classic
            sched = c.sched if c.upcard is not None and not h.revealed else None
            host_plays = st.seat in self._taken_over
        elif h.blind is not None:
            b = h.blind
            sched = b.sched if b.sched.trump is not None and not h.revealed else None
            host_plays = self._seat_host_plays(h, st.seat)
        problem = self._signals.problem(self._options, st, sched, host_plays)
        if problem is not None:
            raise self._fail(st, HOST, problem)

    def _seat_host_plays(self, h: HandState, seat: int) -> bool:
        """The host plays a person's seat in this blind hand (left out of its parties)."""
        assert self._ms is not None
        if self._ms.ai_levels[seat]:
            return False
        return h.blind is not None and seat not in h.blind.parties


HANDLERS: dict[type[Statement], Callable[[SeatRecords, Any], None]] = {
    Receipt: SeatRecords._on_receipt,
    Evidence: SeatRecords._on_hand_evidence,
    Abort: SeatRecords._on_abort,
    Ack: SeatRecords._on_ack,
    Signal: SeatRecords._on_signal,
}  # a seat's statement, or the host's answer to one -> its check
