"""The blind deal's hand on the host, its first part: the state a blind hand keeps, and the
hand's call, which every person's seat answers with a ``present`` (receipted); the seats that
answered in time are the hand's parties (protocol/fairness.md §11.3). ``BlindDeal``
(table/deal_blind.py) is this with the reveals' checks (table/blind_reveals.py) and the rest of
the hand on top.
"""

from __future__ import annotations

from abc import abstractmethod

from briscola_lan.fairness.blind_hand import BlindFault, BlindHand, Presence
from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import BlindStart, KeyReveal, Present, decode
from briscola_lan.table.deal import BLIND, Checks, Deal, Outgoing, Phase, Refused, TableSide
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Record


class BlindCall(Deal):
    """A blind hand's state on the host, and its call."""

    MODE = BLIND

    def __init__(self, table: TableSide, hand_number: int, dealer: int) -> None:
        super().__init__(table, hand_number, dealer)
        self.parties: tuple[int, ...] = ()  # fixed when the call is over
        self.presence: Presence | None = None
        self.presents: dict[int, Record] = {}  # seat -> its answer to the call, until published
        self.call_since = 0.0
        self.bh: BlindHand | None = None
        self.host_secret = b""
        self.host_party: BlindParty | None = None
        # Statements published together once all have come: party/seat -> record
        self.pending: dict[int, Record] = {}
        self.pending_kind = ""
        self.waiting_for: tuple[str, tuple[int, ...]] = ("", ())
        self.waiting_plays = 0  # the plays so far when the hand started waiting for it
        self.waiting_since = 0.0
        self.resumed = False  # restored from a snapshot: move on at the first tick
        # The key reveals published but not checked yet (the host checks them off its event
        # loop, after they are on their way to the players): (record index, reveal) in order.
        self.unchecked: list[tuple[int, KeyReveal]] = []
        self.checks: Checks | None = None  # the work handed out for ``unchecked``
        self.unchecked_since = 0.0
        self.fault_due: BlindFault | None = None  # a restored reveal was wrong: abort at once

    @abstractmethod
    def _progress(self, out: list[Outgoing]) -> None:
        """After every change: the host's own statements, gathered rounds, the phase, the end."""

    # --- the call -------------------------------------------------------------------------------

    def start(self, out: list[Outgoing]) -> None:
        t = self.table
        for i, seat in enumerate(t.seats):  # every person is called, but a benched seat
            if seat.ai is None:
                seat.taken_over = t.benched(i)
        st = BlindStart(t.game_id, self.number, self.dealer, round(t.call_wait))
        t.broadcast(out, m.HandStarted(*t.sign(st)))
        t.phase = Phase.CALL
        self.presence = Presence([seat.ai is None for seat in t.seats])
        self.call_since = t.now
        self._end_call_if_answered(out)

    def _awaited(self) -> list[int]:
        """The people's seats the call still waits for: connected, not answered yet."""
        return [
            i
            for i, seat in enumerate(self.table.seats)
            if seat.ai is None
            and seat.conn is not None
            and i not in self.presents
            and not self.table.benched(i)
        ]

    def _end_call_if_answered(self, out: list[Outgoing], *, deadline: bool = False) -> None:
        """Every connected person answered (or the call's time is up): publish the answers, in
        seat order; the seats that answered are the hand's parties, the host plays the rest."""
        t, presence = self.table, self.presence
        if presence is None or presence.closed or (self._awaited() and not deadline):
            return
        recs = tuple(self.presents[s] for s in sorted(self.presents))
        self.presents = {}
        first = len(t.records)
        for r in recs:
            t.append(r, True)
        t.broadcast(out, m.HandJoined(recs))
        for i, r in enumerate(recs):
            st = decode(r[0])
            assert isinstance(st, Present)
            presence.on_present(st, first + i)
        self.parties = presence.close()
        for i, seat in enumerate(t.seats):
            if seat.ai is None:
                seat.taken_over = i not in self.parties
        if HOST_PARTY in self.parties:
            self.host_secret = t.entropy(32)
        self.open_hand(self.parties)
        t.phase = Phase.SHUFFLE
        self._progress(out)

    def open_hand(self, parties: tuple[int, ...]) -> None:
        t = self.table
        self.bh = BlindHand(t.options, t.game_id, self.number, self.dealer, parties)
        if HOST_PARTY in parties and self.host_secret:  # empty after a restore: revealed, or over
            self.host_party = BlindParty(self.bh, HOST_PARTY, self.host_secret, t.context_for)

    def _on_present(self, st: Present, rec: Record, out: list[Outgoing]) -> None:
        """A person answers the call: receipted at once (its proof that it answered in time),
        published with the others when the call is over."""
        t = self.table
        if t.phase is not Phase.CALL:
            raise Refused(
                ErrorCode.WRONG_PHASE, "the hand's call is over: the host plays your seat"
            )
        if st.seat in self.presents:
            raise Refused(ErrorCode.BAD_STATEMENT, "you already answered this hand's call")
        if t.benched(st.seat):
            raise Refused(
                ErrorCode.NOT_ALLOWED,
                "two aborted hands named your seat: the host plays it to the end of the match",
            )
        t.receipt(st.seat, self.number, rec, out)
        self.presents[st.seat] = rec
        self._end_call_if_answered(out)

    def rebase(self, delta: float) -> None:
        self.waiting_since += delta  # the time the host was down is not the party's
        self.call_since += delta


__all__ = ["BlindCall"]
