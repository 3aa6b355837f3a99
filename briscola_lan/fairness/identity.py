"""Ed25519 player identities: created on first use in the config dir, short fingerprints, checks.

The key file is ``$XDG_CONFIG_HOME/briscola-lan/identity.key`` (or ``~/.config/...``), the raw
32-byte private key, mode 0600; it is read and created by ``briscola_lan.net.files`` (this layer
does no I/O). A fingerprint is the first 8 bytes of SHA-256 of the public key.

Signing and verifying go through libsodium (PyNaCl), about 1.5x faster than OpenSSL
(``cryptography``) here for both (benchmarks/bench_ed25519.py, docs/architecture.md), called
through PyNaCl's own cffi module with one buffer a thread (``nacl.bindings`` allocates two a
call: as much as a third of a short statement's signing). The verdict
is the one protocol/fairness.md §1.1 defines, whichever library computes it: see
``verify_signature``.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

from nacl._sodium import (  # type: ignore[import-not-found]  # what nacl.bindings calls
    ffi,
    lib,
)
from nacl.bindings import crypto_sign_seed_keypair

from briscola_lan.fairness.memo import remembered
from briscola_lan.fairness.pubkey import check_public_key

BACKEND = "libsodium (PyNaCl)"  # what signs and verifies (the benchmarks print it)
KEY_FILE = "identity.key"


class IdentityError(Exception):
    """The identity key file cannot be read or created."""


class Identity:
    """An Ed25519 key pair that signs this player's statements."""

    __slots__ = ("_secret", "_seed", "public_key")

    def __init__(self, private_bytes: bytes) -> None:
        if len(private_bytes) != 32:
            raise IdentityError("an Ed25519 private key is exactly 32 bytes")
        self._seed = bytes(private_bytes)  # RFC 8032's private key: the 32-byte seed
        public, self._secret = crypto_sign_seed_keypair(self._seed)  # libsodium: seed || public
        self.public_key: bytes = public

    @classmethod
    def generate(cls, entropy: bytes | None = None) -> Identity:
        """A new identity; ``entropy`` (32 bytes) makes it reproducible for tests and AI seats."""
        return cls(entropy if entropy is not None else os.urandom(32))

    def private_bytes(self) -> bytes:
        return self._seed

    def sign(self, body: bytes) -> bytes:
        """The 64-byte Ed25519 signature of exactly ``body`` (deterministic, RFC 8032)."""
        out = _buffer(len(body))
        if lib.crypto_sign(out, ffi.NULL, body, len(body), self._secret) != 0:
            raise RuntimeError("libsodium could not sign")  # never with a valid secret key
        sig: bytes = ffi.buffer(out, 64)[:]
        return sig

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def __reduce__(self) -> tuple[type[Identity], tuple[bytes]]:
        return (Identity, (self.private_bytes(),))

    def __repr__(self) -> str:
        return f"Identity({self.fingerprint})"


def fingerprint(public_key: bytes) -> str:
    """Short human fingerprint, e.g. ``3f2a-91c0-77de-0b14``."""
    h = hashlib.sha256(public_key).hexdigest()[:16]
    return "-".join(h[i : i + 4] for i in range(0, 16, 4))


_buffers = threading.local()  # each thread's buffer for libsodium's signed message


def _buffer(size: int) -> object:
    """This thread's buffer for a signature and a ``size``-byte message (``nacl.bindings``
    allocates one a call: as much as the signature's own arithmetic for a short statement)."""
    buf = getattr(_buffers, "buf", None)
    if buf is None or len(buf) < size + 64:
        buf = _buffers.buf = ffi.new("unsigned char[]", max(size + 64, 4096))
    return buf


# R = the neutral element, canonically encoded: the one small-order R a valid key can pass with.
_NEUTRAL_R = b"\x01" + bytes(31)


def verify_signature(public_key: bytes, body: bytes, sig: bytes) -> bool:
    """Whether ``sig`` is a valid Ed25519 signature of exactly ``body`` by ``public_key``, as
    protocol/fairness.md §1.1 defines it (RFC 8032 §5.1.7, the cofactorless equation, S < L).

    A key that is not valid (``pubkey.check_public_key``: small or mixed order, non-canonical)
    verifies nothing, so every verifier written from the spec agrees on every signature.
    libsodium refuses a small-order R before it computes anything, where RFC 8032 (and OpenSSL,
    which this project used before) only asks whether the equation holds; under a valid key
    the only such R that can satisfy it is the neutral element (R must equal [S]B - [k]A, a
    point of the prime-order subgroup), so that one input is decided by OpenSSL as before.

    The verdicts are kept per process (``memo``): the same three byte strings get the same
    verdict without checking again.
    """
    if type(body) is bytes and len(body) <= BODY_KEPT and type(public_key) is type(sig) is bytes:
        return _kept_verdict(public_key, body, sig)
    return _verdict(public_key, body, sig)


def _verdict(public_key: bytes, body: bytes, sig: bytes) -> bool:
    if len(public_key) != 32 or len(sig) != 64:
        return False
    try:
        check_public_key(public_key)  # cached after the first time; InvalidKey is a ValueError
    except ValueError:
        return False
    signed = sig + body  # libsodium's crypto_sign_open: the same check as verify_detached
    if lib.crypto_sign_open(_buffer(len(body)), ffi.NULL, signed, len(signed), public_key) != 0:
        return sig[:32] == _NEUTRAL_R and _verify_openssl(public_key, body, sig)
    return True


# The last verdicts kept, of statements up to BODY_KEPT bytes: the largest the protocol makes is
# a blind lock of about 4.6 KB, and a peer sending larger ones (a frame is up to 64 KiB) cannot
# make the process keep more than about 8 MB of them.
VERDICTS_KEPT = 1024
BODY_KEPT = 8192
_kept_verdict = remembered(VERDICTS_KEPT)(_verdict)


def _verify_openssl(public_key: bytes, body: bytes, sig: bytes) -> bool:
    """OpenSSL's verdict (``cryptography``), for the input libsodium refuses by policy alone."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(sig, body)
    except (InvalidSignature, ValueError):
        return False
    return True


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/briscola-lan`` or ``~/.config/briscola-lan``: where the key is kept."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "briscola-lan"
