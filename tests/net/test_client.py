"""The client library against a real TLS host: pinning, TOFU, reconnect with the resume token."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, TableClient, Target, parse_address
from briscola_lan.wire.messages import Hello, Message, SeatAssigned, TakeSeat
from tests.net.helpers import LobbyTable, start_host


@dataclass
class State:
    resume_token: str | None = None
    inbox: list[Message] = field(default_factory=list)


@dataclass
class Session:
    """The ClientSession shape, recording what it is given."""

    state: State = field(default_factory=State)
    hellos: list[str | None] = field(default_factory=list)

    def hello(self, resume_token: Any = None) -> list[Message]:
        self.hellos.append(resume_token)
        return [Hello(1, "me", b"k" * 32, resume_token)]

    def receive(self, message: Message) -> list[Message]:
        self.state.inbox.append(message)
        if isinstance(message, SeatAssigned):
            self.state.resume_token = message.resume_token
        return []


def test_parse_address() -> None:
    assert parse_address("10.1.2.3:4000") == ("10.1.2.3", 4000)
    assert parse_address("[fe80::1%2]:7") == ("fe80::1%2", 7)
    assert parse_address("Kitchen table") is None
    assert parse_address("host:notaport") is None


async def test_reconnects_and_resumes_with_its_token(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, fp = await start_host(tmp_path, table)
    session = Session()
    client = TableClient(
        session, Target("127.0.0.1", port, None, fp), known_tables=tls.KnownTables(tmp_path / "k")
    )
    try:
        await client.start()
        assert await client.wait_for(lambda: session.state.resume_token is not None, 5)
        first = session.state.resume_token
        client.send(TakeSeat(1))
        assert await client.wait_for(lambda: 1 in table.seats, 5)
        for conn in list(server.tables["t"].conns.values()):
            conn.abort("test: cut the line")
        assert await client.wait_for(lambda: client.reconnects == 1 and len(session.hellos) == 2, 5)
        assert session.hellos == [None, first]
        assert await client.wait_for(lambda: len(table.received) >= 3, 5)
        assert table.received[-1][1] == Hello(1, "me", b"k" * 32, first)
    finally:
        await client.close()
        await server.close()


async def test_wrong_fingerprint_is_refused(tmp_path: Path) -> None:
    server, port, _ = await start_host(tmp_path, LobbyTable())
    try:
        client = TableClient(Session(), Target("127.0.0.1", port, None, "00" * 32))
        with pytest.raises(tls.CertificateMismatch, match="--fingerprint"):
            await client.start()
        await client.close()
    finally:
        await server.close()


async def test_changed_certificate_is_refused_on_reconnect(tmp_path: Path) -> None:
    known = tls.KnownTables(tmp_path / "known")
    server, port, _ = await start_host(tmp_path / "a", LobbyTable())
    session = Session()
    client = TableClient(session, Target("127.0.0.1", port), known_tables=known)
    await client.start()
    assert await client.wait_for(lambda: session.state.resume_token is not None, 5)
    await server.close()
    # Another host (new certificate) takes over the same port.
    cert = tls.load_or_create_certificate(tmp_path / "b")
    impostor = await asyncio.start_server(
        lambda r, w: w.close(), "127.0.0.1", port, ssl=tls.server_context(cert), reuse_address=True
    )
    try:
        assert await client.wait_for(lambda: client.error is not None, 10)
        assert isinstance(client.error, tls.CertificateChanged)
        assert "changed" in str(client.error)
        # A fresh client is refused too, with the same clear message.
        again = TableClient(Session(), Target("127.0.0.1", port), known_tables=known)
        with pytest.raises(tls.CertificateChanged, match="delete the line"):
            await again.start()
        await again.close()
    finally:
        await client.close()
        impostor.close()
        await impostor.wait_closed()


async def test_nobody_listening_is_a_clear_error(tmp_path: Path) -> None:
    client = TableClient(Session(), Target("127.0.0.1", 1))
    with pytest.raises(ConnectError, match="Is the host running"):
        await client.start()
    await client.close()
