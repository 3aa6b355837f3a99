"""The terminal client writes every file private: 0600 in 0700 folders (identity, the embedded
host's key and certificate, known tables, saved games), under a user's default folders."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from tests.net.test_files_and_disk import loose_modes, walk

from .helpers import ENTER, net_config, running, wait_for


async def test_every_file_the_terminal_client_writes_is_private(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "BRISCOLA_LAN_GAMES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(home))
    old = os.umask(0o022)
    try:
        config = net_config(tmp_path)
        config.games = None  # the default saved-games folder, under ~/.local/share
        async with running(config) as d:
            await d.keys("a")  # practice against the AI through an embedded host
            m = d.client
            games = home / ".local" / "share" / "briscola-lan" / "games"

            async def play() -> None:
                while len(list(games.glob("*.briscola.json"))) < 2:
                    if m.model.my_turn:
                        before = m.model.changes
                        await d.keys(ENTER)
                        await wait_for(lambda b=before: m.model.changes > b, what="my card")
                    else:
                        await asyncio.sleep(0.01)

            await asyncio.wait_for(play(), 60)
    finally:
        os.umask(old)
    written = {str(p.relative_to(home)) for p in walk(home) if p.is_file()}
    assert ".config/briscola-lan/host-key.pem" in written, written
    assert loose_modes(home / ".config") == [] and loose_modes(home / ".local") == []
