"""A hand of Briscola chiamata scored: the callers' points against the bid, and each seat's weight
in the match (docs/rules.md, "Five players": the table of weights).

The callers are the caller and the seat that held the called card (the caller alone if it held
the card itself). They win with at least the bid's target. Weights when they win: caller +2,
partner +1, each other seat -1; the caller alone +4, each other -1; negated when they lose;
doubled (table option ``double_all``) when one side took all 120 card points. They sum to zero.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from briscola_lan.rules.auction import Contract
from briscola_lan.rules.cards import Card
from briscola_lan.rules.options import TableOptions

TOTAL_POINTS = 120

# (caller, partner, each other seat) when the callers win; the caller alone has no partner.
WEIGHTS_WITH_PARTNER = (2, 1, -1)
WEIGHTS_ALONE = (4, 0, -1)


@dataclass(frozen=True, slots=True)
class CallResult:
    """One finished hand of chiamata: who were the callers, their points, and each seat's score."""

    caller: int
    partner: int  # the seat that held the called card; the caller itself when alone
    called: Card
    bid: int  # the winning bid's code (``auction.Bid``)
    target: int  # the card points the callers needed
    points: int  # the card points the callers took
    won: bool
    all_points: bool  # one side took all 120 card points
    scores: tuple[int, ...]  # each seat's weight this hand, by seat (summing to zero)

    @property
    def alone(self) -> bool:
        return self.partner == self.caller

    @property
    def callers(self) -> tuple[int, ...]:
        return (self.caller,) if self.alone else (self.caller, self.partner)


def weights(players: int, caller: int, partner: int, won: bool, doubled: bool) -> tuple[int, ...]:
    """Each seat's score for a hand: the table of weights, negated for a loss, doubled."""
    table = WEIGHTS_ALONE if partner == caller else WEIGHTS_WITH_PARTNER
    factor = (1 if won else -1) * (2 if doubled else 1)
    out = []
    for seat in range(players):
        w = table[0] if seat == caller else table[1] if seat == partner else table[2]
        out.append(w * factor)
    return tuple(out)


def score_hand(
    options: TableOptions, contract: Contract, partner: int, points: Sequence[int]
) -> CallResult:
    """The result of a finished hand from its contract, the partner and each seat's card points."""
    if len(points) != options.players or sum(points) != TOTAL_POINTS:
        raise ValueError(f"a hand scores {TOTAL_POINTS} card points over {options.players} seats")
    callers = {contract.caller, partner}
    taken = sum(points[s] for s in callers)
    target = contract.target(options.points_to_win)
    won = taken >= target
    all_points = taken in (0, TOTAL_POINTS)
    return CallResult(
        caller=contract.caller,
        partner=partner,
        called=contract.called,
        bid=contract.bid.code,
        target=target,
        points=taken,
        won=won,
        all_points=all_points,
        scores=weights(
            options.players, contract.caller, partner, won, all_points and options.double_all
        ),
    )


__all__ = [
    "TOTAL_POINTS",
    "WEIGHTS_ALONE",
    "WEIGHTS_WITH_PARTNER",
    "CallResult",
    "score_hand",
    "weights",
]
