"""Shared helpers for the network tests: a small lobby coordinator and raw TLS peers."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import secrets
import socket
import struct
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import hello_proof
from briscola_lan.net import tls
from briscola_lan.net.client import Target
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import TableInfo
from briscola_lan.wire import codec
from briscola_lan.wire.messages import (
    PROTOCOL_VERSION,
    Challenge,
    Error,
    ErrorCode,
    Hello,
    Message,
    SeatAssigned,
    SeatsChanged,
    TakeSeat,
)


@dataclass(frozen=True, slots=True)
class Out:
    """Same shape as ``table.host.Outgoing``."""

    conn: int
    message: Message
    close: bool = False


@dataclass
class LobbyTable:
    """A coordinator of the HostTable shape: seats only, every change broadcast to all."""

    name: str = "lobby"
    conns: list[int] = field(default_factory=list)
    seats: dict[int, int] = field(default_factory=dict)  # seat -> conn
    received: list[tuple[int, Message]] = field(default_factory=list)
    challenge: bool = False  # send a challenge first, as a real table does (a ClientSession waits)

    def connect(self, conn: int, channel: bytes = b"") -> list[Out]:
        self.conns.append(conn)
        if not self.challenge:
            return []
        # Like a real table, a challenge first (this fake does not check the proof).
        return [Out(conn, Challenge(secrets.token_bytes(32), b"\x01" * 32))]

    def receive(self, conn: int, message: Message) -> list[Out]:
        self.received.append((conn, message))
        if isinstance(message, Hello):
            return [Out(conn, SeatAssigned(None, f"token-{conn}"))]
        if isinstance(message, TakeSeat):
            if message.seat in self.seats:
                return [Out(conn, Error(ErrorCode.SEAT_TAKEN, "taken"))]
            self.seats[message.seat] = conn
            return [Out(c, SeatsChanged((), f"{conn} sat at {message.seat}")) for c in self.conns]
        return [Out(conn, Error(ErrorCode.WRONG_PHASE, "not here"))]

    def disconnect(self, conn: int) -> list[Out]:
        self.conns.remove(conn)
        self.seats = {s: c for s, c in self.seats.items() if c != conn}
        return [Out(c, SeatsChanged((), f"{conn} left")) for c in self.conns]

    def tick(self, now: float) -> list[Out]:
        return []

    def info(self) -> TableInfo:
        free = tuple(s for s in range(4) if s not in self.seats)
        return TableInfo(
            self.name,
            TableOptions(players=4),
            seated=4 - len(free),
            free_seats=free,
            version="1",
            host_fingerprint="",
            phase="lobby",
        )

    def snapshot(self) -> bytes:
        return repr(sorted(self.seats.items())).encode()


async def start_host(
    tmp_path: Path, table: LobbyTable, **kwargs: object
) -> tuple[HostServer, int, str]:
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(
        tls.server_context(cert),
        hosts=["127.0.0.1"],
        fingerprint=cert.fingerprint,
        **kwargs,  # type: ignore[arg-type]
    )
    hosted = await server.add_table("t", table)
    return server, hosted.port, cert.fingerprint


class RawPeer:
    """A TLS peer that writes whatever bytes a test wants and decodes what comes back."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer
        self.decoder = codec.FrameDecoder()
        self.inbox: list[Message] = []

    @staticmethod
    async def open(port: int, **kwargs: object) -> RawPeer:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1",
            port,
            ssl=tls.client_context(),
            **kwargs,  # type: ignore[arg-type]
        )
        return RawPeer(reader, writer)

    @staticmethod
    async def open_sock(sock: socket.socket) -> RawPeer:
        reader, writer = await asyncio.open_connection(
            sock=sock, ssl=tls.client_context(), server_hostname=""
        )
        return RawPeer(reader, writer)

    def send(self, message: Message) -> None:
        self.writer.write(codec.encode_frame(message))

    def certificate_sha256(self) -> bytes:
        """The SHA-256 of the certificate this TLS session showed: the hello's channel binding."""
        der = self.writer.get_extra_info("ssl_object").getpeercert(binary_form=True)
        return hashlib.sha256(der).digest()

    async def hello(
        self,
        identity: Identity,
        name: str = "raw",
        token: str | None = None,
        *,
        channel: bytes | None = None,
        key: bytes | None = None,
    ) -> Hello:
        """Read the host's challenge and answer it with a hello announcing ``key`` (default: the
        identity's own), proven by ``identity`` over this TLS session (or ``channel``)."""
        ch = await self.next()
        assert isinstance(ch, Challenge), ch
        bound = self.certificate_sha256() if channel is None else channel
        announced = identity.public_key if key is None else key
        body = hello_proof(ch.nonce, ch.host_key, bound, announced)
        hello = Hello(PROTOCOL_VERSION, name, announced, token, identity.sign(body))
        self.send(hello)
        return hello

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def next(self, timeout: float = 5.0) -> Message:
        while not self.inbox:
            data = await asyncio.wait_for(self.reader.read(65536), timeout)
            if not data:
                raise ConnectionResetError("closed by the host")
            self.inbox.extend(self.decoder.feed(data))
        return self.inbox.pop(0)

    async def closed_by_peer(self, timeout: float = 5.0) -> bool:
        try:
            while True:
                data = await asyncio.wait_for(self.reader.read(65536), timeout)
                if not data:
                    return True
        except (ConnectionError, OSError):
            return True

    async def close(self) -> None:
        self.writer.close()
        with contextlib.suppress(ConnectionError, OSError, TimeoutError):
            await asyncio.wait_for(self.writer.wait_closed(), 2.0)


def frame(body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + body


@asynccontextmanager
async def silent_table(tmp_path: Path, answer: bytes = b"") -> AsyncIterator[Target]:
    """A TLS server that accepts, optionally writes ``answer``, then says nothing."""
    cert = tls.load_or_create_certificate(tmp_path / "cert")
    held: list[asyncio.StreamWriter] = []

    async def on_client(_r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        held.append(w)
        if answer:
            w.write(answer)

    server = await asyncio.start_server(on_client, "127.0.0.1", 0, ssl=tls.server_context(cert))
    port = server.sockets[0].getsockname()[1]
    try:
        yield Target("127.0.0.1", port, None, cert.fingerprint)
    finally:
        for w in held:
            w.close()
        server.close()
        await server.wait_closed()
