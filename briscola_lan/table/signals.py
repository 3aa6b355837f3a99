"""Signals between partners on the host (protocol/fairness.md §12): a seat's signal checked,
published to everyone and receipted; the AI seats' own signals made; and what the AI seats read
of their partners' signals.

The host never reads a person's signal unless it plays the partner's seat with that seat's own
key (an AI seat): the value is sealed for the two partners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from briscola_lan.fairness.context import kind_of
from briscola_lan.fairness.signals import SignalBook, pad, partners_point, seal, unseal
from briscola_lan.fairness.statements import Signal, StatementError, decode
from briscola_lan.rules.signals import SignalValue, truthful
from briscola_lan.table.deal import Outgoing, Phase, Refused, refuse_foreign
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Record

if TYPE_CHECKING:
    from briscola_lan.rules.schedule import PublicSchedule
    from briscola_lan.table.core import TableCore


class HostSignals:
    """The signals of the hand in progress, as the host keeps them."""

    def __init__(self, table: TableCore) -> None:
        self.table = table
        self.hand: int | None = None  # the hand ``book`` and ``heard`` are for
        self.book = SignalBook(4, 40)
        self.heard: dict[int, list[tuple[int, SignalValue]]] = {}  # AI seat -> (index, value)

    # --- the hand in progress -------------------------------------------------------------------

    def _current(self) -> SignalBook:
        """The book of the current hand, read again from the transcript when the hand changed
        (a new hand, or a host restored from its snapshot)."""
        t = self.table
        if self.hand != t.hand_number:
            self.hand, self.heard = t.hand_number, {}
            self.book = SignalBook(t.options.players, t.options.deck_size)
            for body, _sig in t.records:
                if kind_of(body) != Signal.KIND:
                    continue
                st = decode(body)
                if isinstance(st, Signal) and st.hand == t.hand_number:
                    self.book.add(st.seat, st.index)
                    self._hear(st)
        return self.book

    def schedule(self) -> PublicSchedule | None:
        """The hand's public schedule while its cards may be signalled about (dealt, the upcard
        turned, cards left to play), else None."""
        t = self.table
        if t.drawing or t.deal is None or t.phase not in (Phase.PLAY, Phase.DEAL):
            return None
        return t.deal.signal_schedule()

    # --- a person's signal ----------------------------------------------------------------------

    def receive(self, seat_no: int, body: bytes, sig: bytes, out: list[Outgoing]) -> None:
        """Take the signal a seat sent: checked, published to everyone, receipted to the seat."""
        t = self.table
        try:
            st = decode(body)
        except StatementError as exc:
            raise Refused(ErrorCode.BAD_STATEMENT, f"not a valid statement: {exc}") from exc
        if not isinstance(st, Signal):
            raise Refused(ErrorCode.BAD_STATEMENT, "send_signal must carry a signal statement")
        if not t.options.signals:
            raise Refused(ErrorCode.WRONG_PHASE, "this table does not allow signals")
        sched = self.schedule()
        if sched is None:
            raise Refused(ErrorCode.WRONG_PHASE, "signals are made while the cards are played")
        refuse_foreign(st, t.game_id, t.hand_number, seat_no)
        if t.host_plays(seat_no):
            raise Refused(ErrorCode.NOT_ALLOWED, "the host plays your seat: it makes no signal")
        t.check_sig(seat_no, body, sig)
        t.check_context(st)
        problem = self._current().problem(seat_no, st.index, sched.plays_made)
        if problem is not None:
            code = ErrorCode.STALE_CONTEXT if st.index != sched.plays_made else None
            raise Refused(code or ErrorCode.BAD_STATEMENT, problem)
        self._publish(st, (body, sig), out)
        t.receipt(seat_no, st.hand, (body, sig), out)

    def _publish(self, st: Signal, rec: Record, out: list[Outgoing]) -> None:
        self.book.add(st.seat, st.index)
        self.table.append(rec, True)
        self.table.broadcast(out, m.SignalMade(*rec))
        self._hear(st)

    def _hear(self, st: Signal) -> None:
        """An AI seat reads its partner's signal (with its own key, as any partner does)."""
        t = self.table
        partner = t.options.partner_of(st.seat)
        if partner is None or t.seats[partner].ai_identity is None:
            return
        point = partners_point(t.seat_signer(partner).private_bytes(), t.seats[st.seat].key)
        value = unseal(st.sealed, pad(t.game_id, st.hand, st.seat, st.index, point))
        if value is not None:
            self.heard.setdefault(partner, []).append((st.index, value))

    def heard_by(self, seat_no: int) -> tuple[tuple[int, SignalValue], ...]:
        """What an AI seat read of its partner's signals this hand: (play index, value)."""
        self._current()
        return tuple(self.heard.get(seat_no, ()))

    # --- the AI seats' own signals --------------------------------------------------------------

    def tick(self, out: list[Outgoing]) -> None:
        """Each AI seat tells its partner, once a hand, the best thing its hand holds, at the
        first moment it can (truthfully: an AI never bluffs)."""
        t = self.table
        if not t.options.signals:
            return
        sched = self.schedule()
        if sched is None or sched.trump is None:
            return
        book = self._current()
        for seat_no, seat in enumerate(t.seats):
            if seat.ai_identity is None or book.made.get(seat_no):
                continue
            if book.problem(seat_no, sched.plays_made, sched.plays_made) is not None:
                continue
            view = t.deal.view(seat_no) if t.deal is not None else None
            if view is None:
                continue
            self._ai_signal(seat_no, truthful(view.hand, sched.trump), sched.plays_made, out)

    def _ai_signal(self, seat_no: int, value: SignalValue, index: int, out: list[Outgoing]) -> None:
        t = self.table
        partner = t.options.partner_of(seat_no)
        assert partner is not None
        signer = t.seat_signer(seat_no)
        point = partners_point(signer.private_bytes(), t.seats[partner].key)
        sealed = seal(value, pad(t.game_id, t.hand_number, seat_no, index, point))
        st = Signal(t.game_id, t.hand_number, seat_no, t.context_for(Signal.KIND), index, sealed)
        body = st.encode()
        self._publish(st, (body, signer.sign(body)), out)


__all__ = ["HostSignals"]
