"""The strong level's own rule-based card against the rules level's, head to head at 2 players.

Every seeded deal is played twice with the seats swapped, each seat choosing every card with
its policy over the compact engine (``own_pick`` or ``rule_pick``), and the end played exactly
once the stock is empty (as the rules bot plays it). The baseline is ``rule_pick`` against
itself on the same deals (an even game: 50%, a difference of 0), run first as a check.

    python benchmarks/bench_policy.py [--deals 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from briscola_lan.ai.fast import FastHand
from briscola_lan.ai.policy import own_pick, rule_pick
from briscola_lan.ai.solver import Solver
from briscola_lan.arena import mean_ci, wilson

Pick = Callable[[list[int], list[int], int, int, int, int, int, int], int]


def play(deck: list[int], dealer: int, picks: tuple[Pick, Pick]) -> int:
    """Seat 0's card points in the hand of ``deck``, seat s playing ``picks[s]``."""
    h = FastHand.deal(deck, dealer, 2)
    while h.to_play >= 0:
        if h.stock_left == 0:
            return h.points[0] + int(Solver(h, 0).value(h))
        s = h.to_play
        h.play(picks[s](h.hands[s], h.trick, h.leader, s, 2, h.trump, h.played, h.stock_left))
    return h.points[0]


def duel(a: Pick, b: Pick, deals: int, seed: int) -> str:
    """A against B over ``deals`` deals, seats swapped: A's share of decided hands and its
    mean point difference a hand, each with its 95% interval."""
    won = lost = 0
    diffs: list[float] = []
    for i in range(deals):
        deck = list(range(40))
        random.Random(f"{seed}:{i}").shuffle(deck)
        first = play(deck, i % 2, (a, b))
        second = 120 - play(deck, i % 2, (b, a))
        for pts in (first, second):
            won += pts > 60
            lost += pts < 60
        diffs.append(float(first + second - 120))  # (A - B) averaged over the two seatings
    p, lo, hi = wilson(won, won + lost)
    m, half = mean_ci(diffs)
    return (
        f"{won}-{lost}, {100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of decided hands, "
        f"{m:+.2f} ± {half:.2f} points a hand"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    for name, a in (
        ("rule_pick vs rule_pick (baseline)", rule_pick),
        ("own_pick vs rule_pick", own_pick),
    ):
        start = time.process_time()
        result = duel(a, rule_pick, args.deals, args.seed)
        print(f"{name}: {result} ({time.process_time() - start:.1f} s CPU)")


if __name__ == "__main__":
    main()
