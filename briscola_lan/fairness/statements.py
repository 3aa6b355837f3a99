"""Signed statements: the exact bytes every signature covers and the transcript records.

A statement body is ``lp(DOMAIN + "st/" + kind) || lp(field) ...`` in the order of its schema
(protocol/fairness.md §6). Bodies are decoded strictly: a wrong tag, length, count or trailing
byte is a ``StatementError``. Signatures are over the body bytes exactly as received. The hello
proof's bytes (``hello_proof``) live here too, though they are never a transcript record.
"""

from __future__ import annotations

import operator
import struct
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any, ClassVar, TypeVar

from briscola_lan.fairness.encoding import DOMAIN, lp, u32

_U32 = struct.Struct(">I")
MAX_LIST = 64
MAX_BIN = 8192  # the longest ``bin`` field: a statement embedded in a receipt or evidence
T = TypeVar("T", bound="Statement")


class StatementError(ValueError):
    """Bytes that are not a well-formed statement of the expected kind."""


@dataclass(frozen=True, slots=True)
class Opening:
    """Opens one card commitment: the card code at a deck position and its 256-bit salt."""

    position: int
    card: int
    salt: bytes


# Field kinds: "u32", "b16", "b32", "b64", "bin", "str", "u32s", "b32s", "strs", "opening",
# "openings".
@dataclass(frozen=True, slots=True)
class Statement:
    KIND: ClassVar[str] = ""
    SCHEMA: ClassVar[tuple[str, ...]] = ()
    HOST_SIGNED: ClassVar[bool] = True
    PUBLIC: ClassVar[bool] = True

    def encode(self) -> bytes:
        """The statement's body (``encode_fields``'s bytes, through its class's fast path)."""
        layout = _LAYOUTS.get(type(self)) or _layout(type(self))
        return layout.encode(self)

    def encode_fields(self) -> bytes:
        """The statement's body, field by field: the reference of ``encode``, which makes the
        same bytes through a path generated for its class (``_fast_encoder``), and which comes
        here for any value that is not a plain one of its field's kind (and for the error)."""
        layout = _LAYOUTS.get(type(self)) or _layout(type(self))
        out = [layout.tag_lp]
        append = out.append
        values = layout.values(self)
        for value, (fixed, prefix, enc) in zip(
            values if layout.many else (values,), layout.fields, strict=True
        ):
            # A u32 or a fixed-size byte string as it is (``enc`` makes the same bytes, and
            # says what is wrong with any other value).
            if fixed == 4 and type(value) is int:
                if 0 <= value <= 0xFFFFFFFF:
                    append(prefix)
                    append(_U32.pack(value))
                    continue
            elif fixed and type(value) is bytes and len(value) == fixed:
                append(prefix)
                append(value)
                continue
            raw = enc(value)
            append(_U32.pack(len(raw)))
            append(raw)
        return b"".join(out)


# --- field encoders and decoders --------------------------------------------------------------
# Every kind has one encoder (value -> field bytes, before the length prefix) and one decoder
# (field bytes -> value, strict). A schema made only of fixed-size fields (u32, b16, b32) also
# gets a one-``struct`` fast path for decoding; any mismatch falls back to the field-by-field
# path, which raises the precise StatementError.


def _enc_u32(v: Any) -> bytes:
    return u32(int(v))


def _enc_bytes(want: int) -> Callable[[Any], bytes]:
    def enc(v: Any) -> bytes:
        if len(v) != want:
            raise StatementError(f"expected {want} bytes, got {len(v)}")
        return bytes(v)

    return enc


def _enc_bin(v: Any) -> bytes:
    if len(v) > MAX_BIN:
        raise StatementError(f"a bin field is at most {MAX_BIN} bytes, not {len(v)}")
    return bytes(v)


def _enc_str(v: Any) -> bytes:
    return str(v).encode("utf-8")


def _enc_opening(o: Opening) -> bytes:
    return lp(u32(o.position)) + lp(u32(o.card)) + lp(_enc_b32(o.salt))


def _enc_list(item: Callable[[Any], bytes]) -> Callable[[Any], bytes]:
    def enc(v: Any) -> bytes:
        return u32(len(v)) + b"".join(lp(item(x)) for x in v)

    return enc


_enc_b32 = _enc_bytes(32)


def _dec_u32(raw: bytes) -> int:
    if len(raw) != 4:
        raise StatementError("an integer field is 4 bytes")
    value: int = _U32.unpack(raw)[0]
    return value


def _dec_bytes(want: int) -> Callable[[bytes], bytes]:
    def dec(raw: bytes) -> bytes:
        if len(raw) != want:
            raise StatementError(f"expected a {want}-byte field, got {len(raw)}")
        return raw

    return dec


def _dec_bin(raw: bytes) -> bytes:
    if len(raw) > MAX_BIN:
        raise StatementError(f"a bin field is at most {MAX_BIN} bytes, not {len(raw)}")
    return raw


def _dec_str(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise StatementError("text field is not UTF-8") from exc


def _take(data: bytes, pos: int) -> tuple[bytes, int]:
    """One length-prefixed field at ``pos`` and the position after it."""
    if pos + 4 > len(data):
        raise StatementError("truncated statement")
    (size,) = _U32.unpack_from(data, pos)
    start = pos + 4
    end = start + size
    if end > len(data):
        raise StatementError("truncated statement field")
    return data[start:end], end


def _dec_opening(raw: bytes) -> Opening:
    field, pos = _take(raw, 0)
    position = _dec_u32(field)
    field, pos = _take(raw, pos)
    card = _dec_u32(field)
    field, pos = _take(raw, pos)
    salt = _dec_b32(field)
    if pos != len(raw):
        raise StatementError("trailing bytes after the statement")
    return Opening(position, card, salt)


def _dec_list(item: Callable[[bytes], Any]) -> Callable[[bytes], tuple[Any, ...]]:
    def dec(raw: bytes) -> tuple[Any, ...]:
        if len(raw) < 4:
            raise StatementError("truncated list")
        (count,) = _U32.unpack_from(raw)
        if count > MAX_LIST:
            raise StatementError(f"list of {count} items is over the limit of {MAX_LIST}")
        pos = 4
        items = []
        for _ in range(count):
            raw_item, pos = _take(raw, pos)
            items.append(item(raw_item))
        if pos != len(raw):
            raise StatementError("trailing bytes after the statement")
        return tuple(items)

    return dec


_dec_b32 = _dec_bytes(32)

_ENCODERS: dict[str, Callable[[Any], bytes]] = {
    "u32": _enc_u32,
    "b16": _enc_bytes(16),
    "b32": _enc_b32,
    "b64": _enc_bytes(64),
    "bin": _enc_bin,
    "str": _enc_str,
    "opening": _enc_opening,
    "u32s": _enc_list(_enc_u32),
    "b32s": _enc_list(_enc_b32),
    "strs": _enc_list(_enc_str),
    "openings": _enc_list(_enc_opening),
}
_DECODERS: dict[str, Callable[[bytes], Any]] = {
    "u32": _dec_u32,
    "b16": _dec_bytes(16),
    "b32": _dec_b32,
    "b64": _dec_bytes(64),
    "bin": _dec_bin,
    "str": _dec_str,
    "opening": _dec_opening,
    "u32s": _dec_list(_dec_u32),
    "b32s": _dec_list(_dec_b32),
    "strs": _dec_list(_dec_str),
    "openings": _dec_list(_dec_opening),
}
_FIXED: dict[str, tuple[str, int]] = {"u32": ("I", 4), "b16": ("16s", 16), "b32": ("32s", 32)}


@dataclass(frozen=True, slots=True)
class _Layout:
    """How one statement class is encoded and decoded (built once per class)."""

    tag_lp: bytes
    encoders: tuple[tuple[str, Callable[[Any], bytes]], ...]
    decoders: tuple[Callable[[bytes], Any], ...]
    fixed: struct.Struct | None  # the whole body at once, when every field has a fixed size
    fixed_sizes: tuple[int, ...]  # the length prefixes the fixed layout must carry
    values: Callable[[Any], Any]  # the fields' values, in order (one value when not ``many``)
    many: bool
    # Each field: its fixed size (a u32: 4, "b16"/"b32"/"b64": their size, else 0), that
    # size's length prefix, its encoder.
    fields: tuple[tuple[int, bytes, Callable[[Any], bytes]], ...]
    encode: Callable[[Any], bytes]  # ``Statement.encode``: ``_fast_encoder``'s


_SIZES = {"u32": 4, "b16": 16, "b32": 32, "b64": 64}


def _no_values(st: Any) -> tuple[()]:
    return ()


_LAYOUTS: dict[type[Statement], _Layout] = {}


def _layout(cls: type[Statement]) -> _Layout:
    layout = _LAYOUTS.get(cls)
    if layout is None:
        tag = DOMAIN + b"st/" + cls.KIND.encode("ascii")
        names = [f.name for f in fields(cls)]
        if len(names) != len(cls.SCHEMA):
            raise TypeError(f"{cls.__name__}: SCHEMA does not match its fields")
        fixed: struct.Struct | None = None
        sizes: tuple[int, ...] = ()
        if all(kind in _FIXED for kind in cls.SCHEMA):
            fmt = f">I{len(tag)}s" + "".join("I" + _FIXED[k][0] for k in cls.SCHEMA)
            fixed = struct.Struct(fmt)
            sizes = (len(tag), *(_FIXED[k][1] for k in cls.SCHEMA))
        layout = _LAYOUTS[cls] = _Layout(
            lp(tag),
            tuple((name, _ENCODERS[kind]) for name, kind in zip(names, cls.SCHEMA, strict=True)),
            tuple(_DECODERS[kind] for kind in cls.SCHEMA),
            fixed,
            sizes,
            operator.attrgetter(*names) if names else _no_values,
            len(names) != 1,
            tuple(
                (_SIZES.get(kind, 0), _U32.pack(_SIZES.get(kind, 0)), _ENCODERS[kind])
                for kind in cls.SCHEMA
            ),
            _fast_encoder(cls, lp(tag), names),
        )
    return layout


def _fast_encoder(cls: type[Statement], tag_lp: bytes, names: list[str]) -> Callable[[Any], bytes]:
    """``cls``'s body in one expression: the bytes of ``Statement.encode_fields``, with its
    fields unrolled (a u32 or a fixed-size byte string as it is, any other kind through its
    encoder); a fixed-size field whose value is not a plain one of its kind (an ``IntEnum``, a
    ``bytearray``, a wrong length...) goes to ``encode_fields`` instead, as does the error."""
    env: dict[str, Any] = {"TAG": tag_lp, "U32": _U32.pack, "ref": cls.encode_fields}
    checks: list[str] = []
    parts = ["TAG"]
    for i, kind in enumerate(cls.SCHEMA):
        v = f"v{i}"
        size = _SIZES.get(kind, 0)
        if kind == "u32":
            checks.append(f"type({v}) is int and 0 <= {v} <= 0xFFFFFFFF")
            parts += ["P4", f"U32({v})"]
            env["P4"] = _U32.pack(4)
        elif size:
            checks.append(f"type({v}) is bytes and len({v}) == {size}")
            parts += [f"P{size}", v]
            env[f"P{size}"] = _U32.pack(size)
        else:
            env[f"enc{i}"] = _ENCODERS[kind]
            parts += [f"U32(len(r{i} := enc{i}({v})))", f"r{i}"]
    fields_of = "".join(f"    v{i} = st.{name}\n" for i, name in enumerate(names))
    src = (
        "def encode(st):\n"
        + fields_of
        + (f"    if not ({' and '.join(checks)}):\n        return ref(st)\n" if checks else "")
        + f"    return b''.join(({', '.join(parts)},))\n"
    )
    exec(src, env)  # the source is made above from the class's schema, as dataclasses does
    encode: Callable[[Any], bytes] = env["encode"]
    return encode


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
class MatchOptions(Statement):
    """The table options match-start has no field for, as ``name=value`` texts sorted by name;
    right after match-start, and only when one differs from its default (fairness.md §12.1)."""

    KIND: ClassVar[str] = "match-options"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "strs")
    game_id: bytes
    options: tuple[str, ...]


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
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    commitment: bytes


@dataclass(frozen=True, slots=True)
class SeedReveal(Statement):
    KIND: ClassVar[str] = "seed-reveal"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
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
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32", "u32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    index: int
    card: int


# A bid's ``bid`` field when the seat passes (fairness.md §13): no bid code is this.
PASS_BID = 0xFFFFFFFF


@dataclass(frozen=True, slots=True)
class BidStatement(Statement):
    """Five players: a seat's ``index``-th bid of the hand's auction (from 0): a rank code 0..9,
    points 61..120, or ``PASS_BID`` (fairness.md §13)."""

    KIND: ClassVar[str] = "bid"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32", "u32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    index: int
    bid: int


@dataclass(frozen=True, slots=True)
class CallStatement(Statement):
    """Five players: the auction's winner names the suit; the called card is the winning bid's
    rank of that suit, and the suit is the briscola (fairness.md §13)."""

    KIND: ClassVar[str] = "call"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    suit: int


@dataclass(frozen=True, slots=True)
class Signal(Statement):
    """A seat's signal to its partner, sealed so that only the two of them read it, made when
    ``index`` cards of the hand were played (fairness.md §12)."""

    KIND: ClassVar[str] = "signal"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32", "u32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    index: int
    sealed: int  # the signal's value XOR its pad (fairness.signals)


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


@dataclass(frozen=True, slots=True)
class Receipt(Statement):
    """Private to ``seat``: the host received this statement of the seat (body and signature) at
    ``time`` (Unix seconds, the host's clock). Evidence that the seat sent it."""

    KIND: ClassVar[str] = "receipt"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "u32", "bin", "b64")
    PUBLIC: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    time: int
    statement: bytes
    signature: bytes


@dataclass(frozen=True, slots=True)
class Evidence(Statement):
    """Published just before an abort that names ``seat``: the seat's own signed statement that
    breaks the protocol (a seed reveal that does not open its commitment)."""

    KIND: ClassVar[str] = "evidence"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "bin", "b64")
    game_id: bytes
    hand: int
    seat: int
    statement: bytes
    signature: bytes


@dataclass(frozen=True, slots=True)
class MatchEnd(Statement):
    """The match is decided: hands played, the winning side, hands won and card points per side.
    Published right after the deciding hand's host-reveal; that hand's acks cover it."""

    KIND: ClassVar[str] = "match-end"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "u32s", "u32s")
    game_id: bytes
    hands: int
    winner: int
    hands_won: tuple[int, ...]
    points: tuple[int, ...]


# --- the blind deal (protocol/fairness.md §11) --------------------------------------------------
# A party is a seat number, or HOST_PARTY (0xFFFFFFFF) for the host, which shuffles for the seats
# it plays; the field is named ``seat`` as in every statement a seat signs.


@dataclass(frozen=True, slots=True)
class BlindStart(Statement):
    """Opens a blind hand and calls its players: every human seat answers with a ``present``
    within ``wait`` seconds; the seats that did are the hand's parties (fairness.md §11.3)."""

    KIND: ClassVar[str] = "blind-start"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "u32")
    game_id: bytes
    hand: int
    dealer: int
    wait: int  # seconds the host waits for the players' answers


@dataclass(frozen=True, slots=True)
class Present(Statement):
    """A seat's answer to a blind hand's call: its player takes part in the hand."""

    KIND: ClassVar[str] = "present"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)


@dataclass(frozen=True, slots=True)
class ShufflePass(Statement):
    """A party's shuffle pass: its key-exchange points (for shares and for shows) and the deck
    it multiplied and permuted."""

    KIND: ClassVar[str] = "shuffle"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "b32", "b32", "b32s")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int  # the party
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    ecdh: bytes  # X, for the shares' pads
    ecdh_show: bytes  # X', for the shows' pads
    points: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class LockPass(Statement):
    """A party's lock pass: the deck with its shuffle key swapped for one key per position, the
    commitments to those keys (``commits[p] = b_p·B``, ``key = a·B``) and the proof that the
    pass is what they give (fairness.md §11.4)."""

    KIND: ClassVar[str] = "lock"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "b32s", "b32s", "b32", "b32s")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int  # the party
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    points: tuple[bytes, ...]
    commits: tuple[bytes, ...]  # Y_p = b_p·B, one per position
    key: bytes  # A = a·B
    proof: tuple[bytes, ...]  # (e, z_a, z_0, ..., z_(N-1))


@dataclass(frozen=True, slots=True)
class Shares(Statement):
    """A party's lock keys for the positions one deal window gives other parties' seats, each
    sealed for its receiver (the upcard's key, in window 0, in the clear)."""

    KIND: ClassVar[str] = "shares"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32", "u32s", "b32s")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int  # the party
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    window: int  # tricks taken when the window opened (0: the initial deal)
    positions: tuple[int, ...]
    values: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Show(Statement):
    """The partner exchange: a seat's whole hand for its partner, each position's opening key
    sealed for the partner."""

    KIND: ClassVar[str] = "show"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32", "u32s", "b32s")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    partner: int
    positions: tuple[int, ...]
    values: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class BlindPlay(Statement):
    """A seat plays ``card`` from deck ``position``; ``key`` opens that position (its proof)."""

    KIND: ClassVar[str] = "blind-play"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32", "u32", "u32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    index: int
    card: int
    position: int
    key: bytes


@dataclass(frozen=True, slots=True)
class Complaint(Statement):
    """A party says the card at ``position``, dealt or shown to it, does not open. When a value
    sent to it is wrong (party ``about``'s share, or its show), it reveals the point its pad
    came from (``shared``) with the proof that it is the one its keys give, so that anyone can
    unseal the value and decide at once; ``about`` = itself: every value is right, yet the card
    is none of the pack (or one already seen)."""

    KIND: ClassVar[str] = "complaint"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "u32", "u32", "b32", "b32s")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int  # the party
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    position: int
    about: int  # the party whose value is wrong, or the complaining party itself
    shared: bytes  # the Diffie-Hellman point of the two (32 zero bytes when about = itself)
    proof: tuple[bytes, ...]  # (e, z): equal discrete logs; empty when about = itself


@dataclass(frozen=True, slots=True)
class KeyReveal(Statement):
    """A party's hand secret, published once the hand is over (or disputed): every pass, share
    and key it sent can then be recomputed."""

    KIND: ClassVar[str] = "key-reveal"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32", "b32", "b32")
    HOST_SIGNED: ClassVar[bool] = False
    game_id: bytes
    hand: int
    seat: int  # the party
    context: bytes  # the chain hash this statement was made over (fairness.md §8.1)
    secret: bytes


@dataclass(frozen=True, slots=True)
class BlindEnd(Statement):
    """A blind hand's result, right after its last card (the proved plays fix it): the card
    points per side. The parties' key reveals follow."""

    KIND: ClassVar[str] = "blind-end"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32s")
    game_id: bytes
    hand: int
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Overdue(Statement):
    """The key reveals of a blind hand that did not come before the host's deadline, after its
    result was fixed: the parties that owe them, in party order. The result stands."""

    KIND: ClassVar[str] = "overdue"
    SCHEMA: ClassVar[tuple[str, ...]] = ("b16", "u32", "u32s")
    game_id: bytes
    hand: int
    parties: tuple[int, ...]


# The statements a party sends in a blind hand (signed by the seat's key, or the host's for
# HOST_PARTY and the seats the host plays).
BLIND_PARTY_KINDS: tuple[type[Statement], ...] = (
    Present,
    ShufflePass,
    LockPass,
    Shares,
    Show,
    BlindPlay,
    Complaint,
    KeyReveal,
)


KINDS: dict[bytes, type[Statement]] = {
    DOMAIN + b"st/" + cls.KIND.encode("ascii"): cls
    for cls in (
        MatchStart,
        MatchOptions,
        DrawStart,
        DrawReveal,
        HostCommit,
        SeedCommit,
        SeedReveal,
        DeckCommit,
        Deal,
        Upcard,
        Play,
        BidStatement,
        CallStatement,
        Signal,
        Exchange,
        Takeover,
        HostReveal,
        Abort,
        Ack,
        Receipt,
        Evidence,
        MatchEnd,
        BlindStart,
        Present,
        ShufflePass,
        LockPass,
        Shares,
        Show,
        BlindPlay,
        Complaint,
        KeyReveal,
        BlindEnd,
        Overdue,
    )
}


def decode(body: bytes) -> Statement:
    """Parse statement bytes strictly into their statement."""
    tag, pos = _take(body, 0)
    cls = KINDS.get(tag)
    if cls is None:
        raise StatementError("unknown statement kind")
    layout = _layout(cls)
    fixed = layout.fixed
    if fixed is not None and len(body) == fixed.size:
        values = fixed.unpack(body)
        if values[0::2] == layout.fixed_sizes:  # every length prefix is the expected one
            return cls(*values[3::2])
    out = []
    for dec in layout.decoders:
        raw, pos = _take(body, pos)
        out.append(dec(raw))
    if pos != len(body):
        raise StatementError("trailing bytes after the statement")
    return cls(*out)


def decode_as(body: bytes, cls: type[T]) -> T:
    st = decode(body)
    if not isinstance(st, cls):
        raise StatementError(f"expected a {cls.KIND} statement, got {st.KIND}")
    return st


# --- the hello proof (protocol/SPEC.md section 5, hello): signed, never a transcript record ------

HELLO_TAG = DOMAIN + b"hello"  # not under "st/": a proof can never parse as a statement


def hello_proof(nonce: bytes, host_key: bytes, channel: bytes, public_key: bytes) -> bytes:
    """The exact bytes a hello's proof signs: this connection's nonce, the host's key, the TLS
    certificate's SHA-256 (empty without TLS) and the player's own key, each length-prefixed."""
    for what, value, sizes in (
        ("nonce", nonce, (32,)),
        ("host key", host_key, (32,)),
        ("channel", channel, (0, 32)),
        ("public key", public_key, (32,)),
    ):
        if len(value) not in sizes:
            want = " or ".join(map(str, sizes))
            raise StatementError(f"hello proof: the {what} is {len(value)} bytes, not {want}")
    return b"".join((lp(HELLO_TAG), lp(nonce), lp(host_key), lp(channel), lp(public_key)))
