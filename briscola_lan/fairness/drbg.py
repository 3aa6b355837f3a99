"""HMAC_DRBG with SHA-256 (NIST SP 800-90A rev. 1, §10.1.2), the shuffle's only source of bits.

No prediction resistance and no reseeding: one instance produces one deck from one deck seed.
"""

from __future__ import annotations

import hmac

_OUT = 32


class HmacDrbg:
    """Deterministic bit generator; ``generate(n)`` follows SP 800-90A exactly (KAT-tested)."""

    __slots__ = ("_k", "_v")

    def __init__(self, entropy: bytes, nonce: bytes = b"", personalization: bytes = b"") -> None:
        self._k = b"\x00" * _OUT
        self._v = b"\x01" * _OUT
        self._update(entropy + nonce + personalization)

    def _update(self, data: bytes) -> None:
        self._k = hmac.digest(self._k, self._v + b"\x00" + data, "sha256")
        self._v = hmac.digest(self._k, self._v, "sha256")
        if data:
            self._k = hmac.digest(self._k, self._v + b"\x01" + data, "sha256")
            self._v = hmac.digest(self._k, self._v, "sha256")

    def generate(self, n: int, additional: bytes = b"") -> bytes:
        """Return ``n`` pseudo-random bytes (at most 65536 per call, as the standard allows)."""
        if not 0 <= n <= 65536:
            raise ValueError("HMAC_DRBG returns at most 65536 bytes per request")
        if additional:
            self._update(additional)
        out = bytearray()
        while len(out) < n:
            self._v = hmac.digest(self._k, self._v, "sha256")
            out += self._v
        self._update(additional)
        return bytes(out[:n])
