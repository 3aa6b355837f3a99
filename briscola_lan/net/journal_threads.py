"""The journals' threads, which keep the disk off the host's event loop: the writer that writes
the frames the loop stages (``JournalWriter``) and the one that flushes them to the disk every
second (``Syncer``).

The writer. The event loop stages a table's change (``Journal.stage``: its frame encoded from the
live table, queued) and ``submit``s the journal; a writer thread writes every frame queued for it
in one write (``Journal.write_queued``) and tells the loop, which runs ``on_written`` there: the
host sends the messages that waited for those frames only then (``net/server.py``). A journal has
one write under way at most; what it stages meanwhile goes in its next write, after the one under
way, so a table's frames reach its file in order. Writes of other tables go on meanwhile on the
other threads, and whatever a disk does the loop never waits: a write of a few milliseconds on a
busy disk stalls no table. ``threads=0`` writes on the caller's thread instead, before ``submit``
returns (the measurements' baseline, and the host's writer once it is closed).

Threads wake the loop once per batch of results (a byte on a socket when the first result
of a batch is posted), so that a loaded host pays a wake-up per loop turn, not per frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import queue
import socket
import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger(__name__)

WRITER_THREADS = 2  # writes under way at once, each a table's (docs/performance.md)


class Writable(Protocol):
    """What the threads use of a journal (``net/journal.py``)."""

    path: Path
    staged: int  # frames staged so far
    resolved: int  # the last frame whose write has returned

    @property
    def pending(self) -> bool: ...  # frames staged that no write has taken

    def write_queued(self) -> OSError | None: ...
    def sync_now(self) -> None: ...


# Told, on the loop, that a write of ``journal`` submitted with ``token`` has returned: the
# ``OSError`` of a disk that refused it, or None.
OnWritten = Callable[[Any, Writable, OSError | None], None]


class JournalWriter:
    """Writes the journals it is given off the event loop (see the module's text)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop | None,
        on_written: OnWritten,
        threads: int = WRITER_THREADS,
    ) -> None:
        if threads < 0:
            raise ValueError(f"writer threads must be 0 or more, not {threads}")
        if threads and loop is None:
            raise ValueError("a writer with threads needs the event loop that it tells")
        self._loop = loop
        self._on_written = on_written
        self._wanted = threads
        self._threads: list[threading.Thread] = []
        self._jobs: queue.SimpleQueue[Writable | None] = queue.SimpleQueue()
        self._busy: dict[Writable, Any] = {}  # a write under way (or queued): its token
        self._done: list[tuple[Writable, OSError | None]] = []  # the threads' results
        self._done_lock = threading.Lock()
        self._idle: list[asyncio.Future[None]] = []  # ``drain``s waiting
        self._closed = False
        self._wake: tuple[socket.socket, socket.socket] | None = None  # to the loop (``_start``)

    def submit(self, journal: Writable, token: Any) -> None:
        """Write what ``journal`` has staged; ``on_written(token, journal, exc)`` follows on the
        loop. A journal with a write under way is written again after it, if it staged more."""
        if journal in self._busy:
            return
        if self._closed:
            raise RuntimeError("the journal writer is closed")
        self._busy[journal] = token
        if not self._wanted:
            self._finish(journal, _write(journal))
            return
        if not self._threads:
            self._start()
        self._jobs.put(journal)

    def _start(self) -> None:
        """The threads, and the socket pair by which they wake the loop: a byte, read in the
        loop's reader callback (cheaper than ``call_soon_threadsafe``, which makes a handle and
        reads its own socket until it is empty; that one where a loop has no readers)."""
        loop = self._loop
        assert loop is not None
        r, w = socket.socketpair()
        r.setblocking(False)
        try:
            loop.add_reader(r.fileno(), self._collect)
            self._wake = (r, w)
        except NotImplementedError:
            r.close()
            w.close()
        for i in range(self._wanted):
            t = threading.Thread(target=self._run, name=f"briscola-journal-{i}", daemon=True)
            t.start()
            self._threads.append(t)

    @property
    def busy(self) -> bool:
        """A write is under way."""
        return bool(self._busy)

    async def drain(self) -> None:
        """Until no write is under way (each journal's frames written, as far as the disk takes
        them)."""
        while self._busy:
            waiter = asyncio.get_running_loop().create_future()
            self._idle.append(waiter)
            await waiter

    def close(self) -> None:
        """End the threads (once ``drain`` has returned: nothing is left to write)."""
        self._closed = True
        for _ in self._threads:
            self._jobs.put(None)
        self._threads.clear()
        wake, self._wake = self._wake, None
        if wake is not None and self._loop is not None:
            with contextlib.suppress(Exception):  # a loop closed already has no readers
                self._loop.remove_reader(wake[0].fileno())
            for sock in wake:
                sock.close()

    def _run(self) -> None:
        jobs, done, lock = self._jobs, self._done, self._done_lock
        while True:
            journal = jobs.get()
            if journal is None:
                return
            exc = _write(journal)
            with lock:
                first = not done
                done.append((journal, exc))
            if first:
                self._wake_loop()

    def _wake_loop(self) -> None:
        wake, loop = self._wake, self._loop
        try:
            if wake is not None:
                wake[1].send(b"\0")
            elif loop is not None:
                loop.call_soon_threadsafe(self._collect)
        except (OSError, RuntimeError):  # the loop is closed: nobody waits for the result
            pass

    def _collect(self) -> None:
        if self._wake is not None:
            try:  # noqa: SIM105 (once a frame: cheaper than contextlib.suppress)
                self._wake[0].recv(4096)
            except BlockingIOError:  # taken by the last call already
                pass
        with self._done_lock:
            done = self._done[:]
            self._done.clear()
        for journal, exc in done:
            self._finish(journal, exc)

    def _finish(self, journal: Writable, exc: OSError | None) -> None:
        token = self._busy.pop(journal)
        if journal.staged > journal.resolved and not self._closed:
            self.submit(journal, token)  # staged meanwhile: its next write
        try:
            self._on_written(token, journal, exc)
        finally:
            if not self._busy:
                waiters = self._idle[:]
                self._idle.clear()
                for waiter in waiters:
                    if not waiter.done():
                        waiter.set_result(None)


def _write(journal: Writable) -> OSError | None:
    try:
        return journal.write_queued()
    except Exception as exc:  # a bug must not end the thread: the loop hears of it
        log.exception("journal %s: the write failed", journal.path)
        return OSError(errno.EIO, f"the journal's write failed: {exc}")


class Syncer:
    """The thread that flushes the journals to the disk every ``every`` seconds, off the event
    loop (a flush takes milliseconds on a real disk). It runs while a journal has something to
    flush, and ends with the last one closed."""

    def __init__(self, every: float) -> None:
        self.every = every
        self._journals: weakref.WeakSet[Writable] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, journal: Writable) -> None:
        if journal in self._journals:
            return
        with self._lock:
            self._journals.add(journal)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="briscola-journal-sync", daemon=True
                )
                self._thread.start()

    def forget(self, journal: Writable) -> None:
        with self._lock:
            self._journals.discard(journal)
            if not self._journals:
                self._wake.set()  # the thread ends now rather than after its sleep

    def _run(self) -> None:
        while True:
            self._wake.wait(self.every)
            with self._lock:
                self._wake.clear()
                journals = list(self._journals)
                if not journals:
                    self._thread = None
                    return
            for journal in journals:
                journal.sync_now()


__all__ = ["WRITER_THREADS", "JournalWriter", "OnWritten", "Syncer", "Writable"]
