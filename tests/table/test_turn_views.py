"""A client session offers its seat a turn only with its whole hand, never while a card travels.

Every view a ``ClientSession`` publishes while a whole match is played through the protocol
(``HostTable`` and one session per seat, every message through the codec) is checked against the
host's rules engine: whenever the view says it is the seat's turn, the engine agrees, the hand
holds exactly the seat's cards, and the whole view is the one the engine gives that seat.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from briscola_lan.rules import MatchFormat, TableOptions, all_variants
from briscola_lan.rules.cards import Card
from briscola_lan.rules.hand import SeatView
from briscola_lan.table.client import ClientState
from briscola_lan.table.selfplay import Wire, play_out, seat_clients

from .helpers import hand_of


def _variants(players: int) -> list[TableOptions]:
    return [
        v
        for v in all_variants()
        if v.players == players
        and (v.match_format is MatchFormat.POINTS or v.hands_to_win in (1, 2))
    ]


def _random_chooser(rng: random.Random) -> Callable[[SeatView], Card]:
    return lambda view: rng.choice(view.legal_plays)


def _sorted_hand(view: SeatView) -> SeatView:
    return dataclasses.replace(view, hand=tuple(sorted(view.hand, key=lambda c: c.code)))


class TurnWatch:
    """Checks every state a session publishes against the host's rules engine."""

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.turns = 0  # views that offered a turn
        self.views = 0  # views published during play

    def __call__(self, state: ClientState) -> None:
        view = state.view
        if view is None:
            return
        self.views += 1
        if not view.my_turn:
            return
        self.turns += 1
        hand = hand_of(self.wire.host)
        assert hand is not None
        seat = view.seat
        assert hand.current_player == seat, "the session offers a turn the engine does not"
        assert sorted(c.code for c in view.hand) == sorted(c.code for c in hand.hands[seat]), (
            f"seat {seat} is offered a turn holding {len(view.hand)} of its "
            f"{len(hand.hands[seat])} cards"
        )
        assert len(view.hand) == view.hand_sizes[seat]
        assert _sorted_hand(view) == _sorted_hand(hand.view(seat))


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_every_turn_a_session_offers_has_the_whole_hand(players: int, data: st.DataObject) -> None:
    options = data.draw(st.sampled_from(_variants(players)), label="options")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    draw = data.draw(st.booleans(), label="draw partners and dealer")
    rng = random.Random(seed)
    host, clients, wire = seat_clients(
        options,
        entropy=rng.randbytes,
        draw_partners=draw and players == 4,
        draw_dealer=draw,
        deal="classic",
    )
    watch = TurnWatch(wire)
    for c in clients:
        c.on_change = watch
    choosers = [_random_chooser(random.Random(seed + i)) for i in range(players)]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, choosers)
    assert host.phase == "over" and host.internal_errors == []
    assert host.match is not None and host.match.is_over
    # Every card of the match was played from a turn the watch checked.
    cards = options.deck_size * len(host.match.results)
    assert watch.turns >= cards, (watch.turns, cards)
    for c in clients:
        assert c.state.match_over and not c.state.match_aborted
        assert all(ch.status == "verified" for ch in c.state.checks), [
            ch.summary for ch in c.state.checks
        ]
