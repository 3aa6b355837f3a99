"""Near the end of a 2-player hand, in a match of hands won, the strong search weighs the chance
of winning the hand (61 points) and not only the points: a card that wins the hand in more of
the deals the seat cannot tell apart beats one that takes a few points more on average."""

from __future__ import annotations

import pytest

from briscola_lan.ai import StrongBot, make_bot
from briscola_lan.ai.bots import HAND_DRAW, _Search
from briscola_lan.ai.evaluate import evaluate
from briscola_lan.rules import Card, SeatView, TableOptions
from briscola_lan.rules.match import hand_winner
from tests.ai.replay import replayed_view

# A game of two rules bots (dealer seat 0), stopped at the last draw: diamonds are trumps (Q♦
# up), the opponent leads 2♥, and the seat to play holds 3♣ 7♦ 4♣ with 50 points to 32.
DECK = (
    "4h 5c Jh Kc Qh Qc Qd 3s 4d 3d Jd 2d Jc Ah 6c 3c 2s Kh 5s 6s "
    "Js 3h Ac Kd 5d 4s Qs 6h 5h 7c 2c 7s Ad 7d As 7h 6d 2h 4c Ks"
)
MOVES = (
    "4h 5c Jh Qc Qh Kc 2d Jc 3s 4d 6c 2s Kh Ah 5s Js Jd 6s Kd 5d "
    "4s Qs 6h 3h 5h 2c 7s Ac 7c As 7h 6d 2h"
)


def _last_draw(match_format: str = "hands") -> SeatView:
    view = replayed_view(DECK, 0, MOVES, TableOptions.make(players=2, match_format=match_format))
    assert sorted(str(c) for c in view.hand) == sorted(["3♣", "7♦", "4♣"])
    assert (view.stock_left, view.points) == (2, (50, 32))
    return view


def test_the_bonus_is_for_a_hand_won_and_half_of_it_for_a_draw() -> None:
    search = _Search(StrongBot(0), _last_draw())
    assert search.bonus == 60
    for points in range(121):
        winner = hand_winner((points, 120 - points))
        extra = {0: 60.0, None: 30.0, 1: 0.0}[winner]
        assert search._utility(points) == points + extra, points
    assert HAND_DRAW == 60


def test_no_bonus_where_a_hand_won_is_not_what_counts() -> None:
    """The points format (the most points over the match's hands), the baseline level, and
    the hand before fewer than ``win_stock`` cards are left: the points alone."""
    assert _Search(StrongBot(0), _last_draw("points")).bonus == 0
    assert _Search(make_bot("baseline"), _last_draw()).bonus == 0  # type: ignore[arg-type]
    assert _Search(StrongBot(0, win_stock=2), _last_draw()).bonus == 0
    plain = StrongBot(0, win_bonus=0.0).choose_evaluated(_last_draw("points"))[1]
    points = StrongBot(0).choose_evaluated(_last_draw("points"))[1]
    assert plain is not None and points is not None
    assert points.samples == plain.samples


def test_the_strong_level_weighs_the_hand_from_the_first_trick() -> None:
    """Throughout the hand: at the first trick (34 cards in the stock) as at the fourth; with
    ``win_stock=30`` (the strong level before) not in the third trick (30 left), from the
    fourth (28 left) on."""
    moves = MOVES.split()
    first, third, fourth = (replayed_view(DECK, 0, " ".join(moves[:n])) for n in (0, 4, 6))
    assert (first.stock_left, third.stock_left, fourth.stock_left) == (34, 30, 28)
    for view in (first, third, fourth):
        assert _Search(StrongBot(0), view).bonus == 60
    assert _Search(StrongBot(0, win_stock=30), third).bonus == 0
    assert _Search(StrongBot(0, win_stock=30), fourth).bonus == 60


@pytest.mark.parametrize("seed", range(4))
def test_the_search_scores_each_outcome_with_its_bonus(seed: int) -> None:
    """The same deals as without the bonus (the same seed), each outcome that wins the hand
    60 points higher, a draw 30."""
    view = _last_draw()
    with_bonus = StrongBot(seed).choose_evaluated(view)[1]
    plain = StrongBot(seed, win_bonus=0.0).choose_evaluated(view)[1]
    assert with_bonus is not None and plain is not None
    for code, outcomes in plain.samples.items():
        assert outcomes, code
        for got, points in zip(with_bonus.samples[code], outcomes, strict=False):
            assert got == points + (60 if points > 60 else 30 if points == 60 else 0)


@pytest.mark.parametrize("seed", range(4))
def test_the_trump_that_wins_the_hand_more_often(seed: int) -> None:
    """Every deal the seat cannot tell apart, solved: 7♦ on the 2♥ wins the hand in two of
    the three (and takes more points on average); 4♣, which leaves the trick and draws the
    upcard, in none. The search without the bonus throws 4♣ (its opponent model weighs the
    deal where the trump loses most); with it, it plays 7♦."""
    view = _last_draw()
    ev = evaluate(view)
    assert ev.exact
    seven, four = Card.parse("7d").code, Card.parse("4c").code
    assert sum(x > 60 for x in ev.samples[seven]) == 2
    assert sum(x > 60 for x in ev.samples[four]) == 0
    assert str(StrongBot(seed, win_bonus=0.0).choose(view)) == "4♣"
    assert str(StrongBot(seed).choose(view)) == "7♦"


def test_the_early_margin_can_be_asked_of_the_card_points_alone() -> None:
    """With the bonus from the first trick on and the rules policy for both seats in the
    playouts, the playouts' chances of winning the hand carry the ace of trumps past the early
    margin on the first lead (♣ trumps, A♣ A♥ 4♦: the costly card of
    tests/ai/test_positions.py); asked of the card points alone (``margin_points``), the margin
    keeps the search to its rule-based card. With its own rules for itself in the playouts, the
    strong level, which has the bonus from the first trick, keeps to it either way."""
    from tests.ai.test_positions import trump_ace_lead_with_a_worthless_card

    hand, costly = trump_ace_lead_with_a_worthless_card()
    view = hand.view(hand.current_player)
    ace = Card.parse(costly)
    assert StrongBot(0, win_stock=40, own_playouts=False).choose(view) == ace
    points = StrongBot(0, win_stock=40, own_playouts=False, margin_points=True)
    assert points.choose(view) != ace
    assert StrongBot(0).win_stock == 40
    assert StrongBot(0).choose(view) != ace
