"""The host's stop, bounded: a disk that never finishes a write cannot keep ``briscola-lan host``
from ending.

A stop saves what was played (the journal's last frames, the transcripts, the state file), and
a disk that hangs (a network mount gone, a dying drive) would hold that stop for ever. Once the
stop begins, ``StopGuard`` watches it from a thread of its own: after ``notice_after`` seconds it
says the host is still saving and that Ctrl-C again stops it without waiting; after ``limit``
seconds, or at that second Ctrl-C (or SIGTERM), it says what is kept and ends the process at
once. Nothing the players were sent is lost that way: the journal is written ahead (a change's
messages leave only once its frame is written, ``net/write_ahead.py``), and a file saved whole
is renamed into place only once written (``net/files.py``), so the files hold every change
that reached a player and ``--resume`` continues from them, as after a crash.

The guard is the command's (``net/host_cmd.run``): a host served inside another program (the
full-screen client, the tests) has none, and its stop waits as before.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType

STOP_WAIT = 30.0  # seconds a stop waits for the disk before it ends without it (--stop-wait)
NOTICE_AFTER = 2.0  # seconds before the console hears that the host is still saving
EXIT_UNSAVED = 1  # the exit status of a stop that did not wait for the disk


def _say(line: str) -> None:
    """``line`` on stderr if it takes it within a second (nobody may be reading it)."""
    data = (line + "\n").encode()
    try:
        _, ready, _ = select.select([], [2], [], 1.0)
        if ready:
            os.write(2, data)
    except (OSError, ValueError):
        pass


class StopGuard:
    """Ends the process if its stop, once begun (``begin``), is not over (``end``) within
    ``limit`` seconds (``None``: no limit), or at a second stop signal (``force``)."""

    def __init__(
        self,
        limit: float | None = STOP_WAIT,
        *,
        kept: str = "",
        notice_after: float = NOTICE_AFTER,
        say: Callable[[str], None] = _say,
        exit: Callable[[int], object] = os._exit,
        signals: tuple[int, ...] = (signal.SIGINT, signal.SIGTERM),
    ) -> None:
        if limit is not None and not limit > 0:
            raise ValueError(f"a stop's limit is more than 0 seconds, not {limit}")
        self.limit = limit
        self.kept = kept  # what the files keep, said when the stop ends without the disk
        self.notice_after = notice_after
        self._say = say
        self._exit = exit
        self._signals = signals  # the second stop signals, handled once the stop begins
        self._wake = threading.Condition()
        self._forced = False
        self._over = False
        self._thread: threading.Thread | None = None

    def begin(self) -> None:
        """The stop has begun: watch it, and let a second SIGINT or SIGTERM end it at once."""
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._watch, name="briscola-lan-stop", daemon=True)
        self._thread.start()
        if threading.current_thread() is threading.main_thread():
            for sig in self._signals:
                signal.signal(sig, self._signalled)

    def force(self) -> None:
        """End the stop now, without waiting for the disk."""
        with self._wake:
            self._forced = True
            self._wake.notify_all()

    def end(self) -> None:
        """The stop is over: nothing more to watch."""
        with self._wake:
            self._over = True
            self._wake.notify_all()
        if self._thread is not None:
            self._thread.join()

    def _signalled(self, signum: int, frame: FrameType | None) -> None:
        self.force()

    def _wait(self, until: float | None) -> bool:
        """Until ``until`` (a monotonic time; None: for ever), a force or the end; whether the
        stop is over."""
        with self._wake:
            while not (self._over or self._forced):
                left = None if until is None else until - time.monotonic()
                if left is not None and left <= 0:
                    break
                self._wake.wait(left)
            return self._over

    def _watch(self) -> None:
        start = time.monotonic()
        limit = None if self.limit is None else start + self.limit
        notice = start + self.notice_after
        if limit is None or notice < limit:
            if self._wait(notice):
                return
            if not self._forced:
                self._say(
                    "briscola-lan host: still saving the tables (Ctrl-C again to stop "
                    "without waiting for the disk)"
                )
        if self._wait(limit):
            return
        why = (
            "a second stop signal"
            if self._forced
            else f"the host's last writes have not finished after {self.limit:g} s"
        )
        kept = f" {self.kept}" if self.kept else ""
        self._say(f"briscola-lan host: {why}: stopping without waiting for the disk.{kept}")
        self._exit(EXIT_UNSAVED)


__all__ = ["EXIT_UNSAVED", "NOTICE_AFTER", "STOP_WAIT", "StopGuard"]
