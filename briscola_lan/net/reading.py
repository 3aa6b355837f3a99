"""One connection's messages at the host (``net/server.py``): each read's messages go to the
table, within the connection's message budget, and what they produce is written.

A card leaves first: what relays it to the other seats is written at once (once the journal has
its frame, write-ahead), and what the table signs after it (the card's receipt, the draws, the
end of the hand; ``HostTable.receive(settle=False)``) is done only once the relay has been handed
to the transports (``WriteAhead.after_sent``), with the rest of the read (``HostedTable.owed``).
Anything else the table does first does that owed work first (``HostServer._owed_first``), so
that every seat gets the table's messages in the order the table made them.
"""

from __future__ import annotations

import asyncio
import collections
import logging
from collections.abc import Callable
from typing import Any, Protocol

from briscola_lan.net.admission import MessageBudget
from briscola_lan.net.hosted import HostedTable, core_of
from briscola_lan.net.transport import FrameConnection
from briscola_lan.net.write_ahead import WriteAhead

log = logging.getLogger("briscola_lan.net.server")


class Server(Protocol):
    """What reading a connection uses of its ``HostServer``."""

    write_ahead: WriteAhead
    messages: tuple[float, int] | None  # (per second, burst) handled per connection
    idle_timeout: float | None
    clock: Callable[[], float]

    def _dispatch(
        self,
        hosted: HostedTable,
        outgoing: list[Any],
        *,
        save: bool = ...,
        write: bool = ...,
        made_frames: dict[int, tuple[Any, bytes]] | None = ...,
    ) -> None: ...
    def _send_one(self, hosted: HostedTable, cid: int, message: Any) -> None: ...
    def _owed_first(self, hosted: HostedTable) -> None: ...


class _Read:
    """One read's messages being handled (``read_loop``): those left, and what the
    handled ones produced, written once they all are."""

    __slots__ = ("frames", "outgoing", "rest", "unwritten")

    def __init__(self, messages: list[Any], unwritten: bool) -> None:
        self.rest = iter(messages)
        self.outgoing: list[Any] = []
        self.unwritten = unwritten  # ``outgoing`` must reach the journal before it leaves
        self.frames: dict[int, tuple[Any, bytes]] = {}  # encoded for this read's dispatches


async def read_loop(server: Server, hosted: HostedTable, cid: int, conn: FrameConnection) -> None:
    """Hand what connection ``cid`` sends to its table until it ends (see the module's text)."""
    from briscola_lan.wire.codec import FrameError, MessageError
    from briscola_lan.wire.messages import Error, ErrorCode

    table: Any = hosted.table
    # A table that can leave work owed (``HostTable.receive(settle=False)``): a card leaves
    # before the host signs what follows it (the receipt, the draws, the end of the hand).
    early = hasattr(table, "settle")
    core: Any = core_of(table)  # asked for ``due`` and ``redone`` past the wrappers

    def relay(read: _Read, message: Any) -> bool:
        """The table takes ``message``; what relays it is written at once (after the journal
        has it, write-ahead), then the table does the work it left owed: at once or, while
        the relay waits for the journal's frame, once it has left (True: the rest of the
        read waits with it). The sender's own copy waits for what the table signs for it
        next (its receipt, its draw), so that they go out in one write: the other players
        have theirs first."""
        out = table.receive(cid, message, settle=False)
        if not core.due:
            read.unwritten = True
            read.outgoing.extend(out)
            return False
        batch = read.outgoing + [o for o in out if o.conn != cid]
        read.outgoing = [o for o in out if o.conn == cid]
        server._dispatch(hosted, batch, save=True, made_frames=read.frames)
        if hosted.held and owe(read):
            return True
        settle(read)
        return False

    def settle(read: _Read) -> None:
        """What a restored table makes again from the journal, the same bytes
        (``HostTable.settle``), leaves without waiting for a write of its own: the next
        change writes it."""
        read.outgoing.extend(table.settle())
        if not core.redone:
            read.unwritten = True

    def owe(read: _Read) -> bool:
        def pay() -> None:
            if hosted.owed is not pay:  # done already (``_owed_first``)
                return
            hosted.owed = None
            try:
                settle(read)
            except Exception:  # a coordinator bug must not stop the other players
                read.unwritten = True
                log.exception("table %s: settle failed", hosted.key)
            run(read)

        if not server.write_ahead.after_sent(hosted, pay):
            return False
        hosted.owed = pay
        return True

    budget = None if server.messages is None else MessageBudget(*server.messages)
    backlog: collections.deque[Any] = collections.deque()  # read, over the budget
    timer: list[asyncio.TimerHandle] = []
    loop = asyncio.get_running_loop()

    def take(messages: list[Any]) -> None:
        """Handle what the budget allows now; the rest waits, and the stream is read no
        more until it is handled (the readable path; the idle-timeout path sleeps)."""
        if budget is None:
            handle(messages)
            return
        backlog.extend(messages)
        drain()

    def drain() -> None:
        for t in timer:
            t.cancel()
        timer.clear()
        if conn.closed:
            backlog.clear()
            return
        n = budget.take(len(backlog)) if budget is not None else len(backlog)
        if n:
            handle([backlog.popleft() for _ in range(n)])
        if not backlog:
            conn.stream.resume_reading()
            return
        conn.stream.pause_reading()
        if server.idle_timeout is None and budget is not None:
            timer.append(loop.call_later(budget.wait(min(len(backlog), 100)), drain))

    def handle(messages: list[Any]) -> None:
        run(_Read(messages, not early))

    def run(read: _Read) -> None:
        """Handle the messages of one read, then let AI seats answer and write what it all
        produced; a relay that waits for its frame takes the rest with it (``relay``)."""
        for message in read.rest:
            if conn.answer_heartbeat(message):
                continue
            if hosted.owed is not None:  # a relay's owed work (any connection's) first
                server._owed_first(hosted)
            if isinstance(message, MessageError):
                refused = Error(ErrorCode.BAD_MESSAGE, f"message refused: {message}")
                server._send_one(hosted, cid, refused)
                continue
            try:
                if not early:
                    read.outgoing.extend(table.receive(cid, message))
                elif relay(read, message):
                    return
            except Exception:  # a coordinator bug must not stop the other players
                read.unwritten = True
                log.exception("table %s: receive failed", hosted.key)
                failed = Error(ErrorCode.BAD_MESSAGE, "the host could not handle that")
                server._send_one(hosted, cid, failed)
        # Let AI seats answer at once instead of at the next timer tick.
        acts_now = hosted.acts_now
        try:
            if acts_now is None or acts_now():
                if hosted.owed is not None:
                    server._owed_first(hosted)
                ticked = hosted.table.tick(server.clock())
                if ticked:
                    read.outgoing.extend(ticked)
                    read.unwritten = True
        except Exception:
            read.unwritten = True
            log.exception("table %s: tick failed", hosted.key)
        server._dispatch(
            hosted, read.outgoing, save=True, write=read.unwritten, made_frames=read.frames
        )

    if server.idle_timeout is None:  # the default (heartbeats find silent peers): messages
        try:  # are handled as they arrive, inside the readable callback, no task woken
            await conn.consume(take)
        except FrameError as exc:
            log.info("connection %d sent a broken frame (%s): dropped", cid, exc)
        finally:
            for t in timer:
                t.cancel()
        return
    while not conn.closed:
        try:
            async with asyncio.timeout(server.idle_timeout):
                messages = await conn.read()
        except TimeoutError:
            log.info("connection %d idle for %s s: dropped", cid, server.idle_timeout)
            return
        except FrameError as exc:
            log.info("connection %d sent a broken frame (%s): dropped", cid, exc)
            return
        if not messages:
            return
        take(messages)
        while backlog and budget is not None and not conn.closed:
            await asyncio.sleep(budget.wait(min(len(backlog), 100)))
            drain()
