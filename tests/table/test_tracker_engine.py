"""The client's public mirror of a hand (``table.client._Tracker``) against the rules engine.

Every variant, every hand to its end (the 4-player exchange included): each seat's tracker and a
spectator's are fed the deal, the upcard, every play with its deck position, the draws and the
exchange as the host sends them, and must agree with ``rules.Hand`` after every play.
"""

from __future__ import annotations

import random

import pytest

from briscola_lan.fairness.statements import Deal, Exchange, Opening
from briscola_lan.rules import (
    CardDealt,
    Event,
    Hand,
    HandEnded,
    HandsExchanged,
    TableOptions,
    TrickTaken,
    all_variants,
    deck_for,
)
from briscola_lan.table.client import _Tracker

GAME = bytes(16)
SALT = bytes(32)
HANDS_PER_VARIANT = 8


def _deal(hand_no: int, seat: int, cards: list[CardDealt]) -> Deal:
    return Deal(GAME, hand_no, seat, tuple(Opening(e.position, e.card.code, SALT) for e in cards))


def _deliver(
    trackers: dict[int | None, _Tracker], hand_no: int, engine: Hand, events: list[Event]
) -> None:
    """Hand the trackers what the host sends after these events: each seat its own cards (one
    deal per seat, draws before the exchange), then at the end of the stock each seat its
    partner's hand."""
    per_seat: dict[int, list[CardDealt]] = {}
    for ev in events:
        if isinstance(ev, CardDealt):
            per_seat.setdefault(ev.seat, []).append(ev)
    for seat, cards in sorted(per_seat.items()):
        assert trackers[seat].cards_on_their_way
        assert trackers[seat].view() is None  # no turn is offered from a hand missing a card
        assert trackers[seat].receive_cards(_deal(hand_no, seat, cards)) is None
    if any(isinstance(ev, HandsExchanged) for ev in events):
        assert engine.exchange_shown is not None
        position = {c.code: p for p, c in enumerate(engine.deck)}
        for seat in range(engine.n):
            partner = engine.options.partner_of(seat)
            assert partner is not None and trackers[seat].cards_on_their_way
            shown = engine.exchange_shown[partner]
            openings = tuple(Opening(position[c.code], c.code, SALT) for c in shown)
            ex = Exchange(GAME, hand_no, seat, partner, openings)
            assert trackers[seat].partner(ex) is None


def _agree(t: _Tracker, engine: Hand) -> None:
    """The tracker holds the engine's public state, and a seat's tracker that seat's view."""
    assert t.to_play == engine.to_play
    assert t.leader == engine.leader
    assert t.trick == engine.trick
    assert t.tricks == engine.tricks
    assert t.points == engine.points
    assert t.hand_sizes == [len(h) for h in engine.hands]
    assert t.stock_left == engine.stock_left
    assert t.upcard == engine.upcard
    assert t.upcard_taken_by == engine.upcard_taken_by
    assert t.exchange_trick == engine.exchange_trick
    if t.seat is None:
        assert t.view() is None
        return
    assert not t.cards_on_their_way
    assert t.view() == engine.view(t.seat)


def _play_hand(opts: TableOptions, hand_no: int, dealer: int, rng: random.Random) -> Hand:
    deck = list(deck_for(opts.players, opts.removed_two))
    rng.shuffle(deck)
    engine = Hand(opts, deck, dealer)
    seats: list[int | None] = [*range(opts.players), None]
    trackers = {s: _Tracker(opts, dealer, s) for s in seats}
    # The deal, then the upcard (the client's UpcardTurned handler opens the first turn).
    _deliver(trackers, hand_no, engine, engine.deal_events)
    for t in trackers.values():
        t.upcard = engine.upcard
        t.to_play = t.leader
        _agree(t, engine)
    position = {c.code: p for p, c in enumerate(deck)}
    while (seat := engine.current_player) is not None:
        card = rng.choice(engine.legal_plays())
        events = engine.play(seat, card)
        trick = [e for e in events if isinstance(e, TrickTaken)]
        for t in trackers.values():
            problem, taken = t.play(seat, card, position[card.code])
            assert problem is None
            assert [taken] == (trick or [None])
        _deliver(trackers, hand_no, engine, events)
        for t in trackers.values():
            _agree(t, engine)
    assert isinstance(events[-1], HandEnded)
    assert len(engine.tricks) == opts.deck_size // opts.players
    return engine


@pytest.mark.parametrize("opts", all_variants(), ids=lambda o: o.summary().replace(" ", "_"))
def test_tracker_follows_the_engine_through_whole_hands(opts: TableOptions) -> None:
    rng = random.Random(opts.summary())
    for hand_no in range(HANDS_PER_VARIANT):
        engine = _play_hand(opts, hand_no, hand_no % opts.players, rng)
        assert sum(engine.returns()) == 120
        assert (engine.exchange_trick is not None) == opts.exchange_enabled
