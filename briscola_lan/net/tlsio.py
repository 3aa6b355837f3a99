"""TLS streams on the asyncio loop without asyncio's pure-Python TLS layer.

asyncio's TLS transport (``sslproto``) moves every record through in-memory BIOs in Python: a
few dozen microseconds per read and per write. Here ``ssl`` wraps the non-blocking kernel socket
directly and the loop only reports readiness (``add_reader``/``add_writer``), so a frame costs one
``SSLSocket.send`` and a readable socket one ``recv`` per record, both in C. The bytes on the
wire are the same TLS 1.3 a standard client or server speaks (asyncio streams interoperate).

Semantics follow asyncio's stream transports: ``write`` never blocks and buffers what the kernel
does not take; ``close`` flushes first, ``abort`` drops at once; ``read`` returns what arrived,
``b""`` at end of stream.

A ``Listener`` applies the admission policy of ``net/admission.py`` as it accepts: an address
over its ``AcceptRate`` is closed before any TLS work, and every connection in its handshake is
an entry of an ``AdmissionPool``.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import ssl
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from briscola_lan.net.admission import AcceptRate, Admission, AdmissionPool

READ_CHUNK = 64 * 1024
WRITE_CHUNK = 64 * 1024  # plaintext per SSL_write; a retried write must repeat the same chunk
READ_PAUSE = 1024 * 1024  # unread plaintext above this: stop reading until the reader catches up
RECORDS_PER_WAKE = 16  # a flooding peer cannot keep one readable event going for ever
LISTEN_BACKLOG = 128
ACCEPT_RETRY = 1.0  # seconds without accepting after accept() fails (out of descriptors...)


class TLSStream:
    """One established TLS connection on a non-blocking socket."""

    def __init__(self, sock: ssl.SSLSocket) -> None:
        self._loop = asyncio.get_running_loop()
        self._sock = sock
        # The TLS session's own write (what ``SSLSocket.send`` calls after its checks, which
        # ``write`` makes itself): two Python calls less for each of a host's many writes.
        sslobj = getattr(sock, "_sslobj", None)
        self._tls_write: Callable[[bytes], int] = sock.send if sslobj is None else sslobj.write
        self._tls_read: Callable[[int], bytes] = sock.recv if sslobj is None else sslobj.read
        self._tls_pending: Callable[[], int] = sock.pending if sslobj is None else sslobj.pending
        self._fd = sock.fileno()
        self.peername: Any = _peername(sock)
        self._rbuf = bytearray()
        self._eof = False
        self._error: BaseException | None = None
        self._waiter: asyncio.Future[None] | None = None
        # Instead of ``read``: called with what arrives, at once, inside the readable callback
        # (no task to wake); with ``b""`` once at the end of the stream or on an error.
        self._consumer: Callable[[bytes], None] | None = None
        self._out = bytearray()
        self._inflight: bytes | None = None  # a write OpenSSL asked us to retry as it was
        self._writing = False  # add_writer registered
        self._reading = True
        self._paused = False  # pause_reading: nothing is read until resume_reading
        self._read_wants_write = False
        self._closing = False
        self._closed = self._loop.create_future()
        self.accepted_at = time.monotonic()  # a listener sets the time of the TCP accept
        self.admission: Admission | None = None  # its entry in the listener's pool, if any
        self._loop.add_reader(self._fd, self._on_readable)

    # --- what asyncio's transports offer ----------------------------------------------------

    @property
    def socket(self) -> ssl.SSLSocket:
        return self._sock

    @property
    def ssl_object(self) -> ssl.SSLSocket:
        """The TLS session (``getpeercert`` etc.)."""
        return self._sock

    def is_closing(self) -> bool:
        return self._closing

    def buffered_out(self) -> int:
        """Plaintext written but not yet taken by the kernel."""
        return len(self._out) + (len(self._inflight) if self._inflight is not None else 0)

    def buffered_in(self) -> int:
        """Plaintext received but not yet read, here and inside the TLS session."""
        pending = 0
        with contextlib.suppress(OSError, ValueError, ssl.SSLError):
            pending = self._sock.pending()
        return len(self._rbuf) + pending

    def write(self, data: bytes) -> int:
        """Queue ``data``; send what the kernel takes now, the rest when it is writable.
        Returns what is still buffered (``buffered_out``)."""
        if self._closing or not data:
            return self.buffered_out()
        if self._writing or self._inflight is not None or self._out:
            self._out += data
            return self.buffered_out()
        self._send(bytes(data))
        return 0 if self._inflight is None and not self._out else self.buffered_out()

    async def read(self) -> bytes:
        """What has arrived (at least one byte); ``b""`` at end of stream."""
        while not self._rbuf:
            if self._error is not None:
                raise self._error
            if self._eof or self._closing:
                return b""
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        data = bytes(self._rbuf)
        self._rbuf.clear()
        if not self._reading and not self._closing and not self._eof and not self._paused:
            self._reading = True
            self._loop.add_reader(self._fd, self._on_readable)
            self._loop.call_soon(self._on_readable)  # records already inside the TLS session
        return data

    def set_consumer(self, consumer: Callable[[bytes], None] | None) -> None:
        """Hand everything that arrives to ``consumer`` as it arrives, instead of ``read``.

        What arrived before is handed over first (soon, not inside this call). ``b""`` says
        the stream ended (``error`` tells whether it failed), once; None goes back to ``read``.
        """
        self._consumer = consumer
        if consumer is None:
            return
        if not self._reading and not self._closing and not self._eof and not self._paused:
            self._reading = True
            self._loop.add_reader(self._fd, self._on_readable)
        self._loop.call_soon(self._feed_consumer)

    def pause_reading(self) -> None:
        """Read nothing more until ``resume_reading``: what the peer sends waits in the kernel,
        and TCP's flow control holds the peer back once the buffers are full."""
        self._paused = True
        self._stop_reading()

    def resume_reading(self) -> None:
        """Read again after ``pause_reading`` (records already inside the TLS session first)."""
        if not self._paused:
            return
        self._paused = False
        if self._closing or self._eof or self._error is not None:
            return
        if not self._reading:
            self._reading = True
            self._loop.add_reader(self._fd, self._on_readable)
        self._loop.call_soon(self._on_readable)

    @property
    def error(self) -> BaseException | None:
        """Why the stream failed, if it did."""
        return self._error

    def _feed_consumer(self) -> None:
        consumer = self._consumer
        if consumer is None:
            return
        if self._rbuf:
            data = bytes(self._rbuf)
            self._rbuf.clear()
            consumer(data)
            if self._consumer is not consumer:
                return
        if self._error is not None or self._eof or self._closing:
            self._consumer = None
            consumer(b"")

    def close(self) -> None:
        """Close after the queued bytes are sent (TLS close_notify, then the socket)."""
        if self._closing:
            return
        self._closing = True
        self._stop_reading()
        self._wake()
        if not self._writing and self._inflight is None and not self._out:
            self._finish(shutdown=True)

    def abort(self) -> None:
        """Close at once, dropping whatever is not sent yet."""
        self._closing = True
        self._stop_reading()
        self._wake()
        self._out.clear()
        self._inflight = None
        self._finish(shutdown=False)

    async def wait_closed(self) -> None:
        await asyncio.shield(self._closed)

    # --- readiness callbacks ----------------------------------------------------------------

    def _on_readable(self) -> None:
        if self._closing or self._eof or self._error is not None or self._paused:
            return
        if self._read_wants_write:
            return  # the writable callback retries the read
        read, pending = self._tls_read, self._tls_pending
        try:
            for _ in range(RECORDS_PER_WAKE):
                data = read(READ_CHUNK)
                if not data:
                    self._eof = True
                    self._stop_reading()
                    break
                self._rbuf += data
                if not pending():
                    break
        except ssl.SSLWantReadError:
            pass
        except ssl.SSLWantWriteError:
            self._read_wants_write = True
            self._start_writing()
        except ssl.SSLEOFError as exc:  # the peer's TCP closed without TLS's close_notify:
            if not getattr(self._sock, "suppress_ragged_eofs", True):  # as ``recv`` takes it
                self._fail(exc)
                return
            self._eof = True
            self._stop_reading()
        except (OSError, ssl.SSLError) as exc:
            self._fail(exc)
            return
        if self._consumer is not None:
            self._feed_consumer()
            return
        if len(self._rbuf) > READ_PAUSE and self._reading:
            self._stop_reading()
        self._wake()

    def _on_writable(self) -> None:
        if self._read_wants_write:
            self._read_wants_write = False
            self._on_readable()
        try:
            while True:
                if self._inflight is None:
                    if not self._out:
                        break
                    self._inflight = bytes(self._out[:WRITE_CHUNK])
                    del self._out[:WRITE_CHUNK]
                sent = self._sock.send(self._inflight)
                if sent < len(self._inflight):  # not with OpenSSL's defaults; kept safe anyway
                    self._out[:0] = self._inflight[sent:]
                self._inflight = None
        except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
            return
        except (OSError, ssl.SSLError) as exc:
            self._fail(exc)
            return
        if not self._read_wants_write:
            self._stop_writing()
        if self._closing:
            self._finish(shutdown=True)

    # --- internals --------------------------------------------------------------------------

    def _send(self, data: bytes) -> None:
        if len(data) > WRITE_CHUNK:
            self._out += data
            self._start_writing()
            self._on_writable()
            return
        try:
            sent = self._tls_write(data)
        except (ssl.SSLWantWriteError, ssl.SSLWantReadError, BlockingIOError):
            self._inflight = data
            self._start_writing()
            return
        except (OSError, ssl.SSLError) as exc:
            self._fail(exc)
            return
        if sent < len(data):  # not with OpenSSL's defaults; kept safe anyway
            self._out += data[sent:]
            self._start_writing()

    def _start_writing(self) -> None:
        if not self._writing and not self._closed.done():
            self._writing = True
            self._loop.add_writer(self._fd, self._on_writable)

    def _stop_writing(self) -> None:
        if self._writing:
            self._writing = False
            self._loop.remove_writer(self._fd)

    def _stop_reading(self) -> None:
        if self._reading:
            self._reading = False
            self._loop.remove_reader(self._fd)

    def _wake(self) -> None:
        if self._consumer is not None:  # the end of the stream (close, abort, an error)
            self._loop.call_soon(self._feed_consumer)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _fail(self, exc: BaseException) -> None:
        if self._error is None:
            self._error = exc
        self._closing = True
        self._stop_reading()
        self._out.clear()
        self._inflight = None
        self._wake()
        self._finish(shutdown=False)

    def _finish(self, *, shutdown: bool) -> None:
        if self._closed.done():
            return
        self._stop_reading()
        self._stop_writing()
        if shutdown:
            with contextlib.suppress(OSError, ValueError, ssl.SSLError):
                self._sock.unwrap()  # sends close_notify; we do not wait for the peer's
        with contextlib.suppress(OSError):
            self._sock.close()
        self._closed.set_result(None)


def _host_of(addr: Any) -> str:
    """The address part of a peer address (``(host, port, ...)`` for IP sockets)."""
    return str(addr[0]) if isinstance(addr, tuple) and addr else str(addr)


def _closer(raw: socket.socket) -> Callable[[str], None]:
    return lambda _reason: raw.close()


def _canceller(task: asyncio.Task[None], raw: socket.socket) -> Callable[[str], None]:
    """Drop a connection in its handshake: a task cancelled before it ran never closes ``raw``
    itself (once wrapped, ``raw`` is detached and closing it does nothing)."""

    def drop(_reason: str) -> None:
        task.cancel()
        raw.close()

    return drop


def _peername(sock: socket.socket) -> Any:
    try:
        return sock.getpeername()
    except OSError:
        return None


async def _ready(loop: asyncio.AbstractEventLoop, fd: int, *, write: bool) -> None:
    fut: asyncio.Future[None] = loop.create_future()

    def done() -> None:
        if not fut.done():
            fut.set_result(None)

    if write:
        loop.add_writer(fd, done)
    else:
        loop.add_reader(fd, done)
    try:
        await fut
    finally:
        if write:
            loop.remove_writer(fd)
        else:
            loop.remove_reader(fd)


async def handshake(sock: ssl.SSLSocket) -> None:
    """Run the TLS handshake on a non-blocking socket (callers bound it with a timeout)."""
    loop = asyncio.get_running_loop()
    fd = sock.fileno()
    while True:
        try:
            sock.do_handshake()
            return
        except ssl.SSLWantReadError:
            await _ready(loop, fd, write=False)
        except ssl.SSLWantWriteError:
            await _ready(loop, fd, write=True)


async def _resolve(host: str | None, port: int, flags: int = 0) -> list[Any]:
    """Addresses for ``host``: numeric ones at once, names through the loop's resolver thread."""
    try:
        return socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=flags | socket.AI_NUMERICHOST
        )
    except socket.gaierror:
        loop = asyncio.get_running_loop()
        return await loop.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=flags)


def _tune(sock: socket.socket) -> None:
    sock.setblocking(False)
    if sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


async def open_stream(
    host: str, port: int, context: ssl.SSLContext, *, timeout: float
) -> TLSStream:
    """Connect and handshake (``server_hostname=None``: the certificate is pinned afterwards)."""
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(timeout):
        infos = await _resolve(host, port)
        error: OSError | None = None
        for family, kind, proto, _, addr in infos:
            raw = socket.socket(family, kind, proto)
            try:
                _tune(raw)
                await loop.sock_connect(raw, addr)
            except OSError as exc:
                raw.close()
                error = exc
                continue
            sock = context.wrap_socket(raw, do_handshake_on_connect=False)
            try:
                await handshake(sock)
            except BaseException:
                sock.close()
                raise
            return TLSStream(sock)
        raise error or OSError(f"no address for {host}")


class Listener:
    """Listening sockets that hand each handshaken connection to ``on_client`` in a task.

    With a ``pool`` every accepted connection enters it at once (a full pool evicts, see
    ``AdmissionPool``); the stream handed over carries its entry (``TLSStream.admission``),
    whose ``drop`` then aborts the stream; the receiver moves it on or releases it.
    """

    def __init__(
        self,
        socks: list[socket.socket],
        context: ssl.SSLContext,
        on_client: Callable[[TLSStream], Awaitable[None]],
        handshake_timeout: float,
        *,
        pool: AdmissionPool | None = None,
        rate: AcceptRate | None = None,
    ) -> None:
        self._loop = asyncio.get_running_loop()
        self.sockets = socks
        self._context = context
        self._on_client = on_client
        self._timeout = handshake_timeout
        self._pool = pool
        self._rate = rate
        self._tasks: set[asyncio.Task[None]] = set()  # every connection's task, held strongly
        self._handshaking: set[asyncio.Task[None]] = set()
        self._closed = False
        for s in socks:
            self._loop.add_reader(s.fileno(), self._on_accept, s)

    def _on_accept(self, listening: socket.socket) -> None:
        for _ in range(LISTEN_BACKLOG):
            try:
                raw, addr = listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except OSError:  # e.g. out of descriptors: pause accepting instead of spinning
                fd = listening.fileno()
                self._loop.remove_reader(fd)
                self._loop.call_later(ACCEPT_RETRY, self._resume_accepting, listening)
                return
            if self._rate is not None and not self._rate.allow(_host_of(addr)):
                raw.close()  # before any TLS work: a flood from one address costs little
                continue
            accepted_at = time.monotonic()
            entry: Admission | None = None
            if self._pool is not None:
                # Admitted before its task exists: a full pool may evict at once.
                entry = self._pool.admit(_host_of(addr), _closer(raw), since=accepted_at)
            task = self._loop.create_task(self._start(raw, entry, accepted_at))
            if entry is not None:
                entry.drop = _canceller(task, raw)
            self._tasks.add(task)
            self._handshaking.add(task)
            task.add_done_callback(self._tasks.discard)
            task.add_done_callback(self._handshaking.discard)

    def _resume_accepting(self, listening: socket.socket) -> None:
        if not self._closed:
            self._loop.add_reader(listening.fileno(), self._on_accept, listening)

    async def _start(self, raw: socket.socket, entry: Admission | None, accepted_at: float) -> None:
        try:
            _tune(raw)
            sock = self._context.wrap_socket(raw, server_side=True, do_handshake_on_connect=False)
        except OSError:
            raw.close()
            if entry is not None:
                entry.release()
            return
        try:
            async with asyncio.timeout(self._timeout):
                await handshake(sock)
        except (OSError, ssl.SSLError, TimeoutError):
            sock.close()  # a failed or slow handshake costs the host nothing else
            if entry is not None:
                entry.release()
            return
        except asyncio.CancelledError:  # the listener closed, or the pool evicted it
            sock.close()
            if entry is not None:
                entry.release()
            raise
        task = asyncio.current_task()
        if task is not None:
            self._handshaking.discard(task)
        stream = TLSStream(sock)
        stream.accepted_at = accepted_at
        if entry is not None:
            stream.admission = entry
            entry.drop = lambda _reason: stream.abort()
        await self._on_client(stream)

    def close(self) -> None:
        """Stop accepting and drop handshakes in progress; established connections are the
        caller's to close (as with ``asyncio.Server``)."""
        if self._closed:
            return
        self._closed = True
        for s in self.sockets:
            self._loop.remove_reader(s.fileno())
            s.close()
        for task in self._handshaking:
            task.cancel()

    async def wait_closed(self) -> None:
        """Until the handshakes dropped by ``close`` have ended."""
        pending = [t for t in self._handshaking if not t.done()]
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)


async def listen(
    hosts: Sequence[str] | None,
    port: int,
    context: ssl.SSLContext,
    on_client: Callable[[TLSStream], Awaitable[None]],
    *,
    handshake_timeout: float,
    pool: AdmissionPool | None = None,
    rate: AcceptRate | None = None,
) -> Listener:
    """Listen on every address of ``hosts`` (all interfaces when empty), one port for all."""
    names: list[str | None] = list(hosts) if hosts else [None]
    addrs: list[tuple[Any, ...]] = []
    for name in names:
        for info in await _resolve(name, port, flags=socket.AI_PASSIVE):
            if info not in addrs:
                addrs.append(info)
    socks: list[socket.socket] = []
    try:
        for family, kind, proto, _, where in addrs:
            addr = where
            s = socket.socket(family, kind, proto)
            socks.append(s)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            if port == 0 and len(socks) > 1:  # every address on the port the first one got
                addr = (addr[0], socks[0].getsockname()[1], *addr[2:])
            s.bind(addr)
            s.listen(LISTEN_BACKLOG)
            s.setblocking(False)
    except OSError:
        for s in socks:
            s.close()
        raise
    return Listener(socks, context, on_client, handshake_timeout, pool=pool, rate=rate)
