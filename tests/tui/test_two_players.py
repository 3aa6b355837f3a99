"""Two people on this machine: one hosts a table with an open seat from the form (advertised over
mDNS on 127.0.0.1), the other finds it in the live lobby, joins, and both play a hand."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.lobby_net import DiscoveryLobby, install

from .helpers import DOWN, ENTER, LEFT, Driver, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


def _config(tmp_path: Path, name: str) -> ClientConfig:
    cfg = ClientConfig(
        name=name, ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0,
        interfaces=["127.0.0.1"], games=tmp_path / name, identity=Identity.generate(),
    )  # fmt: skip
    install(cfg)
    return cfg


async def _play_until_over(drivers: list[Driver]) -> None:
    async def step() -> None:
        while not all(d.client.model.hand_over and d.client.model.last_result for d in drivers):
            for d in drivers:
                m = d.client.model
                if m.my_turn:
                    before = m.changes
                    await d.keys(ENTER)
                    await wait_for(lambda m=m, b=before: m.changes > b, what="the play")
            await asyncio.sleep(0.01)

    await asyncio.wait_for(step(), 40)


async def test_host_with_an_open_seat_and_a_second_player_joins(tmp_path: Path) -> None:
    table = f"Duel {uuid.uuid4().hex[:6]}"
    ann_cfg = _config(tmp_path, "Ann")
    ann_cfg.lobby_source = None
    async with running(ann_cfg) as ann:
        ui = ann.client.ui
        await ann.keys("h", "\x7f" * 40, table, DOWN, DOWN, DOWN, DOWN, DOWN, LEFT)  # -> open
        assert ui.form.fillers[0] == "open"
        await ann.keys(ENTER)
        # (bounds for a machine at load 20 and more: a quiet one takes well under a second)
        await wait_for(lambda: "Waiting for players" in (ann.client.model.waiting or ""), 30)
        bea_cfg = _config(tmp_path, "Bea")
        bea_cfg.lobby_source = DiscoveryLobby(["127.0.0.1"])
        async with running(bea_cfg) as bea:
            lobby = bea.client.ui

            def listed() -> bool:
                return any(e.name == table and e.open_seats == 1 for e in lobby.lobby)

            # (zeroconf's browser asks at 0, 1, 5 and 14 s after it starts: on a machine at
            # load 15 the first answers can come too late for a shorter wait)
            await wait_for(listed, 30, "the table in Bea's lobby")
            lobby.lobby_index = next(i for i, e in enumerate(lobby.lobby) if e.name == table)
            await bea.keys(ENTER)
            await wait_for(lambda: bea.client.model.started, 30, "the match to start for Bea")
            await wait_for(lambda: ann.client.model.started, 30, "the match to start for Ann")
            assert (ann.client.model.my_seat, bea.client.model.my_seat) == (0, 1)
            assert ann.client.model.name_of(1) == "Bea" and bea.client.model.name_of(0) == "Ann"
            assert not set(ann.client.model.hand) & set(bea.client.model.hand)
            await _play_until_over([ann, bea])
            ra, rb = ann.client.model.last_result, bea.client.model.last_result
            assert ra is not None and rb is not None and ra.points == rb.points
            assert sum(ra.points) == 120
            for r in (ra, rb):
                assert r.verification is not None and r.verification.ok is True
            # Ann hosts: leaving would close the table for Bea, and the dialog says so
            await ann.keys("q")
            text = "".join(f[1] for f in ann.client._confirm_text())
            assert "closes for everyone" in text
            await ann.keys("n")
