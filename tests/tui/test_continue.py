"""No game the client hosts itself is lost: a practice game, or a table hosted from the lobby,
quit in the middle of its match is offered again in the lobby (``c``) and comes back as it was,
the player in their seat; a hosted table comes back on the same port, and the other players'
clients rejoin it by themselves; the match then ends verified."""

from __future__ import annotations

import asyncio
import socket
import uuid
from pathlib import Path

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.net.client import Target
from briscola_lan.net.kept import HOSTED, PRACTICE, unfinished
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.tui import render_menus
from briscola_lan.tui.netplay import NetBackend
from briscola_lan.tui.state import HostForm, Screen

from .helpers import ENTER, ESC, Driver, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


def _menu(d: Driver) -> str:
    return "".join(text for _style, text in d.client._lobby_menu(100))


async def _play(d: Driver, cards: int) -> None:
    """Play ``cards`` of my cards (Enter at each of my turns)."""
    model = d.client.model
    for _n in range(cards):
        await wait_for(lambda: model.my_turn, 30, "my turn")
        before = model.changes
        await d.keys(ENTER)
        await wait_for(lambda b=before: model.changes > b, 15, "my card to be played")


async def _play_to_the_end(d: Driver) -> None:
    """Enter at my turns, n at each hand's end, until the match is over."""
    model = d.client.model

    async def go() -> None:
        while not model.match_over:
            if model.my_turn:
                before = model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: model.changes > b, 15, "my card to be played")
            elif model.hand_over and not model.match_over:
                await d.keys("n")
                await wait_for(lambda: not model.hand_over or model.match_over, 15, "next hand")
            else:
                await asyncio.sleep(0.01)

    await asyncio.wait_for(go(), 120)


def _session(d: Driver) -> object:
    backend = d.client.backend
    assert isinstance(backend, NetBackend) and backend.session is not None
    return backend.session


async def test_a_practice_game_quit_mid_match_is_continued_from_the_lobby(
    tmp_path: Path,
) -> None:
    cfg = net_config(tmp_path)
    async with running(cfg) as d:
        assert "Continue" not in _menu(d)
        await d.keys("a")
        await _play(d, 2)
        session = _session(d)
        game_id = session.state.game_id  # type: ignore[attr-defined]
        records = len(session.records)  # type: ignore[attr-defined]
        backend = d.client.backend
        assert isinstance(backend, NetBackend) and backend.host is not None
        port = backend.host.port
        await d.keys("q", "y")  # quit the client mid-match
        await asyncio.wait_for(d.task, 15)
    (kept,) = unfinished()
    assert kept.kind == PRACTICE and kept.hand == 1
    async with running(cfg) as d:
        await wait_for(lambda: bool(d.client.ui.kept), 10, "the lobby to offer the match")
        assert "Continue Practice vs AI: practice, hand 1" in _menu(d)
        help_keys = [key for key, _what in render_menus.help_lobby()]
        assert "c" in help_keys
        await d.keys("c")
        model = d.client.model
        await wait_for(lambda: model.started and model.seated, 15, "the match back")
        session = _session(d)
        assert session.state.game_id == game_id  # type: ignore[attr-defined]
        await wait_for(lambda: len(session.records) >= records, 15, "the replay")  # type: ignore[attr-defined]
        backend = d.client.backend
        assert isinstance(backend, NetBackend) and backend.host is not None
        assert backend.host.port == port
        assert not d.client.ui.kept  # the one being played is offered no more
        await _play_to_the_end(d)
        assert model.match_over
        checks = session.state.checks  # type: ignore[attr-defined]
        assert checks and all(c.status == "verified" for c in checks)
        assert verify_records(session.records).ok  # type: ignore[attr-defined]
        for _n in range(3):  # the summary closes, then the table is left
            if d.client.ui.screen is not Screen.LOBBY:
                await d.keys(ESC)
        assert d.client.ui.screen is Screen.LOBBY
        await wait_for(lambda: not d.client._closing, 15, "the table closed")
    assert unfinished() == []  # a finished match is offered no more


async def test_a_practice_game_whose_port_was_taken_is_continued_on_a_free_one(
    tmp_path: Path,
) -> None:
    """Another program listens on the practice game's port when it is continued: the game
    comes back on a free port, the player in their seat (the seat's token and seeds move with
    it), and plays to a verified end."""
    cfg = net_config(tmp_path)
    async with running(cfg) as d:
        await d.keys("a")
        await _play(d, 2)
        game_id = _session(d).state.game_id  # type: ignore[attr-defined]
        backend = d.client.backend
        assert isinstance(backend, NetBackend) and backend.host is not None
        port = backend.host.port
        await d.keys("q", "y")
        await asyncio.wait_for(d.task, 15)
    with socket.socket() as squatter:
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past a TIME_WAIT
        squatter.bind(("127.0.0.1", port))
        squatter.listen()
        async with running(cfg) as d:
            await wait_for(lambda: bool(d.client.ui.kept), 10, "the lobby to offer the match")
            await d.keys("c")
            model = d.client.model
            await wait_for(lambda: model.started and model.seated, 15, "the match back")
            session = _session(d)
            assert session.state.game_id == game_id  # type: ignore[attr-defined]
            backend = d.client.backend
            assert isinstance(backend, NetBackend) and backend.host is not None
            assert backend.host.port != port and model.my_seat == 0
            await _play_to_the_end(d)
            checks = session.state.checks  # type: ignore[attr-defined]
            assert checks and all(c.status == "verified" for c in checks)
            assert verify_records(session.records).ok  # type: ignore[attr-defined]


async def test_the_review_of_a_continued_hand_has_the_plays_made_before_the_quit(
    tmp_path: Path,
) -> None:
    """The plays of the hand made before the client quit come back with the table's replay,
    each with the view it was played from: the review judges the whole hand, once each."""
    from briscola_lan.table import events as ev

    def mine(d: Driver, hand: int) -> int:
        """My cards played in ``hand``, as the session has them (replayed ones too)."""
        events = _session(d).state.events  # type: ignore[attr-defined]
        return sum(1 for e in events if isinstance(e, ev.CardPlayed) and e.mine and e.hand == hand)

    cfg = net_config(tmp_path)
    async with running(cfg) as d:
        await d.keys("a")
        await _play(d, 3)
        hand = d.client.model.hand_number
        await wait_for(lambda: mine(d, hand) == len(d.client.coach.plays[hand]), 15, "my plays")
        before = list(d.client.coach.plays[hand])
        assert before
        await d.keys("q", "y")
        await asyncio.wait_for(d.task, 15)
    async with running(cfg) as d:
        await wait_for(lambda: bool(d.client.ui.kept), 10, "the lobby to offer the match")
        await d.keys("c")
        model = d.client.model
        await wait_for(lambda: model.started and model.seated and model.live, 15, "the match")
        coach = d.client.coach
        await wait_for(lambda: len(coach.plays.get(hand, [])) >= len(before), 15, "the replay")
        assert coach.plays[hand][: len(before)] == before  # the same views, the same cards
        await _play(d, 2)
        await wait_for(lambda: mine(d, hand) == len(coach.plays[hand]), 15, "every play kept")
        assert len(coach.plays[hand]) > len(before)
        places = [(len(v.tricks), len(v.trick)) for v, _c in coach.plays[hand]]
        assert places == sorted(set(places))  # in the hand's order, none twice
        assert len(coach.judging[hand]) == len(places)  # every one judged (or to be)


async def test_c_with_nothing_to_continue_says_so(tmp_path: Path) -> None:
    async with running(net_config(tmp_path)) as d:
        await asyncio.sleep(0.2)
        await d.keys("c")
        assert d.client.ui.screen is Screen.LOBBY
        assert d.client.ui.lobby_status == "No unfinished match to continue."


async def test_a_hosted_table_comes_back_and_its_players_rejoin_by_themselves(
    tmp_path: Path,
) -> None:
    cfg = net_config(tmp_path)
    name = f"Tess {uuid.uuid4().hex[:6]}"
    form = HostForm(table_name=name, players=2, hands_to_win=1, fillers=["open"])
    plays: list[asyncio.Task[object]] = []
    bea = None
    try:
        async with running(cfg) as d:
            d.client.start_form_table(form)
            backend = d.client.backend
            assert isinstance(backend, NetBackend)
            await wait_for(lambda: backend.host is not None, 15, "the table hosted")
            assert backend.host is not None
            port, fingerprint = backend.host.port, backend.host.fingerprint
            bea = await connect(Target("127.0.0.1", port, None, fingerprint), "Bea")
            plays.append(
                asyncio.create_task(auto_play(bea, make_chooser("random", 3), seat=1, delay=0.01))
            )
            await _play(d, 2)
            await d.keys("q", "y")  # the host's player quits mid-match
            await asyncio.wait_for(d.task, 15)
        reconnects = bea.reconnects
        (kept,) = unfinished()
        assert kept.kind == HOSTED and kept.name == name
        async with running(cfg) as d:
            await wait_for(lambda: bool(d.client.ui.kept), 10, "the lobby to offer the match")
            assert f"Continue {name}: hosted on the network, hand 1" in _menu(d)
            await d.keys("c")
            backend = d.client.backend
            assert isinstance(backend, NetBackend)
            await wait_for(lambda: d.client.model.started, 15, "the match back")
            assert backend.host is not None and backend.host.port == port
            await wait_for(lambda: bea.reconnects > reconnects and bea.live, 30, "Bea back")
            await _play_to_the_end(d)
            stats = await asyncio.wait_for(plays[0], 60)
            assert stats.plays > 0  # type: ignore[attr-defined]
            for records, state in (
                (backend.session.records, backend.session.state),  # type: ignore[union-attr]
                (bea.session.records, bea.session.state),
            ):
                assert state.match_over and not state.match_aborted
                assert state.checks and all(c.status == "verified" for c in state.checks)
                assert verify_records(records).ok
    finally:
        for p in plays:
            p.cancel()
        if bea is not None:
            await bea.close()
    assert unfinished() == []
