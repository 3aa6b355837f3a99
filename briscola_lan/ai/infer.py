"""What a seat knows about the hidden cards, and determinizations consistent with it.

From a SeatView only: a card is unseen unless it is in the seat's hand, already played, the
upcard still waiting at the bottom of the stock, the upcard taken by a known seat, or shown by the
partner at the 4-player end-of-stock exchange (and not played since). A determinization deals the
unseen cards at random to the other seats' free places and to the stock.
"""

from __future__ import annotations

import random

from briscola_lan.ai.fast import FastHand, side_table
from briscola_lan.rules import SeatView, deck_for


class BotError(ValueError):
    """A bot was asked to play from a view where it cannot (not its turn, or an impossible view)."""


def check_turn(view: SeatView) -> None:
    """Raise BotError unless it is the view's seat's turn and the view holds its whole hand."""
    if view.to_play != view.seat or not view.hand:
        raise BotError(
            f"seat {view.seat} was asked for a card but it is not its turn ("
            + (
                "nobody's turn: the hand is over"
                if view.to_play is None
                else f"seat {view.to_play}'s turn"
            )
            + ")"
        )
    if len(view.hand) != view.hand_sizes[view.seat]:
        # A search would deal the missing card to the seat itself and could choose it.
        raise BotError(
            f"seat {view.seat} was asked for a card from {len(view.hand)} cards, but its hand "
            f"size is {view.hand_sizes[view.seat]}: a card is still on its way (incomplete view)"
        )


class Knowledge:
    """The hidden-card facts of one SeatView, ready to sample FastHands from."""

    def __init__(self, view: SeatView) -> None:
        check_turn(view)
        n = view.players
        self.view = view
        self.n = n
        self.seat = view.seat
        self.side = side_table(n)[view.seat]
        if view.upcard is None or view.trump is None:
            raise BotError("this search plays 2 to 4 players, with an upcard; 5 use ai.chiamata")
        self.trump = int(view.trump)
        self.upcard = view.upcard.code
        self.my_hand = [c.code for c in view.hand]
        played = [c.code for c in view.played_cards]
        self.played_mask = 0
        for c in played:
            self.played_mask |= 1 << c
        gone = set(played) | set(self.my_hand)
        known: list[list[int]] = [[] for _ in range(n)]
        known[view.seat] = list(self.my_hand)
        up_in_stock = view.stock_left > 0
        if up_in_stock:
            gone.add(self.upcard)
        taker = view.upcard_taken_by
        if taker is not None and taker != view.seat and self.upcard not in gone:
            known[taker].append(self.upcard)
            gone.add(self.upcard)
        partner = view.options.partner_of(view.seat)
        if view.partner_shown is not None and partner is not None:
            for card in view.partner_shown:
                if card.code not in gone:
                    known[partner].append(card.code)
                    gone.add(card.code)
        deck = deck_for(n, view.options.removed_two)
        self.pool = sorted(c.code for c in deck if c.code not in gone)
        self.known = known
        self.free = [view.hand_sizes[s] - len(known[s]) for s in range(n)]
        self.stock_unknown = view.stock_left - 1 if up_in_stock else 0
        if min(self.free) < 0 or sum(self.free) + self.stock_unknown != len(self.pool):
            raise BotError(
                "the view is inconsistent: hand sizes and stock do not match the unseen cards"
            )
        self.trick = [c.code for _, c in view.trick]

    def sample(self, rng: random.Random) -> FastHand:
        """One complete deal consistent with the view, as a FastHand at the view's position."""
        pool = self.pool[:]
        rng.shuffle(pool)
        return self.deal(pool)

    def deal(self, order: list[int]) -> FastHand:
        """The deal that gives the unseen cards, in ``order``, to the other seats' free places
        (seat by seat) and then to the stock in draw order."""
        view = self.view
        h = FastHand()
        h.n = self.n
        h.trump = self.trump
        h.upcard = self.upcard
        hands = []
        k = 0
        for s in range(self.n):
            f = self.free[s]
            hands.append(self.known[s] + order[k : k + f])
            k += f
        h.hands = hands
        h.stock = [*order[k:], self.upcard] if view.stock_left > 0 else []
        h.si = 0
        h.trick = self.trick[:]
        h.leader = view.leader
        h.to_play = self.seat
        h.points = list(view.points)
        h.sides = side_table(self.n)
        h.played = self.played_mask
        h.tricks_done = len(view.tricks)
        h.upcard_taken_by = -1 if view.upcard_taken_by is None else view.upcard_taken_by
        h.with_exchange = view.options.exchange_enabled
        ex = view.partner_exchange_trick
        h.exchange_trick = -1 if ex is None else ex
        return h
