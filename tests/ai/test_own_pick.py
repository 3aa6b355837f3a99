"""The strong level's own rule-based card (``own_pick``): ``rule_pick`` but, at 2 players, for
the points it would throw on a lost trick, which count towards spending a low trump on it, and
for a trick worth nothing, which it leaves to the opponent rather than take with a worthless
card."""

from __future__ import annotations

import random

from briscola_lan.ai import StrongBot
from briscola_lan.ai.fast import FastHand
from briscola_lan.ai.infer import Knowledge
from briscola_lan.ai.policy import own_pick, rule_pick
from briscola_lan.ai.solver import Solver
from briscola_lan.rules import Card
from tests.ai.test_positions import _deal, _play


def _codes(cards: str) -> list[int]:
    return [Card.parse(c).code for c in cards.split()]


def _both(
    hand: str, trick: str, players: int = 2, trump: int = 1, stock: int = 20
) -> tuple[str, str]:
    """(rule_pick's card, own_pick's card) for the last seat to play of ``trick``."""
    h, t = _codes(hand), _codes(trick)
    leader = 0
    seat = len(t)
    played = 0
    for c in t:
        played |= 1 << c
    out = []
    for pick in (rule_pick, own_pick):
        code = pick(list(h), list(t), leader, seat, players, trump, played, stock)
        out.append(Card.from_code(code).label(ascii_only=True))
    return out[0], out[1]


def test_points_to_throw_make_a_small_trick_worth_a_low_trump() -> None:
    """Hearts trumps, J♣ led (2 points): rule_pick throws Q♠ (3 points) to the opponent; with
    those 3 points counted the trick is worth the 4 of trumps, which takes it."""
    rules, own = _both("Qs Kd 4h", "Jc")
    assert rules == Card.parse("Qs").label(ascii_only=True)
    assert own == Card.parse("4h").label(ascii_only=True)


def test_a_worthless_card_to_throw_changes_nothing() -> None:
    assert _both("5s Kd 4h", "Jc") == (Card.parse("5s").label(ascii_only=True),) * 2


def test_a_counting_trump_is_still_kept_for_a_trick_worth_it() -> None:
    """J♣ led, hand K♠ Q♦ 3♥: 2 + 3 thrown + 10 is short of the 20 a 3 of trumps needs."""
    assert _both("Ks Qd 3h", "Jc") == (Card.parse("Qd").label(ascii_only=True),) * 2


def _label(card: str) -> str:
    return Card.parse(card).label(ascii_only=True)


def test_a_trick_worth_nothing_is_left_to_the_opponent() -> None:
    """Hearts trumps, 4♠ led: rule_pick takes it with 7♠ (no points, and it must lead next);
    own_pick throws 2♣ and keeps the 7, the opponent leading again."""
    assert _both("7s 2c Kd", "4s") == (_label("7s"), _label("2c"))


def test_a_lower_card_of_the_suit_led_is_thrown_too() -> None:
    """5♠ led, hand 7♠ 2♠ A♦: the 2♠ does not take the trick; it goes instead of the 7."""
    assert _both("7s 2s Ad", "5s") == (_label("7s"), _label("2s"))


def test_a_worthless_trick_is_taken_when_only_points_or_trumps_are_left() -> None:
    """4♠ led, hand 7♠ K♦ 5♥ (hearts trumps): nothing worthless to throw but a trump, so the
    7 takes it as the rules do; a trick with points (J♠ led) is taken with the king."""
    assert _both("7s Kd 5h", "4s") == (_label("7s"),) * 2
    assert _both("Ks 2c 5h", "Js") == (_label("Ks"),) * 2


def test_a_worthless_trick_is_taken_at_three_and_four_players() -> None:
    seven = _label("7s")
    assert _both("7s 2c Kd", "4s 5s", players=3) == (seven, seven)
    assert _both("7s 2c Kd", "5s 4s 6c", players=4) == (seven, seven)


def test_the_strong_level_leaves_a_worthless_first_trick() -> None:
    """Hearts trumps (3♥ up), 4♠ led to the first trick, hand 7♠ 2♣ K♦: early in the hand the
    strong level keeps to its own rule-based card, 2♣, in every seed; the rules level takes the
    trick with 7♠."""
    hand = _play(_deal(2, ["7s 2c Kd", "4s 5d 6d"], "3h"), "4s")
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat)
    assert view.stock_left == 34
    for seed in range(4):
        assert StrongBot(seed).choose(view) == Card.parse("2c"), seed
    rules = Knowledge(view)
    assert rule_pick(rules.my_hand, rules.trick, view.leader, seat, 2, rules.trump,
                     rules.played_mask, view.stock_left) == Card.parse("7s").code  # fmt: skip


def test_three_and_four_players_keep_the_rules_card() -> None:
    """At 3 and 4 players the change loses points (benchmarks/bench_policy.py): the last seat
    throws Q♠ on J♣ as the rules do, and at 4 players loads its partner's sure trick."""
    q = Card.parse("Qs").label(ascii_only=True)
    assert _both("Qs Kd 4h", "Jc 5c", players=3) == (q, q)
    assert _both("Qs Kd 4h", "Jc 5c 7c", players=4) == (q, q)
    rules, own = _both("3s 2h Kd", "4c Ac 5c", players=4)
    assert own == rules == Card.parse("3s").label(ascii_only=True)


def _hand(deck: list[int], dealer: int, picks: tuple[object, object]) -> int:
    """Seat 0's points in a 2-player hand: seat s plays ``picks[s]``, the end solved exactly
    once the stock is empty (as the rules bot plays it)."""
    h = FastHand.deal(deck, dealer, 2)
    while h.to_play >= 0:
        if h.stock_left == 0:
            return h.points[0] + int(Solver(h, 0).value(h))
        s = h.to_play
        pick = picks[s]
        assert callable(pick)
        h.play(pick(h.hands[s], h.trick, h.leader, s, 2, h.trump, h.played, h.stock_left))
    return h.points[0]


def test_own_pick_outscores_rule_pick_on_the_same_deals() -> None:
    """Over 1,500 seeded deals, each played twice with the seats swapped, own_pick's side takes
    more points than rule_pick's (+0.75 a hand here, +0.96 over 20,000 deals)."""
    diff = 0
    for i in range(1500):
        deck = list(range(40))
        random.Random(f"own:{i}").shuffle(deck)
        diff += 2 * (_hand(deck, i % 2, (own_pick, rule_pick)) - 60)
        diff += 2 * (60 - _hand(deck, i % 2, (rule_pick, own_pick)))
    assert diff / 3000 > 0.5
