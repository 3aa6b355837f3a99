"""The checker's steps for a blind hand's records (protocol/fairness.md §11): the call, then
each record taken by the hand's machine (``fairness.blind_hand.BlindHand``; at five players the
auction's bids and the call too, §13.9), the result fixed by the proved plays, and the key
reveals after it (overdue, or late). A card, the commonest record, goes from the checker
straight to the machine (``checker``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from briscola_lan.fairness.blind_hand import BlindFault, BlindHand, Presence
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    BidStatement,
    BlindEnd,
    BlindPlay,
    BlindStart,
    CallStatement,
    Complaint,
    KeyReveal,
    LockPass,
    Overdue,
    Present,
    Receipt,
    Shares,
    Show,
    ShufflePass,
    Statement,
)
from briscola_lan.fairness.verify.blame import left_out, utc
from briscola_lan.fairness.verify.report import HOST, Fault, Violation
from briscola_lan.fairness.verify.state import CheckerState, HandState


class BlindRecords(CheckerState):
    """A blind hand's records, checked through its machine."""

    def _need_blind(self, st: Statement) -> BlindHand:
        h = self._need_hand(st)
        if h.presence is not None and not h.presence.closed and not h.revealed:
            self._close_presence(h)  # the first record after the answers fixes the parties
        h.call_over = True
        after_end = h.keys_due and isinstance(st, KeyReveal | Overdue)
        if h.blind is None or (h.revealed and not after_end):
            raise self._fail(st, HOST, f"a {st.KIND} outside a blind hand in progress")
        return h.blind

    def _on_blind_start(self, st: BlindStart) -> None:
        ms = self._ms
        assert ms is not None
        h = self._open_hand(st)
        h.start = st
        h.presence = Presence([level == "" for level in ms.ai_levels])
        self._taken_over = set()

    def _on_present(self, st: Present) -> None:
        h = self._need_hand(st)
        if h.presence is None or h.presence.closed or h.revealed:
            raise self._fail(st, HOST, "a present outside the call of a blind hand")
        h.presence.on_present(st, self.index)

    def _close_presence(self, h: HandState) -> None:
        """The call is over: the parties are the seats that answered (§11.3). A seat left out
        whose present the host receipted is the host's fault (this file holds the receipt)."""
        opts = self._options
        assert opts is not None and h.presence is not None and h.start is not None
        parties = h.presence.close()
        h.blind = BlindHand(
            opts,
            h.start.game_id,
            h.number,
            h.dealer,
            parties,
            check_proofs=False,  # judged by the revealed keys, or by their proofs (§11.4)
        )
        self.report.hands[-1].parties = parties
        self._taken_over = set(h.presence.left_out())  # the host signs for them this hand
        for seat in h.presence.left_out():
            receipted = self._receipts.get(h.number, Present.KIND, seat)
            if receipted is not None:
                raise Violation(
                    Fault(
                        receipted.index,
                        Receipt.KIND,
                        HOST,
                        left_out(seat, receipted.index, receipted.time),
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

    def _on_blind_bid(self, st: BidStatement) -> None:
        self._need_blind(st).on_bid(st, self.index)

    def _on_blind_call(self, st: CallStatement) -> None:
        self._need_blind(st).on_call(st, self.index)

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
            receipted = self._receipts.get(h.number, KeyReveal.KIND, q)
            if receipted is not None:
                raise Violation(
                    Fault(
                        receipted.index,
                        Receipt.KIND,
                        HOST,
                        f"the host names seat {q}'s key reveal overdue, but this file holds the "
                        f"host's receipt for it (record {receipted.index}, received at "
                        f"{utc(receipted.time)}): the host is at fault",
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

    def _keys_closed(self, h: HandState) -> None:
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

    def _on_blind_end(self, st: BlindEnd) -> None:
        """The hand's result, fixed by its proved plays (§11.8): every card played once, each
        proved at its position, so its points follow from the public cards alone. At five
        players its score follows from the call; a hand everyone passed is void (no points),
        not recorded, and dealt again by the same dealer (§13.9)."""
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
        if b.passed_out:
            self._replays += 1
            h.passed_out = True
        else:
            call = b.result()
            match.record_points(points, h.dealer, call)
            self.report.hands[-1].call = call
        h.keys_due = True
        self._result(h, points)


HANDLERS: dict[type[Statement], Callable[[BlindRecords, Any], None]] = {
    BlindStart: BlindRecords._on_blind_start,
    Present: BlindRecords._on_present,
    ShufflePass: BlindRecords._on_shuffle,
    LockPass: BlindRecords._on_lock,
    Shares: BlindRecords._on_shares,
    Show: BlindRecords._on_show,
    Complaint: BlindRecords._on_complaint,
    KeyReveal: BlindRecords._on_key_reveal,
    BlindEnd: BlindRecords._on_blind_end,
    Overdue: BlindRecords._on_overdue,
}  # a blind hand's statement -> its check

# The records of a blind hand in progress: refused in a classic hand.
BLIND_KINDS = frozenset(
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
