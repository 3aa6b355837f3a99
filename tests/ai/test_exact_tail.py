"""The strong level's playouts at 2 players end in an exact solve once the stock is empty: near
the end of the hand it no longer throws points its rule-based playouts misjudge."""

from __future__ import annotations

import pytest

from briscola_lan.ai import StrongBot, make_bot
from briscola_lan.ai.evaluate import evaluate
from briscola_lan.rules import Card, SeatView
from tests.ai.replay import replayed_view

# A game of two rules bots (dealer seat 1), stopped with 4 cards in the stock: clubs are trumps,
# the opponent leads the 5 of clubs, and the seat to play holds A♥ A♦ 4♦ with 8 points to 49.
DECK = (
    "5h Qs Qc Kd Jd Kh 3c Qd Jh 5d 7d Js 6s 7c Kc 4c 4s 7s 7h 6h "
    "2h Ah 5s Ks 3d 2d 2s 3h Ad 6c Jc 3s As 2c Qh 5c 4d 6d Ac 4h"
)
MOVES = (
    "5h Kh Qd Jd 5d 7d Jh 6s Js Qs Kd 7c 4s 7h 6h 2h 7s 5s Ks 4c 2d 2s Kc Qc 6c Jc 3s As 2c Qh 5c"
)


def _ace_on_a_lost_trump_trick() -> SeatView:
    view = replayed_view(DECK, 1, MOVES)
    assert sorted(c.code for c in view.hand) == sorted(
        Card.parse(c).code for c in ("Ah", "Ad", "4d")
    )
    assert view.stock_left == 4
    return view


def test_the_evaluator_finds_the_ace_costly() -> None:
    """Every deal the seat cannot tell apart, solved: the ace thrown costs over 7 points."""
    view = _ace_on_a_lost_trump_trick()
    ev = evaluate(view)
    assert ev.exact
    ace, four = Card.parse("Ah").code, Card.parse("4d").code
    assert ev.values[four] - ev.values[ace] > 7.0
    assert ev.best() == four


@pytest.mark.parametrize("seed", range(4))
def test_the_strong_level_keeps_its_ace(seed: int) -> None:
    """The strong level throws the worthless 4♦, whatever its seed; without the exact tail
    its playouts (rules play to the end) would throw A♥."""
    view = _ace_on_a_lost_trump_trick()
    assert make_bot("strong", seed).choose(view) == Card.parse("4d")


def test_the_exact_tail_changes_this_position() -> None:
    """The position tells the two searches apart: the same search with rule-based playouts to
    the end throws the ace (the regression the test above guards against)."""
    view = _ace_on_a_lost_trump_trick()
    assert StrongBot(0, exact_tail=False).choose(view) == Card.parse("Ah")
    assert StrongBot(0, exact_tail=True).choose(view) == Card.parse("4d")


def test_the_strong_level_plays_its_own_rules_for_itself_in_its_playouts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 2 players the strong level's playouts to the last draw give its own seat its own
    rule-based card (``own_pick``) and the opponent the rules policy; ``own_playouts=0`` gives
    both the rules policy, and the baseline plays out by the rules to the end."""
    from briscola_lan.ai import bots

    seats: list[int] = []
    real = bots.rules_playout_to_last_draw

    def spy(h: object, own_seat: int = -1) -> None:
        seats.append(own_seat)
        real(h, own_seat)  # type: ignore[arg-type]

    monkeypatch.setattr(bots, "rules_playout_to_last_draw", spy)
    view = _ace_on_a_lost_trump_trick()
    for level, own in (("strong:8", view.seat), ("strong:samples=8+own_playouts=0", -1)):
        seats.clear()
        make_bot(level, 0).choose(view)
        assert seats and set(seats) == {own}, level
    seats.clear()
    make_bot("baseline", 0).choose(view)
    assert not seats
