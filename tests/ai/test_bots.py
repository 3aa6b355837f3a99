"""Every bot level plays only legal cards, sees only a SeatView, is deterministic and is strong
enough: rules beats random, and the strong bot finds the exact end of a 2-player hand."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from briscola_lan.ai import LEVELS, BotError, StrongBot, UnknownLevel, make_bot
from briscola_lan.ai.fast import FastHand
from briscola_lan.ai.solver import solve
from briscola_lan.rules import Card, Hand, SeatView, TableOptions, deck_for

FAST = {"random": "random", "rules": "rules", "strong": "strong:6"}


def _options(players: int, exchange: bool = True) -> TableOptions:
    fmt = "points" if players == 3 else "hands"
    return TableOptions.make(players=players, match_format=fmt, partner_exchange=exchange)


def test_levels_and_unknown_level() -> None:
    assert {"random", "rules", "strong"} <= set(LEVELS)
    for level in LEVELS:
        assert make_bot(level, 1).level == level
    with pytest.raises(UnknownLevel, match="unknown bot level"):
        make_bot("grandmaster")


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("level", LEVELS)
def test_bots_play_legal_cards_from_views_only(players: int, level: str) -> None:
    """Each bot gets only a SeatView (a frozen copy with no way back to the hand)."""
    rng = random.Random(players)
    for game in range(3 if level == "strong" else 10):
        opts = _options(players, exchange=game % 2 == 0)
        deck = list(deck_for(players))
        rng.shuffle(deck)
        hand = Hand(opts, deck, game % players)
        bots = [make_bot(FAST[level], game * 10 + s) for s in range(players)]
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            assert type(view) is SeatView
            assert {f.name for f in dataclasses.fields(view)}.isdisjoint({"deck", "hands"})
            card = bots[seat].choose(view)
            assert card in view.legal_plays
            hand.play(seat, card)
        assert sum(hand.returns()) == 120


def test_bot_refuses_a_view_when_it_is_not_its_turn() -> None:
    hand = Hand(_options(2), list(deck_for(2)), 0)
    view = hand.view(0)  # seat 1 leads
    for level in LEVELS:
        with pytest.raises(BotError, match="not its turn"):
            make_bot(level).choose(view)


def test_strong_bot_uses_partner_shown_cards() -> None:
    """After the 4-player exchange the partner's cards are no longer sampled: they are known."""
    from briscola_lan.ai.infer import Knowledge

    rng = random.Random(5)
    deck = list(deck_for(4))
    rng.shuffle(deck)
    hand = Hand(_options(4), deck, 0)
    while hand.stock_left > 0 or hand.current_player is None:
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, hand.legal_plays()[0])
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat)
    assert view.partner_shown is not None
    k = Knowledge(view)
    partner = (seat + 2) % 4
    for _ in range(5):
        sample = k.sample(rng)
        assert sorted(sample.hands[partner]) == sorted(c.code for c in hand.hands[partner])
        assert sorted(sample.hands[seat]) == sorted(c.code for c in hand.hands[seat])


@pytest.mark.parametrize("level", LEVELS)
def test_bots_are_deterministic_for_a_seed(level: str) -> None:
    rng = random.Random(11)
    deck = list(deck_for(2))
    rng.shuffle(deck)

    def run(seed: int) -> list[Card]:
        hand = Hand(_options(2), deck, 1)
        bots = [make_bot(FAST[level], seed), make_bot("rules", 3)]
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            hand.play(seat, bots[seat].choose(hand.view(seat)))
        return hand.plays

    assert run(4) == run(4)


def test_strong_bot_plays_the_exact_endgame_at_two_players() -> None:
    """Stock empty at 2 players: everything is known, so the bot's card is a solver optimum."""
    rng = random.Random(3)
    bot = StrongBot(0, samples=4)
    checked = 0
    for _ in range(40):
        deck = list(deck_for(2))
        rng.shuffle(deck)
        hand = Hand(_options(2), deck, 0)
        while hand.stock_left > 0:
            seat = hand.current_player
            assert seat is not None
            hand.play(seat, rng.choice(hand.legal_plays()))
        seat = hand.current_player
        assert seat is not None
        fast = FastHand.deal([c.code for c in deck], 0, 2)
        for c in hand.plays:
            fast.play(c.code)
        values = solve(fast, seat)
        card = bot.choose(hand.view(seat))
        assert values[card.code] == max(values.values())
        checked += 1
    assert checked == 40


def _duel(a: str, b: str, deals: int, seed: int) -> tuple[int, int]:
    """Hands won by A and by B over ``deals`` decks, each played with both seatings."""
    opts = _options(2)
    won = [0, 0]
    for d in range(deals):
        deck = list(deck_for(2))
        random.Random(seed * 1000 + d).shuffle(deck)
        for a_seat in (0, 1):
            levels = [a, b] if a_seat == 0 else [b, a]
            bots = [make_bot(lv, d) for lv in levels]
            hand = Hand(opts, deck, d % 2)
            while not hand.is_terminal:
                seat = hand.current_player
                assert seat is not None
                hand.play(seat, bots[seat].choose(hand.view(seat)))
            pa, pb = hand.returns()[a_seat], hand.returns()[1 - a_seat]
            won[0] += pa > pb
            won[1] += pb > pa
    return won[0], won[1]


def test_rules_bot_beats_random_bot() -> None:
    """Measured near 89%; 70% of 200 hands leaves a margin far beyond chance."""
    a, b = _duel("rules", "random", 100, seed=42)
    assert a / (a + b) > 0.70


def test_strong_bot_beats_random_bot() -> None:
    a, b = _duel("strong:8", "random", 15, seed=7)
    assert a / (a + b) > 0.70


def test_level_specs_for_budgets() -> None:
    """``strong:N`` sets the samples, ``strong:0.05s`` a time budget; both play legal cards."""
    by_samples = make_bot("strong:12", 1)
    assert isinstance(by_samples, StrongBot) and by_samples.samples == 12
    timed = make_bot("strong:0.05s", 1)
    assert isinstance(timed, StrongBot) and timed.time_budget == 0.05
    with pytest.raises(UnknownLevel):
        make_bot("strong:lots")
    hand = Hand(_options(2), list(deck_for(2)), 0)
    view = hand.view(1)
    assert timed.choose(view) in view.legal_plays
    assert by_samples.choose(view) in view.legal_plays


def test_level_specs_name_the_strong_levels_settings() -> None:
    """``strong:NAME=VALUE+...`` sets ``StrongBot``'s keyword arguments by name, each of its
    type, so that a variant docs/ai.md measures runs from the command line; a setting that does
    not exist, or a value that does not fit it, is refused with a message naming it."""
    bot = make_bot("strong:win_stock=20+exact_tail=0+early_margin=2.5+samples=40", 5)
    assert isinstance(bot, StrongBot)
    assert (bot.seed, bot.win_stock, bot.exact_tail, bot.early_margin, bot.samples) == (
        5,
        20,
        False,
        2.5,
        40,
    )
    assert make_bot("strong:exact_tail=on").exact_tail is True  # type: ignore[attr-defined]
    refused = {
        "strong:depth=3": "'depth' is not a setting",
        "strong:exact_tail=maybe": "exact_tail takes a flag",
        "strong:win_stock=many": "win_stock takes a finite number (int)",
        "strong:samples=1.5": "samples takes a finite number (int)",
        "strong:samples=0": "at least one sample",
        "strong:win_bonus=nan": "win_bonus takes a finite number (float)",
        "strong:solve_rules_below=inf": "solve_rules_below takes a finite number",
        "strong:solve_rules_below=0": "solve_rules_below is a chance, above 0",
        "strong:solve_rules_below=-1": "solve_rules_below is a chance, above 0",
    }
    for level, why in refused.items():
        with pytest.raises(UnknownLevel, match=re.escape(why)):
            make_bot(level)


@pytest.mark.parametrize(("players", "samples", "exact"), [(2, 300, False), (4, 100, True)])
def test_default_strong_budget_per_player_count(players: int, samples: int, exact: bool) -> None:
    """The documented defaults: 300 samples with a sampled draw order at 2 players, 100 samples
    averaging every draw order at 4 (the same scores as asking for that budget explicitly)."""
    deck = list(deck_for(players))
    random.Random(players).shuffle(deck)
    hand = Hand(_options(players), deck, 0)
    bots = [make_bot("rules", s) for s in range(players)]
    for _ in range(3 * players):  # a few tricks in, so the opponent model has plays to weigh
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, bots[seat].choose(hand.view(seat)))
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat)
    default = make_bot("strong", 3)
    assert isinstance(default, StrongBot)
    explicit = StrongBot(3, samples=samples, exact_model=exact)
    other = StrongBot(3, samples=samples, exact_model=not exact)
    assert default.scores(view) == explicit.scores(view)
    assert default.scores(view) != other.scores(view)
