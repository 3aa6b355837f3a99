"""The DRBG against NIST; the shuffle's exact uniformity (small decks) and quality (full deck)."""

from __future__ import annotations

import hmac
import itertools
import math
import random
from collections import Counter

import pytest

from briscola_lan.fairness.drbg import HmacDrbg
from briscola_lan.fairness.shuffle import fisher_yates, shuffle_codes, uniform_below

# NIST CAVP drbgvectors_no_reseed/HMAC_DRBG.rsp, [SHA-256], PredictionResistance = False,
# EntropyInputLen 256, NonceLen 128, no personalization or additional input, COUNT = 0:
# instantiate, generate 1024 bits (discarded), generate 1024 bits = ReturnedBits.
NIST_ENTROPY = "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488"
NIST_NONCE = "659ba96c601dc69fc902940805ec0ca8"
NIST_RETURNED = (
    "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
    "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
    "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
    "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8"
)


def test_hmac_drbg_nist_vector() -> None:
    d = HmacDrbg(bytes.fromhex(NIST_ENTROPY), bytes.fromhex(NIST_NONCE))
    d.generate(128)
    assert d.generate(128).hex() == NIST_RETURNED


def test_drbg_is_deterministic_and_seed_sensitive() -> None:
    a = HmacDrbg(b"\x01" * 32).generate(64)
    assert a == HmacDrbg(b"\x01" * 32).generate(64)
    assert a != HmacDrbg(b"\x02" * 32).generate(64)


class _PlainDrbg:
    """SP 800-90A §10.1.2 written as the standard reads, with ``hmac.digest``: the reference the
    generator's keyed hash states are checked against."""

    def __init__(self, seed: bytes) -> None:
        self.k, self.v = b"\x00" * 32, b"\x01" * 32
        self.update(seed)

    def update(self, data: bytes) -> None:
        self.k = hmac.digest(self.k, self.v + b"\x00" + data, "sha256")
        self.v = hmac.digest(self.k, self.v, "sha256")
        if data:
            self.k = hmac.digest(self.k, self.v + b"\x01" + data, "sha256")
            self.v = hmac.digest(self.k, self.v, "sha256")

    def generate(self, n: int, additional: bytes) -> bytes:
        if additional:
            self.update(additional)
        out = b""
        while len(out) < n:
            self.v = hmac.digest(self.k, self.v, "sha256")
            out += self.v
        self.update(additional)
        return out[:n]


def test_drbg_agrees_with_the_standard_written_plainly() -> None:
    rng = random.Random(7)
    for _ in range(40):
        entropy, nonce, pers = (rng.randbytes(rng.randrange(0, 80)) for _ in range(3))
        fast, plain = HmacDrbg(entropy, nonce, pers), _PlainDrbg(entropy + nonce + pers)
        for _ in range(12):
            n = rng.choice([0, 1, 4, 31, 32, 33, 100])
            extra = rng.randbytes(rng.choice([0, 0, 5, 70]))
            assert fast.generate(n, extra) == plain.generate(n, extra)


@pytest.mark.parametrize("m", range(1, 41))
def test_rejection_map_is_exact_with_8_bit_words(m: int) -> None:
    """Every 8-bit word value once: each result has the same number of accepted preimages."""
    counts: Counter[int] = Counter()
    rejected = 0
    for w in range(256):
        words = iter([w])
        try:
            counts[uniform_below(m, words.__next__, bits=8)] += 1
        except StopIteration:
            rejected += 1
    assert set(counts) == set(range(m))
    assert len(set(counts.values())) == 1
    assert rejected == 256 % m


def _modulo_below(m: int, word: int) -> int:
    return word % m


def test_plain_modulo_would_be_biased() -> None:
    """The check above fails for plain modulo reduction (256 is not a multiple of 3)."""
    counts = Counter(_modulo_below(3, w) for w in range(256))
    assert len(set(counts.values())) > 1


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_fisher_yates_maps_draws_onto_every_permutation_once(n: int) -> None:
    """Each sequence of exact uniform draws gives a distinct permutation: exact uniformity."""
    ranges = [range(i + 1) for i in range(n - 1, 0, -1)]
    seen = Counter()
    for draws in itertools.product(*ranges):
        it = iter(draws)
        seen[tuple(fisher_yates(range(n), lambda _m, it=it: next(it)))] += 1
    assert len(seen) == math.factorial(n)
    assert set(seen.values()) == {1}


def test_shuffle_draws_stay_in_range() -> None:
    asked: list[int] = []

    def below(m: int) -> int:
        asked.append(m)
        return m - 1

    fisher_yates(range(40), below)
    assert asked == list(range(40, 1, -1))


def test_shuffle_is_a_permutation_and_reproducible() -> None:
    seed = bytes(range(32))
    deck = shuffle_codes(list(range(40)), seed)
    assert sorted(deck) == list(range(40))
    assert deck == shuffle_codes(list(range(40)), seed)
    assert deck != shuffle_codes(list(range(40)), bytes(32))


def test_small_deck_empirical_uniformity() -> None:
    """All 6 orders of a 3-card deck appear about equally over 3000 seeds (chi-square, df=5)."""
    counts = Counter(tuple(shuffle_codes([0, 1, 2], i.to_bytes(32, "big"))) for i in range(3000))
    assert len(counts) == 6
    chi2 = sum((c - 500) ** 2 / 500 for c in counts.values())
    assert chi2 < 20.5  # p ≈ 0.001


def test_card_by_position_chi_square() -> None:
    """Counts of each card at each position over 800 shuffles of 40 cards (df = 39*39)."""
    shuffles = 800
    table = [[0] * 40 for _ in range(40)]
    for i in range(shuffles):
        for pos, card in enumerate(shuffle_codes(list(range(40)), i.to_bytes(32, "big"))):
            table[card][pos] += 1
    expected = shuffles / 40
    chi2 = sum((c - expected) ** 2 / expected for row in table for c in row)
    df = 39 * 39
    # Normal approximation of the chi-square tail: mean df, sd sqrt(2 df); 4.5 sd ~ p 3e-6.
    assert abs(chi2 - df) < 4.5 * math.sqrt(2 * df)
