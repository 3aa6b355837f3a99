"""A host that quits and comes back as another table (a new host key, or a table that no longer
knows the seat) is not followed: the client stops and says the host closed the table, and what it
holds of the game stays as it was, incomplete and nobody's fault."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net import tls
from briscola_lan.net.client import HostGone, TableClient, Target
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from tests.net.relay import Relay


async def _serve(
    cert: tls.HostCertificate, identity: Identity
) -> tuple[HostServer, HostTable, int]:
    table = HostTable(TableOptions.make(players=2, hands_to_win=2), name="Ann", identity=identity)
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("Ann", table)
    return server, table, hosted.port


@pytest.mark.parametrize("same_key", [False, True], ids=["new-host-key", "same-key-no-state"])
async def test_a_client_does_not_follow_the_next_table_of_a_host_that_quit(
    tmp_path: Path, same_key: bool
) -> None:
    cert = tls.load_or_create_certificate(tmp_path / "host")  # the host's certificate is kept
    host_key = Identity.generate()
    server, _, port = await _serve(cert, host_key)
    relay = Relay(port)  # the table's address stays the same across the restart
    target = Target("127.0.0.1", await relay.start(), None, cert.fingerprint)
    session = ClientSession(Identity.generate(), "Bea")
    client = TableClient(session, target, known_tables=tls.KnownTables(tmp_path / "known"))
    again: HostServer | None = None
    try:
        await client.start()
        st = session.state
        assert await client.wait_for(lambda: bool(st.seats), 10), "no welcome"
        client.send(*session.take_seat(0), *session.set_ai_seat(1, "random"), *session.ready())
        assert await client.wait_for(lambda: st.resume_token is not None, 10)
        client.send(*session.start())
        assert await client.wait_for(lambda: st.view is not None and st.view.my_turn, 20)
        n = len(session.records)
        client.send(*session.play(st.view.hand[0]))
        assert await client.wait_for(lambda: len(session.records) > n, 10), "play not recorded"
        held = list(session.records)
        before = verify_records(held)
        assert before.verdict == "incomplete", before.fault

        await server.close()  # the host quits mid-hand...
        again, _, relay.port = await _serve(cert, host_key if same_key else Identity.generate())
        # ...and hosts again at the same address: the client's reconnection reaches the new table.
        assert await client.wait_for(lambda: client.error is not None, 30), "still following"
        assert isinstance(client.error, HostGone), client.error
        assert "the host closed the table" in str(client.error)
        for _ in range(500):  # the connection ends (wait_for returns at once after an error)
            if not client.connected.is_set():
                break
            await asyncio.sleep(0.01)
        assert not client.connected.is_set() and not client.reconnect
        await asyncio.sleep(0.3)  # nothing more arrives from the new table
        assert session.records == held
        after = verify_records(session.records)
        assert after.verdict == "incomplete" and after.fault is None
        assert not st.checks or all(c.fault is None for c in st.checks if hasattr(c, "fault"))
        assert not [e for e in st.errors if e.code == "not_seated"]
    finally:
        await client.close()
        await relay.close()
        if again is not None:
            await again.close()
