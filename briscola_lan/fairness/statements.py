"""Signed statements: the exact bytes every signature covers and the transcript records.

A statement body is ``lp(DOMAIN + "st/" + kind) || lp(field) ...`` in the order of its schema
(protocol/fairness.md §6). Bodies are decoded strictly: a wrong tag, length, count or trailing
byte is a ``StatementError``. Signatures are over the body bytes exactly as received.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from briscola_lan.fairness.encoding import DOMAIN, lp, u32

_U32 = struct.Struct(">I")
MAX_LIST = 64
T = TypeVar("T", bound="Statement")


class StatementError(ValueError):
    """Bytes that are not a well-formed statement of the expected kind."""


@dataclass(frozen=True, slots=True)
class Opening:
    """Opens one card commitment: the card code at a deck position and its 256-bit salt."""

    position: int
    card: int
    salt: bytes


# Field kinds: "u32", "b16", "b32", "str", "u32s", "b32s", "strs", "opening", "openings".
@dataclass(frozen=True, slots=True)
class Statement:
    KIND: ClassVar[str] = ""
    SCHEMA: ClassVar[tuple[str, ...]] = ()
    HOST_SIGNED: ClassVar[bool] = True
    PUBLIC: ClassVar[bool] = True

    def encode(self) -> bytes:
        out = [lp(DOMAIN + b"st/" + self.KIND.encode("ascii"))]
        for f, kind in zip(fields(self), self.SCHEMA, strict=True):
            out.append(lp(_enc(kind, getattr(self, f.name))))
        return b"".join(out)


def _enc(kind: str, v: Any) -> bytes:
    if kind == "u32":
        return u32(int(v))
    if kind in ("b16", "b32"):
        want = 16 if kind == "b16" else 32
        if len(v) != want:
            raise StatementError(f"expected {want} bytes, got {len(v)}")
        return bytes(v)
    if kind == "str":
        return str(v).encode("utf-8")
    if kind == "opening":
        return _enc_opening(v)
    item = {"u32s": "u32", "b32s": "b32", "strs": "str", "openings": "opening"}[kind]
    return u32(len(v)) + b"".join(lp(_enc(item, x)) for x in v)


def _enc_opening(o: Opening) -> bytes:
    return lp(u32(o.position)) + lp(u32(o.card)) + lp(_enc("b32", o.salt))


class _Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self) -> bytes:
        if self.pos + 4 > len(self.data):
            raise StatementError("truncated statement")
        (n,) = _U32.unpack_from(self.data, self.pos)
        start = self.pos + 4
        if start + n > len(self.data):
            raise StatementError("truncated statement field")
        self.pos = start + n
        return self.data[start : self.pos]

    def done(self) -> None:
        if self.pos != len(self.data):
            raise StatementError("trailing bytes after the statement")


def _dec(kind: str, raw: bytes) -> Any:
    if kind == "u32":
        if len(raw) != 4:
            raise StatementError("an integer field is 4 bytes")
        return _U32.unpack(raw)[0]
    if kind in ("b16", "b32"):
        want = 16 if kind == "b16" else 32
        if len(raw) != want:
            raise StatementError(f"expected a {want}-byte field, got {len(raw)}")
        return raw
    if kind == "str":
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise StatementError("text field is not UTF-8") from exc
    if kind == "opening":
        r = _Reader(raw)
        o = Opening(_dec("u32", r.take()), _dec("u32", r.take()), _dec("b32", r.take()))
        r.done()
        return o
    item = {"u32s": "u32", "b32s": "b32", "strs": "str", "openings": "opening"}[kind]
    if len(raw) < 4:
        raise StatementError("truncated list")
    (count,) = _U32.unpack_from(raw)
    if count > MAX_LIST:
        raise StatementError(f"list of {count} items is over the limit of {MAX_LIST}")
    r = _Reader(raw)
    r.pos = 4
    items = tuple(_dec(item, r.take()) for _ in range(count))
    r.done()
    return items


@dataclass(frozen=True, slots=True)
class MatchStart(Statement):
    """Opens a match: options, keys and names of the host and every seat, first dealer."""

    KIND: ClassVar[str] = "match-start"
    SCHEMA: ClassVar[tuple[str, ...]] = (
        "b16",
        "u32",
        "str",
        "u32",
        "u32",
        "u32",
        "b32",
        "b32s",
        "strs",
        "strs",
        "u32",
        "str",
    )
    game_id: bytes
    players: int
    match_format: str
    hands_to_win: int
    partner_exchange: int
    removed_two: int
    host_key: bytes
    seat_keys: tuple[bytes, ...]
    names: tuple[str, ...]
    ai_levels: tuple[str, ...]  # "" for a human seat
    first_dealer: int
    table_name: str


@dataclass(frozen=True, slots=True)
class DrawStart(Statement):
    """Opens a match that draws partners and/or the first dealer: lobby seats, host commitment."""

    KIND: ClassVar[str] = "draw-start"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "u32", "b32", "b32s", "strs", "b32")
    game_id: bytes
    players: int
    draw_partners: int
    draw_dealer: int
    host_key: bytes
    seat_keys: tuple[bytes, ...]  # in lobby seat order
    names: tuple[str, ...]
    commitment: bytes  # the host's commitment to its draw seed (hand DRAW_HAND)


@dataclass(frozen=True, slots=True)
class DrawReveal(Statement):
    """The host's draw seed and the draw's result: cards, new seats (per lobby seat), dealer."""

    KIND: ClassVar[str] = "draw-reveal"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "b32", "u32s", "u32s", "u32")
    game_id: bytes
    host_seed: bytes
    cards: tuple[int, ...]
    seating: tuple[int, ...]
    dealer: int


@dataclass(frozen=True, slots=True)
class HostCommit(Statement):
    KIND: ClassVar[str] = "host-commit"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32")
    game_id: bytes
    hand: int
    dealer: int
    commitment: bytes


@dataclass(frozen=True, slots=True)
class SeedCommit(Statement):
    KIND: ClassVar[str] = "seed-commit"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    commitment: bytes


@dataclass(frozen=True, slots=True)
class SeedReveal(Statement):
    KIND: ClassVar[str] = "seed-reveal"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    seed: bytes


@dataclass(frozen=True, slots=True)
class DeckCommit(Statement):
    KIND: ClassVar[str] = "deck-commit"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "b32s")
    game_id: bytes
    hand: int
    commitments: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Deal(Statement):
    """Private to ``seat``: openings of the cards it received in one deal or draw."""

    KIND: ClassVar[str] = "deal"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "openings")
    PUBLIC: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    openings: tuple[Opening, ...]


@dataclass(frozen=True, slots=True)
class Upcard(Statement):
    KIND: ClassVar[str] = "upcard"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "opening")
    game_id: bytes
    hand: int
    opening: Opening


@dataclass(frozen=True, slots=True)
class Play(Statement):
    """A seat plays ``card`` as the ``index``-th play (from 0) of the hand."""

    KIND: ClassVar[str] = "play"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "u32", "u32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    index: int
    card: int


@dataclass(frozen=True, slots=True)
class Exchange(Statement):
    """Private to ``seat``: openings of every card its ``partner`` holds at the end of the stock."""

    KIND: ClassVar[str] = "exchange"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "u32", "openings")
    PUBLIC: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    partner: int
    openings: tuple[Opening, ...]


@dataclass(frozen=True, slots=True)
class Takeover(Statement):
    """From play ``at_play`` on, the host plays ``seat`` (ai=1) or hands it back (ai=0)."""

    KIND: ClassVar[str] = "takeover"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "u32", "u32")
    game_id: bytes
    hand: int
    seat: int
    ai: int
    at_play: int


@dataclass(frozen=True, slots=True)
class HostReveal(Statement):
    """End of hand: the host's seed, every salt in position order, the points per side."""

    KIND: ClassVar[str] = "host-reveal"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "b32", "b32s", "u32s")
    game_id: bytes
    hand: int
    host_seed: bytes
    salts: tuple[bytes, ...]
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Abort(Statement):
    """The hand is aborted; ``seat`` is at fault (HOST_PARTY: the host itself)."""

    KIND: ClassVar[str] = "abort"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "str")
    game_id: bytes
    hand: int
    seat: int
    reason: str


@dataclass(frozen=True, slots=True)
class Ack(Statement):
    """A seat signs the transcript chain hash it computed at the end of a hand."""

    KIND: ClassVar[str] = "ack"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    PUBLIC: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    chain_hash: bytes


KINDS: dict[bytes, type[Statement]] = {
    DOMAIN + b"st/" + cls.KIND.encode("ascii"): cls
    for cls in (
        MatchStart,
        DrawStart,
        DrawReveal,
        HostCommit,
        SeedCommit,
        SeedReveal,
        DeckCommit,
        Deal,
        Upcard,
        Play,
        Exchange,
        Takeover,
        HostReveal,
        Abort,
        Ack,
    )
}


def decode(body: bytes) -> Statement:
    """Parse statement bytes strictly into their statement."""
    r = _Reader(body)
    tag = r.take()
    cls = KINDS.get(tag)
    if cls is None:
        raise StatementError("unknown statement kind")
    values = [_dec(kind, r.take()) for kind in cls.SCHEMA]
    r.done()
    return cls(*values)


def decode_as(body: bytes, cls: type[T]) -> T:
    st = decode(body)
    if not isinstance(st, cls):
        raise StatementError(f"expected a {cls.KIND} statement, got {st.KIND}")
    return st
