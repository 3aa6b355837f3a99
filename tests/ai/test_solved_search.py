"""The ``solver`` level (the strong search that at 2 players solves its sampled deals instead of
playing them out): where an exact evaluation knows the best card and the rule-based card is
another, it plays the exact best; with the stock still large it solves a few tricks ahead, and
its values are the solver's on the deals it drew. The stock range where the deals are solved is a
setting (``solve_min``, ``solve_max``): solved late in the hand only, the search keeps a trump its
playouts throw. With ``unruly_max`` the playouts whose opponent the model draws as not following
the rules are solved to the end instead of played at random."""

from __future__ import annotations

import logging
import random
from typing import Any

import pytest

from briscola_lan.ai import StrongBot, UnknownLevel, make_bot
from briscola_lan.ai.bots import _Search
from briscola_lan.ai.evaluate import Budget, evaluate
from briscola_lan.ai.leaf import even_split
from briscola_lan.ai.solver import EXACT, Solver, solve
from briscola_lan.rules import Card, Hand, SeatView, TableOptions
from tests.ai.replay import replayed_view


def _aces_against_a_king() -> SeatView:
    """Four cards in the stock, K♠ led; the hand is 3♥ A♦ A♣: A♣ is best by about 7 points,
    the rule-based card is A♦ (a game of rules bots, replayed)."""
    deck = (
        "Qc Kc 5h 2d 7c 5d Jc Qs 6s Js 6h 3d 3s 4d 4h 7h 2c 3h 4c 7d As Jd 6d Qd 7s Jh Ah Qh "
        "5c 2s 4s 2h 6c 5s Ad Ks Ac 3c Kd Kh"
    )
    plays = (
        "5h 2d Qs 5d Js 6h 7c 6s 4d 4h 7h 2c Kc 4c 7d 3d Jd 6d Qd 7s Jh Ah Qh 5c 2s 3s 2h 6c "
        "5s 4s Ks"
    )
    return replayed_view(deck, 0, plays)


def test_it_plays_the_exact_best_card_where_the_rules_card_differs() -> None:
    view = _aces_against_a_king()
    assert view.stock_left == 4
    exact = evaluate(view, Budget(lambda stock, players: 0, exact_up_to=150))
    assert exact.exact  # every deal that agrees with the view solved: no noise
    ace = Card.parse("Ac")
    assert exact.best() == ace.code
    assert min(exact.cost(c) for c in exact.values if c != ace.code) > 5
    assert make_bot("rules", 0).choose(view) != ace
    for seed in range(6):
        assert make_bot("solver", seed).choose(view) == ace, seed


def test_its_values_are_the_solvers_on_the_deals_it_drew() -> None:
    """Early in the hand: each deal solved 6 tricks ahead, the points beyond shared evenly."""
    hand = Hand(TableOptions.make(players=2), [Card.from_code(c) for c in range(40)], 0)
    rng = random.Random(4)
    for _ in range(4):  # a few tricks in: the stock still large
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, rng.choice(hand.legal_plays()))
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat)
    assert view.stock_left > 12
    bot = make_bot("solver:5", 2)
    assert isinstance(bot, StrongBot)
    search = _Search(bot, view)
    assert search.solved and search.depth == 6
    # The same draws as the search makes: the same generator and opponent model, fresh.
    twin = _Search(bot, view)
    drawn = bot._draw(twin.k, twin.model, twin.rng, 5)
    ev = search.run(1)
    assert ev.deals == len(drawn) and 1 <= ev.deals <= 5
    for i, (h, count, _) in enumerate(drawn):
        solved = Solver(h, search.k.side, 6, even_split).values(h)
        assert ev.weights[i] == count
        for c, v in solved.items():
            assert ev.samples[c][i] == h.points[search.k.side] + v
    # Once the stock is small, to the end.
    while hand.stock_left > 12:
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, rng.choice(hand.legal_plays()))
    seat = hand.current_player
    assert seat is not None
    late = _Search(bot, hand.view(seat))
    assert late.solved == (hand.stock_left > 2) and late.depth == EXACT


def test_the_strong_level_and_the_baseline_keep_their_playouts() -> None:
    view = _aces_against_a_king()
    for level in ("strong", "baseline", "strong:8"):
        bot = make_bot(level, 0)
        assert isinstance(bot, StrongBot) and not _Search(bot, view).solved, level
    solver = make_bot("solver", 0)
    assert isinstance(solver, StrongBot) and solver.solve_deals == 24
    for bad in ("solver:0", "solver:x", "solver:-3"):
        with pytest.raises(UnknownLevel):
            make_bot(bad)


def test_the_deals_are_solved_only_within_the_stock_range_asked() -> None:
    """``solve_min`` and ``solve_max`` bound the cards in the stock at which the deals are
    solved; outside them the search plays out its samples (the arena's level strings)."""
    hand = Hand(TableOptions.make(players=2), [Card.from_code(c) for c in range(40)], 0)
    rng = random.Random(7)
    seen: dict[int, tuple[bool, bool, bool]] = {}
    late = make_bot("strong:solve_deals=5+solve_max=10", 1)
    early = make_bot("strong:solve_deals=5+solve_min=20", 1)
    both = make_bot("strong:solve_deals=5", 1)
    while hand.stock_left > 2:
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat)
        seen[view.stock_left] = (
            _Search(late, view).solved,
            _Search(early, view).solved,
            _Search(both, view).solved,
        )
        hand.play(seat, rng.choice(hand.legal_plays()))
    for stock, (in_late, in_early, in_both) in seen.items():
        assert in_late == (stock <= 10), stock
        assert in_early == (stock >= 20), stock
        assert in_both, stock
    assert {s for s in seen if s <= 10} and {s for s in seen if s >= 20}
    search = _Search(late, _aces_against_a_king())  # 4 cards in the stock: to the end
    assert search.solved and search.depth == EXACT
    for bad in ("solve_min=20+solve_max=10", "solve_min=-1", "solve_max=-2"):
        with pytest.raises(UnknownLevel, match="stock range"):
            make_bot(f"strong:solve_deals=5+{bad}")


# A game of two rules bots (dealer seat 0), stopped with 4 cards in the stock: clubs are trumps
# (Q♣ up), the opponent leads K♣, and the seat to play holds J♦ 3♥ 5♣.
_KEEP_DECK = (
    "Kh 4c 5h Jd As Ac Qd 2c Jc Qs 2h 6d 3c Kd 5d 6c Ad Jh 7c Js "
    "7s 2d 7d 4h 2s 4d 3s Ah 3h Qh Ks 6s 7h 3d 5s Kc 5c 4s 6h Qc"
)
_KEEP_PLAYS = (
    "5h 4c 2c Ac Jc 2h Qs As Kh 5d 6c 3c Jh 7c Js 7s 2d 6d 4h 2s 4d Kd 3s 7d Qh Ah 6s 7h Ks 5s Kc"
)
LATE_SOLVE = "strong:solve_deals=48+solve_max=10+solve_confidence=0"


@pytest.mark.parametrize("seed", range(4))
def test_the_late_solve_keeps_the_last_trump_the_playouts_throw(seed: int) -> None:
    """Every deal the seat cannot tell apart, solved: throwing the 5 of trumps under K♣ costs
    over 5 points against giving the jack. With its deals solved late in the hand (48 deals
    with 10 cards or fewer in the stock, its top card played) the search keeps the trump in
    every seed; the search with its playouts there (``solve_deals=0``, the strong level's),
    which play the rules policy to the last draw, throws it: the position tells the two apart
    (docs/ai.md, "Results", for why the strong level keeps its playouts)."""
    view = replayed_view(_KEEP_DECK, 0, _KEEP_PLAYS)
    assert view.stock_left == 4
    assert sorted(c.code for c in view.hand) == sorted(
        Card.parse(c).code for c in ("Jd", "3h", "5c")
    )
    exact = evaluate(view, Budget(lambda stock, players: 0, exact_up_to=150))
    assert exact.exact
    jack, trump = Card.parse("Jd"), Card.parse("5c")
    assert exact.best() == jack.code
    assert exact.cost(trump.code) > 5
    assert make_bot(LATE_SOLVE, seed).choose(view) == jack
    assert make_bot("strong:solve_deals=0", seed).choose(view) == trump


def test_the_late_solve_can_be_kept_for_opponents_who_do_not_follow_the_rules() -> None:
    """With ``solve_rules_below``, the deals are solved only where the opponent model's chance
    that the opponent follows the rules, over the deals drawn for the solve, is below it; those
    very deals are the ones solved. Otherwise the search plays out its samples."""
    view = replayed_view(_KEEP_DECK, 0, _KEEP_PLAYS)
    base = make_bot(LATE_SOLVE, 0)
    assert isinstance(base, StrongBot)
    twin = _Search(base, view)  # the same generator and model: the deals the search draws
    drawn = base._draw(twin.k, twin.model, twin.rng, base.solve_deals)
    p_rules = sum(c * p for _, c, p in drawn) / sum(c for _, c, _ in drawn)
    assert 0.0 < p_rules < 1.0
    above = make_bot(f"{LATE_SOLVE}+solve_rules_below={p_rules + 1e-6}", 0)
    below = make_bot(f"{LATE_SOLVE}+solve_rules_below={p_rules - 1e-6}", 0)
    assert isinstance(above, StrongBot) and isinstance(below, StrongBot)
    assert not _Search(below, view).solved
    search = _Search(above, view)
    assert search.solved
    ev = search.run(1)
    # Identical deals are solved once, weighted by their count (in the order first drawn).
    distinct: dict[tuple[tuple[int, ...], ...], list[Any]] = {}
    for h, count, _ in drawn:
        key = (*(tuple(sorted(x)) for x in h.hands), tuple(h.stock))
        distinct.setdefault(key, [h, 0.0])[1] += count
    assert ev.deals == len(distinct) and sum(ev.weights) == sum(c for _, c, _ in drawn)
    for i, (h, count) in enumerate(distinct.values()):
        assert ev.weights[i] == count
        solved = Solver(h, search.k.side).values(h)
        for c, v in solved.items():
            assert ev.samples[c][i] == search._utility(h.points[search.k.side] + v)
    assert _Search(make_bot(LATE_SOLVE, 0), view).solved  # off by default: always solved


UNRULY = "strong:unruly_max=10"


@pytest.mark.parametrize("seed", range(4))
def test_an_opponent_who_does_not_follow_the_rules_is_solved_for_not_played_at_random(
    seed: int,
) -> None:
    """With ``unruly_max``, the playouts in which the opponent model draws an opponent that does
    not follow the rules are solved to the end (a perfect opponent) instead of played at random:
    the search then keeps the trump the strong level's playouts throw (the position above)."""
    view = replayed_view(_KEEP_DECK, 0, _KEEP_PLAYS)
    assert make_bot(UNRULY, seed).choose(view) == Card.parse("Jd")


def test_the_unruly_samples_are_the_solvers_values_and_only_within_the_stock_asked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from briscola_lan.ai import bots

    solved: list[tuple[float, dict[int, float]]] = []

    def recording_solve(h: Any, side: int) -> dict[int, float]:
        values = solve(h, side)
        solved.append((h.points[side], values))
        return values

    monkeypatch.setattr(bots, "solve", recording_solve)
    view = replayed_view(_KEEP_DECK, 0, _KEEP_PLAYS)  # 4 cards in the stock
    search = _Search(make_bot(UNRULY, 0), view)
    ev = search.run(1)
    total = len(ev.weights)
    assert 0 < len(solved) < total  # a mixture: some samples solved, the rest played out
    rows = [tuple(ev.samples[c][i] for c in sorted(ev.samples)) for i in range(total)]
    for now, values in solved:
        assert tuple(search._utility(now + values[c]) for c in sorted(values)) in rows
    solved.clear()
    _Search(make_bot("strong:unruly_max=3", 0), view).run(1)  # the stock above it: none
    _Search(make_bot("strong", 0), view).run(1)  # off by default
    _Search(make_bot("baseline", 0), view).run(1)
    assert solved == []


def test_an_unruly_solve_that_scores_a_foreign_card_is_logged_and_a_held_card_is_played(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from briscola_lan.ai import bots

    view = replayed_view(_KEEP_DECK, 0, _KEEP_PLAYS)
    foreign = next(c for c in range(40) if Card.from_code(c) not in view.hand)

    def broken(h: Any, side: int) -> dict[int, float]:
        return {foreign: 120.0} | {c.code: 0.0 for c in view.hand}

    monkeypatch.setattr(bots, "solve", broken)
    with caplog.at_level(logging.ERROR, logger="briscola_lan.ai.bots"):
        card = make_bot(UNRULY, 0).choose(view)
    assert card in view.hand
    assert any("not in its hand" in r.getMessage() for r in caplog.records), caplog.text
