"""The strong chiamata AI: determinized search for the auction, the call and the play.

Monte Carlo search over five-player hands, from one seat's view only.

Every decision deals the cards the seat cannot see at random, consistently with its view (each
seat's number of cards, the cards played, its own hand), many times over, and plays each choice
out in every deal with the rule-based card of ``ai.chiamata_fast``; the choice with the best mean
score (the table of weights, plus a little for the side's card points) is made.

- **The auction**: every contract the seat could call (a rank and a suit) is played out from the
  opening lead in the same deals, the seat as caller; it bids the lowest bid on the ladder whose
  best contract is worth more than ``bid_margin``, else passes; as the winner it calls the suit
  of its best contract for the winning bid.
- **The partner**: while the called card is out, who holds it is the one thing a deal must
  decide besides the cards. The partner knows; the caller does not; the others do not even know
  whether the caller holds it himself. Each deal gives the called card to a seat drawn by weight:
  a seat that loaded points on a trick the caller was taking is more likely the partner, one
  that took points from the caller less (``partner_weights``); the caller's own card is unlikely.
"""

from __future__ import annotations

import random
import time
from functools import lru_cache

from briscola_lan.ai.chiamata import check_five, decision_rng, legal_cards, rule_card
from briscola_lan.ai.chiamata_fast import BEATS, POINTS, SUIT, World
from briscola_lan.rules import Bid, Card, Rank, SeatView, Suit, deck_for
from briscola_lan.rules.chiamata import weights

TOTAL = 120
DEFAULT_SAMPLES = 40  # deals per card decision
BID_SAMPLES = 24  # deals per contract in the auction
POINT_WEIGHT = 1 / 60  # score per card point of the seat's side, beside the weights
ALONE_PRIOR = 0.15  # the caller holding its own called card, against 1 for another seat
LOADS_ON_CALLER = 2.5  # a seat that gave points to a trick the caller was taking
TAKES_FROM_CALLER = 0.5  # a seat that took points from the caller
LOADS_ON_OTHER = 0.7  # a seat that gave points to a trick another seat was taking


@lru_cache(maxsize=512)
def _weights(caller: int, partner: int, won: bool, doubled: bool) -> tuple[int, ...]:
    return weights(5, caller, partner, won, doubled)


def seat_score(
    me: int, caller: int, partner: int, *, points: int, target: int, double: bool
) -> int:
    """``me``'s weight for a hand whose callers took ``points``: ``rules.chiamata.weights``
    (``partner`` -1: the caller has a partner, not yet placed)."""
    doubled = double and points in (0, TOTAL)
    return _weights(caller, partner, points >= target, doubled)[me]


def value(w: World, me: int, target: int, double: bool) -> float:
    """What a finished world is worth to ``me``: its weight, and a little per side point."""
    pts = w.callers_points()
    mine = me in (w.caller, w.partner)
    side = pts if mine else TOTAL - pts
    return seat_score(me, w.caller, w.partner, points=pts, target=target, double=double) + (
        POINT_WEIGHT * side
    )


def partner_weights(view: SeatView) -> dict[int, float]:
    """For each seat that may hold the called card (not this one), its weight, from the plays
    made before the called card came out (empty if the card is out or this seat holds it)."""
    contract = view.contract
    assert contract is not None and view.trump is not None
    if view.partner is not None:
        return {}
    caller, trump = contract.caller, int(view.trump)
    weights = {s: 1.0 for s in range(view.players) if s != view.seat}
    if caller != view.seat:
        weights[caller] = ALONE_PRIOR
    beats = BEATS[trump]
    tricks = [list(t.plays) for t in view.tricks] + [list(view.trick)]
    for plays in tricks:
        best_seat, best, table = -1, -1, 0
        for seat, card in plays:
            c = card.code
            took = best < 0 or beats[best * 40 + c]
            if seat in weights and seat != caller and best_seat >= 0:
                load = POINTS[c] >= 3 and SUIT[c] != trump and not took
                if best_seat == caller and load:
                    weights[seat] *= LOADS_ON_CALLER
                elif best_seat == caller and took and table + POINTS[c] >= 3:
                    weights[seat] *= TAKES_FROM_CALLER
                elif best_seat not in (caller, seat) and load and POINTS[c] >= 10:
                    weights[seat] *= LOADS_ON_OTHER
            table += POINTS[c]
            if took:
                best_seat, best = seat, c
    return weights


def _draw(rng: random.Random, weights: dict[int, float]) -> int:
    total = sum(weights.values())
    x = rng.random() * total
    for seat, w in sorted(weights.items()):
        x -= w
        if x < 0:
            return seat
    return max(weights)


def sample_world(view: SeatView, rng: random.Random, weights: dict[int, float]) -> World:
    """One deal of the unseen cards consistent with the view, the called card to a seat drawn
    by ``weights`` while it is out."""
    contract = view.contract
    assert contract is not None and view.trump is not None
    me = view.seat
    mine = [c.code for c in view.hand]
    played = 0
    for card in view.played_cards:
        played |= 1 << card.code
    seen = played
    for c in mine:
        seen |= 1 << c
    called = contract.called.code
    hands: list[list[int]] = [[] for _ in range(view.players)]
    hands[me] = list(mine)
    need = list(view.hand_sizes)
    need[me] = 0
    if view.partner is not None:
        partner = view.partner
    else:
        # Only a seat with a card still to receive can hold it (not one that has played its
        # last card in this trick).
        partner = _draw(rng, {s: w for s, w in weights.items() if need[s] > 0})
        hands[partner].append(called)
        need[partner] -= 1
        seen |= 1 << called
    unseen = [c for c in range(40) if not seen >> c & 1]
    rng.shuffle(unseen)
    i = 0
    for s in range(view.players):
        k = need[s]
        hands[s].extend(unseen[i : i + k])
        i += k
    w = World(
        hands,
        int(view.trump),
        caller=contract.caller,
        called=called,
        partner=partner,
        leader=view.leader,
    )
    w.to_play = me
    w.trick = [c.code for _, c in view.trick]
    w.played = played
    w.points = list(view.points)
    w.revealed = bool(played >> called & 1)
    return w


@lru_cache(maxsize=64)
def _contract_points(
    seed: int, seat: int, dealer: int, hand: tuple[int, ...], *, rank: int, samples: int
) -> tuple[tuple[int, ...], ...]:
    """Callers' points in ``samples`` deals for each suit called at ``rank``, the seat the
    caller, the others' cards dealt at random (the same deals for every suit and rank)."""
    rng = random.Random(f"{seed}|contracts|{seat}|{dealer}|{hand}")
    pack = [c.code for c in deck_for(5)]
    rest = [c for c in pack if c not in hand]
    out: list[list[int]] = [[] for _ in range(4)]
    for _ in range(samples):
        rng.shuffle(rest)
        hands: list[list[int]] = [[] for _ in range(5)]
        hands[seat] = list(hand)
        others = [s for s in range(5) if s != seat]
        for k, s in enumerate(others):
            hands[s] = rest[k * 8 : k * 8 + 8]
        for suit in range(4):
            called = suit * 10 + rank
            partner = next(s for s in range(5) if called in hands[s])
            w = World(
                [list(h) for h in hands],
                suit,
                caller=seat,
                called=called,
                partner=partner,
                leader=(dealer + 1) % 5,
            )
            w.playout()
            out[suit].append(w.callers_points())
    return tuple(tuple(x) for x in out)


class StrongChiamata:
    """Determinized search for every decision at five players (see the module's docstring)."""

    level = "strong"

    def __init__(
        self,
        seed: int = 0,
        *,
        samples: int | None = None,
        time_budget: float | None = None,
        bid_samples: int = BID_SAMPLES,
        bid_margin: float = 0.2,
    ) -> None:
        if (samples is not None and samples < 1) or bid_samples < 1:
            raise ValueError("a strong bot needs at least one sample")
        self.seed = seed
        self.samples = samples
        self.time_budget = time_budget
        self.bid_samples = bid_samples
        self.bid_margin = bid_margin

    # --- the auction and the call ---------------------------------------------------------

    def contract_value(self, view: SeatView, rank: Rank, suit: Suit, target: int) -> float:
        """The mean weight of calling ``rank`` of ``suit`` for ``target`` points."""
        hand = tuple(sorted(c.code for c in view.hand))
        pts = _contract_points(
            self.seed, view.seat, view.dealer, hand, rank=int(rank), samples=self.bid_samples
        )[suit]
        alone = Card(suit, rank) in view.hand
        me = view.seat
        partner = me if alone else -1
        double = view.options.double_all
        total = sum(
            seat_score(me, me, partner, points=p, target=target, double=double) for p in pts
        )
        return total / len(pts)

    def _best_suit(self, view: SeatView, bid: Bid) -> tuple[float, Suit]:
        target = bid.target(view.options.points_to_win)
        return max(
            (self.contract_value(view, bid.rank, s, target), s) for s in reversed(list(Suit))
        )

    def bid(self, view: SeatView) -> Bid | None:
        check_five(view, "a bid", view.my_bid)
        for b in view.legal_bids:
            worth, _ = self._best_suit(view, b)
            if worth > self.bid_margin:
                return b
            if b.is_points:
                break  # a higher point bid is worth no more
        return None

    def call(self, view: SeatView) -> Suit:
        check_five(view, "the call", view.my_call)
        high = view.high_bid
        assert high is not None
        return self._best_suit(view, high[1])[1]

    # --- the play -------------------------------------------------------------------------

    def scores(self, view: SeatView) -> dict[int, float]:
        """The mean value of each legal card (by code) over the deals."""
        legal = legal_cards(view)
        contract = view.contract
        assert contract is not None
        rng = decision_rng(self.seed, view, "search")
        weights = partner_weights(view)
        target = contract.target(view.options.points_to_win)
        double = view.options.double_all
        me = view.seat
        totals = {c.code: 0.0 for c in legal}
        budget = self.samples if self.samples is not None else DEFAULT_SAMPLES
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        done = 0
        while done < budget or deadline is not None:
            base = sample_world(view, rng, weights)
            for c in totals:
                w = base.copy()
                w.play(c)
                w.playout()
                totals[c] += value(w, me, target, double)
            done += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        return {c: v / done for c, v in totals.items()}

    def choose(self, view: SeatView) -> Card:
        legal = legal_cards(view)
        if len(legal) == 1:
            return legal[0]
        scores = self.scores(view)
        preferred = rule_card(view).code
        best = max(scores, key=lambda c: (round(scores[c], 6), c == preferred, -c))
        return Card.from_code(best)


__all__ = [
    "StrongChiamata",
    "partner_weights",
    "sample_world",
    "seat_score",
    "value",
]
