"""The hand state machine: deal schedule, turn order, draws, exchange, errors, views, replay."""

from __future__ import annotations

import random

import pytest

from briscola_lan.rules import (
    ALL_CARDS,
    Card,
    CardDealt,
    Hand,
    HandEnded,
    HandsExchanged,
    IllegalPlay,
    NotYourTurn,
    RulesError,
    Suit,
    TableOptions,
    deck_for,
    replay_hand,
)


def _deck(players: int, seed: int, removed_two: Suit = Suit.COINS) -> list[Card]:
    deck = list(deck_for(players, removed_two))
    random.Random(seed).shuffle(deck)
    return deck


@pytest.mark.parametrize("players", [2, 3, 4])
def test_initial_deal_follows_public_schedule(players: int) -> None:
    opts = TableOptions.make(players=players, match_format="points" if players == 3 else "hands")
    deck = _deck(players, 1)
    hand = Hand(opts, deck, dealer=players - 1)
    dealt = [e for e in hand.deal_events if isinstance(e, CardDealt)]
    assert len(dealt) == 3 * players
    for ev in dealt:
        r, i = divmod(ev.position, players)
        assert ev.seat == (players - 1 + 1 + i) % players
        assert deck[ev.position] == ev.card
        assert r < 3
    assert hand.upcard == deck[3 * players]
    assert hand.trump == deck[3 * players].suit
    assert hand.current_player == 0  # left of the dealer leads


def test_three_players_use_39_cards_without_the_announced_two() -> None:
    deck = deck_for(3, Suit.SWORDS)
    assert len(deck) == 39
    assert Card.parse("2♠") not in deck
    assert sum(c.points for c in deck) == 120


def test_deck_must_match_the_pack() -> None:
    opts = TableOptions.make(players=3, match_format="points", removed_two=Suit.CUPS)
    with pytest.raises(RulesError):
        Hand(opts, _deck(3, 1, Suit.COINS), 0)
    with pytest.raises(RulesError):
        Hand(TableOptions.make(players=2), [*ALL_CARDS[:39], ALL_CARDS[0]], 0)


def test_out_of_turn_and_unheld_cards_raise_and_change_nothing() -> None:
    hand = Hand(TableOptions.make(players=2), _deck(2, 3), dealer=0)
    before = hand.view(0), hand.view(1)
    not_turn = hand.view(0).hand[0]
    with pytest.raises(NotYourTurn):
        hand.play(0, not_turn)
    other = hand.view(0).hand[0]
    with pytest.raises(IllegalPlay):
        hand.play(1, other)
    assert (hand.view(0), hand.view(1)) == before


def test_winner_draws_first_and_last_draw_takes_the_upcard() -> None:
    opts = TableOptions.make(players=2)
    deck = _deck(2, 7)
    hand = Hand(opts, deck, dealer=1)
    draws: list[CardDealt] = []
    rng = random.Random(0)
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        events = hand.play(seat, rng.choice(hand.legal_plays()))
        round_draws = [e for e in events if isinstance(e, CardDealt)]
        if round_draws:
            winner = hand.tricks[-1].winner
            assert round_draws[0].seat == winner
            assert hand.current_player == winner
        draws.extend(round_draws)
    positions = [d.position for d in draws]
    assert positions == [*range(7, 40), 6]
    assert draws[-1].card == hand.upcard
    assert hand.upcard_taken_by == draws[-1].seat
    assert len(hand.tricks) == 20
    assert sum(hand.returns()) == 120


def test_partner_exchange_shows_partner_hand_when_stock_runs_out() -> None:
    opts = TableOptions.make(players=4)
    hand = Hand(opts, _deck(4, 11), dealer=0)
    rng = random.Random(5)
    seen_exchange = False
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        events = hand.play(seat, rng.choice(hand.legal_plays()))
        for ev in events:
            if isinstance(ev, HandsExchanged):
                seen_exchange = True
                assert hand.stock_left == 0
                assert len(hand.tricks) == 7
                for s in range(4):
                    assert ev.shown[s] == tuple(hand.hands[s])
                    assert hand.view(s).partner_shown == tuple(hand.hands[(s + 2) % 4])
    assert seen_exchange
    assert isinstance(events[-1], HandEnded)


def test_no_exchange_option_shows_nothing() -> None:
    opts = TableOptions.make(players=4, partner_exchange=False)
    hand = Hand(opts, _deck(4, 2), dealer=3)
    rng = random.Random(1)
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        for ev in hand.play(seat, rng.choice(hand.legal_plays())):
            assert not isinstance(ev, HandsExchanged)
        assert hand.view(seat).partner_shown is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_replay_rebuilds_the_same_hand(players: int) -> None:
    opts = TableOptions.make(players=players, match_format="points")
    deck = _deck(players, players)
    hand = Hand(opts, deck, dealer=1)
    rng = random.Random(players)
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, rng.choice(hand.legal_plays()))
    again = replay_hand(opts, deck, 1, hand.plays)
    assert again.returns() == hand.returns()
    assert again.tricks == hand.tricks
    with pytest.raises(IllegalPlay):
        replay_hand(opts, deck, 1, [*hand.plays, hand.plays[0]])


def test_view_holds_only_own_cards() -> None:
    hand = Hand(TableOptions.make(players=4), _deck(4, 9), dealer=0)
    for seat in range(4):
        view = hand.view(seat)
        assert set(view.hand) == set(hand.hands[seat])
        others = {c for s in range(4) if s != seat for c in hand.hands[s]}
        assert not others & set(view.hand)
        assert view.legal_plays == (() if seat != hand.current_player else view.legal_plays)
