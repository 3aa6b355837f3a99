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
