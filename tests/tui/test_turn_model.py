"""The table screen offers a turn only when the seat's session does, with the seat's whole hand.

A real client reads the host's messages in batches and refreshes the screen's model once per
batch. Here a whole match is played through the protocol (``HostTable`` and one session per
seat), and seat 0's ``NetBackend`` model is refreshed after a random subset of the messages. The
session's turns are checked against the host's engine in ``tests/table/test_turn_views.py``; here
the model must follow the session: refreshed after a trick's last card and before the drawn card,
it must not keep the turn it showed before the trick (with the card just played still in hand).
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from briscola_lan.rules import TableOptions
from briscola_lan.rules.hand import SeatView
from briscola_lan.table.client import ClientState
from briscola_lan.table.selfplay import play_out, seat_clients
from briscola_lan.tui.netplay import NetBackend


class _Connected:
    """The parts of a connected, live ``TableClient`` that the backend's refresh reads."""

    def __init__(self) -> None:
        self.connected = asyncio.Event()
        self.connected.set()
        self.closed, self.error, self.live = False, None, True


class _Watch:
    """Refreshes seat 0's model after some messages and checks every turn it offers."""

    def __init__(self, backend: NetBackend, rng: random.Random) -> None:
        self.backend, self.rng = backend, rng
        self.turns = 0

    def __call__(self, state: ClientState) -> None:
        self.backend._held = False  # the player pressed n at once after every hand
        if self.rng.random() >= 0.35:
            return  # this message is read in the same batch as the next one
        self.backend._sync()
        model, view = self.backend.model, state.view
        if not model.my_turn:
            return
        self.turns += 1
        assert view is not None and view.my_turn, (
            "the screen offers a turn the session (checked against the engine) does not",
            model.log[-3:],
        )
        assert sorted(c.code for c in model.hand) == sorted(c.code for c in view.hand)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_a_turn_on_screen_is_always_a_real_turn(players: int, seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed * 10 + players)
    host, clients, wire = seat_clients(
        TableOptions.make(players=players, match_format="points" if players == 3 else "hands"),
        entropy=rng.randbytes,
    )
    backend = NetBackend("t", name="bot0", games=tmp_path)
    backend.session, backend.client = clients[0], _Connected()  # type: ignore[assignment]
    watch = _Watch(backend, random.Random(seed))
    clients[0].on_change = watch

    def choose(view: SeatView) -> object:
        return rng.choice(view.legal_plays)

    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [choose] * players)  # type: ignore[list-item]
    assert host.phase == "over"
    assert watch.turns > 0


@pytest.mark.parametrize("deal", ["classic", "blind"])
@pytest.mark.parametrize("players", [2, 4])
def test_n_pressed_before_the_match_end_arrives_still_shows_the_result(
    players: int, deal: str, tmp_path: Path
) -> None:
    """The last hand's end comes a moment before the match's: a player who pressed n in between
    (the footer still said "n: next hand") sees the match's result, not "cards on their way"."""
    rng = random.Random(players)
    host, clients, wire = seat_clients(
        TableOptions.make(players=players, match_format="hands", hands_to_win=1),
        entropy=rng.randbytes,
        deal=deal,
    )
    backend = NetBackend("t", name="bot0", games=tmp_path)
    backend.session, backend.client = clients[0], _Connected()  # type: ignore[assignment]

    def press_n(state: ClientState) -> None:
        backend._sync()
        if backend.model.hand_over and not backend.model.match_over:
            backend.next_hand()

    clients[0].on_change = press_n
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [lambda view: rng.choice(view.legal_plays)] * players)  # type: ignore[list-item]
    assert host.phase == "over"
    backend._sync()
    model = backend.model
    assert model.match_over and model.hand_over and model.waiting is None, model.waiting
    assert len(model.hand_results) == 1 and model.hand_results[0].points
