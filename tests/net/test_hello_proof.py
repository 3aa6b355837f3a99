"""Hello over real TLS: the proof binds the pinned certificate, so a public key, a replayed proof
or a neighbour relaying a player's connection with its own certificate takes no seat."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import tls
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.player import connect, new_session
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.wire.messages import (
    Challenge,
    Error,
    ErrorCode,
    SeatAssigned,
    TakeSeat,
    Welcome,
)
from tests.net.helpers import RawPeer


async def _serve(tmp_path: Path) -> tuple[HostServer, HostTable, int, str]:
    table = HostTable(TableOptions.make(players=2), name="t", identity=Identity.generate())
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    return server, table, hosted.port, cert.fingerprint


class TlsRelay:
    """A neighbour in the middle: TLS to the client with its own certificate, TLS to the host."""

    def __init__(self, tmp_path: Path, host_port: int) -> None:
        self.cert = tls.load_or_create_certificate(tmp_path / "relay")
        self.host_port = host_port
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(
            self._relay, "127.0.0.1", 0, ssl=tls.server_context(self.cert)
        )
        return int(self._server.sockets[0].getsockname()[1])

    async def close(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    async def _relay(self, cr: asyncio.StreamReader, cw: asyncio.StreamWriter) -> None:
        hr, hw = await asyncio.open_connection(
            "127.0.0.1", self.host_port, ssl=tls.client_context()
        )

        async def pipe(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError, OSError):
                while data := await r.read(65536):
                    w.write(data)
            w.close()

        for task in (
            asyncio.create_task(pipe(cr, hw)),
            asyncio.create_task(pipe(hr, cw)),
        ):
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)


async def test_a_public_key_or_another_certificates_proof_takes_no_seat(tmp_path: Path) -> None:
    server, table, port, fp = await _serve(tmp_path)
    victim = await connect(Target("127.0.0.1", port, None, fp), "Vera")
    peers: list[RawPeer] = []
    try:
        victim.send(*victim.session.take_seat(0))
        assert await victim.wait_for(lambda: victim.state.seat == 0, 5)
        key = victim.session.identity.public_key
        # Someone who knows Vera's public key signs with its own key: refused and closed.
        thief = await RawPeer.open(port)
        peers.append(thief)
        impostor = Identity.generate()
        hello = await thief.hello(impostor, "Vera", key=key)
        refused = await thief.next()
        assert isinstance(refused, Error) and refused.code == ErrorCode.BAD_PROOF
        assert await thief.closed_by_peer()
        # A proof made without TLS (an empty channel) does not pass the TLS table either.
        stray = await RawPeer.open(port)
        peers.append(stray)
        await stray.hello(Identity.generate(), "stray", channel=b"")
        refused = await stray.next()
        assert isinstance(refused, Error) and refused.code == ErrorCode.BAD_PROOF
        # Nor does a proof replayed on a new connection (its nonce is the old connection's).
        first = await RawPeer.open(port)
        peers.append(first)
        proven = await first.hello(impostor, "Imp")
        assert isinstance(await first.next(), Welcome)
        replay = await RawPeer.open(port)
        peers.append(replay)
        assert isinstance(await replay.next(), Challenge)
        replay.send(proven)
        refused = await replay.next()
        assert isinstance(refused, Error) and refused.code == ErrorCode.BAD_PROOF
        # An honest raw client that proves its own key over this TLS session gets in.
        honest = await RawPeer.open(port)
        peers.append(honest)
        hugo = Identity.generate()
        await honest.hello(hugo, "Hugo")
        assert isinstance(await honest.next(), Welcome)
        honest.send(TakeSeat(1))
        assert isinstance(await honest.next(), SeatAssigned)
        assert [s.key for s in table.seats] == [key, hugo.public_key]
        assert victim.state.seat == 0 and not victim.state.errors
        assert hello.public_key == key
    finally:
        for peer in peers:
            await peer.close()
        await victim.close()
        await server.close()


async def test_a_relay_with_its_own_certificate_cannot_pass_on_the_proof(tmp_path: Path) -> None:
    server, table, port, _fp = await _serve(tmp_path)
    relay = TlsRelay(tmp_path, port)
    relay_port = await relay.start()
    # The player reaches the relay (first use: it pins whatever certificate it is shown).
    client = TableClient(new_session("Vera"), Target("127.0.0.1", relay_port), reconnect=False)
    try:
        await client.start()
        assert client.pinned == relay.cert.fingerprint
        assert await client.wait_for(lambda: bool(client.state.errors), 10)
        assert client.state.errors[0].code == ErrorCode.BAD_PROOF
        assert await client.wait_for(lambda: client.conn is None or client.conn.closed, 10)
        assert client.state.seats == () and not any(s.occupied for s in table.seats)
        assert all(c.seat is None and not c.hello for c in table.conns.values())
    finally:
        await client.close()
        await relay.close()
        await server.close()
