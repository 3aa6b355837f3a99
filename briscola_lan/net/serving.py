"""Serving tables: one way to build a table and serve it on a ``HostServer`` (``ServedTable``,
``host_server``), shared by ``briscola-lan host`` and by a table a client hosts itself; and the
host command's run (``serve``): every table served, its state and transcript saved, a finished
match's table opened again for the next, until the host is stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from briscola_lan.net.console import Console
from briscola_lan.net.discovery import Advertiser
from briscola_lan.net.files import describe_os_error
from briscola_lan.net.games import GameSaver
from briscola_lan.net.host_saves import SaveReporter, host_saver, save_all, save_loop
from briscola_lan.net.hosted import HostedTable
from briscola_lan.net.journal import Journal
from briscola_lan.net.next_match import (
    REOPEN_AFTER,
    NextMatchTable,
    Reopener,
    is_over,
    reopen_loop,
)
from briscola_lan.net.outlet import Outlet
from briscola_lan.net.server import HostServer
from briscola_lan.net.table_spec import HostError, TableSettings, TableSpec, make_table, save_spec


class ListenError(HostError):
    """A table's port could not be opened on the host's addresses (in use, not allowed...)."""

    def __init__(self, hosts: Sequence[str], port: int, error: OSError) -> None:
        self.hosts, self.port, self.error = list(hosts), port, error
        super().__init__(
            f"cannot listen on {', '.join(hosts)} port {port}: {error.strerror}. "
            "Pick another --port (0 picks a free one)."
        )


def _as_is(table: Any) -> Any:
    return table


@dataclass(eq=False)
class ServedTable:
    """One table a host serves: what it is made of (spec, settings, host key), how it is served
    (``wrap``: what stands around the table, such as ``NextMatchTable`` or the console), and
    where (``hosted``, once served). Its next match is made the same way (``open_next_match``).
    """

    spec: TableSpec
    settings: TableSettings
    identity: Any
    wrap: Callable[[Any], Any] = _as_is
    hosted: HostedTable | None = None
    journal: Journal | None = None  # where each change of its matches is written first

    def build(self, restored: Any = None) -> Any:
        """The table as served: fresh, or the one ``restored`` from its journal."""
        return self.wrap(make_table(self.spec, self.identity, restored, self.settings))

    async def serve(self, server: HostServer, key: str, table: Any) -> HostedTable:
        """Serve ``table`` (built by ``build``) on the spec's port, which becomes the one
        actually opened (0 picks a free one), journaled in ``journal``."""
        try:
            hosted = await server.add_table(key, table, port=self.spec.port, journal=self.journal)
        except OSError as exc:
            raise ListenError(server.hosts, self.spec.port, exc) from exc
        self.spec.port = hosted.port
        self.hosted = hosted
        return hosted


def host_server(
    cert: Any, interfaces: Sequence[str], *, advertise: bool = True, **tuning: Any
) -> HostServer:
    """A server for tables on ``interfaces`` under the host's certificate, advertised over mDNS
    unless told not; ``tuning`` goes to ``HostServer`` (tick, heartbeat, hello timeout)."""
    from briscola_lan.net import tls

    return HostServer(
        tls.server_context(cert),
        hosts=list(interfaces),
        fingerprint=cert.fingerprint,
        advertiser=Advertiser(interfaces) if advertise else None,
        **tuning,
    )


def quiet_cancelled_callbacks(loop: asyncio.AbstractEventLoop) -> None:
    """Shutting down cancels the connection tasks: a CancelledError that reaches a loop callback
    then is expected, not worth a traceback. Report anything else as usual."""

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), asyncio.CancelledError):
            return
        loop.default_exception_handler(context)

    loop.set_exception_handler(handler)


@dataclass(frozen=True, slots=True)
class HostRun:
    """How ``briscola-lan host`` serves its tables (from its options)."""

    state_dir: Path | None = None  # each table's journal and spec, kept for --resume
    resume: str = ""  # the command that continues them, said at start
    games: Path | None = None  # the transcripts (None: the default games folder)
    one_match: bool = False  # a finished match stays on show; no next match opens
    reopen_after: float = REOPEN_AFTER  # seconds a finished table waits, empty, to reopen
    quiet: bool = False  # no line per event on the console
    on_stop: Callable[[], None] | None = None  # called as the stop begins (``net/stop_guard``)


async def serve(
    server: HostServer,
    tables: Sequence[tuple[ServedTable, Any]],
    run: HostRun,
    *,
    stop: asyncio.Event | None = None,
) -> int:
    """Serve each table (the one restored from its journal, if any) until SIGINT/SIGTERM (or
    ``stop``); returns the exit status."""
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    quiet_cancelled_callbacks(loop)
    # While it serves, the host never waits for whoever reads its output (a full pipe, a
    # stopped terminal): each line is queued, and left out (counted) if nobody reads.
    out, err = Outlet(sys.stdout), Outlet(sys.stderr)
    try:
        return await _serve(server, tables, run, stop, say=out.write, warn=err.write)
    finally:
        out.close()
        err.close()


async def _serve(
    server: HostServer,
    tables: Sequence[tuple[ServedTable, Any]],
    run: HostRun,
    stop: asyncio.Event,
    *,
    say: Callable[[str], None],
    warn: Callable[[str], None],
) -> int:
    loop = asyncio.get_running_loop()
    reporter = SaveReporter(server, warn)
    server.on_saving = reporter.state_saving
    savers: list[tuple[Any, GameSaver]] = []
    reopeners: list[Reopener] = []
    consoles: list[Console] = []
    saving: asyncio.Task[None] | None = None
    reopening: asyncio.Task[None] | None = None
    # The transcripts are written in a thread of their own, one file at a time: a slow disk
    # holds up no table.
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="briscola-lan-saves")

    def saver_for(table: Any) -> GameSaver:
        return host_saver(table, run.games, reporter, warn)

    try:
        for i, (served, restored) in enumerate(tables):
            spec = served.spec
            served.wrap = _wrapping(run, consoles, say)
            table = served.build(restored)
            if restored is not None and is_over(table):
                then = (
                    "result only (start a new match with --force, or another --state-dir)"
                    if run.one_match
                    else "result until nobody is connected, then a new match"
                )
                say(f"the match of table {spec.name!r} saved in {run.state_dir} is over: "
                    f"serving its {then}")  # fmt: skip
            savers.append((table, saver_for(table)))
            stem = "table" if len(tables) == 1 else f"table{i:03d}"
            state_dir = run.state_dir
            hosted = await served.serve(server, stem, table)
            reopeners.append(Reopener(served, len(savers) - 1, after=run.reopen_after))
            if state_dir is not None:
                try:
                    save_spec(state_dir / f"{stem}.json", spec)
                except OSError as exc:
                    raise HostError(
                        f"--state-dir: cannot write in {state_dir}: {describe_os_error(exc)}"
                    ) from exc
            where = ", ".join(f"{a}:{hosted.port}" for a in server.hosts)
            say(
                f"table {spec.name!r} ({spec.options.summary()}, {table.deal_mode} deal) on "
                f"{where} fingerprint {server.fingerprint}"
            )
        if run.state_dir is not None:
            say(f"journal in {run.state_dir}: if the host stops before the match is over, "
                f"continue it with `{run.resume}`")  # fmt: skip
        say("ready")
        for console in consoles:
            console.start()
        saving = loop.create_task(save_loop(server, savers, writer))
        if not run.one_match:
            reopening = loop.create_task(
                reopen_loop(server, reopeners, savers, saver_for, say=say, executor=writer)
            )
        await stop.wait()
    finally:
        for sig in (signal.SIGINT, signal.SIGTERM):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.remove_signal_handler(sig)
        if run.on_stop is not None:
            run.on_stop()
        for task in (saving, reopening):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        try:
            await server.close()
        finally:
            # Everything played is kept: a hand in progress too (``verify`` reports it as
            # incomplete), and the state file if a full disk had refused it until now. A save
            # still being written finishes first (a later save is written over it anyway).
            writer.shutdown(wait=True)
            save_all(savers, whole=True)
            server.retry_saves()
    say("host stopped")
    return 0


def _wrapping(
    run: HostRun, consoles: list[Console], say: Callable[[str], None]
) -> Callable[[Any], Any]:
    """What stands around a table of the host command, and around each of its next matches:
    the door for newcomers while a match is over (``NextMatchTable``, unless --one-match),
    then the console that says one line per event (unless --quiet)."""
    console = None if run.quiet else Console(say)
    if console is not None:
        consoles.append(console)

    def wrap(table: Any) -> Any:
        if not run.one_match:
            table = NextMatchTable(table)
        return table if console is None else console.watch(table)

    return wrap
