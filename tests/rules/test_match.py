"""Match formats: 'hands' (first to N, 60-60 nobody's) and 'points' (totals, tie-break hands)."""

from __future__ import annotations

import random

import pytest

from briscola_lan.rules import (
    Hand,
    Match,
    MatchOver,
    OptionsError,
    RulesError,
    Suit,
    TableOptions,
    all_variants,
    deck_for,
)


def test_hands_format_first_to_n_and_sixty_all_counts_for_nobody() -> None:
    m = Match(TableOptions.make(players=2, hands_to_win=2), first_dealer=0)
    assert m.record_points([60, 60]).winner is None
    assert not m.is_over
    m.record_points([61, 59])
    assert not m.is_over
    m.record_points([10, 110])
    assert not m.is_over
    m.record_points([70, 50])
    assert m.is_over
    assert m.winner == 0
    assert m.hands_won() == (2, 1)
    with pytest.raises(MatchOver):
        m.record_points([60, 60])


def test_deal_passes_left() -> None:
    m = Match(TableOptions.make(players=4, hands_to_win=5), first_dealer=2)
    dealers = []
    for _ in range(5):
        dealers.append(m.next_dealer)
        m.record_points([60, 60])
    assert dealers == [2, 3, 0, 1, 2]


def test_points_format_three_players_three_hands_most_points_wins() -> None:
    m = Match(TableOptions.make(players=3, match_format="points"))
    m.record_points([40, 40, 40])
    m.record_points([50, 30, 40])
    assert not m.is_over
    m.record_points([30, 40, 50])
    assert m.total_points() == (120, 110, 130)
    assert m.winner == 2


def test_points_tie_needs_tiebreak_hand_and_only_tied_sides_count() -> None:
    m = Match(TableOptions.make(players=3, match_format="points"))
    m.record_points([50, 50, 20])
    m.record_points([40, 40, 40])
    m.record_points([30, 30, 60])  # totals 120, 120, 120: a three-way tie
    assert not m.is_over
    assert m.next_is_tiebreak
    m.record_points([45, 45, 30])  # still tied between seats 0 and 1
    assert not m.is_over
    m.record_points([20, 30, 70])  # seat 2 is out of it; seat 1 beats seat 0
    assert m.winner == 1


def test_points_two_sides_tie_then_tiebreak() -> None:
    m = Match(TableOptions.make(players=4, match_format="points"))
    m.record_points([70, 50])
    m.record_points([50, 70])
    assert not m.is_over
    m.record_points([60, 60])
    assert not m.is_over
    m.record_points([59, 61])
    assert m.winner == 1
    assert m.total_points() == (120, 120)


def test_invalid_options_are_refused_with_a_reason() -> None:
    with pytest.raises(OptionsError, match="2, 3, 4 or 5"):
        TableOptions.make(players=6)
    with pytest.raises(OptionsError, match=r"5 players .* play the 'total' format"):
        TableOptions.make(players=5)
    with pytest.raises(OptionsError, match="3 players play the 'points'"):
        TableOptions.make(players=3, match_format="hands")
    with pytest.raises(OptionsError, match="1 to 5"):
        TableOptions.make(players=2, hands_to_win=6)


def test_every_variant_round_trips_through_dict() -> None:
    variants = all_variants()
    assert len(variants) == len(set(variants))
    for opts in variants:
        assert TableOptions.from_dict(opts.to_dict()) == opts


def _played(options: TableOptions, dealer: int, seed: int) -> Hand:
    """A hand played to its end, each seat playing its first legal card."""
    deck = list(deck_for(options.players, options.removed_two))
    random.Random(seed).shuffle(deck)
    hand = Hand(options, deck, dealer)
    while (seat := hand.current_player) is not None:
        hand.play(seat, hand.legal_plays()[0])
    return hand


def test_record_takes_the_hands_of_the_match_in_order() -> None:
    opts = TableOptions.make(players=2, hands_to_win=5)
    m = Match(opts, first_dealer=1)
    for k in range(4):
        hand = _played(opts, m.next_dealer, k)
        result = m.record(hand)
        assert (result.number, result.dealer, result.points) == (k, (1 + k) % 2, hand.returns())


def test_record_refuses_the_same_hand_twice() -> None:
    opts = TableOptions.make(players=2, hands_to_win=5)
    m = Match(opts)
    first = _played(opts, 0, 1)
    m.record(first)
    m.record(_played(opts, 1, 2))
    assert m.next_dealer == first.dealer  # the deal is back at seat 0: only the hand is wrong
    with pytest.raises(RulesError, match="already recorded"):
        m.record(first)
    assert len(m.results) == 2


@pytest.mark.parametrize("players", [2, 3, 4])
def test_record_refuses_a_hand_from_the_wrong_dealer(players: int) -> None:
    opts = TableOptions.make(players=players, match_format="points" if players == 3 else "hands")
    m = Match(opts, first_dealer=players - 1)
    for dealer in range(players):
        if dealer == m.next_dealer:
            continue
        with pytest.raises(RulesError, match=f"dealt by seat {players - 1}, not seat {dealer}"):
            m.record(_played(opts, dealer, dealer))
    assert m.results == []
    m.record(_played(opts, players - 1, 0))
    with pytest.raises(RulesError, match="dealt by seat 0, not seat 1"):
        m.record(_played(opts, 1, 1))


def test_record_refuses_a_hand_with_other_options() -> None:
    opts = TableOptions.make(players=4, hands_to_win=2)
    m = Match(opts)
    for other in (
        TableOptions.make(players=4, hands_to_win=3),
        TableOptions.make(players=4, hands_to_win=2, partner_exchange=False),
        TableOptions.make(players=4, match_format="points"),
    ):
        with pytest.raises(RulesError, match="other rules"):
            m.record(_played(other, 0, 3))
    with pytest.raises(RulesError, match="other rules"):
        m.record(_played(TableOptions.make(players=2, hands_to_win=2), 0, 3))
    assert m.results == []
    # Equal rules are the same rules: an option without effect at 4 players changes nothing.
    same = TableOptions.make(players=4, hands_to_win=2, removed_two=Suit.CLUBS)
    assert m.record(_played(same, 0, 3)).number == 0


def test_record_refuses_an_unfinished_hand() -> None:
    opts = TableOptions.make(players=2)
    deck = list(deck_for(2))
    with pytest.raises(RulesError, match="only a finished hand"):
        Match(opts).record(Hand(opts, deck, 0))
