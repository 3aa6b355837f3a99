"""The host's write-ahead rule (``net/server.py``): a table's change is staged in its journal on
the event loop, written by the journal's writer thread (``net/journal_threads.py``), and the
messages it causes wait, in order, until that frame is written; the other tables play on.

A table's messages leave in the order the table made them: while one waits for a frame, every
later one (a relay, a receipt, an error, a notice) waits behind it, even one whose change needs
no frame. Work can wait there too (``after_sent``): what a card leaves owed (its receipt, the
draws) is done once the card's relay has left, so that the relay is not held behind it. A
write the disk refuses releases what waited for it (the game goes on in memory, as when the
journal was written on the loop): its frames stay queued, and the next change, or ``retry``,
writes everything since the last frame that was written.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from briscola_lan.net.hosted import HostedTable, core_of
from briscola_lan.net.journal_threads import WRITER_THREADS, JournalWriter, Writable

Batches = dict[int, list[bytes]]  # frames by connection id
log = logging.getLogger(__name__)

SendNow = Callable[[HostedTable, Batches, list[int]], None]  # the frames, then these closed
Saving = Callable[[HostedTable, Path, OSError | None], None]  # a refusal, or saved again


class WriteAhead:
    """The tables' journals written off the event loop, and what their changes send held
    until their frames are written."""

    def __init__(self, send_now: SendNow, saving: Saving, threads: int = WRITER_THREADS) -> None:
        self._send_now = send_now
        self._saving = saving
        self.threads = threads  # 0: written on the event loop, before ``save`` returns
        self._writer: JournalWriter | None = None  # made on the first write

    def save(self, hosted: HostedTable) -> dict[int, bytes]:
        """Stage the table's change in its journal and have the writer write it; the messages
        it encoded doing so (``Journal.stage``). A refused write does not stop the game:
        ``saving`` hears of the first refusal, and of the first success after it."""
        journal = hosted.journal
        if journal is None:
            return {}
        bodies = journal.stage(core_of(hosted.table), hosted.unwritten)
        hosted.unwritten.clear()
        if journal.pending:
            writer = self._writer
            if writer is None:
                loop = asyncio.get_running_loop() if self.threads else None
                writer = self._writer = JournalWriter(loop, self._written, self.threads)
            writer.submit(journal, hosted)
        return bodies

    def send(self, hosted: HostedTable, batches: Batches, closing: list[int]) -> None:
        """``send_now`` these frames now or, while a frame of the table's journal is not
        written yet, once it is: after what waits already."""
        journal = hosted.journal
        if journal is not None and (hosted.held or journal.resolved < journal.staged):
            hosted.held.append((journal.staged, batches, closing, None))
            return
        self._send_now(hosted, batches, closing)

    def after_sent(self, hosted: HostedTable, then: Callable[[], None]) -> bool:
        """Have ``then`` run on the loop as soon as what the table's messages wait for now has
        been sent (handed to the transports), before anything that waits after it; False (and
        ``then`` is not kept) when nothing waits."""
        if not hosted.held:
            return False
        hosted.held.append((hosted.held[-1][0], {}, [], then))
        return True

    def _written(self, hosted: HostedTable, journal: Writable, exc: OSError | None) -> None:
        """A write of ``hosted``'s journal has returned (on the loop): what waited for its
        frames leaves."""
        if exc is not None:
            if not hosted.dirty:
                hosted.dirty = True
                self._saving(hosted, journal.path, exc)
        elif hosted.dirty and not journal.pending:
            hosted.dirty = False
            self._saving(hosted, journal.path, None)
        held = hosted.held
        done = journal.resolved
        while held and held[0][0] <= done:
            _, batches, closing, then = held.popleft()
            if then is None:
                self._send_now(hosted, batches, closing)
                continue
            try:  # what waited for these frames to leave (``after_sent``); it may send more
                then()
            except Exception:
                log.exception("table %s: the work after a message failed", hosted.key)

    async def drain(self) -> None:
        """Until every frame staged is written (as far as the disk takes it) and what waited for
        them has been sent."""
        if self._writer is not None:
            await self._writer.drain()

    async def close(self) -> None:
        """``drain``, then end the writer's threads: from now on a change is written before
        ``save`` returns (the host stops; what it saves last is written at once)."""
        await self.drain()
        if self._writer is not None:
            self._writer.close()
        self._writer = JournalWriter(None, self._written, threads=0)

    def retry(self, tables: Any) -> None:
        """Write again what each of ``tables`` could not write."""
        for hosted in tables:
            if hosted.dirty:
                self.save(hosted)


__all__ = ["Batches", "WriteAhead"]
