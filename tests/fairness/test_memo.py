"""The fairness code's costly pure results kept per process: a scalar product, a point's check
and a signature's verdict are computed once for the same bytes, every different input is
computed afresh, an invalid one is refused every time, and the results kept are bounded."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from nacl.bindings import (
    crypto_core_ed25519_is_valid_point,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)

from briscola_lan.fairness import group, identity, memo
from briscola_lan.fairness.group import CARD_POINTS, GroupError, L, base, is_point, mult
from briscola_lan.fairness.identity import Identity, verify_signature

# Points that are not group elements: the neutral point, a point of order 8, and a y not
# below the field's prime (not canonical).
NEUTRAL = (1).to_bytes(32, "little")
ORDER_8 = bytes.fromhex("26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05")
NOT_CANONICAL = ((1 << 255) - 19 + 1).to_bytes(32, "little")
INVALID = [NEUTRAL, ORDER_8, NOT_CANONICAL, bytes(31), bytes(33)]


class Counting:
    """A library function, counting its calls."""

    def __init__(self, fn: Callable[..., Any]) -> None:
        self.fn, self.calls = fn, 0

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.fn(*args)


class CountingLib:
    """libsodium's cffi module as ``identity`` calls it, counting its signature checks."""

    def __init__(self, lib: Any) -> None:
        self.lib = lib
        self.crypto_sign_open = Counting(lib.crypto_sign_open)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.lib, name)


class Calls:
    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.mult = Counting(crypto_scalarmult_ed25519_noclamp)
        self.base = Counting(crypto_scalarmult_ed25519_base_noclamp)
        self.point = Counting(crypto_core_ed25519_is_valid_point)
        self.lib = CountingLib(identity.lib)
        monkeypatch.setattr(group, "crypto_scalarmult_ed25519_noclamp", self.mult)
        monkeypatch.setattr(group, "crypto_scalarmult_ed25519_base_noclamp", self.base)
        monkeypatch.setattr(group, "crypto_core_ed25519_is_valid_point", self.point)
        monkeypatch.setattr(identity, "lib", self.lib)

    @property
    def verdicts(self) -> int:
        return self.lib.crypto_sign_open.calls


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> Iterator[Calls]:
    """Counts what libsodium computes, with nothing kept from before."""
    counted = Calls(monkeypatch)
    memo.keep_results(True)
    yield counted
    memo.keep_results(True)


def test_a_product_is_libsodiums_and_computed_once(calls: Calls) -> None:
    k = 0x1234567890ABCDEF1234567890ABCDEF
    want = crypto_scalarmult_ed25519_noclamp(k.to_bytes(32, "little"), CARD_POINTS[7])
    assert mult(k, CARD_POINTS[7]) == want
    assert mult(k, CARD_POINTS[7]) == want
    assert calls.mult.calls == 1
    assert mult(k + 1, CARD_POINTS[7]) != want  # another scalar, another product
    assert mult(k, CARD_POINTS[8]) != want  # another point, another product
    assert calls.mult.calls == 3
    assert base(k) == base(k) == crypto_scalarmult_ed25519_base_noclamp(k.to_bytes(32, "little"))
    assert calls.base.calls == 1


def test_a_points_check_is_made_once(calls: Calls) -> None:
    assert is_point(CARD_POINTS[3]) and is_point(CARD_POINTS[3])
    assert calls.point.calls == 1
    for p in INVALID[:3]:
        assert not is_point(p) and not is_point(p)
    assert calls.point.calls == 4  # the same bytes get the same answer, valid or not


@pytest.mark.parametrize("point", [bytearray(CARD_POINTS[0]), memoryview(CARD_POINTS[0]), None])
def test_a_point_that_is_not_bytes_is_no_point(calls: Calls, point: object) -> None:
    assert not is_point(point)  # type: ignore[arg-type]
    with pytest.raises(GroupError):
        mult(3, point)  # type: ignore[arg-type]


def test_a_signatures_verdict_is_made_once_for_exactly_the_same_bytes(calls: Calls) -> None:
    alice, bob = Identity.generate(bytes(32)), Identity.generate(bytes([1]) * 32)
    body = b"a statement signed by alice"
    sig = alice.sign(body)
    assert verify_signature(alice.public_key, body, sig)
    assert verify_signature(alice.public_key, body, sig)
    assert calls.verdicts == 1
    edited = bytes([body[0] ^ 1]) + body[1:]
    forged = bytes([sig[0] ^ 1]) + sig[1:]
    for _ in range(2):  # each different input is judged on its own, every time the same
        assert not verify_signature(alice.public_key, edited, sig)
        assert not verify_signature(alice.public_key, body, forged)
        assert not verify_signature(bob.public_key, body, sig)
    assert calls.verdicts == 4
    assert verify_signature(alice.public_key, bytearray(body), sig)  # judged, not kept
    assert not verify_signature(alice.public_key, memoryview(edited), sig)
    assert calls.verdicts == 6


def test_without_keeping_everything_is_computed_afresh(calls: Calls) -> None:
    memo.keep_results(False)
    alice = Identity.generate(bytes(32))
    sig = alice.sign(b"x")
    for _ in range(2):
        assert mult(5, CARD_POINTS[0]) == mult(5, CARD_POINTS[0])
        assert base(5) == base(5)
        assert is_point(CARD_POINTS[1])
        assert verify_signature(alice.public_key, b"x", sig)
    assert (calls.mult.calls, calls.base.calls, calls.point.calls, calls.verdicts) == (4, 4, 2, 2)


@pytest.mark.parametrize("point", INVALID)
def test_an_invalid_point_is_refused_each_time(calls: Calls, point: bytes) -> None:
    for _ in range(3):
        with pytest.raises(GroupError):
            mult(3, point)
    assert calls.mult.calls == 3  # a refusal is never kept: each time is checked by libsodium


@pytest.mark.parametrize("k", [0, L, -1])
def test_a_scalar_out_of_range_is_refused_each_time(calls: Calls, k: int) -> None:
    for _ in range(2):
        with pytest.raises(GroupError):
            mult(k, CARD_POINTS[0])
        with pytest.raises(GroupError):
            base(k)


def test_the_results_kept_are_bounded(calls: Calls) -> None:
    for k in range(1, memo.KEPT + 2):
        mult(k, CARD_POINTS[0])
    assert group._mult.cache_info().currsize == memo.KEPT  # type: ignore[attr-defined]
    mult(1, CARD_POINTS[0])  # the oldest was let go: computed again
    assert calls.mult.calls == memo.KEPT + 2


def test_the_verdicts_kept_are_bounded_in_number_and_size(calls: Calls) -> None:
    """A peer sending large statements cannot make the process keep more than a few MB."""
    alice = Identity.generate(bytes(32))
    big = bytes(identity.BODY_KEPT + 1)
    sig = alice.sign(big)
    assert verify_signature(alice.public_key, big, sig)
    assert verify_signature(alice.public_key, big, sig)
    assert calls.verdicts == 2  # too large to keep: checked each time
    bodies = [k.to_bytes(2, "big") for k in range(identity.VERDICTS_KEPT + 1)]
    for body in bodies:
        assert not verify_signature(alice.public_key, body, sig)
    assert identity._kept_verdict.cache_info().currsize == identity.VERDICTS_KEPT  # type: ignore[attr-defined]
    assert not verify_signature(alice.public_key, bodies[0], sig)  # the oldest was let go
    assert calls.verdicts == 2 + identity.VERDICTS_KEPT + 2


def test_a_public_keys_check_is_made_once_and_its_reason_given_each_time(
    monkeypatch: pytest.MonkeyPatch, calls: Calls
) -> None:
    from briscola_lan.fairness import pubkey

    checks = Counting(crypto_core_ed25519_is_valid_point)
    monkeypatch.setattr(pubkey, "crypto_core_ed25519_is_valid_point", checks)
    alice = Identity.generate(bytes([7]) * 32)
    for _ in range(3):
        pubkey.check_public_key(alice.public_key)
        with pytest.raises(pubkey.InvalidKey, match="small order"):
            pubkey.check_public_key(ORDER_8)
        with pytest.raises(pubkey.InvalidKey, match="32 bytes"):
            pubkey.check_public_key(bytearray(31))  # not bytes: judged, not kept
    assert checks.calls == 2
