"""The blind deal (the default with two or more human seats): the parties shuffle and lock the
deck in turn, every card opens only for whom the rules show it to, and the host relays what it
cannot read (protocol/fairness.md §11).

Every hand opens with a call: each person's seat answers with a ``present`` (receipted), and the
seats that answered in time are the hand's parties. The host is a party only for the seats it
plays (AI seats, and people who did not answer the call): it learns those seats' cards and
nothing more. It checks every pass and play it can check before it publishes them; the
presents, the shares of a deal window, the partner exchange's shows and the key reveals are
published together, in seat (or party) order, once all have come. At five players the auction's
bids and the call come after the deal, checked as every follower checks them (fairness.md
§13.9); the host bids and calls for the seats it plays, and learns whose the called card is
only if it holds it.

In three modules: the hand's state and its call (table/blind_call.py), the key reveals and
give-ups (table/blind_reveals.py), and here the parties' statements, publishing and moving on.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from briscola_lan.fairness.auction_checks import bid_code
from briscola_lan.fairness.blind_hand import SEAT_KINDS, BlindFault
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.predicates import Foreign
from briscola_lan.fairness.statements import (
    BidStatement,
    BlindEnd,
    BlindPlay,
    CallStatement,
    Complaint,
    KeyReveal,
    LockPass,
    Present,
    Shares,
    Show,
    ShufflePass,
    Statement,
    decode,
)
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.schedule import PublicSchedule
from briscola_lan.table import blind_snapshot
from briscola_lan.table.blind_reveals import CHECKS_WAIT, BlindReveals, reveal_of
from briscola_lan.table.blind_snapshot import apply as apply_published
from briscola_lan.table.deal import (
    Outgoing,
    Phase,
    Refused,
    TableSide,
    refuse_foreign,
)
from briscola_lan.table.snapshot import Fields
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Message, Record

_KINDS: dict[type[Message], type[Statement]] = {
    m.JoinHand: Present,
    m.ShuffleDeck: ShufflePass,
    m.LockDeck: LockPass,
    m.SendShares: Shares,
    m.ShowHand: Show,
    m.PlayCard: BlindPlay,
    m.Complain: Complaint,
    m.RevealKeys: KeyReveal,
    m.MakeBid: BidStatement,
    m.CallCard: CallStatement,
}


class BlindDeal(BlindReveals):
    """One blind hand on the host: relays and checks the parties' statements, plays for the
    seats it holds, and signs the hand's start and end (its state and call: ``BlindCall``; its
    key reveals: ``BlindReveals``)."""

    # What the last card or lock pass made due, done once its relay has left (``settle``).
    _owed: Callable[[list[Outgoing]], None] | None = None

    # --- the interface --------------------------------------------------------------------------

    def receive(self, seat_no: int, msg: Message, out: list[Outgoing]) -> bool:
        cls = _KINDS.get(type(msg))
        if cls is None:
            return False
        body, sig = msg.body, msg.sig  # type: ignore[union-attr]
        st = decode(body)
        if not isinstance(st, cls):
            raise Refused(ErrorCode.BAD_STATEMENT, f"this message must carry a {cls.KIND}")
        bh, t = self.bh, self.table
        if (
            (body, sig) in t.records
            or self.pending.get(seat_no) == (body, sig)
            or self.presents.get(seat_no) == (body, sig)
        ):
            return True  # sent again by a resumed client: it is here already
        if isinstance(st, KeyReveal) and bh is not None and st.seat in bh.late:
            self._check_late(st, seat_no, body, sig)
            self._late_reveal(st, (body, sig), out)
            return True
        if st.game_id != t.game_id or st.hand != self.number:  # type: ignore[attr-defined]
            if st.game_id == t.game_id and st.hand < self.number:  # type: ignore[attr-defined]
                return True  # a resumed client answering a replayed message of an earlier hand
            raise Refused(ErrorCode.BAD_STATEMENT, Foreign.GAME_OR_HAND.value)
        refuse_foreign(st, t.game_id, self.number, seat_no)
        if t.host_plays(seat_no):
            raise Refused(ErrorCode.NOT_ALLOWED, "the host plays your seat this hand")
        t.check_sig(seat_no, body, sig)
        t.check_context(st)
        rec = (body, sig)
        if isinstance(st, Present):
            self._on_present(st, rec, out)
            return True
        if bh is None:
            raise Refused(ErrorCode.WRONG_PHASE, "the hand's call is still open: answer it first")
        if isinstance(st, BlindPlay):
            self._on_play(st, rec, out)
        elif isinstance(st, BidStatement | CallStatement):
            self._on_auction(st, rec, out)
        elif isinstance(st, ShufflePass | LockPass):
            self._on_pass(st, rec, out)
        elif isinstance(st, Complaint):
            self._on_complaint(st, rec, out)
        else:
            self._on_gathered(st, rec, out)
        return True

    def tick(self, out: list[Outgoing]) -> None:
        bh, t = self.bh, self.table
        if self.fault_due is not None:
            self.finish_checks(out)
            return
        if self.unchecked:  # no deadline runs meanwhile; a worker that is slow is not waited for
            if t.now >= self.unchecked_since + CHECKS_WAIT:
                self.finish_checks(out)
            return
        if t.phase is Phase.CALL:
            self._end_call_if_answered(out, deadline=t.now >= self.call_since + t.call_wait)
            return
        if bh is None or t.phase in (Phase.ACK, Phase.OVER):
            return
        if self.resumed:  # what the host owed, or a round complete, when it stopped
            self.resumed = False
            self._progress(out)
            if t.phase in (Phase.ACK, Phase.OVER):
                return
        what, who = self.waiting_for
        waiting = [p for p in who if p not in self.pending]
        if not waiting:
            return
        seat = bh.owner(waiting[0]) if what in SEAT_KINDS else waiting[0]
        if seat == HOST_PARTY:
            return  # the host acts at once: nothing to wait for
        away = t.seats[seat].conn is None and t.seats[seat].dropped_at is not None
        gone = away and t.now - (t.seats[seat].dropped_at or 0.0) >= t.grace
        turn = what in _TURN_KINDS  # a card, a bid or the call: a person's turn, timed as one
        limit = t.play_timeout if turn else t.timeout
        late = t.now >= self.waiting_since + limit and (not turn or t.play_deadline)
        if (gone or late) and what == KeyReveal.KIND and bh.ended:
            self._overdue(out)  # after the result: named, never a reason to void the hand
        elif gone or late:
            self._give_up(seat, what, "left the table" if gone else "was too slow", out)

    @property
    def to_play(self) -> int | None:
        """The seat the hand waits for: to play, or at five players to bid or call."""
        bh = self.bh
        if bh is None:
            return None
        what = bh.expected()
        if what == "play":
            return bh.sched.to_play
        if what == "bid":
            return bh.sched.to_bid
        return bh.sched.to_call if what == "call" else None

    @property
    def plays_so_far(self) -> int:
        return 0 if self.bh is None else len(self.bh.plays)

    @property
    def acts_so_far(self) -> int:
        """Bids, the call and plays made in this hand: each is a new turn for the clock."""
        bh = self.bh
        return 0 if bh is None else len(bh.bids) + (bh.call is not None) + len(bh.plays)

    def signal_schedule(self) -> PublicSchedule | None:
        bh = self.bh
        if bh is None or bh.sched.trump is None or bh.expected() not in ("shares", "show", "play"):
            return None
        return bh.sched

    def view(self, seat_no: int) -> SeatView | None:
        if self.host_party is None:
            return None
        return self.host_party.view(seat_no)

    def play_for(self, seat_no: int, card: Card, out: list[Outgoing]) -> None:
        hp, t = self.host_party, self.table
        assert hp is not None
        st = hp.play(seat_no, card.code)
        body = st.encode()
        self._apply_play(st, (body, t.seat_signer(seat_no).sign(body)), out)
        self.settle(out)

    def bid_for(self, seat_no: int, bid: Bid | None, out: list[Outgoing]) -> None:
        """Five players: the host bids (None: passes) for a seat it plays."""
        bh, t = self.bh, self.table
        assert bh is not None
        ctx = t.context_for(BidStatement.KIND)
        st = BidStatement(t.game_id, self.number, seat_no, ctx, len(bh.bids), bid_code(bid))
        body = st.encode()
        self._apply_auction(st, (body, t.seat_signer(seat_no).sign(body)), out)

    def call_for(self, seat_no: int, suit: Suit, out: list[Outgoing]) -> None:
        """Five players: the host calls a suit for a seat it plays, the auction's winner."""
        t = self.table
        ctx = t.context_for(CallStatement.KIND)
        st = CallStatement(t.game_id, self.number, seat_no, ctx, int(suit))
        body = st.encode()
        self._apply_auction(st, (body, t.seat_signer(seat_no).sign(body)), out)

    # --- the statements -------------------------------------------------------------------------

    def _on_pass(self, st: ShufflePass | LockPass, rec: Record, out: list[Outgoing]) -> None:
        bh, t = self.bh, self.table
        assert bh is not None
        kind, who = bh.owed()
        if kind != st.KIND or st.seat not in who:
            raise Refused(ErrorCode.WRONG_PHASE, f"no {st.KIND} pass is due from you now")
        t.receipt(st.seat, self.number, rec, out)
        if isinstance(st, LockPass):  # it goes on to the next party before its proof is checked
            index = self._publish_only(st, rec, out)
            self._owed = lambda later: self._follow_published(st, index, later)
            return
        self._publish(st, rec, out)

    def _on_complaint(self, st: Complaint, rec: Record, out: list[Outgoing]) -> None:
        bh, t = self.bh, self.table
        assert bh is not None
        problem = bh.complaint_moment_problem(st)
        if problem is not None:
            raise Refused(ErrorCode.WRONG_PHASE, problem)
        problem = bh.complaint_proof_problem(st)
        if problem is not None:
            raise Refused(ErrorCode.BAD_STATEMENT, problem)
        t.receipt(st.seat, self.number, rec, out)
        self._publish(st, rec, out)

    def _on_gathered(self, st: Statement, rec: Record, out: list[Outgoing]) -> None:
        """Shares, shows and key reveals: kept until every one of the round has come."""
        bh, t = self.bh, self.table
        assert bh is not None
        seat = st.seat  # type: ignore[attr-defined]
        kind, who = bh.owed()
        if kind != st.KIND or seat not in who:
            raise Refused(ErrorCode.WRONG_PHASE, f"no {st.KIND} is due from you now")
        problem = self._content_problem(st)
        if problem is not None:
            raise Refused(ErrorCode.BAD_STATEMENT, problem)
        t.receipt(seat, self.number, rec, out)
        self.pending[seat] = rec
        self.pending_kind = kind
        self._progress(out)

    def _content_problem(self, st: Statement) -> str | None:
        """What is wrong with a gathered statement, checked before it waits for the others."""
        bh = self.bh
        assert bh is not None
        if isinstance(st, Shares):
            w = bh.window
            assert w is not None
            if st.window != w.number or st.positions != bh.owed_positions(w, st.seat):
                return "these shares are not for the positions this window gives you"
            if len(st.values) != len(st.positions):
                return "one value per position"
        elif isinstance(st, Show):
            if st.partner != bh.options.partner_of(st.seat):
                return "a show goes to your partner"
            if st.positions != tuple(bh.held_positions(st.seat)):
                return "a show holds your whole hand, in position order"
            if len(st.values) != len(st.positions):
                return "one value per position"
        return None

    def _on_play(self, st: BlindPlay, rec: Record, out: list[Outgoing]) -> None:
        bh, t = self.bh, self.table
        assert bh is not None
        if bh.expected() != "play":
            raise Refused(ErrorCode.WRONG_PHASE, f"not now: the table is in the {t.phase} phase")
        if st.index != len(bh.plays):
            raise Refused(ErrorCode.BAD_STATEMENT, f"this is play number {len(bh.plays)}")
        if st.seat != bh.sched.to_play:
            raise Refused(ErrorCode.NOT_YOUR_TURN, f"it is seat {bh.sched.to_play}'s turn")
        problem = bh.play_problem(st)
        if problem is not None:
            raise Refused(ErrorCode.ILLEGAL_PLAY, problem)
        self._apply_play(st, rec, out)
        t.receipt_due(st.seat, self.number, rec)

    def _on_auction(
        self, st: BidStatement | CallStatement, rec: Record, out: list[Outgoing]
    ) -> None:
        """Five players: a seat's bid or call, checked as every follower checks it (the
        auction's rules), receipted, published."""
        bh = self.bh
        assert bh is not None
        what = bh.expected()
        if what != st.KIND:
            if not bh.options.chiamata or what not in ("bid", "call"):
                raise Refused(ErrorCode.WRONG_PHASE, f"not now: no {st.KIND} is due")
            raise Refused(ErrorCode.NOT_YOUR_TURN, f"not now: the hand waits for a {what}")
        seat = bh.sched.to_bid if what == "bid" else bh.sched.to_call
        if st.seat != seat:
            raise Refused(ErrorCode.NOT_YOUR_TURN, f"it is seat {seat}'s turn to {what}")
        if isinstance(st, BidStatement) and st.index != len(bh.bids):
            raise Refused(ErrorCode.BAD_STATEMENT, f"this is bid number {len(bh.bids)}")
        try:
            bh.check_bid(st) if isinstance(st, BidStatement) else bh.check_call(st)
        except BlindFault as bf:
            raise Refused(ErrorCode.ILLEGAL_PLAY, bf.reason) from None
        self._apply_auction(st, rec, out)
        self.table.receipt(st.seat, self.number, rec, out)

    def _apply_auction(
        self, st: BidStatement | CallStatement, rec: Record, out: list[Outgoing]
    ) -> None:
        bh, t = self.bh, self.table
        assert bh is not None
        bh.apply(st, len(t.records))  # checked already: a fault here is this host's own bug
        t.append(rec, True)
        t.broadcast(out, m.BidMade(*rec) if isinstance(st, BidStatement) else m.CardCalled(*rec))
        self._progress(out)

    def _apply_play(self, st: BlindPlay, rec: Record, out: list[Outgoing]) -> None:
        bh, t = self.bh, self.table
        assert bh is not None
        tricks = len(bh.tricks)
        bh.on_play(st, len(t.records))
        t.append(rec, True)
        t.broadcast(out, m.CardPlayed(rec[0], rec[1], st.position, b""))
        if len(bh.tricks) > tricks:
            trick = bh.tricks[-1]
            t.broadcast(out, m.TrickTaken(trick.winner, trick.points))
        self._owed = self._progress  # the host's own keys are signed once the card has left

    @property
    def due(self) -> bool:
        return self._owed is not None

    def settle(self, out: list[Outgoing]) -> None:
        """What the last card or lock pass made due: its check, the host's next statements (a
        restored host does it when it resumes)."""
        owed, self._owed = self._owed, None
        if owed is not None:
            owed(out)

    # --- publishing -----------------------------------------------------------------------------

    def _publish(self, st: Statement, rec: Record, out: list[Outgoing]) -> None:
        """Publish one statement and follow it; a party's own bad statement is published as the
        evidence against it and the hand aborted (the verifier names the party there)."""
        self._follow_published(st, self._publish_only(st, rec, out), out)

    def _publish_only(self, st: Statement, rec: Record, out: list[Outgoing]) -> int:
        """Append and relay ``rec``; its place in the transcript."""
        t = self.table
        index = len(t.records)
        t.append(rec, True)
        t.broadcast(out, _relay_message(st, rec))
        return index

    def _follow_published(self, st: Statement, index: int, out: list[Outgoing]) -> None:
        """The hand follows a statement just published (``_publish``)."""
        bh = self.bh
        assert bh is not None
        try:
            apply_published(bh, st, index)
        except BlindFault as bf:
            self._fail(bf, out)
            return
        if isinstance(st, Complaint):
            # The hand is disputed: the shares or shows held for the round are void, and only
            # the key reveals count now (a held show is no party's key reveal).
            self.pending = {}
        self._progress(out)

    def _publish_gathered(self, out: list[Outgoing]) -> None:
        """Every statement of the round came: publish them in order and follow them."""
        bh, t = self.bh, self.table
        assert bh is not None
        kind, who = bh.owed()
        order = sorted(who) if kind == Show.KIND else list(who)
        recs = tuple(self.pending[p] for p in order)
        self.pending = {}
        first = len(t.records)
        for r in recs:
            t.append(r, True)
        t.broadcast(out, _gathered_message(kind, recs))
        if kind == KeyReveal.KIND and t.defer_checks and not bh.disputed:
            # The result is fixed: the players have the reveals now, and check them while the
            # host does (in a worker, or at the latest at the next message or tick).
            self.unchecked = [(first + i, reveal_of(r)) for i, r in enumerate(recs)]
            self.checks = None
            self.unchecked_since = t.now
            return
        try:
            for i, r in enumerate(recs):
                apply_published(bh, decode(r[0]), first + i)
        except BlindFault as bf:
            self._fail(bf, out)
            return

    # --- moving on ------------------------------------------------------------------------------

    def _progress(self, out: list[Outgoing]) -> None:
        """After every change: the host's own statements, gathered rounds, the phase, the end."""
        bh, t = self.bh, self.table
        assert bh is not None
        while t.phase not in (Phase.OVER, Phase.ACK):
            if self.unchecked:
                return  # nothing moves on before the published reveals are checked
            if self._host_acts(out):
                continue
            kind, who = bh.owed()
            gathered = kind in (Shares.KIND, Show.KIND, KeyReveal.KIND)
            if gathered and who and all(p in self.pending for p in who):
                self._publish_gathered(out)
                continue
            break
        if t.phase in (Phase.OVER, Phase.ACK):
            return
        what = bh.expected()
        if bh.disputed:
            t.phase = Phase.DISPUTE
        elif what in ("shuffle", "lock"):
            t.phase = Phase.SHUFFLE
        elif what in ("shares", "show"):
            t.phase = Phase.DEAL
        elif what in ("play", "bid", "call"):
            t.phase = Phase.PLAY
        elif what == "reveal":
            t.phase = Phase.REVEAL
        owed = bh.owed()
        acts = len(bh.bids) + len(bh.plays)
        if owed != self.waiting_for or acts != self.waiting_plays:
            self.waiting_for, self.waiting_since = owed, t.now  # its deadline starts now
            self.waiting_plays = acts
        if what == "end":
            if bh.disputed:
                verdict = bh.dispute_verdict()
                t.abort(verdict.party, verdict.reason, out)
            else:
                self._end(out)
                self._progress(out)  # the host's own key reveal, the gathered round
        elif what == "done":
            t.start_acks(out)

    def _host_acts(self, out: list[Outgoing]) -> bool:
        """Make the next statement the host owes as a party, if any; True if it made one."""
        hp, bh, t = self.host_party, self.bh, self.table
        if hp is None or bh is None:
            return False
        complaint = hp.complaint()
        if complaint is not None:
            self._publish(complaint, self._host_sign(complaint), out)
            return True
        for st in (hp.shuffle(), hp.lock()):
            if st is not None:
                self._publish(st, self._host_sign(st), out)
                return True
        made = False
        for gathered in (hp.shares(), *hp.shows(), hp.key_reveal()):
            if gathered is None:
                continue
            who = gathered.seat
            if who in self.pending:
                continue
            signer = t.identity if who == HOST_PARTY else t.seat_signer(who)
            body = gathered.encode()
            self.pending[who] = (body, signer.sign(body))
            made = True
        return made and all(p in self.pending for p in bh.owed()[1])

    def _host_sign(self, st: Statement) -> Record:
        body = st.encode()
        return body, self.table.identity.sign(body)

    def _end(self, out: list[Outgoing]) -> None:
        """Every card is played, each proved: the result is fixed now (fairness.md §11.8), and
        the key reveals follow; the acknowledgements wait for them. At five players the score
        follows from the call; a hand everyone passed ends with no points, void (§13.9)."""
        bh, t = self.bh, self.table
        assert bh is not None
        points = bh.points()
        t.broadcast(out, m.HandEnded(*t.sign(BlindEnd(t.game_id, self.number, points))))
        bh.on_end()
        bh.reveal_context = t.context_for(KeyReveal.KIND)
        t.hand_over(points, out, acks=False, call=bh.result(), void=bh.passed_out)
        t.phase = Phase.REVEAL

    # --- the snapshot (table/blind_snapshot.py) ---------------------------------------------

    def dump(self) -> dict[str, Any]:
        return blind_snapshot.dump(self)

    @classmethod
    def load(cls, table: TableSide, f: Fields) -> BlindDeal:
        """A blind hand from its snapshot: the hand's state is rebuilt from its records."""
        deal = cls(table, f.get_int("hand_number"), f.get_int("dealer"))
        blind_snapshot.restore(deal, f)
        return deal


# What a person's turn is timed for (``play_timeout``, with two people or more at the table).
_TURN_KINDS = frozenset({BlindPlay.KIND, BidStatement.KIND, CallStatement.KIND})


def _relay_message(st: Statement, rec: Record) -> Message:
    if isinstance(st, ShufflePass):
        return m.DeckShuffled(*rec)
    if isinstance(st, LockPass):
        return m.DeckLocked(*rec)
    if isinstance(st, Complaint):
        return m.ComplaintMade(*rec)
    raise TypeError(f"{st.KIND} is not relayed alone")


def _gathered_message(kind: str, recs: tuple[Record, ...]) -> Message:
    if kind == Shares.KIND:
        return m.SharesSent(recs)
    if kind == Show.KIND:
        return m.HandsShown(recs)
    return m.KeysRevealed(recs)


__all__ = ["CHECKS_WAIT", "BlindDeal"]
