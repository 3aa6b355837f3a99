"""Exact search for a hand whose hidden cards are all fixed: alpha-beta minimax over a FastHand.

Used once every hidden card is fixed (known from the view, or fixed by one determinization).
The value is the card points the searching side takes from now on; the other sides are assumed
to minimise it (at 2 players and in partnerships that is exactly zero-sum).

The search works a trick at a time: a node is the start of a trick (the hands as bitmasks, the
stock position, the leader), stored in a transposition table with the bounds alpha-beta proved
for it; the plays inside a trick are loops. Two zero-point cards of one suit in the same hand,
with no card still out ranked between them, are the same card to the game: only one is tried.
The value is bounded by the points still to play, which cuts whole subtrees.
"""

from __future__ import annotations

from briscola_lan.ai.fast import BEATS, POINTS, FastHand
from briscola_lan.ai.leaf import LeafModel

ALL = (1 << 40) - 1
_INF = 1000
EXACT = 99  # more tricks than any hand has: the search goes to the end


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _cards(m: int, free: int) -> list[int]:
    """The cards of hand mask ``m`` worth trying; ``free`` marks the cards no longer in play
    (played before this trick). A zero-point card is left out when the stronger zero-point card
    just above it in the same hand differs from it only by cards that are free or in the hand."""
    out: list[int] = []
    prev = -1
    while m:
        low = m & -m
        m ^= low
        c = low.bit_length() - 1
        if prev >= 0 and POINTS[c] == 0 and POINTS[prev] == 0 and prev // 10 == c // 10:
            between = ((1 << c) - 1) & ~((1 << (prev + 1)) - 1)
            if not between & ~free:
                prev = c
                continue
        out.append(c)
        prev = c
    return out


class Solver:
    """The exact values of positions of one deal (one trump, one stock order), for one side.

    The transposition table is kept between calls, so several positions of the same deal (the
    cards of a hand, one after the other) share their work.

    With ``depth`` (and a ``leaf``, ``ai/leaf.py``), the search looks ``depth`` tricks ahead (the
    current trick counts as the first) and values the positions it reaches there with the leaf
    ``leaf`` gives for this deal and side instead of searching on: a horizon search, exact
    whenever the hand ends within the horizon. Its table
    is then cleared at each call (a position's value depends on how far from the horizon it is).
    """

    def __init__(
        self, h: FastHand, side: int, depth: int = EXACT, leaf: LeafModel | None = None
    ) -> None:
        if depth < EXACT and leaf is None:
            raise ValueError("a horizon search needs a leaf evaluation")
        self.depth = depth
        self.leaf = None if leaf is None else leaf(h, side)
        self.n = h.n
        self.side = side
        self.sides = h.sides
        self.beats = BEATS[h.trump]
        self.stock = h.stock
        nstock = len(h.stock)
        # Cards of the stock from position si on, and their points, for every si.
        self.suffix = [0] * (nstock + 1)
        self.suffix_points = [0] * (nstock + 1)
        for i in range(nstock - 1, -1, -1):
            self.suffix[i] = self.suffix[i + 1] | (1 << h.stock[i])
            self.suffix_points[i] = self.suffix_points[i + 1] + POINTS[h.stock[i]]
        self.tt: dict[tuple[int, ...], tuple[float, float, int]] = {}
        self.nodes = 0

    def values(self, h: FastHand) -> dict[int, float]:
        """Points ``side`` takes from now to the end after each legal card of the seat to play
        (ints when exact)."""
        masks = [_mask(x) for x in h.hands]
        trick = list(h.trick)
        rem = self.suffix_points[h.si] + sum(POINTS[c] for x in (*h.hands, trick) for c in x)
        if self.depth < EXACT:
            self.tt.clear()
        return {
            c: self._after(masks, h.si, trick, h.leader, c, -1, _INF, rem, self.depth)
            for c in sorted(h.hands[h.to_play])
        }

    def value(self, h: FastHand) -> float:
        """Points ``side`` takes from now to the end with best play by every side."""
        vals = self.values(h)
        return max(vals.values()) if self.sides[h.to_play] == self.side else min(vals.values())

    def _after(  # noqa: PLR0917 (inside the search: positional on purpose)
        self,
        masks: list[int],
        si: int,
        trick: list[int],
        leader: int,
        c: int,
        alpha: float,
        beta: float,
        rem: int,
        depth: int,
    ) -> float:
        """Value after the seat to play plays ``c`` (the trick so far in ``trick``), with
        ``depth`` tricks left to search (this one included)."""
        n = self.n
        seat = (leader + len(trick)) % n
        nm = masks[:]
        nm[seat] ^= 1 << c
        t2 = [*trick, c]
        if len(t2) < n:
            return self._ply(nm, si, t2, leader, alpha, beta, rem, depth)
        beats = self.beats
        best = t2[0]
        bi = 0
        pts = POINTS[best]
        for i in range(1, n):
            x = t2[i]
            pts += POINTS[x]
            if beats[best * 40 + x]:
                best = x
                bi = i
        w = (leader + bi) % n
        got = pts if self.sides[w] == self.side else 0
        stock = self.stock
        if si < len(stock):
            for j in range(n):
                nm[(w + j) % n] |= 1 << stock[si + j]
            si += n
        if not nm[w]:
            return got
        if depth <= 1:
            assert self.leaf is not None
            return got + self.leaf(nm, si, w, rem - pts)
        if n == 2:
            return got + self._trick2(
                nm[0], nm[1], si, w, alpha - got, beta - got, rem - pts, depth - 1
            )
        return got + self._trick(nm, si, w, alpha - got, beta - got, rem - pts, depth - 1)

    def _ply(  # noqa: PLR0917 (inside the search: positional on purpose)
        self,
        masks: list[int],
        si: int,
        trick: list[int],
        leader: int,
        alpha: float,
        beta: float,
        rem: int,
        depth: int,
    ) -> float:
        """Value of a position inside a trick (``trick`` not empty), by alpha-beta."""
        seat = (leader + len(trick)) % self.n
        free = ALL & ~(self.suffix[si] | _or(masks) | _mask(trick))
        maximise = self.sides[seat] == self.side
        best: float = -1 if maximise else _INF
        for c in _cards(masks[seat], free):
            v = self._after(masks, si, trick, leader, c, alpha, beta, rem, depth)
            if maximise:
                if v > best:
                    best = v
                    if best >= beta:
                        return best
                    alpha = max(alpha, best)
            elif v < best:
                best = v
                if best <= alpha:
                    return best
                beta = min(beta, best)
        return best

    def _trick(  # noqa: PLR0917 (inside the search: positional on purpose)
        self,
        masks: list[int],
        si: int,
        leader: int,
        alpha: float,
        beta: float,
        rem: int,
        depth: int,
    ) -> float:
        """Value at the start of a trick (3 or 4 players), with the transposition table."""
        if alpha >= rem:
            return rem
        if beta <= 0:
            return 0
        key = (*masks, si, leader)
        e = self.tt.get(key)
        lo: float = 0
        hi: float = rem
        if e is not None:
            lo, hi, _ = e
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        self.nodes += 1
        a0, b0 = alpha, beta
        maximise = self.sides[leader] == self.side
        best: float = -1 if maximise else _INF
        free = ALL & ~(self.suffix[si] | _or(masks))
        for c in _cards(masks[leader], free):
            v = self._after(masks, si, [], leader, c, alpha, beta, rem, depth)
            if maximise:
                if v > best:
                    best = v
                    if best >= beta:
                        break
                    alpha = max(alpha, best)
            elif v < best:
                best = v
                if best <= alpha:
                    break
                beta = min(beta, best)
        self._store(key, best, (a0, b0, lo, hi))
        return best

    def _store(
        self, key: tuple[int, ...], best: float, window: tuple[float, float, float, float]
    ) -> None:
        """Keep what the search proved (``window``: alpha, beta, and the bounds known before):
        an upper bound, a lower bound, or the exact value."""
        a0, b0, lo, hi = window
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.tt[key] = (lo, hi, 0)

    def _trick2(  # noqa: PLR0917 (the hot loop of the 2-player search: positional on purpose)
        self,
        m0: int,
        m1: int,
        si: int,
        leader: int,
        alpha: float,
        beta: float,
        rem: int,
        depth: int,
    ) -> float:
        """Value at the start of a trick at 2 players: both plays of the trick inlined."""
        if alpha >= rem:
            return rem
        if beta <= 0:
            return 0
        key = (m0, m1, si, leader)
        e = self.tt.get(key)
        lo: float = 0
        hi: float = rem
        first = -1
        if e is not None:
            lo, hi, first = e
            if lo >= beta:
                return lo
            if hi <= alpha or lo == hi:
                return hi
            alpha = max(alpha, lo)
            beta = min(beta, hi)
        self.nodes += 1
        a0, b0 = alpha, beta
        stock = self.stock
        more = si < len(stock)
        if more:
            s0 = 1 << stock[si]
            s1 = 1 << stock[si + 1]
        beats = self.beats
        mine = self.sides[0] == self.side  # seat 0 is the searching side
        lm, fm = (m0, m1) if leader == 0 else (m1, m0)
        lead_max = (leader == 0) == mine
        free = ALL & ~(self.suffix[si] | m0 | m1)
        leads = _cards(lm, free)
        if first in leads and leads[0] != first:
            leads.remove(first)
            leads.insert(0, first)
        replies = _cards(fm, free)
        leaf = self.leaf if depth <= 1 else None
        best: float = -1 if lead_max else _INF
        best_card = -1
        for a in leads:
            la = lm ^ (1 << a)
            pa = POINTS[a]
            # The follower's best answer to ``a``, within the window left by the other leads.
            fbest: float
            if lead_max:
                fa, fb, fbest = max(alpha, best), beta, _INF
            else:
                fa, fb, fbest = alpha, min(beta, best), -1
            for b in replies:
                pts = pa + POINTS[b]
                lf = fm ^ (1 << b)
                if beats[a * 40 + b]:  # the follower takes the trick and draws first
                    w = 1 - leader
                    nw, nl = lf, la
                else:
                    w = leader
                    nw, nl = la, lf
                if more:
                    nw |= s0
                    nl |= s1
                got = pts if (w == 0) == mine else 0
                if nw:
                    n0, n1 = (nw, nl) if w == 0 else (nl, nw)
                    if leaf is not None:
                        v = got + leaf([n0, n1], si + 2 if more else si, w, rem - pts)
                    else:
                        v = got + self._trick2(n0, n1, si + 2 if more else si, w, fa - got,
                                               fb - got, rem - pts, depth - 1)  # fmt: skip
                else:
                    v = got
                if lead_max:
                    if v < fbest:
                        fbest = v
                        if fbest <= fa:
                            break
                        fb = min(fb, fbest)
                elif v > fbest:
                    fbest = v
                    if fbest >= fb:
                        break
                    fa = max(fa, fbest)
            if lead_max:
                if fbest > best:
                    best, best_card = fbest, a
                    if best >= beta:
                        break
                    alpha = max(alpha, best)
            elif fbest < best:
                best, best_card = fbest, a
                if best <= alpha:
                    break
                beta = min(beta, best)
        if best <= a0:
            hi = min(hi, best)
        elif best >= b0:
            lo = max(lo, best)
        else:
            lo = hi = best
        self.tt[key] = (lo, hi, best_card)
        return best


def _or(masks: list[int]) -> int:
    m = 0
    for x in masks:
        m |= x
    return m


def solve(h: FastHand, side: int) -> dict[int, float]:
    """Points ``side`` takes from now to the end after each legal card of the seat to play."""
    return Solver(h, side).values(h)
