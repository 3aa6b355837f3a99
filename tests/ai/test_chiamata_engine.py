"""The chiamata AI's compact engine against the rules engine: the same tricks, points and
scores, and what each seat knows of the partnership."""

from __future__ import annotations

import random

import pytest

from briscola_lan.ai.chiamata_fast import World, knowledge, pick
from briscola_lan.rules import Bid, Card, Hand, Rank, Suit, TableOptions, deck_for

FIVE = TableOptions.make(players=5, match_format="total")


def _called_hand(seed: int) -> tuple[Hand, int]:
    """A seeded deal where the seat left of the dealer bids the ace, the others pass, and it
    calls the ace of a random suit; the hand and its caller."""
    rng = random.Random(seed)
    deck = list(deck_for(5))
    rng.shuffle(deck)
    dealer = rng.randrange(5)
    hand = Hand(FIVE, deck, dealer)
    caller = (dealer + 1) % 5
    hand.bid(caller, Bid.of_rank(Rank.ACE))
    for k in range(1, 5):
        hand.bid((caller + k) % 5, None)
    hand.call(caller, Suit(rng.randrange(4)))
    return hand, caller


@pytest.mark.parametrize("seed", range(12))
def test_a_playout_takes_the_tricks_and_points_the_rules_engine_does(seed: int) -> None:
    hand, caller = _called_hand(seed)
    contract = hand.contract
    assert contract is not None and hand.trump is not None
    partner = hand.called_holder
    assert partner is not None
    world = World(
        [[c.code for c in h] for h in hand.hands],
        int(hand.trump),
        caller=caller,
        called=contract.called.code,
        partner=partner,
        leader=hand.current_player or 0,
    )
    chosen: list[int] = []
    world.playout(lambda w: chosen.append(-1) or -1)  # every card by ``pick``
    replay = World(
        [[c.code for c in h] for h in hand.hands],
        int(hand.trump),
        caller=caller,
        called=contract.called.code,
        partner=partner,
        leader=hand.current_player or 0,
    )
    while replay.to_play >= 0:
        seat = replay.to_play
        friends, foes = knowledge(seat, caller, partner, replay.revealed)
        card = pick(
            replay.hands[seat],
            replay.trick,
            replay.leader,
            seat,
            replay.trump,
            replay.played,
            friends,
            foes,
        )
        assert hand.current_player == seat
        hand.play(seat, Card.from_code(card))  # the rules engine accepts it: a held card
        replay.play(card)
    assert hand.is_terminal and len(chosen) == 40
    assert list(hand.returns()) == replay.points == world.points
    result = hand.result()
    assert result is not None and result.points == world.callers_points()


def test_what_each_seat_knows_of_the_partnership() -> None:
    everyone = 0b11111
    # Caller 0, partner 2, the called card not yet played.
    assert knowledge(2, 0, 2, False) == (0b00001, everyone & ~0b00101)  # the partner knows all
    assert knowledge(0, 0, 2, False) == (0, 0)  # the caller knows nobody yet
    assert knowledge(3, 0, 2, False) == (0, 0b00001)  # a defender knows only the caller
    # Once the card is played everyone knows.
    assert knowledge(0, 0, 2, True) == (0b00100, everyone & ~0b00101)
    assert knowledge(3, 0, 2, True) == (0b10010, 0b00101)
    # The caller holding its own card knows it plays alone against four.
    assert knowledge(0, 0, 0, False) == (0, everyone & ~1)
    assert knowledge(4, 0, 0, False) == (0, 1)  # a defender cannot know it


def test_a_known_friend_taking_the_trick_surely_gets_the_points() -> None:
    trump = int(Suit.CUPS)
    ace_trump = Card(Suit.CUPS, Rank.ACE).code
    ace_coins, four_coins = Card(Suit.COINS, Rank.ACE).code, Card(Suit.COINS, Rank.FOUR).code
    # Seat 0 (the friend) led the ace of briscola; seat 1 plays last but three... make seat 4
    # the last: seats 0..3 played, seat 4 chooses. Its friend 0 wins: it loads the ace.
    trick = [ace_trump, Card(Suit.SWORDS, Rank.FOUR).code, Card(Suit.CLUBS, Rank.FIVE).code,
             Card(Suit.SWORDS, Rank.SIX).code]  # fmt: skip
    played = 0
    for c in trick:
        played |= 1 << c
    card = pick([four_coins, ace_coins], trick, 0, 4, trump, played, 0b00001, 0b01110)
    assert card == ace_coins
    # The same trick held by a foe: it gives the worthless card.
    card = pick([four_coins, ace_coins], trick, 0, 4, trump, played, 0b01110, 0b00001)
    assert card == four_coins


def test_the_search_scores_a_hand_by_the_rules_table_of_weights() -> None:
    from briscola_lan.ai.chiamata_search import seat_score
    from briscola_lan.rules.chiamata import weights

    for points, target in ((61, 61), (60, 61), (0, 61), (120, 75), (74, 75)):
        for double in (True, False):
            doubled = double and points in (0, 120)
            for caller, partner in ((0, 2), (3, 3)):
                table = weights(5, caller, partner, points >= target, doubled)
                got = [
                    seat_score(s, caller, partner, points=points, target=target, double=double)
                    for s in range(5)
                ]
                assert got == list(table)
