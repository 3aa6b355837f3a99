"""Ed25519 public key validation, and that a signature under an invalid key never verifies."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola_lan.fairness.identity import Identity, verify_signature
from briscola_lan.fairness.pubkey import (
    InvalidKey,
    add_points,
    check_public_key,
    decode_point,
    encode_point,
    is_valid_public_key,
)

BASE = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
NEUTRAL = bytes.fromhex("01" + "00" * 31)
# The eight points of small order (RFC 8032 curve), as canonical encodings.
SMALL_ORDER = [
    NEUTRAL,
    bytes.fromhex("ec" + "ff" * 30 + "7f"),  # order 2
    bytes(32),  # order 4
    bytes.fromhex("00" * 31 + "80"),  # order 4
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"),
    bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a"),
    bytes.fromhex("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa"),
]


@settings(max_examples=50, deadline=None)
@given(st.binary(min_size=32, max_size=32))
def test_every_generated_key_is_valid_and_round_trips(private: bytes) -> None:
    key = Identity(private).public_key
    assert is_valid_public_key(key)
    assert encode_point(*decode_point(key)) == key


@settings(max_examples=30, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.sampled_from(SMALL_ORDER[1:]))
def test_a_key_plus_a_small_order_point_is_refused(private: bytes, torsion: bytes) -> None:
    key = Identity(private).public_key
    mixed = encode_point(*add_points(decode_point(key), decode_point(torsion)))
    with pytest.raises(InvalidKey, match="mixed-order"):
        check_public_key(mixed)


@pytest.mark.parametrize("key", SMALL_ORDER, ids=lambda k: k.hex()[:8])
def test_small_order_points_are_refused(key: bytes) -> None:
    with pytest.raises(InvalidKey, match="small order"):
        check_public_key(key)


def test_non_canonical_and_off_curve_encodings_are_refused() -> None:
    p = 2**255 - 19
    for y in (p, p + 1, 2**255 - 1):  # y >= p: another encoding of y - p
        with pytest.raises(InvalidKey, match="canonical"):
            check_public_key(y.to_bytes(32, "little"))
    with pytest.raises(InvalidKey, match="canonical"):
        check_public_key(bytes.fromhex("01" + "00" * 30 + "80"))  # x = 0 with the sign bit
    with pytest.raises(InvalidKey, match="not a point"):
        check_public_key((2).to_bytes(32, "little"))
    with pytest.raises(InvalidKey, match="32 bytes"):
        check_public_key(BASE[:31])
    check_public_key(BASE)  # the base point itself has order L


def test_a_universal_signature_under_the_neutral_key_does_not_verify() -> None:
    """OpenSSL accepts (R = s*B, s) for any message under the neutral point as the key."""
    universal = BASE + (1).to_bytes(32, "little")
    assert not verify_signature(NEUTRAL, b"any statement at all", universal)
    assert not verify_signature(NEUTRAL, b"another one", universal)


def _integer_check(key: bytes) -> bool:
    """The definition alone (the pure-integer path, without libsodium's fast verdict)."""
    from briscola_lan.fairness import memo, pubkey

    saved, pubkey._FAST = pubkey._FAST, False
    memo.keep_results(False)  # no verdict kept from libsodium's path
    try:
        return is_valid_public_key(key)
    finally:
        pubkey._FAST = saved
        memo.keep_results(True)


@settings(max_examples=60, deadline=None)
@given(
    st.binary(min_size=32, max_size=32),
    st.sampled_from(SMALL_ORDER),
    st.booleans(),
    st.binary(min_size=32, max_size=32),
)
def test_libsodium_and_the_integer_check_agree(
    private: bytes, torsion: bytes, add: bool, noise: bytes
) -> None:
    """libsodium's verdict (the fast path) is the integer check's on valid keys, keys plus a
    small-order point, small-order points with the sign bit flipped, and random bytes."""
    import nacl.bindings

    key = Identity(private).public_key
    if add:
        key = encode_point(*add_points(decode_point(key), decode_point(torsion)))
    flipped = torsion[:31] + bytes([torsion[31] ^ 0x80])
    for candidate in (key, torsion, flipped, noise):
        assert nacl.bindings.crypto_core_ed25519_is_valid_point(candidate) == _integer_check(
            candidate
        ), candidate.hex()


def test_libsodium_and_the_integer_check_agree_on_the_edges() -> None:
    import json
    from pathlib import Path

    import nacl.bindings

    vectors = json.loads(
        (Path(__file__).resolve().parents[2] / "protocol/vectors/fairness.json").read_text()
    )["vectors"]
    p = 2**255 - 19
    edges = [bytes.fromhex(v["public_key"]) for v in vectors if v["kind"] == "public_key"]
    for y in (p, p + 1, p + 18, 2**255 - 1, 0, 1, 2, p - 1):
        for sign in (0, 1):
            edges.append((y | sign << 255).to_bytes(32, "little"))
    for key in edges:
        assert nacl.bindings.crypto_core_ed25519_is_valid_point(key) == _integer_check(key), (
            key.hex()
        )
