"""What partners' signals say: every hand can make exactly its truthful signal, and a signal's
holding is what ``consistent`` accepts."""

from __future__ import annotations

import random

from briscola_lan.rules import ALL_CARDS, Card, Rank, Suit
from briscola_lan.rules.signals import SignalValue, consistent, truthful


def _hands(n: int = 3000) -> list[tuple[tuple[Card, ...], Suit]]:
    rng = random.Random(7)
    out = []
    for _ in range(n):
        size = rng.randint(1, 3)
        out.append((tuple(rng.sample(ALL_CARDS, size)), rng.choice(list(Suit))))
    return out


def test_the_truthful_signal_of_a_hand_is_consistent_with_it() -> None:
    for hand, trump in _hands():
        assert consistent(truthful(hand, trump), hand, trump), (hand, trump)


def test_the_truthful_signal_tells_the_best_thing_held() -> None:
    c = Card
    t = Suit.CUPS
    assert truthful((c(t, Rank.ACE), c(t, Rank.THREE)), t) is SignalValue.ACE_OF_TRUMPS
    assert truthful((c(t, Rank.THREE), c(Suit.COINS, Rank.ACE)), t) is SignalValue.THREE_OF_TRUMPS
    assert truthful((c(t, Rank.JACK),), t) is SignalValue.TRUMP_FIGURE
    assert truthful((c(t, Rank.TWO), c(Suit.SWORDS, Rank.ACE)), t) is SignalValue.SMALL_TRUMP
    assert truthful((c(Suit.SWORDS, Rank.THREE),), t) is SignalValue.CARICO
    assert truthful((c(Suit.SWORDS, Rank.KING), c(Suit.CLUBS, Rank.SEVEN)), t) is (
        SignalValue.NOTHING
    )


def test_consistent_is_what_each_signal_claims() -> None:
    c = Card
    t = Suit.CLUBS
    hand = (c(t, Rank.FOUR), c(Suit.COINS, Rank.ACE), c(Suit.CUPS, Rank.KING))
    says = {v for v in SignalValue if consistent(v, hand, t)}
    assert says == {SignalValue.SMALL_TRUMP, SignalValue.CARICO}
    assert {v for v in SignalValue if consistent(v, (c(Suit.COINS, Rank.TWO),), t)} == {
        SignalValue.NOTHING
    }
