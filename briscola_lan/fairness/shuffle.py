"""The versioned, integer-only deck shuffle: HMAC_DRBG words, exact rejection, Fisher–Yates.

Shuffle v1 (protocol/fairness.md §4): the DRBG is instantiated with entropy = the deck seed, an
empty nonce and personalization ``"briscola-lan/v1/shuffle"``; for i = n-1 down to 1 it swaps
a[i] with a[j], j uniform in 0..i drawn by ``uniform_below``. Never Python's ``random``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from briscola_lan.fairness.drbg import HmacDrbg
from briscola_lan.rules.cards import Card, deck_for
from briscola_lan.rules.options import TableOptions

SHUFFLE_VERSION = 1
PERSONALIZATION = b"briscola-lan/v1/shuffle"
WORD_BITS = 32


def uniform_below(m: int, next_word: Callable[[], int], bits: int = WORD_BITS) -> int:
    """A uniform integer in ``0..m-1`` from uniform ``bits``-bit words, by exact rejection.

    Words at or above the largest multiple of ``m`` that fits are thrown away, so every result
    has exactly ``(2**bits) // m`` accepted preimages.
    """
    if not 1 <= m <= 1 << bits:
        raise ValueError(f"cannot draw below {m} with {bits}-bit words")
    limit = (1 << bits) - ((1 << bits) % m)
    while True:
        x = next_word()
        if x < limit:
            return x % m


def drbg_words(drbg: HmacDrbg) -> Callable[[], int]:
    """Next 32-bit word: one 4-byte ``generate`` call, big-endian."""
    return lambda: int.from_bytes(drbg.generate(4), "big")


def fisher_yates(items: Sequence[int], below: Callable[[int], int]) -> list[int]:
    """Fisher–Yates from the top: swap position i with a uniform j in 0..i."""
    a = list(items)
    for i in range(len(a) - 1, 0, -1):
        j = below(i + 1)
        a[i], a[j] = a[j], a[i]
    return a


def shuffle_codes(codes: Sequence[int], deck_seed: bytes) -> list[int]:
    """Shuffle v1 of the card codes (the pack in code order) from a 32-byte deck seed."""
    drbg = HmacDrbg(deck_seed, b"", PERSONALIZATION)
    words = drbg_words(drbg)
    return fisher_yates(codes, lambda m: uniform_below(m, words))


def pack_codes(options: TableOptions) -> list[int]:
    """The table's pack in code order: 40 cards, or 39 without the announced 2."""
    return [c.code for c in deck_for(options.players, options.removed_two)]


def deal_deck(options: TableOptions, deck_seed: bytes) -> tuple[Card, ...]:
    """The deck order of a hand (position 0 is dealt first)."""
    return tuple(Card.from_code(c) for c in shuffle_codes(pack_codes(options), deck_seed))
