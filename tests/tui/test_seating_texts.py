"""What the client says about seats: names after a drawn reseat, the winning side, and a client
that holds no seat (connecting, table full, wrong fingerprint) showing no one else's seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.net.client import Target
from briscola_lan.net.embedded import start_embedded_host
from briscola_lan.rules import TableOptions
from briscola_lan.table import events as ev
from briscola_lan.table.client import ClientSession
from briscola_lan.tui import render, render_table
from briscola_lan.tui.lobby_net import join_target_backend
from briscola_lan.tui.netplay import NetBackend
from briscola_lan.tui.state import Screen, SeatInfo, UiState
from briscola_lan.wire import messages as m

from .helpers import ENTER, ESC, lobby_entry, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


def _backend() -> tuple[NetBackend, ClientSession]:
    backend = NetBackend("t", name="Tess", target=Target("127.0.0.1", 1))
    session = ClientSession(Identity.generate(), "Tess")
    backend.session = session
    return backend, session


def _wire_seats(names: list[str]) -> tuple[m.SeatInfo, ...]:
    return tuple(m.SeatInfo(i, True, n, bytes(32), None, True, True) for i, n in enumerate(names))


def _text(frags: render.Frag) -> str:
    return "".join(f[1] for f in frags)


def test_log_names_seats_as_the_draw_left_them() -> None:
    backend, session = _backend()
    model = backend.model
    # the model still holds the lobby seats; the session already has the seats after the draw
    model.seats = [SeatInfo(i, n) for i, n in enumerate(["Ann", "AI 1", "Beppe", "AI 3"])]
    session.state.seats = _wire_seats(["Ann", "AI 1", "AI 3", "Beppe"])
    session.state.events.append(ev.HandStarted(0, 2, blind=False))
    backend._pull_events(session.state)
    assert model.log[-1] == "hand 1 started, AI 3 (seat 2) deals"


def test_match_winner_is_named_not_numbered() -> None:
    backend, session = _backend()
    model = backend.model
    model.options = TableOptions.make(players=4)
    model.seats = [SeatInfo(i, n) for i, n in enumerate(["Ann", "Bea", "Cid", "Tess"])]
    model.my_seat, model.seated = 3, True
    session.state.events.append(ev.MatchEnded(1, aborted=False))
    backend._pull_events(session.state)
    assert model.log[-1] == "side B (Bea + You) won the match"
    model.options = TableOptions.make(players=2)
    model.seats = model.seats[:2]
    model.my_seat = 0
    session.state.events.append(ev.MatchEnded(1, aborted=False))
    backend._pull_events(session.state)
    assert model.log[-1] == "Bea won the match"


def test_a_client_without_a_seat_invents_nothing() -> None:
    backend, _ = _backend()
    model, ui = backend.model, UiState(ascii_only=True)
    assert not model.seated and not model.known
    title = _text(render.title_text(model, ui))
    assert "2p" not in title and "hands:" not in title and "connecting" in title
    pane = _text(render_table.seat_lines(model, UiState(ascii_only=True))) + _text(
        render_table.score_lines(model)
    )
    assert pane.strip() == "connecting..."
    # the table answered, but this client has no seat: nobody is "(you)" and no "You" side
    model.connection, model.known = "connected", True
    model.options = TableOptions.make(players=2)
    model.seats = [SeatInfo(0, "Anna"), SeatInfo(1, "Bob", connected=False)]
    pane = _text(render_table.seat_lines(model, UiState(ascii_only=True))) + _text(
        render_table.score_lines(model)
    )
    assert "(you)" not in pane and "You" not in pane.replace("You are not seated", "")
    assert "You are not seated." in pane and "Anna" in pane
    assert "tricks" not in pane and "Hands won" not in pane  # no figures of a hand it cannot see
    assert "not seated" in _text(render.title_text(model, ui))
    assert not model.my_turn


async def test_full_table_shows_not_seated_and_the_way_back(tmp_path: Path) -> None:
    host = await start_embedded_host(
        TableOptions.make(players=2),
        "Full table",
        {0: "random", 1: "random"},
        ["127.0.0.1"],
        advertise=False,
        ai_delay=0.5,
    )
    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Full table", 2)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: "full" in (model.waiting or ""), 10, "table full")
            await wait_for(lambda: model.known and len(model.seats) == 2, 5, "the seats")
            assert not model.seated
            d.client.backend._sync()  # type: ignore[union-attr]  # (the next message's update)
            assert "The table is full" in (model.waiting or ""), model.waiting  # it stays said
            pane = "".join(f[1] for f in d.client._players_text())
            assert "(you)" not in pane and "not seated" in pane
            hints = "".join(f[1] for f in d.client._hints())
            assert "not seated" in hints and "Esc" in hints
            await d.keys(ESC)
            await wait_for(lambda: d.client.ui.screen is Screen.LOBBY, 5, "back in the lobby")
    finally:
        await host.close()


async def test_wrong_fingerprint_shows_the_error_and_no_placeholder_rules(tmp_path: Path) -> None:
    host = await start_embedded_host(
        TableOptions.make(players=4),
        "Four",
        {1: "random", 2: "random", 3: "random"},
        ["127.0.0.1"],
        advertise=False,
        ai_delay=0.5,
    )
    try:
        cfg = net_config(tmp_path)
        cfg.ascii_only = True
        cfg.initial_table = lambda c: join_target_backend(
            f"127.0.0.1:{host.port}", c, fingerprint="cd" * 32
        )
        async with running(cfg) as d:
            model = d.client.model
            await wait_for(lambda: model.connection == "closed", 10, "the refusal")
            assert "Could not open the table" in (model.waiting or "")
            assert (model.waiting or "").isascii() and all(line.isascii() for line in model.log)
            assert "--fingerprint" in (model.waiting or "")
            title = "".join(f[1] for f in d.client._title())
            assert "2p" not in title and "hands:" not in title and "Waiting" not in title
            pane = "".join(f[1] for f in d.client._players_text())
            assert "seat" not in pane and "Hands won" not in pane and "not connected" in pane
            hints = "".join(f[1] for f in d.client._hints())
            assert "Esc: back to the lobby" in hints and "waiting for the table" not in hints
            await d.keys("q")
            await wait_for(d.task.done, 5, "the client to quit")
    finally:
        await host.close()
