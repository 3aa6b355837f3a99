"""Five players dealt blind: a blind hand's auction and call, followed from their published
``bid`` and ``call`` statements (protocol/fairness.md §13.9) with the checks both deal modes make
(``fairness.auction_checks``; the rule itself is ``rules.auction``). ``BlindHand`` is this with
the rest of the hand.
"""

from __future__ import annotations

from briscola_lan.fairness.auction_checks import AuctionProblem, checked_bid, checked_call
from briscola_lan.fairness.blind_fault import BlindFault
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import BidStatement, CallStatement
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Suit
from briscola_lan.rules.chiamata import CallResult
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.schedule import PublicSchedule


class BlindAuction:
    """The bids and the call of a blind hand at five players."""

    options: TableOptions
    n: int
    sched: PublicSchedule
    # The auction's bids and the call, as published (``BlindHand`` starts them empty).
    bids: list[tuple[int, BidStatement]]
    call: tuple[int, CallStatement] | None

    def expected(self) -> str:
        """What the hand waits for (``BlindHand.expected``)."""
        raise NotImplementedError

    def _auction_moment(self, kind: str) -> None:
        """Raise the host's fault unless the hand waits for a statement of ``kind`` now."""
        if not self.options.chiamata:
            raise BlindFault(HOST_PARTY, f"a {kind} at {self.n} players: there is no auction")
        what = self.expected()
        if what in ("shuffle", "lock", "shares"):
            raise BlindFault(HOST_PARTY, f"a {kind} before every seat was dealt its cards")
        if what != kind:
            raise BlindFault(HOST_PARTY, f"a {kind} when none is due (the hand waits for: {what})")

    def check_bid(self, st: BidStatement) -> Bid | None:
        """Raise the host's fault unless ``st`` is the bid due now and a legal one (the
        auction's rules); the bid it names (None: a pass)."""
        self._auction_moment(BidStatement.KIND)
        try:
            return checked_bid(self.sched, len(self.bids), st)
        except AuctionProblem as p:
            raise BlindFault(HOST_PARTY, p.reason) from None

    def on_bid(self, st: BidStatement, record: int) -> None:
        """A published bid (``check_bid``), taken by the auction."""
        self.sched.bid(st.seat, self.check_bid(st))
        self.bids.append((record, st))

    def check_call(self, st: CallStatement) -> Suit:
        """Raise the host's fault unless ``st`` is the call due now (the auction's winner names
        a suit 0..3); the suit."""
        self._auction_moment(CallStatement.KIND)
        try:
            return checked_call(self.sched, st)
        except AuctionProblem as p:
            raise BlindFault(HOST_PARTY, p.reason) from None

    def on_call(self, st: CallStatement, record: int) -> None:
        """A published call (``check_call``): the contract is made, its suit the briscola, the
        play begins."""
        self.sched.call(st.seat, self.check_call(st))
        self.call = (record, st)

    def result(self) -> CallResult | None:
        """Five players, every card played: the call and each seat's score (None otherwise)."""
        return self.sched.result()


__all__ = ["BlindAuction"]
