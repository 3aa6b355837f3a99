"""The rule-based card choice over compact ints: used by the "rules" bot and by search playouts.

It sees only what the seat to play may know: its own cards, the current trick, the briscola, the
cards already played (a bitmask, for card counting) and how many cards are left to draw.
Heuristics: lead cheap cards, take points with the cheapest sure winner, spend a briscola only on
tricks that carry points, dump worthless cards, load points on a trick the partner surely wins.
"""

from __future__ import annotations

from collections.abc import Callable

from briscola_lan.ai.fast import BEATS, POINTS, RANK, SUIT, FastHand

ALL_MASK = (1 << 40) - 1


def _stronger_mask(card: int, trump: int) -> int:
    """Cards that would take a trick from ``card`` if ``card`` were winning it."""
    s = card // 10
    mask = 0
    for c in range(s * 10, card):
        mask |= 1 << c
    if s != trump:
        for c in range(trump * 10, trump * 10 + 10):
            mask |= 1 << c
    return mask


# STRONGER[trump][card]: bitmask of the cards that beat ``card`` once it leads the trick.
STRONGER: tuple[tuple[int, ...], ...] = tuple(
    tuple(_stronger_mask(c, t) for c in range(40)) for t in range(4)
)


def _dump_costs(trump: int) -> tuple[int, ...]:
    """How much it hurts to give a card away: points first, then briscole, then rank.

    Costs are distinct (the card code breaks ties) so that the choice never depends on the
    order of the cards in a hand: the opponent model replays choices on rebuilt hands.
    """
    out = []
    for c in range(40):
        cost = POINTS[c] * 10 + (9 - RANK[c])
        if SUIT[c] == trump:
            cost += 60
        out.append(cost * 40 + c)
    return tuple(out)


DUMP_COST: tuple[tuple[int, ...], ...] = tuple(_dump_costs(t) for t in range(4))


def _trump_threshold(card: int, stock_left: int) -> int:
    """Trick points (own card included) that justify taking a trick with briscola ``card``."""
    if POINTS[card] == 0:
        return 4 if stock_left > 0 else 2
    return 10 + POINTS[card]


def rule_pick(  # noqa: PLR0917 (hot path of every playout: positional on purpose)
    hand: list[int],
    trick: list[int],
    leader: int,
    seat: int,
    players: int,
    trump: int,
    played: int,
    stock_left: int,
) -> int:
    """Choose a card from ``hand`` for ``seat``; ``played`` has a bit set per card seen played."""
    if len(hand) == 1:
        return hand[0]
    handmask = 0
    for c in hand:
        handmask |= 1 << c
    unseen = ALL_MASK & ~(played | handmask)
    stronger = STRONGER[trump]
    cost = DUMP_COST[trump]
    if not trick:
        return _lead(hand, trump, unseen, stronger, cost)
    beats = BEATS[trump]
    best = trick[0]
    bi = 0
    tp = POINTS[best]
    for i in range(1, len(trick)):
        c = trick[i]
        tp += POINTS[c]
        if beats[best * 40 + c]:
            best = c
            bi = i
    last = len(trick) == players - 1
    if players == 4 and (leader + bi - seat) % 2 == 0:
        # The partner is winning: load points if the trick is safe, else give nothing.
        if last or not stronger[best] & unseen:
            load = max(hand, key=lambda c: (POINTS[c] if SUIT[c] != trump else -1, -c))
            if SUIT[load] != trump and POINTS[load] > 0:
                return load
        return min(hand, key=cost.__getitem__)
    winners = [c for c in hand if beats[best * 40 + c]]
    if winners:
        if not last:
            # Someone still plays after us: a plain card must be one that no unseen card beats.
            winners = [c for c in winners if SUIT[c] == trump or not stronger[c] & unseen]
        plain = [c for c in winners if SUIT[c] != trump]
        if plain:
            take = max(plain, key=lambda c: (POINTS[c], c))
            if POINTS[take] + tp > 0 or last:
                return take
        trumps = [c for c in winners if SUIT[c] == trump]
        if trumps:
            cheap = min(trumps, key=cost.__getitem__)
            if tp + POINTS[cheap] >= _trump_threshold(cheap, stock_left):
                return cheap
    return min(hand, key=cost.__getitem__)


def own_pick(  # noqa: PLR0917 (as rule_pick)
    hand: list[int],
    trick: list[int],
    leader: int,
    seat: int,
    players: int,
    trump: int,
    played: int,
    stock_left: int,
) -> int:
    """The strong level's own rule-based card: ``rule_pick``, except for two things the
    follower does at 2 players. About to throw points on a trick it would lose, it counts those
    points too when it asks whether the trick is worth a trump (J♣ led and Q♠ to throw: 5
    points, worth a low trump). About to take a trick worth nothing with a worthless card of
    the suit led (7♠ on 4♠), it leaves the trick and the lead to the opponent, throwing a
    worthless card of another suit (or a lower one of that suit) if it has one. At 3 and 4
    players the first change loses points (benchmarks/bench_policy.py): there it is
    ``rule_pick``. The rules level and the opponent model keep ``rule_pick``."""
    card = rule_pick(hand, trick, leader, seat, players, trump, played, stock_left)
    if players != 2 or not trick or SUIT[card] == trump:
        return card
    beats = BEATS[trump]
    led = trick[0]
    cost = DUMP_COST[trump]
    if beats[led * 40 + card]:
        if POINTS[led] + POINTS[card] == 0:
            # A trick worth nothing: leave it, and the lead, to the opponent, throwing a
            # worthless card of another suit (or a lower one of this suit) if there is one.
            other = [
                c for c in hand if SUIT[c] != trump and POINTS[c] == 0 and not beats[led * 40 + c]
            ]
            if other:
                return min(other, key=cost.__getitem__)
        return card  # it takes the trick
    if POINTS[card] == 0:
        return card
    trumps = [c for c in hand if SUIT[c] == trump and beats[led * 40 + c]]
    if trumps:
        cheap = min(trumps, key=cost.__getitem__)
        if POINTS[led] + POINTS[cheap] + POINTS[card] >= _trump_threshold(cheap, stock_left):
            return cheap
    return card


def _lead(
    hand: list[int],
    trump: int,
    unseen: int,
    stronger: tuple[int, ...],
    cost: tuple[int, ...],
) -> int:
    """Lead the cheapest card; a point card that an unseen card can beat costs more."""
    best = hand[0]
    best_cost = 1 << 30
    for c in hand:
        k = cost[c]
        if POINTS[c] >= 10 and SUIT[c] != trump and stronger[c] & unseen:
            k += 30 * 40
        if k < best_cost:
            best_cost = k
            best = c
    return best


def rules_playout(h: FastHand) -> None:
    """Play ``h`` to its end with every seat following ``rule_pick`` (mutates ``h``)."""
    _playout(h, frozenset(), None)


def rules_playout_to_last_draw(h: FastHand, own_seat: int = -1) -> None:
    """Like ``rules_playout``, but stop at the start of the first trick with the stock empty
    (at once if it is already empty; mutates ``h``): from there on every card is known at 2
    players, and the rest can be solved exactly. ``own_seat`` (at 2 players) plays
    ``own_pick`` instead of ``rule_pick``."""
    if h.si < len(h.stock):
        _playout(h, frozenset(), None, stop_at_last_draw=True, own_seat=own_seat)


def mixed_playout(h: FastHand, random_seats: frozenset[int], random: Callable[[], float]) -> None:
    """Like ``rules_playout``, but the seats in ``random_seats`` play uniformly random cards."""
    _playout(h, random_seats, random)


def _playout(
    h: FastHand,
    random_seats: frozenset[int],
    random: Callable[[], float] | None,
    stop_at_last_draw: bool = False,
    own_seat: int = -1,
) -> None:
    """``FastHand.play`` in a loop, inlined: the same moves, draws and points, in fewer steps
    (to the end, or with ``stop_at_last_draw`` to the trick after the stock's last draw)."""
    n = h.n
    trump = h.trump
    beats = BEATS[trump]
    hands = h.hands
    stock = h.stock
    nstock = len(stock)
    si = h.si
    sides = h.sides
    points = h.points
    played = h.played
    trick = h.trick
    leader = h.leader
    seat = h.to_play
    tricks = h.tricks_done
    upcard = h.upcard
    taken = h.upcard_taken_by
    exchange = h.exchange_trick
    with_exchange = h.with_exchange
    while seat >= 0:
        held = hands[seat]
        if len(held) == 1:
            card = held[0]
        elif random is not None and seat in random_seats:
            card = held[int(random() * len(held))]
        elif seat == own_seat:
            card = own_pick(held, trick, leader, seat, n, trump, played, nstock - si)
        else:
            card = rule_pick(held, trick, leader, seat, n, trump, played, nstock - si)
        held.remove(card)
        played |= 1 << card
        trick.append(card)
        if len(trick) < n:
            seat = (seat + 1) % n
            continue
        best = trick[0]
        bi = 0
        pts = POINTS[best]
        for i in range(1, n):
            x = trick[i]
            pts += POINTS[x]
            if beats[best * 40 + x]:
                best = x
                bi = i
        winner = (leader + bi) % n
        points[sides[winner]] += pts
        trick = []
        tricks += 1
        leader = winner
        if si < nstock:
            for j in range(n):
                c = stock[si + j]
                s = (winner + j) % n
                hands[s].append(c)
                if c == upcard and si + j == nstock - 1:
                    taken = s
            si += n
            if si == nstock:
                if with_exchange:
                    exchange = tricks
                if stop_at_last_draw:
                    seat = winner
                    break
        seat = winner if hands[winner] else -1
    h.si = si
    h.played = played
    h.trick = trick
    h.leader = leader
    h.to_play = seat
    h.tricks_done = tricks
    h.upcard_taken_by = taken
    h.exchange_trick = exchange
