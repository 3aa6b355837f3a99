"""Seats at a joined table from the full-screen client: seat 0 fills the open seats with AI
players (f), leaving a lobby frees the seat, and a restarted client takes its seat back."""

from __future__ import annotations

from pathlib import Path

import pytest

from briscola_lan.net.client import Target as NetTarget
from briscola_lan.net.embedded import EmbeddedHost, start_embedded_host
from briscola_lan.net.player import connect
from briscola_lan.net.resume_store import ResumeStore
from briscola_lan.rules import TableOptions
from briscola_lan.tui.state import Screen

from .helpers import ENTER, ESC, lobby_entry, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


async def _host(players: int, ai: dict[int, str] | None = None) -> EmbeddedHost:
    return await start_embedded_host(
        TableOptions.make(players=players),
        "Open table",
        ai or {},
        ["127.0.0.1"],
        advertise=False,
        ai_delay=0.0,
    )


def _seats(host: EmbeddedHost) -> list[tuple[bool, str | None]]:
    table = host.server.tables["table"].table
    return [(s.occupied, s.ai) for s in table.seats]


async def test_seat_zero_fills_the_open_seats_with_ai_and_the_match_starts(
    tmp_path: Path,
) -> None:
    host = await _host(4)
    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Open table", 0, players=4)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.can_fill_ai, 10, "an open seat I may fill")
            assert model.my_seat == 0
            assert "Press f" in (model.waiting or "")
            assert "f: fill open seats with AI" in "".join(t for _, t in d.client._hints())
            await d.keys("f")
            await wait_for(lambda: model.started, 15, "the match to start")
            assert _seats(host) == [(True, None)] + [(True, "random")] * 3
            assert not model.can_fill_ai and model.error is None
    finally:
        await host.close()


async def test_only_seat_zero_may_fill_seats(tmp_path: Path) -> None:
    host = await _host(4)
    first = await connect(NetTarget("127.0.0.1", host.port, None, host.fingerprint), "Ugo")
    try:
        first.send(*first.session.take_seat(0))
        await first.wait_for(lambda: first.session.state.seat == 0, 10)
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Open table", 1, players=4)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.seated and model.my_seat == 1, 10, "seat 1")
            assert not model.can_fill_ai
            await d.keys("f")
            await wait_for(lambda: model.error is not None, 5, "the refusal")
            assert model.error == "Only the player in seat 0 can seat AI players."
            assert _seats(host) == [(True, None), (True, None), (False, None), (False, None)]
    finally:
        await first.close()
        await host.close()


async def test_leaving_a_lobby_frees_the_seat(tmp_path: Path) -> None:
    host = await _host(2)
    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Open table", 0)])
            await d.keys(ENTER)
            await wait_for(lambda: _seats(host)[0][0], 10, "my seat at the host")
            await d.keys(ESC)
            await wait_for(lambda: d.client.ui.screen is Screen.LOBBY, 5, "the lobby")
            await wait_for(lambda: not _seats(host)[0][0], 5, "the seat to be free again")
    finally:
        await host.close()


async def test_a_restarted_client_takes_its_seat_back_mid_match(tmp_path: Path) -> None:
    host = await _host(2, {1: "random"})
    config = net_config(tmp_path)
    try:
        async with running(config) as d:
            d.client.set_lobby([lobby_entry(host, "Open table", 1)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.my_turn, 15, "my first turn")
            await d.keys(ENTER)
            await wait_for(
                lambda: model.my_turn and any("took the trick" in x for x in model.log),
                15,
                "a whole trick, then my turn",
            )
            hand_before = set(model.hand)
            await d.keys("q", "y")  # quit the whole client mid-match (it asks first)
            await wait_for(d.task.done, 15, "the client to quit")
        assert (tmp_path / "config" / "briscola-lan" / "resume_tokens").exists()
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Open table", 2)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.my_turn, 15, "my turn again after the restart")
            assert model.my_seat == 0 and set(model.hand) == hand_before
            assert model.error is None
            assert not any("bad_token" in line or "error" in line for line in model.log)
            tricks = [x for x in model.log if "took the trick" in x]
            assert tricks and not any(x.startswith("seat ") for x in tricks), tricks
    finally:
        await host.close()


async def test_a_token_the_table_forgot_is_not_shown_as_an_error(tmp_path: Path) -> None:
    """A remembered resume token for a table that was restarted afresh: the client joins as a
    new player without troubling the player with the host's refusal of the old token."""
    host = await _host(2, {1: "random"})
    config = net_config(tmp_path)
    try:
        ResumeStore().put("Open table@127.0.0.1", "00" * 16)
        async with running(config) as d:
            d.client.set_lobby([lobby_entry(host, "Open table", 1)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.my_turn, 15, "my first turn")
            assert model.my_seat == 0 and model.error is None
            assert not any("token" in line for line in model.log), model.log
    finally:
        await host.close()
