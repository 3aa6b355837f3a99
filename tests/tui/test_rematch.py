"""The end of a match says who won, either way, and r starts a rematch at the same table with
the same players and AI seats, without going back to the lobby (offline and over the network)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.netplay import NetBackend
from briscola_lan.tui.state import Screen

from .helpers import DOWN, ENTER, LEFT, Driver, net_config, running, wait_for


async def _one_hand_match(d: Driver) -> None:
    await d.keys("h", DOWN, DOWN, DOWN, LEFT)  # hands to win: 1
    assert d.client.ui.form.hands_to_win == 1
    await d.keys(ENTER)
    await _play_until_match_over(d)


async def _play_until_match_over(d: Driver) -> None:
    c = d.client

    async def step() -> None:
        while not (c.model.match_over and c.model.hand_over):
            result = c.model.last_result
            if c.model.hand_over and result is not None and result.winner is not None:
                await wait_for(lambda: c.model.match_over, 15, "the end of the match")
            elif c.model.hand_over and result is not None:
                await d.keys("n")  # a 60-60 hand: the next one
                await wait_for(lambda: not c.model.hand_over, 15, "the next hand")
            elif c.model.my_turn:
                before = c.model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: c.model.changes > b, what="my play")
            else:
                await asyncio.sleep(0.005)

    await asyncio.wait_for(step(), 60)


def _result(d: Driver) -> str:
    return "".join(f[1] for f in d.client._table_text(70))


async def test_rematch_offline_same_players() -> None:
    cfg = ClientConfig(name="Tess", ai_level="rules", ai_delay=0.0, trick_pause=0.0, settle=0.0)
    async with running(cfg) as d:
        await _one_hand_match(d)
        c = d.client
        text = _result(d)
        assert "YOU WIN THE MATCH!" in text or "You lose the match: Bot 1 wins it." in text, text
        assert "r: rematch" in text
        seats = [(s.seat, s.name, s.level) for s in c.model.seats]
        old = c.backend
        await d.keys("r")
        await wait_for(lambda: c.backend is not old and c.model.started, 10, "the rematch")
        assert c.ui.screen is Screen.TABLE
        m = c.model
        assert not m.match_over and m.hand_number == 0 and m.options.hands_to_win == 1
        assert [(s.seat, s.name, s.level) for s in m.seats] == seats


@pytest.mark.usefixtures("private_dirs")
async def test_rematch_at_a_table_hosted_here(tmp_path: Path) -> None:
    async with running(net_config(tmp_path)) as d:
        await _one_hand_match(d)
        c = d.client
        old = c.backend
        assert isinstance(old, NetBackend) and old.host is not None
        port, game = old.host.port, old.session.state.game_id if old.session else ""
        seats = [(s.seat, s.name, s.level) for s in c.model.seats]
        await d.keys("r")
        new = c.backend
        assert isinstance(new, NetBackend) and new is not old
        await wait_for(lambda: c.model.started and c.model.my_turn, 20, "the rematch's first turn")
        assert new.host is not None and new.host.port == port  # the same table
        assert new.session is not None and new.session.state.game_id != game  # a new match
        assert [(s.seat, s.name, s.level) for s in c.model.seats] == seats
        assert not c.model.match_over and c.model.hand_number == 0


@pytest.mark.parametrize("welcomed_first", [False, True], ids=["opened-at-once", "welcomed-first"])
@pytest.mark.usefixtures("private_dirs")
async def test_rematch_at_a_joined_table_once_its_host_opens_it(
    tmp_path: Path, welcomed_first: bool
) -> None:
    """``welcomed_first``: the finished table welcomes the rematch's connection (every seat still
    the last match's) before its host opens the next match; the client waits for that."""
    from briscola_lan.net.embedded import start_embedded_host
    from briscola_lan.rules import TableOptions

    from .helpers import lobby_entry

    host = await start_embedded_host(
        TableOptions.make(players=2, hands_to_win=1), "Joined", {1: "random"}, ["127.0.0.1"],
        advertise=False, ai_delay=0.0,
    )  # fmt: skip
    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Joined", 1)])
            await d.keys(ENTER)
            await _play_until_match_over(d)
            c = d.client
            old = c.backend
            assert isinstance(old, NetBackend) and old.host is None  # joined, not hosted here
            game = old.session.state.game_id if old.session else ""
            await d.keys("r")
            new = c.backend
            assert isinstance(new, NetBackend) and new is not old and new.rematching
            assert "Waiting for the rematch to open" in (c.model.waiting or "")
            if welcomed_first:
                await wait_for(
                    lambda: bool(new.session and new.session.state.seats), 10, "a welcome"
                )
                await asyncio.sleep(0.2)  # what the client does with it, before the next match
                assert "Waiting for the rematch to open" in (c.model.waiting or "")
            await host.rematch()  # the table's host opens the next match
            await wait_for(lambda: c.model.started and c.model.my_turn, 30, "the rematch's turn")
            assert new.session is not None and new.session.state.game_id != game
            assert c.model.my_seat == 0 and not c.model.match_over
    finally:
        await host.close()
