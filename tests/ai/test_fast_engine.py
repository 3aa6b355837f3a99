"""The compact engine plays exactly the rules engine's rules, for every player count and variant."""

from __future__ import annotations

import random

import pytest

from briscola_lan.ai.fast import FastHand, random_hand, trick_winner
from briscola_lan.rules import (
    ALL_CARDS,
    CardDealt,
    Hand,
    HandsExchanged,
    TableOptions,
    TrickTaken,
    all_variants,
    deck_for,
    replay_hand,
)

# One option set per distinct hand rule: players, exchange on/off, which 2 is out at 3 players.
# The compact engine plays the games with a stock and an upcard: 2 to 4 players.
HAND_VARIANTS = sorted(
    {(o.players, o.partner_exchange, int(o.removed_two)) for o in all_variants() if o.players < 5}
)


def _options(players: int, exchange: bool, two: int) -> TableOptions:
    fmt = "points" if players == 3 else "hands"
    return TableOptions.make(
        players=players, match_format=fmt, partner_exchange=exchange, removed_two=two
    )


@pytest.mark.parametrize(("players", "exchange", "two"), HAND_VARIANTS)
def test_step_engine_matches_rules_engine(players: int, exchange: bool, two: int) -> None:
    """FastHand and rules.Hand agree on hands, tricks, draws, points and the end, every step."""
    opts = _options(players, exchange, two)
    rng = random.Random(1000 + players * 10 + two + exchange)
    for _ in range(150):
        deck = list(deck_for(players, opts.removed_two))
        rng.shuffle(deck)
        dealer = rng.randrange(players)
        ref = Hand(opts, deck, dealer)
        fast = FastHand.deal([c.code for c in deck], dealer, players, exchange)
        while True:
            assert [sorted(c.code for c in h) for h in ref.hands] == [sorted(h) for h in fast.hands]
            assert ref.stock_left == fast.stock_left
            assert ref.points == fast.points
            assert ref.leader == fast.leader
            assert [c.code for _, c in ref.trick] == fast.trick
            assert (ref.upcard_taken_by if ref.upcard_taken_by is not None else -1) == (
                fast.upcard_taken_by
            )
            assert (ref.exchange_trick if ref.exchange_trick is not None else -1) == (
                fast.exchange_trick
            )
            assert ref.is_terminal == fast.is_terminal
            if ref.is_terminal:
                break
            assert ref.current_player == fast.to_play
            card = rng.choice(ref.legal_plays())
            events = ref.play(ref.current_player, card)
            winner = fast.play(card.code)
            taken = [e for e in events if isinstance(e, TrickTaken)]
            if taken:
                assert winner == taken[0].winner
                drawn = [(e.seat, e.card.code) for e in events if isinstance(e, CardDealt)]
                assert drawn == [(s, fast.hands[s][-1]) for s, _ in drawn]
                assert any(isinstance(e, HandsExchanged) for e in events) == (
                    fast.exchange_trick == fast.tricks_done
                )
            else:
                assert winner == -1
        assert sum(fast.points) == 120
        assert fast.tricks_done == len(ref.tricks)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_hand_loop_matches_rules_engine(players: int) -> None:
    """The benchmarked hot loop: replaying its plays in rules.Hand gives its tricks and points."""
    rng = random.Random(7 + players)
    deck = list(deck_for(players))
    for _ in range(400):
        rng.shuffle(deck)
        dealer = rng.randrange(players)
        trace: list[int] = []
        points = random_hand([c.code for c in deck], dealer, players, rng.random, trace)
        step = players + 1
        tricks = [trace[i : i + step] for i in range(0, len(trace), step)]
        plays = [ALL_CARDS[c] for t in tricks for c in t[:-1]]
        opts = _options(players, True, 0)
        ref = replay_hand(opts, deck, dealer, plays)
        assert ref.is_terminal
        assert [t.winner for t in ref.tricks] == [t[-1] for t in tricks]
        assert list(ref.returns()) == points
        assert sum(points) == 120


def test_trick_winner_examples_from_the_rules_text() -> None:
    """The walkthrough of rules text 002 with clubs (suit 3) as the briscola."""
    ace_h, three_h, king_h, two_c = 10, 11, 12, 39
    assert trick_winner([ace_h, three_h], 0, 2, 3) == 0
    assert trick_winner([king_h, two_c], 0, 2, 3) == 1
    assert trick_winner([25, 3], 1, 2, 3) == 1  # 7♠ led, Q♦ answered: the leader (seat 1) wins
    assert trick_winner([34, 31], 0, 2, 3) == 1  # J♣ led, 3♣ answered


def _rules_card(h: FastHand) -> int:
    """The rules policy's card for the seat to play in ``h``, as a playout step plays it."""
    from briscola_lan.ai.policy import rule_pick

    seat = h.to_play
    return rule_pick(h.hands[seat], h.trick, h.leader, seat, h.n, h.trump, h.played, h.stock_left)


@pytest.mark.parametrize(("players", "exchange", "two"), HAND_VARIANTS)
def test_inlined_playouts_match_step_by_step_play(players: int, exchange: bool, two: int) -> None:
    """The search's inlined playout loop ends every hand exactly where ``FastHand.play`` does."""
    from briscola_lan.ai.policy import mixed_playout, rules_playout

    rng = random.Random(players * 10 + two)
    deck = [c.code for c in deck_for(players, two)]
    for game in range(40):
        rng.shuffle(deck)
        start = FastHand.deal(deck, game % players, players, exchange)
        for _ in range(rng.randrange(len(deck) // 2)):  # start from a position mid-hand
            seat = start.to_play
            start.play(start.hands[seat][rng.randrange(len(start.hands[seat]))])
        random_seats = frozenset({1}) if game % 2 else frozenset()
        stream = rng.random()
        fused = start.clone()
        if random_seats:
            mixed_playout(fused, random_seats, random.Random(stream).random)
        else:
            rules_playout(fused)
        stepped = start.clone()
        draw = random.Random(stream).random
        while stepped.to_play >= 0:
            seat = stepped.to_play
            held = stepped.hands[seat]
            if len(held) > 1 and seat in random_seats:
                card = held[int(draw() * len(held))]
            else:
                card = _rules_card(stepped)
            stepped.play(card)
        for name in FastHand.__slots__:
            assert getattr(fused, name) == getattr(stepped, name), name


@pytest.mark.parametrize(("players", "exchange", "two"), HAND_VARIANTS)
def test_playout_to_last_draw_stops_where_the_stock_runs_out(
    players: int, exchange: bool, two: int
) -> None:
    """``rules_playout_to_last_draw`` leaves the hand exactly where step-by-step rules play is
    at the start of the first trick with the stock empty (every hand full, nothing on the
    table), and a full playout from there ends as one from the start does."""
    from briscola_lan.ai.policy import rules_playout, rules_playout_to_last_draw

    rng = random.Random(players * 100 + two)
    deck = [c.code for c in deck_for(players, two)]
    for game in range(40):
        rng.shuffle(deck)
        start = FastHand.deal(deck, game % players, players, exchange)
        for _ in range(rng.randrange(len(deck))):  # from anywhere in the hand, the end included
            if start.to_play < 0:
                break
            start.play(start.hands[start.to_play][0])
        cut = start.clone()
        rules_playout_to_last_draw(cut)
        stepped = start.clone()
        while stepped.to_play >= 0 and (stepped.stock_left > 0 or stepped.trick):
            if stepped.stock_left == 0 and start.stock_left == 0:
                break  # the stock was already empty: nothing is played
            stepped.play(_rules_card(stepped))
        for name in FastHand.__slots__:
            assert getattr(cut, name) == getattr(stepped, name), name
        if start.stock_left > 0:
            assert cut.stock_left == 0 and not cut.trick
            assert all(len(h) == len(cut.hands[0]) > 0 for h in cut.hands)
        full = start.clone()
        rules_playout(full)
        rules_playout(cut)
        assert cut.points == full.points


def test_a_playout_with_the_seats_own_rules_plays_them_for_that_seat() -> None:
    """``rules_playout_to_last_draw(h, own_seat)`` (the strong level's playouts at 2 players)
    plays ``own_pick`` for ``own_seat`` and ``rule_pick`` for the other, to the same stop as
    step-by-step play; the two policies part in some of these hands, so the test can tell."""
    from briscola_lan.ai.policy import own_pick, rules_playout_to_last_draw

    rng = random.Random(7)
    deck = [c.code for c in deck_for(2, 0)]
    parted = 0
    for game in range(60):
        rng.shuffle(deck)
        start = FastHand.deal(deck, game % 2, 2, False)
        for _ in range(rng.randrange(20)):
            start.play(start.hands[start.to_play][0])
        own = game % 2
        cut = start.clone()
        rules_playout_to_last_draw(cut, own)
        stepped = start.clone()
        while stepped.stock_left > 0 or stepped.trick:
            seat = stepped.to_play
            card = _rules_card(stepped)
            if seat == own:
                mine = own_pick(
                    stepped.hands[seat],
                    stepped.trick,
                    stepped.leader,
                    seat,
                    2,
                    stepped.trump,
                    stepped.played,
                    stepped.stock_left,
                )
                parted += mine != card
                card = mine
            stepped.play(card)
        for name in FastHand.__slots__:
            assert getattr(cut, name) == getattr(stepped, name), name
    assert parted > 0
