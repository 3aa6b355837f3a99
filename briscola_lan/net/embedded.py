"""A table hosted inside a client's own process (practice against AI players on loopback, or a
table for the LAN): built and served as ``briscola-lan host`` does (``net/serving.py``), on an
event loop of its own thread so that its AI players never hold up the client's screen. The
client plays at it over loopback TLS like any other player.

Each such table keeps its journal (``net/kept.py``): a table the client quit, or that went down
with it, comes back with ``continue_embedded_host`` on the same port, certificate and host key,
so that the players' clients rejoin it by themselves.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Coroutine, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import files, kept, tls
from briscola_lan.net.host_state import HostState, open_own_folder, resume_state
from briscola_lan.net.next_match import open_next_match
from briscola_lan.net.server import HostServer
from briscola_lan.net.serving import (
    ListenError,
    ServedTable,
    host_server,
    quiet_cancelled_callbacks,
)
from briscola_lan.net.table_spec import HostError, TableSettings, TableSpec, save_spec
from briscola_lan.rules import TableOptions

_T = TypeVar("_T")


class HostThread:
    """An event loop on a thread of its own for a table hosted inside the client.

    The host's AI players choose their cards inside ``HostTable.tick``: on the UI's loop a strong
    AI's move froze the screen (0.1-1.7 s measured); on this loop it only costs a worker thread.
    The UI talks to that host over loopback TCP like any other client.
    """

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, name="briscola-host", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        quiet_cancelled_callbacks(self.loop)
        self.loop.run_forever()

    async def call(self, coro: Coroutine[Any, Any, _T]) -> _T:
        """Run ``coro`` on the host's loop and wait for it from the caller's loop."""
        return await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, self.loop))

    async def stop(self) -> None:
        """Cancel what still runs on the host's loop, stop it and join the thread."""

        async def drain() -> None:
            me = asyncio.current_task()
            tasks = [t for t in asyncio.all_tasks() if t is not me]
            if tasks:  # connections finish closing by themselves; then the stragglers go
                _, pending = await asyncio.wait(tasks, timeout=2)
                for task in pending:
                    task.cancel()
                await asyncio.gather(*pending, return_exceptions=True)

        if self.loop.is_closed():
            return
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.call(drain()), 5)
        self.loop.call_soon_threadsafe(self.loop.stop)
        await asyncio.to_thread(self.thread.join, 5)
        if not self.thread.is_alive():
            self.loop.close()


@dataclass(slots=True)
class EmbeddedHost:
    """A table hosted inside the client process (``HostServer`` + ``HostTable``).

    With ``runner`` the server runs on that thread's loop (the client's own tables); without it,
    on the caller's loop (tests that reach into the server).
    """

    server: HostServer
    served: ServedTable
    fingerprint: str
    address: str
    runner: HostThread | None = None
    state: HostState | None = None  # the folder its journal is kept in (None: kept nowhere)
    moved_from: int | None = None  # a practice table continued: the port it had, taken since

    @property
    def kept_in(self) -> Path | None:
        """The folder the table is kept in (its journal, host key, the player's seat token)."""
        return None if self.state is None else self.state.directory

    @property
    def port(self) -> int:
        assert self.served.hosted is not None
        return self.served.hosted.port

    @property
    def table(self) -> Any:
        """The table served now (a rematch serves a fresh one)."""
        assert self.served.hosted is not None
        return self.served.hosted.table

    async def rematch(self) -> None:
        """Serve the table's next match in place of this one (same port, rules, name and AI
        seats); its players' connections close and their clients connect again, to it."""

        async def swap() -> None:
            open_next_match(self.server, self.served)

        await (self.runner.call(swap()) if self.runner else swap())

    async def close(self, limit: float | None = None) -> bool:
        """Stop serving; the journal stays, so that an unfinished match can be continued.
        Whether it all finished: with a ``runner``, a disk that does not finish the journal's
        last writes within ``limit`` seconds (default ``CLOSE_WAIT``) is left to them (its
        writer threads are daemons; the journal holds every change the players were sent)."""
        limit = CLOSE_WAIT if limit is None else limit
        finished = True
        try:
            if self.runner is None:
                await self.server.close()
                return True
            try:
                await asyncio.wait_for(self.runner.call(self.server.close()), limit)
            except TimeoutError:
                finished = False
            finally:
                await self.runner.stop()
        finally:
            state, self.state = self.state, None
            if state is not None:
                if self.runner is None:
                    state.close()
                else:
                    finished = await _within(state.close, limit) and finished
        return finished


async def start_embedded_host(
    options: TableOptions,
    name: str,
    ai_seats: Mapping[int, str],
    interfaces: Sequence[str],
    *,
    advertise: bool,
    ai_delay: float,
    draw_partners: bool = False,
    draw_dealer: bool = False,
    own_thread: bool = False,
    deal: str | None = None,
    hints: bool = False,
    keep: bool = True,
) -> EmbeddedHost:
    """Host a table in this process on ``interfaces``, advertised over mDNS when asked; a
    ``ListenError`` if it cannot listen there, a ``HostError`` if it cannot be kept.

    ``own_thread`` runs the host on a ``HostThread`` so that its AI players never block the
    caller's event loop (the screen). ``keep`` keeps its journal in a folder of its own
    (``net/kept.py``: practice when not advertised, else hosted) for ``continue_embedded_host``.
    """
    cert = tls.load_or_create_certificate()
    spec = TableSpec(
        name,
        options,
        dict(ai_seats),
        port=0,
        draw_partners=draw_partners and options.players == 4,
        draw_dealer=draw_dealer,
        deal=deal,
    )
    settings = TableSettings(ai_delay=ai_delay, hints=hints)  # the host's timers: the defaults
    kind = kept.HOSTED if advertise else kept.PRACTICE
    if not keep:  # one host key for the table and its rematches
        served = ServedTable(spec, settings, Identity.generate())
        return await _open(cert, served, None, interfaces=list(interfaces), advertise=advertise,
                           own_thread=own_thread, state=None)  # fmt: skip
    state, identity = await _in_thread(
        open_own_folder, kept.tables_dir() / kind, spec, kept.folder_identity
    )
    try:
        kept.forget_seat(state.directory)
        kept.save_hosting(state.directory, kind, list(interfaces))
        (_spec, journal, _restored) = state.tables[0]
        served = ServedTable(spec, settings, identity, journal=journal)
        return await _open(cert, served, None, interfaces=list(interfaces), advertise=advertise,
                           own_thread=own_thread, state=state)  # fmt: skip
    except OSError as exc:
        state.close()
        raise HostError(
            f"cannot keep the table in {state.directory}: {files.describe_os_error(exc)}"
        ) from exc
    except BaseException:
        state.close()
        raise


async def continue_embedded_host(
    directory: Path, *, ai_delay: float, own_thread: bool = False
) -> EmbeddedHost:
    """The table kept in ``directory`` (``net/kept.py``) served again where it was (the same
    addresses, port, certificate and host key), its match restored from its journal: its
    players' clients rejoin by themselves. A ``HostError`` says why it cannot be continued, a
    ``ListenError`` why it cannot listen there again (its port taken meanwhile; a practice
    table, which only this client plays at, moves to a free port instead)."""
    cert = tls.load_or_create_certificate()

    def load() -> tuple[HostState, Any, str, list[str]]:
        if kept.in_use(directory):
            raise HostError(
                f"the match kept in {directory} is being played now, in another briscola-lan "
                "window of yours: continue it there"
            )
        try:
            kind, interfaces = kept.load_hosting(directory)
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise HostError(f"cannot continue the table kept in {directory}: {exc}") from exc
        identity = kept.folder_identity(directory)
        return resume_state(directory, identity), identity, kind, interfaces

    state, identity, kind, interfaces = await _in_thread(load)
    try:
        (spec, journal, restored) = state.tables[0]
        if restored is None:
            raise HostError(f"cannot continue the table kept in {directory}: it holds no match")
        served = ServedTable(spec, TableSettings(ai_delay=ai_delay), identity, journal=journal)
        return await _open(cert, served, restored, interfaces=interfaces,
                           advertise=kind == kept.HOSTED, own_thread=own_thread,
                           state=state, movable=kind == kept.PRACTICE)  # fmt: skip
    except BaseException:
        state.close()
        raise


CLOSE_WAIT = 10.0  # seconds a client's own table waits for its disk when it closes


async def _within(fn: Callable[[], object], limit: float) -> bool:
    """``fn()`` on a daemon thread of its own; whether it returned within ``limit`` seconds (a
    disk that stopped answering: the thread is left to it, and never holds the exit)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()

    def settle(exc: BaseException | None) -> None:
        if not done.done():
            if exc is None:
                done.set_result(None)
            else:
                done.set_exception(exc)

    def run() -> None:
        exc: BaseException | None = None
        try:
            fn()
        except BaseException as e:  # told to the caller, raised there
            exc = e
        with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits any more
            loop.call_soon_threadsafe(settle, exc)

    threading.Thread(target=run, name="briscola-kept-close", daemon=True).start()
    try:
        await asyncio.wait_for(asyncio.shield(done), limit)
    except TimeoutError:
        return False
    return True


async def _in_thread(fn: Callable[..., _T], *args: Any) -> _T:
    """``fn(*args)`` (files: a folder claimed, a journal read) off the caller's event loop, on a
    thread of its own that ends with it."""
    with ThreadPoolExecutor(1, thread_name_prefix="briscola-kept") as pool:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)


async def _open(
    cert: Any,
    served: ServedTable,
    restored: Any,
    *,
    interfaces: list[str],
    advertise: bool,
    own_thread: bool,
    state: HostState | None,
    movable: bool = False,
) -> EmbeddedHost:
    """Serve ``served`` (fresh, or ``restored``) on ``interfaces``; its spec is kept beside its
    journal once its port is known. ``movable``: when its port is taken, any free one will do
    (a practice table: nobody else rejoins it at its address)."""
    table = served.build(restored)
    was = served.spec.port

    async def open_server() -> HostServer:
        server = host_server(cert, interfaces, advertise=advertise)
        try:
            try:
                await served.serve(server, "table", table)
            except ListenError:
                if not movable or served.spec.port == 0:
                    raise
                served.spec.port = 0
                await served.serve(server, "table", table)
        except ListenError:
            await server.close()
            raise
        return server

    runner = HostThread() if own_thread else None
    try:
        server = await (runner.call(open_server()) if runner else open_server())
    except BaseException:
        if runner is not None:
            await runner.stop()
        raise
    host = EmbeddedHost(server, served, cert.fingerprint, interfaces[0], runner)
    if was and served.spec.port != was:
        host.moved_from = was
    if state is not None:
        try:
            save_spec(state.directory / "table.json", served.spec)
        except OSError as exc:
            await host.close()
            raise HostError(
                f"cannot keep the table in {state.directory}: {files.describe_os_error(exc)}"
            ) from exc
        host.state = state
    return host
