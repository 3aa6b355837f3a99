"""Five players: the checks of a published ``bid`` and ``call`` statement against the hand's public
schedule, the same in both deal modes (protocol/fairness.md §13.3, §13.4); the rule of what is
legal is the auction's own (``rules.auction``). ``ClassicHand`` and ``BlindHand`` each raise
their own fault with the reason given here.
"""

from __future__ import annotations

from briscola_lan.fairness.statements import PASS_BID, BidStatement, CallStatement
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Suit
from briscola_lan.rules.errors import RulesError
from briscola_lan.rules.schedule import PublicSchedule


class AuctionProblem(Exception):
    """A bid or call that is not the one due now, or not legal; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def bid_of(code: int) -> Bid | None:
    """The bid a ``bid`` statement's field names (None: a pass); ValueError if it names none."""
    return None if code == PASS_BID else Bid(code)


def bid_code(bid: Bid | None) -> int:
    """A bid's ``bid`` field (``PASS_BID`` for a pass)."""
    return PASS_BID if bid is None else bid.code


def checked_bid(sched: PublicSchedule, bids_so_far: int, st: BidStatement) -> Bid | None:
    """The bid ``st`` names (None: a pass) if it is the bid due now and a legal one: its number,
    the seat to bid, the ladder; raises ``AuctionProblem`` otherwise. Changes nothing."""
    if st.index != bids_so_far:
        raise AuctionProblem(f"expected bid number {bids_so_far}, got {st.index}")
    auction = sched.auction
    if auction is None:
        raise AuctionProblem(f"a bid at {sched.n} players: there is no auction")
    try:
        bid = bid_of(st.bid)
        auction.check(st.seat, bid)
    except (RulesError, ValueError) as exc:
        raise AuctionProblem(f"a bid the auction does not allow: {exc}") from None
    return bid


def checked_call(sched: PublicSchedule, st: CallStatement) -> Suit:
    """The suit ``st`` calls if it is the call due now: the auction's winner names a suit 0..3
    (the called card is the winning bid's rank of that suit); raises ``AuctionProblem``."""
    caller = sched.to_call
    if caller is None:
        raise AuctionProblem("a call when none is due (the auction is not won)")
    if st.seat != caller:
        raise AuctionProblem(f"seat {caller} won the auction and calls, not seat {st.seat}")
    if not 0 <= st.suit <= 3:
        raise AuctionProblem(f"a call names a suit 0 to 3, not {st.suit}")
    return Suit(st.suit)


__all__ = ["AuctionProblem", "bid_code", "bid_of", "checked_bid", "checked_call"]
