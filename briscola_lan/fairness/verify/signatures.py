"""Signatures in a file: whose key signs each statement, the live client's deferred batch, and
the signatures already known good (a seat's statement comes again inside its receipt).
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.fairness.identity import verify_signature
from briscola_lan.fairness.statements import (
    BlindPlay,
    Deal,
    Exchange,
    Play,
    Receipt,
    Statement,
    Upcard,
)
from briscola_lan.fairness.verify.report import HOST, Fault, Violation

# Never a blind hand's shares or shows (fairness.md §8.10): a client opens its cards with the keys
# they hold, and would sign a complaint about a key the host forged on the way. A blind-play MAY
# wait: its key is checked against the final deck at once, and no one but the seat can make it.
DEFERRABLE = frozenset({Play, Deal, Upcard, Exchange, Receipt, BlindPlay})  # exact classes
_SEAT_NAMES = tuple(f"seat {s}" for s in range(8))


def seat_word(seat: int) -> str:
    return _SEAT_NAMES[seat] if seat < len(_SEAT_NAMES) else f"seat {seat}"


@dataclass(frozen=True, slots=True)
class _Pending:
    index: int
    kind: str
    body: bytes
    sig: bytes
    keys: tuple[bytes, ...]
    who: str


class Signatures:
    """Checks signatures at once, or (``defer``, the live client) queues those of the per-card
    records to check them in one batch; remembers the good ones that come again."""

    def __init__(self, defer: bool = False) -> None:
        self.defer = defer
        self._pending: list[_Pending] = []
        # (key, body, signature) triples already known to verify: a seat's statement comes
        # back inside its receipt and again as a public record; a client knows its own.
        self._good: set[tuple[bytes, bytes, bytes]] = set()

    @property
    def pending(self) -> int:
        return len(self._pending)

    def known_good(self, key: bytes, body: bytes, sig: bytes) -> None:
        self._good.add((key, body, sig))

    def verify(self, key: bytes, body: bytes, sig: bytes, *, remember: bool = False) -> bool:
        """Check a signature; ``remember`` a good one that can come again."""
        triple = (key, body, sig)
        if triple in self._good:
            return True
        if verify_signature(key, body, sig):
            if remember:
                self._good.add(triple)
            return True
        return False

    def check(
        self,
        index: int,
        st: Statement,
        record: tuple[bytes, bytes],
        *,
        keys: tuple[bytes, ...],
        who: str,
        host_key: bytes,
    ) -> None:
        """Check (or queue) a record's signature by one of ``keys``; raises the host's fault."""
        body, sig = record
        if self.defer and type(st) in DEFERRABLE:
            self._pending.append(_Pending(index, st.KIND, body, sig, keys, who))
            return
        self.check_pending()
        seat_signed = not st.HOST_SIGNED and keys[0] != host_key
        if not any(self.verify(k, body, sig, remember=seat_signed) for k in keys):
            raise Violation(
                Fault(index, st.KIND, HOST, f"signature is not {who}'s (relayed by the host)")
            )

    def check_pending(self) -> None:
        """Check the queued signatures in order; raises the host's fault on the first bad one."""
        pending, self._pending = self._pending, []
        for p in pending:
            seat = p.who != "the host"
            if not any(self.verify(k, p.body, p.sig, remember=seat) for k in p.keys):
                raise Violation(
                    Fault(
                        p.index, p.kind, HOST, f"signature is not {p.who}'s (relayed by the host)"
                    )
                )


__all__ = ["DEFERRABLE", "Signatures", "seat_word"]
