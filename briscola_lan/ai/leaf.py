"""A horizon search's leaf: what the points still to play beyond the horizon are worth to a side.

A horizon search (``ai/solver.py``, ``Solver(depth=...)``) stops some tricks ahead and asks a
leaf for the rest of the hand; a ``LeafModel`` gives the leaf for one deal and one side, so that
a leaf may read the deal (its trump) and know whose points it values. ``even_split`` shares the
points still to play evenly, whoever holds what (the hint's early search, the ``solver`` level).
``held_cards`` (the review's early judging) adds what the cards each side holds there are worth:
a linear function of the two hands (who leads, trumps, their points, the ace and three of
trumps, the plain aces and threes, the points held), fitted on two-player positions at the start
of a trick with 2 to 22 cards in the stock, each solved exactly to the end
(``benchmarks/fit_leaf.py`` makes the positions, fits the weights and prints their error against
the even split's). At 3 and 4 players it is the even split.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from briscola_lan.ai.fast import POINTS, FastHand
from briscola_lan.ai.policy import rule_pick

# A leaf's value: (hand masks by seat, stock position, the seat to lead, points still to play)
# -> the points the searching side takes from there on, between 0 and the points still to play.
Leaf = Callable[[list[int], int, int, int], float]
# What gives a horizon search its leaf for one deal and one side: (the deal, the side) -> Leaf.
LeafModel = Callable[[FastHand, int], Leaf]


def _half(masks: list[int], si: int, leader: int, rem: int) -> float:
    return rem / 2


def even_split(h: FastHand, side: int) -> Leaf:
    """The points still to play beyond the horizon, shared evenly."""
    return _half


# ``held_cards``' weights (``benchmarks/fit_leaf.py``, its default run): points for the side
# over an even split of what is left, per unit of each of ``held_features``.
HELD_WEIGHTS: tuple[float, ...] = (-0.052, 2.241, 0.790, -0.726, 1.638, -0.099)

# The stock sizes of the positions the weights are fitted on: the leaves a search 6 tricks ahead
# reaches from 14 to 32 cards in the stock, where the review searches that way.
FIT_STOCKS = tuple(range(2, 24, 2))

_SUIT = (1 << 10) - 1
# The points of a suit's cards, by the 10-bit pattern of ranks held (a code is suit * 10 + rank).
_SUIT_POINTS = tuple(
    sum(POINTS[r] for r in range(10) if pattern >> r & 1) for pattern in range(1 << 10)
)


def _points(mask: int) -> int:
    """The card points of the cards in ``mask``."""
    sp = _SUIT_POINTS
    return sp[mask & _SUIT] + sp[mask >> 10 & _SUIT] + sp[mask >> 20 & _SUIT] + sp[mask >> 30]


def _trumps(trump: int) -> tuple[int, int, int]:
    """The masks of the trump suit, of its ace and three, and of the other suits' aces and threes
    (rank 0 is the ace, rank 1 the three)."""
    suit = _SUIT << (trump * 10)
    top = 0b11 << (trump * 10)
    carichi = sum(0b11 << (s * 10) for s in range(4) if s != trump)
    return suit, top, carichi


def held_features(me: int, other: int, trump: int, leads: bool) -> tuple[int, ...]:
    """The features of a position for the side holding ``me`` (a hand mask) against the side
    holding ``other``: on lead (1, else -1), then the side's count minus the other's of trumps,
    points of trumps, the ace and three of trumps, plain aces and threes, and points held."""
    suit, top, carichi = _trumps(trump)
    return (
        1 if leads else -1,
        (me & suit).bit_count() - (other & suit).bit_count(),
        _points(me & suit) - _points(other & suit),
        (me & top).bit_count() - (other & top).bit_count(),
        (me & carichi).bit_count() - (other & carichi).bit_count(),
        _points(me) - _points(other),
    )


def held_value(me: int, other: int, trump: int, leads: bool, rem: int) -> float:
    """``held_cards``' value, the reference: half of ``rem`` plus the weighted features, kept
    between 0 and ``rem``."""
    f = held_features(me, other, trump, leads)
    v = rem / 2 + sum(w * x for w, x in zip(HELD_WEIGHTS, f, strict=True))
    return min(max(v, 0.0), float(rem))


def _card_weight(card: int, trump: int) -> float:
    """What one held card adds to ``held_value``: every feature but the lead is a sum over the
    cards held (trumps, their points, the ace and three of trumps, plain aces and threes,
    points)."""
    _lead, w_trumps, w_trump_points, w_top, w_carichi, w_points = HELD_WEIGHTS
    suit, rank = divmod(card, 10)
    points = POINTS[card]
    if suit == trump:
        return w_trumps + w_trump_points * points + (w_top if rank < 2 else 0.0) + w_points * points
    return (w_carichi if rank < 2 else 0.0) + w_points * points


# _HELD[trump][suit][pattern]: what the cards of ``suit`` held in ``pattern`` (10 bits, one a
# rank) add to ``held_value`` with ``trump`` trumps.
_HELD: tuple[tuple[tuple[float, ...], ...], ...] = tuple(
    tuple(
        tuple(
            sum(_card_weight(suit * 10 + r, trump) for r in range(10) if pattern >> r & 1)
            for pattern in range(1 << 10)
        )
        for suit in range(4)
    )
    for trump in range(4)
)


def held_cards(h: FastHand, side: int) -> Leaf:
    """The fitted leaf for ``side`` in the deal ``h`` (its trump); the even split at 3 and 4
    players. The same value as ``held_value``, from tables of what each suit's cards held add
    (the search calls it at every leaf; a test compares the two)."""
    if h.n != 2:
        return _half
    t0, t1, t2, t3 = _HELD[h.trump]
    full = _SUIT
    lead = HELD_WEIGHTS[0]
    other = 1 - side

    def leaf(masks: list[int], si: int, leader: int, rem: int) -> float:
        me, them = masks[side], masks[other]
        v = (
            rem / 2
            + (lead if leader == side else -lead)
            + t0[me & full]
            + t1[me >> 10 & full]
            + t2[me >> 20 & full]
            + t3[me >> 30]
            - t0[them & full]
            - t1[them >> 10 & full]
            - t2[them >> 20 & full]
            - t3[them >> 30]
        )
        return 0.0 if v < 0 else (rem if v > rem else v)

    return leaf


def played_to(rng: random.Random, stock: int | None = None) -> FastHand:
    """A position of the kind the weights are fitted on: a 2-player hand dealt from ``rng``,
    played by the rules policy (a random legal card one time in four, so that the hands vary)
    to the start of a trick with ``stock`` cards in the stock (None: one of ``FIT_STOCKS``,
    drawn from ``rng``)."""
    deck = list(range(40))
    rng.shuffle(deck)
    h = FastHand.deal(deck, rng.randrange(2), 2)
    target = rng.choice(FIT_STOCKS) if stock is None else stock
    while h.stock_left > target or h.trick:
        hand = h.hands[h.to_play]
        if rng.random() < 0.25:
            card = rng.choice(hand)
        else:
            card = rule_pick(hand, h.trick, h.leader, h.to_play, 2, h.trump, h.played, h.stock_left)
        h.play(card)
    return h
