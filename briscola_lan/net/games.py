"""Saving match transcripts (``*.briscola.json``) in the games directory, for every front end.

The host command, the line client, the bot and the full-screen client all save through
``GameSaver`` so that ``briscola-lan verify`` finds the same files in the same place:
``$BRISCOLA_LAN_GAMES``, else ``$XDG_DATA_HOME/briscola-lan/games`` (or a ``--games DIR``).
Files are written by ``net.files.write_private`` (mode 0600, atomic).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path

from briscola_lan.fairness.context import kind_of
from briscola_lan.fairness.statements import Abort, Ack, StatementError, decode
from briscola_lan.fairness.transcript import SUFFIX, Record, dumps
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
    "save_game",
    "save_transcripts",
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
    if make_dir:
        files.private_dir(directory)
    path = game_path(directory, game_id, label)
    files.write_private(path, dumps(kept))
    return path


def save_transcripts(
    directory: Path, game_id: str | bytes, transcripts: Sequence[tuple[str, Sequence[Record]]]
) -> list[Path]:
    """Write each ``(label, records)`` whole (``simulate --save``); returns the files."""
    saved = [save_game(directory, game_id, label, recs, whole=True) for label, recs in transcripts]
    return [p for p in saved if p is not None]


class GameSaver:
    """Saves one party's transcript whenever it grows: complete hands during the match, the
    whole record at the end (a finished match, or evidence of a table that went away)."""

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
        self._made: Path | None = None  # the folder a save went to (made private then)

    def _cut(self, records: Sequence[Record]) -> int:
        """``complete_cut`` decoding only the records added since the last look (the saver is
        called often while a match runs: rescanning the whole transcript each time is waste)."""
        seen_list, seen, cut = self._scan
        if records is not seen_list or len(records) < seen:
            seen, cut = 0, 0
        cut = complete_cut(records, seen, cut)
        self._scan = (records, len(records), cut)
        return cut

    def save(self, *, whole: bool = False) -> Path | None:
        """Save now if anything changed; returns the file (None when nothing to save)."""
        records = self.records()
        game_id = self.game_id()
        kept = len(records) if whole else self._cut(records)
        key = (kept, whole, game_id)
        if key == self._saved:
            return self.path
        directory = self.directory or games_dir()
        try:
            path = save_game(
                directory,
                game_id,
                self.label,
                records[:kept],
                whole=True,
                make_dir=self._made != directory,  # the folder is checked once, not every hand
            )
        except OSError as exc:
            if not self.failing:
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
        self._saved, self._made = key, directory
        if path is not None:
            self.path = path
        if self.failing:
            self.failing = False
            if self.on_saving is not None:
                self.on_saving(path or directory, None)
            elif self.on_error is not None:
                self.on_error(f"the game is saved again ({path or directory})")
        return path
