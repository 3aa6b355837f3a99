"""Byte encodings and the domain-separated hash every fairness value is built from.

Every hashed or signed value is a sequence of length-prefixed fields,
``lp(x) = u32be(len(x)) || x``.
Integers are 4-byte big-endian; text is UTF-8. ``digest(tag, *fields)`` is
``SHA-256(lp("briscola-lan/v1/" + tag) || lp(field_1) || ...)`` (protocol/fairness.md §2).
"""

from __future__ import annotations

import hashlib
import struct

DOMAIN = b"briscola-lan/v1/"
HOST_PARTY = 0xFFFFFFFF  # the host's party number where a seat number would go
DRAW_HAND = 0xFFFFFFFF  # the hand number of the seat/dealer draw's seed commitments and reveals
_U32 = struct.Struct(">I")


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


def digest(tag: str, *fields: bytes | int | str) -> bytes:
    """The domain-separated SHA-256 of length-prefixed fields."""
    h = hashlib.sha256(lp(DOMAIN + tag.encode("ascii")))
    for f in fields:
        h.update(lp(field(f)))
    return h.digest()


def seed_commitment(game_id: bytes, hand: int, party: int, seed: bytes) -> bytes:
    """Commitment to a 32-byte seed by a seat (``party`` = seat) or the host (HOST_PARTY)."""
    return digest("seed-commit", game_id, hand, party, seed)


def card_commitment(game_id: bytes, hand: int, position: int, card: int, salt: bytes) -> bytes:
    """Salted commitment to the card code at one deck position of one hand of one game."""
    return digest("card", game_id, hand, position, card, salt)


def deck_seed(game_id: bytes, hand: int, host_seed: bytes, seat_seeds: list[bytes]) -> bytes:
    """The deck seed: every seed of the hand, the host's first, then seats in order."""
    return digest("deck-seed", game_id, hand, len(seat_seeds), host_seed, *seat_seeds)


def draw_seed(game_id: bytes, host_seed: bytes, seat_seeds: list[bytes]) -> bytes:
    """The seed of the seat and dealer draw: the host's draw seed, then the seats' (lobby order)."""
    return digest("draw-seed", game_id, len(seat_seeds), host_seed, *seat_seeds)


def chain_next(previous: bytes, body: bytes) -> bytes:
    """Next link of the transcript hash chain over public statement bodies."""
    return digest("chain", previous, body)


CHAIN_START = bytes(32)
