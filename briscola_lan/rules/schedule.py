"""One hand of Briscola seen without the deck: whose turn, who takes each trick, which deck position
each seat receives and when, the tricks and the points, from public facts only.

The initial deal, the draw order and who draws after each trick depend only on the dealer, the
trump suit and the cards played, so anyone can follow them without seeing a hidden card. This is
the one place where a trick is resolved and a round of draws made: the rules engine
(``rules.hand.Hand``) is this engine with the deck added, and the verifier, the host and every
client follow a hand's public records with it (``fairness.classic_hand``, ``fairness.blind_hand``).
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.rules.cards import Card, Suit, trick_winner_index
from briscola_lan.rules.events import TrickTaken
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
class SeatView:
    """What one seat may know: its own cards and public facts, never another seat's hidden card.

    Built fresh from copies (``PublicSchedule.seat_view``); it holds no reference back to a hand.
    """

    seat: int
    options: TableOptions
    dealer: int
    hand: tuple[Card, ...]
    trump: Suit
    upcard: Card
    upcard_taken_by: int | None
    stock_left: int
    trick: tuple[tuple[int, Card], ...]
    leader: int
    to_play: int | None
    tricks: tuple[TrickTaken, ...]
    hand_sizes: tuple[int, ...]
    points: tuple[int, ...]
    partner_shown: tuple[Card, ...] | None
    partner_exchange_trick: int | None

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def my_turn(self) -> bool:
        return self.to_play == self.seat

    @property
    def legal_plays(self) -> tuple[Card, ...]:
        """Cards this seat may play now, in a stable order (code order); empty if not its turn."""
        return tuple(sorted(self.hand, key=lambda c: c.code)) if self.my_turn else ()

    @property
    def played_cards(self) -> tuple[Card, ...]:
        """Every card seen played this hand, completed tricks then the current one."""
        out = [c for t in self.tricks for _, c in t.plays]
        out.extend(c for _, c in self.trick)
        return tuple(out)


@dataclass(frozen=True, slots=True)
class TrickOutcome:
    """A finished trick seen from outside: who took it, the points, the draws that follow."""

    winner: int
    points: int
    draws: tuple[tuple[int, int], ...]  # (seat, position) in draw order; empty once stock is out
    exchange: bool  # the 4-player partner exchange happens now (after these draws)
    last: bool  # the hand is over
    taken: TrickTaken  # the trick, as the rules report it


class PublicSchedule:
    """One hand followed from public facts only: the upcard's suit and each card played.

    It knows whose turn it is, which positions every seat was dealt, who draws what after each
    trick, when the partner exchange comes, the tricks taken and the points; it never knows a
    hidden card. ``play`` trusts its caller to have checked the turn (``to_play``) and the card.
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
        self.tricks: list[TrickTaken] = []
        self.points = [0] * options.sides
        self.upcard_taken_by: int | None = None
        self.exchange_trick: int | None = None  # tricks taken when the partners showed hands

    @property
    def stock_left(self) -> int:
        """Cards still to be drawn, the upcard included."""
        return len(self._draw_order) - self._next_draw

    def stock_positions(self) -> list[int]:
        """The positions still to draw, in draw order (the upcard's last)."""
        return self._draw_order[self._next_draw :]

    @property
    def plays_made(self) -> int:
        """Cards played so far this hand (the next play's number)."""
        return sum(len(t.plays) for t in self.tricks) + len(self.trick)

    def positions_of(self, seat: int) -> list[int]:
        """Every position the schedule has given ``seat`` so far."""
        return [p for p, s in self.dealt.items() if s == seat]

    def play(self, seat: int, card: Card) -> TrickOutcome | None:
        """Record a card played by the seat to move; the trick's outcome when it completes."""
        assert self.trump is not None and seat == self.to_play
        self.played[seat].append(card.code)
        self.hand_sizes[seat] -= 1
        trick = self.trick
        trick.append((seat, card))
        n = self.n
        if len(trick) < n:
            self.to_play = (seat + 1) % n
            return None
        winner = trick[trick_winner_index([c for _, c in trick], self.trump)][0]
        points = sum(c.points for _, c in trick)
        taken = TrickTaken(winner, tuple(trick), points)
        self.tricks.append(taken)
        self.points[self.options.side_of(winner)] += points
        self.trick = []
        self.leader = winner
        draws: list[tuple[int, int]] = []
        exchange = False
        if self.stock_left > 0:
            for i in range(n):
                s = (winner + i) % n
                pos = self._draw_order[self._next_draw]
                self._next_draw += 1
                self.dealt[pos] = s
                self.hand_sizes[s] += 1
                if pos == self.upcard_position:
                    self.upcard_taken_by = s
                draws.append((s, pos))
            exchange = self.stock_left == 0 and self.options.exchange_enabled
            if exchange:
                self.exchange_trick = len(self.tricks)
        last = not any(self.hand_sizes)
        self.to_play = None if last else winner
        return TrickOutcome(winner, points, tuple(draws), exchange, last, taken)

    def seat_view(
        self,
        seat: int,
        hand: tuple[Card, ...],
        upcard: Card,
        partner_shown: tuple[Card, ...] | None,
        *,
        turns: bool = True,
    ) -> SeatView:
        """The seat's observation: these public facts and the cards given for it.

        ``turns=False``: nobody is offered a turn (a hand whose next statement is not a play)."""
        return SeatView(
            seat=seat,
            options=self.options,
            dealer=self.dealer,
            hand=hand,
            trump=upcard.suit,
            upcard=upcard,
            upcard_taken_by=self.upcard_taken_by,
            stock_left=self.stock_left,
            trick=tuple(self.trick),
            leader=self.leader,
            to_play=self.to_play if turns else None,
            tricks=tuple(self.tricks),
            hand_sizes=tuple(self.hand_sizes),
            points=tuple(self.points),
            partner_shown=partner_shown,
            partner_exchange_trick=self.exchange_trick,
        )


__all__ = [
    "PublicSchedule",
    "SeatView",
    "TrickOutcome",
    "draw_order",
    "initial_deal",
]
