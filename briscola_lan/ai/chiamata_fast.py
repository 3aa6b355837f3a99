"""The chiamata AI's compact engine: cards as ints, the rule-based card, whole playouts.

The rule-based card choice uses what each seat knows of the partnership; a playout plays a
determinized hand to its end.

Cards are their codes (``suit * 10 + rank``); a hand is a list of codes; a set of cards or of
seats is a bitmask. The tables are built at import from ``rules.cards`` (the one place of the
card rules) and the playout is checked against ``rules.Hand`` (tests/ai/test_chiamata_engine.py).

What a seat knows of the partnership in a determinized world (``knowledge``): once the called
card is played, everything; before, the partner knows it is the caller's partner, the caller
knows only whether it plays alone, and the others know the caller is against them.
"""

from __future__ import annotations

from collections.abc import Callable

from briscola_lan.rules.cards import ALL_CARDS, Rank, Suit, beats

N = 5
ALL_MASK = (1 << 40) - 1
POINTS: tuple[int, ...] = tuple(c.points for c in ALL_CARDS)
SUIT: tuple[int, ...] = tuple(int(c.suit) for c in ALL_CARDS)
RANK: tuple[int, ...] = tuple(int(c.rank) for c in ALL_CARDS)
# BEATS[trump][best * 40 + challenger]: the challenger, played later, takes the trick from best.
BEATS: tuple[tuple[bool, ...], ...] = tuple(
    tuple(beats(ch, b, Suit(t)) for b in ALL_CARDS for ch in ALL_CARDS) for t in range(4)
)


def _stronger(card: int, trump: int) -> int:
    """The cards that would take a trick from ``card`` if it were winning it."""
    mask = 0
    for c in range(40):
        if BEATS[trump][card * 40 + c]:
            mask |= 1 << c
    return mask


STRONGER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_stronger(c, t) for c in range(40)) for t in range(4)
)


def _dump_costs(trump: int) -> tuple[int, ...]:
    """How much giving a card away hurts: points first, then briscole, then rank; distinct."""
    out = []
    for c in range(40):
        cost = POINTS[c] * 10 + (int(Rank.TWO) - RANK[c])
        if SUIT[c] == trump:
            cost += 60
        out.append(cost * 40 + c)
    return tuple(out)


DUMP_COST: tuple[tuple[int, ...], ...] = tuple(_dump_costs(t) for t in range(4))


def knowledge(seat: int, caller: int, partner: int, revealed: bool) -> tuple[int, int]:
    """(friends, foes) of ``seat`` as seat bitmasks, from what it knows of the partnership."""
    callers = (1 << caller) | (1 << partner)
    everyone = (1 << N) - 1
    me = 1 << seat
    if revealed or seat == partner or (seat == caller and partner == caller):
        if callers & me:
            return callers & ~me, everyone & ~callers
        return everyone & ~callers & ~me, callers
    if seat == caller:
        return 0, 0  # it does not know who holds its card
    return 0, 1 << caller  # a defender: the caller is against it, the rest unknown


def pick(  # noqa: PLR0917 (hot path of every playout: positional on purpose)
    hand: list[int],
    trick: list[int],
    leader: int,
    seat: int,
    trump: int,
    played: int,
    friends: int,
    foes: int,
) -> int:
    """The rule-based card for ``seat``: lead cheap, take points with the cheapest sure winner,
    trump only for points, load points on a trick a known friend surely wins, dump worthless
    cards; a seat not known either way is neither loaded nor fought for little."""
    if len(hand) == 1:
        return hand[0]
    handmask = 0
    for c in hand:
        handmask |= 1 << c
    unseen = ALL_MASK & ~(played | handmask)
    stronger = STRONGER[trump]
    cost = DUMP_COST[trump]
    if not trick:
        best_card = hand[0]
        best_cost = 1 << 30
        for c in hand:
            k = cost[c]
            if POINTS[c] >= 10 and SUIT[c] != trump and stronger[c] & unseen:
                k += 30 * 40
            if k < best_cost:
                best_cost, best_card = k, c
        return best_card
    beats_t = BEATS[trump]
    best = trick[0]
    bi = 0
    tp = POINTS[best]
    for i in range(1, len(trick)):
        c = trick[i]
        tp += POINTS[c]
        if beats_t[best * 40 + c]:
            best, bi = c, i
    winner = (leader + bi) % N
    left = N - 1 - len(trick)  # seats still to play after this one
    later = 0
    for k in range(1, left + 1):
        later |= 1 << ((seat + k) % N)
    if friends >> winner & 1:
        if not later & ~friends or not stronger[best] & unseen:
            load = max(hand, key=lambda c: (POINTS[c] if SUIT[c] != trump else -1, -c))
            if SUIT[load] != trump and POINTS[load] > 0:
                return load
        return min(hand, key=cost.__getitem__)
    unknown = not foes >> winner & 1
    winners = [c for c in hand if beats_t[best * 40 + c]]
    if winners:
        if later & ~friends:
            winners = [c for c in winners if SUIT[c] == trump or not stronger[c] & unseen]
        plain = [c for c in winners if SUIT[c] != trump]
        if plain:
            take = max(plain, key=lambda c: (POINTS[c], c))
            if POINTS[take] + tp > (3 if unknown else 0) or not later:
                return take
        trumps = [c for c in winners if SUIT[c] == trump]
        if trumps:
            cheap = min(trumps, key=cost.__getitem__)
            need = (2 if POINTS[cheap] == 0 else 10 + POINTS[cheap]) + (6 if unknown else 0)
            if tp + POINTS[cheap] >= need:
                return cheap
    return min(hand, key=cost.__getitem__)


class World:
    """One determinized hand in play: every seat's cards, the contract, the partner."""

    __slots__ = (
        "called",
        "caller",
        "hands",
        "leader",
        "partner",
        "played",
        "points",
        "revealed",
        "to_play",
        "trick",
        "trump",
    )

    def __init__(
        self,
        hands: list[list[int]],
        trump: int,
        *,
        caller: int,
        called: int,
        partner: int,
        leader: int,
    ) -> None:
        self.hands = hands
        self.trump = trump
        self.caller = caller
        self.called = called
        self.partner = partner
        self.leader = leader
        self.to_play = leader
        self.trick: list[int] = []
        self.played = 0
        self.points = [0] * N
        self.revealed = False

    def copy(self) -> World:
        w = World.__new__(World)
        w.hands = [list(h) for h in self.hands]
        w.trump, w.caller, w.called, w.partner = self.trump, self.caller, self.called, self.partner
        w.leader, w.to_play, w.trick = self.leader, self.to_play, list(self.trick)
        w.played, w.points, w.revealed = self.played, list(self.points), self.revealed
        return w

    def callers_points(self) -> int:
        p = self.points[self.caller]
        return p if self.partner == self.caller else p + self.points[self.partner]

    def play(self, card: int) -> None:
        """Play ``card`` for the seat to play (trusted: it holds it)."""
        self.hands[self.to_play].remove(card)
        self.played |= 1 << card
        if card == self.called:
            self.revealed = True
        self.trick.append(card)
        if len(self.trick) < N:
            self.to_play = (self.to_play + 1) % N
            return
        self._close()

    def _close(self) -> None:
        beats_t = BEATS[self.trump]
        trick = self.trick
        best, bi, pts = trick[0], 0, POINTS[trick[0]]
        for i in range(1, N):
            x = trick[i]
            pts += POINTS[x]
            if beats_t[best * 40 + x]:
                best, bi = x, i
        winner = (self.leader + bi) % N
        self.points[winner] += pts
        self.trick = []
        self.leader = winner
        self.to_play = winner if self.hands[winner] else -1

    def playout(self, choose: Callable[[World], int] | None = None) -> None:
        """Play to the end, every seat by ``pick`` with what it knows (mutates the world);
        ``choose`` overrides the choice when it returns a card (-1: ``pick``)."""
        trump = self.trump
        while self.to_play >= 0:
            seat = self.to_play
            held = self.hands[seat]
            card = -1
            if choose is not None:
                card = choose(self)
            if card < 0:
                friends, foes = knowledge(seat, self.caller, self.partner, self.revealed)
                card = pick(held, self.trick, self.leader, seat, trump, self.played, friends, foes)
            self.play(card)


__all__ = [
    "ALL_MASK",
    "BEATS",
    "DUMP_COST",
    "POINTS",
    "RANK",
    "STRONGER",
    "SUIT",
    "World",
    "knowledge",
    "pick",
]
