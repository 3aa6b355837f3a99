"""A table that never challenges or welcomes (another protocol version, or not a briscola-lan
table at all) ends a client's wait with an error that says so, instead of waiting for good."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import client as client_mod
from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, Target
from briscola_lan.net.player import MatchFailed, auto_play, connect, make_chooser
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.wire.messages import PROTOCOL_VERSION
from tests.net.helpers import silent_table


async def test_a_table_that_never_challenges_is_an_error_not_a_wait(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_mod, "WELCOME_TIMEOUT", 0.5)
    async with silent_table(tmp_path) as target:
        client = await connect(target, "Ann")
        try:
            t = time.monotonic()
            with pytest.raises(MatchFailed, match=r"sent no challenge within 0\.5 s"):
                await auto_play(client, make_chooser("random", 0), timeout=20)
            assert time.monotonic() - t < 5
            assert isinstance(client.error, ConnectError)
            assert f"protocol {PROTOCOL_VERSION}" in str(client.error)
            assert client.reconnects == 0  # not a table to try again
        finally:
            await client.close()


async def test_a_short_deadline_changes_nothing_at_a_real_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A real host welcomes at once: the deadline never fires during a whole match."""
    monkeypatch.setattr(client_mod, "WELCOME_TIMEOUT", 0.5)
    table = HostTable(
        TableOptions.make(players=2, hands_to_win=1),
        name="t",
        identity=Identity.generate(),
        ai_seats={1: "random"},
    )
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    client = await connect(Target("127.0.0.1", hosted.port, None, cert.fingerprint), "Ann")
    try:
        stats = await asyncio.wait_for(auto_play(client, make_chooser("random", 0), seat=0), 60)
        assert stats.plays >= 20 and stats.plays % 20 == 0  # a 60-60 hand is played again
        assert client.error is None and client.session.state.match_over
    finally:
        await client.close()
        await server.close()
