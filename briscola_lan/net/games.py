"""Saving match transcripts (``*.briscola.json``) in the games directory, for every front end.

The host command, the line client, the bot and the full-screen client all save through
``GameSaver`` so that ``briscola-lan verify`` finds the same files in the same place:
``$BRISCOLA_LAN_GAMES``, else ``$XDG_DATA_HOME/briscola-lan/games`` (or a ``--games DIR``).
Files are written by ``net.files.write_private`` (mode 0600, atomic, flushed to the disk). The
host writes them in a worker thread (``GameSaver.save_async``, ``save_each``) so that a slow disk
never holds up its event loop; a saver writes what it was asked later over what it was asked
earlier, never the other way round, however the writes interleave.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

from briscola_lan.fairness.context import kind_of
from briscola_lan.fairness.statements import Abort, Ack, StatementError, decode
from briscola_lan.fairness.transcript import SUFFIX, Record, dumps, dumps_lines, record_line
from briscola_lan.net import files
from briscola_lan.net.files import data_dir, describe_os_error, games_dir

__all__ = [
    "GameSaver",
    "GamesDirError",
    "check_writable",
    "complete_cut",
    "complete_hands",
    "data_dir",
    "game_path",
    "games_dir",
    "safe_name",
    "save_each",
    "save_game",
    "save_transcripts",
    "write_transcript",
]


class GamesDirError(Exception):
    """The games directory cannot be created or written."""


def check_writable(directory: Path, what: str = "--games", *, tighten: bool | None = None) -> Path:
    """Create ``directory`` (mode 0700) if needed and make sure files can be written there;
    ``tighten`` as for ``net.files.private_dir``."""
    try:
        files.check_writable(directory, tighten=tighten)
    except OSError as exc:
        reason = describe_os_error(exc)
        raise GamesDirError(f"{what}: cannot write in {directory}: {reason}") from exc
    return directory


_CUTS = frozenset({Ack.KIND, Abort.KIND})


def complete_hands(records: Sequence[Record]) -> list[Record]:
    """The transcript up to the last acknowledgement or abort (no hand left half played)."""
    return list(records[: complete_cut(records)])


def complete_cut(records: Sequence[Record], start: int = 0, cut: int = 0) -> int:
    """How many records make complete hands, looking only at ``records[start:]`` (``cut`` is
    the answer for ``records[:start]``)."""
    for i in range(start, len(records)):
        body = records[i][0]
        if kind_of(body) not in _CUTS:  # the tag alone rules most records out
            continue
        with contextlib.suppress(StatementError):
            if isinstance(decode(body), (Ack, Abort)):
                cut = i + 1
    return cut


def safe_name(name: str) -> str:
    """A player or table name made safe for a file name."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name)[:24] or "player"


def game_path(directory: Path, game_id: str | bytes, label: str) -> Path:
    """``DIR/<first 12 hex of the game id>-<label>.briscola.json``."""
    gid = game_id.hex() if isinstance(game_id, bytes) else game_id
    return directory / f"{gid[:12]}-{safe_name(label)}{SUFFIX}"


def save_game(
    directory: Path,
    game_id: str | bytes,
    label: str,
    records: Sequence[Record],
    *,
    whole: bool,
    make_dir: bool = True,
) -> Path | None:
    """Write one transcript; ``whole=False`` keeps only complete hands. Raises OSError.

    ``make_dir=False``: the folder was made private by an earlier save (a missing one is still
    made by ``files.write_private``)."""
    if not records or not game_id:
        return None
    kept = list(records) if whole else complete_hands(records)
    if not kept:
        return None
    return write_transcript(directory, game_id, label, dumps(kept), make_dir=make_dir)


def write_transcript(
    directory: Path, game_id: str | bytes, label: str, data: bytes, *, make_dir: bool = True
) -> Path:
    """Write a transcript file's bytes (``fairness.transcript.dumps``) where ``save_game`` does.
    Raises OSError."""
    if make_dir:
        files.private_dir(directory)
    path = game_path(directory, game_id, label)
    files.write_private(path, data)
    return path


def save_transcripts(
    directory: Path, game_id: str | bytes, transcripts: Sequence[tuple[str, Sequence[Record]]]
) -> list[Path]:
    """Write each ``(label, records)`` whole (``simulate --save``); returns the files."""
    saved = [save_game(directory, game_id, label, recs, whole=True) for label, recs in transcripts]
    return [p for p in saved if p is not None]


@dataclass(frozen=True)
class PendingSave:
    """What one save writes, taken from the transcript when it was asked (``GameSaver.prepare``):
    a copy of the records, so that the writing can happen in another thread while the match
    goes on."""

    order: int  # the saver's count of saves asked: a later one is written over an earlier one
    key: tuple[int, bool, str | bytes]  # (records kept, whole, game id): what was saved
    directory: Path
    game_id: str | bytes
    lines: list[bytes]  # each record's line of the file (``fairness.transcript.record_line``)
    make_dir: bool


# What ``GameSaver.write`` gives for a save a later one was written over (nothing written).
_OVERTAKEN = Path()


class GameSaver:
    """Saves one party's transcript whenever it grows: complete hands during the match, the
    whole record at the end (a finished match, or evidence of a table that went away).

    ``save`` writes at once; ``prepare``, ``write`` and ``finish`` are its three steps, so that
    the writing (``write``: the only step that touches the disk, safe in any thread) can leave
    the event loop (``save_async``, ``save_each``) while the other two stay on it."""

    def __init__(
        self,
        directory: Path | None,
        label: str,
        records: Callable[[], Sequence[Record]],
        game_id: Callable[[], str | bytes],
        *,
        on_error: Callable[[str], None] | None = None,
        on_saving: Callable[[Path, OSError | None], None] | None = None,
    ) -> None:
        self.directory = directory
        self.label = label
        self.records = records
        self.game_id = game_id
        # Told once when saving fails (a full disk...) and once when it works again: as a line
        # of text (on_error), or as (file, the OSError or None) (on_saving, used instead).
        self.on_error = on_error
        self.on_saving = on_saving
        self.path: Path | None = None
        self._saved: tuple[int, bool, str | bytes] | None = None
        self.failing = False  # the last save failed: the next call retries
        self._scan: tuple[object, int, int] = (None, 0, 0)  # (list, records looked at, cut)
        self._lines: tuple[object, list[bytes]] = (None, [])  # (list, its first records' lines)
        self._made: Path | None = None  # the folder a save went to (made private then)
        self._asked = 0  # saves prepared
        self._finished = 0  # the latest save whose outcome was taken in (``finish``)
        self._written = 0  # the latest save written to the disk (under ``_lock``)
        self._lock = threading.Lock()  # one write at a time, whichever thread writes

    def _cut(self, records: Sequence[Record]) -> int:
        """``complete_cut`` decoding only the records added since the last look (the saver is
        called often while a match runs: rescanning the whole transcript each time is waste)."""
        seen_list, seen, cut = self._scan
        if records is not seen_list or len(records) < seen:
            seen, cut = 0, 0
        cut = complete_cut(records, seen, cut)
        self._scan = (records, len(records), cut)
        return cut

    def _encoded(self, records: Sequence[Record], kept: int) -> list[bytes]:
        """The lines of ``records[:kept]``, encoding only the records not encoded before (a
        transcript only grows: a save at each hand's end would otherwise encode the whole match
        again)."""
        seen_list, lines = self._lines
        if records is not seen_list or len(records) < len(lines):
            lines = []
            self._lines = (records, lines)
        lines.extend(record_line(r) for r in records[len(lines) : kept])
        return lines[:kept]

    def prepare(self, *, whole: bool = False) -> PendingSave | None:
        """What to write now, or None when nothing changed since the last save."""
        records = self.records()
        game_id = self.game_id()
        kept = len(records) if whole else self._cut(records)
        key = (kept, whole, game_id)
        if key == self._saved:
            return None
        self._asked += 1
        directory = self.directory or games_dir()
        return PendingSave(
            self._asked,
            key,
            directory,
            game_id,
            self._encoded(records, kept),
            self._made != directory,  # the folder is checked once, not every hand
        )

    def write(self, pending: PendingSave) -> Path | None:
        """Write ``pending`` (any thread; raises OSError). A save asked later that was written
        already wins: then nothing is written and the result is ``_OVERTAKEN``."""
        with self._lock:
            if pending.order <= self._written:
                return _OVERTAKEN
            path = None
            if pending.lines and pending.game_id:
                path = write_transcript(
                    pending.directory,
                    pending.game_id,
                    self.label,
                    dumps_lines(pending.lines),
                    make_dir=pending.make_dir,
                )
            self._written = pending.order
            return path

    def finish(
        self, pending: PendingSave, path: Path | None, exc: OSError | None = None
    ) -> Path | None:
        """Take in how ``pending``'s write went (on the thread that prepared it): the file, or
        the OSError, told once when saving starts failing and once when it works again. The
        outcome of a save asked before the last one taken in is dropped."""
        if pending.order <= self._finished or path is _OVERTAKEN:
            return self.path
        self._finished = pending.order
        if exc is not None:
            if not self.failing:
                directory, game_id = pending.directory, pending.game_id
                where = game_path(directory, game_id, self.label) if game_id else directory
                if self.on_saving is not None:
                    self.on_saving(where, exc)
                elif self.on_error is not None:
                    self.on_error(
                        f"cannot save the game: {describe_os_error(exc)} ({where}); "
                        "play goes on and saving is tried again"
                    )
            self.failing = True
            return None
        self._saved, self._made = pending.key, pending.directory
        if path is not None:
            self.path = path
        if self.failing:
            self.failing = False
            if self.on_saving is not None:
                self.on_saving(path or pending.directory, None)
            elif self.on_error is not None:
                self.on_error(f"the game is saved again ({path or pending.directory})")
        return path

    def _outcome(self, pending: PendingSave) -> tuple[Path | None, OSError | None]:
        try:
            return self.write(pending), None
        except OSError as exc:
            return None, exc

    def save(self, *, whole: bool = False) -> Path | None:
        """Save now if anything changed; returns the file (None when nothing to save)."""
        pending = self.prepare(whole=whole)
        if pending is None:
            return self.path
        return self.finish(pending, *self._outcome(pending))

    async def save_async(
        self, *, whole: bool = False, executor: Executor | None = None
    ) -> Path | None:
        """``save`` with the writing in a worker thread (``executor``'s, else the loop's
        default): the event loop goes on meanwhile."""
        pending = self.prepare(whole=whole)
        if pending is None:
            return self.path
        loop = asyncio.get_running_loop()
        outcome = await loop.run_in_executor(executor, self._outcome, pending)
        return self.finish(pending, *outcome)


async def save_each(
    asked: Sequence[tuple[GameSaver, bool]], executor: Executor | None = None
) -> None:
    """Save each ``(saver, whole)`` that changed, the writing all in one worker thread
    (``executor``'s, else the loop's default; one hop for the lot): the event loop goes on
    meanwhile."""
    pending = [(s, p) for s, whole in asked if (p := s.prepare(whole=whole)) is not None]
    if not pending:
        return
    loop = asyncio.get_running_loop()
    outcomes = await loop.run_in_executor(executor, lambda: [s._outcome(p) for s, p in pending])
    for (saver, p), outcome in zip(pending, outcomes, strict=True):
        saver.finish(p, *outcome)
