"""The strong AI plays with its partner's signals: every deal it imagines gives the partner a
hand that could have made them (the cards played since counting), a signal the cards have shown
to be a bluff is ignored, and knowing where the ace of trumps is changes its play."""

from __future__ import annotations

import dataclasses
import random

from briscola_lan.ai import StrongBot
from briscola_lan.ai.evaluate import Budget, evaluate
from briscola_lan.ai.infer import Knowledge
from briscola_lan.rules import Card, Hand, SeatView, TableOptions, deck_for
from briscola_lan.rules.signals import SignalValue, consistent, truthful
from briscola_lan.sim import opening_signals
from tests.ai.test_positions import _deal, _play

OPTS = TableOptions.make(players=4, signals=True, partner_exchange=False)
ACE, NOTHING = SignalValue.ACE_OF_TRUMPS, SignalValue.NOTHING


def _heard(view: SeatView, value: SignalValue, index: int = 0) -> SeatView:
    return dataclasses.replace(view, partner_signals=((index, value),))


def _partner_hands(view: SeatView, count: int = 40) -> list[set[Card]]:
    k = Knowledge(view)
    assert k.partner is not None
    rng = random.Random(0)
    return [{Card.from_code(c) for c in k.sample(rng).hands[k.partner]} for _ in range(count)]


def _table(dealer: int = 3) -> Hand:
    """Hearts are trumps (7h turned up); seat 0 leads; its partner, seat 2, holds Ah."""
    hands = ["4c 6s 7s", "Kd 5c 2d", "Ah 6d 7d", "5s 4s Qc"]
    return _deal(4, hands, "7h", dealer=dealer, options=OPTS)


def test_every_deal_gives_the_partner_a_hand_that_could_make_its_signal() -> None:
    """Before the partner draws, its hand is the one it signalled about: every deal agrees."""
    rng = random.Random(1)
    for game in range(40):
        deck = list(deck_for(4))
        rng.shuffle(deck)
        hand = Hand(OPTS, deck, game % 4)
        seat = hand.current_player
        assert seat is not None
        ((_, said),) = opening_signals(hand)[seat]
        partner = OPTS.partner_of(seat)
        assert partner is not None and said is truthful(hand.view(partner).hand, hand.trump)
        for held in _partner_hands(_heard(hand.view(seat), said)):
            assert consistent(said, held, hand.trump), (said, held)


def test_the_ace_of_trumps_signalled_is_in_the_partners_hand() -> None:
    view = _table().view(0)
    ace = Card.parse("Ah")
    k = Knowledge(_heard(view, ACE))
    assert ace.code in k.known[2] and ace.code not in k.pool
    assert all(ace in held for held in _partner_hands(_heard(view, ACE)))
    assert not all(ace in held for held in _partner_hands(view))  # unsignalled: anywhere


def _until(hand: Hand, seat: int) -> Hand:
    """Play the lowest legal card for every seat until it is ``seat``'s turn."""
    while hand.current_player != seat:
        who = hand.current_player
        assert who is not None
        hand.play(who, hand.view(who).legal_plays[0])
    return hand


def test_nothing_means_no_trump_and_no_carico_but_for_the_cards_drawn_since() -> None:
    hand = _deal(4, ["4c 6s 7s", "Kd 5c 2d", "Jd 6d 7d", "5s 4s Qc"], "7h", dealer=3, options=OPTS)
    for held in _partner_hands(_heard(hand.view(0), NOTHING)):
        assert consistent(NOTHING, held, hand.trump), held
    # A trick later the partner has drawn a card: it may be the one trump or carico it holds.
    _until(_play(hand, "4c", "5c", "6d", "5s"), 0)
    view = _heard(hand.view(0), NOTHING)
    since = {c for t in view.tricks[1:] for s, c in t.plays if s == 2}
    since |= {c for s, c in view.trick if s == 2}
    for held in _partner_hands(view):
        assert sum(not consistent(NOTHING, [c], hand.trump) for c in held | since) <= 1


def test_a_signal_made_good_or_shown_false_adds_nothing() -> None:
    # The partner plays the ace of trumps before its first draw: an "ace" signal is made good,
    # a "nothing" signal shown false; neither leaves anything to place or check.
    hand = _until(_play(_table(), "4c", "5c", "Ah", "5s"), 0)
    for value in (ACE, NOTHING):
        k = Knowledge(_heard(hand.view(0), value))
        assert not k.checks and not k.known[2], value
    # The ace of trumps is in my own hand: the partner's "ace" is a bluff, ignored.
    mine = _deal(4, ["Ah 6s 7s", "Kd 5c 2d", "4c 6d 7d", "5s 4s Qc"], "7h", dealer=3, options=OPTS)
    k = Knowledge(_heard(mine.view(0), ACE))
    assert not k.checks and not k.known[2]


# A 4-player hand without the exchange, the stock gone: diamonds are trumps;
# seat 1 led 7c, seat 2 (my partner) 6s, seat 3 4c; I hold 3d Qh 7d, and my partner holds Ad.
DECK = (
    "5d Jd 2h Kh Ac 3c Qc 6c Kc 3d 6d Ad 7d 7s Jh Ks 4d 4s Jc 5h 4h 2c 2s 6h As 3h Js 2d Ah 3s "
    "Kd 5s Qh Qs 5c 7h 7c Qd 6s 4c"
)
PLAYS = (
    "Kc Jd 2h Kh 7s Jh 6c 4d 4s Jc 5h Ks 2c 2s 6h Qc 6d 4h 2d 3c 3h Kd 5s Ah Js 5c 7h As 7c 6s 4c"
)


def test_knowing_the_partner_holds_the_ace_of_trumps_it_takes_the_lead_with_a_small_trump() -> None:
    """Seat 1 leads a worthless trick. My partner signalled the ace of trumps: I take the trick
    with the 7 of trumps and lead the 3, which nobody else can beat. Without the signal the ace
    may be an opponent's: I keep my trumps and give the queen."""
    hand = Hand(OPTS, [Card.parse(x) for x in DECK.split()], 2)
    ((_, said),) = opening_signals(hand)[0]
    _play(hand, *PLAYS.split())
    assert said is ACE and hand.current_player == 0 and hand.stock_left == 0
    view = hand.view(0)
    assert {c.label(ascii_only=True) for c in view.hand} == {"3d", "Qh", "7d"}
    heard = _heard(view, said)
    seven, queen = Card.parse("7d"), Card.parse("Qh")
    exact = Budget(lambda stock, players: 0, exact_up_to=1000)
    told, untold = evaluate(heard, exact), evaluate(view, exact)
    assert told.exact and untold.exact  # every deal agreeing with the view, solved
    assert told.best() == seven.code and told.cost(queen.code) > 2
    assert untold.best() == queen.code and untold.cost(seven.code) > 10
    for seed in range(4):
        assert StrongBot(seed).choose(heard) == seven, seed
        assert StrongBot(seed).choose(view) == queen, seed
