"""The host server against bad peers: broken frames, bad messages, non-readers, vanishing peers."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import msgpack

from briscola_lan.wire.messages import Error, ErrorCode, Hello, SeatAssigned, SeatsChanged, TakeSeat
from tests.net.helpers import LobbyTable, RawPeer, frame, start_host

HELLO = Hello(1, "p", b"k" * 32)


async def test_broken_frames_drop_only_that_peer(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, _ = await start_host(tmp_path, table)
    try:
        good = await RawPeer.open(port)
        good.send(HELLO)
        assert isinstance(await good.next(), SeatAssigned)
        for garbage in (
            b"\xff\xff\xff\xff" + b"x" * 10,  # length over the limit
            b"\x00\x00\x00\x00",  # empty frame
            frame(b"\xc1\xc1\xc1"),  # not msgpack
        ):
            bad = await RawPeer.open(port)
            bad.send_raw(garbage)
            assert await bad.closed_by_peer()
            await bad.close()
        good.send(TakeSeat(2))
        changed = await good.next()
        assert isinstance(changed, SeatsChanged)
        assert table.seats == {2: table.conns[0]}
        await good.close()
    finally:
        await server.close()


async def test_bad_message_gets_an_error_and_the_connection_lives(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, _ = await start_host(tmp_path, table)
    try:
        peer = await RawPeer.open(port)
        unknown = msgpack.packb({"type": "teleport", "where": 3})
        wrong_field = msgpack.packb({"type": "take_seat", "seat": "two"})
        # Three frames in one write: valid, unknown type, valid-framed bad field, valid.
        peer.send_raw(
            frame(msgpack.packb({"type": "take_seat", "seat": 1}))
            + frame(unknown)
            + frame(wrong_field)
            + frame(msgpack.packb({"type": "take_seat", "seat": 3}))
        )
        got = [await peer.next() for _ in range(4)]
        errors = [m for m in got if isinstance(m, Error)]
        assert [e.code for e in errors] == [ErrorCode.BAD_MESSAGE] * 2
        assert "teleport" in errors[0].text
        assert sorted(table.seats) == [1, 3]
        await peer.close()
    finally:
        await server.close()


async def test_truncated_frame_then_close_is_a_clean_disconnect(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, _ = await start_host(tmp_path, table)
    try:
        watcher = await RawPeer.open(port)
        watcher.send(HELLO)
        await watcher.next()
        peer = await RawPeer.open(port)
        peer.send(TakeSeat(0))
        await watcher.next()
        whole = frame(msgpack.packb({"type": "take_seat", "seat": 1}))
        peer.send_raw(whole[:-2])
        await asyncio.sleep(0.05)
        await peer.close()
        left = await watcher.next()
        assert isinstance(left, SeatsChanged) and "left" in left.event
        assert 1 not in table.seats and 0 not in table.seats
        await watcher.close()
    finally:
        await server.close()


async def test_a_client_that_stops_reading_is_dropped_and_others_go_on(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, _ = await start_host(
        tmp_path,
        table,
        max_send_buffer=32 * 1024,
        messages=None,  # as fast as it can send
        # This lobby never welcomes anyone: only the unread output may drop the sleeper (on a
        # busy machine the rounds can take longer than the default hello deadline).
        hello_timeout=600.0,
    )
    try:
        # The sleeper never reads; a small receive buffer makes the host's output pile up fast.
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
        sleeper = await RawPeer.open_sock(sock)
        # A connection reaches the table once its TLS handshake is done: wait for the
        # sleeper's before the active peer connects, so that the first one is the sleeper's.
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while not table.conns and loop.time() < end:
            await asyncio.sleep(0.01)
        (sleeper_conn,) = table.conns
        active = await RawPeer.open(port)
        active.send(HELLO)
        await active.next()
        assert len(table.conns) == 2
        # Many broadcasts: each seat change goes to both connections; the sleeper reads none.
        rounds = 0
        while sleeper_conn in table.conns and rounds < 5000:
            for seat in range(4):
                active.send(TakeSeat(seat))
            for _ in range(4):
                await active.next()
            table.seats.clear()
            rounds += 1
        assert sleeper_conn not in table.conns, "the non-reading client was never dropped"
        active.send(TakeSeat(1))
        assert isinstance(await active.next(), SeatsChanged)
        await active.close()
        sleeper.writer.transport.abort()
    finally:
        await server.close()


async def test_host_connections_use_keepalive_and_a_bounded_kernel_buffer(tmp_path: Path) -> None:
    from briscola_lan.net import transport

    table = LobbyTable()
    server, port, _ = await start_host(tmp_path, table)
    try:
        peer = await RawPeer.open(port)
        peer.send(HELLO)
        await peer.next()
        (conn,) = server.tables["t"].conns.values()
        sock = conn.stream.socket
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE) == 1
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_KEEPIDLE) == transport.KEEPALIVE_IDLE
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT) == (
            transport.USER_TIMEOUT_MS
        )
        assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) <= 2 * transport.KERNEL_SNDBUF
        await peer.close()
    finally:
        await server.close()
