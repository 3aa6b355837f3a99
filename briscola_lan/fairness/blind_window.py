"""One deal window of a blind hand: the positions it deals, the shares owed and the shows due."""

from __future__ import annotations

from dataclasses import dataclass, field

from briscola_lan.fairness.statements import Shares, Show


@dataclass(slots=True)
class Window:
    """The keys one deal window calls for: the initial deal (window 0, with the upcard) or the
    round of draws after a trick (window = tricks taken)."""

    number: int
    deals: tuple[tuple[int, int], ...]  # (position, receiving seat) in dealing order
    upcard: int | None  # window 0: the upcard's position, whose keys are public
    owing: tuple[int, ...]  # parties that owe shares, in party order
    shares: dict[int, tuple[int, Shares]] = field(default_factory=dict)  # party -> (record, st)
    shows_due: bool = False  # the round that empties the stock, 4 players, exchange on
    shows: dict[int, tuple[int, Show]] = field(default_factory=dict)  # seat -> (record, st)

    @property
    def shares_done(self) -> bool:
        return len(self.shares) == len(self.owing)


__all__ = ["Window"]
