"""A table as the host's server holds it: the coordinator's interface (``TableLike``), a wrapper
around it, its listening socket, connections, admission pools and journal (``HostedTable``), and
its mDNS TXT record."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from briscola_lan.net import tlsio
from briscola_lan.net.admission import AcceptRate, Admission, AdmissionPool
from briscola_lan.net.discovery import build_txt
from briscola_lan.net.transport import FrameConnection

if TYPE_CHECKING:  # the coordinator is the caller's: serving a table does not load it
    from briscola_lan.net.journal import Journal
    from briscola_lan.table.host import TableInfo

MAX_UNAUTHENTICATED = 32  # per table: connections not welcomed yet (handshakes included)
MAX_UNAUTHENTICATED_PER_ADDRESS = 8  # of those, from one source address
MAX_CONNECTIONS = 64  # per table, welcomed: players, spectators and reconnect overlaps


class TableLike(Protocol):
    """The pure coordinator's shape (``briscola_lan.table.host.HostTable``)."""

    def connect(self, conn: int, channel: bytes = b"") -> list[Any]: ...
    def receive(self, conn: int, message: Any) -> list[Any]: ...
    def disconnect(self, conn: int) -> list[Any]: ...
    def tick(self, now: float) -> list[Any]: ...
    def info(self) -> TableInfo: ...
    def snapshot(self) -> bytes: ...
    # ``pending_checks()``, work for the worker thread, is optional (``_hand_out_checks`` asks
    # for it with getattr); ``checks_done`` takes that work's result.
    def checks_done(self, checks: Any, result: object) -> list[Any]: ...


class TableWrapper:
    """A served table with something around it: every call goes to ``table``, and what
    ``connect``, ``receive``, ``disconnect`` and ``tick`` return passes through ``_after``
    (nothing, unless a subclass looks at it). Everything else is the table's own."""

    def __init__(self, table: Any) -> None:
        self.table = table

    def _after(self, out: Any) -> list[Any]:
        return list(out)

    def checks_done(self, checks: Any, result: object) -> list[Any]:
        return self._after(self.table.checks_done(checks, result))

    def connect(self, conn: int, channel: bytes = b"") -> list[Any]:
        return self._after(self.table.connect(conn, channel=channel))

    def receive(self, conn: int, message: Any, **settle: bool) -> list[Any]:
        return self._after(self.table.receive(conn, message, **settle))

    def settle(self) -> list[Any]:
        return self._after(self.table.settle())

    def disconnect(self, conn: int) -> list[Any]:
        return self._after(self.table.disconnect(conn))

    def tick(self, now: float) -> list[Any]:
        return self._after(self.table.tick(now))

    def info(self) -> TableInfo:
        info: TableInfo = self.table.info()
        return info

    def snapshot(self) -> bytes:
        return bytes(self.table.snapshot())

    def __getattr__(self, name: str) -> Any:  # anything else of the table's own
        return getattr(self.table, name)


def _forwarded(name: str) -> property:
    """``table.<name>`` read through a wrapper as a property: found on the class, where
    ``__getattr__`` is reached only after the ordinary lookup failed (an ``AttributeError``
    made and dropped at each wrapper, each time)."""

    def get(self: TableWrapper) -> Any:
        return getattr(self.table, name)

    return property(get, doc=f"The table's ``{name}``.")


# What the server, the console and the next match read of a wrapped table after each message or
# tick: read as properties, without an AttributeError at every wrapper.
for _name in ("phase", "records", "game_id", "seats", "deal_mode", "named", "match"):
    setattr(TableWrapper, _name, _forwarded(_name))
del _name


@dataclass(eq=False)
class HostedTable:
    """A table served by a HostServer: its listening socket, connections and files."""

    key: str
    table: TableLike
    journal: Journal | None  # where its every change is written first (None: kept nowhere)
    server: tlsio.Listener | None = None
    port: int = 0
    conns: dict[int, FrameConnection] = field(default_factory=dict)
    last_txt: dict[str, bytes] = field(default_factory=dict)
    # Every published TXT gets a new "gen": an mDNS cache takes a record whose bytes equal an
    # earlier one (seats 1 -> 0 -> 1 -> 0) for a refresh of it, and browsers never see the change.
    # Seconds since the epoch at the start, so that a restarted host goes on counting upwards.
    txt_gen: int = field(default_factory=lambda: int(time.time()))
    txt_key: object = None  # what the last TXT was made from (``txt_key``): unchanged, not again
    instance: str = ""
    dirty: bool = False  # its last change could not be journaled (a full disk...): retried
    # Messages sent before the journal had them (``HostTable.settle``'s, made again from it), as
    # encoded then, by ``id``: its next write takes these bytes rather than encode them again.
    unwritten: dict[int, tuple[object, bytes]] = field(default_factory=dict)
    # What waits for its journal's frames to be written before it is sent, in order: (the last
    # frame staged before it, frames by connection, the connections to close after theirs).
    # An entry with a callable instead is work to do once what is before it has been sent.
    held: deque[tuple[int, dict[int, list[bytes]], list[int], Callable[[], None] | None]] = field(
        default_factory=deque
    )
    # The work a message left owed (``HostTable.settle``, then the rest of its read) while the
    # message's relay waits for its frame: done once the relay has left, or before the table
    # does anything else (``HostServer._owed_first``).
    owed: Callable[[], None] | None = None
    # Connections not welcomed yet, and welcomed ones (their own limits: see the module text).
    unauthenticated: AdmissionPool = field(
        default_factory=lambda: AdmissionPool(
            MAX_UNAUTHENTICATED, MAX_UNAUTHENTICATED_PER_ADDRESS, what="unauthenticated"
        )
    )
    authenticated: AdmissionPool = field(
        default_factory=lambda: AdmissionPool(MAX_CONNECTIONS, what="connections")
    )
    admissions: dict[int, Admission] = field(default_factory=dict)  # conn -> its pool entry
    accept_rate: AcceptRate | None = None  # new connections per address, before TLS
    pending_checks: Callable[[], Any] | None = None  # the table's, under its wrappers
    acts_now: Callable[[], bool] | None = None  # the table's: a tick after a message may act


def txt_for(table: TableLike, fingerprint: str) -> dict[str, bytes]:
    """The TXT record of a table, from its ``info()``."""
    info = table.info()
    return build_txt(
        name=info.name,
        fingerprint=fingerprint,
        version=info.version,
        players=info.options.players,
        seated=info.seated,
        free=len(info.free_seats),
        rules=info.rules,
        phase=info.phase,
        deal=info.deal,
    )


def txt_key(table: TableLike) -> object:
    """What a served table's TXT record can change with: the table (a new match's is another
    object), its phase and which seats are taken; its name, rules and deal are its own for
    good. None for a table that does not show its seats: its TXT is made every time."""
    seats = getattr(table, "seats", None)
    if seats is None:
        return None
    return (id(table), str(getattr(table, "phase", "")), tuple(bool(s.occupied) for s in seats))


def with_gen(txt: dict[str, bytes], gen: int) -> dict[str, bytes]:
    """``txt`` plus its ``gen`` item (protocol/transport.md section 4)."""
    return {**txt, "gen": str(gen).encode()}


def core_of(table: Any) -> Any:
    """The coordinator under any wrappers."""
    while isinstance(table, TableWrapper):
        table = table.table
    return table


def acts_now_of(table: Any) -> Callable[[], bool] | None:
    """The coordinator's ``acts_now`` under any wrappers (None: tick after every message)."""
    return getattr(core_of(table), "acts_now", None)


def defer_checks_of(table: Any) -> Callable[[], Any] | None:
    """Have the coordinator under any wrappers hand its checks out to the worker thread;
    returns its ``pending_checks`` (None for a table that has none), asked after each dispatch
    without going through the wrappers."""
    table = core_of(table)
    if hasattr(table, "defer_checks"):
        table.defer_checks = True
    return getattr(table, "pending_checks", None)


__all__ = [
    "HostedTable",
    "TableLike",
    "TableWrapper",
    "acts_now_of",
    "core_of",
    "defer_checks_of",
    "txt_for",
    "txt_key",
    "with_gen",
]
