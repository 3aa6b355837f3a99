"""The blind deal's hand on the host, its key reveals: checked off the host's event loop once
the hand's result is fixed, named overdue when they do not come after it, a late one taken; and
a party that owes a statement and does not send it, named in the abort (protocol/fairness.md
§11.8, §11.9).
"""

from __future__ import annotations

import contextlib

from briscola_lan.fairness.blind import PartyKeys
from briscola_lan.fairness.blind_hand import BlindFault
from briscola_lan.fairness.statements import KeyReveal, Overdue, decode
from briscola_lan.table.blind_call import BlindCall
from briscola_lan.table.blind_snapshot import apply as apply_published
from briscola_lan.table.deal import Checks, Outgoing, Refused
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Record

# How long the host waits for its worker's check of the key reveals before it makes it on its
# event loop (seconds): the check takes tens of milliseconds.
CHECKS_WAIT = 1.0


class BlindReveals(BlindCall):
    """A blind hand's key reveals and give-ups, on the host."""

    def _fail(self, bf: BlindFault, out: list[Outgoing]) -> None:
        seat = bf.party
        self.table.abort(seat, bf.reason, out)

    def pending_checks(self) -> Checks | None:
        if not self.unchecked or self.checks is not None:
            return None
        bh, batch = self.bh, tuple(st for _, st in self.unchecked)
        assert bh is not None
        unchecked = bh.unchecked_parties()

        def run() -> tuple[list[PartyKeys], BlindFault | None]:
            keys: list[PartyKeys] = []
            for st in batch:
                try:
                    keys.append(bh.reveal_keys(st, unchecked))
                except BlindFault as bf:
                    return keys, bf
            return keys, None

        self.checks = Checks(run, self.unchecked_since)
        return self.checks

    def finish_checks(
        self, out: list[Outgoing], checks: Checks | None = None, result: object = None
    ) -> None:
        bh = self.bh
        if self.fault_due is not None:
            bf, self.fault_due = self.fault_due, None
            self._fail(bf, out)
            return
        if not self.unchecked or bh is None:
            return
        done: list[PartyKeys] = []
        fault: BlindFault | None = None
        if checks is not None and checks is self.checks and isinstance(result, tuple):
            done, fault = result
        batch, self.unchecked, self.checks = self.unchecked, [], None
        try:
            for j, (index, st) in enumerate(batch):
                if j < len(done):
                    bh.on_key_reveal(st, index, done[j])
                elif fault is not None:
                    bh.reveal_order_problem(st)  # the host's fault first, as made at once
                    raise fault
                else:
                    bh.on_key_reveal(st, index)
        except BlindFault as bf:
            self._fail(bf, out)
            return
        self._progress(out)

    def _give_up(self, party: int, what: str, why: str, out: list[Outgoing]) -> None:
        """A party owes a statement and does not send it: abort, naming it. In a dispute the key
        reveals that came (in party order) are published first."""
        bh, t = self.bh, self.table
        assert bh is not None
        if what == KeyReveal.KIND and self.pending:
            prefix = []
            for q in bh.parties:
                if q in bh.reveals:
                    continue
                if q not in self.pending:
                    break
                prefix.append(self.pending[q])
            if prefix:
                first = len(t.records)
                for r in prefix:
                    t.append(r, True)
                t.broadcast(out, m.KeysRevealed(tuple(prefix)))
                try:
                    for i, r in enumerate(prefix):
                        apply_published(bh, decode(r[0]), first + i)
                except BlindFault as bf:
                    self._fail(bf, out)
                    return
            self.pending = {}
        t.abort(party, f"{why}: did not send its {what} in time", out)

    def _check_late(self, st: KeyReveal, seat_no: int, body: bytes, sig: bytes) -> None:
        bh, t = self.bh, self.table
        assert bh is not None
        if st.game_id != t.game_id or st.hand != self.number or st.seat != seat_no:
            raise Refused(ErrorCode.NOT_ALLOWED, "a key reveal for a seat that is not yours")
        t.check_sig(seat_no, body, sig)
        if st.context != bh.reveal_context:
            raise Refused(ErrorCode.STALE_CONTEXT, "your key reveal was made over another history")

    def _overdue(self, out: list[Outgoing]) -> None:
        """The reveals' deadline passed after the result: publish those that came (party order)
        and name the others; the result stands, and the acknowledgements follow."""
        bh, t = self.bh, self.table

        assert bh is not None
        recs = [self.pending[q] for q in bh.parties if q in self.pending and q not in bh.reveals]
        self.pending = {}
        first = len(t.records)
        for r in recs:
            t.append(r, True)
        missing = tuple(q for q in bh.parties if q not in bh.reveals and q not in {
            decode(r[0]).seat for r in recs  # type: ignore[attr-defined]
        })  # fmt: skip
        overdue = t.sign(Overdue(t.game_id, self.number, missing))
        t.broadcast(out, m.KeysRevealed((*recs, overdue)))
        try:
            for i, r in enumerate(recs):
                apply_published(bh, decode(r[0]), first + i)
            bh.on_overdue(missing)
        except BlindFault as bf:
            self._fail(bf, out)
            return
        t.start_acks(out)

    def _late_reveal(self, st: KeyReveal, rec: Record, out: list[Outgoing]) -> None:
        """A key reveal named overdue comes after all: published (it makes nothing due) and
        checked; a wrong one is its party's fault, though the result stands."""
        bh, t = self.bh, self.table
        assert bh is not None
        t.receipt(st.seat, self.number, rec, out)
        index = len(t.records)
        t.append(rec, True, transparent=True)
        t.broadcast(out, m.KeysRevealed((rec,)))
        with contextlib.suppress(BlindFault):  # a wrong one: its party's fault, in every file
            bh.on_key_reveal(st, index)


def reveal_of(rec: Record) -> KeyReveal:
    """The key reveal a record holds."""
    st = decode(rec[0])
    assert isinstance(st, KeyReveal)
    return st


__all__ = ["CHECKS_WAIT", "BlindReveals", "reveal_of"]
