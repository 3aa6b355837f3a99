"""Complete random hands per second on one core: the compact engine against the rules engine.

Both engines play the same pre-shuffled decks with uniformly random cards; the rules engine
(``rules.Hand`` driven through its public API) is the baseline measured in the same run.
Also prints hands/s with the deck shuffle included, and rule-policy playouts (used by search).

    python benchmarks/bench_playouts.py [--seconds 2]
"""

from __future__ import annotations

import argparse
import random
import time

from briscola_lan.ai.fast import FastHand, random_hand
from briscola_lan.ai.policy import rules_playout
from briscola_lan.rules import Hand, TableOptions, deck_for


def _rate(step: object, seconds: float) -> float:
    """Calls of ``step(i)`` per second, measured for about ``seconds``."""
    assert callable(step)
    count = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(50):
            step(count)
            count += 1
        now = time.perf_counter()
        if now >= deadline:
            return count / (now - start)


def measure(players: int, seconds: float) -> tuple[float, float, float, float]:
    """(rules engine, compact, compact with shuffle, rule playouts) complete hands/s."""
    fmt = "points" if players == 3 else "hands"
    options = TableOptions.make(players=players, match_format=fmt)
    rng = random.Random(players)
    cards = list(deck_for(players))
    decks = []
    for _ in range(512):
        rng.shuffle(cards)
        decks.append(list(cards))
    codes = [[c.code for c in d] for d in decks]
    deck = [c.code for c in cards]
    r = rng.random

    def rules_engine(i: int) -> None:
        hand = Hand(options, decks[i & 511], i % players)
        while not hand.is_terminal:
            legal = hand.legal_plays()
            hand.play(hand.to_play, legal[int(r() * len(legal))])  # type: ignore[arg-type]

    def compact(i: int) -> None:
        random_hand(codes[i & 511], i % players, players, r)

    def compact_shuffle(i: int) -> None:
        rng.shuffle(deck)
        random_hand(deck, i % players, players, r)

    def rule_playout(i: int) -> None:
        rules_playout(FastHand.deal(codes[i & 511], i % players, players))

    return (
        _rate(rules_engine, seconds),
        _rate(compact, seconds),
        _rate(compact_shuffle, seconds),
        _rate(rule_playout, seconds),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per measurement")
    args = parser.parse_args()
    print(
        f"{'players':>7} {'rules engine':>14} {'compact':>12} {'ratio':>7} "
        f"{'compact+shuffle':>16} {'rule playouts':>14}   (complete hands/s, one core)"
    )
    for players in (2, 3, 4):
        base, fast, shuf, pol = measure(players, args.seconds)
        print(
            f"{players:>7} {base:>14,.0f} {fast:>12,.0f} {fast / base:>6.1f}x {shuf:>16,.0f} "
            f"{pol:>14,.0f}"
        )


if __name__ == "__main__":
    main()
