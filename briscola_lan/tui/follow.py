"""Following the play: a completed trick held on the table until the player has seen it, the
card just drawn, the hand in a sorted order, and who is winning the trick so far.

Pure: ``Follow.observe`` is called with the model after every change and says what to show; the
app owns the timer that ends a held trick (``pause`` seconds, or at once on a key).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from briscola_lan.rules import Card, Suit, trick_winner_index

if TYPE_CHECKING:
    from briscola_lan.rules import TrickTaken
    from briscola_lan.tui.state import TableModel

TRICK_PAUSE = 1.5  # seconds a completed trick stays on the table (``--trick-pause``)


class HandOrder(StrEnum):
    """How the hand is laid out: sorted by suit and strength (trump apart), or as dealt."""

    SORTED = "sorted"
    DEALT = "dealt"


def display_order(
    cards: tuple[Card, ...], trump: Suit | None, order: HandOrder
) -> tuple[Card, ...]:
    """The hand as shown: by suit (the briscola last, apart), strongest first; or as dealt."""
    if order is HandOrder.DEALT:
        return cards

    def key(card: Card) -> tuple[int, int, int]:
        return (1 if card.suit == trump else 0, int(card.suit), int(card.rank))

    return tuple(sorted(cards, key=key))


def winning_seat(trick: tuple[tuple[int, Card], ...], trump: Suit | None) -> int | None:
    """The seat whose card wins the trick so far (the rules' beat rule), None when empty."""
    if not trick or trump is None:
        return None
    return trick[trick_winner_index([c for _, c in trick], trump)][0]


@dataclass(slots=True)
class Follow:
    """What the table screen remembers between changes to follow the play."""

    held: TrickTaken | None = None  # a completed trick still on show
    drawn: Card | None = None  # the card drawn after the last trick (marked in the hand)
    _hand: tuple[int, int] = (-1, 0)  # (hand number, tricks taken) at the last look
    _cards: frozenset[Card] = field(default_factory=frozenset)
    _last: TrickTaken | None = None

    def observe(self, model: TableModel) -> bool:
        """Take in the model after a change; True when a trick just completed (hold it)."""
        taken = sum(model.tricks_won)
        hand = model.hand_number if model.started else -1
        newly = False
        last = model.last_trick
        if hand != self._hand[0]:  # a new hand (or none): nothing held or marked from before
            self.held, self.drawn, self._last = None, None, last
            self._cards = frozenset(model.hand)
        elif (
            last is not None
            and last is not self._last
            and taken == self._hand[1] + 1
            and model.live
        ):
            self.held, newly = last, True
        if last is not self._last:
            self._last = last
        cards = frozenset(model.hand)
        new = cards - self._cards
        if hand == self._hand[0] and len(new) == 1 and len(cards) > len(self._cards) - 1:
            (self.drawn,) = new
        elif self.drawn is not None and self.drawn not in cards:
            self.drawn = None  # played
        self._cards = cards
        self._hand = (hand, taken)
        return newly

    def release(self) -> bool:
        """End the hold (time is up, or a key); True if a trick was on show."""
        was = self.held is not None
        self.held = None
        return was
