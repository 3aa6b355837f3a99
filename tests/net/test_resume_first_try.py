"""A restarted client presents its saved resume token on every connection attempt: when its first
connection is closed before ``welcome`` (slots full, the host closing it), the next one still
takes the seat back."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import tls
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.resume_store import ResumeStore
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from tests.net.relay import Relay


async def _serve(tmp_path: Path, table: HostTable) -> tuple[HostServer, int, str]:
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    return server, hosted.port, cert.fingerprint


def _client(identity: Identity, target: Target, home: Path) -> TableClient:
    """What ``join`` and the terminal client build: the player's key and its resume store."""
    session = ClientSession(identity, "Ada")
    store = ResumeStore(home / "resume_tokens")
    store.attach_secrets(session, target.key)
    return TableClient(
        session, target, known_tables=tls.KnownTables(home / "known"), resume_store=store
    )


async def test_a_restart_whose_first_connection_drops_before_welcome_gets_its_seat_back(
    tmp_path: Path,
) -> None:
    table = HostTable(
        TableOptions.make(players=2, hands_to_win=1), name="t", identity=Identity.generate()
    )
    server, port, fp = await _serve(tmp_path, table)
    relay = Relay(port)
    target = Target("127.0.0.1", await relay.start(), None, fp)
    identity = Identity.generate()
    first = _client(identity, target, tmp_path)
    again: TableClient | None = None
    try:
        await first.start()
        s = first.session
        assert await first.wait_for(lambda: bool(s.state.seats), 10), "no welcome"
        first.send(*s.take_seat(0), *s.set_ai_seat(1, "random"), *s.ready())
        assert await first.wait_for(lambda: s.state.resume_token is not None, 10)
        first.send(*s.start())
        assert await first.wait_for(lambda: s.state.view is not None, 15), "no hand dealt"
        hand = set(s.state.view.hand)
        # The player's process dies mid-hand: the line drops without a goodbye.
        first.reconnect = False
        assert first.conn is not None
        first.conn.stream.abort()
        await first.close()
        assert await _until(lambda: table.seats[0].conn is None, 10), "host kept the old line"

        relay.drop = 1  # the restarted client's first connection is closed before welcome
        again = _client(identity, target, tmp_path)
        await again.start()
        st = again.session.state
        assert await again.wait_for(lambda: st.seat == 0 and st.view is not None, 15), (
            f"seat {st.seat}, errors {[e.text for e in st.errors]}"
        )
        assert relay.dropped == 1 and again.reconnects == 1
        assert set(st.view.hand) == hand
        assert not st.errors and again.error is None
    finally:
        if again is not None:
            await again.close()
        await first.close()
        await relay.close()
        await server.close()


async def _until(cond: Callable[[], bool], timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            return False
        await asyncio.sleep(0.01)
    return True


async def test_a_first_connection_closed_before_tls_is_tried_again(tmp_path: Path) -> None:
    """A host past its limit for new connections from one address closes the newest before the
    handshake (transport.md 7.1): a client sharing the address gets in on its next attempt."""
    from briscola_lan.net.client import ConnectError
    from briscola_lan.net.player import auto_play, connect, make_chooser

    table = HostTable(
        TableOptions.make(players=2, hands_to_win=1),
        name="t",
        identity=Identity.generate(),
        ai_seats={1: "random"},
    )
    server, port, fp = await _serve(tmp_path, table)
    relay = Relay(port)
    target = Target("127.0.0.1", await relay.start(), None, fp)
    try:
        relay.refuse = 2  # two attempts closed at once: the third gets through
        client = await connect(target, "Ada")
        try:
            stats = await asyncio.wait_for(auto_play(client, make_chooser("random", 0), seat=0), 60)
            assert stats.plays >= 20 and client.error is None and relay.accepted >= 3
        finally:
            await client.close()
        relay.refuse = 3  # every quick attempt closed: a clear error, no hang
        try:
            await connect(target, "Bea")
        except ConnectError as exc:
            assert "cannot reach table" in str(exc)
        else:
            raise AssertionError("three refused attempts must fail")
    finally:
        await relay.close()
        await server.close()
