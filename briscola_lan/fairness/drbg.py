"""HMAC_DRBG with SHA-256 (NIST SP 800-90A rev. 1, §10.1.2), the shuffle's only source of bits.

No prediction resistance and no reseeding: one instance produces one deck from one deck seed.
"""

from __future__ import annotations

import hashlib

_OUT = 32
_BLOCK = 64  # SHA-256's block: HMAC pads its key to it (RFC 2104)
_IPAD = bytes(x ^ 0x36 for x in range(256))
_OPAD = bytes(x ^ 0x5C for x in range(256))


class HmacDrbg:
    """Deterministic bit generator; ``generate(n)`` follows SP 800-90A exactly (KAT-tested).

    HMAC is RFC 2104 over ``hashlib.sha256``, with the key's inner and outer hash states made
    once a key: each key K serves up to three HMACs (``generate``'s V, then the update's K and
    V), about a third of the hashing and the per-call set-up of ``hmac.digest`` saved (tested
    against ``hmac.digest``)."""

    __slots__ = ("_inner", "_outer", "_v")

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._key(b"\x00" * _OUT)
        self._v = b"\x01" * _OUT
        self._update(entropy + nonce + personalization)

    def _key(self, k: bytes) -> None:
        """Make ``k`` (32 bytes: shorter than a block, so used as it is) the HMAC key."""
        padded = k + bytes(_BLOCK - len(k))
        self._inner = hashlib.sha256(padded.translate(_IPAD))
        self._outer = hashlib.sha256(padded.translate(_OPAD))

    def _mac(self, message: bytes) -> bytes:
        """HMAC-SHA-256 of ``message`` under the current key."""
        inner = self._inner.copy()
        inner.update(message)
        outer = self._outer.copy()
        outer.update(inner.digest())
        return outer.digest()

    def _update(self, data: bytes) -> None:
        self._key(self._mac(self._v + b"\x00" + data))
        self._v = self._mac(self._v)
        if data:
            self._key(self._mac(self._v + b"\x01" + data))
            self._v = self._mac(self._v)

    def generate(self, n: int, additional: bytes = b"") -> bytes:
        """Return ``n`` pseudo-random bytes (at most 65536 per call, as the standard allows)."""
        if not 0 <= n <= 65536:
            raise ValueError("HMAC_DRBG returns at most 65536 bytes per request")
        if additional:
            self._update(additional)
        out = bytearray()
        while len(out) < n:
            self._v = self._mac(self._v)
            out += self._v
        self._update(additional)
        return bytes(out[:n])
