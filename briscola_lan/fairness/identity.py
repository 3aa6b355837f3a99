"""Ed25519 player identities: created on first use in the config dir, short fingerprints, checks.

The key file is ``$XDG_CONFIG_HOME/briscola-lan/identity.key`` (or ``~/.config/...``), the raw
32-byte private key, mode 0600; it is read and created by ``briscola_lan.net.files`` (this layer
does no I/O). A fingerprint is the first 8 bytes of SHA-256 of the public key.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from briscola_lan.fairness.pubkey import check_public_key

KEY_FILE = "identity.key"


class IdentityError(Exception):
    """The identity key file cannot be read or created."""


class Identity:
    """An Ed25519 key pair that signs this player's statements."""

    __slots__ = ("_key", "public_key")

    def __init__(self, private_bytes: bytes) -> None:
        if len(private_bytes) != 32:
            raise IdentityError("an Ed25519 private key is exactly 32 bytes")
        self._key = Ed25519PrivateKey.from_private_bytes(private_bytes)
        self.public_key: bytes = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)

    @classmethod
    def generate(cls, entropy: bytes | None = None) -> Identity:
        """A new identity; ``entropy`` (32 bytes) makes it reproducible for tests and AI seats."""
        return cls(entropy if entropy is not None else os.urandom(32))

    def private_bytes(self) -> bytes:
        from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def sign(self, body: bytes) -> bytes:
        return self._key.sign(body)

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


_KEYS: dict[bytes, Ed25519PublicKey] = {}  # parsed public keys: a table has a handful
_MAX_KEYS = 1024


def _public_key(public_key: bytes) -> Ed25519PublicKey:
    key = _KEYS.get(public_key)
    if key is None:
        check_public_key(public_key)  # InvalidKey (a ValueError): OpenSSL takes any 32 bytes
        key = Ed25519PublicKey.from_public_bytes(public_key)
        if len(_KEYS) >= _MAX_KEYS:
            _KEYS.clear()
        _KEYS[bytes(public_key)] = key
    return key


def verify_signature(public_key: bytes, body: bytes, sig: bytes) -> bool:
    """Whether ``sig`` is a valid Ed25519 signature of exactly ``body`` by ``public_key``.

    A key that is not valid (``pubkey.check_public_key``: small or mixed order, non-canonical)
    verifies nothing, so every verifier written from the spec agrees on every signature.
    """
    if len(public_key) != 32 or len(sig) != 64:
        return False
    try:
        _public_key(public_key).verify(sig, body)
    except (InvalidSignature, ValueError):
        return False
    return True


def config_dir() -> Path:
    """``$XDG_CONFIG_HOME/briscola-lan`` or ``~/.config/briscola-lan``: where the key is kept."""
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "briscola-lan"
