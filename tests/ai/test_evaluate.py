"""The honest evaluator: every deal consistent with a seat's view (and only those), each solved
exactly; the noise of a difference (Student's t for the number of deals); the strong bot's
confidence rule over its own samples."""

from __future__ import annotations

import itertools
import math
import random
import statistics

import pytest

from briscola_lan.ai import StrongBot, make_bot
from briscola_lan.ai.evaluate import (
    Budget,
    Evaluation,
    all_deals,
    consistent_deals,
    evaluate,
    t95,
    tricks_left,
)
from briscola_lan.ai.infer import Knowledge
from briscola_lan.ai.leaf import even_split
from briscola_lan.ai.solver import Solver, solve
from briscola_lan.rules import Hand, SeatView, TableOptions, deck_for


def _view(players: int, stock: int, seed: int, exchange: bool = True) -> tuple[Hand, SeatView]:
    """A hand of rules bots played until ``stock`` cards are left (and a random trick part)."""
    opts = TableOptions.make(
        players=players, match_format="points" if players == 3 else "hands",
        partner_exchange=exchange,
    )  # fmt: skip
    rng = random.Random(seed)
    deck = list(deck_for(players))
    rng.shuffle(deck)
    hand = Hand(opts, deck, rng.randrange(players))
    bots = [make_bot("rules", s) for s in range(players)]
    while hand.stock_left > stock or (hand.stock_left == stock and hand.trick):
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, bots[seat].choose(hand.view(seat)))
    for _ in range(rng.randrange(players)):
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, bots[seat].choose(hand.view(seat)))
    seat = hand.current_player
    assert seat is not None
    return hand, hand.view(seat)


@pytest.mark.parametrize(
    ("players", "stock", "exchange"), [(2, 0, True), (2, 2, True), (2, 4, True), (4, 0, True),
                                       (4, 0, False), (3, 0, True)],
)  # fmt: skip
def test_every_consistent_deal_once_and_the_true_one_among_them(
    players: int, stock: int, exchange: bool
) -> None:
    for seed in range(4):
        hand, view = _view(players, stock, seed, exchange)
        k = Knowledge(view)
        count = consistent_deals(k)
        if count > 20000:
            continue
        deals = list(all_deals(k))
        keys = {(*(frozenset(x) for x in h.hands), tuple(h.stock)) for h in deals}
        assert len(deals) == len(keys) == count
        for h in deals:
            assert sorted(h.hands[view.seat]) == sorted(c.code for c in view.hand)
            assert h.stock[-1:] == ([view.upcard.code] if view.stock_left else [])
            assert [len(x) for x in h.hands] == list(view.hand_sizes)
        # the real deal (hands and stock as the rules engine holds them) is one of them
        real = tuple(frozenset(c.code for c in x) for x in hand.hands)
        assert any(real == key[:players] for key in keys)


def test_an_exact_evaluation_is_the_mean_of_every_deal_solved() -> None:
    """2 players, two cards in the stock: which unseen card is under the upcard (3 or 4 ways)."""
    for seed in range(6):
        _hand, view = _view(2, 2, seed)
        k = Knowledge(view)
        ev = evaluate(view)
        opp = 1 - view.seat
        assert ev.exact and ev.deals == consistent_deals(k) == len(k.pool) == k.free[opp] + 1
        by_hand: dict[int, list[float]] = {c.code: [] for c in view.hand}
        for held in itertools.combinations(k.pool, k.free[opp]):
            (under,) = [c for c in k.pool if c not in held]
            h = k.deal([*held, under])
            assert sorted(h.hands[opp]) == sorted(held)
            for c, v in solve(h, k.side).items():
                by_hand[c].append(h.points[k.side] + v)
        for c, xs in by_hand.items():
            assert ev.values[c] == pytest.approx(statistics.mean(xs))
        best = ev.best()
        assert all(ev.noise(best, c) == 0.0 for c in ev.values)


def test_a_horizon_evaluation_is_exact_only_when_the_hand_ends_within_it() -> None:
    """Every deal solved a few tricks ahead, the rest shared evenly: each deal's value is the
    horizon search's; the evaluation is exact (and the exact one) once the horizon covers the
    hand."""
    _hand, view = _view(2, 2, 4)
    k = Knowledge(view)
    left = tricks_left(view)
    assert left == (sum(view.hand_sizes) + view.stock_left + len(view.trick)) // 2
    near = evaluate(view, Budget(lambda stock, players: 0, depth=1, leaf=even_split))
    assert not near.exact and near.deals == consistent_deals(k)
    deals = list(all_deals(k))
    for c in near.values:
        per_deal = [h.points[k.side] + Solver(h, k.side, 1, even_split).values(h)[c] for h in deals]
        assert near.values[c] == pytest.approx(statistics.mean(per_deal))
    whole = evaluate(view, Budget(lambda stock, players: 0, depth=left, leaf=even_split))
    assert whole.exact and whole.values == pytest.approx(evaluate(view).values)
    _hand, early = _view(2, 24, 4)
    ev = evaluate(early, Budget(lambda stock, players: 8, exact_up_to=0, depth=3, leaf=even_split))
    assert not ev.exact and ev.deals == 8


def test_a_sampled_evaluation_says_how_sure_it_is() -> None:
    _hand, view = _view(2, 10, 3)
    few = evaluate(view, Budget(lambda stock, players: 6, exact_up_to=0), random.Random(1))
    many = evaluate(view, Budget(lambda stock, players: 60, exact_up_to=0), random.Random(1))
    assert not few.exact and few.deals == 6 and many.deals == 60
    best = many.best()
    for c in many.values:
        if c != best:
            assert 0.0 < many.noise(best, c) < few.noise(best, c) * 1.5
            assert many.clear(best, c) == (many.cost(c) > many.noise(best, c))


def test_the_noise_of_a_difference_is_its_paired_standard_error() -> None:
    ev = Evaluation({1: (10.0, 12.0, 14.0, 16.0), 2: (9.0, 10.0, 11.0, 12.0)}, (1.0,) * 4)
    d = [1.0, 2.0, 3.0, 4.0]
    assert ev.cost(2) == pytest.approx(2.5)
    assert ev.stderr(1, 2) == pytest.approx(statistics.stdev(d) / 2)
    assert ev.noise(1, 2) == pytest.approx(3.1824 * statistics.stdev(d) / 2, rel=1e-4)  # t, 3 df
    assert ev.noise(1, 1) == 0.0
    assert Evaluation(ev.samples, ev.weights, exact=True).noise(1, 2) == 0.0


def test_the_noise_of_six_deals_is_students_t_with_five_degrees_of_freedom() -> None:
    """The evaluator's 6 deals early in a hand: 2.571 standard errors, not 1.96."""
    a = (70.0, 55.0, 81.0, 62.0, 66.0, 74.0)
    b = (61.0, 58.0, 70.0, 49.0, 66.0, 60.0)
    ev = Evaluation({1: a, 2: b}, (1.0,) * 6)
    sd = statistics.stdev([x - y for x, y in zip(a, b, strict=True)])
    assert ev.effective_samples() == 6
    assert ev.noise(1, 2) == pytest.approx(2.5706 * sd / math.sqrt(6), rel=1e-4)
    # 7.3 better, more than 1.96 standard errors (5.7) but not 2.571 (7.5): not clear
    assert 1.96 * sd / math.sqrt(6) < ev.cost(2) < ev.noise(1, 2) and not ev.clear(1, 2)


def test_weighted_samples_count_by_kish_effective_size() -> None:
    """The strong search's weights are resampling counts: a determinization drawn 3 times is
    not 3 independent ones, so the quantile is taken at Kish's effective size."""
    ev = Evaluation({1: (5.0, 1.0, 3.0, 8.0), 2: (1.0, 0.0, 0.0, 2.0)}, (3.0, 1.0, 1.0, 1.0))
    assert ev.effective_samples() == pytest.approx(3.0)  # 6^2 / 12
    assert ev.noise(1, 2) == pytest.approx(4.3027 * ev.stderr(1, 2), rel=1e-4)  # t, 2 df
    one_heavy = Evaluation({1: (5.0, 1.0), 2: (1.0, 0.0)}, (20.0, 1.0))
    assert one_heavy.noise(1, 2) == math.inf  # under 2 effective samples: no estimate


def _t_cdf(q: float, df: float, steps: int = 4000) -> float:
    """P(T <= q) for Student's t, by Simpson's rule over its density from 0 to q."""
    c = math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi)

    def f(x: float) -> float:
        return c * (1 + x * x / df) ** (-(df + 1) / 2)

    h = q / steps
    odd = sum(f((2 * i - 1) * h) for i in range(1, steps // 2 + 1))
    even = sum(f(2 * i * h) for i in range(1, steps // 2))
    return 0.5 + h / 3 * (f(0.0) + 4 * odd + 2 * even + f(q))


@pytest.mark.parametrize(
    ("df", "quantile"),
    [(1, 12.7062), (2, 4.3027), (5, 2.5706), (9, 2.2622), (10, 2.2281), (23, 2.0687),
     (30, 2.0423), (47, 2.0117), (120, 1.9799), (1e9, 1.9600)],
)  # fmt: skip
def test_t95_gives_students_quantiles(df: float, quantile: float) -> None:
    assert t95(df) == pytest.approx(quantile, abs=1e-4)


@pytest.mark.parametrize("df", [1.5, 2.5, 4.5, 7.3, 9.5, 10.0, 12.3, 35.0, 200.0])
def test_t95_is_the_975_point_or_just_beyond(df: float) -> None:
    """Checked against the density itself: the quantile leaves at least 97.5% below it, and
    at most a little more (conservative between whole degrees of freedom below 10)."""
    p = _t_cdf(t95(df), df)
    assert 0.975 - 1e-6 <= p <= (0.9765 if df >= 2 else 0.99), p
    assert t95(df) >= t95(df + 0.5) > 1.959


def test_t95_below_one_degree_of_freedom_is_infinite() -> None:
    assert t95(0.5) == math.inf and t95(0.0) == math.inf


def test_the_strong_bot_leaves_the_rules_only_for_a_difference_beyond_its_noise() -> None:
    """Its top card is played only when it beats the rule-based card by more than one standard
    error (not the t quantile: its rule counts standard errors); 'baseline' is the same search
    always playing its top card."""
    bot = StrongBot(1)
    # 1.2 better with a standard error of 0.58 (its 95% noise at 3 df: 1.83): the top card
    near = Evaluation({1: (1.5, 0.4, 2.7, 0.2), 2: (0.0,) * 4}, (1.0,) * 4)
    assert near.stderr(1, 2) < near.cost(2) < near.noise(1, 2)
    assert bot._pick(near, preferred=2) == 1
    flat = Evaluation({1: (60.0, 70.0, 62.0, 71.0), 2: (61.0, 66.0, 64.0, 70.0)}, (1.0,) * 4)
    assert flat.best() == 1 and not flat.clear(1, 2)
    assert bot._pick(flat, preferred=2) == 2
    assert StrongBot(1, confidence=0.0)._pick(flat, preferred=2) == 1
    clear = Evaluation({1: (70.0, 72.0, 71.0, 73.0), 2: (60.0, 61.0, 62.0, 60.0)}, (1.0,) * 4)
    assert bot._pick(clear, preferred=2) == 1
    baseline = make_bot("baseline", 1)
    assert isinstance(baseline, StrongBot) and baseline.confidence == 0.0
