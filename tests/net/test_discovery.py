"""mDNS advertising and browsing on loopback only (interfaces=["127.0.0.1"])."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from briscola_lan.net import discovery
from briscola_lan.net.discovery import Advertiser, Browser, build_txt, find_table

LOOPBACK = ["127.0.0.1"]


def _txt(name: str, free: int) -> dict[str, bytes]:
    return build_txt(
        name=name,
        fingerprint="ab" * 32,
        version="1",
        players=4,
        seated=4 - free,
        free=free,
        rules="4p hands:2 exchange",
        phase="lobby",
    )


async def test_advertise_find_update_and_unregister() -> None:
    name = f"Table {uuid.uuid4().hex[:8]}"
    adv = Advertiser(LOOPBACK, cooperating=True)
    try:
        instance = await adv.async_register("t1", name, 4321, _txt(name, 3))
        ad = await find_table(LOOPBACK, name, timeout=5.0)
        assert ad.instance == instance
        assert (ad.port, ad.fingerprint, ad.players, ad.free, ad.seated) == (
            4321,
            "ab" * 32,
            4,
            3,
            1,
        )
        assert ad.rules == "4p hands:2 exchange"
        assert ad.address == "127.0.0.1:4321"
        async with Browser(LOOPBACK) as browser:
            assert await browser.wait_for(lambda: instance in browser.tables, 5.0)
            browser.reset_change()
            await adv.async_update("t1", _txt(name, 1))
            ok = await browser.wait_for(lambda: browser.tables[instance].free == 1, 5.0)
            assert ok
            browser.reset_change()
            await adv.async_unregister("t1")
            assert await browser.wait_for(lambda: instance not in browser.tables, 5.0)
    finally:
        await adv.async_close()


async def test_missing_table_is_a_clear_error() -> None:
    with pytest.raises(discovery.DiscoveryError, match="was not found"):
        await find_table(LOOPBACK, f"nothing-{uuid.uuid4().hex}", timeout=0.3)


def test_txt_items_fit_in_255_bytes() -> None:
    txt = _txt("é" * 400, 0)
    assert all(len(k) + 1 + len(v) <= 255 for k, v in txt.items())


def test_bad_interface_text_is_refused() -> None:
    with pytest.raises(discovery.DiscoveryError, match="IP addresses"):
        discovery.resolve_interfaces(["eth0"])
    with pytest.raises(discovery.DiscoveryError, match="addresses of this machine"):
        discovery.resolve_interfaces(["0.0.0.0"])
    assert discovery.resolve_interfaces(["127.0.0.1", "192.0.2.7"]) == ["127.0.0.1", "192.0.2.7"]


async def test_no_task_left_behind() -> None:
    before = asyncio.all_tasks()
    async with Browser(LOOPBACK):
        await asyncio.sleep(0.05)
    assert asyncio.all_tasks() == before
