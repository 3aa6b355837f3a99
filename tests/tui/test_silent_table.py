"""Joining a table that never welcomes (another briscola-lan version, or not a table at all):
the terminal client says why, and the way back to the lobby stays open."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from briscola_lan.net import client as client_mod
from briscola_lan.tui.state import Screen
from tests.net.helpers import silent_table

from .helpers import ENTER, ESC, lobby_entry, net_config, running, wait_for


@pytest.mark.usefixtures("private_dirs")
async def test_joining_a_silent_table_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_mod, "WELCOME_TIMEOUT", 0.5)
    async with silent_table(tmp_path) as target, running(net_config(tmp_path)) as d:
        host = type("Silent", (), {"port": target.port, "fingerprint": target.fingerprint})()
        d.client.set_lobby([lobby_entry(host, "Silent", 0)])
        await d.keys(ENTER)
        c = d.client

        def said() -> bool:
            return "sent no challenge" in (c.model.waiting or "")

        await wait_for(said, 10, "the reason on the table screen")
        await asyncio.sleep(0.5)  # it stays: nothing that follows (the closed connection) hides it
        assert said()
        assert "Could not open the table" in (c.model.waiting or "")
        assert "another version of briscola-lan" in (c.model.waiting or "")
        assert "full" not in (c.model.waiting or "")
        await d.keys(ESC)
        await wait_for(lambda: c.ui.screen is Screen.LOBBY, 5, "back in the lobby")
