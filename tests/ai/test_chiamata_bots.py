"""The five-player bots: legal bids, calls and cards at every level, the same seed the same
game, and for each role a position where the right choice is clear."""

from __future__ import annotations

import random

import pytest

from briscola_lan.ai import BotError, ChiamataBot, make_chiamata_bot
from briscola_lan.ai.chiamata_search import partner_weights
from briscola_lan.rules import Bid, Card, Hand, Phase, Rank, Suit, TableOptions, deck_for
from briscola_lan.rules.schedule import initial_deal
from briscola_lan.sim import make_seat_bot

FIVE = TableOptions.make(players=5, match_format="total")
LEVELS = ("random", "rules", "strong:6")


def _play(bots: list[ChiamataBot], seed: int) -> tuple[Hand, list[str]]:
    """A seeded hand played by ``bots``, every decision checked legal; the hand and a log."""
    rng = random.Random(seed)
    deck = list(deck_for(5))
    rng.shuffle(deck)
    hand = Hand(FIVE, deck, rng.randrange(5))
    log = []
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat)
        if hand.phase == Phase.AUCTION:
            bid = bots[seat].bid(view)
            assert bid is None or bid in view.legal_bids
            hand.bid(seat, bid)
            log.append(f"{seat} bids {bid}")
        elif hand.phase == Phase.CALL:
            suit = bots[seat].call(view)
            assert isinstance(suit, Suit)
            hand.call(seat, suit)
            log.append(f"{seat} calls {suit}")
        else:
            card = bots[seat].choose(view)
            assert card in view.legal_plays
            hand.play(seat, card)
            log.append(f"{seat} plays {card}")
    return hand, log


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_makes_only_legal_moves(level: str) -> None:
    for seed in range(4 if level.startswith("strong") else 12):
        bots = [make_chiamata_bot(level, seed * 10 + s) for s in range(5)]
        hand, log = _play(bots, seed)
        assert hand.is_terminal
        if not hand.passed_out:
            assert sum(1 for x in log if " plays " in x) == 40


def test_a_strong_seat_among_rules_bots_plays_whole_hands() -> None:
    for seed in range(3):
        bots = [make_chiamata_bot("strong:6" if s == seed else "rules", s) for s in range(5)]
        hand, _ = _play(bots, seed)
        result = hand.result()
        assert result is not None and sum(result.scores) == 0


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_plays_the_same_game(level: str) -> None:
    first = _play([make_chiamata_bot(level, 7 + s) for s in range(5)], 3)[1]
    again = _play([make_chiamata_bot(level, 7 + s) for s in range(5)], 3)[1]
    assert first == again


def test_another_seed_plays_another_game() -> None:
    logs = {tuple(_play([make_chiamata_bot("random", k + s) for s in range(5)], 3)[1])
            for k in range(4)}  # fmt: skip
    assert len(logs) > 1


def test_a_bot_refuses_what_it_does_not_owe() -> None:
    hand = Hand(FIVE, list(deck_for(5)), 4)
    bot = make_chiamata_bot("rules", 1)
    with pytest.raises(BotError, match="not its turn"):
        bot.bid(hand.view(2))  # seat 0 bids first
    with pytest.raises(BotError, match="not its turn"):
        bot.choose(hand.view(0))  # the auction is not over
    four = TableOptions.make(players=4)
    with pytest.raises(BotError, match="5 players"):
        bot.bid(Hand(four, list(deck_for(4)), 0).view(1))
    with pytest.raises(ValueError, match="unknown bot level"):
        make_chiamata_bot("wizard")
    # A table of 2 to 4 seats gets the bots of its size; 5 the bots that bid.
    assert isinstance(make_seat_bot(FIVE, "strong", 1), ChiamataBot)
    assert not isinstance(make_seat_bot(four, "rules", 1), ChiamataBot)


def _deal(hands: dict[int, str], dealer: int) -> list[Card]:
    """A deck giving each listed seat its eight cards (the others share what is left)."""
    wanted = {s: [Card.parse(t) for t in text.split()] for s, text in hands.items()}
    rest = [c for c in deck_for(5) if all(c not in h for h in wanted.values())]
    deck: list[Card | None] = [None] * 40
    for pos, seat in initial_deal(5, dealer, 8):
        deck[pos] = wanted[seat].pop(0) if seat in wanted else rest.pop(0)
    assert all(c is not None for c in deck)
    return [c for c in deck if c is not None]


BOTH = ("rules", "strong")


@pytest.mark.parametrize("level", BOTH)
def test_a_strong_hand_bids_and_a_worthless_one_passes(level: str) -> None:
    strong = "Ad 3d Kd Qd Jd 7d Ah As"
    junk = "2c 4c 5c 2s 4s 5h 4h 6d"
    for text, bids in ((strong, True), (junk, False)):
        hand = Hand(FIVE, _deal({0: text}, 4), 4)
        bid = make_chiamata_bot(level, 1).bid(hand.view(0))
        assert (bid is not None) is bids, (text, bid)


def _won_by(seat: int, bid: Bid, dealer: int, deck: list[Card]) -> Hand:
    """A hand whose auction ``seat`` won with ``bid``, everyone else passing."""
    hand = Hand(FIVE, deck, dealer)
    while hand.phase == Phase.AUCTION:
        s = hand.current_player
        assert s is not None
        hand.bid(s, bid if s == seat and hand.view(s).high_bid is None else None)
    assert hand.phase == Phase.CALL and hand.current_player == seat
    return hand


@pytest.mark.parametrize("level", BOTH)
def test_the_caller_calls_the_suit_it_is_long_in(level: str) -> None:
    deck = _deal({0: "3s Ks Qs Js 7s 6s 2c 4h"}, 4)
    hand = _won_by(0, Bid.of_rank(Rank.ACE), 4, deck)
    assert make_chiamata_bot(level, 1).call(hand.view(0)) is Suit.SWORDS


def _called(hands: dict[int, str], caller: int, bid: Bid, suit: Suit, dealer: int) -> Hand:
    hand = _won_by(caller, bid, dealer, _deal(hands, dealer))
    hand.call(caller, suit)
    return hand


@pytest.mark.parametrize("level", BOTH)
def test_the_partner_loads_an_ace_on_the_callers_sure_trick(level: str) -> None:
    # Seat 0 called the 3 of coins and leads the ace of coins (nothing beats it); seat 4 holds
    # the 3 of coins, so it knows it is the partner, and plays last: it gives the ace of cups.
    hands = {
        0: "Ad Kd 2c 4c 5c 6c 7c Jc",
        1: "4s 5s 6s 7s Js Qs Ks 2s",
        4: "3d Ah 2h 4h 5h 6h 7h Jh",
    }
    hand = _called(hands, 0, Bid.of_rank(Rank.THREE), Suit.COINS, 4)
    for seat, card in ((0, "Ad"), (1, "4s"), (2, None), (3, None)):
        view = hand.view(seat)
        play = Card.parse(card) if card else min(view.legal_plays, key=lambda c: c.points)
        hand.play(seat, play)
    view = hand.view(4)
    assert view.partner == 4  # it knows from its own cards
    assert make_chiamata_bot(level, 1).choose(view) == Card.parse("Ah")


@pytest.mark.parametrize("level", BOTH)
def test_a_defender_trumps_the_callers_points(level: str) -> None:
    # Seat 0 called the ace of coins (held by seat 2) and leads the 3 of cups; seat 4, a
    # defender playing last with a worthless briscola, takes the fourteen points.
    hands = {
        0: "3h Kd 2c 4c 5c 6c 7c Jc",
        1: "4s 5s 6s 7s Js Qs Ks 2s",
        2: "Ad 2h 4h 5h 6h 7h Jh Ah",
        3: "Kh 2d 3d 5d 6d 7d Jd Qd",
        4: "4d As 3s 3c Ac Qc Kc Qh",
    }
    hand = _called(hands, 0, Bid.of_rank(Rank.ACE), Suit.COINS, 4)
    for seat, card in ((0, "3h"), (1, "4s"), (2, "2h"), (3, "Kh")):
        hand.play(seat, Card.parse(card))
    view = hand.view(4)
    assert view.partner is None and view.contract is not None
    assert make_chiamata_bot(level, 1).choose(view) == Card.parse("4d")


@pytest.mark.parametrize("level", BOTH)
def test_the_caller_trumps_an_ace_led_before_it(level: str) -> None:
    # Dealer 0: seat 1 leads. Seat 0 won the auction with the ace of coins; playing last, it
    # takes the ace of cups with its 2 of coins, whoever its partner is.
    hands = {
        0: "2d 4s 5s 6s 4c 5c 6c 7c",
        1: "Ah Kd 2c 3c Jc Qc Kc Ac",
    }
    hand = _called(hands, 0, Bid.of_rank(Rank.ACE), Suit.COINS, 0)
    for seat, card in ((1, "Ah"), (2, None), (3, None), (4, None)):
        view = hand.view(seat)
        low = [c for c in view.legal_plays if c.points == 0 and c.suit is not Suit.COINS]
        hand.play(seat, Card.parse(card) if card else low[0])
    assert make_chiamata_bot(level, 1).choose(hand.view(0)) == Card.parse("2d")


def test_the_partner_guess_follows_who_gave_points_to_the_caller() -> None:
    # Seat 0 called the ace of coins (held by seat 1) and took a trick with the 3 of coins;
    # seat 2 gave it the ace of cups, seat 3 a worthless card. To seat 4, seat 2 is likelier
    # the partner than seat 3, and the caller holding its own card least likely.
    hands = {
        0: "3d 2c 4c 5c 6c 7c Jc Qc",
        1: "Ad 4d 5d 6d 7d Kc Ac 3c",
        2: "Ah 2h 4h 5h 6h 7h Jh Qh",
        3: "2s 4s 5s 6s 7s Js Qs Ks",
    }
    hand = _called(hands, 0, Bid.of_rank(Rank.ACE), Suit.COINS, 4)
    for seat, card in ((0, "3d"), (1, "4d"), (2, "Ah"), (3, "2s")):
        hand.play(seat, Card.parse(card))
    weights = partner_weights(hand.view(4))
    assert 4 not in weights and weights[2] > weights[1] == weights[3] > weights[0]
    assert partner_weights(hand.view(1)) == {}  # the partner knows
