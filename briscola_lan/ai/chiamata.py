"""The five-player (Briscola chiamata) bots: each bid, call and card from one seat's view.

``make_chiamata_bot(level, seed)`` gives a bot that bids, calls and plays from a SeatView, for
every role (caller, partner, the others).

Levels as at 2 to 4 players: ``random`` (random legal bids, calls and cards), ``rules`` (bids
from the hand's strength, calls its long suit, plays ``ai.chiamata_fast.pick`` with what it
knows of the partnership) and ``strong`` (``ai.chiamata_search``: the contract and every card
scored by determinized playouts, the partner inferred from the play). Every bot is deterministic
for its seed and the position, and keeps no state between calls.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from briscola_lan.ai.chiamata_fast import knowledge, pick
from briscola_lan.ai.infer import BotError
from briscola_lan.rules import Bid, Card, Rank, SeatView, Suit

# Hand strength for a suit as the briscola: each trump by rank, the side aces and threes.
TRUMP_VALUE = (11.0, 10.0, 7.0, 6.0, 5.0, 4.0, 3.5, 3.0, 3.0, 2.5)  # by rank, A .. 2
SIDE_VALUE = (5.0, 3.0, 1.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
LONG_SUIT = 2.5  # each trump past the second
# The strength a rank bid needs, by the called rank (A .. 2): a lower card, a weaker partner.
RANK_NEEDS = (24.0, 25.0, 27.0, 28.0, 29.0, 31.0, 32.0, 33.0, 34.0, 35.0)
# Past the 2: the callers' points a hand of this strength promises (61 at ``POINT_BASE``).
POINT_BASE = 38.0
POINTS_PER_STRENGTH = 1.5


@runtime_checkable
class ChiamataBot(Protocol):
    """An AI player at five: its bid (None: pass), its call, its card, each from its view."""

    level: str

    def bid(self, view: SeatView) -> Bid | None: ...

    def call(self, view: SeatView) -> Suit: ...

    def choose(self, view: SeatView) -> Card: ...


def check_five(view: SeatView, what: str, due: bool) -> None:
    """BotError unless the view is of a five-player hand where this seat owes ``what``."""
    if not view.options.chiamata:
        raise BotError(f"a chiamata bot plays 5 players, not {view.players}")
    if not due:
        raise BotError(f"seat {view.seat} was asked for {what} but it is not its turn")


def decision_rng(seed: int, view: SeatView, what: str) -> random.Random:
    """A generator fixed by the seed and the position (seat, deal, cards, auction, plays)."""
    hand = ",".join(str(c.code) for c in sorted(view.hand, key=lambda c: c.code))
    played = ",".join(str(c.code) for c in view.played_cards)
    bids = ",".join("-" if b is None else str(b.code) for _, b in view.auction)
    return random.Random(f"{seed}|{what}|{view.seat}|{view.dealer}|{hand}|{bids}|{played}")


def strength(hand: list[Card], suit: Suit) -> float:
    """How well a hand would play with ``suit`` as the briscola (the rules bot's measure)."""
    total = 0.0
    trumps = 0
    for c in hand:
        if c.suit is suit:
            total += TRUMP_VALUE[c.rank]
            trumps += 1
        else:
            total += SIDE_VALUE[c.rank]
    return total + LONG_SUIT * max(0, trumps - 2)


def partner_card(hand: list[Card], suit: Suit, lowest: Rank) -> Rank | None:
    """The highest rank of ``suit`` the hand lacks, from ``lowest``'s height down (None: it
    holds every one)."""
    held = {c.rank for c in hand if c.suit is suit}
    for r in Rank:
        if r >= lowest and r not in held:
            return r
    return None


def rule_bid(view: SeatView) -> Bid | None:
    """The rules bot's bid: in the strongest suit whose strength affords one, the highest legal
    rank it lacks there; past the 2, points up to what its strength promises; else pass."""
    legal = view.legal_bids
    if not legal:
        return None
    hand = list(view.hand)
    ranks = [b for b in legal if not b.is_points]
    best: tuple[float, int, Bid] | None = None
    for suit in Suit:
        s = strength(hand, suit)
        cand: Bid | None = None
        if ranks:
            r = partner_card(hand, suit, ranks[0].rank)
            if r is not None and s >= RANK_NEEDS[r]:
                cand = Bid.of_rank(r)
        elif partner_card(hand, suit, Rank.TWO) is Rank.TWO:
            promise = 61 + (s - POINT_BASE) * POINTS_PER_STRENGTH
            points = [b for b in legal if b.is_points and b.code <= promise]
            cand = points[0] if points else None
        if cand is not None and (best is None or (s, -cand.code) > (best[0], best[1])):
            best = (s, -cand.code, cand)
    return None if best is None else best[2]


def rule_call(view: SeatView) -> Suit:
    """The rules bot's call: its strongest suit whose called card it lacks (else its
    strongest: it plays alone)."""
    high = view.high_bid
    assert high is not None
    rank = high[1].rank
    hand = list(view.hand)
    lacking = [s for s in Suit if Card(s, rank) not in hand]
    pool = lacking or list(Suit)
    return max(pool, key=lambda s: (strength(hand, s), -int(s)))


def view_knowledge(view: SeatView) -> tuple[int, int]:
    """(friends, foes) of the view's seat as seat bitmasks, from what it may know."""
    contract = view.contract
    assert contract is not None
    if view.partner is not None:
        return knowledge(view.seat, contract.caller, view.partner, True)
    if view.seat == contract.caller:
        return 0, 0
    return 0, 1 << contract.caller


def rule_card(view: SeatView) -> Card:
    """The rules bot's card: ``pick`` with what the seat knows of the partnership."""
    assert view.trump is not None
    friends, foes = view_knowledge(view)
    played = 0
    for c in view.played_cards:
        played |= 1 << c.code
    code = pick(
        [c.code for c in view.hand],
        [c.code for _, c in view.trick],
        view.leader,
        view.seat,
        int(view.trump),
        played,
        friends,
        foes,
    )
    return Card.from_code(code)


def legal_cards(view: SeatView) -> tuple[Card, ...]:
    check_five(view, "a card", view.my_turn and bool(view.hand))
    if view.contract is None or len(view.hand) != view.hand_sizes[view.seat]:
        raise BotError(f"seat {view.seat} was asked for a card from an incomplete view")
    return view.legal_plays


class RandomChiamata:
    """Random legal bids (a third of its turns, else a pass), calls and cards."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def bid(self, view: SeatView) -> Bid | None:
        check_five(view, "a bid", view.my_bid)
        rng = decision_rng(self.seed, view, "bid")
        legal = view.legal_bids
        return rng.choice(legal[:12]) if legal and rng.random() < 1 / 3 else None

    def call(self, view: SeatView) -> Suit:
        check_five(view, "the call", view.my_call)
        return Suit(decision_rng(self.seed, view, "call").randrange(4))

    def choose(self, view: SeatView) -> Card:
        legal = legal_cards(view)
        return legal[decision_rng(self.seed, view, "play").randrange(len(legal))]


class RuleChiamata:
    """Bids from the hand's strength, calls its long suit, plays by the rules with what it knows
    of the partnership."""

    level = "rules"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def bid(self, view: SeatView) -> Bid | None:
        check_five(view, "a bid", view.my_bid)
        return rule_bid(view)

    def call(self, view: SeatView) -> Suit:
        check_five(view, "the call", view.my_call)
        return rule_call(view)

    def choose(self, view: SeatView) -> Card:
        legal = legal_cards(view)
        return legal[0] if len(legal) == 1 else rule_card(view)


__all__ = [
    "ChiamataBot",
    "RandomChiamata",
    "RuleChiamata",
    "rule_bid",
    "rule_call",
    "rule_card",
    "strength",
]
