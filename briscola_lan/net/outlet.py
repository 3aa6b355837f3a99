"""Lines to a stream nobody may be reading: the host's console never makes the host wait.

``Outlet.write`` never blocks. A thread of its own writes the queued lines to the stream's file
descriptor (blocking there, if it must, while the host plays on); when the queue is full a line
is left out and counted, and the next line that fits is preceded by one that says how many were
left out. A stream whose reader went away (``| head``) takes nothing more, silently. A stream
without a file descriptor (a test's captured ``sys.stdout``) is written to at once.
"""

from __future__ import annotations

import contextlib
import io
import os
import queue
import threading
from typing import TextIO

CAPACITY = 1000  # lines queued before lines are left out


class Outlet:
    """A bounded, non-blocking line writer for one stream (stdout or stderr)."""

    def __init__(self, stream: TextIO, capacity: int = CAPACITY) -> None:
        self.stream = stream
        self.left_out = 0  # lines left out since the last one that was queued
        self.lost = 0  # all lines left out, for the record
        self._queue: queue.Queue[str | None] = queue.Queue(maxsize=capacity)
        self._lock = threading.Lock()
        self._broken = False
        try:
            stream.flush()  # what was printed before comes first
            self._fd: int | None = stream.fileno()
        except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
            self._fd = None
        self._thread: threading.Thread | None = None
        if self._fd is not None:
            self._thread = threading.Thread(target=self._run, name="outlet", daemon=True)
            self._thread.start()

    def write(self, line: str) -> None:
        """Queue one line (its newline added); never waits."""
        if self._thread is None:
            with contextlib.suppress(OSError, ValueError):
                print(line, file=self.stream, flush=True)
            return
        with self._lock:
            if self.left_out:
                note = f"({self.left_out} lines left out: this output is not read fast enough)"
                if not self._put(note):
                    self._leave_out()
                    return
                self.left_out = 0
            if not self._put(line):
                self._leave_out()

    def close(self, timeout: float = 1.0) -> None:
        """Write what is queued, waiting at most ``timeout`` seconds for a slow reader."""
        if self._thread is None:
            return
        with contextlib.suppress(queue.Full):
            self._queue.put(None, timeout=timeout)
        self._thread.join(timeout)

    def _put(self, line: str) -> bool:
        try:
            self._queue.put_nowait(line)
        except queue.Full:
            return False
        return True

    def _leave_out(self) -> None:
        self.left_out += 1
        self.lost += 1

    def _run(self) -> None:
        assert self._fd is not None
        while True:
            line = self._queue.get()
            if line is None:
                return
            if self._broken:
                continue
            data = (line + "\n").encode("utf-8", "replace")
            try:
                while data:
                    data = data[os.write(self._fd, data) :]
            except OSError:  # the reader went away: the host plays on without its console
                self._broken = True


__all__ = ["CAPACITY", "Outlet"]
