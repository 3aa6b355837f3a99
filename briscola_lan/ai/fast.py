"""The compact playout engine: one hand of Briscola over plain ints, lists and lookup tables.

Cards are their codes (``suit * 10 + rank``, so a lower code in the same suit is a stronger card).
It plays exactly the rules of ``briscola_lan.rules.hand`` (tests replay many seeded hands through
both and compare every trick, draw and score) at a small fraction of the cost, for search and
simulation. The deck order is an argument; randomness enters only as a ``random()`` callable.

Every table here is built once, at import, from ``briscola_lan.rules`` (card points, the beat
rule, the sides, the initial deal and the draw order), so that a rule lives in one place; only
the loops that walk them are written out here, for speed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import itemgetter

from briscola_lan.rules.cards import Card, Suit, beats
from briscola_lan.rules.options import MatchFormat, TableOptions
from briscola_lan.rules.schedule import draw_order, initial_deal

_CARDS = tuple(Card.from_code(c) for c in range(40))
SUIT: tuple[int, ...] = tuple(int(c.suit) for c in _CARDS)
RANK: tuple[int, ...] = tuple(int(c.rank) for c in _CARDS)
POINTS: tuple[int, ...] = tuple(c.points for c in _CARDS)

# BEATS[trump][best * 40 + challenger]: does ``challenger``, played later, take ``best``'s trick.
BEATS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(beats(_CARDS[ch], _CARDS[b], Suit(t)) for b in range(40) for ch in range(40))
    for t in range(4)
)

_SIDES: dict[int, tuple[int, ...]] = {
    n: tuple(TableOptions(players=n, match_format=MatchFormat.POINTS).side_of(s) for s in range(n))
    for n in (2, 3, 4)
}
# _INITIAL[(players, dealer)][seat]: takes the seat's initial cards from a deck, in deal order.
_Take = Callable[[Sequence[int]], tuple[int, ...]]  # an itemgetter of several positions
_INITIAL: dict[tuple[int, int], tuple[_Take, ...]] = {
    (n, d): tuple(itemgetter(*(p for p, s in initial_deal(n, d) if s == seat)) for seat in range(n))
    for n in (2, 3, 4)
    for d in range(n)
}
# _DRAW[(players, deck size)]: takes the stock from a deck in draw order (the upcard last).
_DRAW: dict[tuple[int, int], _Take] = {
    (n, size): itemgetter(*draw_order(n, size)) for n in (2, 3, 4) for size in (39, 40)
}


def side_table(players: int) -> tuple[int, ...]:
    """Side of each seat: partnerships 0+2 and 1+3 at 4 players, else one side per seat."""
    return _SIDES[players]


def _deal(deck: Sequence[int], dealer: int, n: int) -> tuple[list[list[int]], list[int]]:
    """The hands of the initial deal and the stock in draw order, by the rules' schedule."""
    hands = [list(take(deck)) for take in _INITIAL[(n, dealer)]]
    return hands, list(_DRAW[(n, len(deck))](deck))


def trick_winner(cards: Sequence[int], leader: int, players: int, trump: int) -> int:
    """Seat that takes a full trick whose cards, in play order, were led by ``leader``."""
    beats = BEATS[trump]
    best = cards[0]
    bi = 0
    for i in range(1, len(cards)):
        c = cards[i]
        if beats[best * 40 + c]:
            best = c
            bi = i
    return (leader + bi) % players


class FastHand:
    """A hand in progress over ints: the same states as ``rules.Hand``, built for speed.

    ``stock`` holds the cards still to draw in draw order (the upcard last) and ``si`` is the
    index of the next one. ``trick`` holds the cards of the current trick in play order.
    """

    __slots__ = (
        "exchange_trick",
        "hands",
        "leader",
        "n",
        "played",
        "points",
        "si",
        "sides",
        "stock",
        "to_play",
        "trick",
        "tricks_done",
        "trump",
        "upcard",
        "upcard_taken_by",
        "with_exchange",
    )

    def __init__(self) -> None:
        self.n = 2
        self.trump = 0
        self.upcard = 0
        self.hands: list[list[int]] = []
        self.stock: list[int] = []
        self.si = 0
        self.trick: list[int] = []
        self.leader = 0
        self.to_play = 0
        self.points: list[int] = []
        self.sides: tuple[int, ...] = ()
        self.played = 0
        self.tricks_done = 0
        self.upcard_taken_by = -1
        self.with_exchange = False
        self.exchange_trick = -1

    @staticmethod
    def deal(deck: Sequence[int], dealer: int, players: int, exchange: bool = True) -> FastHand:
        """Deal a new hand exactly as ``rules.Hand`` does from the same deck order."""
        n = players
        h = FastHand()
        h.n = n
        h.hands, h.stock = _deal(deck, dealer, n)
        h.upcard = h.stock[-1]
        h.trump = SUIT[h.upcard]
        h.leader = h.to_play = (dealer + 1) % n
        h.sides = side_table(n)
        h.points = [0] * (max(h.sides) + 1)
        h.with_exchange = exchange and n == 4
        return h

    @property
    def stock_left(self) -> int:
        return len(self.stock) - self.si

    @property
    def is_terminal(self) -> bool:
        return self.to_play < 0

    def clone(self) -> FastHand:
        o = FastHand.__new__(FastHand)
        o.n = self.n
        o.trump = self.trump
        o.upcard = self.upcard
        o.hands = [h[:] for h in self.hands]
        o.stock = self.stock  # never mutated: ``si`` moves instead
        o.si = self.si
        o.trick = self.trick[:]
        o.leader = self.leader
        o.to_play = self.to_play
        o.points = self.points[:]
        o.sides = self.sides
        o.played = self.played
        o.tricks_done = self.tricks_done
        o.upcard_taken_by = self.upcard_taken_by
        o.with_exchange = self.with_exchange
        o.exchange_trick = self.exchange_trick
        return o

    def play(self, card: int) -> int:
        """Play ``card`` for the seat to play; returns the trick's winner, or -1 mid-trick.

        The caller guarantees legality (``card`` is in ``hands[to_play]``): no checks here.
        """
        seat = self.to_play
        self.hands[seat].remove(card)
        self.played |= 1 << card
        trick = self.trick
        trick.append(card)
        n = self.n
        if len(trick) < n:
            self.to_play = (seat + 1) % n
            return -1
        winner = trick_winner(trick, self.leader, n, self.trump)
        pts = 0
        for c in trick:
            pts += POINTS[c]
        self.points[self.sides[winner]] += pts
        self.trick = []
        self.tricks_done += 1
        self.leader = winner
        si = self.si
        stock = self.stock
        if si < len(stock):
            hands = self.hands
            for j in range(n):
                c = stock[si + j]
                s = (winner + j) % n
                hands[s].append(c)
                if c == self.upcard and si + j == len(stock) - 1:
                    self.upcard_taken_by = s
            self.si = si + n
            if self.si == len(stock) and self.with_exchange:
                self.exchange_trick = self.tricks_done
        self.to_play = winner if self.hands[winner] else -1
        return winner


def random_hand(
    deck: Sequence[int],
    dealer: int,
    players: int,
    random: Callable[[], float],
    trace: list[int] | None = None,
) -> list[int]:
    """Play one whole hand with uniformly random cards; returns the points per side.

    The hot path of simulation benchmarks: local variables only, swap-remove from hands. If
    ``trace`` is given, it receives for every trick the ``n`` cards in play order then the winner.
    """
    n = players
    hands, stock = _deal(deck, dealer, n)
    up = stock[-1]
    nstock = len(stock)
    beats = BEATS[SUIT[up]]
    pts_of = POINTS
    sides = side_table(n)
    points = [0] * (max(sides) + 1)
    leader = (dealer + 1) % n
    si = 0
    rounds = len(deck) // n
    if n == 2:
        for _ in range(rounds):
            h = hands[leader]
            k = len(h)
            i = int(random() * k)
            a = h[i]
            h[i] = h[k - 1]
            h.pop()
            other = leader ^ 1
            h = hands[other]
            k = len(h)
            i = int(random() * k)
            b = h[i]
            h[i] = h[k - 1]
            h.pop()
            if beats[a * 40 + b]:
                leader = other
            points[leader] += pts_of[a] + pts_of[b]
            if trace is not None:
                trace.extend((a, b, leader))
            if si < nstock:
                hands[leader].append(stock[si])
                hands[leader ^ 1].append(stock[si + 1])
                si += 2
        return points
    for _ in range(rounds):
        h = hands[leader]
        k = len(h)
        i = int(random() * k)
        best = h[i]
        h[i] = h[k - 1]
        h.pop()
        bi = 0
        pts = pts_of[best]
        if trace is not None:
            trace.append(best)
        for j in range(1, n):
            h = hands[(leader + j) % n]
            k = len(h)
            i = int(random() * k)
            c = h[i]
            h[i] = h[k - 1]
            h.pop()
            pts += pts_of[c]
            if trace is not None:
                trace.append(c)
            if beats[best * 40 + c]:
                best = c
                bi = j
        leader = (leader + bi) % n
        points[sides[leader]] += pts
        if trace is not None:
            trace.append(leader)
        if si < nstock:
            for j in range(n):
                hands[(leader + j) % n].append(stock[si + j])
            si += n
    return points
