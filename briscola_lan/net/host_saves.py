"""The host's transcripts on disk while it serves: saved as they grow (complete hands while a
match runs, everything once it is over) in a worker thread, so that a slow disk never holds up
the tables; a full or read-only disk told once to the console and the players
(``SaveReporter``) and retried until it works again."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

from briscola_lan.net.files import describe_os_error
from briscola_lan.net.games import GameSaver, save_each
from briscola_lan.net.hosted import HostedTable
from briscola_lan.net.next_match import is_over
from briscola_lan.net.server import HostServer

SAVE_EVERY = 0.25  # seconds between looks at the host's transcript (saved when it grew)
RETRY_SAVES = 2.0  # seconds between tries to save what a full or read-only disk refused


class SaveReporter:
    """Tells the host's console (one line) and the players (one ``notice``) when saving stops
    working (a full or read-only disk), whichever file it is, and again once it all works."""

    def __init__(self, server: HostServer, warn: Callable[[str], None] | None = None) -> None:
        self.server = server
        self.warn = warn or _stderr  # the console's error stream
        self.failing: dict[object, Path] = {}  # what cannot be saved now, and where

    def update(self, what: object, path: Path, exc: OSError | None) -> None:
        """``what`` (a state file, a transcript) failed with ``exc``, or was saved (None)."""
        from briscola_lan.wire.messages import NoticeCode

        was_failing = bool(self.failing)
        if exc is not None:
            self.failing[what] = path
            if not was_failing:
                text = f"cannot save the game: {describe_os_error(exc)} ({path})"
                self.warn(f"briscola-lan host: {text}; play goes on, saving is tried again "
                          f"every {RETRY_SAVES:g} s")  # fmt: skip
                self.server.notify(NoticeCode.NOT_SAVING, f"{text}; play goes on")
            return
        self.failing.pop(what, None)
        if was_failing and not self.failing:
            self.warn(f"briscola-lan host: the game is saved again ({path})")
            self.server.notify(NoticeCode.SAVING, "the host saves the game again")

    def state_saving(self, hosted: HostedTable, path: Path, exc: OSError | None) -> None:
        self.update(("state", hosted.key), path, exc)

    def saver(self, saver: GameSaver) -> Callable[[Path, OSError | None], None]:
        return lambda path, exc: self.update(("games", id(saver)), path, exc)


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def host_saver(
    table: Any,
    directory: Path | None,
    reporter: SaveReporter | None = None,
    warn: Callable[[str], None] = _stderr,
) -> GameSaver:
    """The host's transcript (every record) saved as ``<game>-host.briscola.json``."""
    saver = GameSaver(
        directory,
        "host",
        lambda: table.records,
        lambda: table.game_id,
        on_error=lambda text: warn(f"briscola-lan host: {text}"),
    )
    if reporter is not None:
        saver.on_saving = reporter.saver(saver)
    return saver


def save_all(savers: Sequence[tuple[Any, GameSaver]], *, whole: bool = False) -> None:
    """Complete hands while a match runs, the whole transcript once it is over (or ``whole``:
    the host stops, and keeps the hand being played too), written before it returns."""
    for table, saver in savers:
        saver.save(whole=whole or is_over(table))


async def save_loop(
    server: HostServer, savers: Sequence[tuple[Any, GameSaver]], executor: Executor | None = None
) -> None:
    """Save the transcripts as they grow, written in a worker thread (``executor``'s) while the
    tables play on; retry what a full disk refused every few seconds."""
    loop = asyncio.get_running_loop()
    retry_at = 0.0
    while True:
        await asyncio.sleep(SAVE_EVERY)
        retry = loop.time() >= retry_at
        if retry:
            retry_at = loop.time() + RETRY_SAVES
            server.retry_saves()
        # A copy of the list: a table opened for a new match replaces its entry meanwhile.
        asked = [(s, is_over(t)) for t, s in list(savers) if retry or not s.failing]
        await save_each(asked, executor)
