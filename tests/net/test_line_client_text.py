"""The line client's table text (``briscola-lan join --line``): what it says whose move it is."""

from __future__ import annotations

import random
from types import SimpleNamespace

from briscola_lan.net.join_cmd import describe
from briscola_lan.rules import Hand, TableOptions, deck_for


def _state(hand: Hand, seat: int) -> SimpleNamespace:
    return SimpleNamespace(seats=(), seat=seat, phase="playing", view=hand.view(seat))


def test_during_the_auction_nobody_is_to_play_and_the_bidder_is_offered_its_bids() -> None:
    options = TableOptions.make(players=5, match_format="total")
    cards = list(deck_for(5))
    random.Random(3).shuffle(cards)
    hand = Hand(options, cards, 0)
    bidder = hand.current_player
    assert bidder is not None
    text = "\n".join(describe(_state(hand, bidder)))
    assert "to play: -" in text and "None" not in text
    assert "your bid (or pass):" in text


def test_in_play_the_seat_to_play_is_named() -> None:
    options = TableOptions.make(players=2)
    cards = list(deck_for(2))
    random.Random(4).shuffle(cards)
    hand = Hand(options, cards, 0)
    to_play = hand.current_player
    assert to_play is not None
    lines = describe(_state(hand, to_play))
    assert any(f"to play: seat {to_play}" in line for line in lines)
    assert lines[-1].endswith("<- your turn")
