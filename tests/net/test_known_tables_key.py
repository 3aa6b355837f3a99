"""The trust-on-first-use key (protocol/transport.md section 2): ``name@address`` for a table
found by name, ``host:port`` otherwise; one line per table, also when re-discovery finds the
table again at another address."""

from __future__ import annotations

from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import tls
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.player import new_session
from briscola_lan.net.resume_store import ResumeStore
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable


def test_the_key_is_name_at_address_else_host_and_port() -> None:
    assert Target("192.0.2.1", 4000, "Kitchen").key == "Kitchen@192.0.2.1"
    assert Target("192.0.2.1", 4100, "Kitchen").key == "Kitchen@192.0.2.1"  # port: same key
    assert Target("192.0.2.1", 1, "ann@box").key == "ann@box@192.0.2.1"
    assert Target("192.0.2.1", 4000).key == "192.0.2.1:4000"
    assert Target("fe80::1", 4000).key == "fe80::1:4000"


def test_one_line_per_key_even_from_a_file_with_duplicates(tmp_path: Path) -> None:
    path = tmp_path / "known_tables"
    fp = "aa" * 32
    path.write_text(f"Kitchen%40192.0.2.1 {fp}\nKitchen%40192.0.2.1 {fp}\n", encoding="utf-8")
    known = tls.KnownTables(path)
    known.check_and_remember("Kitchen@192.0.2.1", "AA" * 32)
    known.check_and_remember("ann@box@192.0.2.2", "bb" * 32)
    keys = sorted(line.split()[0] for line in path.read_text(encoding="utf-8").splitlines())
    assert keys == ["Kitchen%40192.0.2.1", "ann%40box%40192.0.2.2"]


async def _serve(home: Path, address: str, table: HostTable) -> tuple[HostServer, int, str]:
    cert = tls.load_or_create_certificate(home)
    server = HostServer(tls.server_context(cert), hosts=[address], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    return server, hosted.port, cert.fingerprint


async def test_a_table_found_again_elsewhere_keeps_its_one_line(tmp_path: Path) -> None:
    known = tls.KnownTables(tmp_path / "client" / "known_tables")
    tokens = ResumeStore(tmp_path / "client" / "resume_tokens")
    table = HostTable(TableOptions.make(players=2), name="Kitchen", identity=Identity.generate())
    server, port, fp = await _serve(tmp_path / "host", "127.0.0.1", table)
    session = new_session("ann")
    client = TableClient(
        session, Target("127.0.0.1", port, "Kitchen"), known_tables=known, resume_store=tokens
    )
    moved: list[HostServer] = []
    try:
        await client.start()
        client.send(*session.take_seat(0))
        assert await client.wait_for(lambda: session.state.resume_token is not None, 5)
        # The host comes back at another address and port (a new lease, a restart): the
        # client's re-discovery (mDNS, stood in for here) finds it there.
        await server.close()
        if table.seats[0].conn is not None:  # one table, served anew: its old connection is gone
            table.disconnect(table.seats[0].conn)
        new_server, new_port, new_fp = await _serve(tmp_path / "host", "127.0.0.2", table)
        moved.append(new_server)
        assert new_fp == fp

        async def rediscover() -> None:
            client.target = Target("127.0.0.2", new_port, "Kitchen")

        client._rediscover = rediscover  # type: ignore[method-assign]
        assert await client.wait_for(lambda: client.reconnects == 1 and client.live, 10)
        assert client.target.host == "127.0.0.2" and client.key == "Kitchen@127.0.0.1"
        assert session.state.seat == 0 and not session.state.errors  # the seat resumed
    finally:
        await client.close()
        for s in (server, *moved):
            await s.close()
    assert known.path.read_text(encoding="utf-8").splitlines() == [f"Kitchen%40127.0.0.1 {fp}"]
    lines = tokens.path.read_text(encoding="utf-8").splitlines()
    assert [line.split()[0] for line in lines] == ["Kitchen%40127.0.0.1"]
