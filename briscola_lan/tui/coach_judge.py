"""The review's worker: each of my plays judged in another process as soon as it is made, so that
the review of a hand is ready (or nearly) when the hand ends, and the judging runs on another
core than the screen and the table's AI players.

The worker is one process, started at the first play judged and kept for the session (at the
client's own priority: a lower one starves it on a busy machine, and the player waits for its
work); ``close`` stops it at once (the plays not judged yet are dropped, the one being judged
stopped).
If the worker cannot be started or dies, a play is judged in a thread of the client instead, as
it would be without the worker: the review is the same either way (``coach.review_play`` is
deterministic), only where it runs differs.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from briscola_lan.rules import Card, SeatView

T = TypeVar("T")
# How a play is judged (``coach.review_play``): a module-level function, so that the worker can
# be sent it by name.
Judging = Callable[[SeatView, Card], T]


class Judge:
    """Judges plays in one worker process, in the order they are given."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._broken = False

    def submit(self, fn: Judging[T], view: SeatView, card: Card) -> Future[T] | None:
        """Start ``fn(view, card)`` (judging ``card`` played from ``view``) in the worker; None
        when there is no worker (then ``judge`` does it in a thread)."""
        if self._broken:
            return None
        try:
            if self._pool is None:
                # "spawn": a fresh interpreter, never a copy of the client's threads and sockets
                ctx = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(1, mp_context=ctx)
            return self._pool.submit(fn, view, card)
        except (BrokenProcessPool, RuntimeError, OSError):
            self._broken = True
            return None

    async def judge(
        self, fn: Judging[T], view: SeatView, card: Card, started: Future[T] | None
    ) -> T:
        """``fn(view, card)``: the worker's (``started``, from ``submit``), or computed in a
        thread if there is none or the worker failed."""
        if started is not None:
            try:
                return await asyncio.wrap_future(started)
            except asyncio.CancelledError:
                # the worker was stopped (``close``) before this play: judged here; the task's
                # own cancellation goes on
                task = asyncio.current_task()
                if not started.cancelled() or (task is not None and task.cancelling()):
                    raise
            except (BrokenProcessPool, OSError, EOFError):
                self._broken = True
        return await asyncio.to_thread(fn, view, card)

    def close(self) -> None:
        """Stop the worker, at once: plays not judged yet are dropped, and a play being judged
        is stopped (otherwise the client would not exit before that play's judging ends: the
        interpreter waits at exit for a worker's running task)."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # No public way to stop a busy worker before Python 3.14 (``terminate_workers``): its
        # processes, from the pool's own table.
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            if process.is_alive():
                process.terminate()


JUDGE = Judge()  # one worker for the client's session, whatever the table
