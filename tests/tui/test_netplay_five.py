"""Five players (Briscola chiamata) over the real network stack on 127.0.0.1: the client's own
table hosted in process (AI seats, or an open seat a player joins), the auction, the call and
the play through the session, each hand's weights score, the saved game that verifies, and an
unfinished match continued from the lobby."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.net.client import Target
from briscola_lan.net.kept import PRACTICE, unfinished
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.tui import render_menus
from briscola_lan.tui.netplay import NetBackend
from briscola_lan.tui.saved import verify_saved
from briscola_lan.tui.state import HostForm, Screen

from .helpers import ENTER, ESC, Driver, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


async def _move(d: Driver, bids: list[int]) -> bool:
    """My next move, if it is mine to make: bid once in a hand (the lowest bid at hand), pass
    after that; call the suit under the cursor; play the card under it."""
    m = d.client.model
    before = m.changes
    if m.my_bid:
        first = not any(seat == m.my_seat for seat, _bid in m.auction)
        await d.keys(ENTER if first else "x")
        bids.append(m.hand_number)
    elif m.my_call or m.my_turn:
        await d.keys(ENTER)
    else:
        return False
    await wait_for(lambda: m.changes > before, 15, "my move to be taken")
    return True


async def _play_hand(d: Driver) -> None:
    m = d.client.model
    bids: list[int] = []

    async def step() -> None:
        while not (m.hand_over and m.last_result is not None):
            if not await _move(d, bids):
                await asyncio.sleep(0.01)

    await asyncio.wait_for(step(), 60)


async def _play_to_the_end(d: Driver) -> None:
    m = d.client.model
    bids: list[int] = []

    async def go() -> None:
        while not m.match_over:
            if await _move(d, bids):
                continue
            if m.hand_over and not m.match_over and m.last_result is not None:
                await d.keys("n")
                await wait_for(lambda: not m.hand_over or m.match_over, 15, "the next hand")
            else:
                await asyncio.sleep(0.01)

    await asyncio.wait_for(go(), 120)


def _backend(d: Driver) -> NetBackend:
    backend = d.client.backend
    assert isinstance(backend, NetBackend) and backend.session is not None
    return backend


async def test_five_players_with_ai_seats_over_loopback(tmp_path: Path) -> None:
    async with running(net_config(tmp_path)) as d:
        form = HostForm(table_name="Cinque", players=5, match_hands=2, fillers=["random"] * 4)
        d.client.start_form_table(form, title="Cinque")
        backend = d.client.backend
        assert isinstance(backend, NetBackend)
        await wait_for(lambda: backend.host is not None and d.client.model.started, 15, "deal")
        assert backend.host is not None and backend.host.address == "127.0.0.1"
        assert d.client.model.deal == "classic"  # the blind deal seats 2 to 4
        await _play_hand(d)
        model = d.client.model
        res = model.last_result
        assert res is not None and len(res.points) == 5 and sum(res.points) == 120
        assert res.verification is not None and res.verification.ok is True
        call = res.call  # the hand's weights score, from what every seat saw
        assert call is not None and sum(call.scores) == 0 and call.caller in call.callers
        assert model.scores == call.scores
        log = "\n".join(model.log)
        assert "passes" in log or "You pass" in log, log
        assert " calls the " in log or "You call the " in log, log
        assert "played the called card" in log, log
        assert ": the callers win." in log or ": the callers lose." in log, log
        await d.keys("n")
        await _play_to_the_end(d)
        session = _backend(d).session
        assert session is not None
        assert session.state.checks and all(c.status == "verified" for c in session.state.checks)
        assert verify_records(session.records).ok
        # both files, the player's and the host's, verify as briscola-lan verify reads them
        games = tmp_path / "games"

        def finished() -> bool:  # the files are saved at each hand's end and at the match's
            paths = list(games.glob("*.briscola.json"))
            return len(paths) == 2 and all(verify_saved(p)[0] for p in paths)

        await wait_for(finished, 10, "the finished match in both saves")
        for path in games.glob("*.briscola.json"):
            ok, verdict, lines = verify_saved(path)
            assert ok and verdict == "VERIFIED", (path.name, lines)
            assert any("hand 2" in line and "verified" in line for line in lines), lines
        mine = next(games.glob("*-Tess.briscola.json"))
        done = await asyncio.to_thread(
            subprocess.run,
            [sys.executable, "-m", "briscola_lan", "verify", str(mine)],
            capture_output=True, text=True, timeout=60, check=False,
            env={**os.environ, "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / "c")},
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        scores = re.findall(r"called \S+ \((?:alone|partner seat \d)\): the callers (?:won|lost) "
                            r"with \d+ of \d+; scores \[", done.stdout)  # fmt: skip
        assert len(scores) >= 2, done.stdout  # each hand's call and scores, as the client had
        for _n in range(3):  # the summary closes, then the table is left
            if d.client.ui.screen is not Screen.LOBBY:
                await d.keys(ESC)
        assert d.client.ui.screen is Screen.LOBBY


async def test_an_open_seat_at_five_waits_for_a_player_who_joins(tmp_path: Path) -> None:
    fillers = ["random", "open", "random", "random"]
    form = HostForm(table_name="Cinque aperto", players=5, match_hands=1, fillers=fillers)
    plays: list[asyncio.Task[object]] = []
    async with running(net_config(tmp_path)) as d:
        d.client.start_form_table(form, title=None)
        assert form.error is None
        backend = d.client.backend
        assert isinstance(backend, NetBackend)
        await wait_for(lambda: backend.host is not None, 15, "the table hosted")
        model = d.client.model
        await wait_for(lambda: "4/5 seats taken" in (model.waiting or ""), 15, "the lobby")
        assert backend.host is not None
        bea = await connect(
            Target("127.0.0.1", backend.host.port, None, backend.host.fingerprint), "Bea"
        )
        try:
            plays.append(
                asyncio.create_task(auto_play(bea, make_chooser("random", 5), seat=2, delay=0))
            )
            await wait_for(lambda: model.started, 20, "the match to start")
            assert model.name_of(2) == "Bea"
            await _play_hand(d)
            assert model.last_result is not None and model.last_result.call is not None
        finally:
            for task in plays:
                task.cancel()
            await asyncio.gather(*plays, return_exceptions=True)
            await bea.close()


async def test_a_five_player_game_quit_mid_hand_is_continued_and_verifies(
    tmp_path: Path,
) -> None:
    cfg = net_config(tmp_path)
    form = HostForm(table_name="Cinque", players=5, match_hands=1, fillers=["random"] * 4)
    async with running(cfg) as d:
        d.client.start_form_table(form, title="Cinque")
        model = d.client.model
        await wait_for(lambda: model.started, 15, "the deal")
        bids: list[int] = []

        async def two_cards() -> None:  # through the auction and the call, then two cards
            while len(model.hand) > 6 or model.contract is None:
                if not await _move(d, bids):
                    await asyncio.sleep(0.01)

        await asyncio.wait_for(two_cards(), 60)
        session = _backend(d).session
        assert session is not None
        game_id, records = session.state.game_id, len(session.records)
        await d.keys("q", "y")  # quit the client mid-hand
        await asyncio.wait_for(d.task, 15)
    (kept,) = unfinished()
    assert kept.kind == PRACTICE and kept.hand == 1
    async with running(cfg) as d:
        await wait_for(lambda: bool(d.client.ui.kept), 10, "the lobby to offer the match")
        await d.keys("c")
        model = d.client.model
        await wait_for(lambda: model.started and model.seated and model.live, 15, "the match")
        session = _backend(d).session
        assert session is not None and session.state.game_id == game_id
        await wait_for(lambda: len(session.records) >= records, 15, "the replay")
        assert model.contract is not None  # the auction and the call came back with the hand
        await _play_to_the_end(d)
        assert all(c.status == "verified" for c in session.state.checks)
        assert verify_records(session.records).ok
        for _n in range(3):
            if d.client.ui.screen is not Screen.LOBBY:
                await d.keys(ESC)
        await wait_for(lambda: not d.client._closing, 15, "the table closed")
    assert unfinished() == []
    games = tmp_path / "games"
    mine = next(games.glob("*-Tess.briscola.json"))
    ok, verdict, lines = verify_saved(mine)
    assert ok and verdict == "VERIFIED", lines


async def test_a_blind_five_player_table_from_the_form(tmp_path: Path) -> None:
    """The form's Deal row at five players: blind, the auction and the play go through the
    blind hand, and the hand verifies."""
    async with running(net_config(tmp_path)) as d:
        form = HostForm(table_name="Cieca", players=5, match_hands=1, fillers=["random"] * 4)
        assert form.deal_mode() == "classic"  # the default at five
        rows = render_menus.form_rows(form)
        assert "deal" in rows
        d.client.ui.form = form
        await d.keys("h")
        form = d.client.ui.form
        form.row = rows.index("deal")
        await d.keys(" ")
        assert form.deal_mode() == "blind"
        await d.keys(ENTER)
        backend = d.client.backend
        assert isinstance(backend, NetBackend)
        await wait_for(lambda: d.client.model.started, 30, "the deal")
        assert d.client.model.deal == "blind"
        await _play_hand(d)
        res = d.client.model.last_result
        assert res is not None and res.call is not None and sum(res.points) == 120
        assert res.verification is not None and res.verification.ok is True
