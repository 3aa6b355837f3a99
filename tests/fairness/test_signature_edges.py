"""Ed25519 verification on the edges where libraries disagree (protocol/fairness.md §1.1).

Three verifiers must give the same verdict on every vector of protocol/vectors/fairness.json
(the key vectors and the signature vectors) and on random mutations of good signatures:

- the project's ``verify_signature`` (libsodium through PyNaCl);
- the verifier before it: the key check of ``pubkey`` then OpenSSL (``cryptography``);
- a verifier written from the spec's words alone, in pure Python, below.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import nacl.bindings
import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola_lan.fairness.identity import Identity, verify_signature
from briscola_lan.fairness.pubkey import (
    InvalidKey,
    L,
    P,
    add_points,
    check_public_key,
    decode_point,
    encode_point,
    is_valid_public_key,
    multiply_point,
)

VECTORS = json.loads(
    (Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "fairness.json").read_text()
)["vectors"]
SIGNATURES = [v for v in VECTORS if v["kind"] == "signature"]
KEYS = [v for v in VECTORS if v["kind"] == "public_key"]
BASE = decode_point(bytes.fromhex("58" + "66" * 31))


def spec_verify(public_key: bytes, message: bytes, sig: bytes) -> bool:
    """protocol/fairness.md §1.1, step by step, with nothing but integers and SHA-512."""
    if len(public_key) != 32 or len(sig) != 64:
        return False  # 1. sizes
    try:
        check_public_key(public_key)  # 2. a valid identity key (SPEC.md §5)
    except InvalidKey:
        return False
    s = int.from_bytes(sig[32:], "little")
    if s >= L:
        return False  # 3. S < L
    k = int.from_bytes(hashlib.sha512(sig[:32] + public_key + message).digest(), "little") % L
    ax, ay = decode_point(public_key)
    q = add_points(multiply_point(s, BASE), multiply_point(k, ((P - ax) % P, ay)))
    return encode_point(*q) == sig[:32]  # 4. [S]B - [k]A, encoded, is exactly the bytes of R


def openssl_verify(public_key: bytes, message: bytes, sig: bytes) -> bool:
    """The project's verifier before libsodium: the key check, then OpenSSL."""
    if len(public_key) != 32 or len(sig) != 64 or not is_valid_public_key(public_key):
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(sig, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def libsodium_alone(public_key: bytes, message: bytes, sig: bytes) -> bool:
    try:
        nacl.bindings.crypto_sign_open(sig + message, public_key)
    except Exception:
        return False
    return True


def _h(x: str) -> bytes:
    return bytes.fromhex(x)


@pytest.mark.parametrize("vec", SIGNATURES, ids=lambda v: v["why"][:60])
def test_signature_vectors_get_the_spec_verdict(vec: dict[str, Any]) -> None:
    args = (_h(vec["public_key"]), _h(vec["message"]), _h(vec["signature"]))
    assert verify_signature(*args) is vec["valid"], vec["why"]
    assert spec_verify(*args) is vec["valid"], vec["why"]
    assert openssl_verify(*args) is vec["valid"], vec["why"]  # the verdicts did not change


def test_the_vectors_cover_the_disagreements() -> None:
    """The cases are there because libraries differ on them: a vector set on which OpenSSL and
    libsodium alone agree everywhere would not test the switch from one to the other."""
    why = {v["why"]: v for v in SIGNATURES}
    assert len(SIGNATURES) >= 12
    differ = [
        v
        for v in SIGNATURES
        if libsodium_alone(_h(v["public_key"]), _h(v["message"]), _h(v["signature"])) != v["valid"]
    ]
    assert any("neutral point, canonically encoded" in v["why"] for v in differ)
    assert any(w.startswith("non-canonical S") for w in why)
    assert any(w.startswith("mixed-order R") for w in why)
    openssl_alone = [v for v in SIGNATURES if not v["valid"] and _openssl_alone(v)]
    assert openssl_alone, "some invalid vectors must be ones OpenSSL alone would accept"


def _openssl_alone(v: dict[str, Any]) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(_h(v["public_key"])).verify(
            _h(v["signature"]), _h(v["message"])
        )
    except (InvalidSignature, ValueError):
        return False
    return True


@pytest.mark.parametrize("vec", KEYS, ids=lambda v: v["why"][:40])
def test_key_vectors_through_the_verifier(vec: dict[str, Any]) -> None:
    """Under an invalid key nothing verifies, also signatures libraries accept under it: the
    universal signature (R = s·B, s) for every small-order key, whose k·A vanishes when k is a
    multiple of 8; under a valid key a good signature verifies."""
    key = _h(vec["public_key"])
    msg = b"a statement"
    if vec["valid"]:
        return  # a valid key's signatures need its private key: the signature vectors have one
    for s in range(1, 4):
        universal = encode_point(*multiply_point(s, BASE)) + s.to_bytes(32, "little")
        assert not verify_signature(key, msg, universal), vec["why"]
        assert not spec_verify(key, msg, universal)


@settings(max_examples=40, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.binary(max_size=200),
    st.integers(0, 63),
    st.integers(0, 7),
)
def test_mutated_signatures_get_the_same_verdict_from_all_three(
    seed: bytes, message: bytes, byte: int, bit: int
) -> None:
    key = Identity(seed)
    sig = key.sign(message)
    assert verify_signature(key.public_key, message, sig)
    assert openssl_verify(key.public_key, message, sig)
    bad = bytearray(sig)
    bad[byte] ^= 1 << bit
    verdicts = {
        verify_signature(key.public_key, message, bytes(bad)),
        openssl_verify(key.public_key, message, bytes(bad)),
        spec_verify(key.public_key, message, bytes(bad)),
    }
    assert verdicts == {False}


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.binary(max_size=64), st.integers(1, 15))
def test_non_canonical_s_is_refused(seed: bytes, message: bytes, times: int) -> None:
    key = Identity(seed)
    sig = key.sign(message)
    s = int.from_bytes(sig[32:], "little") + times * L
    if s >= 2**256:
        return
    high = sig[:32] + s.to_bytes(32, "little")
    assert not verify_signature(key.public_key, message, high)
    assert not openssl_verify(key.public_key, message, high)


def test_signing_is_rfc8032_as_before() -> None:
    """libsodium signs the same bytes OpenSSL did (Ed25519 is deterministic): the saved
    vectors' signatures, made before the switch, come out again."""
    for vec in VECTORS:
        if vec["kind"] == "signed_statement":
            key = Identity(_h(vec["private_key"]))
            assert key.sign(_h(vec["body"])).hex() == vec["signature"]
            assert key.public_key.hex() == vec["public_key"]
            assert key.private_bytes() == _h(vec["private_key"])
