"""The game's TLS stream (``net/tlsio.py``): standard TLS 1.3 on the wire, nothing lost under
back-pressure, ``close`` flushes, ``abort`` drops, and a listener that shrugs off bad peers."""

from __future__ import annotations

import asyncio
import hashlib
import os
import socket
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from briscola_lan.net import tls, tlsio


@pytest.fixture
def server_ctx(tmp_path: Path) -> object:
    return tls.server_context(tls.load_or_create_certificate(tmp_path))


class Accepted:
    """A listener whose connections land in a queue."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[tlsio.TLSStream] = asyncio.Queue()

    async def __call__(self, stream: tlsio.TLSStream) -> None:
        await self.queue.put(stream)


@pytest.fixture
async def listener(server_ctx: object) -> AsyncIterator[tuple[tlsio.Listener, Accepted]]:
    accepted = Accepted()
    lst = await tlsio.listen(
        ["127.0.0.1"],
        0,
        server_ctx,
        accepted,
        handshake_timeout=0.5,  # type: ignore[arg-type]
    )
    yield lst, accepted
    lst.close()
    await lst.wait_closed()
    while not accepted.queue.empty():
        accepted.queue.get_nowait().abort()


@pytest.fixture
async def pair(
    listener: tuple[tlsio.Listener, Accepted],
) -> AsyncIterator[tuple[tlsio.TLSStream, tlsio.TLSStream]]:
    """A connected (client, server) pair of TLS streams."""
    lst, accepted = listener
    client = await tlsio.open_stream("127.0.0.1", port_of(lst), tls.client_context(), timeout=5)
    server = await asyncio.wait_for(accepted.queue.get(), 5)
    yield client, server
    client.abort()
    server.abort()


def port_of(lst: tlsio.Listener) -> int:
    return int(lst.sockets[0].getsockname()[1])


async def read_exactly(stream: tlsio.TLSStream, n: int) -> bytes:
    out = bytearray()
    while len(out) < n:
        data = await stream.read()
        assert data, f"end of stream after {len(out)} of {n} bytes"
        out += data
    return bytes(out)


async def test_asyncio_tls_client_talks_to_the_listener(
    listener: tuple[tlsio.Listener, Accepted],
) -> None:
    lst, accepted = listener
    reader, writer = await asyncio.open_connection(
        "127.0.0.1", port_of(lst), ssl=tls.client_context()
    )
    server = await asyncio.wait_for(accepted.queue.get(), 5)
    assert writer.get_extra_info("ssl_object").version() == "TLSv1.3"
    writer.write(b"hello host")
    assert await asyncio.wait_for(read_exactly(server, 10), 5) == b"hello host"
    server.write(b"hello client")
    assert await asyncio.wait_for(reader.readexactly(12), 5) == b"hello client"
    server.close()
    assert await asyncio.wait_for(reader.read(), 5) == b""  # close_notify, then end of stream
    writer.close()
    await server.wait_closed()


async def test_open_stream_talks_to_an_asyncio_tls_server(server_ctx: object) -> None:
    async def echo(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(65536):
            writer.write(data)
        writer.close()

    server = await asyncio.start_server(echo, "127.0.0.1", 0, ssl=server_ctx)  # type: ignore[arg-type]
    try:
        port = server.sockets[0].getsockname()[1]
        stream = await tlsio.open_stream("127.0.0.1", port, tls.client_context(), timeout=5)
        assert tls.peer_fingerprint(stream.ssl_object)  # the certificate can be pinned
        stream.write(b"ping" * 1000)
        assert await asyncio.wait_for(read_exactly(stream, 4000), 5) == b"ping" * 1000
        stream.close()
        await asyncio.wait_for(stream.wait_closed(), 5)
    finally:
        server.close()
        await server.wait_closed()


async def test_megabytes_to_a_slow_reader_arrive_whole_and_in_order(
    pair: tuple[tlsio.TLSStream, tlsio.TLSStream],
) -> None:
    client, server = pair
    server.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
    payload = os.urandom(3 * 1024 * 1024 + 17)
    for i in range(0, len(payload), 50_000):  # many writes while the kernel is full
        server.write(payload[i : i + 50_000])
    assert server.buffered_out() > 0  # the kernel could not take 3 MB at once
    await asyncio.sleep(0.2)  # the reader is slow: nothing moves meanwhile
    got = await asyncio.wait_for(read_exactly(client, len(payload)), 20)
    assert hashlib.sha256(got).digest() == hashlib.sha256(payload).digest()
    assert server.buffered_out() == 0
    server.abort()
    client.abort()


async def test_close_sends_what_was_queued_first(
    pair: tuple[tlsio.TLSStream, tlsio.TLSStream],
) -> None:
    client, server = pair
    server.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 16 * 1024)
    payload = os.urandom(1024 * 1024)
    server.write(payload)
    server.close()  # queued bytes still go out
    assert server.is_closing()
    server.write(b"after close")  # ignored, not an error
    got = await asyncio.wait_for(read_exactly(client, len(payload)), 20)
    assert got == payload
    assert await asyncio.wait_for(client.read(), 5) == b""
    await asyncio.wait_for(server.wait_closed(), 5)
    client.close()


async def test_abort_drops_at_once_and_the_peer_sees_the_end(
    pair: tuple[tlsio.TLSStream, tlsio.TLSStream],
) -> None:
    client, server = pair
    client.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    server.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    server.write(os.urandom(2 * 1024 * 1024))  # far more than the kernel holds
    server.abort()
    assert server.buffered_out() == 0
    await asyncio.wait_for(server.wait_closed(), 1)
    async with asyncio.timeout(5):
        while True:  # whatever had reached the kernel, then the end
            try:
                if not await client.read():
                    break
            except (OSError, ConnectionError):
                break
    client.abort()


async def test_a_reader_that_falls_behind_is_paused_and_loses_nothing(
    pair: tuple[tlsio.TLSStream, tlsio.TLSStream],
) -> None:
    client, server = pair
    payload = os.urandom(3 * tlsio.READ_PAUSE)
    client.write(payload)
    await asyncio.sleep(0.5)  # the server's loop reads ahead of its reader, up to the limit
    assert tlsio.READ_PAUSE <= server.buffered_in() < 2 * tlsio.READ_PAUSE
    got = await asyncio.wait_for(read_exactly(server, len(payload)), 20)
    assert got == payload
    client.abort()
    server.abort()


async def test_bad_peers_never_reach_the_handler_and_the_listener_keeps_serving(
    listener: tuple[tlsio.Listener, Accepted],
) -> None:
    lst, accepted = listener
    port = port_of(lst)
    # Not TLS at all: the handshake fails.
    _, garbage = await asyncio.open_connection("127.0.0.1", port)
    garbage.write(b"GET / HTTP/1.0\r\n\r\n")
    # TCP but silent: dropped after the handshake timeout (0.5 s here).
    silent_r, silent_w = await asyncio.open_connection("127.0.0.1", port)
    assert await asyncio.wait_for(silent_r.read(), 5) == b""
    garbage.close()
    silent_w.close()
    assert accepted.queue.empty()
    good = await tlsio.open_stream("127.0.0.1", port, tls.client_context(), timeout=5)
    server = await asyncio.wait_for(accepted.queue.get(), 5)
    good.write(b"still here")
    assert await asyncio.wait_for(read_exactly(server, 10), 5) == b"still here"
    good.abort()
    server.abort()


async def test_every_address_listens_on_the_same_port(server_ctx: object) -> None:
    accepted = Accepted()
    lst = await tlsio.listen(
        ["127.0.0.1", "127.0.0.2"],
        0,
        server_ctx,
        accepted,
        handshake_timeout=5,  # type: ignore[arg-type]
    )
    try:
        ports = {s.getsockname()[1] for s in lst.sockets}
        assert len(lst.sockets) == 2 and len(ports) == 1
        for address in ("127.0.0.1", "127.0.0.2"):
            stream = await tlsio.open_stream(address, port_of(lst), tls.client_context(), timeout=5)
            server = await asyncio.wait_for(accepted.queue.get(), 5)
            assert server.socket.getsockname()[0] == address
            stream.abort()
            server.abort()
    finally:
        lst.close()
        await lst.wait_closed()


async def test_connecting_to_a_closed_port_is_an_os_error() -> None:
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    with pytest.raises(OSError):
        await tlsio.open_stream("127.0.0.1", port, tls.client_context(), timeout=5)


async def test_running_out_of_descriptors_pauses_accepting_instead_of_spinning(
    server_ctx: object,
) -> None:
    import errno

    real = socket.socket()
    real.bind(("127.0.0.1", 0))
    real.listen()
    real.setblocking(False)

    class OutOfDescriptors:
        """The listening socket, whose first accept() fails as with EMFILE."""

        calls = 0

        def fileno(self) -> int:
            return real.fileno()

        def getsockname(self) -> object:
            return real.getsockname()

        def accept(self) -> tuple[socket.socket, object]:
            OutOfDescriptors.calls += 1
            if OutOfDescriptors.calls == 1:
                raise OSError(errno.EMFILE, "Too many open files")
            return real.accept()

        def close(self) -> None:
            real.close()

    accepted = Accepted()
    lst = tlsio.Listener([OutOfDescriptors()], server_ctx, accepted, 5)  # type: ignore[list-item,arg-type]
    try:
        port = real.getsockname()[1]
        opening = asyncio.ensure_future(
            tlsio.open_stream("127.0.0.1", port, tls.client_context(), timeout=5)
        )
        await asyncio.sleep(0.5)
        assert OutOfDescriptors.calls == 1  # paused: no busy loop on a readable socket
        client = await opening  # accepted after the pause, then the handshake
        server = await asyncio.wait_for(accepted.queue.get(), 5)
        assert OutOfDescriptors.calls >= 2
        client.abort()
        server.abort()
    finally:
        lst.close()
        await lst.wait_closed()


async def test_a_consumer_gets_everything_in_order_then_one_end(
    pair: tuple[tlsio.TLSStream, tlsio.TLSStream],
) -> None:
    """``set_consumer``: bytes that came before it are handed over first, then each arrival
    inside the readable callback, then ``b""`` once when the peer closes."""
    client, server = pair
    client.write(b"before ")
    await asyncio.sleep(0.05)  # it is in the server's buffer (or the kernel's) already
    got: list[bytes] = []
    ended = asyncio.Event()

    def consume(data: bytes) -> None:
        got.append(data)
        if not data:
            ended.set()

    server.set_consumer(consume)
    chunks = [os.urandom(3000) for _ in range(20)]
    for chunk in chunks:
        client.write(chunk)
    client.close()
    await asyncio.wait_for(ended.wait(), 5)
    assert got.count(b"") == 1 and got[-1] == b""
    assert b"".join(got) == b"before " + b"".join(chunks)
    assert server.error is None


async def test_a_consumer_hears_of_an_abort_and_can_go_back_to_read(
    pair: tuple[tlsio.TLSStream, tlsio.TLSStream],
) -> None:
    client, server = pair
    got: list[bytes] = []
    server.set_consumer(got.append)
    client.write(b"one")
    for _ in range(100):
        if got:
            break
        await asyncio.sleep(0.01)
    assert got == [b"one"]
    server.set_consumer(None)  # back to read(): nothing is lost in between
    client.write(b"two")
    assert await read_exactly(server, 3) == b"two"
    got.clear()
    server.set_consumer(got.append)
    server.abort()  # our own end: the consumer hears it once
    await asyncio.sleep(0.05)
    assert got == [b""]


async def test_a_peer_gone_without_close_notify_is_the_end_of_the_stream(
    pair: tuple[tlsio.TLSStream, tlsio.TLSStream],
) -> None:
    """A peer whose TCP connection closes without TLS's close_notify (a killed process, a
    dropped link): what it sent arrives, then the end of the stream, not an error."""
    client, server = pair
    server.write(b"last words")
    assert await read_exactly(client, 10) == b"last words"
    server.abort()  # the socket closed at once, no close_notify
    assert await asyncio.wait_for(client.read(), 5) == b""
    assert await asyncio.wait_for(client.read(), 5) == b""  # and stays ended
