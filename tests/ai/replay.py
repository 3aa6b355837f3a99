"""A position replayed from a dealt pack and the cards played: the view of the seat to play."""

from __future__ import annotations

from briscola_lan.rules import Card, Hand, SeatView, TableOptions


def replayed_view(
    deck: str, dealer: int, plays: str, options: TableOptions | None = None
) -> SeatView:
    """The view of the seat to play after ``plays`` in the hand dealt from ``deck`` (card
    names, pack order) by ``dealer``; a 2-player table unless ``options`` says otherwise."""
    pack = [Card.parse(c) for c in deck.split()]
    hand = Hand(options or TableOptions.make(players=2), pack, dealer)
    for c in plays.split():
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, Card.parse(c))
    seat = hand.current_player
    assert seat is not None
    return hand.view(seat)
