"""The client over the real network stack on 127.0.0.1: practice vs AI through an embedded host,
joining a table from the lobby, a dropped connection, the deal verification and saved games."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from pathlib import Path

import pytest

from briscola_lan.net.embedded import start_embedded_host
from briscola_lan.rules import Card, SeatView, TableOptions
from briscola_lan.table.host import Outgoing
from briscola_lan.tui import render_menus
from briscola_lan.tui.netplay import NetBackend
from briscola_lan.tui.saved import verify_saved
from briscola_lan.tui.state import Screen, player_name
from briscola_lan.wire import messages as m

from .helpers import DOWN, ENTER, ESC, RIGHT, Driver, lobby_entry, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


async def _play_hand(d: Driver) -> None:
    m = d.client

    async def step() -> None:
        while not (m.model.hand_over and m.model.last_result is not None):
            if m.model.my_turn:
                before = m.model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: m.model.changes > b, what="my card to be played")
            else:
                await asyncio.sleep(0.01)

    await asyncio.wait_for(step(), 30)


async def test_practice_goes_through_an_embedded_host_and_verifies(tmp_path: Path) -> None:
    async with running(net_config(tmp_path)) as d:
        await d.keys("a")
        backend = d.client.backend
        assert isinstance(backend, NetBackend)
        await wait_for(lambda: d.client.model.my_turn, 15, "my first turn")
        assert backend.host is not None and backend.host.address == "127.0.0.1"
        assert d.client.model.connection == "connected"
        await _play_hand(d)
        res = d.client.model.last_result
        assert res is not None and sum(res.points) == 120
        assert res.verification is not None and res.verification.ok is True
        assert any("took the trick" in line for line in d.client.model.log)
        # saved once every seat has acknowledged the hand, just after its end
        games = tmp_path / "games"
        await wait_for(lambda: len(list(games.glob("*.briscola.json"))) == 2, 10, "the saves")
        saved = sorted(p.name for p in games.iterdir())
        assert any(name.endswith("-Tess.briscola.json") for name in saved)
        assert any(name.endswith("-host.briscola.json") for name in saved)
        # the result stays on screen until n, then the next hand is on
        await d.keys("n")
        await wait_for(lambda: not d.client.model.hand_over and d.client.model.hand_number == 1, 15)
        # leave (asks first), then verify the saved transcript in the saved-games screen: one
        # row for the match (the player's own file; the practice host's is not listed again)
        await d.keys(ESC, "y")
        await wait_for(lambda: d.client.ui.screen is Screen.LOBBY, 5, "the lobby")
        await d.keys("s")
        ui = d.client.ui
        assert [Path(p).name.endswith("-Tess.briscola.json") for p in ui.saved_files] == [True]
        await d.keys(ENTER)
        report = "\n".join(ui.saved_report)
        # saved through the last acknowledged hand: every hand in it verifies, but the match
        # was left before its end, so the file is incomplete, never plainly verified
        assert ui.saved_report[0].endswith("-Tess.briscola.json: INCOMPLETE"), report
        assert "hand 1 (dealer seat 0): verified" in report, report
        assert "no match-end record" in report, report
        assert any("receipts from the host" in line for line in ui.saved_report), report
        # the host's file verifies the same way (briscola-lan verify reads it)
        host_file = next(p for p in games.iterdir() if p.name.endswith("-host.briscola.json"))
        ok, verdict, lines = verify_saved(host_file)
        assert not ok and verdict == "INCOMPLETE", lines
        assert any("hand 1 (dealer seat 0): verified" in line for line in lines), lines


async def test_join_from_lobby_and_survive_a_dropped_connection(tmp_path: Path) -> None:
    host = await start_embedded_host(
        TableOptions.make(players=2),
        "Loopback table",
        {1: "random"},
        ["127.0.0.1"],
        advertise=False,
        ai_delay=0.0,
    )
    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Loopback table", 1)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.my_turn, 15, "my first turn at the joined table")
            assert model.title == "Loopback table" and model.my_seat == 0
            hand_before = model.hand
            # the host drops every connection: the client shows it and reconnects by itself
            hosted = host.server.tables["table"]
            for conn in list(hosted.conns.values()):
                conn.close("test drop")
            await wait_for(lambda: model.connection == "reconnecting", 5, "reconnecting")
            await wait_for(lambda: model.connection == "connected", 10, "the reconnection")
            await wait_for(lambda: model.my_turn, 10, "my turn again")
            assert set(model.hand) == set(hand_before)
            assert any("reconnect" in line for line in model.log)
            await _play_hand(d)
            res = model.last_result
            assert res is not None and res.verification is not None
            assert res.verification.ok is True, res.verification.details
    finally:
        await host.close()


async def test_a_cheating_host_is_named_apart_from_the_verified_file(tmp_path: Path) -> None:
    host = await start_embedded_host(
        TableOptions.make(players=2),
        "Crooked table",
        {1: "random"},
        ["127.0.0.1"],
        advertise=False,
        ai_delay=0.0,
    )
    table = host.table
    honest_receive, honest_tick = table.receive, table.tick

    def tamper(outs: list[Outgoing]) -> list[Outgoing]:
        # every played card comes with a wrong opening salt: it no longer opens its commitment
        return [
            dataclasses.replace(o, message=dataclasses.replace(o.message, salt=bytes(32)))
            if isinstance(o.message, m.CardPlayed)
            else o
            for o in outs
        ]

    table.receive = lambda conn, msg, **kw: tamper(honest_receive(conn, msg, **kw))  # type: ignore[method-assign]
    table.tick = lambda now: tamper(honest_tick(now))  # type: ignore[method-assign]
    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(host, "Crooked table", 1)])
            await d.keys(ENTER)
            await wait_for(lambda: d.client.model.my_turn, 15, "my first turn")
            await _play_hand(d)
            res = d.client.model.last_result
            assert res is not None and res.verification is not None
            v = res.verification
            # the openings of played cards are in no record: the saved file verifies, and the
            # client names the host for what it saw live, apart from the file's verdict
            assert v.ok is True and v.fault is None, v
            assert v.live is not None and "does not match" in v.live
            assert "at fault: the host" in v.live
            text = "".join(f[1] for f in d.client._table_text())
            assert "Deal verified" in text and "Seen live only" in text
            await d.keys("v")
            details = "".join(f[1] for f in d.client._verify_text())
            assert "Seen live only" in details and "does not match" in details
    finally:
        await host.close()


async def test_drawn_partners_and_dealer_at_four_players(tmp_path: Path) -> None:
    async with running(net_config(tmp_path)) as d:
        ui = d.client.ui
        await d.keys("h", DOWN, RIGHT, RIGHT)  # 4 players
        rows = render_menus.form_rows(ui.form)
        for row in ("drawp", "drawd"):
            ui.form.row = rows.index(row)
            await d.keys(" ")
        assert ui.form.draw_partners and ui.form.draw_dealer
        await d.keys(ENTER)
        model = d.client.model
        await wait_for(lambda: model.started and not model.waiting, 20, "the first hand")
        assert any(line.startswith("draw verified") for line in model.log), model.log
        backend = d.client.backend
        assert isinstance(backend, NetBackend) and backend.session is not None
        draw = backend.session.state.draw
        assert draw is not None and draw.status == "verified"
        assert model.my_seat == draw.seating[0]  # I may have been reseated by the draw
        assert model.dealer == draw.dealer
        # the log, the players pane and the sides use the seats after the draw
        # (an AI seat is named by its level and the seat it sits in now, in the player's words)
        names = {
            i.seat: player_name(i.name, i.ai or "", i.seat) for i in backend.session.state.seats
        }
        started = [line for line in model.log if line.startswith("hand 1 started")]
        assert started == [f"hand 1 started, {names[draw.dealer]} (seat {draw.dealer}) deals"]
        assert {s.seat: s.name for s in model.seats} == names
        assert names[model.my_seat] == "Tess"
        pane = "".join(f[1] for f in d.client._players_text())
        assert f"{model.my_seat} Tess (you)" in pane
        partner = names[(model.my_seat + 2) % 4]
        assert model.side_name(model.options.side_of(model.my_seat)) in (
            f"You + {partner}",
            f"{partner} + You",
        )


async def test_the_embedded_hosts_ai_thinks_off_the_screens_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from briscola_lan.table import core

    threads: list[int] = []
    honest = core.default_bot_factory

    class Recording:
        def __init__(self, bot: core.Bot) -> None:
            self.bot = bot

        def choose(self, view: SeatView) -> Card:
            threads.append(threading.get_ident())
            return self.bot.choose(view)

    monkeypatch.setattr(
        core, "default_bot_factory", lambda level, seed: Recording(honest(level, seed))
    )
    async with running(net_config(tmp_path)) as d:
        await d.keys("a")
        backend = d.client.backend
        assert isinstance(backend, NetBackend)
        await wait_for(lambda: d.client.model.my_turn, 15, "my first turn")
        await _play_hand(d)
        host = backend.host
        assert host is not None and host.runner is not None
        runner = host.runner
        assert runner.thread.is_alive()
        assert threads and set(threads) == {runner.thread.ident}
        assert threading.get_ident() not in threads
        res = d.client.model.last_result
        assert res is not None and res.verification is not None and res.verification.ok
        await d.keys(ESC, "y")
        await wait_for(lambda: d.client.ui.screen is Screen.LOBBY, 5, "the lobby")
        # the thread ends, then the client's loop closes the host's loop (a moment later)
        await wait_for(lambda: not runner.thread.is_alive(), 10, "the host thread to end")
        await wait_for(runner.loop.is_closed, 5, "the host's loop to be closed")
