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
then renamed over the old one). The layout is in protocol/SPEC.md §10:

    header: b"briscola-lan-journal\\n", u32 version (2), the host's public key (32 bytes)
    frame:  u32 length, u32 length ^ 0xFFFFFFFF, SHA-256(previous digest || u32 length ||
            payload), payload (msgpack)

The digests chain every frame to the header: an edit anywhere breaks the chain from there on;
the length's complement tells a damaged length apart from a frame cut short.

Durability. A frame is in the operating system's hands when ``save`` returns, so killing the
host at any instant loses nothing a player was sent. The file is flushed to the disk (fsync) at
most ``SYNC_EVERY`` seconds later by a thread of its own (``sync="second"``, the default): a power
cut takes back at most that last second of play. A frame cut short by a crash while it was
written (a *torn* tail) is dropped when the journal is opened again: the table comes back as it
was before that change, whose messages never left. ``sync="change"`` flushes every frame before
``save`` returns, at the cost measured in docs/performance.md.

What is refused, with a message a person can act on (``JournalError``): a file that is not a
briscola-lan journal, one of another version, one of another host identity, a whole frame whose
digest does not match (edited, or damaged on the disk), and a journal another process is using
(``net/lock.py``: one host per journal). A disk that refuses a write (full, read-only) is an
``OSError`` from ``save``; the part of the frame that was written is cut off again, nothing is
lost, and the next ``save`` writes everything since the last frame that was.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from briscola_lan.net import files
from briscola_lan.net.lock import FileLock, try_lock

if TYPE_CHECKING:
    from briscola_lan.fairness.identity import Identity
    from briscola_lan.table.host import HostTable
    from briscola_lan.table.host_journal import Changes, JournalCursor, Summary

log = logging.getLogger(__name__)

MAGIC = b"briscola-lan-journal\n"
VERSION = 2
READS = (1, 2)  # version 1 wrote the rest whole at every change: read, then written again as 2
KEY_SIZE = 32
HEADER_SIZE = len(MAGIC) + 4 + KEY_SIZE
FRAME_HEAD = 4 + 4 + 32  # length, its complement, digest
MAX_FRAME = 64 * 1024 * 1024  # a longer length field is damage, not a change
SUFFIX = ".journal"
LOCK_SUFFIX = ".lock"
SYNC_EVERY = 1.0  # seconds: the most play a power cut can take back (sync="second")
SYNC_MODES = ("second", "change")


class JournalError(Exception):
    """A journal this host cannot use: the message says why, and what to do."""


class JournalBusy(JournalError):
    """Another process holds the journal (it serves the table now)."""


def journal_path(directory: Path, stem: str = "table") -> Path:
    """Where the journal of table ``stem`` lives in ``directory``."""
    return directory / f"{stem}{SUFFIX}"


def header(host_key: bytes) -> bytes:
    """The journal's first bytes, for the host whose identity's public key is ``host_key``."""
    return MAGIC + VERSION.to_bytes(4, "big") + host_key


def frame(digest: bytes, payload: bytes) -> tuple[bytes, bytes]:
    """The frame that appends ``payload`` after the frame (or header) whose digest is
    ``digest``, and its own digest."""
    n = len(payload)
    length = n.to_bytes(4, "big")
    h = hashlib.sha256(digest)
    h.update(length)
    h.update(payload)
    d = h.digest()
    return b"".join((length, (n ^ 0xFFFFFFFF).to_bytes(4, "big"), d, payload)), d


@dataclass
class Parsed:
    """What a journal file holds, read and checked frame by frame."""

    host_key: bytes
    end: int  # where the last whole frame ends (a torn tail after it is not part of the journal)
    digest: bytes  # the last whole frame's digest (the header's, with no frame)
    torn: int = 0  # bytes of a frame cut short at the end
    version: int = VERSION
    tx: int = 0
    records: list[tuple[bytes, bytes]] = field(default_factory=list)
    messages: list[bytes] = field(default_factory=list)
    logs: list[list[int]] = field(default_factory=list)  # each seat's log (its current epoch)
    epochs: list[int] = field(default_factory=list)
    rest: dict[str, object] | None = None  # the table's state without its growing lists


def parse(data: bytes, where: str, host_key: bytes | None = None) -> Parsed:
    """Read a journal's bytes: the header (of ``host_key``'s journal, when given), then every
    whole frame, each checked against the digest chain and against what came before;
    ``JournalError`` names what is wrong."""
    if len(data) < HEADER_SIZE or not data.startswith(MAGIC):
        raise JournalError(
            f"{where} is not a briscola-lan table journal: move it away, or choose another "
            "--state-dir"
        )
    version = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 4], "big")
    if version not in READS:
        raise JournalError(
            f"{where} was written by another briscola-lan version (journal version {version}, "
            f"this one reads {' and '.join(map(str, READS))}): its table cannot be continued; "
            "start a new table (host --force)"
        )
    head = data[:HEADER_SIZE]
    if host_key is not None and head[-KEY_SIZE:] != host_key:
        raise JournalError(
            f"{where} belongs to another host identity (another identity key or user): only "
            "the host that wrote it can continue its table"
        )
    p = Parsed(
        host_key=head[-KEY_SIZE:],
        end=HEADER_SIZE,
        digest=hashlib.sha256(head).digest(),
        version=version,
    )
    pos = HEADER_SIZE
    while pos < len(data):
        if len(data) - pos < FRAME_HEAD:
            break  # a frame's head cut short
        length = int.from_bytes(data[pos : pos + 4], "big")
        check = int.from_bytes(data[pos + 4 : pos + 8], "big")
        if length ^ check != 0xFFFFFFFF or length > MAX_FRAME:
            if not data[pos:].strip(b"\0"):
                break  # zeros that a crash left where a frame was going
            raise _damaged(where, f"the length of the change at byte {pos} is damaged")
        if pos + FRAME_HEAD + length > len(data):
            break  # cut short: a crash while it was written
        payload = data[pos + FRAME_HEAD : pos + FRAME_HEAD + length]
        _, digest = frame(p.digest, payload)
        if digest != data[pos + 8 : pos + FRAME_HEAD]:
            raise JournalError(
                f"{where} was changed outside briscola-lan, or damaged on the disk (the change "
                f"at byte {pos} does not match its digest): its table cannot be continued "
                "safely; move it away to start a new one"
            )
        try:
            _apply(p, payload)
        except (ValueError, TypeError, IndexError) as exc:
            raise _damaged(where, f"the change at byte {pos}: {exc}") from exc
        pos += FRAME_HEAD + length
        p.end, p.digest = pos, digest
    p.torn = len(data) - p.end
    return p


def _damaged(where: str, why: str) -> JournalError:
    return JournalError(
        f"{where} is damaged ({why}): its table cannot be continued; move it away to start a "
        "new one"
    )


def _apply(p: Parsed, payload: bytes) -> None:
    """One frame's change, checked against what the journal held before it."""
    from briscola_lan.table.host_journal import apply_rest_changes
    from briscola_lan.wire.codec import CodecError, unpack_state

    try:
        obj = unpack_state(payload)
    except CodecError as exc:
        raise ValueError(f"not msgpack ({exc})") from exc
    if not (isinstance(obj, list) and len(obj) == 8):
        raise ValueError("not a change")
    tx, r0, records, m0, messages, logs, heads, rest = obj
    if tx != p.tx + 1 or r0 != len(p.records) or m0 != len(p.messages):
        raise ValueError("out of order")
    for r in records:
        if not (isinstance(r, list) and len(r) == 2 and all(isinstance(x, bytes) for x in r)):
            raise ValueError("a record is not [body, signature]")
        p.records.append((r[0], r[1]))
    if not all(isinstance(b, bytes) for b in messages):
        raise ValueError("a message is not bytes")
    p.messages.extend(messages)
    if not p.logs:  # the first change names every seat
        p.logs = [[] for _ in heads]
        p.epochs = [-1] * len(heads)
    for seat, epoch, start, places in logs:
        if epoch != p.epochs[seat]:
            if epoch != p.epochs[seat] + 1 or start != 0:
                raise ValueError(f"seat {seat}'s log skips an epoch")
            p.epochs[seat], p.logs[seat] = epoch, []
        if start != len(p.logs[seat]):
            raise ValueError(f"seat {seat}'s log has a gap")
        if not all(type(i) is int and 0 <= i < len(p.messages) for i in places):
            raise ValueError(f"seat {seat}'s log names a message the journal does not hold")
        p.logs[seat].extend(places)
    if len(heads) != len(p.logs) or any(
        [e, n] != [p.epochs[i], len(p.logs[i])] for i, (e, n) in enumerate(heads)
    ):
        raise ValueError("the seats' logs do not match their heads")
    if rest is not None:
        if not isinstance(rest, bytes):
            raise ValueError("the table's state is not bytes")
        try:
            state = unpack_state(rest)
        except CodecError as exc:
            raise ValueError(f"the table's state is not msgpack ({exc})") from exc
        if isinstance(state, dict):
            p.rest = state
        elif p.rest is None:
            raise ValueError("the first change's state is not whole")
        else:
            apply_rest_changes(p.rest, state)
    elif p.rest is None:
        raise ValueError("the first change has no state")
    p.tx = tx


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
    """One table's journal: opened (and locked) by ``open``, read by ``load``, written by
    ``save`` at every change, closed by ``close``."""

    def __init__(self, path: Path, lock: FileLock, host_key: bytes, sync: str) -> None:
        self.path = path
        self._lock = lock
        self._host_key = host_key
        self.sync = sync
        self._parsed: Parsed | None = None  # what the file held when opened, until ``load``
        self._table: object = None  # the table the cursor follows; another one starts over
        self._cursor: JournalCursor | None = None
        self._tx = 0
        self._end = 0  # where the next frame goes
        self._digest = b""
        self._cut = False  # a write failed: cut the file back to ``_end`` before the next
        self._fd: int | None = None
        self._closed = False
        self._sync_lock = threading.Lock()  # the flushing thread's and ``save``'s descriptor
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
        """Append what changed at ``table`` since the last save, before any message it causes
        leaves. A table other than the last one (the next match at the same place) starts a
        new journal. ``OSError`` when the disk refuses (nothing is lost: the next ``save``
        writes it all). ``encoded``: messages already encoded (``encode_message``), by ``id``,
        each with its object; their bytes are taken as they are.

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
        self._append(data)
        cursor.advance(ch)
        self._tx += 1
        self._digest = digest
        return ch.encoded()

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

    def _start_over(self, table: HostTable) -> None:
        """A new journal for a new table: its header and first frame written aside, flushed,
        then renamed over the old file (a crash leaves the old journal or the new one)."""
        from briscola_lan.table.host_journal import JournalCursor

        cursor = JournalCursor(len(table.seats))
        ch = cursor.changes(table)
        start = header(self._host_key)
        data, digest = frame(hashlib.sha256(start).digest(), payload(1, ch))
        files.write_private(self.path, start + data)
        fd = os.open(self.path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        with self._sync_lock:
            old, self._fd = self._fd, fd
            self._dirty = False
        if old is not None:
            os.close(old)
        self._end, self._digest, self._cut = len(start) + len(data), digest, False
        cursor.advance(ch)
        self._table, self._cursor, self._tx, self._parsed = table, cursor, 1, None

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
        """Flush and close the journal and unlock it."""
        if self._closed:
            return
        _syncer.forget(self)
        self.sync_now()
        self._closed = True
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


class _Syncer:
    """The thread that flushes the journals to the disk every ``SYNC_EVERY`` seconds, off the
    event loop (a flush takes milliseconds on a real disk). It runs while a journal has
    something to flush, and ends with the last one closed."""

    def __init__(self) -> None:
        self._journals: weakref.WeakSet[Journal] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def watch(self, journal: Journal) -> None:
        if journal in self._journals:
            return
        with self._lock:
            self._journals.add(journal)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="briscola-journal-sync", daemon=True
                )
                self._thread.start()

    def forget(self, journal: Journal) -> None:
        with self._lock:
            self._journals.discard(journal)
            if not self._journals:
                self._wake.set()  # the thread ends now rather than after its sleep

    def _run(self) -> None:
        while True:
            self._wake.wait(SYNC_EVERY)
            with self._lock:
                self._wake.clear()
                journals = list(self._journals)
                if not journals:
                    self._thread = None
                    return
            for journal in journals:
                journal.sync_now()


_syncer = _Syncer()


__all__ = [
    "SYNC_EVERY",
    "Journal",
    "JournalBusy",
    "JournalError",
    "journal_path",
    "parse",
    "read_summary",
    "remove_journal",
]
