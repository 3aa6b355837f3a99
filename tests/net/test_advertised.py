"""The host's mDNS record follows the table: free seats and phase update, goodbye on close."""

from __future__ import annotations

import asyncio
import uuid
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import tls
from briscola_lan.net.client import Target
from briscola_lan.net.discovery import Advertiser, Browser
from briscola_lan.net.player import connect
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable

LO = ["127.0.0.1"]


async def test_txt_record_tracks_seats_and_is_withdrawn(tmp_path: Path) -> None:
    cert = tls.load_or_create_certificate(tmp_path)
    name = f"adv-{uuid.uuid4().hex[:8]}"
    server = HostServer(
        tls.server_context(cert),
        hosts=LO,
        fingerprint=cert.fingerprint,
        advertiser=Advertiser(LO, cooperating=True),
    )
    table = HostTable(
        TableOptions.make(players=3, match_format="points"),
        name=name,
        identity=Identity.generate(),
        ai_seats={2: "random"},
    )
    hosted = await server.add_table("t", table)
    closed = False
    try:
        async with Browser(LO) as browser:
            inst = hosted.instance

            def ad_is(free: int) -> bool:
                ad = browser.tables.get(inst)
                return ad is not None and ad.free == free

            assert await browser.wait_for(lambda: ad_is(2), 5)
            ad = browser.tables[inst]
            assert (ad.name, ad.players, ad.seated, ad.phase) == (name, 3, 1, "lobby")
            assert ad.fingerprint == cert.fingerprint and ad.port == hosted.port
            assert ad.rules == "3p points:3 no-2d"
            assert ad.deal == "blind" and ad.extra["deal"] == "blind"  # two seats for people
            client = await connect(Target("127.0.0.1", hosted.port, None, cert.fingerprint), "a")
            client.send(*client.session.take_seat(0))
            assert await browser.wait_for(lambda: ad_is(1), 5)
            # Back to a record with the same seats as before: browsers must still see it (the
            # TXT's "gen" differs; without it their caches took it for the old record).
            await asyncio.sleep(1.5)  # the first record is now old enough to be flushed
            client.send(*client.session.leave_seat())
            assert await browser.wait_for(lambda: ad_is(2), 5), "leaving the seat went unseen"
            gens = int(browser.tables[inst].extra["gen"])
            client.send(*client.session.take_seat(0))
            assert await browser.wait_for(lambda: ad_is(1), 5)
            assert int(browser.tables[inst].extra["gen"]) > gens
            await client.close()
            await server.close()
            closed = True
            assert await browser.wait_for(lambda: inst not in browser.tables, 5)
    finally:
        if not closed:
            await server.close()


async def test_a_drawn_table_advertises_its_rules_once(tmp_path: Path) -> None:
    """A 4-player table with drawn partners and dealer: a browser on the LAN reads the rules
    label that the table gives, each draw named once (protocol/transport.md section 4)."""
    cert = tls.load_or_create_certificate(tmp_path)
    server = HostServer(
        tls.server_context(cert),
        hosts=LO,
        fingerprint=cert.fingerprint,
        advertiser=Advertiser(LO, cooperating=True),
    )
    table = HostTable(
        TableOptions.make(players=4),
        name=f"drawn-{uuid.uuid4().hex[:8]}",
        identity=Identity.generate(),
        draw_partners=True,
        draw_dealer=True,
    )
    hosted = await server.add_table("t", table)
    try:
        async with Browser(LO) as browser:
            assert await browser.wait_for(lambda: hosted.instance in browser.tables, 5)
            ad = browser.tables[hosted.instance]
            assert ad.rules == "4p hands:2 exchange drawn-partners drawn-dealer"
            assert ad.rules == table.info().rules
            assert (ad.players, ad.seated, ad.free) == (4, 0, 4)
    finally:
        await server.close()


async def test_the_txt_record_is_made_again_only_when_it_can_change(tmp_path: Path) -> None:
    """After every message the server asks whether the table's TXT changed: it makes the record
    (``table.info()``) only when the phase or the taken seats differ from the last one's."""
    cert = tls.load_or_create_certificate(tmp_path)
    updates: list[dict[str, bytes]] = []

    class Recording:
        async def async_update(self, key: str, txt: dict[str, bytes]) -> None:
            updates.append(txt)

    server = HostServer(tls.server_context(cert), hosts=LO, fingerprint=cert.fingerprint)
    table = HostTable(TableOptions.make(players=2), name="t", identity=Identity.generate())
    hosted = await server.add_table("t", table)
    try:
        server.advertiser = Recording()  # type: ignore[assignment]
        hosted.instance = "t._briscola._tcp.local."
        made = 0
        info = table.info

        def counting() -> object:
            nonlocal made
            made += 1
            return info()

        table.info = counting  # type: ignore[method-assign]
        for _ in range(5):
            server._changed(hosted)
        assert made == 1
        table.seats[0].occupied = True  # a seat taken: the record says so
        server._changed(hosted)
        server._changed(hosted)
        assert made == 2
        await asyncio.sleep(0)
        assert updates[-1]["free"] == b"1"
    finally:
        server.advertiser = None
        await server.close()
