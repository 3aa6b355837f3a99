"""The drawn partnerships and drawn first dealer: one card per seat from a verifiable shuffle.

Before the first hand, when the table draws partners and/or the first dealer, every seat draws
one card from the table's pack shuffled by shuffle v1 with the draw seed (protocol/fairness.md
§7a): lobby seat ``i`` draws deck position ``i``. Cards compare by Briscola strength (A, 3, K, Q,
J, 7 ... 2); between equal ranks the lower suit code (coins, cups, swords, clubs) is higher, so
there are no ties. Pure and deterministic: the same seeds always give the same seating.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from briscola_lan.fairness.shuffle import shuffle_codes


@dataclass(frozen=True, slots=True)
class DrawResult:
    """Card drawn per lobby seat, the new seat of each lobby seat, and the first dealer."""

    cards: tuple[int, ...]  # card code drawn by lobby seat i
    seating: tuple[int, ...]  # seating[i]: the match seat of the player in lobby seat i
    dealer: int  # the first dealer, as a match seat


def draw_key(code: int) -> tuple[int, int]:
    """Sort key, highest card first: rank in strength order (0 = ace), then suit code."""
    return code % 10, code // 10


def strength_order(cards: Sequence[int]) -> list[int]:
    """Lobby seats from the highest card drawn to the lowest."""
    return sorted(range(len(cards)), key=lambda s: draw_key(cards[s]))


def seating_for(cards: Sequence[int], draw_partners: bool) -> tuple[int, ...]:
    """Match seat of every lobby seat.

    Without a partnership draw nobody moves. With one (4 players) the two highest cards play
    against the two lowest: the pair holding lobby seat 0 takes seats 0 (the lobby seat-0 player)
    and 2 (its partner); the other pair takes seats 1 and 3, the lower lobby seat taking seat 1.
    """
    n = len(cards)
    if not draw_partners:
        return tuple(range(n))
    if n != 4:
        raise ValueError("partnerships are drawn only at 4 players")
    order = strength_order(cards)
    high, low = set(order[:2]), set(order[2:])
    mine, other = (high, low) if 0 in high else (low, high)
    seating = [0] * 4
    (partner,) = mine - {0}
    seating[partner] = 2
    first, second = sorted(other)
    seating[first], seating[second] = 1, 3
    return tuple(seating)


def draw(
    pack: Sequence[int], seed: bytes, players: int, *, draw_partners: bool, draw_dealer: bool
) -> DrawResult:
    """The whole draw from the draw seed: cards, seating and first dealer (seat 0 if not drawn)."""
    if not 2 <= players <= len(pack):
        raise ValueError(f"cannot draw for {players} players")
    deck = shuffle_codes(pack, seed)
    cards = tuple(deck[:players])
    seating = seating_for(cards, draw_partners)
    dealer = seating[strength_order(cards)[0]] if draw_dealer else 0
    return DrawResult(cards, seating, dealer)


__all__ = ["DrawResult", "draw", "draw_key", "seating_for", "strength_order"]
