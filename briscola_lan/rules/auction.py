"""The auction of Briscola chiamata (5 players): bids from the ace down to the 2, then points;
a pass is final; the last bidder left calls a suit (docs/rules.md, "Five players").

Theory of operation: one ladder holds every bid in the order they rise: the ten ranks from the
ace down to the 2 (a rank bid promises the table's ``points_to_win``, 61 by default), then the
points from ``points_to_win`` to 120 (each the 2 with that many points). A bid must stand higher
on the ladder than the last one; a player may jump. The auction asks the seats in turn from the
left of the dealer, skipping those who passed; it ends when one bidder is left (or someone bids
120, which nobody can top), and is void, for a redeal, when all five pass before a first bid.
Pure and public: every seat sees every bid.
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.rules.cards import Card, Rank, Suit
from briscola_lan.rules.errors import IllegalBid, NotYourTurn

MAX_POINTS = 120


@dataclass(frozen=True, slots=True)
class Bid:
    """One bid: ``code`` 0..9 names a rank (``Rank``'s value, the ace 0 to the 2 9); 61..120 is a
    point bid (the 2 with that many points). ``code`` is its wire and statement form."""

    code: int

    def __post_init__(self) -> None:
        c = self.code
        if not isinstance(c, int) or isinstance(c, bool) or not (0 <= c <= 9 or 61 <= c <= 120):
            raise IllegalBid(f"a bid is a rank 0..9 or points 61..120, not {c!r}")

    @staticmethod
    def of_rank(rank: Rank) -> Bid:
        return Bid(int(rank))

    @property
    def is_points(self) -> bool:
        return self.code >= 10

    @property
    def rank(self) -> Rank:
        """The rank of the card the winner calls: the bid's, or the 2 for a point bid."""
        return Rank.TWO if self.is_points else Rank(self.code)

    def target(self, points_to_win: int) -> int:
        """The card points the callers need: the table's ``points_to_win``, or the bid's."""
        return self.code if self.is_points else points_to_win

    def step(self, points_to_win: int) -> int:
        """The bid's place on the ladder (a higher bid has a higher step)."""
        return self.code - points_to_win + 10 if self.is_points else self.code

    def allowed(self, points_to_win: int) -> bool:
        """Whether a table with this ``points_to_win`` has the bid (point bids from there up)."""
        return not self.is_points or self.code >= points_to_win

    def label(self) -> str:
        """'A', '3', 'K', 'Q', 'J', '7' .. '2', or the points ('75')."""
        return str(self.code) if self.is_points else Rank(self.code).label

    def __str__(self) -> str:
        return self.label()

    @staticmethod
    def parse(text: str) -> Bid:
        """Read a rank ('A', '3', 'K', 'Q' or 'C' for the knight, 'J' or 'F', '7' .. '2') or a
        number of points (61..120)."""
        key = text.strip().upper()
        aliases = {"C": "Q", "F": "J"}  # cavallo, fante
        key = aliases.get(key, key)
        if key.isdigit() and int(key) > 9:
            return Bid(int(key))
        try:
            return Bid.of_rank(Rank.parse(key))
        except ValueError as exc:
            raise IllegalBid(
                f"not a bid: {text!r} (a rank A 3 K Q J 7 6 5 4 2, or points 61 to 120)"
            ) from exc


def ladder(points_to_win: int) -> tuple[Bid, ...]:
    """Every bid of a table, lowest first: the ranks from the ace down, then the points."""
    return (
        *(Bid(r) for r in range(10)),
        *(Bid(p) for p in range(points_to_win, MAX_POINTS + 1)),
    )


@dataclass(frozen=True, slots=True)
class Contract:
    """The auction's outcome once the caller has named a suit: the called card sets the trump."""

    caller: int
    bid: Bid
    called: Card

    @property
    def trump(self) -> Suit:
        return self.called.suit

    def target(self, points_to_win: int) -> int:
        return self.bid.target(points_to_win)


class Auction:
    """The bids of one hand, in order; who bids next; who won or that all passed.

    ``act`` checks the turn and the bid and raises (``NotYourTurn``, ``IllegalBid``) without
    changing anything.
    """

    def __init__(self, players: int, first: int, points_to_win: int) -> None:
        self.players = players
        self.points_to_win = points_to_win
        self.bids: list[tuple[int, Bid | None]] = []  # (seat, bid or None for a pass), in order
        self.out: set[int] = set()  # seats that passed
        self.high: tuple[int, Bid] | None = None  # (seat, bid) of the highest bid so far
        self.to_bid: int | None = first

    @property
    def over(self) -> bool:
        return self.to_bid is None

    @property
    def passed_out(self) -> bool:
        """Everyone passed before a first bid: the hand is void and dealt again."""
        return self.over and self.high is None

    @property
    def winner(self) -> int | None:
        """The caller, once the auction is over with a bid."""
        return self.high[0] if self.over and self.high is not None else None

    def legal(self) -> tuple[Bid, ...]:
        """The bids the seat to bid may make (a pass is always allowed), lowest first."""
        if self.to_bid is None:
            return ()
        floor = -1 if self.high is None else self.high[1].step(self.points_to_win)
        return tuple(b for b in ladder(self.points_to_win) if b.step(self.points_to_win) > floor)

    def check(self, seat: int, bid: Bid | None) -> None:
        """Raise unless ``seat`` may make ``bid`` (None: pass) now."""
        if self.to_bid is None:
            raise IllegalBid("the auction is over")
        if seat != self.to_bid:
            raise NotYourTurn(f"it is seat {self.to_bid}'s turn to bid, not seat {seat}'s")
        if bid is None:
            return
        if not bid.allowed(self.points_to_win):
            raise IllegalBid(
                f"a point bid at this table is {self.points_to_win} to {MAX_POINTS}, not {bid}"
            )
        if self.high is not None and bid.step(self.points_to_win) <= self.high[1].step(
            self.points_to_win
        ):
            raise IllegalBid(f"{bid} does not top {self.high[1]}: bid lower in rank, or pass")

    def act(self, seat: int, bid: Bid | None) -> None:
        """Record ``seat``'s bid, or its pass (None)."""
        self.check(seat, bid)
        self.bids.append((seat, bid))
        if bid is None:
            self.out.add(seat)
        else:
            self.high = (seat, bid)
        self.to_bid = self._next(seat)

    def _next(self, seat: int) -> int | None:
        n = self.players
        still = [s for s in range(n) if s not in self.out]
        if self.high is not None and (len(still) == 1 or self.high[1].code == MAX_POINTS):
            return None
        if not still:
            return None
        for i in range(1, n + 1):
            s = (seat + i) % n
            if s not in self.out:
                return s
        return None  # pragma: no cover - ``still`` is not empty


__all__ = ["MAX_POINTS", "Auction", "Bid", "Contract", "ladder"]
