"""Application heartbeats: Ping/Pong on the wire, a silent host or client is found within the
timeout, the client reconnects and resumes, and heartbeats never reach a table or a transcript."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import decode
from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net import tls, tlsio
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.games import save_game
from briscola_lan.net.player import auto_play, make_chooser, new_session
from briscola_lan.net.server import HostServer
from briscola_lan.net.transport import FrameConnection, Heartbeat, HeartbeatError
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.wire import codec
from briscola_lan.wire.messages import (
    HEARTBEAT_MESSAGES,
    PROTOCOL_VERSION,
    Hello,
    Message,
    Ping,
    Pong,
    TakeSeat,
)
from tests.net.helpers import LobbyTable, RawPeer, start_host
from tests.net.procs import start_host as start_cli_host

FAST = Heartbeat(0.2, 0.6)
SLOW = Heartbeat(5.0, 30.0)  # never fires within a test


# --- helpers --------------------------------------------------------------------------------


@dataclass(eq=False)
class _Pair:
    """One proxied connection; while frozen no byte moves either way (a hung machine)."""

    frozen: bool = False
    thawed: asyncio.Event = field(default_factory=asyncio.Event)
    writers: list[asyncio.StreamWriter] = field(default_factory=list)


class FreezableProxy:
    """A TCP relay on 127.0.0.1 whose existing connections can be frozen (TLS passes through)."""

    def __init__(self, port: int) -> None:
        self.target_port = port
        self.pairs: list[_Pair] = []
        self.accepted = 0
        self.tasks: set[asyncio.Task[None]] = set()
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._on_client, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    def freeze(self) -> None:
        for pair in self.pairs:
            pair.frozen = True

    def thaw(self) -> None:
        for pair in self.pairs:
            pair.frozen = False
            pair.thawed.set()

    async def _on_client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.accepted += 1
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        pair = _Pair(writers=[writer, up_writer])
        self.pairs.append(pair)
        for r, w in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.get_running_loop().create_task(self._pump(pair, r, w))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _pump(
        self, pair: _Pair, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        try:
            while True:
                while pair.frozen:
                    await pair.thawed.wait()
                data = await reader.read(65536)
                while pair.frozen:
                    await pair.thawed.wait()
                if not data:
                    break
                writer.write(data)
        except (ConnectionError, OSError):
            pass
        finally:
            for w in pair.writers:
                w.transport.abort()

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for pair in self.pairs:
            for w in pair.writers:
                w.transport.abort()
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


async def _serve(
    tmp_path: Path, table: HostTable, heartbeat: Heartbeat | None
) -> tuple[HostServer, int, str]:
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(
        tls.server_context(cert),
        hosts=["127.0.0.1"],
        fingerprint=cert.fingerprint,
        heartbeat=heartbeat,
    )
    hosted = await server.add_table("t", table)
    return server, hosted.port, cert.fingerprint


async def _client(port: int, fp: str, name: str, heartbeat: Heartbeat | None) -> TableClient:
    client = TableClient(
        new_session(name), Target("127.0.0.1", port, None, fp), heartbeat=heartbeat
    )
    await client.start()
    return client


def _host_pings(server: HostServer) -> int:
    return sum(conn.nonce for hosted in server.tables.values() for conn in hosted.conns.values())


def _table(players: int = 2, deal: str | None = None, **kwargs: float) -> HostTable:
    options = TableOptions.make(players=players, hands_to_win=1)
    return HostTable(options, name="t", identity=Identity.generate(), deal=deal, **kwargs)  # type: ignore[arg-type]


# --- codec and settings ---------------------------------------------------------------------


@pytest.mark.parametrize("message", [Ping(0), Ping(2**31 - 1), Pong(1), Pong(-5)])
def test_ping_and_pong_round_trip_through_the_codec(message: Message) -> None:
    frame = codec.encode_frame(message)
    assert codec.FrameDecoder().feed(frame) == [message]
    assert type(message) in HEARTBEAT_MESSAGES


def test_ping_with_a_bad_nonce_is_a_message_error() -> None:
    import msgpack

    body = msgpack.packb({"type": "ping", "nonce": "x"})
    with pytest.raises(codec.MessageError, match="nonce"):
        codec.decode_message(body)


def test_heartbeat_settings_parse_and_refuse_nonsense() -> None:
    assert Heartbeat.parse("0.2/0.6") == Heartbeat(0.2, 0.6)
    assert Heartbeat.parse("2") == Heartbeat(2.0, 6.0)
    for bad in ("5/5", "0/1", "x/3", "10/2"):
        with pytest.raises(HeartbeatError, match="heartbeat"):
            Heartbeat.parse(bad)


async def test_bytes_waiting_unread_count_as_hearing_from_the_peer(tmp_path: Path) -> None:
    accepted: asyncio.Queue[tlsio.TLSStream] = asyncio.Queue()

    async def on_client(stream: tlsio.TLSStream) -> None:
        await accepted.put(stream)

    cert = tls.load_or_create_certificate(tmp_path)
    server = await tlsio.listen(
        ["127.0.0.1"], 0, tls.server_context(cert), on_client, handshake_timeout=5
    )
    port = server.sockets[0].getsockname()[1]
    peer = await tlsio.open_stream("127.0.0.1", port, tls.client_context(), timeout=5)
    conn = FrameConnection(
        await accepted.get(), encode=codec.encode_frame, decoder=codec.FrameDecoder()
    )
    try:
        peer.write(codec.encode_frame(Ping(1)))
        async with asyncio.timeout(5):
            while conn.unread_bytes() == 0:
                await asyncio.sleep(0.01)
        # Our loop "stalled" past the timeout while the peer's Ping waited unread: not silent.
        late = conn.last_heard + FAST.timeout + 1.0
        assert conn.check_heartbeat(FAST, late) and not conn.closed
        assert await conn.read() == [Ping(1)]
        assert conn.unread_bytes() == 0
        # Nothing more from the peer for a whole timeout: dropped.
        assert not conn.check_heartbeat(FAST, late + FAST.timeout + 0.1)
        assert conn.closed and "silent" in conn.close_reason
        async with asyncio.timeout(5):
            assert await peer.read() == b""
    finally:
        peer.abort()
        conn.abort("test over")
        server.close()
        await server.wait_closed()


# --- the host side --------------------------------------------------------------------------


async def test_host_answers_ping_and_the_table_never_sees_it(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, _ = await start_host(tmp_path, table, heartbeat=SLOW)
    peer = await RawPeer.open(port)
    try:
        peer.send(Ping(41))
        peer.send(Hello(PROTOCOL_VERSION, "raw", bytes(32)))
        peer.send(Pong(9))  # an unasked-for Pong is harmless
        assert await peer.next() == Pong(41)
        await peer.next()  # the table's answer to Hello
        assert [type(m) for _, m in table.received] == [Hello]
    finally:
        await peer.close()
        await server.close()


async def test_host_drops_a_silent_client_and_tells_the_others(tmp_path: Path) -> None:
    table = _table()
    server, port, fp = await _serve(tmp_path, table, FAST)
    watcher = await _client(port, fp, "watcher", FAST)
    peer = await RawPeer.open(port)
    try:
        watcher.send(*watcher.session.take_seat(0))
        await peer.hello(Identity.generate(), "silent")
        peer.send(TakeSeat(1))
        assert await watcher.wait_for(
            lambda: len(watcher.state.seats) == 2 and watcher.state.seats[1].connected, 5
        )
        silent_from = time.monotonic()  # the peer sends nothing from now on, not even Pong
        assert await watcher.wait_for(lambda: not watcher.state.seats[1].connected, 5)
        noticed = time.monotonic() - silent_from
        # Pinged after the interval, dropped after the timeout, not before.
        assert FAST.timeout - 0.1 <= noticed <= FAST.timeout + 1.0, noticed
        assert table.seats[1].conn is None and table.seats[1].occupied
        got: list[Message] = []
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            while True:
                got.append(await peer.next(2.0))
        assert any(isinstance(m, Ping) for m in got)
        assert watcher.heartbeat_drops == 0 and watcher.reconnects == 0
    finally:
        await peer.close()
        await watcher.close()
        await server.close()


async def test_a_hung_player_in_a_match_is_dropped_and_an_ai_takes_the_seat(
    tmp_path: Path,
) -> None:
    table = _table(grace=0.2, deal="classic")  # a blind hand has no takeover
    server, port, fp = await _serve(tmp_path, table, FAST)
    proxy = FreezableProxy(port)
    await proxy.start()
    a = await _client(port, fp, "a", FAST)
    b = await _client(proxy.port, fp, "b", None)  # b itself does not notice anything
    tasks = [
        asyncio.create_task(auto_play(c, make_chooser("random", i), seat=i, delay=0.01))
        for i, c in enumerate((a, b))
    ]
    try:
        assert await a.wait_for(lambda: (v := a.state.view) is not None and len(v.tricks) >= 2, 30)
        proxy.freeze()
        frozen_at = time.monotonic()
        assert await a.wait_for(lambda: table.seats[1].taken_over, 10)
        assert time.monotonic() - frozen_at <= FAST.timeout + 0.2 + 2.0
        assert any("lost its connection" in line for line in a.state.log)
        # b wakes up: it sees its connection closed, reconnects and resumes to the end.
        proxy.thaw()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert b.reconnects >= 1 and b.state.match_over and a.state.match_over
        assert b.state.seat == 1 and not b.state.match_aborted
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await a.close()
        await b.close()
        await proxy.close()
        await server.close()


# --- the client side ------------------------------------------------------------------------


async def test_client_notices_a_silent_host_reconnects_and_resumes_its_seat(
    tmp_path: Path,
) -> None:
    table = _table()
    server, port, fp = await _serve(tmp_path, table, SLOW)  # the host would wait 30 s
    proxy = FreezableProxy(port)
    await proxy.start()
    a = await _client(port, fp, "a", FAST)
    b = await _client(proxy.port, fp, "b", FAST)
    tasks = [
        asyncio.create_task(auto_play(c, make_chooser("random", i), seat=i, delay=0.01))
        for i, c in enumerate((a, b))
    ]
    try:
        assert await b.wait_for(lambda: (v := b.state.view) is not None and len(v.tricks) >= 2, 30)
        proxy.freeze()  # the host "hangs" as far as b can tell
        frozen_at = time.monotonic()
        assert await b.wait_for(lambda: b.heartbeat_drops == 1, 5)
        assert time.monotonic() - frozen_at <= FAST.timeout + 0.5
        assert await b.wait_for(lambda: b.reconnects == 1 and b.connected.is_set(), 5)
        assert proxy.accepted == 2  # a new connection, not the frozen one
        results = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert results[1].reconnects == 1
        assert b.state.seat == 1 and b.state.match_over and not b.state.match_aborted
        assert [ch.status for ch in b.state.checks] == ["verified"] * len(b.state.checks)
        assert not any(s.taken_over for s in table.seats)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await a.close()
        await b.close()
        await proxy.close()
        await server.close()


async def test_a_busy_idle_connection_is_kept_alive_by_heartbeats(tmp_path: Path) -> None:
    table = LobbyTable(challenge=True)
    server, port, fp = await start_host(tmp_path, table, heartbeat=FAST)
    client = TableClient(new_session("idle"), Target("127.0.0.1", port, None, fp), heartbeat=FAST)
    await client.start()
    try:
        await asyncio.sleep(FAST.timeout * 3)  # nobody has anything to say for 1.8 s
        # Whichever side's interval ran out first pinged; the other answered.
        assert client.conn is not None
        assert client.conn.nonce + _host_pings(server) >= 3
        assert client.reconnects == 0 and client.heartbeat_drops == 0
        assert [type(m) for _, m in table.received] == [Hello]
    finally:
        await client.close()
        await server.close()


# --- transcripts ----------------------------------------------------------------------------


async def test_heartbeats_never_enter_a_saved_transcript(tmp_path: Path) -> None:
    chatty = Heartbeat(0.05, 5.0)  # a ping every few moves
    table = _table()
    server, port, fp = await _serve(tmp_path, table, chatty)
    clients = [await _client(port, fp, f"p{i}", chatty) for i in range(2)]
    try:
        results = await asyncio.wait_for(
            asyncio.gather(
                *(
                    auto_play(c, make_chooser("random", i), seat=i, delay=0.03)
                    for i, c in enumerate(clients)
                )
            ),
            60,
        )
        assert all(r.reconnects == 0 for r in results)
        pings = sum(c.conn.nonce for c in clients if c.conn is not None) + _host_pings(server)
        assert pings > 0
        files = [
            save_game(tmp_path / "games", table.game_id, "host", table.records, whole=True),
            *(
                save_game(
                    tmp_path / "games", c.state.game_id, f"p{i}", c.session.records, whole=True
                )
                for i, c in enumerate(clients)
            ),
        ]
        for path in files:
            assert path is not None
            text = path.read_text()
            assert "ping" not in text.lower() and "pong" not in text.lower()
            records = load(path)
            for body, _ in records:
                decode(body)  # every record is a fairness statement
            report = verify_records(records)
            assert report.fault is None and report.match_over
    finally:
        for c in clients:
            await c.close()
        await server.close()


# --- the real host command, frozen with SIGSTOP -----------------------------------------------


async def test_host_command_heartbeat_option_and_a_frozen_host_process(tmp_path: Path) -> None:
    host = start_cli_host(
        tmp_path / "h",
        *("--players", "2", "--no-mdns", "--interfaces", "127.0.0.1", "--heartbeat", "0.2/0.6"),
    )
    target = Target("127.0.0.1", host.port, None, host.fingerprint)
    client = TableClient(new_session("b"), target, heartbeat=FAST)
    peer: RawPeer | None = None
    try:
        # --heartbeat reached the server: a raw client that never answers is pinged, then dropped.
        peer = await RawPeer.open(host.port)
        await peer.hello(Identity.generate(), "silent")
        peer.send(TakeSeat(1))
        started = time.monotonic()
        got: list[Message] = []
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            while True:
                got.append(await peer.next(3.0))
        assert time.monotonic() - started <= 0.6 + 1.5
        assert any(isinstance(m, Ping) for m in got)

        await client.start()
        client.send(*client.session.take_seat(0))
        assert await client.wait_for(lambda: client.state.seat == 0, 5)
        token = client.state.resume_token
        host.proc.send_signal(signal.SIGSTOP)  # the host process hangs: no byte comes back
        try:
            frozen_at = time.monotonic()
            assert await client.wait_for(lambda: client.heartbeat_drops == 1, 5)
            assert time.monotonic() - frozen_at <= FAST.timeout + 0.5
        finally:
            host.proc.send_signal(signal.SIGCONT)
        assert await client.wait_for(lambda: client.reconnects == 1 and client.state.seat == 0, 10)
        assert client.state.resume_token == token
        assert await client.wait_for(lambda: client.state.seats[0].connected, 5)
    finally:
        if peer is not None:
            await peer.close()
        await client.close()
        assert host.stop() == 0
