"""A table whose first resolve gets no answer is still listed: the browser asks again."""

from __future__ import annotations

import uuid

import pytest

from briscola_lan.net import discovery
from briscola_lan.net.discovery import Advertiser, Browser, build_txt

LOOPBACK = ["127.0.0.1"]


async def test_a_lost_answer_does_not_hide_a_table(monkeypatch: pytest.MonkeyPatch) -> None:
    real = discovery.AsyncServiceInfo.async_request
    lost = {"n": 0}

    async def first_answer_lost(self, zc, timeout, question_type=None, addr=None, port=5353):  # type: ignore[no-untyped-def]
        if lost["n"] < 2:  # the first two questions go unanswered (a busy LAN, a lost packet)
            lost["n"] += 1
            return False
        return await real(self, zc, timeout, question_type)

    monkeypatch.setattr(discovery.AsyncServiceInfo, "async_request", first_answer_lost)
    name = f"Table {uuid.uuid4().hex[:8]}"
    txt = build_txt(
        name=name,
        fingerprint="ab" * 32,
        version="2",
        players=2,
        seated=1,
        free=1,
        rules="2p hands:2",
        phase="lobby",
    )
    adv = Advertiser(LOOPBACK, cooperating=True)
    try:
        instance = await adv.async_register("t1", name, 4321, txt)
        async with Browser(LOOPBACK) as browser:
            # the TXT never changes again: only asking again can list the table
            assert await browser.wait_for(lambda: instance in browser.tables, 15.0)
            assert browser.tables[instance].free == 1
        assert lost["n"] == 2
    finally:
        await adv.async_close()
