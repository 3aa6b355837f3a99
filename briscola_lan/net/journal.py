"""The host's journal on disk: one append-only file per table, written at every change of the
table before any message that change causes leaves (write-ahead), in time linear in the match.
(A classic card's trick result, draws and receipt leave before the next change writes them: a
table restored from what is written makes them again, the same bytes, ``HostTable.settle``.)

Each change is one *frame* appended to the file: the transcript's new records, the new messages
of the seats' logs and their places in the logs, and what changed in the rest of the table's
state (a few KB that does not grow with the match, ``table.host_journal``: written whole in a
journal's first frame, then only the values that changed). Nothing written is
ever rewritten, so a match's bytes grow with its length, where a whole snapshot written at every
change grows with its square; a new match at the same table starts a new file (written aside,
then renamed over the old one). The layout is in protocol/SPEC.md §10 (``net/journal_format.py``
reads it back):

    header: b"briscola-lan-journal\\n", u32 version (2), the host's public key (32 bytes)
    frame:  u32 length, u32 length ^ 0xFFFFFFFF, SHA-256(previous digest || u32 length ||
            payload), payload (msgpack)

The digests chain every frame to the header: an edit anywhere breaks the chain from there on;
the length's complement tells a damaged length apart from a frame cut short.

Writing. ``stage`` encodes a change into its frame (it reads the live table: the event loop's
work) and queues it; ``write_queued`` writes every frame queued so far in one write, in order, and
may run on another thread (``net/journal_threads.py``: the host's writers, so that a slow disk
never stalls its event loop); ``save`` is both at once. A frame is in the operating system's hands
when the write that took it has returned: the host sends a change's messages only then
(``net/write_ahead.py``), so killing the host at any instant loses nothing a player was sent. The
file is flushed to the disk (fsync) at most ``SYNC_EVERY`` seconds later by a thread of its own
(``sync="second"``, the default): a power cut takes back at most that last second of play. A
frame cut short by a crash while it was written (a *torn* tail) is dropped when the journal is
opened again: the table comes back as it was before that change, whose messages never left.
``sync="change"`` flushes every write before it returns (on the writer's thread), at the cost
measured in docs/performance.md. ``close`` writes what is still queued first.

What is refused, with a message a person can act on (``JournalError``): a file that is not a
briscola-lan journal, one of another version, one of another host identity, a whole frame whose
digest does not match (edited, or damaged on the disk), and a journal another process is using
(``net/lock.py``: one host per journal). A disk that refuses a write (full, read-only) is an
``OSError`` from ``write_queued`` (or ``save``); the part of it that was written is cut off
again, its frames stay queued, nothing is lost, and the next write writes everything since the
last frame that was.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from briscola_lan.net import files
from briscola_lan.net.journal_format import (
    FRAME_HEAD,
    HEADER_SIZE,
    KEY_SIZE,
    MAGIC,
    MAX_FRAME,
    READS,
    VERSION,
    JournalError,
    Parsed,
    frame,
    parse,
)
from briscola_lan.net.journal_threads import Syncer
from briscola_lan.net.lock import FileLock, try_lock

if TYPE_CHECKING:
    from briscola_lan.fairness.identity import Identity
    from briscola_lan.table.host import HostTable
    from briscola_lan.table.host_journal import Changes, JournalCursor, Summary

log = logging.getLogger(__name__)

SUFFIX = ".journal"
LOCK_SUFFIX = ".lock"
SYNC_EVERY = 1.0  # seconds: the most play a power cut can take back (sync="second")
SYNC_MODES = ("second", "change")


class JournalBusy(JournalError):
    """Another process holds the journal (it serves the table now)."""


def journal_path(directory: Path, stem: str = "table") -> Path:
    """Where the journal of table ``stem`` lives in ``directory``."""
    return directory / f"{stem}{SUFFIX}"


def header(host_key: bytes) -> bytes:
    """The journal's first bytes, for the host whose identity's public key is ``host_key``."""
    return MAGIC + VERSION.to_bytes(4, "big") + host_key


def payload(tx: int, ch: Changes) -> bytes:
    """A change as a frame's payload (``_apply`` reads it back; tuples are msgpack arrays)."""
    return _pack(
        (
            tx,
            ch.records_start,
            ch.records,
            ch.messages_start,
            ch.messages,
            ch.logs,  # (seat, epoch, start, messages) each
            ch.heads,  # (epoch, length) each
            ch.rest if ch.rest_changed else None,
        )
    )


def _pack(obj: object) -> bytes:
    from briscola_lan.wire.codec import pack_state

    return pack_state(obj)


class Journal:
    """One table's journal: opened (and locked) by ``open``, read by ``load``, written at every
    change (``stage`` then ``write_queued``, or ``save``), closed by ``close``.

    ``stage`` belongs to one thread (the event loop's); ``write_queued`` may run on any, one at a
    time (``_write_lock``): the frames staged meanwhile wait for the next."""

    def __init__(self, path: Path, lock: FileLock, host_key: bytes, sync: str) -> None:
        self.path = path
        self._lock = lock
        self._host_key = host_key
        self.sync = sync
        self._parsed: Parsed | None = None  # what the file held when opened, until ``load``
        self._table: object = None  # the table the cursor follows; another one starts over
        self._cursor: JournalCursor | None = None
        self._tx = 0  # the last frame staged: its number and digest
        self._digest = b""
        # Frames staged, not written yet, in order; ``_whole``: they start a new file (its
        # header first); ``_gen`` counts the new files started (what a failed write puts back).
        self._queue: list[bytes] = []
        self._whole = False
        self._gen = 0
        self._queue_lock = threading.Lock()
        self.staged = 0  # frames staged so far (the last one's number)
        self.resolved = 0  # the last frame whose write has returned (written, or refused)
        # The writer's: one write at a time, the file's end, its descriptor.
        self._write_lock = threading.Lock()
        self._end = 0  # where the next frame goes
        self._cut = False  # a write failed: cut the file back to ``_end`` before the next
        self._fd: int | None = None
        self._closed = False
        self._sync_lock = threading.Lock()  # the flushing thread's and the writer's descriptor
        self._dirty = False
        self._watched = False  # the flushing thread knows this journal

    # --- opening ----------------------------------------------------------------------------

    @classmethod
    def open(cls, path: Path, host_key: bytes, *, sync: str = "second") -> Journal:
        """Open the journal at ``path`` (a new, empty one if there is none) for the host whose
        identity's public key is ``host_key``; locked until ``close``. A journal that cannot be
        continued is a ``JournalError`` (nothing is changed in it)."""
        if sync not in SYNC_MODES:
            raise ValueError(f"unknown journal sync {sync!r}: use {' or '.join(SYNC_MODES)}")
        try:
            files.private_dir(path.parent)
            lock = try_lock(path.with_name(path.name + LOCK_SUFFIX))
        except OSError as exc:
            raise JournalError(
                f"cannot open the table's journal {path}: {files.describe_os_error(exc)}"
            ) from exc
        if lock is None:
            raise JournalBusy(
                f"the table's journal {path} is in use by another host process: stop that "
                "host first, or choose another --state-dir"
            )
        journal = cls(path, lock, host_key, sync)
        try:
            journal._open()
        except BaseException:
            lock.release()
            raise
        return journal

    def _open(self) -> None:
        try:
            try:
                data = self.path.read_bytes()
            except FileNotFoundError:
                files.write_private(self.path, header(self._host_key))
                data = self.path.read_bytes()
            parsed = parse(data, str(self.path), self._host_key)
            self._fd = os.open(self.path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
            if parsed.torn:
                log.warning(
                    "journal %s: its last change was cut short (%d bytes: a crash while it was "
                    "written, before its messages left); going on from the one before",
                    self.path,
                    parsed.torn,
                )
                os.ftruncate(self._fd, parsed.end)
        except OSError as exc:
            self._close_fd()
            raise JournalError(
                f"cannot open the table's journal {self.path}: {files.describe_os_error(exc)}"
            ) from exc
        except BaseException:
            self._close_fd()
            raise
        self._parsed, self._end, self._digest, self._tx = (
            parsed,
            parsed.end,
            parsed.digest,
            parsed.tx,
        )

    # --- reading ----------------------------------------------------------------------------

    def summary(self) -> Summary | None:
        """What the lobby shows of the journaled table (None: nothing written yet)."""
        parsed = self._parsed
        return None if parsed is None else _summary(parsed, self.path)

    def load(
        self,
        identity: Identity,
        *,
        entropy: Callable[[int], bytes] | None = None,
        bot_factory: Any = None,
        clock: Callable[[], float] | None = None,
    ) -> HostTable | None:
        """The table as the journal last held it (None when nothing was written), restored as
        from a snapshot file, with every check that makes; the journal goes on from it."""
        from briscola_lan.table.host import HostTable
        from briscola_lan.table.host_journal import JournalCursor, SeatLog, rebuild
        from briscola_lan.table.snapshot import SnapshotError

        parsed = self._parsed
        if parsed is None or parsed.rest is None:
            return None
        try:
            obj = rebuild(parsed.rest, parsed.records, parsed.messages, parsed.logs)
            kwargs: dict[str, Any] = {"identity": identity, "bot_factory": bot_factory}
            if entropy is not None:
                kwargs["entropy"] = entropy
            if clock is not None:
                kwargs["clock"] = clock
            table = HostTable.restore_map(obj, **kwargs)
        except SnapshotError as exc:
            raise JournalError(f"cannot continue the table in {self.path}: {exc}") from exc
        heads = [SeatLog(e, len(lg)) for e, lg in zip(parsed.epochs, parsed.logs, strict=True)]
        self._cursor = JournalCursor.restored(
            table, len(parsed.records), len(parsed.messages), heads, parsed.logs
        )
        self._table = table
        self._parsed = None  # the table holds it now
        if parsed.version != VERSION:  # an older layout: the journal goes on in this one
            try:
                self._start_over(table)
                self.flush()
            except OSError as exc:
                raise JournalError(
                    f"cannot write the table's journal {self.path} again in this version's "
                    f"layout: {files.describe_os_error(exc)}"
                ) from exc
        return table

    # --- writing ----------------------------------------------------------------------------

    def save(
        self, table: HostTable, encoded: dict[int, tuple[object, bytes]] | None = None
    ) -> dict[int, bytes]:
        """``stage`` then ``flush``: the change is in the operating system's hands when this
        returns. ``OSError`` when the disk refuses (nothing is lost: the next save writes it
        all)."""
        bodies = self.stage(table, encoded)
        self.flush()
        return bodies

    def stage(
        self, table: HostTable, encoded: dict[int, tuple[object, bytes]] | None = None
    ) -> dict[int, bytes]:
        """Encode what changed at ``table`` since the last change staged into a frame, queued
        for ``write_queued`` (``staged`` counts it; nothing is written here). A table other than
        the last one (the next match at the same place) starts a new journal. ``encoded``:
        messages already encoded (``encode_message``), by ``id``, each with its object; their
        bytes are taken as they are.

        Returns the messages this change put in the seats' logs, encoded (``encode_message``),
        by the ``id`` of each message object: the server sends those bytes rather than encode
        the same messages again (each object is alive while it is in a log)."""
        if self._closed:
            raise ValueError("the journal is closed")
        cursor = self._cursor
        if table is not self._table or cursor is None:
            self._start_over(table)
            return {}
        ch = cursor.changes(table, encoded)
        if ch.empty:
            return {}
        data, digest = frame(self._digest, payload(self._tx + 1, ch))
        cursor.advance(ch)
        self._tx += 1
        self._digest = digest
        with self._queue_lock:
            self._queue.append(data)
            self.staged += 1
        return ch.encoded()

    def _start_over(self, table: HostTable) -> None:
        """A new journal for a new table: its header and first frame, queued to be written
        aside, flushed, then renamed over the old file (a crash leaves the old journal or the
        new one). Frames of the old table not written yet are left out."""
        from briscola_lan.table.host_journal import JournalCursor

        cursor = JournalCursor(len(table.seats))
        ch = cursor.changes(table)
        start = header(self._host_key)
        data, digest = frame(hashlib.sha256(start).digest(), payload(1, ch))
        cursor.advance(ch)
        self._table, self._cursor, self._tx, self._digest, self._parsed = (
            table,
            cursor,
            1,
            digest,
            None,
        )
        with self._queue_lock:
            self._queue, self._whole = [start + data], True
            self._gen += 1
            self.staged += 1

    @property
    def pending(self) -> bool:
        """Frames are staged that no write has taken yet (or that a refused write gave back)."""
        return bool(self._queue)

    def flush(self) -> None:
        """Write what is staged now, here; ``OSError`` when the disk refuses it."""
        exc = self.write_queued()
        if exc is not None:
            raise exc

    def write_queued(self) -> OSError | None:
        """Write every frame staged so far, in one write after the frames written before
        (``resolved`` then names the last of them); the ``OSError`` of a disk that refuses it
        (those frames stay queued, first: the next write takes them again). Safe on any
        thread, one write at a time."""
        with self._write_lock:
            with self._queue_lock:
                frames, whole, gen, upto = self._queue, self._whole, self._gen, self.staged
                self._queue, self._whole = [], False
            if not frames or self._fd is None:
                self.resolved = upto
                return None
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            try:
                if whole:
                    self._replace(data)
                else:
                    self._append(data)
            except OSError as exc:
                with self._queue_lock:
                    if self._gen == gen:  # no new file started since: these go first again
                        self._queue[:0] = frames
                        self._whole = whole
                self.resolved = upto
                return exc
            self.resolved = upto
            return None

    def _append(self, data: bytes) -> None:
        fd = self._fd
        assert fd is not None
        try:
            if self._cut:
                os.ftruncate(fd, self._end)
                self._cut = False
            _write_at(fd, data, self._end)
            if self.sync == "change":
                os.fsync(fd)
        except OSError:
            try:  # a part of the frame may be on the disk: cut it off again
                os.ftruncate(fd, self._end)
            except OSError:
                self._cut = True  # before the next frame, then
            raise
        self._end += len(data)
        self._mark_dirty()

    def _replace(self, data: bytes) -> None:
        """The file made anew from ``data`` (a header and frames), renamed over the old one."""
        files.write_private(self.path, data)
        fd = os.open(self.path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        with self._sync_lock:
            old, self._fd = self._fd, fd
            self._dirty = False
        if old is not None:
            os.close(old)
        self._end, self._cut = len(data), False

    def _mark_dirty(self) -> None:
        if self.sync == "second":
            self._dirty = True
            if not self._watched:
                self._watched = True
                _syncer.watch(self)

    # --- durability and closing ------------------------------------------------------------

    def sync_now(self) -> None:
        """Flush what was written to the disk, if anything was since the last flush."""
        with self._sync_lock:
            if not self._dirty or self._fd is None:
                return
            self._dirty = False
            try:
                os.fsync(self._fd)
            except OSError as exc:
                log.warning("journal %s: cannot flush it to the disk: %s", self.path, exc)

    def close(self) -> None:
        """Write what is staged, flush it to the disk, close the journal and unlock it."""
        if self._closed:
            return
        self._closed = True  # nothing is staged from now on
        exc = self.write_queued()  # once it returns, nothing writes to the journal any more
        if exc is not None:
            log.warning(
                "journal %s: cannot write its last changes: %s",
                self.path,
                files.describe_os_error(exc),
            )
        _syncer.forget(self)
        self.sync_now()
        with self._write_lock:
            self._close_fd()
        self._lock.release()

    def _close_fd(self) -> None:
        with self._sync_lock:
            fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)

    def discard(self) -> None:
        """Close the journal and remove its files (a table nobody will continue)."""
        self.close()
        remove_journal(self.path)


def _write_at(fd: int, data: bytes, offset: int) -> None:
    view = memoryview(data)
    while view:
        if hasattr(os, "pwrite"):
            n = os.pwrite(fd, view, offset)
        else:  # Windows
            os.lseek(fd, offset, os.SEEK_SET)
            n = os.write(fd, view)
        view, offset = view[n:], offset + n


def remove_journal(path: Path) -> None:
    """Remove a journal's files (the journal and its lock)."""
    for suffix in ("", LOCK_SUFFIX):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{path}{suffix}")


def read_summary(path: Path, host_key: bytes | None = None) -> Summary | None:
    """What the journal at ``path`` (of ``host_key``'s, when given) holds, for the lobby and the
    host's start, read without taking it (None: nothing was written in it yet, or there is no
    journal); ``JournalError`` when it cannot be continued."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {files.describe_os_error(exc)}") from exc
    return _summary(parse(data, str(path), host_key), path)


def _summary(parsed: Parsed, path: Path) -> Summary | None:
    from briscola_lan.table.host_journal import summary
    from briscola_lan.table.snapshot import SnapshotError

    if parsed.rest is None:
        return None
    try:
        return summary(parsed.rest)
    except SnapshotError as exc:
        raise JournalError(f"{path}: {exc}") from exc


_syncer = Syncer(SYNC_EVERY)


__all__ = [
    "FRAME_HEAD",
    "HEADER_SIZE",
    "KEY_SIZE",
    "MAGIC",
    "MAX_FRAME",
    "READS",
    "SYNC_EVERY",
    "VERSION",
    "Journal",
    "JournalBusy",
    "JournalError",
    "frame",
    "journal_path",
    "parse",
    "read_summary",
    "remove_journal",
]
