"""Learn mode: the four example tricks of rules text 002, judged by the rules engine.

The cards and the lesson of each trick come from the text; the winner and the points are computed
with ``rules.trick_winner_index`` and the card values, never written down here.
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.rules import Card, Suit, trick_winner_index

LEARN_TRUMP = Suit.CLUBS


@dataclass(frozen=True, slots=True)
class LearnTrick:
    """One example trick: you lead, the opponent answers, and the lesson it teaches."""

    led: Card
    answered: Card
    lesson: str

    @property
    def cards(self) -> tuple[Card, Card]:
        return (self.led, self.answered)

    @property
    def winner_index(self) -> int:
        """0 if the card led wins, 1 if the answer wins (computed by the rules engine)."""
        return trick_winner_index(self.cards, LEARN_TRUMP)

    @property
    def winner_card(self) -> Card:
        return self.cards[self.winner_index]

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)


LEARN_TRICKS: tuple[LearnTrick, ...] = (
    LearnTrick(
        Card.parse("Ah"),
        Card.parse("3h"),
        "No briscola was played, so the highest heart wins.",
    ),
    LearnTrick(
        Card.parse("Kh"),
        Card.parse("2c"),
        "Clubs are the briscola: a briscola beats any card of another suit, even the lowest one.",
    ),
    LearnTrick(
        Card.parse("7s"),
        Card.parse("Qd"),
        "Only the suit led or a briscola can win: the Queen of another suit cannot.",
    ),
    LearnTrick(
        Card.parse("Jc"),
        Card.parse("3c"),
        "The 3 outranks the K, Q and J: the order is A 3 K Q J 7 6 5 4 2.",
    ),
)

LEARN_INTRO = (
    "Briscola is played with 40 cards: A 3 K Q J 7 6 5 4 2 in each suit.",
    "Points: Ace 11, Three 10, King 4, Queen 3, Jack 2, the rest 0 (120 in all).",
    "The upcard's suit is the briscola (trump). You need not follow suit.",
    "The highest briscola wins a trick; with none, the highest card of the suit led.",
    "61 or more of the 120 points wins a hand; 60-60 is nobody's.",
)


def describe(trick: LearnTrick, ascii_only: bool) -> str:
    """One sentence with the result, built from what the engine computed."""
    who = "You win" if trick.winner_index == 0 else "Your opponent wins"
    parts = " + ".join(str(c.points) for c in trick.cards if c.points)
    pts = f"{parts} = {trick.points}" if parts.count("+") else str(trick.points)
    return (
        f"{trick.winner_card.label(ascii_only)} wins the trick. {who} {pts} point"
        f"{'' if trick.points == 1 else 's'}."
    )
