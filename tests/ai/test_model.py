"""The opponent model rebuilds past hands correctly: against rule followers the true deal always
explains every observed play, and a different deal often does not."""

from __future__ import annotations

import random

import pytest

from briscola_lan.ai import make_bot
from briscola_lan.ai.fast import FastHand
from briscola_lan.ai.infer import Knowledge
from briscola_lan.ai.model import OpponentModel, random_likelihood, rules_likelihood
from briscola_lan.rules import Hand, TableOptions, deck_for


@pytest.mark.parametrize("players", [2, 3, 4])
def test_true_deal_explains_rule_followers_plays(players: int) -> None:
    opts = TableOptions.make(players=players, match_format="points" if players == 3 else "hands")
    rng = random.Random(players)
    rejected = checked = 0
    for game in range(6):
        deck = list(deck_for(players))
        rng.shuffle(deck)
        hand = Hand(opts, deck, game % players)
        bots = [make_bot("rules", s) for s in range(players)]
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            if len(view.hand) > 1:
                model = OpponentModel(view, window=3, eps=0.0, prior=1.0)
                for other in range(players):
                    if other == seat:
                        continue
                    held = [c.code for c in hand.hands[other]]
                    true = rules_likelihood(
                        model.steps[other], held, other, players, int(view.trump), eps=0.0
                    )
                    assert true > 0.0
                    checked += 1
                sample = Knowledge(view).sample(rng)
                rejected += model.weight(sample) == 0.0
            hand.play(seat, bots[seat].choose(view))
    assert checked > 50
    assert rejected > 0  # the model does tell deals apart


def test_random_likelihood_is_one_over_the_choices() -> None:
    steps = [("play", None), ("draw", -1), ("play", None)]
    # Walking back from 2 cards: a play from 3 cards, a draw, a play from 3 cards again.
    assert random_likelihood(steps, 2) == pytest.approx(1 / 9)  # type: ignore[arg-type]


def test_weights_stay_positive_against_random_players() -> None:
    """With a random-type prior, no consistent deal gets weight zero whatever the others did."""
    opts = TableOptions.make(players=2)
    rng = random.Random(9)
    deck = list(deck_for(2))
    rng.shuffle(deck)
    hand = Hand(opts, deck, 0)
    bots = [make_bot("random", 1), make_bot("random", 2)]
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat)
        if len(view.hand) > 1:
            model = OpponentModel(view, window=3, eps=0.1, prior=0.7)
            k = Knowledge(view)
            for _ in range(10):
                h: FastHand = k.sample(rng)
                weight, share = model.weigh(h)
                assert weight > 0.0 and 0.0 <= share <= 1.0
        hand.play(seat, bots[seat].choose(view))


def test_sampled_draw_order_is_an_unbiased_estimate_of_the_exact_likelihood() -> None:
    """The strong bot's cheap likelihood (one random draw order per call) averages to the exact
    one (every order weighed), so resampling by it targets the same beliefs."""
    opts = TableOptions.make(players=2)
    rng = random.Random(5)
    pick = random.Random(6).randrange
    compared = differs = 0
    for game in range(4):
        deck = list(deck_for(2))
        rng.shuffle(deck)
        hand = Hand(opts, deck, game % 2)
        bots = [make_bot("rules", 0), make_bot("rules", 1)]
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            if len(view.hand) > 1 and view.stock_left > 0 and len(view.tricks) >= 3:
                other = 1 - seat
                model = OpponentModel(view, window=3, eps=0.1, prior=0.7)
                h = Knowledge(view).sample(rng)
                args = (model.steps[other], h.hands[other], other, 2, int(view.trump))
                exact = rules_likelihood(*args, eps=0.1)
                draws = [rules_likelihood(*args, eps=0.1, pick=pick) for _ in range(3000)]
                mean = sum(draws) / len(draws)
                var = sum((d - mean) ** 2 for d in draws) / (len(draws) - 1)
                # Five standard errors: a biased estimator fails, sampling noise does not.
                assert abs(mean - exact) <= 5 * (var / len(draws)) ** 0.5 + 1e-12
                differs += len(set(draws)) > 1
                compared += 1
            hand.play(seat, bots[seat].choose(view))
    assert compared > 20
    assert differs > 0  # the draw order really is sampled, and it matters
