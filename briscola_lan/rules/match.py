"""A match: a sequence of hands, the deal passing left, decided by the table's match format.

'hands' (rules text 002): a side with 61+ card points wins the hand, 60–60 is nobody's; the first
side to win ``hands_to_win`` hands takes the match. 'points' (rules text 000): 2 hands, 3 with 3
players so each player deals once; the most total card points wins. When the top totals tie, a
tie-break hand is played by everyone and, among the tied sides, the one with the most points in it
wins; if they tie again another tie-break hand follows. 'total' (5 players, Briscola chiamata):
``match_hands`` hands, each scored per seat by the table of weights (``rules.chiamata``); the seat
with the highest sum wins; while the top sum is shared, one more hand is played, and counts. A
hand everyone passed is not recorded: the same dealer deals again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from briscola_lan.rules.cards import Card
from briscola_lan.rules.chiamata import CallResult
from briscola_lan.rules.errors import MatchOver, RulesError
from briscola_lan.rules.hand import Hand
from briscola_lan.rules.options import MatchFormat, TableOptions


@dataclass(frozen=True, slots=True)
class HandResult:
    """The outcome of one finished hand."""

    number: int
    dealer: int
    points: tuple[int, ...]
    winner: int | None  # side that won the hand, None for 60–60 (or a tie in 'points'; at 5)
    tiebreak: bool
    call: CallResult | None = None  # 5 players: the callers, their points, each seat's score


def hand_winner(points: Sequence[int]) -> int | None:
    """The side with strictly the most points, or None when the top is shared (60–60)."""
    top = max(points)
    leaders = [i for i, p in enumerate(points) if p == top]
    return leaders[0] if len(leaders) == 1 else None


class Match:
    """Match bookkeeping over finished hands (no I/O): the hands are played outside and recorded."""

    def __init__(self, options: TableOptions, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < options.players:
            raise RulesError(f"first dealer must be a seat 0..{options.players - 1}")
        self.options = options
        self.first_dealer = first_dealer
        self.results: list[HandResult] = []
        self._recorded: list[Hand] = []  # the hands given to ``record``, to refuse one twice

    @property
    def next_dealer(self) -> int:
        """The deal passes to the left after every hand."""
        return (self.first_dealer + len(self.results)) % self.options.players

    @property
    def hand_number(self) -> int:
        """Number (from 0) of the next hand to be played."""
        return len(self.results)

    @property
    def next_is_tiebreak(self) -> bool:
        return (
            self.options.match_format is not MatchFormat.HANDS
            and len(self.results) >= self.options.base_hands
        )

    def new_hand(self, deck: Sequence[Card]) -> Hand:
        """Start the next hand with the given deck order."""
        if self.is_over:
            raise MatchOver("the match is already decided")
        return Hand(self.options, deck, self.next_dealer)

    def record(self, hand: Hand) -> HandResult:
        """Record the next hand of this match, finished, and return its result.

        Refuses (RulesError) a hand already recorded, a hand dealt by another seat than the next
        dealer, and a hand played by other rules than the match's.
        """
        if self.is_over:
            raise MatchOver("the match is already decided")
        if any(h is hand for h in self._recorded):
            raise RulesError("this hand is already recorded: every hand of a match is dealt anew")
        if hand.options != self.options:
            raise RulesError(
                f"the hand was played by other rules ({hand.options.summary()}) "
                f"than the match's ({self.options.summary()})"
            )
        if hand.dealer != self.next_dealer:
            raise RulesError(
                f"hand {self.hand_number + 1} is dealt by seat {self.next_dealer}, "
                f"not seat {hand.dealer}: the deal passes to the left"
            )
        if not hand.is_terminal:
            raise RulesError("only a finished hand can be recorded")
        if hand.passed_out:
            raise RulesError("everyone passed: the hand is dealt again, not recorded")
        result = self.record_points(hand.returns(), hand.dealer, hand.result())
        self._recorded.append(hand)
        return result

    def record_points(
        self, points: Sequence[int], dealer: int | None = None, call: CallResult | None = None
    ) -> HandResult:
        """Record a finished hand by its points per side (used by replays and verifiers); at five
        players with its scored call (``rules.chiamata.score_hand``)."""
        if self.is_over:
            raise MatchOver("the match is already decided")
        if len(points) != self.options.sides or sum(points) != 120:
            raise RulesError(f"a hand scores 120 points over {self.options.sides} sides")
        if (call is not None) != self.options.chiamata:
            raise RulesError("a hand at 5 players is recorded with its call, and only there")
        result = HandResult(
            number=len(self.results),
            dealer=self.next_dealer if dealer is None else dealer,
            points=tuple(points),
            winner=None if call is not None else hand_winner(points),
            tiebreak=self.next_is_tiebreak,
            call=call,
        )
        self.results.append(result)
        return result

    def hands_won(self) -> tuple[int, ...]:
        """Hands each side won; at five players, hands each seat ended with a positive score."""
        won = [0] * self.options.sides
        for r in self.results:
            if r.call is not None:
                for seat, score in enumerate(r.call.scores):
                    won[seat] += score > 0
            elif r.winner is not None:
                won[r.winner] += 1
        return tuple(won)

    def scores(self) -> tuple[int, ...]:
        """Five players: each seat's score summed over every hand so far (zeros elsewhere)."""
        tot = [0] * self.options.sides
        for r in self.results:
            if r.call is not None:
                for seat, score in enumerate(r.call.scores):
                    tot[seat] += score
        return tuple(tot)

    def total_points(self) -> tuple[int, ...]:
        """Card points per side over the regular hands (tie-breaks excluded)."""
        tot = [0] * self.options.sides
        for r in self.results:
            if not r.tiebreak:
                for i, p in enumerate(r.points):
                    tot[i] += p
        return tuple(tot)

    @property
    def winner(self) -> int | None:
        """The side that took the match, or None while it goes on."""
        opts = self.options
        if opts.match_format is MatchFormat.HANDS:
            for side, n in enumerate(self.hands_won()):
                if n >= opts.hands_to_win:
                    return side
            return None
        if len(self.results) < opts.base_hands:
            return None
        if opts.match_format is MatchFormat.TOTAL:
            sums = self.scores()
            leaders = [i for i, s in enumerate(sums) if s == max(sums)]
            return leaders[0] if len(leaders) == 1 else None
        totals = self.total_points()
        top = max(totals)
        tied = [i for i, p in enumerate(totals) if p == top]
        if len(tied) == 1:
            return tied[0]
        for r in self.results[opts.base_hands :]:
            best = max(r.points[i] for i in tied)
            tied = [i for i in tied if r.points[i] == best]
            if len(tied) == 1:
                return tied[0]
        return None

    @property
    def is_over(self) -> bool:
        return self.winner is not None
