"""The transcript chain and the context every party statement binds (protocol/fairness.md §8.2).

A statement a seat (or the host, for a party it plays) signs names the history it was made
over: its ``context`` is the chain hash at the moment the statement became due. A receiver whose
own chain differs there has caught the host showing two players two pasts, at the first
statement made over the other view, with that signed statement as the evidence.

The rule, one place for the verifier, the host and every client: a statement's context is the
chain after the last public record that made it due. A *round* of statements that are gathered
and published together (the presences, seed commitments, seed reveals, a window's shares, the
exchange's shows, the key reveals) shares the context of its first record. A ``takeover``, a
``match-end`` and a late key reveal (one published after its hand's ``overdue``) make nothing
due: they enter the chain but never move the context, so a statement signed just before them
stays valid after them.
"""

from __future__ import annotations

from briscola_lan.fairness.encoding import CHAIN_START, DOMAIN, chain_next

# Kinds gathered into rounds: every statement of a round carries the round's context.
GATHERED = frozenset({"present", "seed-commit", "seed-reveal", "shares", "show", "key-reveal"})
# Public kinds that make nothing due (they never move the context).
TRANSPARENT = frozenset({"takeover", "match-end"})
_PREFIX = DOMAIN + b"st/"


def kind_of(body: bytes) -> str:
    """The kind of a statement body from its tag (no decoding; '' when it is not a tag)."""
    if len(body) < 4:
        return ""
    size = int.from_bytes(body[:4], "big")
    tag = body[4 : 4 + size]
    return tag[len(_PREFIX) :].decode("ascii", "replace") if tag.startswith(_PREFIX) else ""


class ContextChain:
    """Follows the public records of a transcript: the chain, and the context due now."""

    __slots__ = ("_next", "_overdue", "_round", "_round_kind", "chain")

    def __init__(self) -> None:
        self._overdue: set[int] = set()  # hands whose overdue key reveals were named
        self.chain = CHAIN_START
        self._next = CHAIN_START  # the context of a statement that becomes due now
        self._round = CHAIN_START  # the context of the round being published
        self._round_kind = ""

    def published(self, kind: str, body: bytes, *, transparent: bool = False) -> None:
        """A public record entered the transcript (``transparent``: it makes nothing due)."""
        self.chain = chain_next(self.chain, body)
        if transparent or kind in TRANSPARENT:
            return
        if kind not in GATHERED or kind != self._round_kind:
            self._round_kind = kind if kind in GATHERED else ""
            self._round = self._next
        self._next = self.chain

    def expected(self, kind: str) -> bytes:
        """The context a statement of ``kind`` must carry if it is published next."""
        if kind in GATHERED and kind == self._round_kind:
            return self._round
        return self._next

    def follow(self, body: bytes) -> None:
        """Follow a public record of a transcript from its bytes alone (a late key reveal is
        told by the ``overdue`` of its hand before it)."""
        kind = kind_of(body)
        hand = _hand_of(body) if kind in ("overdue", "key-reveal") else None
        if kind == "overdue" and hand is not None:
            self._overdue.add(hand)
        self.published(kind, body, transparent=kind == "key-reveal" and hand in self._overdue)

    def copy(self) -> ContextChain:
        out = ContextChain()
        out.chain, out._next, out._round, out._round_kind = (
            self.chain,
            self._next,
            self._round,
            self._round_kind,
        )
        out._overdue = set(self._overdue)
        return out


def _hand_of(body: bytes) -> int | None:
    """The hand number of a statement (its third field, after the tag and the game id)."""
    pos = 0
    for _ in range(2):  # the tag, then the game id
        if pos + 4 > len(body):
            return None
        pos += 4 + int.from_bytes(body[pos : pos + 4], "big")
    if pos + 8 > len(body) or body[pos : pos + 4] != b"\x00\x00\x00\x04":
        return None
    return int.from_bytes(body[pos + 4 : pos + 8], "big")


__all__ = ["GATHERED", "TRANSPARENT", "ContextChain", "kind_of"]
