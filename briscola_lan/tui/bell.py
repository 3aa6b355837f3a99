"""The terminal's bell for a move that falls to the player after a wait (``ClientConfig.bell``)."""

from __future__ import annotations


class MoveBell:
    """Rings (``check`` is True) when a move is due from the player after ``after`` seconds in
    which none was, once a move; never when ``on`` is False."""

    def __init__(self, after: float, on: bool = True) -> None:
        self.after = after
        self.on = on
        self._idle_since: float | None = None  # since when no move is due (None: one is now)

    def reset(self, now: float) -> None:
        """A table opened: nothing has been due from the player since ``now``."""
        self._idle_since = now

    def check(self, due: bool, now: float) -> bool:
        """Whether a move is due at ``now``; True when the bell rings for it."""
        if not due:
            if self._idle_since is None:
                self._idle_since = now
            return False
        since, self._idle_since = self._idle_since, None
        return self.on and since is not None and now - since >= self.after


__all__ = ["MoveBell"]
