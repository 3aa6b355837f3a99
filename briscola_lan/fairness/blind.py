"""The blind deal's arithmetic: a party's keys from its hand secret, the shuffle and lock passes,
sealed key shares and opening a card (protocol/fairness.md §11).

Every party (each human seat, and the host for the seats it plays) turns the deck in two
passes. The shuffle pass multiplies every point by the party's shuffle key ``a`` and permutes
the points; once every party has shuffled, nobody short of all of them knows the order. The lock
pass swaps the party's ``a`` for one lock key ``b_p`` per deck position. The card at position
``p`` of the final deck ``F`` is the ``c`` with ``beta_p · M_c = F[p]``, ``beta_p`` the product
of every party's ``b_p``: a card opens for whoever holds every party's key for its position.
All of a party's keys come from one 32-byte secret, revealed at the end of the hand so that
anyone can redo every pass.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from briscola_lan.fairness.encoding import digest
from briscola_lan.fairness.group import (
    CARD_POINTS,
    GroupError,
    L,
    base,
    code_of_point,
    inverse,
    mult,
    scalar_of,
)
from briscola_lan.fairness.shuffle import shuffle_codes

SHARE = "share"  # what a pad seals: a lock key for the position's receiver
SHOW = "show"  # a position's whole opening key, for the partner in the exchange


def party_scalar(
    game_id: bytes, hand: int, party: int, secret: bytes, *, label: str, index: int
) -> int:
    """One of a party's keys: 64 hashed bytes, little-endian, reduced to ``1 .. L-1``."""
    wide = b"".join(
        digest("blind-scalar", game_id, hand, party, label, index, part, secret) for part in (0, 1)
    )
    return (int.from_bytes(wide, "little") % (L - 1)) + 1


@dataclass(frozen=True, slots=True)
class PartyKeys:
    """Everything one party's secret gives for one hand."""

    party: int
    shuffle_key: int  # a
    ecdh_key: int  # x, for the shares' pads
    ecdh_point: bytes  # X = x·B, published in the party's shuffle statement
    show_key: int  # x', for the pads of the partner exchange (its own, so that a complaint
    show_point: bytes  # about a share, which reveals one shared point, reveals no show)
    perm: tuple[int, ...]  # the shuffle pass's permutation: output j takes input perm[j]
    locks: tuple[int, ...]  # b_p, one per deck position

    def lock(self, position: int) -> int:
        return self.locks[position]


def derive_keys(game_id: bytes, hand: int, party: int, secret: bytes, size: int) -> PartyKeys:
    """A party's keys for one hand of ``size`` cards, from its 32-byte secret (§11.2)."""
    if len(secret) != 32:
        raise ValueError("a party's hand secret is 32 bytes")

    def key(label: str, index: int) -> int:
        return party_scalar(game_id, hand, party, secret, label=label, index=index)

    x, x_show = key("ecdh", 0), key("ecdh-show", 0)
    perm = shuffle_codes(range(size), digest("blind-perm", game_id, hand, party, secret))
    return PartyKeys(
        party=party,
        shuffle_key=key("shuffle", 0),
        ecdh_key=x,
        ecdh_point=base(x),
        show_key=x_show,
        show_point=base(x_show),
        perm=tuple(perm),
        locks=tuple(key("lock", p) for p in range(size)),
    )


def pack_points(codes: Sequence[int]) -> tuple[bytes, ...]:
    """The deck before the first pass: the card points of the pack, in code order."""
    return tuple(CARD_POINTS[c] for c in codes)


def shuffle_pass(keys: PartyKeys, inputs: Sequence[bytes]) -> tuple[bytes, ...]:
    """``out[j] = a · in[perm[j]]``; raises GroupError on an invalid input point."""
    a = keys.shuffle_key
    return tuple(mult(a, inputs[i]) for i in keys.perm)


def lock_pass(keys: PartyKeys, inputs: Sequence[bytes]) -> tuple[bytes, ...]:
    """``out[p] = (b_p · a⁻¹ mod L) · in[p]``; raises GroupError on an invalid input point."""
    a_inv = inverse(keys.shuffle_key)
    return tuple(mult(b * a_inv % L, p) for b, p in zip(keys.locks, inputs, strict=True))


def shared_point(own_key: int, other_point: bytes) -> bytes:
    """The Diffie–Hellman point two parties share: ``x_i · X_j = x_j · X_i``."""
    return mult(own_key, other_point)


def pad(
    game_id: bytes,
    hand: int,
    *,
    sender: int,
    receiver: int,
    position: int,
    what: str,
    shared: bytes,
) -> bytes:
    """The 32 bytes that seal one value from ``sender`` to ``receiver`` (parties)."""
    return digest("blind-pad", game_id, hand, sender, receiver, position, what, shared)


def seal(value: int, pad_bytes: bytes) -> bytes:
    """A scalar, sealed: its 32 little-endian bytes XOR the pad."""
    return bytes(x ^ y for x, y in zip(value.to_bytes(32, "little"), pad_bytes, strict=True))


def unseal(sealed: bytes, pad_bytes: bytes) -> int | None:
    """The scalar a sealed value holds, or None when it is not a scalar 1 .. L-1."""
    if len(sealed) != 32:
        return None
    return scalar_of(bytes(x ^ y for x, y in zip(sealed, pad_bytes, strict=True)))


def product(keys: Sequence[int]) -> int:
    """The product of lock keys modulo L: the opening key of a position."""
    out = 1
    for k in keys:
        out = out * k % L
    return out


def open_card(point: bytes, opening_key: int) -> int | None:
    """The card code at a final-deck point, given the position's opening key; None when the
    point does not open to a card (a wrong key or a bad pass)."""
    try:
        return code_of_point(mult(inverse(opening_key), point))
    except GroupError:
        return None


def opens_as(point: bytes, opening_key: int, code: int) -> bool:
    """Whether ``opening_key · M_code`` is the final-deck point (checks a played card)."""
    if not 0 <= code < 40 or not 0 < opening_key < L:
        return False
    return mult(opening_key, CARD_POINTS[code]) == point


def deck_order(codes: Sequence[int], perms: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The card code at every position after the shuffle passes with these permutations, in
    pass order (what the passes did to the pack, without the keys)."""
    order = list(codes)
    for perm in perms:
        order = [order[i] for i in perm]
    return tuple(order)


__all__ = [
    "SHARE",
    "SHOW",
    "GroupError",
    "PartyKeys",
    "deck_order",
    "derive_keys",
    "lock_pass",
    "open_card",
    "opens_as",
    "pack_points",
    "pad",
    "party_scalar",
    "product",
    "seal",
    "shared_point",
    "shuffle_pass",
    "unseal",
]
