"""The host's admission policy, pure and socket-free (protocol/transport.md section 7.1): who
is let in, who is dropped to make room, and how much of each connection is handled.

An ``AdmissionPool`` bounds connections that have not proved anything yet (in the TLS handshake,
or before the table's ``welcome``), and welcomed ones apart: a full pool makes room for a
newcomer by dropping the oldest connection of the address that holds the most, so that a flood
can never shut an honest client out (the newest is never the one dropped, and an honest client
needs only a round trip). An ``AcceptRate`` closes, before any TLS work, new connections from an
address that opens them faster than a person or a bot ever does: a reconnect-at-once flood then
costs the host an accept and a close per try instead of the start of a handshake. A
``MessageBudget`` bounds the messages of one connection handled per second.
Time comes from a ``clock`` argument; what to do to a connection, from a ``drop`` callback.
"""

from __future__ import annotations

import time
from collections.abc import Callable


class AcceptRate:
    """New connections per source address: a token bucket of ``burst`` refilled ``rate``/s."""

    MAX_TRACKED = 4096  # addresses remembered; full buckets are forgotten first

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError(f"accept rate must be above 0/s with a burst of 1 or more: {rate}")
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, when)
        self.refused = 0

    def allow(self, address: str) -> bool:
        """Take a token for a new connection from ``address``; False: close it at once."""
        now = self.clock()
        tokens, then = self._buckets.get(address, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[address] = (tokens, now)
            self.refused += 1
            return False
        if len(self._buckets) >= self.MAX_TRACKED and address not in self._buckets:
            self._forget(now)
        self._buckets[address] = (tokens - 1.0, now)
        return True

    def _forget(self, now: float) -> None:
        full = self.burst - 1.0
        for addr, (tokens, then) in list(self._buckets.items()):
            if tokens + (now - then) * self.rate >= full:
                del self._buckets[addr]
        while len(self._buckets) >= self.MAX_TRACKED:  # all busy: forget the oldest anyway
            del self._buckets[next(iter(self._buckets))]


class Admission:
    """One connection in an ``AdmissionPool``: its address, since when, and how to drop it."""

    __slots__ = ("address", "drop", "pinned", "pool", "since")

    def __init__(
        self, pool: AdmissionPool, address: str, since: float, drop: Callable[[str], None]
    ) -> None:
        self.pool: AdmissionPool | None = pool
        self.address = address
        self.since = since
        self.drop = drop  # called with the reason; must close the connection
        self.pinned = False  # never evicted (a seated player)

    def release(self) -> None:
        """Leave the pool (the connection closed, or moved on to another pool); idempotent."""
        if self.pool is not None:
            self.pool.release(self)


class AdmissionPool:
    """Connections of one kind, at most ``limit`` (and ``per_address`` from one address).

    ``admit`` never refuses: over a limit it evicts first, the oldest unpinned entry of the
    newcomer's address when that address is at ``per_address``, else the oldest unpinned entry
    of the address holding the most. Only pinned entries can take the pool over ``limit``.
    """

    def __init__(
        self,
        limit: int,
        per_address: int | None = None,
        *,
        what: str = "connections",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if limit < 1 or (per_address is not None and per_address < 1):
            raise ValueError(f"pool limits must be at least 1, not {limit}/{per_address}")
        self.limit = limit
        self.per_address = per_address
        self.what = what
        self.clock = clock
        self._entries: dict[Admission, None] = {}  # in order of admission: oldest first
        self._by_address: dict[str, dict[Admission, None]] = {}
        self.evicted = 0  # dropped to make room
        self.expired = 0  # dropped by ``expire``

    def __len__(self) -> int:
        return len(self._entries)

    def count(self, address: str) -> int:
        """Entries from ``address``."""
        return len(self._by_address.get(address, ()))

    def admit(
        self,
        address: str,
        drop: Callable[[str], None],
        *,
        pinned: bool = False,
        since: float | None = None,
    ) -> Admission:
        """Add a connection from ``address``, evicting others first when a limit is reached."""
        if self.per_address is not None and self.count(address) >= self.per_address:
            self._evict(self._by_address[address], f"too many {self.what} from {address}")
        while len(self._entries) >= self.limit:
            busiest = self._busiest()
            if busiest is None:
                break
            self._evict(busiest, f"too many {self.what}")
        entry = Admission(self, address, self.clock() if since is None else since, drop)
        entry.pinned = pinned
        self._entries[entry] = None
        self._by_address.setdefault(address, {})[entry] = None
        return entry

    def release(self, entry: Admission) -> None:
        """Forget ``entry`` (it is not dropped); idempotent."""
        if entry.pool is not self:
            return
        entry.pool = None
        self._entries.pop(entry, None)
        same = self._by_address.get(entry.address)
        if same is not None:
            same.pop(entry, None)
            if not same:
                del self._by_address[entry.address]

    def expire(self, timeout: float, reason: str) -> int:
        """Drop every unpinned entry admitted ``timeout`` seconds ago or earlier."""
        cutoff = self.clock() - timeout
        old = [e for e in self._entries if e.since <= cutoff and not e.pinned]
        for entry in old:
            self.expired += 1
            self._drop(entry, reason)
        return len(old)

    def _busiest(self) -> dict[Admission, None] | None:
        """The entries of the address with the most unpinned ones (a tie: the oldest first)."""
        best: dict[Admission, None] | None = None
        best_key = (0, 0.0)
        for same in self._by_address.values():
            unpinned = [e for e in same if not e.pinned]
            if unpinned:
                key = (-len(unpinned), unpinned[0].since)
                if best is None or key < best_key:
                    best, best_key = same, key
        return best

    def _evict(self, same: dict[Admission, None], reason: str) -> None:
        for entry in same:
            if not entry.pinned:
                self.evicted += 1
                self._drop(entry, reason)
                return

    def _drop(self, entry: Admission, reason: str) -> None:
        self.release(entry)
        entry.drop(reason)


class MessageBudget:
    """How many messages of one connection are handled: a token bucket of ``burst`` refilled
    ``rate`` a second. Over it the host stops reading the connection until the bucket refills,
    so that TCP holds the sender back; nothing is refused or closed (transport.md 7.1)."""

    def __init__(
        self, rate: float, burst: int, *, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if rate <= 0 or burst < 1:
            raise ValueError("a message budget needs a rate above 0 and a burst of 1 or more")
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = float(burst)
        self.when = clock()

    def take(self, n: int) -> int:
        """Take up to ``n`` messages' worth; how many may be handled now."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.when) * self.rate)
        self.when = now
        k = min(n, int(self.tokens))
        self.tokens -= k
        return k

    def wait(self, n: int) -> float:
        """Seconds until ``n`` messages' worth (at most the burst) is there again."""
        return max(0.0, (min(n, self.burst) - self.tokens) / self.rate)
