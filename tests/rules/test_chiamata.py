"""Five players (Briscola chiamata): the deal, the auction, the call, the secret partner, the
weights table and the match summed over its hands."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola_lan.rules import (
    Bid,
    BidMade,
    Card,
    CardCalled,
    CardDealt,
    Hand,
    HandPassedOut,
    IllegalBid,
    IllegalPlay,
    Match,
    NotYourTurn,
    Rank,
    RulesError,
    Suit,
    TableOptions,
    deck_for,
    replay_hand,
)
from briscola_lan.rules.auction import Auction, Contract, ladder
from briscola_lan.rules.chiamata import score_hand, weights


def five(**kw: object) -> TableOptions:
    return TableOptions.make(players=5, match_format="total", **kw)  # type: ignore[arg-type]


def _deck(seed: int) -> list[Card]:
    deck = list(deck_for(5))
    random.Random(seed).shuffle(deck)
    return deck


def _bids(text: str) -> list[Bid | None]:
    return [None if t == "-" else Bid.parse(t) for t in text.split()]


def test_the_whole_pack_is_dealt_eight_each_with_no_upcard() -> None:
    deck = _deck(1)
    hand = Hand(five(), deck, dealer=4)
    dealt = [e for e in hand.deal_events if isinstance(e, CardDealt)]
    assert len(dealt) == 40 and hand.deal_events == dealt  # no upcard turned
    for ev in dealt:
        assert ev.seat == ev.position % 5  # one card each, left of the dealer first (dealer 4)
        assert deck[ev.position] == ev.card
    assert [len(h) for h in hand.hands] == [8] * 5
    assert hand.upcard is None and hand.trump is None and hand.stock_left == 0
    assert hand.phase == "auction" and hand.current_player == 0  # left of the dealer bids first
    assert hand.legal_plays() == ()
    with pytest.raises(IllegalPlay, match="before the auction is over"):
        hand.play(0, hand.hands[0][0])


def test_the_ladder_runs_from_the_ace_down_then_in_points() -> None:
    assert " ".join(b.label() for b in ladder(61)[:11]) == "A 3 K Q J 7 6 5 4 2 61"
    assert ladder(61)[-1] == Bid(120) and len(ladder(61)) == 10 + 60
    assert [b.label() for b in ladder(71)[9:11]] == ["2", "71"]
    assert Bid.parse("C") == Bid.of_rank(Rank.QUEEN)  # cavallo
    assert Bid.parse("f") == Bid.of_rank(Rank.JACK)  # fante
    assert Bid.parse(" 75 ").target(61) == 75 and Bid.parse("75").rank is Rank.TWO
    assert Bid.parse("K").target(61) == 61 and Bid.parse("K").target(70) == 70
    for bad in ("8", "60", "121", "X", ""):
        with pytest.raises(IllegalBid):
            Bid.parse(bad)
    with pytest.raises(IllegalBid):
        Bid(10)


def test_turns_skip_those_who_passed_and_the_last_bidder_left_wins() -> None:
    a = Auction(5, first=0, points_to_win=61)
    script = [
        (0, "A"), (1, "-"), (2, "K"), (3, "-"), (4, "J"),
        (0, "7"), (2, "-"), (4, "2"), (0, "61"), (4, "-"),
    ]  # fmt: skip
    for seat, text in script:
        assert a.to_bid == seat
        a.act(seat, None if text == "-" else Bid.parse(text))
    assert a.over and a.winner == 0 and a.high == (0, Bid(61)) and not a.passed_out
    assert a.legal() == ()


def test_a_bid_must_top_the_last_and_out_of_turn_is_refused() -> None:
    a = Auction(5, first=2, points_to_win=61)
    a.act(2, Bid.parse("K"))
    for bad in ("A", "3", "K"):
        with pytest.raises(IllegalBid, match="does not top K"):
            a.act(3, Bid.parse(bad))
    with pytest.raises(NotYourTurn):
        a.act(4, Bid.parse("7"))
    assert a.bids == [(2, Bid.parse("K"))] and a.to_bid == 3  # nothing changed
    assert a.legal()[0] == Bid.parse("Q")
    a.act(3, Bid.parse("90"))  # a jump straight into points
    assert a.legal()[0] == Bid(91)
    seventy = Auction(5, first=0, points_to_win=71)
    with pytest.raises(IllegalBid, match="71 to 120, not 65"):
        seventy.act(0, Bid(65))


def test_a_bid_of_120_ends_the_auction() -> None:
    a = Auction(5, first=1, points_to_win=61)
    a.act(1, Bid.parse("3"))
    a.act(2, Bid(120))
    assert a.over and a.winner == 2


def test_after_four_passes_the_last_seat_bids_and_wins_at_once() -> None:
    a = Auction(5, first=0, points_to_win=61)
    for seat in range(4):
        a.act(seat, None)
    assert a.to_bid == 4 and not a.over
    a.act(4, Bid.parse("2"))
    assert a.winner == 4


def test_everyone_passing_is_a_redeal_by_the_same_dealer() -> None:
    opts = five()
    match = Match(opts, first_dealer=3)
    hand = match.new_hand(_deck(2))
    events = []
    for seat in (4, 0, 1, 2, 3):
        events += hand.bid(seat, None)
    assert events[-1] == HandPassedOut() and events[0] == BidMade(4, None)
    assert hand.passed_out and hand.is_terminal and hand.current_player is None
    with pytest.raises(RulesError, match="dealt again"):
        match.record(hand)
    assert match.hand_number == 0 and match.next_dealer == 3


def test_the_caller_calls_a_suit_and_its_card_is_the_briscola() -> None:
    deck = _deck(3)
    hand = Hand(five(), deck, dealer=0)
    for seat, bid in zip((1, 2, 3, 4, 0, 1), _bids("A 3 - - - -"), strict=True):
        hand.bid(seat, bid)
    assert hand.phase == "call" and hand.current_player == 2
    with pytest.raises(NotYourTurn):
        hand.call(1, Suit.CUPS)
    with pytest.raises(IllegalBid, match="auction is over"):
        hand.bid(2, Bid.parse("K"))
    assert hand.call(2, Suit.SWORDS) == [CardCalled(2, Card.parse("3s"))]
    assert hand.trump is Suit.SWORDS and hand.contract == Contract(2, Bid(1), Card.parse("3s"))
    assert hand.phase == "play" and hand.current_player == 1  # left of the dealer leads
    with pytest.raises(IllegalBid, match="no call is due"):
        hand.call(2, Suit.CUPS)
    assert hand.called_holder == next(s for s in range(5) if Card.parse("3s") in hand.hands[s])


def test_a_point_bid_calls_the_two() -> None:
    hand = Hand(five(), _deck(4), dealer=4)
    for seat, bid in zip(range(5), _bids("2 75 - - -"), strict=True):
        hand.bid(seat, bid)
    hand.bid(0, None)
    hand.call(1, Suit.CLUBS)
    assert hand.contract is not None and hand.contract.called == Card.parse("2c")
    assert hand.contract.target(61) == 75


@pytest.mark.parametrize(
    ("caller", "partner", "won", "doubled", "expected"),
    [
        (0, 3, True, False, (2, -1, -1, 1, -1)),
        (0, 3, False, False, (-2, 1, 1, -1, 1)),
        (2, 2, True, False, (-1, -1, 4, -1, -1)),
        (2, 2, False, False, (1, 1, -4, 1, 1)),
        (1, 4, True, True, (-2, 4, -2, -2, 2)),
        (1, 1, False, True, (2, -8, 2, 2, 2)),
    ],
)
def test_the_weights_table(
    caller: int, partner: int, won: bool, doubled: bool, expected: tuple[int, ...]
) -> None:
    assert weights(5, caller, partner, won, doubled) == expected
    assert sum(expected) == 0


def test_a_hand_is_won_with_the_bid_and_doubled_for_all_the_points() -> None:
    rank = Contract(0, Bid.parse("A"), Card.parse("Ad"))
    r = score_hand(five(), rank, 3, [30, 10, 10, 31, 39])
    assert r.won and r.points == 61 and r.target == 61 and r.scores == (2, -1, -1, 1, -1)
    r = score_hand(five(), rank, 3, [30, 10, 11, 30, 39])
    assert not r.won and r.scores == (-2, 1, 1, -1, 1)
    r = score_hand(five(points_to_win=70), rank, 3, [30, 10, 10, 39, 31])
    assert not r.won and r.target == 70  # the table's points to win
    pts = Contract(0, Bid(80), Card.parse("2d"))
    assert not score_hand(five(), pts, 3, [40, 0, 0, 39, 41]).won
    assert score_hand(five(), pts, 3, [40, 0, 0, 40, 40]).won
    all_in = score_hand(five(), rank, 3, [60, 0, 0, 60, 0])
    assert all_in.all_points and all_in.scores == (4, -2, -2, 2, -2)
    assert score_hand(five(double_all=False), rank, 3, [60, 0, 0, 60, 0]).scores == (
        2, -1, -1, 1, -1,
    )  # fmt: skip
    none = score_hand(five(), rank, 0, [0, 30, 30, 30, 30])  # alone, and took nothing
    assert none.alone and none.all_points and none.scores == (-8, 2, 2, 2, 2)


def test_the_match_sums_its_hands_and_plays_on_while_the_top_is_shared() -> None:
    opts = five(match_hands=2)
    match = Match(opts, first_dealer=0)
    a = score_hand(opts, Contract(0, Bid(0), Card.parse("Ad")), 1, [40, 30, 20, 20, 10])
    match.record_points([40, 30, 20, 20, 10], call=a)
    assert match.scores() == (2, 1, -1, -1, -1) and not match.is_over
    b = score_hand(opts, Contract(1, Bid(0), Card.parse("Ah")), 0, [40, 30, 20, 20, 10])
    match.record_points([40, 30, 20, 20, 10], call=b)
    assert match.scores() == (3, 3, -2, -2, -2) and not match.is_over and match.next_is_tiebreak
    c = score_hand(opts, Contract(2, Bid(0), Card.parse("Ac")), 2, [0, 0, 61, 59, 0])
    match.record_points([0, 0, 61, 59, 0], call=c)
    assert match.scores() == (2, 2, 2, -3, -3) and not match.is_over  # three share the top
    d = score_hand(opts, Contract(3, Bid(0), Card.parse("As")), 4, [0, 0, 0, 60, 60])
    match.record_points([0, 0, 0, 60, 60], call=d)
    assert match.scores() == (0, 0, 0, 1, -1)
    assert match.winner == 3 and match.results[-1].tiebreak
    assert match.hands_won() == (2, 2, 1, 1, 1)
    with pytest.raises(RulesError, match="with its call"):
        Match(opts).record_points([40, 30, 20, 20, 10])


def test_replay_rebuilds_a_hand_from_its_bids_call_and_plays() -> None:
    deck = _deck(5)
    opts = five()
    hand = Hand(opts, deck, dealer=2)
    bids = _bids("K - 7 2 - 70 - -")
    for bid in bids:
        seat = hand.current_player
        assert seat is not None
        hand.bid(seat, bid)
    hand.call(3, Suit.COINS)
    while (seat := hand.current_player) is not None:
        hand.play(seat, hand.legal_plays()[-1])
    again = replay_hand(opts, deck, 2, hand.plays, bids=bids, call=Suit.COINS)
    assert again.result() == hand.result() is not None
    assert again.returns() == hand.returns()


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), dealer=st.integers(0, 4))
def test_views_keep_hidden_cards_and_the_partner_secret(seed: int, dealer: int) -> None:
    """Cards conserved, 120 points, and every seat's view at every step: its own cards, public
    plays, and the partner only as it may know it (itself, or anyone once the card is out)."""
    rng = random.Random(seed)
    deck = _deck(seed)
    hand = Hand(five(), deck, dealer)

    def check() -> None:
        played = [c for t in hand.tricks for _, c in t.plays] + [c for _, c in hand.trick]
        held = [c for h in hand.hands for c in h]
        assert sorted(c.code for c in held + played) == list(range(40))
        contract = hand.contract
        out = contract is not None and contract.called in played
        for seat in range(5):
            view = hand.view(seat)
            assert set(view.hand) == set(hand.hands[seat])
            for other in range(5):
                if other != seat:
                    assert not set(hand.hands[other]) & (set(view.hand) | set(view.played_cards))
            assert view.upcard is None and view.auction == tuple(hand.public.auction.bids)  # type: ignore[union-attr]
            if contract is None:
                assert view.partner is None and view.trump is None
            elif out:
                assert view.partner == hand.called_holder
            else:
                mine = seat == hand.called_holder
                assert view.partner == (seat if mine else None) and view.holds_called is mine

    check()
    while hand.phase == "auction":
        seat = hand.current_player
        assert seat is not None
        legal = hand.legal_bids()
        hand.bid(seat, legal[rng.randrange(min(len(legal), 12))] if rng.random() < 0.4 else None)
        check()
    if hand.passed_out:
        return
    seat = hand.current_player
    assert seat is not None
    hand.call(seat, Suit(rng.randrange(4)))
    check()
    while (seat := hand.current_player) is not None:
        hand.play(seat, rng.choice(hand.legal_plays()))
        check()
    assert sum(hand.returns()) == 120 and len(hand.tricks) == 8
    result = hand.result()
    assert result is not None and sum(result.scores) == 0
    assert result.partner == hand.called_holder
