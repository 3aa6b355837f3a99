"""Exact search for the end of a hand: minimax with a transposition table over a FastHand.

Used once every hidden card is fixed (known from the view, or fixed by one determinization).
The value is the card points the searching side takes from now on; the other sides are assumed
to minimise it (at 2 players and in partnerships that is exactly zero-sum).
"""

from __future__ import annotations

from briscola_lan.ai.fast import BEATS, POINTS, FastHand


def solve(h: FastHand, side: int) -> dict[int, int]:
    """Points ``side`` takes from now to the end after each legal card of the seat to play."""
    n = h.n
    beats = BEATS[h.trump]
    sides = h.sides
    stock = h.stock
    nstock = len(stock)
    memo: dict[tuple[tuple[int, ...], int, tuple[int, ...], int], int] = {}

    def after(masks: tuple[int, ...], si: int, trick: tuple[int, ...], leader: int, c: int) -> int:
        seat = (leader + len(trick)) % n
        nm = list(masks)
        nm[seat] ^= 1 << c
        t2 = (*trick, c)
        if len(t2) < n:
            return value(tuple(nm), si, t2, leader)
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
        got = pts if sides[w] == side else 0
        if si < nstock:
            for j in range(n):
                nm[(w + j) % n] |= 1 << stock[si + j]
            si += n
        if nm[w]:
            got += value(tuple(nm), si, (), w)
        return got

    def value(masks: tuple[int, ...], si: int, trick: tuple[int, ...], leader: int) -> int:
        key = (masks, si, trick, leader)
        v = memo.get(key)
        if v is not None:
            return v
        seat = (leader + len(trick)) % n
        m = masks[seat]
        maximise = sides[seat] == side
        best = -1 if maximise else 1000
        while m:
            low = m & -m
            m ^= low
            x = after(masks, si, trick, leader, low.bit_length() - 1)
            if (x > best) if maximise else (x < best):
                best = x
        memo[key] = best
        return best

    masks = tuple(_mask(hand) for hand in h.hands)
    trick = tuple(h.trick)
    return {c: after(masks, h.si, trick, h.leader, c) for c in sorted(h.hands[h.to_play])}


def _mask(cards: list[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m
