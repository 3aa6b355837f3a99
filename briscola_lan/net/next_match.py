"""The next match at a hosted table: what it is (``open_next_match``: a fresh table made as the
finished one was, served in its place) and, for ``briscola-lan host``, when it opens (once the
finished match's players have left it, ``reopen_loop``) and what a newcomer sees meanwhile
(``NextMatchTable``). A table a client hosts itself opens it when its player asks (a rematch).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from briscola_lan.net.hosted import TableWrapper
from briscola_lan.net.server import HostServer
from briscola_lan.wire.messages import Hello

if TYPE_CHECKING:
    from briscola_lan.net.games import GameSaver
    from briscola_lan.net.serving import ServedTable

REOPEN_AFTER = 2.0  # seconds a finished table stays empty before it opens for a new match
REOPEN_CHECK = 0.5


def open_next_match(server: HostServer, served: ServedTable) -> Any:
    """Serve the next match at ``served``'s table in place of the finished one: a table made
    from the same spec, settings and host key (the same name, port, options and AI players), a
    new game (its own id, seeds and transcript). Connections still open are closed: their
    clients connect again, to the new match. Returns the new table."""
    assert served.hosted is not None, "a table is served before its next match"
    table = served.build()
    server.replace_table(served.hosted, table)
    return table


def is_over(table: Any) -> bool:
    return str(getattr(table, "phase", "")) == "over"


@dataclass
class Reopener:
    """What it takes to open a table again: the served table, its saver's index."""

    served: ServedTable
    saver: int
    empty_since: float | None = None
    after: float = REOPEN_AFTER  # seconds it stays finished and empty (host --reopen-after)

    @property
    def hosted(self) -> Any:
        return self.served.hosted


def players_connected(table: Any) -> bool:
    """Whether a seated player of the table's match is connected (visitors do not count)."""
    return any(getattr(s, "conn", None) is not None for s in getattr(table, "seats", ()))


def due_for_reopening(r: Reopener, now: float) -> bool:
    """A finished match none of whose players has been connected for ``r.after`` seconds,
    or at once when none is and someone waits for the next match (``NextMatchTable``)."""
    table = r.hosted.table
    if not is_over(table) or players_connected(table):
        r.empty_since = None
        return False
    if getattr(table, "waiting", None):
        return True
    if r.empty_since is None:
        r.empty_since = now
    return now - r.empty_since >= r.after


class NextMatchTable(TableWrapper):
    """A ``HostTable`` served by a host that opens a finished table for a new match.

    While the match is over, a ``hello`` that does not resume a seat of it is held, not answered:
    the newcomer came for the next match, not to be shown the finished one's taken seats (and
    told "the table is full"). Its connection does not keep the table from reopening; when the
    table reopens it is closed and the client connects again, to the new match. Everything
    else goes to the table as is."""

    def __init__(self, table: Any) -> None:
        super().__init__(table)
        self.waiting: set[int] = set()  # connections whose hello waits for the next match

    def receive(self, conn: int, message: Any, **settle: bool) -> list[Any]:
        if type(message) is Hello and is_over(self.table) and not self._resumes(message):
            self.waiting.add(conn)
            return []
        return list(self.table.receive(conn, message, **settle))

    def _resumes(self, hello: Any) -> bool:
        token = hello.resume_token
        return token is not None and any(
            s.token is not None and secrets.compare_digest(s.token, token) for s in self.table.seats
        )

    def disconnect(self, conn: int) -> list[Any]:
        self.waiting.discard(conn)
        return list(self.table.disconnect(conn))


async def reopen_loop(
    server: HostServer,
    reopeners: Sequence[Reopener],
    savers: list[tuple[Any, GameSaver]],
    saver_for: Callable[[Any], GameSaver],
    *,
    say: Callable[[str], None] = print,
    executor: Executor | None = None,
) -> None:
    """Open each finished table for a new match once its players have left it, its finished
    match's transcript saved whole first (``saver_for`` makes the new match's saver)."""
    loop = asyncio.get_running_loop()
    while True:
        await asyncio.sleep(REOPEN_CHECK)
        for r in reopeners:
            if not due_for_reopening(r, loop.time()):
                continue
            _, saver = savers[r.saver]
            await saver.save_async(
                whole=True, executor=executor
            )  # the finished match's transcript, complete
            if saver.failing:  # a full disk: keep the finished match until it is saved
                continue
            if not due_for_reopening(r, loop.time()):  # a player came back while it was saved
                continue
            table = open_next_match(server, r.served)
            savers[r.saver] = (table, saver_for(table))
            r.empty_since = None
            name = r.served.spec.name
            say(f"table {name!r}: the match is over and everyone left; open for a new match")
