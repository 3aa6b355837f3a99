"""Invariants over many seeded random games of every variant, checked after every step, and the
match ending exactly when its format says (60–60 hands and points ties constructed on purpose)."""

from __future__ import annotations

import random

import pytest

from briscola_lan.ai import make_bot
from briscola_lan.rules import Hand, Match, MatchFormat, Suit, TableOptions, all_variants, deck_for
from briscola_lan.sim import shuffled_deck


def _check_hand(hand: Hand) -> None:
    n = hand.n
    stock = [hand.deck[p] for p in hand.public.stock_positions()]
    played = [c for t in hand.tricks for _, c in t.plays] + [c for _, c in hand.trick]
    everywhere = [c for h in hand.hands for c in h] + stock + played
    # Every card exactly once (the upcard is in the stock until drawn, then in a hand or played).
    assert sorted(c.code for c in everywhere) == sorted(c.code for c in hand.deck)
    assert len(everywhere) == len(set(everywhere)) == hand.options.deck_size
    if hand.upcard is not None:
        assert (hand.upcard in stock) == (hand.upcard_taken_by is None)
    # Hand sizes: equal before a trick; seats that already played this trick hold one fewer.
    in_trick = {s for s, _ in hand.trick}
    sizes = [len(h) + (1 if s in in_trick else 0) for s, h in enumerate(hand.hands)]
    assert len(set(sizes)) == 1 and sizes[0] <= hand.options.hand_size
    assert sum(hand.points) == sum(c.points for t in hand.tricks for _, c in t.plays)
    contract = hand.contract
    called_played = contract is not None and contract.called in played
    for seat in range(n):
        view = hand.view(seat)
        assert sorted(view.hand, key=lambda c: c.code) == sorted(
            hand.hands[seat], key=lambda c: c.code
        )
        if hand.options.chiamata:
            # The partner: known to itself from its cards, to everyone once the card is played.
            holder = hand.called_holder
            if called_played:
                assert view.partner == holder
            elif seat == holder:
                assert view.partner == seat and view.holds_called
            else:
                assert view.partner is None and not view.holds_called
        visible = set(view.hand) | set(view.played_cards) | {view.upcard}
        if view.partner_shown is not None:
            visible |= set(view.partner_shown)
        partner = hand.options.partner_of(seat)
        for other in range(n):
            if other == seat:
                continue
            leaked = visible & set(hand.hands[other])
            allowed = {hand.upcard}
            if other == partner and view.partner_shown is not None:
                allowed |= set(view.partner_shown)
            assert leaked <= allowed, (seat, other, leaked)


def _expected_over(match: Match) -> bool:
    """The match format, written out independently of Match.winner."""
    opts = match.options
    if opts.match_format is MatchFormat.TOTAL:
        if len(match.results) < opts.match_hands:
            return False
        sums = [sum(r.call.scores[i] for r in match.results if r.call) for i in range(5)]
        return sums.count(max(sums)) == 1
    if opts.match_format is MatchFormat.HANDS:
        won = [0] * opts.sides
        for r in match.results:
            top = max(r.points)
            if r.points.count(top) == 1:
                won[r.points.index(top)] += 1
        return max(won) >= opts.hands_to_win
    if len(match.results) < opts.base_hands:
        return False
    totals = [sum(r.points[i] for r in match.results[: opts.base_hands]) for i in range(opts.sides)]
    tied = [i for i, p in enumerate(totals) if p == max(totals)]
    for r in match.results[opts.base_hands :]:
        if len(tied) == 1:
            break
        best = max(r.points[i] for i in tied)
        tied = [i for i in tied if r.points[i] == best]
    return len(tied) == 1


VARIANTS = all_variants()


@pytest.mark.parametrize(
    "options", VARIANTS, ids=[v.summary() + f"/{v.hands_to_win}" for v in VARIANTS]
)
def test_random_matches_keep_every_invariant(options: TableOptions) -> None:
    rng = random.Random(options.summary() + str(options.hands_to_win))
    for m in range(2):
        match = Match(options, first_dealer=m % options.players)
        bots = [make_bot("random", rng.randrange(1000)) for _ in range(options.players)]
        while not match.is_over:
            assert not _expected_over(match)
            hand = match.new_hand(shuffled_deck(options, rng.randrange(10**6), m))
            assert hand.dealer == (m + match.hand_number) % options.players
            _check_hand(hand)
            while hand.phase == "auction":  # five players: random bids, a third of them bids
                seat = hand.current_player
                assert seat is not None and hand.view(seat).legal_bids == hand.legal_bids()
                bids = hand.legal_bids()
                hand.bid(seat, rng.choice(bids) if rng.random() < 0.35 else None)
                _check_hand(hand)
            if hand.passed_out:
                assert hand.is_terminal
                continue  # the same dealer deals again
            if hand.phase == "call":
                seat = hand.current_player
                assert seat is not None and hand.view(seat).my_call
                hand.call(seat, Suit(rng.randrange(4)))
                _check_hand(hand)
            while not hand.is_terminal:
                seat = hand.current_player
                assert seat is not None
                hand.play(seat, bots[seat].choose(hand.view(seat)))
                _check_hand(hand)
            assert sum(hand.returns()) == 120
            assert len(hand.tricks) == options.deck_size // options.players
            match.record(hand)
        assert _expected_over(match)


@pytest.mark.parametrize("players", [2, 4])
def test_hands_format_ignores_60_60(players: int) -> None:
    for target in range(1, 6):
        match = Match(TableOptions.make(players=players, hands_to_win=target))
        for _ in range(3):
            match.record_points([60, 60])
            assert not match.is_over and match.hands_won() == (0, 0)
        for _ in range(target - 1):
            match.record_points([61, 59])
            match.record_points([30, 90])
            match.record_points([60, 60])
            assert not match.is_over and _expected_over(match) is False
        assert match.hands_won() == (target - 1, target - 1)
        match.record_points([90, 30])
        assert match.winner == 0 and _expected_over(match)


def test_points_format_ties_go_to_tiebreak_hands() -> None:
    opts = TableOptions.make(players=2, match_format=MatchFormat.POINTS)
    match = Match(opts)
    match.record_points([70, 50])
    assert not match.is_over
    match.record_points([50, 70])  # 120-120 after the regular hands
    assert not match.is_over and match.next_is_tiebreak
    match.record_points([60, 60])  # tie-break tied again
    assert not match.is_over and not _expected_over(match)
    match.record_points([59, 61])
    assert match.is_over and match.winner == 1 and _expected_over(match)

    three = Match(TableOptions.make(players=3, match_format=MatchFormat.POINTS))
    for pts in ([40, 40, 40], [50, 30, 40], [30, 50, 40]):
        assert not three.is_over
        three.record_points(pts)
    assert not three.is_over  # seats 0 and 1 tie on 120, seat 2 has 120 too: all tied
    three.record_points([10, 50, 60])
    assert three.is_over and three.winner == 2 and _expected_over(three)


def test_simulated_decks_are_permutations_of_the_pack() -> None:
    for options in VARIANTS[:: len(VARIANTS) // 6]:
        deck = shuffled_deck(options, 1, 2, 3)
        assert sorted(c.code for c in deck) == sorted(
            c.code for c in deck_for(options.players, options.removed_two)
        )
        assert deck == shuffled_deck(options, 1, 2, 3)
