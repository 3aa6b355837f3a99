"""The terminal client of a host that quit and hosts again at the same address: the screen says
the host closed the table, the client does not sit at the new table, and the saved game stays
incomplete (nobody's fault), not "another game"."""

from __future__ import annotations

from pathlib import Path

import pytest

from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net.embedded import start_embedded_host
from briscola_lan.rules import TableOptions
from briscola_lan.tui import render_table
from tests.net.relay import Relay

from .helpers import ENTER, ESC, lobby_entry, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


class _Front:
    """The lobby line's view of the host: the relay's port, the host's fingerprint."""

    def __init__(self, port: int, fingerprint: str) -> None:
        self.port, self.fingerprint = port, fingerprint


async def test_the_client_of_a_host_that_hosts_again_says_the_table_closed(
    tmp_path: Path,
) -> None:
    def host():  # type: ignore[no-untyped-def]
        return start_embedded_host(
            TableOptions.make(players=2), "Ann's table", {1: "random"}, ["127.0.0.1"],
            advertise=False, ai_delay=0.0,
        )  # fmt: skip

    first = await host()
    relay = Relay(first.port)
    front = _Front(await relay.start(), first.fingerprint)
    second = None
    try:
        cfg = net_config(tmp_path)
        async with running(cfg) as d:
            d.client.set_lobby([lobby_entry(front, "Ann's table", 1)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.my_turn, 15, "my first turn")
            before = model.changes
            await d.keys(ENTER)  # play a card
            await wait_for(lambda: model.changes > before, 15, "my card to be played")
            await first.close()  # Ann quits, and hosts again at once with the same name
            second = await host()
            relay.port = second.port
            await wait_for(lambda: model.connection == "closed", 30, "the table closed")
            assert model.closed_why and "closed the table" in model.closed_why
            centre = "".join(t for _, t in render_table.table_lines(model, d.client.ui))
            assert "The host closed the table" in centre
            assert any("closed the table" in line for line in model.log)
            assert not model.my_turn
            await d.keys(ESC)
        saved = sorted((tmp_path / "games").rglob("*"))
        files = [p for p in saved if p.is_file() and "Tess" in p.name]
        assert files, saved
        report = verify_records(load(files[0]))
        assert report.verdict == "incomplete" and report.fault is None, report.fault
        assert second.table.seats[0].conn is None  # Tess never sat at Ann's new table
    finally:
        await relay.close()
        await first.close()
        if second is not None:
            await second.close()
