"""The random-hand hot loop (``ai.fast.random_hand``) plays the engine's hands in every variant.

For every removed 2 at 3 players and with the partner exchange on and off at 4, each of the loop's
hands is replayed card by card in ``rules.Hand``: every card must be the turn's player's to play
(so the deal and every draw went to the right seat), and every trick winner, the end of the hand
and the points per side must be the engine's.
"""

from __future__ import annotations

import random

import pytest

from briscola_lan.ai.fast import random_hand
from briscola_lan.rules import (
    ALL_CARDS,
    HandEnded,
    HandsExchanged,
    TableOptions,
    TrickTaken,
    all_variants,
    deck_for,
)
from briscola_lan.rules.hand import Hand

# One option set per distinct hand rule: players, exchange on/off, the 2 that is out at 3 players.
# The loop plays the games with a stock and an upcard: 2 to 4 players.
HAND_RULES = sorted(
    {(o.players, o.partner_exchange, o.removed_two) for o in all_variants() if o.players < 5}
)


def test_the_variants_cover_every_removed_two_and_both_exchanges() -> None:
    assert {two for p, _, two in HAND_RULES if p == 3} == set(range(4))
    assert {ex for p, ex, _ in HAND_RULES if p == 4} == {True, False}


@pytest.mark.parametrize(("players", "exchange", "two"), HAND_RULES)
def test_random_hand_plays_the_engine_hand(players: int, exchange: bool, two: int) -> None:
    opts = TableOptions.make(
        players=players,
        match_format="points" if players == 3 else "hands",
        partner_exchange=exchange,
        removed_two=two,
    )
    deck = list(deck_for(players, opts.removed_two))
    rng = random.Random(f"random_hand {players} {exchange} {two}")
    tricks_per_hand = len(deck) // players
    for game in range(300):
        rng.shuffle(deck)
        dealer = game % players
        trace: list[int] = []
        points = random_hand([c.code for c in deck], dealer, players, rng.random, trace)
        assert len(trace) == tricks_per_hand * (players + 1)
        engine = Hand(opts, deck, dealer)
        exchanged_at = None
        for k in range(tricks_per_hand):
            *cards, winner = trace[k * (players + 1) : (k + 1) * (players + 1)]
            for code in cards:
                seat = engine.current_player
                assert seat is not None
                assert ALL_CARDS[code] in engine.hands[seat], "a card the seat was not dealt"
                events = engine.play(seat, ALL_CARDS[code])
            taken = [e for e in events if isinstance(e, TrickTaken)]
            assert [t.winner for t in taken] == [winner]
            if any(isinstance(e, HandsExchanged) for e in events):
                exchanged_at = k + 1
        assert engine.is_terminal and isinstance(events[-1], HandEnded)
        assert list(engine.returns()) == points
        assert sum(points) == 120
        # The exchange changes nothing the loop plays: it comes when the stock runs out, or never.
        assert exchanged_at == (engine.exchange_trick if opts.exchange_enabled else None)
        if opts.exchange_enabled:
            assert exchanged_at == (len(deck) - 3 * players) // players
