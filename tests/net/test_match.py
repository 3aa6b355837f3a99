"""Whole matches over real TCP+TLS on loopback: HostServer + HostTable and network clients."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import tls
from briscola_lan.net.client import Target
from briscola_lan.net.journal import Journal
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import MatchFormat, TableOptions
from briscola_lan.table.host import HostTable


async def _serve(tmp_path: Path, table: HostTable, journal: Journal) -> tuple[HostServer, int, str]:
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table, journal=journal)
    return server, hosted.port, cert.fingerprint


@pytest.mark.parametrize(
    ("options", "ai_seats", "draw"),
    [
        (TableOptions.make(players=2, hands_to_win=1), {}, False),
        (TableOptions.make(players=3, match_format=MatchFormat.POINTS), {1: "random"}, False),
        (TableOptions.make(players=4, hands_to_win=1), {1: "rules", 3: "random"}, False),
        (TableOptions.make(players=4, hands_to_win=1, partner_exchange=False), {}, False),
        (TableOptions.make(players=4, hands_to_win=1), {2: "random"}, True),
    ],
    ids=["2p", "3p-points-ai", "4p-exchange-2ai", "4p-no-exchange", "4p-drawn-2ai"],
)
async def test_full_match_over_tls(
    tmp_path: Path, options: TableOptions, ai_seats: dict[int, str], draw: bool
) -> None:
    table = HostTable(
        options,
        name="t",
        identity=Identity.generate(),
        ai_seats=ai_seats,
        draw_partners=draw,
        draw_dealer=draw,
    )
    journal = Journal.open(tmp_path / "table.journal", table.identity.public_key)
    server, port, fp = await _serve(tmp_path, table, journal)
    humans = [s for s in range(options.players) if s not in ai_seats]
    clients = []
    try:
        for s in humans:
            clients.append(await connect(Target("127.0.0.1", port, None, fp), f"p{s}"))
        results = await asyncio.wait_for(
            asyncio.gather(
                *(
                    auto_play(c, make_chooser("random", s), seat=s)
                    for c, s in zip(clients, humans, strict=True)
                )
            ),
            60,
        )
        assert all(r.plays > 0 for r in results)
        for c in clients:
            st = c.session.state
            assert st.match_over and not st.match_aborted
            assert st.winner is not None or options.match_format is MatchFormat.POINTS
            assert st.checks and all(ch.status == "verified" for ch in st.checks), [
                ch.summary for ch in st.checks
            ]
        assert table.phase == "over"
    finally:
        for c in clients:
            await c.close()
        await server.close()
        journal.close()
    # the journal holds the whole match: the table comes back from it, records and all
    again = Journal.open(tmp_path / "table.journal", table.identity.public_key)
    try:
        restored = again.load(table.identity)
        assert restored is not None and restored.phase == "over"
        assert restored.records == table.records and restored.game_id == table.game_id
    finally:
        again.close()
