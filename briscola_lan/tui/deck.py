"""How cards look: the French-suited deck (♦ ♥ ♠ ♣) or the Italian one (Denari, Coppe, Spade,
Bastoni; Fante, Cavallo, Re), with symbols, ASCII letters and names, in one place.

The rules know a suit as ``Suit.COINS`` ... ``Suit.CLUBS``; every text of the client that names a
card or a suit comes from here, so the table, the log, learn mode and the hints always agree.
"""

from __future__ import annotations

from enum import StrEnum

from briscola_lan.rules import Card, Rank, Suit
from briscola_lan.tui.i18n import N_, _


class Deck(StrEnum):
    """The look of the cards (a display option; the game is the same)."""

    FRENCH = "french"
    ITALIAN = "italian"


# Unicode symbol, ASCII letter, name (the French names are translated; the Italian ones are the
# suits' own names in every language).
_FRENCH_SUITS = {
    Suit.COINS: ("♦", "d", N_("diamonds")),
    Suit.CUPS: ("♥", "h", N_("hearts")),
    Suit.SWORDS: ("♠", "s", N_("spades")),
    Suit.CLUBS: ("♣", "c", N_("clubs")),
}
_ITALIAN_SUITS = {
    Suit.COINS: ("◉", "d", "Denari"),
    Suit.CUPS: ("Ʊ", "c", "Coppe"),
    Suit.SWORDS: ("⚔", "s", "Spade"),
    Suit.CLUBS: ("⚚", "b", "Bastoni"),
}
# One of a suit, as in "the highest heart wins".
_FRENCH_ONE = {
    Suit.COINS: N_("diamond"),
    Suit.CUPS: N_("heart"),
    Suit.SWORDS: N_("spade"),
    Suit.CLUBS: N_("club"),
}
_FRENCH_RANKS = {Rank.KING: "K", Rank.QUEEN: "Q", Rank.JACK: "J"}
_ITALIAN_RANKS = {Rank.KING: "R", Rank.QUEEN: "C", Rank.JACK: "F"}
_RANK_NAMES = {
    Rank.ACE: N_("Ace"),
    Rank.THREE: N_("Three"),
    Rank.KING: N_("King"),
    Rank.QUEEN: N_("Queen"),
    Rank.JACK: N_("Jack"),
}
_ITALIAN_FIGURES = {Rank.KING: "Re", Rank.QUEEN: "Cavallo", Rank.JACK: "Fante"}

SUIT_STYLE = {
    Suit.COINS: "class:suit.coins",
    Suit.CUPS: "class:suit.cups",
    Suit.SWORDS: "class:suit.swords",
    Suit.CLUBS: "class:suit.clubs",
}


def parse_deck(text: str) -> Deck:
    """A deck from its name (``french``, ``italian``)."""
    try:
        return Deck(text.strip().lower())
    except ValueError:
        raise ValueError(
            _("unknown deck {deck!r}: use french or italian").format(deck=text)
        ) from None


def suit_symbol(suit: Suit, deck: Deck, ascii_only: bool) -> str:
    """The suit's mark on a card: a symbol, or its ASCII letter."""
    table = _ITALIAN_SUITS if deck is Deck.ITALIAN else _FRENCH_SUITS
    return table[suit][1] if ascii_only else table[suit][0]


def suit_name(suit: Suit, deck: Deck) -> str:
    """The suit's name: ``hearts``, or ``Coppe`` with the Italian deck."""
    if deck is Deck.ITALIAN:
        return _ITALIAN_SUITS[suit][2]
    return _(_FRENCH_SUITS[suit][2])


def suit_one(suit: Suit, deck: Deck) -> str:
    """One card of the suit, as in "the highest heart wins" (Italian deck: the suit's name)."""
    if deck is Deck.ITALIAN:
        return _ITALIAN_SUITS[suit][2]
    return _(_FRENCH_ONE[suit])


def suit_text(suit: Suit, deck: Deck, ascii_only: bool) -> str:
    """A suit as the table names it: ``♥ hearts`` (``hearts`` in ASCII mode)."""
    name = suit_name(suit, deck)
    return name if ascii_only else f"{suit_symbol(suit, deck, ascii_only)} {name}"


def rank_label(rank: Rank, deck: Deck) -> str:
    """The rank's mark on a card: A 3 K Q J 7 ... (A 3 R C F 7 ... with the Italian deck)."""
    table = _ITALIAN_RANKS if deck is Deck.ITALIAN else _FRENCH_RANKS
    return table.get(rank, rank.label)


def rank_name(rank: Rank, deck: Deck) -> str:
    """The rank in words: ``King``, or ``Re`` with the Italian deck; ``7`` for the others."""
    if deck is Deck.ITALIAN and rank in _ITALIAN_FIGURES:
        return _ITALIAN_FIGURES[rank]
    return _(_RANK_NAMES[rank]) if rank in _RANK_NAMES else rank.label


def card_label(card: Card, deck: Deck, ascii_only: bool) -> str:
    """``A♥`` (``Ah`` in ASCII mode); ``RƱ`` / ``Rc`` with the Italian deck."""
    return rank_label(card.rank, deck) + suit_symbol(card.suit, deck, ascii_only)


def rank_order(deck: Deck) -> str:
    """The ranks from high to low: ``A 3 K Q J 7 6 5 4 2``."""
    return " ".join(rank_label(r, deck) for r in Rank)


def default_deck(lang: str) -> Deck:
    """The deck a player of this language expects: the Italian one in Italian."""
    return Deck.ITALIAN if lang == "it" else Deck.FRENCH
