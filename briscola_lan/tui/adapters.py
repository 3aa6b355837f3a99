"""Adapters that fill the client's ``TableModel`` from a rules ``SeatView`` (and a ``Match``).

The table screen reads only ``TableModel``; each source of game state gets one small adapter here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from briscola_lan.rules import Card, Match, SeatView
from briscola_lan.tui.state import HandSummary, TableModel

if TYPE_CHECKING:
    from briscola_lan.rules import CallResult


def partner_cards_visible(view: SeatView) -> tuple[bool, int]:
    """Whether the partner's shown cards are still on display, and how many plays I made since.

    They are shown once the stock is gone (4 players, exchange on) and hidden again after my next
    play, as at a real table where partners glance at each other's hands and switch back.
    """
    if view.partner_shown is None or view.partner_exchange_trick is None:
        return False, 0
    mine = sum(
        1
        for t in view.tricks[view.partner_exchange_trick :]
        for seat, _ in t.plays
        if seat == view.seat
    )
    mine += sum(1 for seat, _ in view.trick if seat == view.seat)
    return mine == 0, mine


def partner_still_holds(view: SeatView) -> tuple[Card, ...] | None:
    """The partner's shown cards minus those the partner has played since they were shown."""
    if view.partner_shown is None or view.partner_exchange_trick is None:
        return None
    partner = (view.seat + 2) % view.options.players
    played = {
        card
        for t in view.tricks[view.partner_exchange_trick :]
        for seat, card in t.plays
        if seat == partner
    }
    played.update(card for seat, card in view.trick if seat == partner)
    return tuple(c for c in view.partner_shown if c not in played)


def apply_seat_view(model: TableModel, view: SeatView, match: Match | None = None) -> None:
    """Copy what one seat may see into the model (never anything the seat may not see)."""
    model.started = True
    model.my_seat = view.seat
    model.options = view.options
    model.dealer = view.dealer
    model.hand = view.hand
    model.trump = view.trump
    model.upcard = view.upcard
    model.upcard_taken_by = view.upcard_taken_by
    model.stock_left = view.stock_left
    model.trick = view.trick
    model.last_trick = view.tricks[-1] if view.tricks else None
    model.to_play = view.to_play
    sides = view.options.sides
    won = [0] * sides
    for t in view.tricks:
        won[view.options.side_of(t.winner)] += 1
    model.tricks_won = tuple(won)
    model.hand_sizes = view.hand_sizes
    model.points = view.points
    visible, _ = partner_cards_visible(view)
    model.partner_shown = partner_still_holds(view) if visible else None
    model.auction = view.auction
    model.to_bid = view.to_bid
    model.to_call = view.to_call
    model.legal_bids = view.legal_bids
    model.contract = view.contract
    model.partner = view.partner
    model.hand_over = view.to_play is None and view.to_bid is None and view.to_call is None
    if match is not None:
        model.hands_won = match.hands_won()
        model.total_points = match.total_points()
        model.scores = match.scores()
        model.match_winner = match.winner
        model.match_over = match.is_over
    model.changes += 1


def taken_by_side(view: SeatView) -> tuple[tuple[Card, ...], ...]:
    """The cards each side took in the tricks of ``view``, trick by trick (public facts)."""
    sides: list[list[Card]] = [[] for _ in range(view.options.sides)]
    for t in view.tricks:
        sides[view.options.side_of(t.winner)].extend(c for _seat, c in t.plays)
    return tuple(tuple(cards) for cards in sides)


def add_hand_cards(summary: HandSummary, view: SeatView, result: CallResult | None = None) -> None:
    """A finished hand's summary completed from its last view: the cards each side took and
    who drew the face-up briscola (for the match summary); at five players its scored call."""
    summary.taken = taken_by_side(view)
    summary.upcard = view.upcard
    summary.upcard_taken_by = view.upcard_taken_by
    summary.call = result
