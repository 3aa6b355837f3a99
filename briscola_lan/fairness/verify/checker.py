"""The transcript checker: takes a file's records one at a time and dispatches each to what it
concerns: the match's opening (``start``), the draw (``draw``), signatures (``signatures``), a
hand's machine (``fairness.classic_hand.ClassicHand`` or ``fairness.blind_hand.BlindHand``),
receipts and blame (``blame``); ``report`` holds the verdict so far (``report``).

It keeps what spans hands: the chain and the context a statement must carry, the match's
results, the seats the host plays, the receipts, the aborts that named a seat.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from briscola_lan.fairness import match_options
from briscola_lan.fairness.blind_hand import BlindFault, BlindHand, Presence
from briscola_lan.fairness.classic_hand import ClassicFault, ClassicHand, SeedRound
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY
from briscola_lan.fairness.identity import fingerprint
from briscola_lan.fairness.predicates import foreign
from briscola_lan.fairness.statements import (
    BLIND_PARTY_KINDS,
    KINDS,
    Abort,
    Ack,
    BlindEnd,
    BlindPlay,
    BlindStart,
    Complaint,
    Deal,
    DeckCommit,
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
    Takeover,
    Upcard,
    decode,
)
from briscola_lan.fairness.verify.blame import (
    BENCHED_AFTER,
    Receipted,
    Receipts,
    blind_abort_fault,
    blind_fault,
    evidence_problem,
    left_out,
    receipt_index,
    seed_abort_fault,
    utc,
)
from briscola_lan.fairness.verify.draw import DrawState, draw_start_problem, owed_words
from briscola_lan.fairness.verify.report import (
    HOST,
    DrawReport,
    Fault,
    HandReport,
    MatchReport,
    Record,
    Violation,
    Waiting,
    party_name,
)
from briscola_lan.fairness.verify.signals import SignalCheck
from briscola_lan.fairness.verify.signatures import Signatures, seat_word
from briscola_lan.fairness.verify.start import drawn_seats_problem, match_start_problem, options_of
from briscola_lan.rules.hand import Hand
from briscola_lan.rules.match import Match
from briscola_lan.rules.options import TableOptions


@dataclass(slots=True)
class _Hand:
    """A hand of the match as the checker follows it: its machine, and where it stands."""

    number: int
    dealer: int
    classic: ClassicHand | None = None  # a classic hand's machine
    blind: BlindHand | None = None  # a blind hand's public state (§11), once its parties are known
    presence: Presence | None = None  # a blind hand's call (§11.3); None in a classic hand
    # The call's round ended in the file (a record of the hand other than a present or receipt):
    # a live client fixes the parties earlier (``close_presence``), but judges an abort as the
    # file does.
    call_over: bool = False
    start: BlindStart | None = None
    revealed: bool = False  # the hand's result is in (host-reveal, blind-end) or it was aborted
    aborted: bool = False  # counts for nothing; dealt again unless the abort named the host
    keys_due: bool = False  # a blind hand after its blind-end: the key reveals come next
    end_due: bool = False  # the host-reveal decided the match: match-end comes next
    chain_at_reveal: bytes = b""
    acks: list[int] = field(default_factory=list)
    acks_closed: bool = False

    @property
    def seeds(self) -> SeedRound | None:
        return self.classic.seeds if self.classic is not None else None

    @property
    def play_count(self) -> int:
        if self.classic is not None:
            return len(self.classic.plays)
        return len(self.blind.plays) if self.blind is not None else 0


class TranscriptChecker:
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

    def __init__(self, defer_signatures: bool = False, *, follow: bool = False) -> None:
        """``follow`` (a live client): past a fault, the classic hand's machine still follows the
        records it can take, and the next hand's machine starts at its host-commit, so that the
        player can play on; the verdict stays the first fault's (``_follow``)."""
        self.defer_signatures = defer_signatures
        self.follow = follow
        self._sigs = Signatures(defer_signatures)
        self.last_statement: Statement | None = None  # the last record added, decoded
        self.report = MatchReport()
        self.context = ContextChain()  # the chain, and the context a statement must carry
        self.index = -1
        self._ms: MatchStart | None = None
        self._options: TableOptions | None = None
        self._match: Match | None = None
        self._hand: _Hand | None = None
        self._taken_over: set[int] = set()
        self._blind_mode: bool | None = None  # fixed by the match's first hand (§11.3)
        # A blind abort's owed statement, as judged (party, kind, play number or window).
        self.owed_at_abort: tuple[int, str, int] | None = None
        self._closed = False  # after an abort naming the host (or the draw's) nothing may follow
        self._replays = 0  # hands aborted naming a seat, each dealt again (§8.7)
        self._named: dict[int, int] = {}  # seat -> the aborts that named it
        self._draw: DrawState | None = None
        # The seats whose private records this file holds (every seat in the host's file, one
        # in a seat's own file): the seats dealt to in the first deal of the match.
        self._recipients: frozenset[int] | None = None
        self._receipts = Receipts()
        self._evidence: tuple[int, int] | None = None  # (record, seat): an abort must follow
        # hand -> (its blind state, its report): hands whose key reveals were named overdue
        self._late: dict[int, tuple[BlindHand, HandReport]] = {}
        self._signals = SignalCheck()  # partners' signals (§12)
        self._options_due = False  # the record after match-start may be its match-options

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

    @property
    def chain(self) -> bytes:
        """The chain hash over the public records so far (§8.1)."""
        return self.context.chain

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

    # --- faults -------------------------------------------------------------------------------

    def _fail(self, st: Statement | None, seat: int, reason: str) -> Violation:
        return Violation(Fault(self.index, st.KIND if st else "record", seat, reason))

    def _for_the_host(self, fault: Fault) -> Fault:
        """A fault of a seat the host plays (an AI seat, a seat it took over, a seat left out of
        a blind hand) is the host's: it signed for that seat (fairness.md §8.7)."""
        seat = fault.seat
        ms = self._ms
        if seat == HOST or ms is None or not 0 <= seat < len(ms.ai_levels):
            return fault
        if ms.ai_levels[seat] == "" and seat not in self._taken_over:
            return fault
        return Fault(
            fault.index,
            fault.kind,
            HOST,
            f"{fault.reason} (seat {seat} is played by the host, which signed for it)",
        )

    def _first_queued_fault(self) -> Fault | None:
        """Check every queued signature and lock proof; the first bad one by record, if any."""
        faults = []
        for check in (self._sigs.check_pending, self._check_proofs):
            try:
                check()
            except Violation as v:
                faults.append(v.fault)
        return min(faults, key=lambda f: f.index or 0) if faults else None

    def _check_proofs(self) -> None:
        """A live client's queued lock proofs (fairness.md §8.10), checked in order."""
        h = self._hand
        if h is None or h.blind is None:
            return
        try:
            h.blind.check_locks()
        except BlindFault as bf:
            raise Violation(blind_fault(bf)) from None

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
                self._hand = _Hand(st.hand, st.dealer)
                self._hand.classic = ClassicHand(opts, st, recipients=self._recipients)
            return
        c = h.classic if h is not None else None
        if c is None or type(st) not in _CLASSIC_KINDS or st.hand != c.number:  # type: ignore[attr-defined]
            return
        if c.window is not None and not isinstance(st, _WINDOW_KINDS):
            with contextlib.suppress(ClassicFault):
                c.close_window()
            self._recipients = c.recipients
        with contextlib.suppress(ClassicFault):
            c.apply(st, self.index)  # type: ignore[arg-type]

    def _record_fault(self, fault: Fault) -> None:
        self.report.fault = fault
        if self._hand is not None and self.report.hands:
            last = self.report.hands[-1]
            if last.hand == self._hand.number and last.status in (
                "incomplete",
                "verified",
                "unacknowledged",
            ):
                last.status = "failed"
                last.fault = fault
        dr = self.report.draw
        if dr is not None and dr.status == "incomplete":
            dr.status, dr.fault = "failed", fault

    # --- who an unfinished file waits for (§8.7): ending early is not a fault ------------------

    def _hand_waiting(self, h: _Hand) -> Waiting | None:
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

    @property
    def _n(self) -> int:
        assert self._options is not None
        return self._options.players

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
            and (h.presence is not None) != (type(st) in _BLIND_KINDS)
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

    # --- signatures, contexts, receipts -------------------------------------------------------

    def _keys(self) -> tuple[bytes, tuple[bytes, ...], int]:
        if self._ms is not None:
            return self._ms.host_key, self._ms.seat_keys, self._n
        assert self._draw is not None
        ds = self._draw.start
        return ds.host_key, ds.seat_keys, ds.players

    def _check_signature(self, st: Statement, body: bytes, sig: bytes) -> None:
        host_key, seat_keys, n = self._keys()
        if st.HOST_SIGNED or getattr(st, "seat", None) == HOST_PARTY:
            keys: tuple[bytes, ...] = (host_key,)
            who = "the host"
        else:
            seat = st.seat  # type: ignore[attr-defined]
            if not 0 <= seat < n:
                raise self._fail(st, HOST, f"seat {seat} does not exist")
            keys = (seat_keys[seat], host_key) if seat in self._taken_over else (seat_keys[seat],)
            who = seat_word(seat)
        self._sigs.check(self.index, st, (body, sig), keys=keys, who=who, host_key=host_key)

    def _check_context(self, st: Statement) -> None:
        """A party statement names the history it was made over: the context due here (§8.1).
        Another context means the host showed its signer another past than this file's, or
        relayed a statement made for another history: the host's fault either way."""
        context = getattr(st, "context", None)
        if context is None or context == self.context.expected(st.KIND):
            return
        party = st.seat  # type: ignore[attr-defined]
        who = "the host" if party == HOST_PARTY else f"seat {party}"
        raise self._fail(
            st,
            HOST,
            f"{who}'s {st.KIND} was made over another history than this file's (its context is "
            "not the chain here): the host showed players different pasts (equivocation), "
            "withheld a record from this file, or relayed a statement made for another history",
        )

    def _seat_statement(self, st: Receipt | Evidence, hand: int) -> Statement:
        """The seat's own signed statement inside a receipt or evidence, checked."""
        _host_key, seat_keys, n = self._keys()
        if not 0 <= st.seat < n:
            raise self._fail(st, HOST, f"seat {st.seat} does not exist")
        try:
            inner = decode(st.statement)
        except StatementError as exc:
            raise self._fail(st, HOST, f"the statement inside is not valid: {exc}") from exc
        if not isinstance(inner, (SeedCommit, SeedReveal, Play, Ack, Signal, *BLIND_PARTY_KINDS)):
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

    def _seed_abort_fault(self, st: Abort, seat: int, seeds: SeedRound, *, dealt: bool) -> Fault:
        """Who an abort of a seed round makes at fault (fairness.md §8, blame)."""
        evidence, self._evidence = self._evidence, None
        return seed_abort_fault(
            self.index,
            st,
            seat,
            seeds=seeds,
            dealt=dealt,
            evidence=evidence,
            taken_over=self._taken_over,
            receipts=self._receipts,
        )

    # --- a hand ----------------------------------------------------------------------------------

    def _need_hand(self, st: Statement) -> _Hand:
        h = self._hand
        if h is None or st.hand != h.number:  # type: ignore[attr-defined]
            raise self._fail(st, HOST, "statement outside its hand, or for another hand")
        return h

    def _open_hand(self, st: HostCommit | BlindStart) -> _Hand:
        """The checks every hand's first record passes; the new hand (§8.3 host-commit)."""
        assert self._match is not None and self._options is not None
        blind = isinstance(st, BlindStart)
        if self._blind_mode is not None and self._blind_mode != blind:
            mode = "blind" if self._blind_mode else "classic"
            raise self._fail(st, HOST, f"a {st.KIND} in a {mode} match: the mode never changes")
        prev = self._hand
        if prev is not None and (not prev.revealed or prev.keys_due):
            raise self._fail(st, HOST, "a new hand started before the last one ended")
        if self._match.is_over:
            raise self._fail(st, HOST, "a hand started after the match was decided")
        if prev is not None and not prev.aborted:
            self._close_acks(prev)
        number = self._match.hand_number + self._replays  # every deal begun has its number
        if st.hand != number:
            raise self._fail(st, HOST, f"expected hand {number}, got {st.hand}")
        if st.dealer != self._match.next_dealer:
            raise self._fail(st, HOST, f"dealer must be seat {self._match.next_dealer}")
        self._blind_mode = blind
        self.report.deal = "blind" if blind else "classic"
        self._hand = _Hand(st.hand, st.dealer)
        self.report.hands.append(HandReport(st.hand, st.dealer, "incomplete"))
        return self._hand

    def _close_acks(self, h: _Hand) -> None:
        """The hand's acknowledgements are all in: a seat missing from them is reported."""
        if h.acks_closed:
            return
        h.acks_closed = True
        missing = tuple(s for s in range(self._n) if s not in h.acks)
        for s in missing:
            receipted = self._receipts.get(h.number, Ack.KIND, s)
            if receipted is not None:
                raise Violation(
                    Fault(
                        receipted.index,
                        Receipt.KIND,
                        HOST,
                        f"the host received seat {s}'s acknowledgement (this receipt) but did "
                        "not relay it",
                    )
                )
        rep = self.report.hands[-1]
        if missing and rep.status == "verified":
            rep.status, rep.missing_acks = "unacknowledged", missing

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

    def _end_aborted(self, h: _Hand, st: Abort, fault: Fault) -> None:
        """The hand counts for nothing (§8.7). An abort naming a seat: the same dealer deals it
        again with the next hand number; one naming the host ends the match."""
        rep = self.report.hands[-1]
        rep.status = "aborted"
        rep.fault = self._for_the_host(fault)
        h.revealed = h.aborted = True
        if st.seat == HOST_PARTY:
            self._closed = True
        else:
            self._replays += 1
            self._named[st.seat] = self._named.get(st.seat, 0) + 1

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

    def _result(self, h: _Hand, points: tuple[int, ...]) -> None:
        """The hand's result is in: a match-end comes next when it decides the match."""
        match = self._match
        assert match is not None
        h.revealed = True
        h.end_due = match.is_over
        missing = self._signals.withheld(h.number)
        if missing is not None:
            raise self._fail(
                None,
                HOST,
                f"the host received seat {missing[0]}'s signal in trick {missing[1] + 1} (its "
                "receipt) and never published it in the hand",
            )
        rep = self.report.hands[-1]
        rep.status, rep.points = "verified", points
        self.report.winner = match.winner
        self.report.match_over = match.is_over

    # --- a classic hand: its machine (fairness/classic_hand.py) ----------------------------------

    def _on_host_commit(self, st: HostCommit) -> None:
        h = self._open_hand(st)
        assert self._options is not None
        h.classic = ClassicHand(self._options, st, recipients=self._recipients)

    def _classic(self, st: Statement) -> ClassicHand:
        h = self._need_hand(st)
        assert h.classic is not None  # the mode check let only a classic hand's records here
        return h.classic

    def _dealt(self, st: Statement) -> ClassicHand:
        h = self._need_hand(st)
        c = h.classic
        if c is None or c.deck_commit is None or h.revealed:
            raise self._fail(st, HOST, f"{st.KIND} before the deck was committed or after the end")
        return c

    def _on_seed_commit(self, st: SeedCommit) -> None:
        self._classic(st).on_seed_commit(st, self.index)

    def _on_seed_reveal(self, st: SeedReveal) -> None:
        self._classic(st).on_seed_reveal(st, self.index)

    def _on_deck_commit(self, st: DeckCommit) -> None:
        self._classic(st).on_deck_commit(st, self.index)

    def _on_deal(self, st: Deal) -> None:
        self._dealt(st).on_deal(st, self.index)

    def _on_upcard(self, st: Upcard) -> None:
        self._dealt(st).on_upcard(st, self.index)

    def _on_exchange(self, st: Exchange) -> None:
        self._dealt(st).on_exchange(st, self.index)

    def _on_play(self, st: Play) -> None:
        c = self._dealt(st)
        c.check_play(st)
        for key in self._receipts.plays.get((c.number, st.index), ()):
            receipted = self._receipts.receipted[key]
            _hand, _kind, seat, index = key
            if receipted.statement != st:
                raise self._fail(
                    st,
                    HOST,
                    f"the host received seat {seat}'s play number {index} (receipt, record "
                    f"{receipted.index}) and published another",
                )
        c.on_play(st, self.index)

    def _on_host_reveal(self, st: HostReveal) -> None:
        c = self._dealt(st)
        hand: Hand = c.on_host_reveal(st, self.index)
        h, match = self._hand, self._match
        assert h is not None and match is not None
        match.record(hand)
        h.chain_at_reveal = self.chain
        self._result(h, hand.returns())

    def _on_takeover(self, st: Takeover) -> None:
        if self._blind_mode:
            raise self._fail(
                st, HOST, "no takeover in a blind match: each hand's parties say who the host plays"
            )
        h = self._need_hand(st)
        if not 0 <= st.seat < self._n or st.at_play != h.play_count:
            raise self._fail(st, HOST, "takeover of a seat that does not exist, or out of place")
        if st.ai not in (0, 1):
            raise self._fail(st, HOST, "a takeover's ai flag is 0 or 1")
        if st.ai and st.seat not in self._taken_over and not h.aborted:
            self._check_no_own_secret(st, h)
        seeds = h.seeds
        revealed_all = seeds is not None and seeds.done
        if not st.ai and not revealed_all and not h.aborted:  # an aborted hand's are moot
            raise self._fail(
                st,
                HOST,
                f"seat {st.seat} handed back while the hand's seeds are committed and revealed: "
                "the AI holds the seat's seed until they are all revealed (SPEC.md §6a)",
            )
        if st.ai:
            self._taken_over.add(st.seat)
        else:
            self._taken_over.discard(st.seat)
        self.report.takeovers.append((st.hand, st.seat, bool(st.ai), st.at_play))

    def _check_no_own_secret(self, st: Takeover, h: _Hand) -> None:
        """The host MUST NOT take a seat between the seat's own seed-commit and its seed-reveal
        (SPEC.md §6a): only the seat can open that commitment. The file shows it when it holds
        the host's receipt for the seat's seed-commit and neither the seat's reveal nor the
        receipt for it came before (a seat's own file). The host publishes the reveals only
        once all are in, so that a seat that revealed and then dropped is rightly taken over
        before its reveal is published: without the receipts a file cannot tell."""
        committed = self._receipts.get(h.number, SeedCommit.KIND, st.seat)
        seeds = h.seeds
        revealed = (seeds is not None and st.seat < len(seeds.seeds)) or (
            self._receipts.get(h.number, SeedReveal.KIND, st.seat) is not None
        )
        if committed is not None and not revealed:
            raise self._fail(
                st,
                HOST,
                f"the host took seat {st.seat} over while the seat held its own unrevealed seed "
                f"(the host's receipt for its seed commitment is record {committed.index}, and "
                "the seat had not revealed): only the seat can open it (SPEC.md §6a)",
            )

    # --- a blind hand: its machine (fairness/blind_hand.py, protocol/fairness.md §11) ----------

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

    def _close_presence(self, h: _Hand) -> None:
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

    def _keys_closed(self, h: _Hand) -> None:
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

    def _on_blind_play(self, st: BlindPlay) -> None:
        b = self._need_blind(st)
        receipted = self._receipts.get(b.hand, BlindPlay.KIND, st.seat, st.index)
        if receipted is not None and receipted.statement != st:
            raise self._fail(
                st,
                HOST,
                f"the host received seat {st.seat}'s play number {st.index} (receipt, record "
                f"{receipted.index}) and published another",
            )
        b.on_play(st, self.index)

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

    def _seat_host_plays(self, h: _Hand, seat: int) -> bool:
        """The host plays a person's seat in this blind hand (left out of its parties)."""
        assert self._ms is not None
        if self._ms.ai_levels[seat]:
            return False
        return h.blind is not None and seat not in h.blind.parties

    def _on_blind_end(self, st: BlindEnd) -> None:
        """The hand's result, fixed by its proved plays (§11.8): every card played once, each
        proved at its position, so its points follow from the public cards alone."""
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
        match.record_points(points, h.dealer)
        h.keys_due = True
        self._result(h, points)


_HANDLERS: dict[type[Statement], Callable[[TranscriptChecker, Any], None]] = {
    HostCommit: TranscriptChecker._on_host_commit,
    SeedCommit: TranscriptChecker._on_seed_commit,
    SeedReveal: TranscriptChecker._on_seed_reveal,
    DeckCommit: TranscriptChecker._on_deck_commit,
    Deal: TranscriptChecker._on_deal,
    Upcard: TranscriptChecker._on_upcard,
    Play: TranscriptChecker._on_play,
    Exchange: TranscriptChecker._on_exchange,
    Takeover: TranscriptChecker._on_takeover,
    HostReveal: TranscriptChecker._on_host_reveal,
    Abort: TranscriptChecker._on_abort,
    Ack: TranscriptChecker._on_ack,
    Receipt: TranscriptChecker._on_receipt,
    MatchEnd: TranscriptChecker._on_match_end,
    Evidence: TranscriptChecker._on_hand_evidence,
    BlindStart: TranscriptChecker._on_blind_start,
    Present: TranscriptChecker._on_present,
    ShufflePass: TranscriptChecker._on_shuffle,
    LockPass: TranscriptChecker._on_lock,
    Shares: TranscriptChecker._on_shares,
    Show: TranscriptChecker._on_show,
    BlindPlay: TranscriptChecker._on_blind_play,
    Complaint: TranscriptChecker._on_complaint,
    KeyReveal: TranscriptChecker._on_key_reveal,
    BlindEnd: TranscriptChecker._on_blind_end,
    Overdue: TranscriptChecker._on_overdue,
    Signal: TranscriptChecker._on_signal,
}  # a statement of the match (after match-start) -> its check

# The records of a hand in progress, by mode: each mode's kinds are refused in the other's hands.
_CLASSIC_KINDS = frozenset({SeedCommit, SeedReveal, DeckCommit, Deal, Upcard, Play, Exchange})
_BLIND_KINDS = frozenset(
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
_HAND_KINDS = _CLASSIC_KINDS | _BLIND_KINDS | {HostReveal, Evidence}
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
