"""What a seat knows about the hidden cards, and determinizations consistent with it.

From a SeatView only: a card is unseen unless it is in the seat's hand, already played, the
upcard still waiting at the bottom of the stock, the upcard taken by a known seat, or shown by the
partner at the 4-player end-of-stock exchange (and not played since). A determinization deals the
unseen cards at random to the other seats' free places and to the stock.

The partner's signals (``SeatView.partner_signals``) are believed: the hand a signal describes is
the partner's hand when it was made, that is its hand now and the cards it played since, less
the cards it drew since. A determinization gives the partner a hand that agrees with each signal:
a card the signal tells of is in its hand or among the cards it played since (held then for sure
if played before its next draw), or, for "nothing", no more trumps and carichi than it drew since.
A signal that no deal can agree with (a bluff the cards have shown up) is ignored.
"""

from __future__ import annotations

import random

from briscola_lan.ai.fast import FastHand, side_table
from briscola_lan.rules import Card, SeatView, Suit, deck_for
from briscola_lan.rules.signals import SignalValue, consistent

SIGNAL_TRIES = 2000  # deals drawn before the partner's signals are given up for this sample


def signal_mark(value: SignalValue, trump: Suit) -> int:
    """The cards (a 40-bit mask) that make a hand fit ``value``: the cards it says are held
    (a hand fits if it holds one), or for NOTHING the cards it may hold (it fits if it holds
    only those). From ``rules.signals.consistent`` applied to each card alone."""
    mark = 0
    for code in range(40):
        if consistent(value, [Card.from_code(code)], trump):
            mark |= 1 << code
    return mark


def _ones(m: int) -> int:
    return bin(m).count("1")


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
        self.partner = partner
        # (mark, cards the partner played since that may have been drawn since, cards drawn
        # since, NOTHING?) for each signal still to check on the partner's sampled hand.
        self.checks: list[tuple[int, int, int, bool]] = []
        if partner is not None:
            for index, value in view.partner_signals:
                self._believe(partner, index, value)

    def _believe(self, partner: int, index: int, value: SignalValue) -> None:
        """Add what the partner's signal made at play ``index`` says about its hand now."""
        view, n = self.view, self.n
        plays = [(s, c.code) for t in view.tricks for s, c in t.plays]
        plays += [(s, c.code) for s, c in view.trick]
        if not 0 <= index <= len(plays):
            return  # a signal from another moment of the hand: nothing to read
        rounds = (view.options.deck_size - 3 * n) // n  # tricks followed by a draw
        first, done = index // n, len(view.tricks)
        drawn = max(0, min(done, rounds) - first)
        sure = rest = 0  # played since: before its first draw since (held then), or after
        for number in range(index, len(plays)):
            seat, code = plays[number]
            if seat == partner:
                if number // n == first or drawn == 0:
                    sure |= 1 << code
                else:
                    rest |= 1 << code
        mark = signal_mark(value, Suit(self.trump))
        nothing = value is SignalValue.NOTHING
        if nothing and sure & ~mark:
            return  # it played, while holding that hand, a card the signal denies: a bluff
        if not nothing and sure & mark:
            return  # it played the card the signal told of: nothing more to learn
        held = 0
        for code in self.known[partner]:
            held |= 1 << code
        possible = held | rest
        if self.free[partner] > 0:
            for code in self.pool:
                possible |= 1 << code
        if not nothing:
            if not possible & mark:
                return  # no card left that could make it true: ignore it
            if _ones(mark) == 1 and not rest & mark and self.free[partner] > 0:
                (code,) = (c for c in range(40) if mark >> c & 1)
                if code in self.pool:  # that very card is in the partner's hand now
                    self.pool.remove(code)
                    self.known[partner].append(code)
                    self.free[partner] -= 1
                    return
        elif _ones((held | rest) & ~mark) > drawn:
            return
        self.checks.append((mark, rest, drawn, nothing))

    def fits(self, order: list[int]) -> bool:
        """Whether the deal of ``order`` (``deal``) gives the partner a hand its signals fit."""
        if not self.checks:
            return True
        partner = self.partner
        assert partner is not None
        start = sum(self.free[:partner])
        held = 0
        for code in (*self.known[partner], *order[start : start + self.free[partner]]):
            held |= 1 << code
        for mark, rest, drawn, nothing in self.checks:
            cards = held | rest
            if nothing:
                if _ones(cards & ~mark) > drawn:
                    return False
            elif not cards & mark:
                return False
        return True

    def sample(self, rng: random.Random) -> FastHand:
        """One complete deal consistent with the view, as a FastHand at the view's position."""
        pool = self.pool[:]
        for _ in range(SIGNAL_TRIES):
            rng.shuffle(pool)
            if self.fits(pool):
                break
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
