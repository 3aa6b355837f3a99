"""The asyncio host: serves one or more pure table coordinators over TLS and advertises them.

Each table listens on its own port. Every connection gets an id; bytes become messages through
the codec and go to ``HostTable.receive``; whatever the table returns is written to the named
connections at once (one write per frame, never awaiting a slow peer). A timer drives
``HostTable.tick``; the same timer pings quiet connections and drops those silent past the
heartbeat timeout (``Ping``/``Pong`` never reach the table). After every change the table's
journal (``net/journal.py``, when the table keeps one) has the change's frame before any message
that the change caused is sent (write-ahead, ``net/write_ahead.py``: the frame written by a
thread, the table's messages waiting for it in order, the other tables served meanwhile), and the
mDNS TXT record is refreshed when the table's public info changed.

Admission (protocol/transport.md section 7): a connection is unauthenticated from its TCP accept
until the table sends it ``welcome`` (seen here in the outgoing messages, whatever the table's
inner rules), and closed if that takes ``hello_timeout``; nothing it sends extends that.
Unauthenticated and authenticated connections are two separate ``AdmissionPool``s per table
(``net/admission.py``): a full pool evicts its oldest connection from the busiest address, never
the newcomer, and a seated player's connection is never evicted, so that neither pool can keep a
player out.
New connections from one address beyond ``new_connections`` (per second, burst) are closed at
once, before TLS, so that a reconnect-at-once flood costs the host little CPU.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from briscola_lan.net import files, tlsio, transport
from briscola_lan.net.admission import AcceptRate, AdmissionPool
from briscola_lan.net.discovery import Advertiser
from briscola_lan.net.hosted import (
    MAX_CONNECTIONS,
    MAX_UNAUTHENTICATED,
    MAX_UNAUTHENTICATED_PER_ADDRESS,
    HostedTable,
    TableLike,
    acts_now_of,
    defer_checks_of,
    txt_for,
    txt_key,
    with_gen,
)
from briscola_lan.net.journal_threads import WRITER_THREADS
from briscola_lan.net.reading import read_loop
from briscola_lan.net.transport import Decoder, Encoder, FrameConnection, Heartbeat
from briscola_lan.net.write_ahead import Batches, WriteAhead
from briscola_lan.wire.messages import Notice, NoticeCode, SeatAssigned, Welcome

if TYPE_CHECKING:  # the coordinator is the caller's: serving a table does not load it
    from briscola_lan.net.journal import Journal

log = logging.getLogger(__name__)

TICK_INTERVAL = 0.05
# From the TCP accept to the table's ``welcome`` (TLS handshake included); pings, pongs and
# partial frames do not extend it. An honest client needs a few round trips.
HELLO_TIMEOUT = 5.0
# New connections per table from one address, closed before TLS beyond it: far above what
# players and bots on one machine open, reconnects included.
NEW_CONNECTIONS_PER_SECOND = 20.0
NEW_CONNECTIONS_BURST = 40
# Messages handled per connection: 500 a second with bursts of 1000, far above what a client
# sends (a few dozen a hand); a connection over it is read no more until its budget refills.
MESSAGES_PER_SECOND = 500.0
MESSAGES_BURST = 1000
IDLE_TIMEOUT: float | None = None  # no read deadline of its own: heartbeats find silent peers
_ADMITTING = frozenset({Welcome, SeatAssigned})  # what moves a connection into a pool (``_admit``)


def _address(peername: Any) -> str:
    """The address part of a peer address (the key of the per-address limits)."""
    return str(peername[0]) if isinstance(peername, tuple) and peername else str(peername)


class HostServer:
    """Serves tables over TLS on the given addresses, with optional mDNS advertising."""

    def __init__(
        self,
        ssl_context: ssl.SSLContext,
        *,
        hosts: Sequence[str],
        fingerprint: str,
        advertiser: Advertiser | None = None,
        codec: tuple[Encoder, Callable[[], Decoder]] | None = None,
        tick_interval: float = TICK_INTERVAL,
        idle_timeout: float | None = IDLE_TIMEOUT,
        max_send_buffer: int = transport.MAX_SEND_BUFFER,
        clock: Callable[[], float] = time.time,
        heartbeat: Heartbeat | None = Heartbeat(),  # noqa: B008 (frozen, immutable)
        hello_timeout: float = HELLO_TIMEOUT,
        max_unauthenticated: int = MAX_UNAUTHENTICATED,
        max_unauthenticated_per_address: int = MAX_UNAUTHENTICATED_PER_ADDRESS,
        max_connections: int = MAX_CONNECTIONS,
        new_connections: tuple[float, int] | None = (
            NEW_CONNECTIONS_PER_SECOND,
            NEW_CONNECTIONS_BURST,
        ),
        messages: tuple[float, int] | None = (MESSAGES_PER_SECOND, MESSAGES_BURST),
        journal_threads: int = WRITER_THREADS,
    ) -> None:
        if hello_timeout <= 0:
            raise ValueError(f"hello timeout must be above 0 s, not {hello_timeout}")
        self.ssl_context = ssl_context
        self.hosts = list(hosts)
        self.fingerprint = fingerprint
        self.advertiser = advertiser
        self.encode, self.make_decoder = codec or transport.default_codec()
        from briscola_lan.wire import codec as wire_codec

        # The project's codec: a message the journal encoded is framed from its bytes.
        self._frame_of = wire_codec.frame_of if self.encode is wire_codec.encode_frame else None
        self._body_of = wire_codec.encode_message
        self.tick_interval = tick_interval
        self.idle_timeout = idle_timeout
        self.max_send_buffer = max_send_buffer
        self.clock = clock
        self.heartbeat = heartbeat
        self.hello_timeout = hello_timeout
        self.max_unauthenticated = max_unauthenticated
        self.max_unauthenticated_per_address = max_unauthenticated_per_address
        self.max_connections = max_connections
        self.new_connections = new_connections  # (per second, burst) per address; None: any
        self.messages = messages  # (per second, burst) handled per connection; None: any
        # The journals' writes, off the event loop (``journal_threads=0``: on it).
        self.write_ahead = WriteAhead(self._send_now, self._saving, journal_threads)
        self.tables: dict[str, HostedTable] = {}
        self._next_conn = 1
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticker: asyncio.Task[None] | None = None
        self._closing = False
        # One worker thread for the checks a table hands out (a blind hand's key reveals): the
        # event loop goes on serving every table meanwhile (libsodium releases the GIL).
        self._checker: ThreadPoolExecutor | None = None

    # --- lifecycle ------------------------------------------------------------------------------

    async def add_table(
        self, key: str, table: TableLike, *, port: int = 0, journal: Journal | None = None
    ) -> HostedTable:
        """Start serving ``table`` on ``port`` (0: any free port) and advertise it; every
        change of it is written to ``journal`` first (its opener closes it)."""
        hosted = HostedTable(
            key,
            table,
            journal,
            pending_checks=defer_checks_of(table),
            acts_now=acts_now_of(table),
            unauthenticated=AdmissionPool(
                self.max_unauthenticated,
                self.max_unauthenticated_per_address,
                what="connections waiting for hello",
            ),
            authenticated=AdmissionPool(self.max_connections, what="connections"),
            accept_rate=None if self.new_connections is None else AcceptRate(*self.new_connections),
        )

        async def on_client(stream: tlsio.TLSStream) -> None:
            await self._serve(hosted, stream)

        hosted.server = await tlsio.listen(
            self.hosts,
            port,
            self.ssl_context,
            on_client,
            handshake_timeout=self.hello_timeout,
            pool=hosted.unauthenticated,
            rate=hosted.accept_rate,
        )
        hosted.port = hosted.server.sockets[0].getsockname()[1]
        self.tables[key] = hosted
        self._save(hosted)
        if self.advertiser is not None:
            hosted.last_txt = txt_for(table, self.fingerprint)
            name = str(getattr(table.info(), "name", key))
            hosted.instance = await self.advertiser.async_register(
                key, name, hosted.port, with_gen(hosted.last_txt, hosted.txt_gen)
            )
        if self._ticker is None:
            self._ticker = asyncio.get_running_loop().create_task(self._tick_loop())
        return hosted

    def replace_table(self, hosted: HostedTable, table: TableLike) -> None:
        """Serve ``table`` in place of ``hosted``'s (same port and mDNS instance): a new match
        once the old one's players have left. Connections still open (visitors the old table
        never seated) are closed: their clients connect again, to the new table. Saves its
        state and publishes its TXT."""
        self._owed_first(hosted)
        hosted.pending_checks = defer_checks_of(table)
        hosted.acts_now = acts_now_of(table)
        hosted.table = table
        for conn in list(hosted.conns.values()):
            conn.close("the table opens for a new match: connect again")
        self._save(hosted)
        self._changed(hosted)

    async def close(self) -> None:
        """Unregister from mDNS, close every connection and listening socket."""
        self._closing = True
        if self._checker is not None:
            self._checker.shutdown(wait=False, cancel_futures=True)
        if self._ticker is not None:
            self._ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._ticker
            self._ticker = None
        await self.write_ahead.drain()  # what waits for its frames leaves before the connections
        if self.advertiser is not None:
            await self.advertiser.async_close()
        for hosted in self.tables.values():
            if hosted.server is not None:
                hosted.server.close()
            for conn in list(hosted.conns.values()):
                conn.close("host shutting down")
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        for hosted in self.tables.values():
            if hosted.server is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(hosted.server.wait_closed(), 2.0)
        await self.write_ahead.close()

    # --- connections ----------------------------------------------------------------------------

    async def _serve(self, hosted: HostedTable, stream: tlsio.TLSStream) -> None:
        task = asyncio.current_task()
        if task is not None:
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        conn = FrameConnection(
            stream,
            encode=self.encode,
            decoder=self.make_decoder(),
            max_send_buffer=self.max_send_buffer,
            sndbuf=transport.KERNEL_SNDBUF,
        )
        entry = stream.admission
        if entry is None:  # a stream from elsewhere than this table's listener
            entry = hosted.unauthenticated.admit(
                _address(stream.peername), conn.abort, since=stream.accepted_at
            )
        else:
            entry.drop = conn.abort  # evicted or expired from now on: the reason is kept
        cid = self._next_conn
        self._next_conn += 1
        hosted.conns[cid] = conn
        hosted.admissions[cid] = entry
        try:
            if self._closing:
                return
            # The hello's proof binds the certificate the client pinned (SPEC.md section 5).
            channel = bytes.fromhex(self.fingerprint)
            self._owed_first(hosted)
            self._dispatch(hosted, hosted.table.connect(cid, channel=channel))
            await read_loop(self, hosted, cid, conn)
        except (ConnectionError, ssl.SSLError, OSError, asyncio.IncompleteReadError) as exc:
            log.debug("connection %d: %s", cid, exc)
        finally:
            hosted.conns.pop(cid, None)
            left = hosted.admissions.pop(cid, None)
            if left is not None:
                left.release()
            if conn.close_reason.startswith(("too many", "no welcome")):
                log.info("connection %d from %s: %s", cid, conn.peer, conn.close_reason)
            if not self._closing:
                self._owed_first(hosted)
                self._dispatch(hosted, hosted.table.disconnect(cid), save=True)
            conn.close("disconnected")
            await conn.wait_closed()

    def _dispatch(
        self,
        hosted: HostedTable,
        outgoing: list[Any],
        *,
        save: bool = False,
        write: bool = True,
        made_frames: dict[int, tuple[Any, bytes]] | None = None,
    ) -> None:
        """Stage the change in the journal first, then write every message once its frame is
        written (write-ahead: ``WriteAhead.send``), then update TXT. ``write=False``: the
        messages are ones a table restored from its journal makes again (``HostTable.settle``),
        and the next change writes them. ``made_frames``: the frames made so far for the same read
        (by ``id``, each with its message): a card's relay and the player's own copy of it,
        sent by two dispatches, encode it once."""
        if not outgoing and not save:
            return
        bodies = self._save(hosted) if write else {}
        frame_of = self._frame_of if bodies else None
        keep = None
        if not write and hosted.journal is not None and self._frame_of is not None:
            keep = hosted.unwritten  # the journal's next write takes the bodies encoded here
            frame_of = self._frame_of
        # Frames for the same connection go out in one write (one TLS record, one syscall).
        # A broadcast is one message object for every connection: encode it once (or not at
        # all: the journal encoded what it wrote to the seats' logs).
        batches: dict[int, list[bytes]] = {}
        closing: list[int] = []
        encoded: dict[int, tuple[Any, bytes]] = {} if made_frames is None else made_frames
        conns, encode = hosted.conns, self.encode
        for out in outgoing:
            conn, message = out.conn, out.message
            if conn not in conns:
                continue
            if type(message) in _ADMITTING:
                self._admit(hosted, conn, message)
            key = id(message)
            made = encoded.get(key)
            if made is not None and made[0] is message and keep is None:
                frame = made[1]
            else:
                body = bodies.get(key) if bodies else None
                if keep is not None:
                    body = self._body_of(message)
                    keep[key] = (message, body)
                frame = encode(message) if body is None or frame_of is None else frame_of(body)
                encoded[key] = (message, frame)
            frames = batches.get(conn)
            if frames is None:
                batches[conn] = [frame]
            else:
                frames.append(frame)
            if out.close:
                closing.append(conn)
        if batches:
            self.write_ahead.send(hosted, batches, closing)
        self._changed(hosted)
        self._hand_out_checks(hosted)

    def _owed_first(self, hosted: HostedTable) -> None:
        """Do the work a relay left owed (``net/reading.py``) now, before the table does anything
        else: its messages then leave in the order the table made them."""
        while hosted.owed is not None:
            hosted.owed()

    def _hand_out_checks(self, hosted: HostedTable) -> None:
        """Run the checks the table hands out in the worker thread, once what they follow is
        written; their result comes back to the table on the event loop."""
        pending = hosted.pending_checks
        checks = pending() if pending is not None and not self._closing else None
        if checks is None:
            return
        if self._checker is None:
            self._checker = ThreadPoolExecutor(1, thread_name_prefix="briscola-checks")
        served = hosted.table
        future = asyncio.get_running_loop().run_in_executor(self._checker, checks.run)

        def done(f: asyncio.Future[object]) -> None:
            if self._closing or hosted.table is not served or f.cancelled():
                return
            result = None if f.exception() is not None else f.result()  # None: made again
            try:
                self._owed_first(hosted)
                self._dispatch(hosted, served.checks_done(checks, result), save=True)
            except Exception:
                log.exception("table %s: checks failed", hosted.key)

        future.add_done_callback(done)

    def _admit(self, hosted: HostedTable, cid: int, message: Welcome | SeatAssigned) -> None:
        """Move a connection the table welcomes into the authenticated pool; pin seated ones."""
        entry = hosted.admissions.get(cid)
        if entry is None:
            return
        seated = message.seat is not None
        if entry.pool is hosted.authenticated:
            entry.pinned = seated
        elif isinstance(message, Welcome):
            entry.release()
            conn = hosted.conns[cid]
            hosted.admissions[cid] = hosted.authenticated.admit(
                entry.address, conn.abort, pinned=seated
            )

    def _changed(self, hosted: HostedTable) -> None:
        if self.advertiser is not None and hosted.instance:
            key = txt_key(hosted.table)  # after every message: the TXT only when it can differ
            if key is not None and key == hosted.txt_key:
                return
            hosted.txt_key = key
            txt = txt_for(hosted.table, self.fingerprint)
            if txt != hosted.last_txt:
                hosted.last_txt = txt
                hosted.txt_gen += 1
                self._spawn(self.advertiser.async_update(hosted.key, with_gen(txt, hosted.txt_gen)))

    # --- the journal --------------------------------------------------------------------------

    # Told when a table's journal stops or starts being written again (its path, the OSError or
    # None). None: the log and that table's players hear of it. ``host`` sets its own.
    on_saving: Callable[[HostedTable, Path, OSError | None], None] | None = None

    def _save(self, hosted: HostedTable) -> dict[int, bytes]:
        """Stage the table's change in its journal, written by the writer (``WriteAhead``); the
        messages it encoded doing so. A file system that refuses the write (a full disk,
        read-only...) does not stop the game: it goes on in memory, the next change and
        ``retry_saves`` write everything since, and ``on_saving`` hears of the first failure
        and of the first success after it."""
        return self.write_ahead.save(hosted)

    def _send_now(self, hosted: HostedTable, batches: Batches, closing: list[int]) -> None:
        conns = hosted.conns
        for cid, frames in batches.items():
            conn = conns.get(cid)
            if conn is None:
                continue
            conn.send_bytes(frames[0] if len(frames) == 1 else b"".join(frames))
            if closing and cid in closing:
                conn.close("closed by the table")

    def _send_one(self, hosted: HostedTable, cid: int, message: Any) -> None:
        """``message`` to connection ``cid``, after what the table sends it before."""
        self.write_ahead.send(hosted, {cid: [self.encode(message)]}, [])

    def retry_saves(self) -> None:
        """Try again to save every table whose last state could not be written."""
        self.write_ahead.retry(self.tables.values())

    def _saving(self, hosted: HostedTable, path: Path, exc: OSError | None) -> None:
        if self.on_saving is not None:
            self.on_saving(hosted, path, exc)
            return
        if exc is not None:
            text = f"cannot save the game: {files.describe_os_error(exc)} ({path})"
            log.warning("table %s: %s", hosted.key, text)
            self.notify(NoticeCode.NOT_SAVING, text + ": play goes on", hosted)
        else:
            log.warning("table %s: the game is saved again (%s)", hosted.key, path)
            self.notify(NoticeCode.SAVING, "the host saves the game again", hosted)

    def notify(self, code: str, text: str, hosted: HostedTable | None = None) -> None:
        """Send a ``notice`` to every connection of ``hosted`` (of every table when None)."""
        from briscola_lan.wire.codec import MAX_STR

        notice = Notice(code, text[:MAX_STR])  # a long path must not make it unsendable
        data = self.encode(notice)
        for h in [hosted] if hosted is not None else list(self.tables.values()):
            batches = {cid: [data] for cid, conn in h.conns.items() if not conn.closed}
            if batches:
                self.write_ahead.send(h, batches, [])

    def _spawn(self, coro: Any) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _tick_loop(self) -> None:
        while True:
            await asyncio.sleep(self.tick_interval)
            now = self.clock()
            for hosted in list(self.tables.values()):
                self._tick_one(hosted, now)
            self._check_hello_deadlines()
            self._check_heartbeats()

    def _check_hello_deadlines(self) -> None:
        """Close connections not welcomed within the hello timeout of their TCP accept."""
        reason = f"no welcome within {self.hello_timeout:g} s of connecting"
        for hosted in self.tables.values():
            hosted.unauthenticated.expire(self.hello_timeout, reason)

    def _check_heartbeats(self) -> None:
        """Ping quiet connections; drop silent ones (their read loop then calls disconnect)."""
        if self.heartbeat is None:
            return
        now = time.monotonic()
        for hosted in self.tables.values():
            for cid, conn in list(hosted.conns.items()):
                if conn.closed:
                    continue
                if not conn.check_heartbeat(self.heartbeat, now):
                    log.info("connection %d: %s", cid, conn.close_reason or "closed")

    def _tick_one(self, hosted: HostedTable, now: float) -> None:
        if hosted.owed is not None:  # a card's relay waits for its frame: ticked once it left
            return
        try:
            self._dispatch(hosted, hosted.table.tick(now))
        except Exception:
            log.exception("table %s: tick failed", hosted.key)
