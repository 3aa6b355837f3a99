"""What each card a seat may play is worth, with how sure that figure is.

``Evaluation`` holds, for every legal card, the points the seat's side ends the hand with in each
sample (a determinization, or a deal of an exact enumeration), so that any two cards compare on
the same samples: a card's cost is the best card's mean minus its own, and the noise of that
cost is the 95% half-width of the paired difference (zero when every deal was solved), with
Student's t quantile for the number of samples (``t95``): a few deals early in the hand give a
wide margin, as they should.

``evaluate`` is the honest yardstick: the hidden cards dealt uniformly in every way consistent
with what the seat knows (each way, once few remain; else a uniform sample of them), each deal
solved exactly to the end of the hand (``ai/solver.py``). It judges a play only by what the seat
could see, never by the cards it could not.
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from briscola_lan.ai.fast import FastHand
from briscola_lan.ai.infer import Knowledge
from briscola_lan.ai.leaf import LeafModel
from briscola_lan.ai.solver import EXACT, Solver
from briscola_lan.rules import SeatView

Z95 = 1.96  # the normal 95% quantile: Student's t's with many samples
# Student's t two-sided 95% quantiles (the 0.975 point) for 1 to 9 degrees of freedom.
_T95 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622)


def t95(df: float) -> float:
    """The two-sided 95% quantile of Student's t with ``df`` degrees of freedom (any real
    ``df``; infinite below 1): the table for 1 to 9, the Cornish-Fisher expansion around the
    normal quantile from 10 (within 1e-5 of the exact value there), and between two whole
    numbers below 10 linear in 1/df (never below the exact value, within 0.2% from 4)."""
    if df < 1.0:
        return math.inf
    if df >= 10.0:
        z, v = 1.959963984540054, df
        return (
            z
            + (z**3 + z) / (4 * v)
            + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * v**2)
            + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * v**3)
            + (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / (92160 * v**4)
        )
    lo = math.floor(df)
    if lo == df:
        return _T95[lo - 1]
    a, b = _T95[lo - 1], (_T95[lo] if lo < 9 else t95(10.0))
    return a + (b - a) * (1 / lo - 1 / df) / (1 / lo - 1 / (lo + 1))


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Per-sample outcomes of every legal card (same samples for every card), and their mean."""

    samples: dict[int, tuple[float, ...]]  # card code -> side's points at the end, per sample
    weights: tuple[float, ...]
    exact: bool = False  # every consistent deal was solved: no noise

    @property
    def values(self) -> dict[int, float]:
        """Mean points the seat's side ends the hand with, per card code."""
        total = sum(self.weights)
        return {
            c: sum(w * x for w, x in zip(self.weights, xs, strict=True)) / total
            for c, xs in self.samples.items()
        }

    @property
    def deals(self) -> int:
        return len(self.weights)

    def ranked(self) -> list[int]:
        """Card codes, the best first (ties: the lower code)."""
        values = self.values
        return sorted(values, key=lambda c: (-values[c], c))

    def best(self) -> int:
        return self.ranked()[0]

    def cost(self, card: int) -> float:
        """Points the side is expected to lose by playing ``card`` instead of the best card."""
        values = self.values
        return max(values.values()) - values[card]

    def stderr(self, a: int, b: int) -> float:
        """Standard error of the difference between cards ``a`` and ``b`` (0 if exact; the
        weights counted as samples)."""
        if self.exact or a == b:
            return 0.0
        w = self.weights
        d = [x - y for x, y in zip(self.samples[a], self.samples[b], strict=True)]
        total = sum(w)
        if len(d) < 2 or total <= 1.0:
            return math.inf
        mean = sum(wi * di for wi, di in zip(w, d, strict=True)) / total
        var = sum(wi * (di - mean) ** 2 for wi, di in zip(w, d, strict=True)) / (total - 1.0)
        return math.sqrt(var / total)

    def effective_samples(self) -> float:
        """Kish's effective sample size, (sum of weights)^2 / sum of squared weights: the number
        of samples when every weight is 1 (solved deals), fewer when the strong search's
        resampling repeats a determinization (its weight, the repeat count)."""
        return sum(self.weights) ** 2 / sum(w * w for w in self.weights) if self.weights else 0.0

    def noise(self, a: int, b: int) -> float:
        """95% half-width of the difference between cards ``a`` and ``b`` (0 if exact):
        Student's t quantile with one less degree of freedom than the effective samples (2.571
        for 6 deals, 2.069 for 24, near 1.96 for hundreds) times the standard error."""
        se = self.stderr(a, b)
        if se == 0.0 or math.isinf(se):
            return se
        return t95(self.effective_samples() - 1.0) * se

    def clear(self, a: int, b: int) -> bool:
        """Whether ``a`` is better than ``b`` by more than the noise of the difference."""
        values = self.values
        return values[a] - values[b] > self.noise(a, b)


def consistent_deals(k: Knowledge) -> int:
    """How many distinct deals agree with what the seat knows (hands as sets, stock in order);
    with the partner's signals to check (``Knowledge.fits``), an upper bound."""
    count = math.factorial(len(k.pool))
    for f in k.free:
        count //= math.factorial(f)
    return count


def all_deals(k: Knowledge) -> Iterator[FastHand]:
    """Every deal consistent with the seat's knowledge, each once (see ``consistent_deals``),
    the partner's signals included."""
    others = [s for s in range(k.n) if k.free[s] > 0]

    def split(pool: tuple[int, ...], i: int) -> Iterator[list[tuple[int, ...]]]:
        if i == len(others):
            for order in itertools.permutations(pool):
                yield [order]
            return
        for part in itertools.combinations(pool, k.free[others[i]]):
            rest = tuple(c for c in pool if c not in part)
            for tail in split(rest, i + 1):
                yield [part, *tail]

    for parts in split(tuple(k.pool), 0):
        order = [c for part in parts[:-1] for c in part] + list(parts[-1])
        if k.fits(order):
            yield k.deal(order)


@dataclass(frozen=True, slots=True)
class Budget:
    """How many deals an evaluation solves: all of them when at most ``exact_up_to`` exist,
    else ``deals(stock_left, players)`` sampled uniformly (or as many as fit ``seconds``); and
    how far: to the end of the hand, or ``depth`` tricks ahead (the current one included) with
    ``leaf`` valuing what lies beyond (a horizon search, ``Solver``)."""

    deals: Callable[[int, int], int]
    exact_up_to: int = 150
    seconds: float | None = None
    depth: int = EXACT
    leaf: LeafModel | None = None


def yardstick_deals(stock_left: int, players: int) -> int:
    """The benchmark's evaluator: many deals late, fewer early where one solve takes seconds."""
    if stock_left >= 20:
        return 6
    if stock_left >= 14:
        return 24
    return 100


YARDSTICK = Budget(yardstick_deals, exact_up_to=400)


def evaluate(
    view: SeatView, budget: Budget = YARDSTICK, rng: random.Random | None = None
) -> Evaluation:
    """Every legal card of ``view`` scored on the same deals, each solved exactly to the end
    (or to the budget's horizon: then exact only if the hand ends within it)."""
    k = Knowledge(view)
    rng = rng if rng is not None else random.Random(0)
    exact = consistent_deals(k) <= budget.exact_up_to
    samples = _solve_deals(k, budget, rng, exact)
    if not samples[k.my_hand[0]]:  # no deal fits the partner's signals: a bluff, ignored
        k.checks.clear()
        samples = _solve_deals(k, budget, rng, exact)
    done = len(samples[k.my_hand[0]])
    exact = exact and budget.depth >= tricks_left(view)
    return Evaluation({c: tuple(xs) for c, xs in samples.items()}, (1.0,) * done, exact=exact)


def _solve_deals(
    k: Knowledge, budget: Budget, rng: random.Random, exact: bool
) -> dict[int, list[float]]:
    """Each card's outcome on every deal (``exact``: every one is solved) or on the budget's
    sampled deals (as many as fit its seconds)."""
    if exact:
        deals: Iterator[FastHand] = all_deals(k)
    else:
        deals = (k.sample(rng) for _ in range(budget.deals(k.view.stock_left, k.n)))
    deadline = None if budget.seconds is None else time.perf_counter() + budget.seconds
    samples: dict[int, list[float]] = {c: [] for c in sorted(k.my_hand)}
    for done, h in enumerate(deals, 1):
        now = h.points[k.side]
        values = Solver(h, k.side, budget.depth, budget.leaf).values(h)
        for c, xs in samples.items():
            xs.append(now + values[c])
        if deadline is not None and done >= 2 and time.perf_counter() > deadline and not exact:
            break
    return samples


def tricks_left(view: SeatView) -> int:
    """Tricks still to be finished in the hand, the current one included."""
    cards = sum(view.hand_sizes) + view.stock_left + len(view.trick)
    return -(-cards // view.players)
