"""The terminal client restarted mid-match takes its seat back even when its first connection
is closed before the host's welcome (it used to come back without its token: "table is full")."""

from __future__ import annotations

from pathlib import Path

import pytest

from briscola_lan.net.embedded import start_embedded_host
from briscola_lan.rules import TableOptions
from tests.net.relay import Relay

from .helpers import ENTER, lobby_entry, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")


class _Front:
    """The lobby line's view of the host: the relay's port, the host's fingerprint."""

    def __init__(self, port: int, fingerprint: str) -> None:
        self.port, self.fingerprint = port, fingerprint


async def test_a_restarted_client_cut_before_welcome_still_takes_its_seat_back(
    tmp_path: Path,
) -> None:
    host = await start_embedded_host(
        TableOptions.make(players=2), "Open table", {1: "random"}, ["127.0.0.1"],
        advertise=False, ai_delay=0.0,
    )  # fmt: skip
    relay = Relay(host.port)
    front = _Front(await relay.start(), host.fingerprint)
    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(front, "Open table", 1)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(lambda: model.my_turn, 15, "my first turn")
            hand_before = set(model.hand)
            await d.keys("q", "y")  # quit the whole client mid-match (it asks first)
            await wait_for(d.task.done, 15, "the client to quit")
        relay.drop = 1  # the restart's first connection ends before the welcome
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(front, "Open table", 2)])
            await d.keys(ENTER)
            model = d.client.model
            await wait_for(
                lambda: model.my_turn or model.error is not None or "full" in (model.waiting or ""),
                15,
                "my turn again after the restart",
            )
            assert relay.dropped == 1
            assert model.my_seat == 0 and set(model.hand) == hand_before, model.waiting
            assert not any("full" in line for line in model.log), model.log
    finally:
        await relay.close()
        await host.close()
