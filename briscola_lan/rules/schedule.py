"""The public deal schedule: which deck position each seat receives, and when, from public facts.

The initial deal, the draw order and who draws after each trick depend only on the dealer, the
trump suit and the cards played, so anyone can follow them without seeing a hidden card. The
rules engine (``rules.hand``) deals by these functions; the verifier and the clients follow a hand
with ``PublicSchedule``, which is checked against the engine in the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.rules.cards import Card, Suit, trick_winner_index
from briscola_lan.rules.options import TableOptions


def initial_deal(players: int, dealer: int) -> list[tuple[int, int]]:
    """(position, seat) of the initial deal in dealing order: three rounds, one card each,
    starting from the seat left of the dealer; positions 0 .. 3n-1."""
    return [(r * players + i, (dealer + 1 + i) % players) for r in range(3) for i in range(players)]


def draw_order(players: int, deck_size: int) -> list[int]:
    """Stock positions in the order they are drawn: 3n+1, 3n+2, ..., the upcard (3n) last."""
    upcard = 3 * players
    return [*range(upcard + 1, deck_size), upcard]


@dataclass(frozen=True, slots=True)
class TrickOutcome:
    """A finished trick seen from outside: who took it, the points, the draws that follow."""

    winner: int
    points: int
    draws: tuple[tuple[int, int], ...]  # (seat, position) in draw order; empty once stock is out
    exchange: bool  # the 4-player partner exchange happens now (after these draws)
    last: bool  # the hand is over


class PublicSchedule:
    """Follows one hand from public facts only: the upcard's suit and each card played.

    It knows whose turn it is, which positions every seat was dealt, who draws what after each
    trick and when the partner exchange comes; it never knows a hidden card.
    """

    def __init__(self, options: TableOptions, dealer: int) -> None:
        n = options.players
        self.options, self.n, self.dealer = options, n, dealer
        self.upcard_position = 3 * n
        self.dealt: dict[int, int] = {}  # position -> seat
        self.initial: dict[int, list[int]] = {s: [] for s in range(n)}  # seat -> positions
        for pos, seat in initial_deal(n, dealer):
            self.dealt[pos] = seat
            self.initial[seat].append(pos)
        self._draw_order = draw_order(n, options.deck_size)
        self._next_draw = 0
        self.hand_sizes = [3] * n
        self.played: dict[int, list[int]] = {s: [] for s in range(n)}  # seat -> card codes
        self.trump: Suit | None = None
        self.trick: list[tuple[int, Card]] = []
        self.leader = (dealer + 1) % n
        self.to_play: int | None = self.leader
        self.tricks = 0

    @property
    def stock_left(self) -> int:
        return len(self._draw_order) - self._next_draw

    def positions_of(self, seat: int) -> list[int]:
        """Every position the schedule has given ``seat`` so far."""
        return [p for p, s in self.dealt.items() if s == seat]

    def play(self, seat: int, card: Card) -> TrickOutcome | None:
        """Record a card played by the seat to move; the trick's outcome when it completes.

        The caller checks the turn (``to_play``) first; the trump must be known."""
        assert self.trump is not None and seat == self.to_play
        self.played[seat].append(card.code)
        self.hand_sizes[seat] -= 1
        self.trick.append((seat, card))
        if len(self.trick) < self.n:
            self.to_play = (seat + 1) % self.n
            return None
        cards = [c for _, c in self.trick]
        winner = self.trick[trick_winner_index(cards, self.trump)][0]
        points = sum(c.points for c in cards)
        self.trick = []
        self.tricks += 1
        self.leader = winner
        draws: list[tuple[int, int]] = []
        exchange = False
        if self.stock_left > 0:
            for i in range(self.n):
                s = (winner + i) % self.n
                pos = self._draw_order[self._next_draw]
                self._next_draw += 1
                self.dealt[pos] = s
                self.hand_sizes[s] += 1
                draws.append((s, pos))
            exchange = self.stock_left == 0 and self.options.exchange_enabled
        last = not any(self.hand_sizes)
        self.to_play = None if last else winner
        return TrickOutcome(winner, points, tuple(draws), exchange, last)


__all__ = ["PublicSchedule", "TrickOutcome", "draw_order", "initial_deal"]
