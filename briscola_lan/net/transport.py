"""Frames over TLS streams: one write per frame, a bounded send buffer, TCP keepalive.

The framing itself (length prefix + msgpack) is the pure codec's; this module only moves its
bytes. A peer that does not read is dropped once its pending output passes ``max_send_buffer``
so that it can never hold up the host; a broken frame drops the connection. Heartbeats
(``Ping``/``Pong``) are answered and consumed here: a peer quiet for an interval is pinged, a
peer quiet for the timeout is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import select
import socket
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from briscola_lan.net.tlsio import TLSStream
from briscola_lan.wire.codec import MessageError
from briscola_lan.wire.messages import Ping, Pong

_FIONREAD: tuple[Callable[..., Any], int] | None
try:  # Linux, macOS, the BSDs: the kernel says how many bytes wait on a socket
    from fcntl import ioctl
    from termios import FIONREAD

    _FIONREAD = (ioctl, FIONREAD)
except ImportError:  # Windows
    _FIONREAD = None

# Defaults (normative values in protocol/transport.md).
MAX_SEND_BUFFER = 256 * 1024
KEEPALIVE_IDLE = 5
KEEPALIVE_INTERVAL = 2
KEEPALIVE_COUNT = 3
KERNEL_SNDBUF = 128 * 1024  # fixed on the host's sockets: bounds what a non-reader can hold
USER_TIMEOUT_MS = 11_000  # unacknowledged data for this long: the peer is gone
HEARTBEAT_INTERVAL = 5.0  # seconds of silence from the peer before we ping it
HEARTBEAT_TIMEOUT = 15.0  # seconds of silence from the peer before we drop it
MAX_NONCE = 2**31 - 1


class HeartbeatError(ValueError):
    """Heartbeat settings that cannot work; the message says what to change."""


@dataclass(frozen=True, slots=True)
class Heartbeat:
    """When to ping a quiet peer and when to give it up (protocol/transport.md section 5)."""

    interval: float = HEARTBEAT_INTERVAL
    timeout: float = HEARTBEAT_TIMEOUT

    def __post_init__(self) -> None:
        if not 0 < self.interval < self.timeout:
            raise HeartbeatError(
                f"heartbeat interval {self.interval} s must be above 0 and below the timeout "
                f"{self.timeout} s (e.g. 5 and 15)"
            )

    @staticmethod
    def parse(text: str) -> Heartbeat:
        """``INTERVAL/TIMEOUT`` in seconds, e.g. ``5/15``, or one number (timeout = 3x)."""
        interval, sep, timeout = text.partition("/")
        try:
            i = float(interval)
            t = float(timeout) if sep else 3 * i
        except ValueError:
            raise HeartbeatError(
                f"heartbeat {text!r}: expected INTERVAL/TIMEOUT in seconds, e.g. 5/15"
            ) from None
        return Heartbeat(i, t)


def heartbeat_option(text: str) -> Heartbeat:
    """``argparse`` type for ``--heartbeat INTERVAL/TIMEOUT``: bad values become usage errors."""
    import argparse

    try:
        return Heartbeat.parse(text)
    except HeartbeatError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


class Decoder(Protocol):
    """The incremental frame decoder shape (``wire.codec.FrameDecoder``)."""

    def feed(self, data: bytes) -> list[Any]: ...


Encoder = Callable[[Any], bytes]


def default_codec() -> tuple[Encoder, Callable[[], Decoder]]:
    """The project codec: ``wire.codec.encode_frame`` and ``wire.codec.FrameDecoder``."""
    from briscola_lan.wire import codec

    return codec.encode_frame, codec.FrameDecoder


def set_keepalive(sock: socket.socket | None, sndbuf: int | None = None) -> None:
    """Enable TCP keepalive so that a vanished peer is noticed within ~11 s even when idle."""
    if sock is None:
        return
    options = [(socket.SOL_SOCKET, "SO_SNDBUF", sndbuf), (socket.SOL_SOCKET, "SO_KEEPALIVE", 1)]
    options += [
        (socket.IPPROTO_TCP, "TCP_KEEPIDLE", KEEPALIVE_IDLE),
        (socket.IPPROTO_TCP, "TCP_KEEPINTVL", KEEPALIVE_INTERVAL),
        (socket.IPPROTO_TCP, "TCP_KEEPCNT", KEEPALIVE_COUNT),
        (socket.IPPROTO_TCP, "TCP_USER_TIMEOUT", USER_TIMEOUT_MS),  # Linux only
    ]
    for level, name, value in options:
        option = getattr(socket, name, None)  # each one the system has, one by one
        if option is not None and value is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(level, option, value)


def kernel_unread(sock: socket.socket) -> int:
    """Bytes waiting in the kernel for ``sock``: the FIONREAD count, else 1 if any (``select``).

    Where there is no FIONREAD ioctl (Windows), a socket that polls readable counts as one byte:
    the callers only ask whether the peer sent something.
    """
    with contextlib.suppress(OSError, ValueError):
        if _FIONREAD is not None:
            call, request = _FIONREAD
            raw = call(sock.fileno(), request, b"\0\0\0\0")
            return int(struct.unpack("i", raw)[0])
        readable, _, _ = select.select([sock], [], [], 0)
        return 1 if readable else 0
    return 0


class FrameConnection:
    """One framed connection: ``send`` never blocks; ``read`` returns decoded messages."""

    def __init__(
        self,
        stream: TLSStream,
        *,
        encode: Encoder,
        decoder: Decoder,
        max_send_buffer: int = MAX_SEND_BUFFER,
        sndbuf: int | None = None,
    ) -> None:
        self.stream = stream
        self.encode = encode
        self.decoder = decoder
        self.max_send_buffer = max_send_buffer
        self.closed = False
        self.close_reason = ""
        self.last_heard = time.monotonic()  # when the peer last sent us any bytes
        self.last_ping = 0.0
        self.nonce = 0
        set_keepalive(stream.socket, sndbuf)

    @property
    def peer(self) -> str:
        addr = self.stream.peername
        if isinstance(addr, tuple) and len(addr) >= 2:
            return f"{addr[0]}:{addr[1]}"
        return str(addr)

    def send(self, message: Any) -> bool:
        """Queue one frame in ONE write; drop the peer if its unread output passes the limit."""
        if self.closed:
            return False
        return self.send_bytes(self.encode(message))

    def send_bytes(self, frame: bytes) -> bool:
        if self.closed:
            return False
        if self.stream.is_closing():
            self.closed = True
            return False
        if self.stream.write(frame) > self.max_send_buffer:
            self.abort(f"peer is not reading: over {self.max_send_buffer} bytes unsent")
            return False
        return True

    def pending_bytes(self) -> int:
        """Bytes written but not yet handed to the kernel."""
        return self.stream.buffered_out()

    async def read(self) -> list[Any]:
        """The next decoded messages; ``[]`` at end of stream.

        A well-framed but invalid message comes back in place as its ``MessageError`` so that
        the caller can answer it; a ``FrameError`` (broken stream) propagates.
        """
        while True:
            data = await self.stream.read()
            if not data:
                return []
            self.last_heard = time.monotonic()
            out = self.decode(data)
            if out:
                return out

    async def consume(self, on_messages: Callable[[list[Any]], None]) -> None:
        """Hand every batch of decoded messages to ``on_messages`` as its bytes arrive, inside
        the transport's readable callback (no task woken per read), until the stream ends.

        Returns at the end of the stream; raises what broke it: the stream's error, a
        ``FrameError``, or an exception ``on_messages`` raised (reading stops at once). Messages
        come as ``read`` gives them (an invalid one as its ``MessageError``).
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        stream = self.stream

        def take(data: bytes) -> None:
            if done.done():
                return
            if not data:
                error = stream.error
                if error is None:
                    done.set_result(None)
                else:
                    done.set_exception(error)
                return
            self.last_heard = time.monotonic()
            try:
                messages = self.decode(data)
                if messages:
                    on_messages(messages)
            except Exception as exc:  # handed to the awaiting task, as ``read`` would raise it
                stream.set_consumer(None)
                done.set_exception(exc)

        stream.set_consumer(take)
        try:
            await done
        finally:
            stream.set_consumer(None)

    def decode(self, data: bytes) -> list[Any]:
        """Feed bytes to the decoder; invalid messages are returned as their exceptions."""
        out: list[Any] = []
        while True:
            try:
                out.extend(self.decoder.feed(data))
                return out
            except MessageError as exc:
                pending = getattr(self.decoder, "pending", [])
                out.extend(pending)
                pending.clear()
                out.append(exc)
                data = b""

    def answer_heartbeat(self, message: Any) -> bool:
        """Answer a ``Ping`` with its ``Pong``; True when ``message`` was a heartbeat (consumed)."""
        if isinstance(message, Ping):
            self.send(Pong(message.nonce))
            return True
        return isinstance(message, Pong)

    def check_heartbeat(self, heartbeat: Heartbeat, now: float) -> bool:
        """Ping the peer after an interval of silence, drop it after the timeout.

        Returns False when the connection is (now) closed. Before dropping, bytes that arrived
        but are not read yet (our own event loop was stalled) count as hearing from the peer.
        """
        if self.closed:
            return False
        quiet = now - self.last_heard
        if quiet >= heartbeat.timeout and self.unread_bytes() > 0:
            self.last_heard, quiet = now, 0.0
        if quiet >= heartbeat.timeout:
            self.abort(f"peer silent for {quiet:.1f} s (heartbeat timeout {heartbeat.timeout} s)")
            return False
        if quiet >= heartbeat.interval and now - self.last_ping >= heartbeat.interval:
            self.last_ping = now
            self.nonce = self.nonce % MAX_NONCE + 1
            return self.send(Ping(self.nonce))
        return True

    def unread_bytes(self) -> int:
        """Bytes from the peer not yet read: in the kernel socket and the stream buffer."""
        return self.stream.buffered_in() + kernel_unread(self.stream.socket)

    def close(self, reason: str = "closed") -> None:
        """Close after the queued frames are written."""
        if not self.closed:
            self.closed = True
            self.close_reason = reason
            self.stream.close()

    def abort(self, reason: str) -> None:
        """Drop at once, discarding unsent frames."""
        self.closed = True
        self.close_reason = reason
        self.stream.abort()

    async def wait_closed(self, timeout: float = 1.0) -> None:
        """Wait for the queued frames to go out; a peer that takes none in time is dropped."""
        try:
            await asyncio.wait_for(self.stream.wait_closed(), timeout)
        except TimeoutError:
            self.stream.abort()
