"""Ed25519 public key validation: a canonical encoding of a point of the prime-order subgroup.

``cryptography`` (OpenSSL) accepts any 32 bytes as a public key and decides only when verifying,
and verifiers disagree on small-order and mixed-order keys (for the identity point every
signature ``(R = s·B, s)`` verifies for any message). The protocol therefore accepts an identity
key only when it is *valid* (protocol/SPEC.md §5, hello): the 32 bytes decode per RFC 8032
§5.1.3 with ``y < p`` and no negative zero, the point is on the curve, it is not the neutral
element, and ``L·P`` is the neutral element (P has order exactly L). Pure integer arithmetic
defines it; libsodium's ``crypto_core_ed25519_is_valid_point`` (the same four conditions) gives
the verdict on a valid key about 30x faster, and the integer check the reason for an invalid one.
"""

from __future__ import annotations

from nacl.bindings import crypto_core_ed25519_is_valid_point, has_crypto_core_ed25519

from briscola_lan.fairness.memo import remembered

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the prime order of the base point
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)

_Point = tuple[int, int, int, int]  # extended coordinates (X, Y, Z, T), x = X/Z, y = Y/Z
_NEUTRAL: _Point = (0, 1, 1, 0)
_D2 = 2 * D % P


class InvalidKey(ValueError):
    """32 bytes that are not a valid Ed25519 public key; the message says why."""


def _add(a: _Point, b: _Point) -> _Point:
    """Point addition on the twisted Edwards curve (complete formula of RFC 8032 §5.1.4)."""
    x1, y1, z1, t1 = a
    x2, y2, z2, t2 = b
    aa = (y1 - x1) * (y2 - x2) % P
    bb = (y1 + x1) * (y2 + x2) % P
    cc = t1 * _D2 * t2 % P
    dd = 2 * z1 * z2 % P
    e, f, g, h = bb - aa, dd - cc, dd + cc, bb + aa
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _double(a: _Point) -> _Point:
    """Point doubling (RFC 8032 §5.1.4)."""
    x1, y1, z1, _ = a
    aa = x1 * x1 % P
    bb = y1 * y1 % P
    cc = 2 * z1 * z1 % P
    h = aa + bb
    e = h - (x1 + y1) * (x1 + y1) % P
    g = aa - bb
    f = cc + g
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _times(k: int, pt: _Point) -> _Point:
    """``k·pt`` by double-and-add from the top bit (not constant time: public inputs only)."""
    acc = _NEUTRAL
    for bit in bin(k)[2:]:
        acc = _double(acc)
        if bit == "1":
            acc = _add(acc, pt)
    return acc


def _is_neutral(pt: _Point) -> bool:
    x, y, z, _ = pt
    return x % P == 0 and (y - z) % P == 0


def decode_point(key: bytes) -> tuple[int, int]:
    """The affine point (x, y) 32 bytes encode (RFC 8032 §5.1.3, strictly); else InvalidKey."""
    if len(key) != 32:
        raise InvalidKey(f"an Ed25519 public key is 32 bytes, not {len(key)}")
    n = int.from_bytes(key, "little")
    sign, y = n >> 255, n & ((1 << 255) - 1)
    if y >= P:
        raise InvalidKey("not a canonical encoding (y is not below 2^255 - 19)")
    u = (y * y - 1) % P
    v = (D * y * y + 1) % P
    x = u * pow(v, 3, P) * pow(u * pow(v, 7, P), (P - 5) // 8, P) % P
    vxx = v * x * x % P
    if vxx == (-u) % P:
        x = x * SQRT_M1 % P
    elif vxx != u:
        raise InvalidKey("not a point on the Ed25519 curve")
    if x == 0 and sign:
        raise InvalidKey("not a canonical encoding (negative zero x)")
    if x & 1 != sign:
        x = P - x
    return x, y


def encode_point(x: int, y: int) -> bytes:
    """The 32-byte encoding of the affine point (x, y): y little-endian, the sign of x on top."""
    return ((y % P) | ((x % P) & 1) << 255).to_bytes(32, "little")


def add_points(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The affine sum of two curve points (builds the test vectors' mixed-order key)."""
    x, y, z, _ = _add((*a, 1, a[0] * a[1] % P), (*b, 1, b[0] * b[1] % P))
    zi = pow(z, P - 2, P)
    return x * zi % P, y * zi % P


def multiply_point(k: int, a: tuple[int, int]) -> tuple[int, int]:
    """The affine point ``k·a`` (builds the signature test vectors; not constant time)."""
    x, y, z, _ = _times(k, (*a, 1, a[0] * a[1] % P))
    zi = pow(z, P - 2, P)
    return x * zi % P, y * zi % P


_FAST = has_crypto_core_ed25519  # a libsodium built without it: the integer check alone


def check_public_key(key: bytes) -> None:
    """Raise ``InvalidKey`` unless ``key`` encodes a point of order exactly L (see the module).
    The verdicts are kept per process (``memo``): a table checks a handful of keys again and
    again."""
    problem = _kept_problem(key) if type(key) is bytes else _problem(key)
    if problem is not None:
        raise InvalidKey(problem)


def _problem(key: bytes) -> str | None:
    """Why ``key`` is not a valid public key, or None when it is."""
    if _FAST and len(key) == 32 and crypto_core_ed25519_is_valid_point(key):
        return None  # libsodium found it valid; a key it refuses gets its reason below
    try:
        x, y = decode_point(key)
    except InvalidKey as exc:
        return str(exc)
    pt: _Point = (x, y, 1, x * y % P)
    if _is_neutral(_double(_double(_double(pt)))):
        return "a point of small order (1, 2, 4 or 8), which any signature fits"
    if not _is_neutral(_times(L, pt)):
        return "a mixed-order point (not in the prime-order subgroup)"
    return None


_kept_problem = remembered(1024)(_problem)


def is_valid_public_key(key: bytes) -> bool:
    """Whether ``key`` is a valid Ed25519 public key for this protocol."""
    try:
        check_public_key(key)
    except InvalidKey:
        return False
    return True
