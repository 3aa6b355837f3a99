"""Byte encodings and the domain-separated hash every fairness value is built from.

Every hashed or signed value is a sequence of length-prefixed fields,
``lp(x) = u32be(len(x)) || x``.
Integers are 4-byte big-endian; text is UTF-8. ``digest(tag, *fields)`` is
``SHA-256(lp("briscola-lan/v2/" + tag) || lp(field_1) || ...)`` (protocol/fairness.md §2).
"""

from __future__ import annotations

import hashlib
import struct

from briscola_lan.about import FAIRNESS_VERSION

DOMAIN = b"briscola-lan/v%d/" % FAIRNESS_VERSION
HOST_PARTY = 0xFFFFFFFF  # the host's party number where a seat number would go
DRAW_HAND = 0xFFFFFFFF  # the hand number of the seat/dealer draw's seed commitments and reveals
_U32 = struct.Struct(">I")
_THREE_U32 = struct.Struct(">IIIIII")  # three length-prefixed u32 fields


def u32(value: int) -> bytes:
    if not 0 <= value <= 0xFFFFFFFF:
        raise ValueError(f"{value} does not fit in an unsigned 32-bit integer")
    return _U32.pack(value)


def lp(data: bytes) -> bytes:
    """Length-prefix one field."""
    return _U32.pack(len(data)) + data


def field(value: bytes | int | str) -> bytes:
    """One field's bytes before prefixing: ints as u32, text as UTF-8, bytes as they are."""
    if isinstance(value, bool):
        return u32(int(value))
    if isinstance(value, int):
        return u32(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    return value


_TAGS: dict[str, bytes] = {}


def _tag(tag: str) -> bytes:
    """``lp(DOMAIN + tag)``, the first field of every digest (cached: there are a dozen tags)."""
    prefix = _TAGS.get(tag)
    if prefix is None:
        prefix = _TAGS[tag] = lp(DOMAIN + tag.encode("ascii"))
    return prefix


def digest(tag: str, *fields: bytes | int | str) -> bytes:
    """The domain-separated SHA-256 of length-prefixed fields."""
    parts = [_tag(tag)]
    for f in fields:
        raw = field(f)
        parts.append(_U32.pack(len(raw)))
        parts.append(raw)
    return hashlib.sha256(b"".join(parts)).digest()


def seed_commitment(game_id: bytes, hand: int, party: int, seed: bytes) -> bytes:
    """Commitment to a 32-byte seed by a seat (``party`` = seat) or the host (HOST_PARTY)."""
    return digest("seed-commit", game_id, hand, party, seed)


def card_commitment(game_id: bytes, hand: int, position: int, card: int, salt: bytes) -> bytes:
    """Salted commitment to the card code at one deck position of one hand of one game."""
    if not (0 <= hand <= 0xFFFFFFFF and 0 <= position <= 0xFFFFFFFF and 0 <= card <= 0xFFFFFFFF):
        return digest("card", game_id, hand, position, card, salt)  # raises the range error
    return hashlib.sha256(
        b"".join(
            (
                _CARD_TAG,
                _U32.pack(len(game_id)),
                game_id,
                _THREE_U32.pack(4, hand, 4, position, 4, card),
                _U32.pack(len(salt)),
                salt,
            )
        )
    ).digest()


def deck_seed(game_id: bytes, hand: int, host_seed: bytes, seat_seeds: list[bytes]) -> bytes:
    """The deck seed: every seed of the hand, the host's first, then seats in order."""
    return digest("deck-seed", game_id, hand, len(seat_seeds), host_seed, *seat_seeds)


def draw_seed(game_id: bytes, host_seed: bytes, seat_seeds: list[bytes]) -> bytes:
    """The seed of the seat and dealer draw: the host's draw seed, then the seats' (lobby order)."""
    return digest("draw-seed", game_id, len(seat_seeds), host_seed, *seat_seeds)


def chain_next(previous: bytes, body: bytes) -> bytes:
    """Next link of the transcript hash chain over public statement bodies."""
    return hashlib.sha256(
        b"".join((_CHAIN_TAG, _U32.pack(len(previous)), previous, _U32.pack(len(body)), body))
    ).digest()


CHAIN_START = bytes(32)
_CARD_TAG = _tag("card")
_CHAIN_TAG = _tag("chain")
