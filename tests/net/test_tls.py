"""Certificates, fingerprints, pinning and trust on first use."""

from __future__ import annotations

import asyncio
import ssl
from pathlib import Path

import pytest

from briscola_lan.net import tls


def test_certificate_is_created_once_and_reloaded(tmp_path: Path) -> None:
    first = tls.load_or_create_certificate(tmp_path)
    again = tls.load_or_create_certificate(tmp_path)
    assert first.fingerprint == again.fingerprint
    assert len(first.fingerprint) == 64
    assert (tmp_path / tls.KEY_FILE).stat().st_mode & 0o777 == 0o600
    other = tls.load_or_create_certificate(tmp_path / "other")
    assert other.fingerprint != first.fingerprint


def test_normalize_fingerprint_accepts_colons_and_case() -> None:
    fp = "ab" * 32
    assert tls.normalize_fingerprint(":".join(["AB"] * 32)) == fp
    with pytest.raises(tls.TlsError, match="64 hex digits"):
        tls.normalize_fingerprint("abc")


def test_known_tables_trust_on_first_use(tmp_path: Path) -> None:
    known = tls.KnownTables(tmp_path / "known")
    known.check_and_remember("Kitchen table", "aa" * 32)
    known.check_and_remember("Kitchen table", "AA" * 32)  # same one, other spelling
    known.check_and_remember("10.0.0.1:4000", "bb" * 32)
    assert tls.KnownTables(tmp_path / "known").get("Kitchen table") == "aa" * 32
    with pytest.raises(tls.CertificateChanged, match="delete the line"):
        known.check_and_remember("Kitchen table", "cc" * 32)


async def test_pinned_fingerprint_matches_the_handshake(tmp_path: Path) -> None:
    cert = tls.load_or_create_certificate(tmp_path)

    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(await reader.read(10))
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0, ssl=tls.server_context(cert))
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port, ssl=tls.client_context())
    sslobj = writer.get_extra_info("ssl_object")
    assert sslobj.version() == "TLSv1.3"
    actual = tls.peer_fingerprint(sslobj)
    assert actual == cert.fingerprint
    tls.check_pin(actual, cert.fingerprint.upper(), table="t")
    with pytest.raises(tls.CertificateMismatch, match="--fingerprint"):
        tls.check_pin(actual, "00" * 32, table="t")
    writer.write(b"hi")
    assert await reader.read(10) == b"hi"
    writer.close()
    await writer.wait_closed()
    server.close()
    await server.wait_closed()


def test_client_context_refuses_old_tls() -> None:
    assert tls.client_context().minimum_version == ssl.TLSVersion.TLSv1_3


def _ticket_after_handshake(server_ctx: ssl.SSLContext) -> bool:
    """Whether a client holds a TLS session ticket once the first byte from ``server_ctx``
    has arrived (tickets come right after the handshake, before application data)."""
    import socket
    import threading

    a, b = socket.socketpair()
    with a, b:

        def serve() -> None:
            with server_ctx.wrap_socket(a, server_side=True) as s:
                s.sendall(b"x")
                s.recv(1)

        t = threading.Thread(target=serve)
        t.start()
        with tls.client_context().wrap_socket(b) as c:
            assert c.recv(1) == b"x"
            has_ticket = c.session is not None and c.session.has_ticket
            c.sendall(b"y")
        t.join(10)
    return has_ticket


def test_the_host_issues_no_session_tickets(tmp_path: Path) -> None:
    """Seats resume with the protocol's resume token, never a TLS session: tickets would be
    handshake work and bytes for nothing."""
    cert = tls.load_or_create_certificate(tmp_path)
    ticketing = tls.server_context(cert)
    ticketing.num_tickets = 2  # OpenSSL's default: the client then holds one
    assert _ticket_after_handshake(ticketing)
    assert not _ticket_after_handshake(tls.server_context(cert))
