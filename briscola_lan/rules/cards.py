"""Cards of the Italian 40-card pack: suits, ranks in Briscola order, points and the decks.

A card has a stable integer ``code`` (``suit * 10 + rank``) used on the wire and in commitments;
``Card.from_code`` and ``ALL_CARDS`` give back the one shared instance for each code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum


class Suit(IntEnum):
    """The four Italian suits, shown with the French symbols the rules texts use."""

    COINS = 0  # denari  ♦
    CUPS = 1  # coppe   ♥
    SWORDS = 2  # spade   ♠
    CLUBS = 3  # bastoni ♣

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOLS[self]

    @property
    def letter(self) -> str:
        """ASCII letter of the French suit: d, h, s, c."""
        return _SUIT_LETTERS[self]

    @property
    def italian(self) -> str:
        return _SUIT_ITALIAN[self]

    @classmethod
    def parse(cls, text: str) -> Suit:
        """Read a suit from its symbol, letter, English or Italian name."""
        key = text.strip().lower()
        for suit in cls:
            if key in (suit.symbol, suit.letter, suit.name.lower(), suit.italian):
                return suit
        raise ValueError(f"unknown suit {text!r}: use one of ♦ ♥ ♠ ♣, d h s c, or a suit name")


_SUIT_SYMBOLS = {Suit.COINS: "♦", Suit.CUPS: "♥", Suit.SWORDS: "♠", Suit.CLUBS: "♣"}
_SUIT_LETTERS = {Suit.COINS: "d", Suit.CUPS: "h", Suit.SWORDS: "s", Suit.CLUBS: "c"}
_SUIT_ITALIAN = {
    Suit.COINS: "denari",
    Suit.CUPS: "coppe",
    Suit.SWORDS: "spade",
    Suit.CLUBS: "bastoni",
}


class Rank(IntEnum):
    """Ranks in Briscola order: a lower value is a stronger card (A beats 3 beats K ...)."""

    ACE = 0
    THREE = 1
    KING = 2
    QUEEN = 3
    JACK = 4
    SEVEN = 5
    SIX = 6
    FIVE = 7
    FOUR = 8
    TWO = 9

    @property
    def label(self) -> str:
        return _RANK_LABELS[self]

    @property
    def points(self) -> int:
        return RANK_POINTS[self]

    @classmethod
    def parse(cls, text: str) -> Rank:
        key = text.strip().upper()
        for rank in cls:
            if key == rank.label:
                return rank
        raise ValueError(f"unknown rank {text!r}: use one of A 3 K Q J 7 6 5 4 2")


_RANK_LABELS = {
    Rank.ACE: "A",
    Rank.THREE: "3",
    Rank.KING: "K",
    Rank.QUEEN: "Q",
    Rank.JACK: "J",
    Rank.SEVEN: "7",
    Rank.SIX: "6",
    Rank.FIVE: "5",
    Rank.FOUR: "4",
    Rank.TWO: "2",
}
RANK_POINTS: tuple[int, ...] = (11, 10, 4, 3, 2, 0, 0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class Card:
    """One card. Compare with ``==``; ``code`` is its wire and commitment identity."""

    suit: Suit
    rank: Rank
    # Its wire and commitment identity, 0..39: read on every hot path, so computed once.
    code: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", int(self.suit) * 10 + int(self.rank))

    @property
    def points(self) -> int:
        return RANK_POINTS[self.rank]

    @staticmethod
    def from_code(code: int) -> Card:
        if not isinstance(code, int) or isinstance(code, bool) or not 0 <= code < 40:
            raise ValueError(f"card code must be an integer 0..39, not {code!r}")
        return ALL_CARDS[code]

    @staticmethod
    def parse(text: str) -> Card:
        """Read ``"A♣"``, ``"Ac"``, ``"3h"`` or ``"K♦"``."""
        text = text.strip()
        if len(text) < 2:
            raise ValueError(f"not a card: {text!r} (write rank then suit, e.g. A♣ or Ac)")
        return ALL_CARDS[Suit.parse(text[1:]) * 10 + Rank.parse(text[0])]

    def label(self, ascii_only: bool = False) -> str:
        return self.rank.label + (self.suit.letter if ascii_only else self.suit.symbol)

    def __str__(self) -> str:
        return self.label()

    def __repr__(self) -> str:
        return f"Card({self.label(ascii_only=True)})"


ALL_CARDS: tuple[Card, ...] = tuple(Card(Suit(c // 10), Rank(c % 10)) for c in range(40))


def deck_for(players: int, removed_two: Suit = Suit.COINS) -> tuple[Card, ...]:
    """The pack for a table: 40 cards, or 39 with one announced 2 removed for 3 players."""
    if players == 3:
        removed = ALL_CARDS[removed_two * 10 + Rank.TWO]
        return tuple(c for c in ALL_CARDS if c != removed)
    return ALL_CARDS


def beats(challenger: Card, best: Card, trump: Suit) -> bool:
    """Whether ``challenger`` played later takes the trick from the current ``best`` card."""
    if challenger.suit == best.suit:
        return challenger.rank < best.rank
    return challenger.suit == trump


def trick_winner_index(cards: list[Card] | tuple[Card, ...], trump: Suit) -> int:
    """Index in play order of the card that wins a trick: highest briscola, else highest led."""
    best = 0
    for i in range(1, len(cards)):
        if beats(cards[i], cards[best], trump):
            best = i
    return best
