"""The async client library: connect to a table over pinned TLS, keep the session, reconnect.

A ``TableClient`` wraps the pure ``ClientSession``: bytes from the host go through the codec into
``session.receive`` and its automatic replies go back; commands are sent with ``send``. When the
connection drops it reconnects with exponential backoff and says hello again with the session's
resume token, so the host gives back the seat, the hand and the verification state. A UI or a bot
awaits ``wait_change`` / ``wait_for`` and reads ``session.state``. Heartbeats: a host quiet for
an interval is pinged; one silent past the timeout is taken for dead and reconnected to.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from briscola_lan.net import tlsio, transport
from briscola_lan.net.discovery import DiscoveryError, TableAd, find_table
from briscola_lan.net.resume_store import ResumeStore
from briscola_lan.net.tls import (
    CertificateMismatch,
    KnownTables,
    check_pin,
    client_context,
    normalize_fingerprint,
    peer_fingerprint,
)
from briscola_lan.net.transport import Decoder, Encoder, FrameConnection, Heartbeat
from briscola_lan.wire.messages import PROTOCOL_VERSION

log = logging.getLogger(__name__)

CONNECT_TIMEOUT = 5.0
# A host challenges a connection at once and welcomes a proven hello at once (its own deadline
# for the hello is 5 s): a connection still not welcomed after this long never will be.
WELCOME_TIMEOUT = 10.0
BACKOFF_FIRST = 0.05
START_ATTEMPTS = 3  # the first connection: tries 0.05 s and 0.25 s apart before giving up
BACKOFF_MAX = 2.0


class SessionLike(Protocol):
    """The pure client session's shape (``briscola_lan.table.client.ClientSession``)."""

    @property
    def state(self) -> Any: ...
    def hello(self, resume_token: Any = None) -> list[Any]: ...
    def receive(self, message: Any) -> list[Any]: ...


class ConnectError(Exception):
    """The table could not be reached; the message says what to try."""


class ResumedElsewhere(Exception):
    """Another connection took this seat with our resume token (e.g. the same player twice)."""


class HostGone(Exception):
    """The host no longer holds this client's game: the table that answers now has another host
    key, or no longer knows the seat of a match still being played. The client stops there and
    never follows another game; what it saved stays as it was (incomplete, not failed)."""


@dataclass(frozen=True, slots=True)
class Target:
    """Where a table is: an address, and optionally its mDNS name for re-discovery."""

    host: str
    port: int
    name: str | None = None
    fingerprint: str | None = None

    @property
    def key(self) -> str:
        """The key of this table in ``known_tables`` and ``resume_tokens``
        (protocol/transport.md section 2): ``name@host`` when found by name (two hosts may
        share a table name), else ``host:port``. A ``TableClient`` keeps the key of the target
        it started with, also when re-discovery finds the table at another address."""
        return f"{self.name}@{self.host}" if self.name else f"{self.host}:{self.port}"

    @staticmethod
    def from_ad(ad: TableAd) -> Target:
        return Target(ad.addresses[0], ad.port, ad.name, ad.fingerprint or None)


def parse_address(text: str) -> tuple[str, int] | None:
    """``HOST:PORT`` or ``[V6]:PORT`` -> (host, port); None when ``text`` is not an address."""
    text = text.strip()
    if text.startswith("["):
        host, sep, rest = text[1:].partition("]:")
        return (host, int(rest)) if sep and rest.isdigit() else None
    host, sep, port = text.rpartition(":")
    if sep and port.isdigit() and host and ":" not in host:
        return host, int(port)
    return None


async def resolve_target(
    where: str,
    *,
    interfaces: Sequence[str],
    timeout: float = 5.0,
    fingerprint: str | None = None,
) -> Target:
    """A table given as ``HOST:PORT`` or by its name (found over mDNS)."""
    addr = parse_address(where)
    if addr is not None:
        return Target(addr[0], addr[1], None, fingerprint)
    ad = await find_table(interfaces, where, timeout)
    target = Target.from_ad(ad)
    if fingerprint is not None:
        target = Target(target.host, target.port, target.name, fingerprint)
    return target


_CONNECTION_EVENTS = frozenset({"Welcome", "ReplayDone", "Error", "SeatAssigned"})


def _expire(waiter: asyncio.Future[bool]) -> None:
    """A wait's deadline: it ends without a change (False)."""
    if not waiter.done():
        waiter.set_result(False)


class TableClient:
    """One player's connection to one table, reconnecting by itself until closed."""

    def __init__(
        self,
        session: SessionLike,
        target: Target,
        *,
        known_tables: KnownTables | None = None,
        ssl_context: ssl.SSLContext | None = None,
        codec: tuple[Encoder, Callable[[], Decoder]] | None = None,
        reconnect: bool = True,
        interfaces: Sequence[str] = (),
        backoff_max: float = BACKOFF_MAX,
        give_up_after: float | None = 120.0,
        resume_store: ResumeStore | None = None,
        heartbeat: Heartbeat | None = Heartbeat(),  # noqa: B008 (frozen, immutable)
        welcome_timeout: float | None = None,  # None: WELCOME_TIMEOUT
    ) -> None:
        self.session: Any = session  # a ClientSession: commands are its builders
        self.target = target
        # The table's known_tables / resume_tokens key: the first target's, for good (a table
        # found again at another address by re-discovery is still this one table, one line).
        self.key = target.key
        self.known_tables = known_tables
        self.ssl_context = ssl_context or client_context()
        self.encode, self.make_decoder = codec or transport.default_codec()
        self.reconnect = reconnect
        self.interfaces = list(interfaces)
        self.backoff_max = backoff_max
        self.give_up_after = give_up_after
        self.heartbeat = heartbeat
        self.heartbeat_drops = 0  # connections given up because the host fell silent
        self.welcome_timeout = WELCOME_TIMEOUT if welcome_timeout is None else welcome_timeout
        self._ever_welcomed = False  # some connection of this client was welcomed
        self._host_key: bytes | None = None  # the host key of the first welcome, for good
        self._welcome_timer: asyncio.TimerHandle | None = None
        self.conn: FrameConnection | None = None
        self.connected = asyncio.Event()
        self.closed = False
        self.error: Exception | None = None
        self.reconnects = 0
        self.pinned = ""
        self.version = 0
        # Each wait's future and predicate: woken (True) by a change after which it holds.
        self._waiters: dict[asyncio.Future[bool], Callable[[], bool]] = {}
        self._runner: asyncio.Task[None] | None = None
        self.on_change: Callable[[], None] | None = None
        self.resume_store = resume_store
        self._hello_token: str | None = None  # the token the current connection said hello with
        self._welcomed = False
        # True once every message is live (SPEC.md §6b): from ``Welcome`` on when it resumed no
        # seat, else from the ``ReplayDone`` after the replay of the seat's messages.
        self.live = False
        self._stored_token: str | None = None  # the token on disk: presented until the host
        # gives one (a restarted client whose first connection drops before welcome keeps it)
        # Commands sent before this connection's hello went out (it answers the host's
        # challenge): held, then written right after the hello, so they keep their order.
        self._said_hello = False
        self._held: list[Any] = []
        self.on_message: Callable[[Any], None] | None = None  # after each message is applied
        self.before_message: Callable[[Any], None] | None = None  # as soon as it is decoded
        self.before_send: Callable[[Any], None] | None = None  # just before it is written

    @property
    def state(self) -> Any:
        return self.session.state

    # --- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Connect and say hello; raises CertificateMismatch at once, ConnectError when a few
        quick attempts all fail (a host past its limit for new connections from one address
        closes the newest before TLS: the next attempt gets through)."""
        delay = BACKOFF_FIRST
        for attempt in range(START_ATTEMPTS):
            try:
                conn = await self._open(self.target)
                break
            except CertificateMismatch:
                raise
            except ConnectError:
                if attempt == START_ATTEMPTS - 1:
                    raise
                await asyncio.sleep(delay)
                delay *= 4
        if self.resume_store is not None:
            self._stored_token = self.resume_store.get(self.key)
        token = self._resume_token()
        self._attach(conn, self.session.hello(resume_token=token), token)
        self._runner = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        """Stop reconnecting and close the connection."""
        self.closed = True
        if self._welcome_timer is not None:
            self._welcome_timer.cancel()
        if self.conn is not None:
            self.conn.close("client closed")
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
            self._runner = None
        if self.conn is not None:
            await self.conn.wait_closed()
        await self._bump()

    async def __aenter__(self) -> TableClient:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- commands and changes -------------------------------------------------------------------

    def send(self, *messages: Any) -> bool:
        """Send messages now; False when disconnected (the caller may retry after a change)."""
        conn = self.conn
        if conn is None or conn.closed:
            return False
        hook = self.before_send
        if hook is not None:
            for m in messages:
                hook(m)
        if not self._said_hello:  # the hello waits for the host's challenge: keep the order
            self._held.extend(messages)
            return True
        return all(conn.send(m) for m in messages)

    async def wait_change(self, timeout: float | None = None) -> bool:
        """Wait for the next change of state or connection; False on timeout."""
        seen = self.version
        return await self.wait_for(lambda: self.version != seen, timeout)

    async def wait_for(self, predicate: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait until ``predicate()`` holds (checked at each change); False on timeout/close."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not (predicate() or self._finished()):
            # One plain future per wait, resolved by the first change after which the predicate
            # holds (True: ``_notify`` asks it, so a change that does not matter wakes no task)
            # or by its timer (False): no lock, no extra task, no timeout context.
            waiter: asyncio.Future[bool] = loop.create_future()
            self._waiters[waiter] = predicate
            timer = None if deadline is None else loop.call_at(deadline, _expire, waiter)
            try:
                if not await waiter:
                    return False
            finally:
                self._waiters.pop(waiter, None)
                if timer is not None:
                    timer.cancel()
        return bool(predicate())

    def _finished(self) -> bool:
        return self.closed or self.error is not None

    async def _bump(self) -> None:
        self._notify()

    def _notify(self) -> None:
        """A change: count it, tell ``on_change``, wake every waiter."""
        self.version += 1
        if self.on_change is not None:
            self.on_change()
        if not self._waiters:
            return
        finished = self._finished()
        waiters, self._waiters = self._waiters, {}
        for waiter, predicate in waiters.items():
            if waiter.done():
                continue
            try:
                wake = finished or predicate()
            except Exception:  # its own task asks again, and raises there
                wake = True
            if wake:
                waiter.set_result(True)
            else:
                self._waiters[waiter] = predicate

    # --- internals ------------------------------------------------------------------------------

    async def _open(self, target: Target) -> FrameConnection:
        try:
            stream = await tlsio.open_stream(
                target.host, target.port, self.ssl_context, timeout=CONNECT_TIMEOUT
            )
        except (OSError, TimeoutError, ssl.SSLError) as exc:
            reason = str(exc) or ("timed out" if isinstance(exc, TimeoutError) else repr(exc))
            raise ConnectError(
                f"cannot reach table at {target.host}:{target.port}: {reason}. Is the "
                "host running, and is the address right?"
            ) from exc
        try:
            actual = peer_fingerprint(stream.ssl_object)
            if target.fingerprint:
                check_pin(actual, target.fingerprint, table=self.key)
            if self.known_tables is not None:
                self.known_tables.check_and_remember(self.key, actual)
            self.pinned = actual
            bind = getattr(self.session, "bind_channel", None)
            if bind is not None:  # the hello's proof binds the certificate pinned here
                bind(bytes.fromhex(actual))
        except Exception:
            stream.abort()
            raise
        return FrameConnection(stream, encode=self.encode, decoder=self.make_decoder())

    def _attach(self, conn: FrameConnection, hello: list[Any], token: str | None) -> None:
        self.conn = conn
        self._hello_token, self._welcomed, self.live = token, False, False
        self._said_hello, self._held = bool(hello), []
        for message in hello:
            conn.send(message)
        self.connected.set()
        if self._welcome_timer is not None:
            self._welcome_timer.cancel()
        loop = asyncio.get_running_loop()
        self._welcome_timer = loop.call_later(self.welcome_timeout, self._welcome_overdue, conn)

    def _welcome_overdue(self, conn: FrameConnection) -> None:
        """No welcome on this connection in time: drop it. A table that never welcomed this
        client is not one it can play at (another protocol version, or not a briscola-lan
        table): that is the client's error, and it does not try again."""
        if self.closed or conn is not self.conn or conn.closed or self._welcomed:
            return
        what = "welcome" if self._said_hello else "challenge"
        if not self._ever_welcomed:
            self.reconnect = False
            self.error = ConnectError(
                f"the table at {self.target.host}:{self.target.port} sent no {what} within "
                f"{self.welcome_timeout:g} s: it may run another version of briscola-lan (this "
                f"one speaks protocol {PROTOCOL_VERSION}), or it is not a briscola-lan table"
            )
        log.info("host %s: no %s in time; dropping the connection", self.key, what)
        conn.close(f"no {what} in time")
        self._notify()

    async def _run(self) -> None:
        while not self.closed:
            conn = self.conn
            assert conn is not None
            beat = asyncio.get_running_loop().create_task(self._heartbeat(conn))
            try:
                await self._read(conn)
            except (ConnectionError, ssl.SSLError, OSError) as exc:
                log.debug("connection lost: %s", exc)
            except Exception as exc:  # codec errors: broken frames from the host
                log.warning("dropping connection: %s", exc)
            finally:
                beat.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await beat
            conn.close("lost")
            self.connected.clear()
            lost = getattr(self.session, "connection_lost", None)
            if lost is not None and not self.closed:
                lost()
            await self._bump()
            if self.closed or not self.reconnect:
                return
            if not await self._reconnect():
                return

    async def _read(self, conn: FrameConnection) -> None:
        """Apply what the host sends, as it arrives (inside the transport's readable callback:
        no task woken per message), until the connection ends."""
        await conn.consume(lambda messages: self._take(conn, messages))

    def _take(self, conn: FrameConnection, messages: list[Any]) -> None:
        changed = False
        for message in messages:
            if conn.answer_heartbeat(message):
                continue
            changed = True
            if isinstance(message, Exception):  # a bad message from the host: skip it
                log.warning("ignoring a bad message from the host: %s", message)
                continue
            if self.before_message is not None:
                self.before_message(message)
            if self._another_game(conn, message):
                break
            replies = self.session.receive(message)
            for reply in replies:
                conn.send(reply)
            if not self._said_hello and any(type(r).__name__ == "Hello" for r in replies):
                self._said_hello = True  # the challenge was answered: now the rest
                held, self._held = self._held, []
                for m in held:
                    conn.send(m)
            self._after(conn, message)
            if self.on_message is not None:
                self.on_message(message)
        if changed:
            self._notify()

    async def _heartbeat(self, conn: FrameConnection) -> None:
        """Ping a quiet host; abort the connection once it is silent past the timeout."""
        hb = self.heartbeat
        if hb is None:
            return
        step = min(hb.interval / 4, 0.5)
        while not conn.closed:
            await asyncio.sleep(step)
            if not conn.check_heartbeat(hb, time.monotonic()) and not self.closed:
                if conn.close_reason.startswith("peer silent"):
                    self.heartbeat_drops += 1
                    log.info("host %s: %s; reconnecting", self.key, conn.close_reason)
                return

    def _another_game(self, conn: FrameConnection, message: Any) -> bool:
        """Whether the answer on a new connection shows that the host no longer holds the game
        this client follows; then stop for good (``HostGone``), the message unread, so the
        session and what it saved stay as they were."""
        name = type(message).__name__
        why = ""
        if name == "Welcome":
            key = getattr(message, "host_key", None)
            if self._host_key is None:
                self._host_key = key
            elif key != self._host_key:
                why = "the table that answers now has another host key"
        elif name == "Error" and getattr(message, "code", "") == "bad_token":
            st = self.session.state
            in_match = bool(getattr(st, "game_id", "")) and not getattr(st, "match_over", False)
            if not self._welcomed and self._ever_welcomed and in_match:
                why = "the table that answers now does not know this seat"
        if not why:
            return False
        self.reconnect = False
        self.error = HostGone(
            f"the host closed the table: {why}, so the game played there is over for this "
            "client, unfinished; its saved game is kept as it was (incomplete)"
        )
        log.info("host %s: %s; not following another game", self.key, why)
        conn.close("the host no longer holds this game")
        return True

    def _after(self, conn: FrameConnection, message: Any) -> None:
        """Connection-level reactions: welcome, refused or stolen tokens, remembering tokens."""
        name = type(message).__name__
        if name not in _CONNECTION_EVENTS:  # a card, a deal...: only a new token may matter
            pass
        elif name == "Welcome":
            self._welcomed = self._ever_welcomed = True
            self.live = getattr(message, "seat", None) is None  # else: live after the replay
        elif name == "ReplayDone":
            self.live = self._welcomed
        elif name == "Error" and getattr(message, "code", "") == "bad_token":
            if not self._welcomed and self._hello_token is not None:
                # A remembered token the table no longer knows: join as a new player.
                self.session.state.resume_token = None
                self._hello_token = self._stored_token = None
                if self.resume_store is not None:
                    self.resume_store.put(self.key, None)
                for hello in self.session.hello():
                    conn.send(hello)
            elif self._welcomed:
                self.reconnect = False
                self.error = ResumedElsewhere(
                    f"another client took this seat with our resume token: {message.text}"
                )
        elif name == "SeatAssigned" and getattr(message, "seat", None) is None:
            # The seat is left: its token is void, so no later hello may present it.
            self._stored_token = None
            if self.resume_store is not None:
                self.resume_store.put(self.key, None)
        token = getattr(self.session.state, "resume_token", None)
        if self.resume_store is not None and token is not None and token != self._stored_token:
            self._stored_token = token
            self.resume_store.put(self.key, token)

    async def _reconnect(self) -> bool:
        loop = asyncio.get_running_loop()
        started = loop.time()
        delay = BACKOFF_FIRST
        while not self.closed:
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff_max)
            try:
                conn = await self._open(self.target)
            except CertificateMismatch as exc:
                self.error = exc
                await self._bump()
                return False
            except ConnectError as exc:
                log.debug("reconnect failed: %s", exc)
                await self._rediscover()
                if self.give_up_after is not None and loop.time() - started > self.give_up_after:
                    self.error = exc
                    await self._bump()
                    return False
                continue
            token = self._resume_token()
            self.reconnects += 1
            self._attach(conn, self.session.hello(resume_token=token), token)
            await self._bump()
            return True
        return False

    def _resume_token(self) -> str | None:
        """The token every hello presents: the host's latest, else the one saved on disk."""
        token = getattr(self.session.state, "resume_token", None)
        return token if token is not None else self._stored_token

    async def _rediscover(self) -> None:
        """A table found by name may come back on another port: look it up again."""
        if not self.target.name or not self.interfaces:
            return
        with contextlib.suppress(DiscoveryError, OSError):
            ad = await find_table(self.interfaces, self.target.name, 1.0)
            fp = self.target.fingerprint
            if ad.fingerprint and fp and normalize_fingerprint(ad.fingerprint) != fp.lower():
                return
            self.target = Target(ad.addresses[0], ad.port, ad.name, fp or ad.fingerprint)
