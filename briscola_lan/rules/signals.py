"""What the signals between partners say (the "segni" of Briscola in four, a table option at 4
players): the traditional signals, one per holding, and which hands could truthfully make each.

Nothing checks that a signal is true: a player may bluff. ``truthful`` is what an honest AI
partner signals; ``consistent`` is what an AI that believes its partner may assume.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum

from briscola_lan.rules.cards import Card, Rank, Suit


class SignalValue(IntEnum):
    """What a signal says (fairness.md §12.2): the traditional signals, one per holding."""

    ACE_OF_TRUMPS = 1  # "I hold the ace of trumps"
    THREE_OF_TRUMPS = 2  # "I hold the three of trumps"
    TRUMP_FIGURE = 3  # "I hold the king, knight or jack of trumps"
    SMALL_TRUMP = 4  # "I hold a small trump" (7 down to 2)
    CARICO = 5  # "I hold a carico" (an ace or a three of another suit)
    NOTHING = 6  # "nothing": no trump and no carico


_FIGURES = (Rank.KING, Rank.QUEEN, Rank.JACK)
_CARICHI = (Rank.ACE, Rank.THREE)


def truthful(hand: Iterable[Card], trump: Suit) -> SignalValue:
    """The signal that tells the best thing a hand holds (what an honest AI partner says)."""
    cards = list(hand)
    trumps = {c.rank for c in cards if c.suit is trump}
    if Rank.ACE in trumps:
        return SignalValue.ACE_OF_TRUMPS
    if Rank.THREE in trumps:
        return SignalValue.THREE_OF_TRUMPS
    if trumps & set(_FIGURES):
        return SignalValue.TRUMP_FIGURE
    if trumps:
        return SignalValue.SMALL_TRUMP
    if any(c.rank in _CARICHI for c in cards):
        return SignalValue.CARICO
    return SignalValue.NOTHING


def consistent(value: SignalValue, hand: Iterable[Card], trump: Suit) -> bool:
    """Whether a hand could truthfully make ``value`` (it holds what the signal says; NOTHING:
    no trump and no carico). Used by an AI that believes its partner's signals."""
    cards = list(hand)
    ranks = {c.rank for c in cards if c.suit is trump}
    if value is SignalValue.ACE_OF_TRUMPS:
        return Rank.ACE in ranks
    if value is SignalValue.THREE_OF_TRUMPS:
        return Rank.THREE in ranks
    if value is SignalValue.TRUMP_FIGURE:
        return bool(ranks & set(_FIGURES))
    if value is SignalValue.SMALL_TRUMP:
        return any(r not in (Rank.ACE, Rank.THREE, *_FIGURES) for r in ranks)
    if value is SignalValue.CARICO:
        return any(c.rank in _CARICHI and c.suit is not trump for c in cards)
    return not ranks and not any(c.rank in _CARICHI for c in cards)


__all__ = ["SignalValue", "consistent", "truthful"]
