"""The checker's state across a match, and what every record's check shares: the hand being
followed, faults and who answers for them, signatures and contexts, a hand's opening, its
acknowledgements, its abort and its result.

``TranscriptChecker`` (``checker``) is this state with the records' checks of ``classic_records``,
``blind_records`` and ``seat_records`` over it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from briscola_lan.fairness.blind_hand import BlindFault, BlindHand, Presence
from briscola_lan.fairness.classic_hand import ClassicHand, SeedRound
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    BlindStart,
    HostCommit,
    MatchStart,
    Receipt,
    Statement,
)
from briscola_lan.fairness.verify.blame import Receipts, blind_fault, seed_abort_fault
from briscola_lan.fairness.verify.draw import DrawState
from briscola_lan.fairness.verify.report import HOST, Fault, HandReport, MatchReport, Violation
from briscola_lan.fairness.verify.signals import SignalCheck
from briscola_lan.fairness.verify.signatures import Signatures, seat_word
from briscola_lan.rules.match import Match
from briscola_lan.rules.options import TableOptions


@dataclass(slots=True)
class HandState:
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
    passed_out: bool = False  # five players, everyone passed: void, the same dealer deals again
    keys_due: bool = False  # a blind hand after its blind-end: the key reveals come next
    end_due: bool = False  # the host-reveal decided the match: match-end comes next
    chain_at_reveal: bytes = b""
    acks: list[int] = field(default_factory=list)
    acks_closed: bool = False

    @property
    def seeds(self) -> SeedRound | None:
        return self.classic.seeds if self.classic is not None else None

    def played(self, rep: HandReport) -> None:
        """Put in ``rep`` the trump and the tricks taken so far, as the records prove them."""
        machine = self.classic if self.classic is not None else self.blind
        if machine is not None:
            rep.trump, rep.tricks = machine.sched.trump, tuple(machine.sched.tricks)

    @property
    def play_count(self) -> int:
        if self.classic is not None:
            return len(self.classic.plays)
        return len(self.blind.plays) if self.blind is not None else 0


class CheckerState:
    """What the checker keeps across hands, and the steps the records' checks share."""

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
        self._hand: HandState | None = None
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

    @property
    def chain(self) -> bytes:
        """The chain hash over the public records so far (§8.1)."""
        return self.context.chain

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

    @property
    def _n(self) -> int:
        assert self._options is not None
        return self._options.players

    # --- signatures and contexts ---------------------------------------------------------------

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

    def _need_hand(self, st: Statement) -> HandState:
        h = self._hand
        if h is None or st.hand != h.number:  # type: ignore[attr-defined]
            raise self._fail(st, HOST, "statement outside its hand, or for another hand")
        return h

    def _open_hand(self, st: HostCommit | BlindStart) -> HandState:
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
        self._hand = HandState(st.hand, st.dealer)
        self.report.hands.append(HandReport(st.hand, st.dealer, "incomplete"))
        return self._hand

    def _close_acks(self, h: HandState) -> None:
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

    def _end_aborted(self, h: HandState, st: Abort, fault: Fault) -> None:
        """The hand counts for nothing (§8.7). An abort naming a seat: the same dealer deals it
        again with the next hand number; one naming the host ends the match."""
        rep = self.report.hands[-1]
        rep.status = "aborted"
        h.played(rep)
        rep.fault = self._for_the_host(fault)
        h.revealed = h.aborted = True
        if st.seat == HOST_PARTY:
            self._closed = True
        else:
            self._replays += 1
            self._named[st.seat] = self._named.get(st.seat, 0) + 1

    def _result(self, h: HandState, points: tuple[int, ...]) -> None:
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
        h.played(rep)
        rep.passed_out = h.passed_out
        self.report.winner = match.winner
        self.report.match_over = match.is_over
