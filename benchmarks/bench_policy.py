"""The strong level's own rule-based card against the rules level's, head to head.

At 2 players every seeded deal is played twice with the seats swapped, each seat choosing every
card with its policy over the compact engine (``own_pick`` or ``rule_pick``), the end played
exactly once the stock is empty (as the rules bot plays it). The baseline is ``rule_pick``
against itself on the same deals (an even game: 50%, a difference of 0), run first as a check.
Then ``own_pick`` against ``rule_pick``, and against ``thrown_points_pick``, its first change
alone (the points it would throw on a lost trick count towards trumping it): what its second
change adds (a trick worth nothing left to the opponent rather than taken with a worthless card).

``--players 3 4``: why ``own_pick`` is ``rule_pick`` there. The same change (the points the
last seat would throw on a trick an opponent is winning count towards trumping it) is played by
one side (at 3 players one seat, in turn at each seat; at 4 one partnership, then the other)
against ``rule_pick``; its mean point difference a hand (the side minus the mean of the others).

    python benchmarks/bench_policy.py [--deals 20000] [--seed 1] [--players 2 3 4]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

from briscola_lan.ai.fast import BEATS, POINTS, SUIT, FastHand
from briscola_lan.ai.policy import DUMP_COST, _trump_threshold, own_pick, rule_pick
from briscola_lan.ai.solver import Solver
from briscola_lan.arena import mean_ci, wilson
from briscola_lan.rules import deck_for

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


def every_size_pick(
    hand: list[int],
    trick: list[int],
    leader: int,
    seat: int,
    players: int,
    trump: int,
    played: int,
    stock_left: int,
) -> int:
    """``own_pick``'s change at any table size: the last seat, about to throw points on a
    trick an opponent is winning, counts them towards trumping it."""
    card = rule_pick(hand, trick, leader, seat, players, trump, played, stock_left)
    if len(trick) != players - 1 or SUIT[card] == trump or POINTS[card] == 0:
        return card
    beats = BEATS[trump]
    best, bi, tp = trick[0], 0, 0
    for i, c in enumerate(trick):
        tp += POINTS[c]
        if i and beats[best * 40 + c]:
            best, bi = c, i
    if beats[best * 40 + card] or (players == 4 and (leader + bi - seat) % 2 == 0):
        return card
    trumps = [c for c in hand if SUIT[c] == trump and beats[best * 40 + c]]
    if trumps:
        cheap = min(trumps, key=DUMP_COST[trump].__getitem__)
        if tp + POINTS[cheap] + POINTS[card] >= _trump_threshold(cheap, stock_left):
            return cheap
    return card


def thrown_points_pick(
    hand: list[int],
    trick: list[int],
    leader: int,
    seat: int,
    players: int,
    trump: int,
    played: int,
    stock_left: int,
) -> int:
    """``own_pick`` without its second change: at 2 players, the points the follower would
    throw on a trick it loses count towards trumping it; a worthless trick is taken as the
    rules take it."""
    card = rule_pick(hand, trick, leader, seat, players, trump, played, stock_left)
    if players != 2 or not trick or SUIT[card] == trump or POINTS[card] == 0:
        return card
    beats = BEATS[trump]
    led = trick[0]
    if beats[led * 40 + card]:
        return card
    trumps = [c for c in hand if SUIT[c] == trump and beats[led * 40 + c]]
    if trumps:
        cheap = min(trumps, key=DUMP_COST[trump].__getitem__)
        if POINTS[led] + POINTS[cheap] + POINTS[card] >= _trump_threshold(cheap, stock_left):
            return cheap
    return card


def table(players: int, deals: int, seed: int) -> str:
    """``every_size_pick`` for one side against ``rule_pick`` at 3 or 4 players."""
    codes = [c.code for c in deck_for(players)]
    diffs: list[float] = []
    for i in range(deals):
        deck = codes[:]
        random.Random(f"{seed}:{players}:{i}").shuffle(deck)
        total = 0.0
        sides = range(players if players == 3 else 2)
        for side in sides:
            h = FastHand.deal(deck, i % players, players)
            while h.to_play >= 0:
                s = h.to_play
                pick = every_size_pick if h.sides[s] == side else rule_pick
                h.play(pick(h.hands[s], h.trick, h.leader, s, players, h.trump, h.played,
                            h.stock_left))  # fmt: skip
            others = [p for x, p in enumerate(h.points) if x != side]
            total += h.points[side] - sum(others) / len(others)
        diffs.append(total / len(sides))
    m, half = mean_ci(diffs)
    return f"{m:+.2f} ± {half:.2f} points a hand"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, nargs="+", default=[2], choices=(2, 3, 4))
    args = parser.parse_args()
    for n in args.players:
        if n == 2:
            for name, a, b in (
                ("rule_pick vs rule_pick (baseline)", rule_pick, rule_pick),
                ("own_pick vs rule_pick", own_pick, rule_pick),
                ("thrown_points_pick vs rule_pick", thrown_points_pick, rule_pick),
                ("own_pick vs thrown_points_pick", own_pick, thrown_points_pick),
            ):
                start = time.process_time()
                result = duel(a, b, args.deals, args.seed)
                print(f"2 players, {name}: {result} ({time.process_time() - start:.1f} s CPU)")
        else:
            start = time.process_time()
            result = table(n, args.deals, args.seed)
            print(
                f"{n} players, the change at every table size vs rule_pick: {result} "
                f"({time.process_time() - start:.1f} s CPU)"
            )


if __name__ == "__main__":
    main()
