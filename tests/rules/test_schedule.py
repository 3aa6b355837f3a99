"""The engine without the deck (the public schedule) follows the rules engine exactly, from public
facts only."""

from __future__ import annotations

import random

import pytest

from briscola_lan.rules.cards import Suit, deck_for
from briscola_lan.rules.events import CardDealt, HandEnded, HandsExchanged
from briscola_lan.rules.hand import Hand
from briscola_lan.rules.options import TableOptions, all_variants
from briscola_lan.rules.schedule import PublicSchedule


@pytest.mark.parametrize("options", all_variants(), ids=lambda o: o.summary())
def test_schedule_matches_the_engine_over_whole_hands(options: TableOptions) -> None:
    rng = random.Random(f"schedule-{options.summary()}")  # test data only
    for trial in range(30):
        deck = list(deck_for(options.players, options.removed_two))
        rng.shuffle(deck)
        dealer = trial % options.players
        hand = Hand(options, deck, dealer)
        sched = PublicSchedule(options, dealer)
        initial = [(e.position, e.seat) for e in hand.deal_events if isinstance(e, CardDealt)]
        assert sorted(initial) == sorted(sched.dealt.items())
        for seat in range(options.players):
            assert sched.initial[seat] == [p for p, s in initial if s == seat]
        if options.chiamata:
            assert hand.upcard is None and hand.trump is None and sched.upcard_position is None
            while hand.phase == "auction":
                assert sched.to_bid == hand.current_player == hand.public.to_bid
                seat = sched.to_bid
                assert seat is not None
                legal = hand.legal_bids()
                bid = rng.choice(legal) if legal and rng.random() < 0.3 else None
                hand.bid(seat, bid)
                sched.bid(seat, bid)
            assert sched.phase == hand.phase
            if hand.passed_out:
                assert sched.auction is not None and sched.auction.passed_out
                assert hand.is_terminal and hand.current_player is None
                continue
            suit = rng.choice(list(Suit))
            assert sched.to_call == hand.current_player
            hand.call(hand.current_player, suit)  # type: ignore[arg-type]
            sched.call(sched.to_call, suit)  # type: ignore[arg-type]
            assert sched.contract == hand.contract and sched.trump is suit
        else:
            sched.trump = hand.trump
        exchanges = 0
        while not hand.is_terminal:
            seat = hand.current_player
            assert sched.to_play == seat
            card = rng.choice(hand.legal_plays())
            events = hand.play(seat, card)  # type: ignore[arg-type]
            outcome = sched.play(seat, card)  # type: ignore[arg-type]
            draws = tuple((e.seat, e.position) for e in events if isinstance(e, CardDealt))
            if outcome is None:
                assert not draws and len(hand.trick) > 0
                continue
            assert outcome.winner == hand.tricks[-1].winner
            assert outcome.points == hand.tricks[-1].points
            assert (
                outcome.draws == draws
            )  # the same positions, in the same order, to the same seats
            assert outcome.exchange == any(isinstance(e, HandsExchanged) for e in events)
            assert outcome.last == any(isinstance(e, HandEnded) for e in events)
            exchanges += outcome.exchange
            assert sched.stock_left == hand.stock_left
            assert sched.hand_sizes == [len(h) for h in hand.hands]
            assert sched.tricks == hand.tricks and sched.points == hand.points
            assert sched.upcard_taken_by == hand.upcard_taken_by
            assert sched.exchange_trick == hand.exchange_trick
            if options.chiamata:  # the partner is public once the called card is played
                called = hand.contract.called  # type: ignore[union-attr]
                played = called in [c for t in hand.tricks for _, c in t.plays]
                assert sched.partner == (hand.called_holder if played else None)
        assert sched.to_play is None
        if options.chiamata:
            assert sched.result() == hand.result() is not None
        assert exchanges == (1 if options.exchange_enabled else 0)
