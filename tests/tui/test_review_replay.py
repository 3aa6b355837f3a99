"""The review's plays: each kept once, in the hand's order, whether this client played it or the
table replayed it after a restart (not a card the host's AI played for the seat)."""

from __future__ import annotations

import random
from types import SimpleNamespace

from briscola_lan.rules import Card, Hand, SeatView, TableOptions, deck_for
from briscola_lan.table import events as ev
from briscola_lan.tui.coach import Coach
from briscola_lan.tui.netplay import NetBackend


def _views(seat: int = 0, plays: int = 6) -> list[tuple[SeatView, Card]]:
    """``seat``'s first ``plays`` turns of a 2-player hand: the view and the card it played."""
    opts = TableOptions.make(players=2)
    deck = list(deck_for(2))
    random.Random(5).shuffle(deck)
    hand = Hand(opts, deck, dealer=1)
    out: list[tuple[SeatView, Card]] = []
    while len(out) < plays:
        to_play = hand.view(0).to_play
        assert to_play is not None
        view = hand.view(to_play)
        card = view.hand[0]
        if to_play == seat:
            out.append((view, card))
        hand.play(to_play, card)
    return out


def test_a_play_is_kept_once_and_in_the_hands_order() -> None:
    coach = Coach(supported=False)  # no worker process: the plays alone
    (v1, c1), (v2, c2), (v3, c3) = _views(plays=3)
    coach.played(v3, c3, hand=1)
    coach.played(v1, c1, hand=1)
    coach.played(v2, c2, hand=1)
    coach.played(v2, c2, hand=1)  # replayed after a reconnect: kept already
    assert coach.plays[1] == [(v1, c1), (v2, c2), (v3, c3)]
    assert coach.judging[1] == [None, None, None]


def test_another_card_at_the_same_place_replaces_the_one_kept() -> None:
    """A card the host refused is replaced by the one the table's replay says was played."""
    coach = Coach(supported=False)
    (v1, c1), (v2, c2) = _views(plays=2)
    other = next(c for c in v1.hand if c != c1)
    coach.played(v1, other, hand=1)
    coach.played(v2, c2, hand=1)
    coach.played(v1, c1, hand=1)
    assert coach.plays[1] == [(v1, c1), (v2, c2)]
    assert len(coach.judging[1]) == 2


def _backend() -> NetBackend:
    return NetBackend("t", name="Tess")


def _state(view: SeatView | None, taken_over: bool = False) -> SimpleNamespace:
    return SimpleNamespace(view=view, partner_signals=(), taken_over=taken_over)


def _played(card: Card, mine: bool = True) -> ev.CardPlayed:
    return ev.CardPlayed(hand=1, seat=0 if mine else 1, card=card, mine=mine)


def test_a_replayed_play_comes_with_the_view_it_was_played_from() -> None:
    ((v1, c1),) = _views(plays=1)
    b = _backend()
    b._replayed_plays(_state(v1), [])  # type: ignore[arg-type]
    b._replayed_plays(_state(None), [_played(c1)])  # type: ignore[arg-type]
    assert b.take_earlier_plays() == [(1, v1, c1)]
    assert b.take_earlier_plays() == []


def test_a_card_the_hosts_ai_played_for_the_seat_is_not_reviewed() -> None:
    (v1, c1), (v2, c2) = _views(plays=2)
    b = _backend()
    b._replayed_plays(_state(v1, taken_over=True), [])  # type: ignore[arg-type]
    b._replayed_plays(_state(v2), [_played(c1)])  # type: ignore[arg-type]
    b._replayed_plays(_state(None), [_played(c2)])  # type: ignore[arg-type]
    assert b.take_earlier_plays() == [(1, v2, c2)]


def test_another_seats_card_or_a_card_not_in_the_view_is_not_mine_to_review() -> None:
    ((v1, c1),) = _views(plays=1)
    b = _backend()
    b._replayed_plays(_state(v1), [])  # type: ignore[arg-type]
    b._replayed_plays(_state(None), [_played(c1, mine=False)])  # type: ignore[arg-type]
    b._replayed_plays(_state(v1), [])  # type: ignore[arg-type]
    stranger = next(c for c in deck_for(2) if c not in v1.hand)
    b._replayed_plays(_state(None), [_played(stranger)])  # type: ignore[arg-type]
    assert b.take_earlier_plays() == []
