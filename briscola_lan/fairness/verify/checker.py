"""The transcript checker: takes a file's records one at a time and dispatches each to what it
concerns: the match's opening (``start``), the draw (``draw``), signatures (``signatures``), a
classic hand's records (``classic_records``, through ``fairness.classic_hand.ClassicHand``), a
blind hand's (``blind_records``, through ``fairness.blind_hand.BlindHand``), receipts, evidence,
aborts, acknowledgements and signals (``seat_records``, with ``blame``); ``report`` holds the
verdict so far. A card, the commonest record, goes from here straight to its hand's machine.

What spans hands (the chain and the context a statement must carry, the match's results, the seats
the host plays, the receipts, the aborts that named a seat) is ``state.CheckerState``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any

from briscola_lan.fairness import match_options
from briscola_lan.fairness.blind_hand import BlindFault, BlindHand, Presence
from briscola_lan.fairness.classic_hand import ClassicFault, ClassicHand
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY
from briscola_lan.fairness.identity import fingerprint
from briscola_lan.fairness.statements import (
    KINDS,
    Abort,
    Ack,
    BidStatement,
    BlindPlay,
    BlindStart,
    CallStatement,
    Complaint,
    Deal,
    DrawReveal,
    DrawStart,
    Evidence,
    Exchange,
    HostCommit,
    HostReveal,
    KeyReveal,
    LockPass,
    MatchEnd,
    MatchOptions,
    MatchStart,
    Overdue,
    Play,
    Present,
    Receipt,
    SeedCommit,
    SeedReveal,
    Shares,
    Show,
    ShufflePass,
    Signal,
    Statement,
    StatementError,
    decode,
)
from briscola_lan.fairness.verify import blind_records, classic_records, seat_records
from briscola_lan.fairness.verify.blame import BENCHED_AFTER, Receipted
from briscola_lan.fairness.verify.blind_records import BLIND_KINDS, BlindRecords
from briscola_lan.fairness.verify.classic_records import CLASSIC_KINDS, ClassicRecords
from briscola_lan.fairness.verify.draw import DrawState, draw_start_problem, owed_words
from briscola_lan.fairness.verify.report import (
    HOST,
    DrawReport,
    Fault,
    MatchReport,
    Record,
    Violation,
    Waiting,
)
from briscola_lan.fairness.verify.seat_records import SeatRecords
from briscola_lan.fairness.verify.start import drawn_seats_problem, match_start_problem, options_of
from briscola_lan.fairness.verify.state import HandState
from briscola_lan.rules.match import Match


class TranscriptChecker(ClassicRecords, BlindRecords, SeatRecords):
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

    # --- public API ---------------------------------------------------------------------------

    def add(self, body: bytes, sig: bytes) -> None:
        """Check one record. Raises Violation (and records the fault) on the first problem."""
        self.last_statement = None
        if self.report.fault is not None:
            self._follow_chain(body)
            if self.follow:
                with contextlib.suppress(StatementError):
                    self.last_statement = decode(body)
                self._follow(self.last_statement)
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
            if self.follow:
                self._follow(self.last_statement)
            raise Violation(fault) from None

    def known_good(self, key: bytes, body: bytes, sig: bytes) -> None:
        """Tell the checker a signature is good without checking it: only for a signature this
        process made itself (a client's own statements), so the verdict cannot change."""
        self._sigs.known_good(key, body, sig)

    def context_for(self, kind: str) -> bytes:
        """The context a statement of ``kind`` must carry if it is published next (§8.1)."""
        return self.context.expected(kind)

    @property
    def pending_signatures(self) -> int:
        """How many signatures are queued (always 0 unless ``defer_signatures``)."""
        return self._sigs.pending

    @property
    def classic(self) -> ClassicHand | None:
        """The current classic hand's machine, until the next hand starts (None otherwise)."""
        h = self._hand
        return h.classic if h is not None else None

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

    def receipt_for(self, hand: int, kind: str, seat: int, index: int = 0) -> Receipted | None:
        """The host's receipt in this file for a seat's statement, if there is one."""
        return self._receipts.get(hand, kind, seat, index)

    def benched(self, seat: int) -> bool:
        """Whether aborts named the seat twice: the host plays it to the end of the match."""
        return self._named.get(seat, 0) >= BENCHED_AFTER

    def flush(self) -> None:
        """Check every queued signature and lock proof now; raises Violation on the first bad
        one (by record)."""
        if self.report.fault is not None:
            raise Violation(self.report.fault)
        fault = self._first_queued_fault()
        if fault is not None:
            self._record_fault(fault)
            raise Violation(fault)

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
        waiting: Waiting | None = None
        d, dr = self._draw, rep.draw
        if rep.fault is None and d is not None and dr is not None and dr.status == "incomplete":
            dr.waiting = waiting = d.waiting()
        h = self._hand
        if h is not None and not h.revealed and rep.hands:
            h.played(rep.hands[-1])  # the file stops during the hand
        if rep.fault is None and h is not None:
            hand_waiting = self._hand_waiting(h)
            if hand_waiting is not None:
                rep.hands[-1].waiting = waiting = hand_waiting
            elif not h.revealed or h.keys_due or h.end_due or self._closed or h.aborted:
                pass
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

    def _follow_chain(self, body: bytes) -> None:
        """Past a fault nothing is checked, but the chain (and the context a live client signs
        with) follows the host's records, so that the client can still play along."""
        cls = KINDS.get(_tag_of(body))
        if cls is not None and cls.PUBLIC:
            self.context.published(cls.KIND, body)

    def _follow(self, st: Statement | None) -> None:
        """Past a fault (``follow``): the classic hand's machine takes each record it accepts (a
        record it already took, or refuses, changes nothing), and a host-commit starts the next
        hand's machine; the host's reveal is left to the verdict. Nothing here is a check: the
        verdict is the first fault's, and a blind hand is not followed (its client sits out)."""
        opts, h = self._options, self._hand
        if st is None or opts is None:
            return
        if isinstance(st, HostCommit):
            if h is None or h.classic is None or h.classic.commit is not st:
                self._hand = HandState(st.hand, st.dealer)
                self._hand.classic = ClassicHand(opts, st, recipients=self._recipients)
            return
        c = h.classic if h is not None else None
        if c is None or type(st) not in CLASSIC_KINDS or st.hand != c.number:  # type: ignore[attr-defined]
            return
        if c.window is not None and not isinstance(st, _WINDOW_KINDS):
            with contextlib.suppress(ClassicFault):
                c.close_window()
            self._recipients = c.recipients
        with contextlib.suppress(ClassicFault):
            c.apply(st, self.index)  # type: ignore[arg-type]

    # --- who an unfinished file waits for (§8.7): ending early is not a fault ------------------

    def _hand_waiting(self, h: HandState) -> Waiting | None:
        """Who the file's last hand waits for, if it waits (the party whose record comes next,
        from the hand's machine: nobody is blamed)."""
        if not h.revealed and h.blind is None and h.presence is not None:
            return Waiting(HOST, "the players' answers to its call (the presents it received)")
        if not h.revealed and h.blind is not None:
            kind, owing = h.blind.owed()
            party = owing[0] if owing else HOST_PARTY
            if kind in (Show.KIND, BlindPlay.KIND) and owing:
                party = h.blind.owner(owing[0])
            who = HOST if party == HOST_PARTY else party
            return Waiting(who, owed_words(kind, who))
        if not h.revealed and h.classic is not None:
            kind, party = h.classic.owed()
            who = HOST if party == HOST_PARTY else party
            if who == HOST:
                return Waiting(HOST, "the rest of the hand, up to its host-reveal")
            return Waiting(who, owed_words(kind, who))
        if h.keys_due and not h.end_due and h.blind is not None:
            self.report.keys_due = True
            kind, owing = h.blind.owed()
            party = owing[0] if owing else HOST_PARTY
            who = HOST if party == HOST_PARTY else party
            return Waiting(who, owed_words(kind, who, after_end=True))
        if h.end_due and not self._closed and not h.aborted:
            return Waiting(HOST, "the match-end record")
        return None

    # --- dispatch -------------------------------------------------------------------------------

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
        options_due, self._options_due = self._options_due, False
        if isinstance(st, MatchOptions):
            self._match_options(st, body, sig, options_due)
            return
        if isinstance(st, DrawReveal):
            raise self._fail(st, HOST, "a draw-reveal after the match started")
        late = self._late.get(getattr(st, "hand", -1))
        if isinstance(st, KeyReveal) and late is not None and st.seat in late[0].late:
            self._late_reveal(st, body, sig)  # a reveal named overdue, coming later
            return
        h = self._hand
        if h is not None and not isinstance(st, _WINDOW_KINDS):
            c = h.classic
            if c is not None and c.window is not None:
                try:
                    c.close_window()  # a record of another kind: the schedule's deals are in
                except ClassicFault as cf:
                    raise self._fail(st, HOST, cf.reason) from None
                finally:
                    self._recipients = c.recipients
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
            and type(st) not in _EITHER_MODE
            and (h.presence is not None) != (type(st) in BLIND_KINDS)
        ):
            mode = "blind" if h.presence is not None else "classic"
            raise self._fail(st, HOST, f"a {st.KIND} record in a {mode} hand")
        try:
            _HANDLERS[type(st)](self, st)
            if type(st) in _SLOTTED:
                self._published_slot(st)
        except (BlindFault, ClassicFault) as f:
            record = self.index if f.record is None else f.record
            party = HOST if f.party == HOST_PARTY else f.party
            also = isinstance(f, BlindFault) and f.also_host
            raise Violation(Fault(record, f.kind or st.KIND, party, f.reason, also)) from None

    def _start(self, st: Statement, body: bytes, sig: bytes) -> None:
        if not isinstance(st, MatchStart):
            raise self._fail(st, HOST, "a transcript must open with the match-start statement")
        problem = match_start_problem(st, body, sig)
        if problem is None and self._draw is not None:
            problem = drawn_seats_problem(st, self._draw.start, self._draw.result)
        if problem is not None:
            raise self._fail(st, HOST, problem)
        opts = options_of(st)
        self._ms, self._options = st, opts
        self._match = Match(opts, st.first_dealer)
        self.context.published(st.KIND, body)
        self.report.game_id = st.game_id.hex()
        self.report.table_name = st.table_name
        self.report.host_fingerprint = fingerprint(st.host_key)
        self.report.options = opts
        self.report.names = st.names
        self._options_due = True

    def _match_options(self, st: MatchOptions, body: bytes, sig: bytes, due: bool) -> None:
        """The options match-start has no field for (§12.1), right after it."""
        if not due:
            raise self._fail(st, HOST, "match-options must come right after match-start")
        self._check_signature(st, body, sig)
        assert self._ms is not None and self._options is not None
        try:
            opts = match_options.apply(self._options, st.options)
        except ValueError as exc:
            raise self._fail(st, HOST, f"bad table options: {exc}") from None
        self.context.published(st.KIND, body)
        self._options = self.report.options = opts
        self._match = Match(opts, self._ms.first_dealer)

    # --- the draw (protocol/fairness.md §7a) ---------------------------------------------------

    def _start_draw(self, st: DrawStart, body: bytes, sig: bytes) -> None:
        problem = draw_start_problem(st, body, sig)
        if problem is not None:
            raise self._fail(st, HOST, problem)
        self._draw = DrawState(st)
        self.context.published(st.KIND, body)
        self.report.game_id = st.game_id.hex()
        self.report.host_fingerprint = fingerprint(st.host_key)
        self.report.names = st.names
        self.report.draw = DrawReport(bool(st.draw_partners), bool(st.draw_dealer), st.names)

    def _on_draw_statement(self, d: DrawState, st: Statement) -> None:
        n = d.start.players
        if getattr(st, "hand", DRAW_HAND) != DRAW_HAND:
            raise self._fail(st, HOST, "a hand statement before the draw ended")
        if d.result is not None:
            raise self._fail(st, HOST, "only match-start may follow the draw's result")
        try:
            if isinstance(st, Receipt):
                self._on_receipt(st)
            elif isinstance(st, SeedCommit):
                d.on_commit(st)
            elif isinstance(st, SeedReveal):
                d.on_reveal(st)
            elif isinstance(st, DrawReveal):
                self._on_draw_reveal(d, st)
            elif isinstance(st, Evidence):
                self._on_evidence(st, d.seeds)
            elif isinstance(st, Abort):
                self._on_draw_abort(d, st, n)
            else:
                raise self._fail(st, HOST, f"a {st.KIND} statement during the draw")
        except ClassicFault as cf:
            party = HOST if cf.party == HOST_PARTY else cf.party
            raise self._fail(st, party, cf.reason) from None

    def _on_draw_abort(self, d: DrawState, st: Abort, n: int) -> None:
        seat = HOST if st.seat == HOST_PARTY else st.seat
        if seat != HOST and not 0 <= seat < n:
            raise self._fail(st, HOST, "abort names a seat that does not exist")
        fault = self._seed_abort_fault(st, seat, d.seeds, dealt=False)
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

    def _on_draw_reveal(self, d: DrawState, st: DrawReveal) -> None:
        problem = d.reveal_problem(st)
        if problem is not None:
            raise self._fail(st, HOST, problem)
        result = d.result
        dr = self.report.draw
        assert dr is not None and result is not None
        dr.status, dr.cards, dr.seating, dr.dealer = (
            "verified",
            result.cards,
            result.seating,
            result.dealer,
        )

    def _on_auction(self, st: BidStatement | CallStatement) -> None:
        """Five players: a bid or the call, followed by the hand's machine (classic or blind)."""
        h = self._need_hand(st)
        if h.presence is None:
            self._on_bid(st) if isinstance(st, BidStatement) else self._on_call(st)
        elif isinstance(st, BidStatement):
            self._on_blind_bid(st)
        else:
            self._on_blind_call(st)

    # --- a card, the commonest record: straight to the hand's machine --------------------------

    def _on_play(self, st: Play) -> None:
        """A classic card: the machine checks it, the host received no other play of that
        number (its receipts, §8.5), then the machine takes it."""
        c = self._dealt(st)
        c.check_play(st)
        for key in self._receipts.plays.get((c.number, st.index), ()):
            _hand, _kind, seat, index = key
            self._as_receipted(st, seat, index, self._receipts.receipted[key])
        c.on_play(st, self.index)

    def _on_blind_play(self, st: BlindPlay) -> None:
        """A blind card: the host received no other play of that number from the seat, then
        the hand's machine takes it (§11.6)."""
        b = self._need_blind(st)
        receipted = self._receipts.get(b.hand, BlindPlay.KIND, st.seat, st.index)
        if receipted is not None:
            self._as_receipted(st, st.seat, st.index, receipted)
        b.on_play(st, self.index)

    def _as_receipted(self, st: Play | BlindPlay, seat: int, index: int, r: Receipted) -> None:
        if r.statement != st:
            raise self._fail(
                st,
                HOST,
                f"the host received seat {seat}'s play number {index} (receipt, record "
                f"{r.index}) and published another",
            )

    # --- the match's end ------------------------------------------------------------------------

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


_HANDLERS: dict[type[Statement], Callable[[TranscriptChecker, Any], None]] = {
    **classic_records.HANDLERS,
    **blind_records.HANDLERS,
    **seat_records.HANDLERS,
    Play: TranscriptChecker._on_play,
    BlindPlay: TranscriptChecker._on_blind_play,
    MatchEnd: TranscriptChecker._on_match_end,
    BidStatement: TranscriptChecker._on_auction,
    CallStatement: TranscriptChecker._on_auction,
}  # a statement of the match (after match-start) -> its check

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
        BidStatement,
        CallStatement,
        Ack,
        Present,
        ShufflePass,
        LockPass,
        Shares,
        Show,
        Complaint,
        KeyReveal,
        Signal,
    }
)
_HAND_KINDS = CLASSIC_KINDS | BLIND_KINDS | {HostReveal, Evidence}
# The auction's statements (five players) are the same in both deal modes (fairness.md §13.9).
_EITHER_MODE = frozenset({BidStatement, CallStatement})
_WINDOW_KINDS: tuple[type[Statement], ...] = (Deal, Exchange, Receipt)


def _tag_of(body: bytes) -> bytes:
    """A statement's tag bytes, without decoding it (empty if there is none)."""
    size = int.from_bytes(body[:4], "big") if len(body) >= 4 else 0
    return body[4 : 4 + size]


def verify_records(records: Sequence[Record]) -> MatchReport:
    """Verify a whole transcript; the report says which hands verified and the first fault."""
    checker = TranscriptChecker()
    for body, sig in records:
        try:
            checker.add(body, sig)
        except Violation:
            break
    return checker.finish()


__all__ = ["TranscriptChecker", "verify_records"]
