"""The end of a hand in the client session: its result, the acknowledgements, an abort (and what
the player's own record says when it names this seat), the match's end."""

from __future__ import annotations

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    Abort,
    BlindEnd,
    Evidence,
    HostReveal,
    MatchEnd,
    SeedCommit,
    SeedReveal,
    StatementError,
    decode,
)
from briscola_lan.fairness.verify import (
    HOST,
    Fault,
    Violation,
)
from briscola_lan.table import events as ev
from briscola_lan.table.client_blind import BlindSide
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Message


class HandEnds(BlindSide):
    """The handlers of a hand's and a match's end."""

    def _on_HandEnded(self, msg: m.HandEnded, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, HostReveal | BlindEnd) or self._ms is None:
            return
        blind = isinstance(st, BlindEnd)
        if not blind:
            self._blind = None
            self._hand_checked()
        self._chain_at_reveal = self._checker.chain
        self.state.last_hand_points = st.points
        c = self._classic if not blind else self._checker.blind
        void = c is not None and c.passed_out  # five players: everyone passed, dealt again
        call = None
        if self._match is not None and not self._match.is_over and not void:
            call = c.sched.result() if c is not None and c.options.chiamata else None
            if call is not None or not self._match.options.chiamata:
                self._match.record_points(st.points, None, call)
            self.state.hands_won = self._match.hands_won()
            self.state.total_points = self._match.total_points()
            self.state.scores = self._match.scores()
        self._emit(ev.HandEnded(st.hand, tuple(st.points), void, call))
        if blind:  # the result is fixed; the key reveals come next, then the acknowledgement
            self._blind_act(out)
            return
        if self._match is not None and self._match.is_over:
            self._ack_due = st.hand  # the match-end comes next; the acknowledgement covers it
            return
        self._ack(st.hand, out)

    def _on_MatchDecided(self, msg: m.MatchDecided, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, MatchEnd):
            return
        self._chain_at_reveal = self._checker.chain
        due, self._ack_due = self._ack_due, None
        if due is not None:
            self._ack(due, out)

    def _on_ReceiptIssued(self, msg: m.ReceiptIssued, out: list[Message]) -> None:
        self._record((msg.body, msg.sig))  # kept in this seat's file: evidence of what it sent

    def _on_EvidenceShown(self, msg: m.EvidenceShown, out: list[Message]) -> None:
        self._record((msg.body, msg.sig))

    def _on_HandAcked(self, msg: m.HandAcked, out: list[Message]) -> None:
        check = self.state.verification
        for rec in msg.records:
            self._record(rec)  # an ack of another hash is caught by the checker: host's fault
        seats: set[int] = set()
        for body, _sig in msg.records:
            try:
                seats.add(decode(body).seat)  # type: ignore[attr-defined]
            except StatementError:
                continue
        n = self._ms.players if self._ms is not None else 0
        me = self.state.seat
        if check is None:
            return
        try:
            self._checker.acks_complete()  # a received acknowledgement not relayed: host's fault
        except Violation as v:
            self._fail_now(v.fault)
        if me is not None and self._acked.get(check.hand) and me not in seats:
            self._emit(ev.AckNotRelayed())
        check.acks_match = check.fault is None and len(seats) == n

    def _on_HandAborted(self, msg: m.HandAborted, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        check = self.state.verification
        d = self.state.draw
        if isinstance(st, Abort) and self._drawing and d is not None:
            draw_rep = self._checker.report.draw
            d.status = (
                "failed" if draw_rep is not None and draw_rep.status == "failed" else "aborted"
            )
            d.fault = draw_rep.fault if draw_rep is not None else None
            self._emit(ev.DrawAborted(st.reason))
            d.own_verdict = self._own_verdict(st, d.fault, d.my_lobby_seat)
            if d.own_verdict is not None:
                self._emit(d.own_verdict)
            return
        if isinstance(st, Abort) and check is not None:
            rep = self._checker.report.hands[-1]
            check.status = "failed" if rep.status == "failed" else "aborted"
            check.fault = rep.fault
            self._emit(ev.HandAborted(st.hand, st.reason))
            check.own_verdict = self._own_verdict(st, rep.fault, self.state.seat)
            if check.own_verdict is not None:
                self._emit(check.own_verdict)
            if st.seat != HOST_PARTY:  # the hand counts for nothing: it is dealt again (§8.7)
                self._emit(ev.DealtAgain())
                me = self.state.seat
                if me is not None and st.seat == me and self._checker.benched(me):
                    self._emit(ev.Benched())

    def _own_verdict(self, st: Abort, fault: Fault | None, me: int | None) -> ev.OwnRecord | None:
        """What this player's own record says when the host's abort names its seat (``me``:
        its seat, or its lobby seat in the draw)."""
        if me is None or st.seat != me or fault is None:
            return None
        if fault.seat == HOST and fault.kind == Evidence.KIND:
            return ev.OwnRecord(ev.OwnWord.EVIDENCE)
        owed = [(SeedReveal.KIND, 0), (SeedCommit.KIND, 0)]
        judged = self._checker.owed_at_abort
        if judged is not None and judged[0] == me:  # a blind hand: the statement it waited for
            owed.insert(0, (judged[1], judged[2]))
        for kind, index in owed:
            r = self._checker.receipt_for(st.hand, kind, me, index)
            if r is not None and fault.seat == HOST:
                return ev.OwnRecord(ev.OwnWord.RECEIPT, kind, r.time)
        if fault.seat == HOST:
            return ev.OwnRecord(ev.OwnWord.OWED_NOTHING)
        if fault.also_host:
            return ev.OwnRecord(ev.OwnWord.CANNOT_TELL)
        return None

    def _on_MatchEnded(self, msg: m.MatchEnded, out: list[Message]) -> None:
        s = self.state
        s.phase, s.match_over, s.match_aborted = "over", True, msg.aborted
        s.winner, s.hands_won, s.total_points = msg.winner, msg.hands_won, msg.points
        if self._match is not None and not msg.aborted and self._match.winner != msg.winner:
            self._live(Fault(None, "match-end", HOST, "announced winner differs from the hands"))
        self._emit(ev.MatchEnded(msg.winner, msg.aborted))
        self._forget_secrets()
