"""The lobby over real mDNS on loopback: a table appears, fills up and vanishes, live."""

from __future__ import annotations

import uuid

from briscola_lan.net.discovery import Advertiser, build_txt
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.lobby_net import DiscoveryLobby

from .helpers import running, wait_for


def _txt(name: str, seated: int) -> dict[str, bytes]:
    return build_txt(
        name=name, fingerprint="ab" * 32, version="1", players=2, seated=seated,
        free=2 - seated, rules="2p hands:2", phase="lobby",
    )  # fmt: skip


async def test_lobby_follows_tables_as_they_appear_fill_and_vanish() -> None:
    name = f"tui-lobby-{uuid.uuid4().hex[:8]}"
    adv = Advertiser(["127.0.0.1"], cooperating=True)
    cfg = ClientConfig(name="Tess", interfaces=["127.0.0.1"])
    cfg.lobby_source = DiscoveryLobby(["127.0.0.1"])
    try:
        async with running(cfg) as d:
            ui = d.client.ui

            def mine() -> list[int]:
                return [e.open_seats for e in ui.lobby if e.name == name]

            await adv.async_register("t1", name, 40001, _txt(name, 1))
            await wait_for(lambda: mine() == [1], 10, "the table to appear")
            assert "1 table" in ui.lobby_status or "tables found" in ui.lobby_status
            await adv.async_update("t1", _txt(name, 2))
            await wait_for(lambda: mine() == [0], 10, "the table to fill up")
            await adv.async_unregister("t1")
            await wait_for(lambda: mine() == [], 10, "the table to vanish")
    finally:
        await adv.async_close()


async def test_lobby_says_why_when_discovery_cannot_start() -> None:
    cfg = ClientConfig(name="Tess", interfaces=["not-an-address"])
    cfg.lobby_source = DiscoveryLobby(["not-an-address"])
    async with running(cfg) as d:
        await wait_for(lambda: "Discovery is off" in d.client.ui.lobby_status, 5, "the error")
        assert "--interfaces" in d.client.ui.lobby_status
