"""The full-screen client's transcripts at a network table (its own, and the host's of a table
it hosts), written by a thread of their own in the order asked: the screen never waits for the
disk, and closing the table waits for the last saves only so long."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from briscola_lan.net.files import describe_os_error
from briscola_lan.net.games import GameSaver, save_each
from briscola_lan.tui.i18n import _

SAVE_WAIT = 10.0  # seconds closing a table waits for its transcripts to be written


class TranscriptSaves:
    """One ``GameSaver`` per transcript (by label), written by one thread; failures, and saving
    working again, told in the log."""

    def __init__(
        self,
        games: Path | None,
        records: Callable[[str], Sequence[Any]],
        game_id: Callable[[], str | bytes],
        log: Callable[[str], None],
    ) -> None:
        self.games = games  # the saved-games folder (None: the default one)
        self._records = records  # a label's records as they are now
        self._game_id = game_id
        self._log = log
        self._savers: dict[str, GameSaver] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._thread: ThreadPoolExecutor | None = None

    def save(self, labels: Sequence[str], whole: bool) -> None:
        """Save these transcripts (``whole``: everything, else complete hands only): by the
        thread, or here where no event loop runs (a session driven by a replay)."""
        asked = [(self._saver(label), whole) for label in labels]
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            for saver, entire in asked:
                saver.save(whole=entire)
            return
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="briscola-lan-saves")
        task = loop.create_task(save_each(asked, self._thread))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def run(self, job: Callable[[], object], failed: Callable[[OSError], None]) -> None:
        """``job`` (another file kept beside the transcripts: a hint's record) by the same
        thread, after the saves asked before it; ``failed`` hears, on the event loop, of the
        ``OSError`` it raised. Here where no event loop runs."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            try:
                job()
            except OSError as exc:
                failed(exc)
            return
        if self._thread is None:
            self._thread = ThreadPoolExecutor(1, thread_name_prefix="briscola-lan-saves")
        thread = self._thread

        async def kept() -> None:
            try:
                await loop.run_in_executor(thread, job)
            except OSError as exc:
                failed(exc)

        task = loop.create_task(kept())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _saver(self, label: str) -> GameSaver:
        saver = self._savers.get(label)
        if saver is None:
            saver = self._savers[label] = GameSaver(
                self.games,
                label,
                lambda: self._records(label),
                self._game_id,
                on_saving=self._saving,
            )
        return saver

    def _saving(self, where: Path, exc: OSError | None) -> None:
        """A save failed (told once), or works again after failing."""
        if exc is not None:
            self._log(
                _("! could not save the game in {dir}: {error}").format(
                    dir=where, error=describe_os_error(exc)
                )
            )
        else:
            self._log(_("the game is saved again ({path})").format(path=where))

    async def close(self, limit: float | None = None) -> None:
        """Until the saves asked so far are written, ``limit`` seconds at most (default
        ``SAVE_WAIT``; a disk that stopped answering is said in the log, and the thread left to
        it), then let the thread go."""
        limit = SAVE_WAIT if limit is None else limit
        pending = list(self._tasks)
        if pending:
            _done, late = await asyncio.wait(pending, timeout=limit)
            if late:
                self._log(
                    _("! the disk has not finished saving the game after {s} s").format(s=limit)
                )
        if self._thread is not None:
            self._thread.shutdown(wait=False)
            self._thread = None


__all__ = ["SAVE_WAIT", "TranscriptSaves"]
