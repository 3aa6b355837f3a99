"""The exact endgame solver agrees with plain brute-force minimax on random small positions."""

from __future__ import annotations

import random

import pytest

from briscola_lan.ai.fast import POINTS, FastHand
from briscola_lan.ai.leaf import Leaf, held_cards
from briscola_lan.ai.solver import Solver, solve
from briscola_lan.rules import deck_for


def _brute(h: FastHand, side: int) -> int:
    """Points ``side`` takes from here on, by exhaustive minimax without any memo."""
    if h.is_terminal:
        return 0
    maximise = h.sides[h.to_play] == side
    vals = []
    for c in h.hands[h.to_play]:
        x = h.clone()
        before = x.points[side]
        x.play(c)
        vals.append(x.points[side] - before + _brute(x, side))
    return max(vals) if maximise else min(vals)


def _position(players: int, rng: random.Random, cards_left_in_stock: int) -> FastHand:
    deck = [c.code for c in deck_for(players)]
    rng.shuffle(deck)
    h = FastHand.deal(deck, rng.randrange(players), players)
    while h.stock_left > cards_left_in_stock or (h.trick and h.stock_left == cards_left_in_stock):
        h.play(rng.choice(h.hands[h.to_play]))
    # Stop somewhere inside the first remaining trick, so positions with a partial trick occur.
    for _ in range(rng.randrange(players)):
        h.play(rng.choice(h.hands[h.to_play]))
    return h


@pytest.mark.parametrize(("players", "stock"), [(2, 0), (2, 2), (2, 4), (3, 0), (4, 0)])
def test_solver_matches_brute_force(players: int, stock: int) -> None:
    rng = random.Random(players * 100 + stock)
    for _ in range(25 if players < 4 else 6):
        h = _position(players, rng, stock)
        side = h.sides[h.to_play]
        values = solve(h, side)
        assert sorted(values) == sorted(h.hands[h.to_play])
        for c, v in values.items():
            x = h.clone()
            before = x.points[side]
            x.play(c)
            assert v == x.points[side] - before + _brute(x, side)


def test_solver_sees_a_forced_win() -> None:
    """2 players, last trick: the solver's value is exactly the points of that trick if won."""
    h = FastHand.deal(list(range(40)), 0, 2)
    while len(h.hands[0]) + len(h.hands[1]) > 2 or h.trick:
        h.play(h.hands[h.to_play][0])
    side = h.sides[h.to_play]
    (card,) = h.hands[h.to_play]
    x = h.clone()
    x.play(card)
    x.play(x.hands[x.to_play][0])
    assert solve(h, side) == {card: x.points[side] - h.points[side]}


def _leaf(masks: list[int], si: int, leader: int, rem: int) -> float:
    """A leaf value that depends on the position: any value in [0, rem] that is the same for
    positions the solver treats as one (zero-point cards of a suit with none ranked between)."""
    held = sum(POINTS[k] for k in range(40) if masks[0] >> k & 1)
    return rem * ((held + si + leader) % 7) / 6


def _brute_to(h: FastHand, side: int, depth: int, leaf: Leaf = _leaf) -> float:
    """Brute-force minimax ``depth`` tricks ahead (the current one included), ``leaf`` beyond."""
    if h.is_terminal:
        return 0
    vals = [_brute_after(h, c, side, depth, leaf) for c in h.hands[h.to_play]]
    return max(vals) if h.sides[h.to_play] == side else min(vals)


def _brute_after(h: FastHand, c: int, side: int, depth: int, leaf: Leaf = _leaf) -> float:
    """``_brute_to`` after the seat to play plays ``c``: the points it brings, and beyond."""
    x = h.clone()
    before, done = x.points[side], x.tricks_done
    x.play(c)
    got = x.points[side] - before
    if x.tricks_done == done:
        return got + _brute_to(x, side, depth, leaf)
    if x.is_terminal:
        return got
    if depth <= 1:
        rem = sum(POINTS[k] for k in (*x.stock[x.si :], *(k for y in x.hands for k in y)))
        masks = [sum(1 << k for k in y) for y in x.hands]
        return got + leaf(masks, x.si, x.leader, rem)
    return got + _brute_to(x, side, depth - 1, leaf)


def _same_leaf(h: FastHand, side: int) -> Leaf:
    return _leaf


def test_a_horizon_search_asks_its_leaf_model_for_the_deal_and_its_side() -> None:
    """A leaf may depend on the deal (its trump) and on whose points it values: the search asks
    its model once, for the deal it searches and the side it searches for."""
    h = _position(2, random.Random(3), 6)
    asked: list[tuple[FastHand, int]] = []

    def model(deal: FastHand, side: int) -> Leaf:
        asked.append((deal, side))
        return _leaf

    side = h.sides[h.to_play]
    Solver(h, side, 2, model).values(h)
    assert asked == [(h, side)]


@pytest.mark.parametrize(("players", "stock"), [(2, 4), (2, 6), (4, 0)])
def test_a_horizon_search_matches_brute_force_to_the_same_horizon(players: int, stock: int) -> None:
    rng = random.Random(players * 1000 + stock)
    for _ in range(12 if players < 4 else 4):
        h = _position(players, rng, stock)
        side = h.sides[h.to_play]
        for depth in (1, 2, 3):
            values = Solver(h, side, depth, _same_leaf).values(h)
            for c, v in values.items():
                assert v == pytest.approx(_brute_after(h, c, side, depth))
            # The fitted leaf (``ai/leaf.py``), given for the deal and the side, the same way.
            values = Solver(h, side, depth, held_cards).values(h)
            bound = held_cards(h, side)
            for c, v in values.items():
                assert v == pytest.approx(_brute_after(h, c, side, depth, bound))
        # A horizon past the end of the hand is the exact search.
        assert Solver(h, side, 20, _same_leaf).values(h) == solve(h, side)
    with pytest.raises(ValueError, match="needs a leaf"):
        Solver(h, side, 3)
