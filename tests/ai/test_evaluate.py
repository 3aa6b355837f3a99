"""The honest evaluator: every deal consistent with a seat's view (and only those), each solved
exactly; the noise of a difference; the strong bot's confidence rule over its own samples."""

from __future__ import annotations

import itertools
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
    even_split,
    tricks_left,
)
from briscola_lan.ai.infer import Knowledge
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
    assert ev.noise(1, 2) == pytest.approx(1.96 * statistics.stdev(d) / 2)
    assert ev.noise(1, 1) == 0.0
    assert Evaluation(ev.samples, ev.weights, exact=True).noise(1, 2) == 0.0


def test_the_strong_bot_leaves_the_rules_only_for_a_difference_beyond_its_noise() -> None:
    """Its top card is played only when it beats the rule-based card by more than one standard
    error; 'baseline' is the same search always playing its top card."""
    bot = StrongBot(1)
    flat = Evaluation({1: (60.0, 70.0, 62.0, 71.0), 2: (61.0, 66.0, 64.0, 70.0)}, (1.0,) * 4)
    assert flat.best() == 1 and not flat.clear(1, 2)
    assert bot._pick(flat, preferred=2) == 2
    assert StrongBot(1, confidence=0.0)._pick(flat, preferred=2) == 1
    clear = Evaluation({1: (70.0, 72.0, 71.0, 73.0), 2: (60.0, 61.0, 62.0, 60.0)}, (1.0,) * 4)
    assert bot._pick(clear, preferred=2) == 1
    baseline = make_bot("baseline", 1)
    assert isinstance(baseline, StrongBot) and baseline.confidence == 0.0
