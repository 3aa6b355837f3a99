"""Following the play: a completed trick held on the table until the player has seen it, the
card just drawn, the hand in a sorted order, and who is winning the trick so far.

Pure: ``Follow.see`` takes the play's events as the table's backend passes them on (a new hand,
cards received or played, a trick taken: ``table/events.py``) and says what to show; the app
owns the timer that ends a held trick (``pause`` seconds, or at once on a key).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from briscola_lan.rules import Card, Suit, trick_winner_index

if TYPE_CHECKING:
    from briscola_lan.rules import TrickTaken
    from briscola_lan.table.events import Event

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

    def see(self, events: Iterable[Event]) -> bool:
        """Take in the play's events since the last look; True when a trick was just taken
        (hold it: the last one, if several came at once)."""
        from briscola_lan.table import events as ev  # with the first table, not the lobby

        newly = False
        for e in events:
            if isinstance(e, ev.HandStarted):  # nothing held or marked from the last hand
                self.held, self.drawn, newly = None, None, False
            elif isinstance(e, ev.TrickTaken):
                self.held, newly = e.trick, True
            elif isinstance(e, ev.CardsReceived) and e.drawn and e.cards:
                self.drawn = e.cards[-1]
            elif isinstance(e, ev.CardPlayed) and e.mine and e.card == self.drawn:
                self.drawn = None
        return newly

    def release(self) -> bool:
        """End the hold (time is up, or a key); True if a trick was on show."""
        was = self.held is not None
        self.held = None
        return was
