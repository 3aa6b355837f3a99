"""The blind hand's machine at five players (protocol/fairness.md §13.9), with no host and no
sockets: five parties (or two and the host) follow one ``BlindHand``; each seat opens its eight
cards and no other, the forty are the pack; a bid before the deal is complete, one out of turn,
a call naming no card and a card before the call are the host's faults; the auction sets the
trump; a whole hand ends with each seat's points and the score by the weights; a hand everyone
passed is over at its fifth pass, with no points, and takes no card."""

from __future__ import annotations

import hashlib
import random

import pytest

from briscola_lan.fairness.auction_checks import bid_code
from briscola_lan.fairness.blind_hand import BlindFault, BlindHand
from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    BidStatement,
    CallStatement,
    KeyReveal,
    LockPass,
    Shares,
    ShufflePass,
    Statement,
)
from briscola_lan.rules import TableOptions
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.chiamata import score_hand

FIVE = TableOptions.make(players=5, match_format="total", match_hands=1)
GAME = bytes(range(16))


class Table:
    """One blind hand at five followed by its machine, the statements fed in order."""

    def __init__(self, parties: tuple[int, ...], label: str) -> None:
        self.hand = BlindHand(FIVE, GAME, 0, 0, parties)
        self.chain = ContextChain()
        self.party = {
            q: BlindParty(
                self.hand, q, hashlib.sha256(f"{label}/{q}".encode()).digest(), self.chain.expected
            )
            for q in parties
        }
        self.index = 0

    def feed(self, st: Statement) -> None:
        self.chain.published(st.KIND, st.encode())
        self.hand.apply(st, self.index)  # type: ignore[arg-type]
        self.index += 1

    def deal(self) -> None:
        """The passes and window 0's shares, party by party."""
        h = self.hand
        while h.expected() in ("shuffle", "lock", "shares"):
            what, who = h.owed()
            p = self.party[who[0]]
            made = {ShufflePass.KIND: p.shuffle, LockPass.KIND: p.lock, Shares.KIND: p.shares}
            st = made[what]()
            assert st is not None
            self.feed(st)

    def seat_party(self, seat: int) -> BlindParty:
        return self.party[self.hand.owner(seat)]

    def bid(self, seat: int, bid: Bid | None, index: int | None = None) -> BidStatement:
        n = len(self.hand.bids) if index is None else index
        ctx = self.chain.expected(BidStatement.KIND)
        return BidStatement(GAME, 0, seat, ctx, n, bid_code(bid))

    def call(self, seat: int, suit: int) -> CallStatement:
        return CallStatement(GAME, 0, seat, self.chain.expected(CallStatement.KIND), suit)

    def reveal_all(self) -> None:
        self.hand.on_end()
        self.hand.reveal_context = self.chain.expected(KeyReveal.KIND)
        for q in self.hand.parties:
            st = self.party[q].key_reveal()
            assert st is not None
            self.feed(st)


@pytest.mark.parametrize("parties", [(0, 1, 2, 3, 4), (1, 3, HOST_PARTY)])
def test_each_seat_opens_its_eight_cards_and_no_other(parties: tuple[int, ...]) -> None:
    t = Table(parties, f"open-{parties}")
    t.deal()
    h = t.hand
    assert h.upcard_position is None and h.upcard is None and len(h.windows) == 1
    assert h.expected() == "bid" and h.owed() == (BidStatement.KIND, (1,))
    seen: list[int] = []
    for seat in range(5):
        mine = t.seat_party(seat).seat_cards(seat)
        assert len(mine) == 8
        seen.extend(mine.values())
        view = t.seat_party(seat).view(seat)
        assert view is not None and view.trump is None and view.upcard is None
        for q, other in t.party.items():  # another party opens none of this seat's cards
            if q != h.owner(seat):
                assert other.seat_cards(seat) == {} and other.view(seat) is None
    assert sorted(seen) == list(range(40))


def test_the_auction_and_the_call_are_checked_and_set_the_trump() -> None:
    t = Table((0, 1, 2, 3, 4), "auction")
    h = t.hand
    early = t.bid(1, Bid(0))
    with pytest.raises(BlindFault, match="before every seat was dealt its cards") as bad:
        h.apply(early, 0)
    assert bad.value.party == HOST_PARTY
    t.deal()
    play = t.seat_party(1).play(1, next(iter(t.seat_party(1).seat_cards(1).values())))
    assert h.play_problem(play) == "a card was played before the auction's call"
    not_a_bid = BidStatement(GAME, 0, 1, t.chain.expected(BidStatement.KIND), 0, 30)
    for wrong, why in (
        (t.bid(2, Bid(2)), "turn to bid"),  # seat 1 bids first
        (t.bid(1, Bid(2), index=1), "expected bid number 0"),
        (not_a_bid, "does not allow"),
    ):
        with pytest.raises(BlindFault, match=why) as bad:
            h.check_bid(wrong)
        assert bad.value.party == HOST_PARTY
    with pytest.raises(BlindFault, match="none is due"):
        h.check_call(t.call(1, 0))
    t.feed(t.bid(1, Bid(2)))  # seat 1: the king
    with pytest.raises(BlindFault, match="does not top"):
        h.check_bid(t.bid(2, Bid(1)))  # the three: a bid must go down the ranks from the king
    for seat in (2, 3, 4, 0):
        t.feed(t.bid(seat, None))
    assert h.expected() == "call" and h.owed() == (CallStatement.KIND, (1,))
    with pytest.raises(BlindFault, match="not seat 2"):
        h.check_call(t.call(2, 1))
    with pytest.raises(BlindFault, match="suit 0 to 3"):
        h.check_call(t.call(1, 4))  # names no card of the king's rank
    t.feed(t.call(1, 3))
    contract = h.sched.contract
    assert contract is not None and contract.called.code == 3 * 10 + 2
    assert h.sched.trump == contract.trump and h.expected() == "play"
    holder = next(
        s for s in range(5) if contract.called.code in t.seat_party(s).seat_cards(s).values()
    )
    for seat in range(5):
        view = t.seat_party(seat).view(seat)
        assert view is not None and view.partner == (seat if seat == holder else None)


def test_a_whole_hand_ends_with_each_seats_points_and_its_score() -> None:
    t = Table((0, 1, 2, 3, 4), "whole")
    h = t.hand
    t.deal()
    t.feed(t.bid(1, Bid(0)))
    for seat in (2, 3, 4, 0):
        t.feed(t.bid(seat, None))
    t.feed(t.call(1, 1))
    rng = random.Random(5)
    while h.expected() == "play":
        to_play = h.sched.to_play
        assert to_play is not None
        p = t.seat_party(to_play)
        t.feed(p.play(to_play, rng.choice(sorted(p.seat_cards(to_play).values()))))
    assert h.expected() == "end" and len(h.plays) == 40 and sum(h.points()) == 120
    result = h.result()
    assert result is not None and h.sched.contract is not None
    assert result == score_hand(FIVE, h.sched.contract, result.partner, h.points())
    t.reveal_all()
    assert h.expected() == "done" and h.order is not None


def test_a_hand_everyone_passed_is_over_with_no_points_and_takes_no_card() -> None:
    t = Table((0, 1, 2, 3, 4), "void")
    h = t.hand
    t.deal()
    for seat in (1, 2, 3, 4, 0):
        t.feed(t.bid(seat, None))
    assert h.passed_out and h.over and h.expected() == "end"
    assert h.points() == (0, 0, 0, 0, 0) and h.result() is None
    p = t.seat_party(1)
    play = p.play(1, next(iter(p.seat_cards(1).values())))
    with pytest.raises(BlindFault, match="no card can be played now"):
        h.apply(play, t.index)
    with pytest.raises(BlindFault, match="none is due"):
        h.apply(t.bid(1, Bid(0), index=5), t.index)
    t.reveal_all()  # every secret published: the deck nobody played can be recomputed
    assert h.expected() == "done" and h.order is not None and sorted(h.order) == list(range(40))
    assert not h.plays
