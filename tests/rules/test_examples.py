"""The four example tricks of rules text 002 (clubs are the briscola), each its own test."""

from __future__ import annotations

from briscola_lan.rules import Card, Suit, trick_winner_index

TRUMP = Suit.CLUBS


def _trick(led: str, answered: str) -> tuple[int, int]:
    cards = [Card.parse(led), Card.parse(answered)]
    return trick_winner_index(cards, TRUMP), sum(c.points for c in cards)


def test_ace_of_hearts_beats_three_of_hearts_for_21() -> None:
    assert _trick("A♥", "3♥") == (0, 21)


def test_lowest_briscola_beats_king_of_another_suit() -> None:
    winner, points = _trick("K♥", "2♣")
    assert winner == 1
    assert points == 4


def test_only_suit_led_or_briscola_can_win() -> None:
    assert _trick("7♠", "Q♦") == (0, 3)


def test_three_outranks_jack_in_briscola() -> None:
    assert _trick("J♣", "3♣") == (1, 12)
