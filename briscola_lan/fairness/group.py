"""The prime-order Ed25519 group of the blind deal: points, scalars and the 40 card points.

Arithmetic is libsodium's, through PyNaCl's bindings (protocol/fairness.md §11.1): a point is its
32-byte canonical encoding (RFC 8032), a scalar an integer modulo the group order ``L``. Every
point that enters a multiplication is checked by libsodium (canonical, on the curve, in the
prime-order subgroup, not of small order); a product that would be the neutral point is refused.
"""

from __future__ import annotations

from nacl.bindings import (
    crypto_core_ed25519_from_uniform,
    crypto_core_ed25519_is_valid_point,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)
from nacl.exceptions import RuntimeError as NaclRuntimeError

from briscola_lan.fairness.encoding import digest
from briscola_lan.fairness.memo import remembered

L = (1 << 252) + 27742317777372353535851937790883648493  # the order of the group
POINT_SIZE = 32


class GroupError(ValueError):
    """A point that is not a valid group element, or a product that would be neutral."""


def scalar_bytes(k: int) -> bytes:
    """A scalar as 32 bytes, little-endian (it must be 1 .. L-1)."""
    if not 0 < k < L:
        raise GroupError("a scalar must be 1 .. L-1")
    return k.to_bytes(32, "little")


def scalar_of(raw: bytes) -> int | None:
    """The scalar 32 little-endian bytes encode, or None when it is 0 or not below L."""
    if len(raw) != 32:
        return None
    k = int.from_bytes(raw, "little")
    return k if 0 < k < L else None


def inverse(k: int) -> int:
    """The inverse of a scalar modulo L."""
    return pow(k, -1, L)


def is_point(p: bytes) -> bool:
    """Whether ``p`` encodes a valid element: canonical, on the curve, in the prime-order
    subgroup and not the neutral point (nor any other point of small order). Kept per process
    (``memo``)."""
    return type(p) is bytes and _is_point(p)


@remembered()
def _is_point(p: bytes) -> bool:
    return len(p) == POINT_SIZE and bool(crypto_core_ed25519_is_valid_point(p))


def mult(k: int, p: bytes) -> bytes:
    """``k·p``; raises GroupError for an invalid point. Kept per process (``memo``)."""
    if type(p) is not bytes:
        raise GroupError("not a valid group element: a point is 32 bytes")
    return _mult(k, p)


@remembered()
def _mult(k: int, p: bytes) -> bytes:
    try:
        out: bytes = crypto_scalarmult_ed25519_noclamp(scalar_bytes(k), p)
    except (NaclRuntimeError, TypeError, ValueError) as exc:
        raise GroupError(f"not a valid group element: {exc}") from exc
    return out


@remembered()
def base(k: int) -> bytes:
    """``k·B``, B the standard base point of Ed25519. Kept per process (``memo``)."""
    out: bytes = crypto_scalarmult_ed25519_base_noclamp(scalar_bytes(k))
    return out


def hash_to_point(uniform: bytes) -> bytes:
    """Elligator 2 of 32 uniform bytes, cofactor cleared (libsodium's ``from_uniform``)."""
    out: bytes = crypto_core_ed25519_from_uniform(uniform)
    return out


def card_point(code: int) -> bytes:
    """The group element of a card: ``hash_to_point(H("card-point", u32(code)))`` (§11.1)."""
    return hash_to_point(digest("card-point", code))


CARD_POINTS: tuple[bytes, ...] = tuple(card_point(code) for code in range(40))
_CODE_OF: dict[bytes, int] = {p: code for code, p in enumerate(CARD_POINTS)}
if len(_CODE_OF) != 40 or not all(is_point(p) for p in CARD_POINTS):  # pragma: no cover
    raise RuntimeError("the card points are not 40 distinct group elements")


def code_of_point(p: bytes) -> int | None:
    """The card whose point ``p`` is, or None."""
    return _CODE_OF.get(p)


__all__ = [
    "CARD_POINTS",
    "POINT_SIZE",
    "GroupError",
    "L",
    "base",
    "card_point",
    "code_of_point",
    "hash_to_point",
    "inverse",
    "is_point",
    "mult",
    "scalar_bytes",
    "scalar_of",
]
