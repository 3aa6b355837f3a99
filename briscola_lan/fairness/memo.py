"""The fairness code's costly pure results, kept per process so that it computes each once.

One process often asks the same question twice: a party re-checks its own pass at a hand's end,
and where several parties share a process (a host table in the terminal client beside the
player's own checker, a practice table, the tests) each checks what the others check. A scalar
product, a point's or a public key's check and a signature's verdict are functions of exactly
their input bytes, so the last ones are kept and given again for the same bytes: nothing is
checked less, since the same bytes always get the same answer, and a refusal is raised again
each time (an exception is never kept; a key's check keeps the reason it raises).
``keep_results(False)`` computes everything afresh: a benchmark that plays several machines in
one process, or repeats the same work, measures each machine's own.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache, wraps
from typing import Any, TypeVar

KEPT = 4096  # results a kind (about 0.25 KB each): the products of about two 4-player blind hands

F = TypeVar("F", bound=Callable[..., Any])

_kept: list[Any] = []  # the lru_cache of each remembered function
_on = True


def remembered(kept: int = KEPT) -> Callable[[F], F]:
    """A function's last ``kept`` results, kept by argument (they must be hashable)."""

    def remember(fn: F) -> F:
        cached = lru_cache(maxsize=kept)(fn)
        _kept.append(cached)

        @wraps(fn)
        def call(*args: Any) -> Any:
            return cached(*args) if _on else fn(*args)

        call.cache_info = cached.cache_info  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return remember


def keep_results(on: bool) -> None:
    """Keep results (the default), or compute every one afresh; either way forget those kept."""
    global _on
    _on = on
    for cached in _kept:
        cached.cache_clear()
