"""A classic hand's machine (``fairness.classic_hand.ClassicHand``) against the rules engine.

Every variant, every hand to its end (the 4-player exchange included): the host's machine (every
seat's deals) and each seat's own (its deals only, as in its file) are fed the records as the
host publishes them, and every seat's view (what a client shows and a bot plays from) must be the
engine's after every record; the host's reveal must then replay to the engine's result.
"""

from __future__ import annotations

import random

import pytest

from briscola_lan.fairness.auction_checks import bid_code
from briscola_lan.fairness.classic_hand import ClassicHand
from briscola_lan.fairness.encoding import HOST_PARTY, card_commitment, deck_seed, seed_commitment
from briscola_lan.fairness.shuffle import deal_deck
from briscola_lan.fairness.statements import (
    BidStatement,
    CallStatement,
    Deal,
    DeckCommit,
    Exchange,
    HostCommit,
    HostReveal,
    Opening,
    Play,
    SeedCommit,
    SeedReveal,
    Statement,
    Upcard,
)
from briscola_lan.rules import (
    CardDealt,
    Event,
    Hand,
    HandEnded,
    HandsExchanged,
    Suit,
    TableOptions,
    all_variants,
)

GAME = bytes(range(16))
CONTEXT = bytes(32)  # the machine does not judge contexts (the checker does)
HANDS_PER_VARIANT = 6


class Hands:
    """The host's machine and each seat's, fed as the host publishes (a seat gets its own deals
    and exchanges only); a record of another kind closes the schedule's deals, as the checker
    does."""

    def __init__(self, opts: TableOptions, commit: HostCommit, salts: list[bytes]) -> None:
        self.salts = salts
        self.host = ClassicHand(opts, commit)
        self.seats = {s: ClassicHand(opts, commit) for s in range(opts.players)}
        self.record = 0

    def publish(self, st: Statement, to: int | None = None) -> None:
        """``to``: the one seat a deal or an exchange is for (None: every file holds it)."""
        machines = [self.host, *([self.seats[to]] if to is not None else self.seats.values())]
        for m in machines:
            if not isinstance(st, Deal | Exchange):
                m.close_window()
            m.apply(st, self.record)  # type: ignore[arg-type]
        self.record += 1

    def agree(self, engine: Hand) -> None:
        """Every seat's view, from the host's machine and from its own, is the engine's."""
        for seat in range(engine.n):
            want = engine.view(seat)
            for m in (self.host, self.seats[seat]):
                assert m.to_play == engine.to_play
                assert not m.cards_on_their_way(seat)
                assert m.view(seat) == want
                assert m.can_play(seat) == want.my_turn


def _deliver(hands: Hands, hand_no: int, engine: Hand, events: list[Event]) -> None:
    """What the host publishes after these events: each seat its own cards (one deal per seat,
    in seat order), then at the end of the stock each seat its partner's hand."""
    per_seat: dict[int, list[CardDealt]] = {}
    for ev in events:
        if isinstance(ev, CardDealt):
            per_seat.setdefault(ev.seat, []).append(ev)
    salts = hands.salts
    for seat, cards in sorted(per_seat.items()):
        for m in (hands.host, hands.seats[seat]):
            assert m.cards_on_their_way(seat)
            assert m.view(seat) is None  # no turn is offered from a hand missing a card
            assert not m.can_play(seat)
        openings = tuple(Opening(e.position, e.card.code, salts[e.position]) for e in cards)
        hands.publish(Deal(GAME, hand_no, seat, openings), to=seat)
    if any(isinstance(ev, HandsExchanged) for ev in events):
        assert engine.exchange_shown is not None
        position = {c.code: p for p, c in enumerate(engine.deck)}
        for seat in range(engine.n):
            partner = engine.options.partner_of(seat)
            assert partner is not None and hands.seats[seat].cards_on_their_way(seat)
            shown = engine.exchange_shown[partner]
            openings = tuple(
                Opening(position[c.code], c.code, salts[position[c.code]]) for c in shown
            )
            hands.publish(Exchange(GAME, hand_no, seat, partner, openings), to=seat)


def _play_hand(opts: TableOptions, hand_no: int, dealer: int, rng: random.Random) -> Hand:
    n = opts.players
    seeds = [rng.randbytes(32) for _ in range(n)]
    host_seed = rng.randbytes(32)
    deck = deal_deck(opts, deck_seed(GAME, hand_no, host_seed, seeds))
    salts = [rng.randbytes(32) for _ in deck]
    commit = HostCommit(
        GAME, hand_no, dealer, seed_commitment(GAME, hand_no, HOST_PARTY, host_seed)
    )
    hands = Hands(opts, commit, salts)
    for seat in range(n):
        c = seed_commitment(GAME, hand_no, seat, seeds[seat])
        hands.publish(SeedCommit(GAME, hand_no, seat, CONTEXT, c))
    for seat in range(n):
        hands.publish(SeedReveal(GAME, hand_no, seat, CONTEXT, seeds[seat]))
    commitments = tuple(
        card_commitment(GAME, hand_no, p, c.code, salts[p]) for p, c in enumerate(deck)
    )
    hands.publish(DeckCommit(GAME, hand_no, commitments))
    engine = Hand(opts, list(deck), dealer)
    _deliver(hands, hand_no, engine, engine.deal_events)
    if opts.chiamata:  # no upcard: the auction, then the call (or a void hand)
        _auction(hands, hand_no, engine, rng)
    else:
        up = 3 * n
        hands.publish(Upcard(GAME, hand_no, Opening(up, deck[up].code, salts[up])))
    if engine.passed_out:
        events: list[Event] = []
    else:
        hands.agree(engine)
    index = 0
    while (seat := engine.current_player) is not None:
        card = rng.choice(engine.legal_plays())
        events = engine.play(seat, card)
        hands.publish(Play(GAME, hand_no, seat, CONTEXT, index, card.code))
        index += 1
        _deliver(hands, hand_no, engine, events)
        if engine.current_player is not None:
            hands.agree(engine)
    assert engine.passed_out or isinstance(events[-1], HandEnded)
    reveal = HostReveal(GAME, hand_no, host_seed, tuple(salts), engine.returns())
    for m in (hands.host, *hands.seats.values()):
        assert m.to_play is None
        m.close_window()
        assert m.on_host_reveal(reveal, hands.record).returns() == engine.returns()
    for seat in range(n):  # the hand's end is still on every screen: the last table, no turn
        for m in (hands.host, hands.seats[seat]):
            view = m.view(seat)
            assert view is not None and view == engine.view(seat) and not view.my_turn
    return engine


def _auction(hands: Hands, hand_no: int, engine: Hand, rng: random.Random) -> None:
    """Five players: the seats bid in turn (a pass half the time, else a legal bid), then the
    auction's winner calls a suit; every view agrees with the engine's after each."""
    index = 0
    while (seat := engine.public.to_bid) is not None:
        hands.agree(engine)
        legal = engine.legal_bids()
        bid = rng.choice(legal[:3]) if legal and rng.random() < 0.5 else None
        engine.bid(seat, bid)
        hands.publish(BidStatement(GAME, hand_no, seat, CONTEXT, index, bid_code(bid)))
        index += 1
    if (seat := engine.public.to_call) is not None:
        hands.agree(engine)
        suit = rng.choice(list(Suit))
        engine.call(seat, suit)
        hands.publish(CallStatement(GAME, hand_no, seat, CONTEXT, int(suit)))


@pytest.mark.parametrize("opts", all_variants(), ids=lambda o: o.summary().replace(" ", "_"))
def test_the_machine_follows_the_engine_through_whole_hands(opts: TableOptions) -> None:
    rng = random.Random(opts.summary())
    for hand_no in range(HANDS_PER_VARIANT):
        engine = _play_hand(opts, hand_no, hand_no % opts.players, rng)
        assert sum(engine.returns()) == (0 if engine.passed_out else 120)
        assert (engine.exchange_trick is not None) == opts.exchange_enabled
