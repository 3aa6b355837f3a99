"""Fit ``held_cards``' weights (``ai/leaf.py``) on solved positions, and measure its error.

    python benchmarks/fit_leaf.py [--positions 12000] [--seed 1] [--jobs 2]

Each position is a 2-player hand dealt from its own seed (``--seed`` times 1,000,000 plus its
number) and played by the rules policy (a random legal card one time in four, so that the hands
vary) to the start of a trick with an even number of cards from 2 to 22 in the stock
(``ai/leaf.py``, ``played_to``: the leaves a 6-trick horizon search reaches from 14 to 32 cards
in the stock, where the review searches that way), then solved
exactly to the end (``ai/solver.py``): the points each side takes from there. Each position
counts once for each side. The weights are fitted by least squares on four positions in five
(the target: a side's points from there less half of what is left); printed: the weights
(``HELD_WEIGHTS``), and on the fifth left out, the root mean square error of the even split,
of the fitted weights and of the shipped ones (``HELD_WEIGHTS``), overall and by cards in the
stock. ``bench_coach.py --horizon`` compares the coach's early search with each leaf on the
evaluator's deals (docs/ai.md).
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from briscola_lan.ai.fast import POINTS
from briscola_lan.ai.leaf import FIT_STOCKS, HELD_WEIGHTS, held_features, played_to
from briscola_lan.ai.solver import Solver

# (side's hand mask, the other's, trump, the side leads, points left, side's points from there)
Row = tuple[int, int, int, bool, int, int]


def position(seed: int) -> tuple[Row, Row, int]:
    """One position solved: its row for each side, and the cards in the stock."""
    h = played_to(random.Random(seed))
    v0 = int(Solver(h, 0).value(h))
    masks = [sum(1 << c for c in hand) for hand in h.hands]
    rem = sum(POINTS[c] for c in h.stock[h.si :]) + sum(POINTS[c] for x in h.hands for c in x)
    rows = tuple(
        (masks[s], masks[1 - s], h.trump, h.leader == s, rem, v0 if s == 0 else rem - v0)
        for s in (0, 1)
    )
    return rows[0], rows[1], h.stock_left


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c]:
                k = m[r][c] / m[c][c]
                m[r] = [x - k * y for x, y in zip(m[r], m[c], strict=True)]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows: list[Row]) -> list[float]:
    """Least-squares weights of ``held_features`` for a side's points over half of what is left."""
    xs = [held_features(me, other, trump, leads) for me, other, trump, leads, _, _ in rows]
    ys = [v - rem / 2 for *_, rem, v in rows]
    k = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    b = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(k)]
    return _solve(a, b)


def predict(weights: list[float] | tuple[float, ...], row: Row) -> float:
    me, other, trump, leads, rem, _ = row
    f = held_features(me, other, trump, leads)
    v = rem / 2 + sum(w * x for w, x in zip(weights, f, strict=True))
    return min(max(v, 0.0), float(rem))


def rmse(errors: list[float]) -> float:
    return math.sqrt(sum(e * e for e in errors) / len(errors)) if errors else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if args.positions < 50:
        ap.error("--positions: at least 50 (four in five fitted, the fifth left out to measure)")
    if args.jobs < 1:
        ap.error("--jobs: at least 1")
    start = time.perf_counter()
    seeds = range(args.seed * 1_000_000, args.seed * 1_000_000 + args.positions)
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        solved = pool.map(position, seeds, chunksize=50)
    print(f"{len(solved)} positions solved in {time.perf_counter() - start:.0f} s")
    test = [p for i, p in enumerate(solved) if i % 5 == 0]
    train = [p for i, p in enumerate(solved) if i % 5]
    weights = fit([row for a, b, _ in train for row in (a, b)])
    print("weights:", "(" + ", ".join(f"{w:.3f}" for w in weights) + ")")
    print(f"shipped: {HELD_WEIGHTS}")
    head = f"{'stock':>6} {'rows':>6} {'even split':>11} {'fitted':>8} {'shipped':>8}"
    print(head + "   RMSE, points")
    for stock in (None, *FIT_STOCKS):
        rows = [r for a, b, s in test if stock in (None, s) for r in (a, b)]
        even = rmse([r[4] / 2 - r[5] for r in rows])
        fitted = rmse([predict(weights, r) - r[5] for r in rows])
        shipped = rmse([predict(HELD_WEIGHTS, r) - r[5] for r in rows])
        name = "all" if stock is None else str(stock)
        print(f"{name:>6} {len(rows):>6} {even:>11.2f} {fitted:>8.2f} {shipped:>8.2f}")


if __name__ == "__main__":
    main()
