"""Table options: every combination of players, match format and variants the rules allow.

Sources: ``000`` (pagat-style text: 2, 3, 4 players; 39 cards at 3; partner hand exchange at 4;
"points" match of 2 hands, 3 with 3 players, most total points wins, tie-break hand), ``002``
(2 or 4 players; 61 of 120 wins a hand, 60–60 is nobody's; first side to N hands, N in 1..5) and,
for five players, Briscola chiamata as docs/rules.md writes it (an auction, a called card and a
secret partner; a score per hand summed over a match of N hands).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from briscola_lan.rules.cards import Suit
from briscola_lan.rules.errors import OptionsError


class MatchFormat(StrEnum):
    """How a match is decided."""

    HANDS = "hands"  # 002: first side to win N hands (61+ points), 60-60 is nobody's
    POINTS = "points"  # 000: 2 hands (3 at 3 players), most total points, tie-break hand
    TOTAL = "total"  # 5 players (chiamata): each hand's score summed over N hands


def _match_format(value: object) -> MatchFormat:
    """A match format from itself or its name."""
    if isinstance(value, str) and value in MatchFormat.__members__.values():
        return MatchFormat(value)
    raise OptionsError(f"unknown match format {value!r}: use hands, points or total")


# The five-player game (Briscola chiamata): the range of its numeric options and their defaults.
CHIAMATA_PLAYERS = 5
POINTS_TO_WIN = 61  # what a rank bid needs (a point bid names its own)
MATCH_HANDS = 5  # hands in a match: each player deals once
MAX_MATCH_HANDS = 20


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _suit(value: object) -> Suit:
    """A suit from itself or its number 0..3."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return Suit(value)
    raise OptionsError(f"removed_two must be a suit 0..3, not {value!r}")


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The rules a table plays by, checked when built.

    An option that means nothing at a table is set to its default (``hands_to_win`` 2 in the
    'points' and 'total' formats, ``removed_two`` coins unless 3 play, ``partner_exchange`` on
    unless 4 play, the chiamata options unless 5 play), so two tables that play the same game
    compare equal.
    """

    players: int = 2
    match_format: MatchFormat = MatchFormat.HANDS
    hands_to_win: int = 2
    partner_exchange: bool = True
    removed_two: Suit = Suit.COINS
    signals: bool = False  # partners may signal to each other (4 players; off in strict play)
    points_to_win: int = POINTS_TO_WIN  # 5 players: what the callers need after a rank bid
    double_all: bool = True  # 5 players: a hand's score doubles when one side takes all 120
    match_hands: int = MATCH_HANDS  # 5 players: hands in a match ('total' format)

    def __post_init__(self) -> None:
        # Plain strings and ints (from the CLI or the wire) are accepted for the enum fields.
        object.__setattr__(self, "match_format", _match_format(self.match_format))
        object.__setattr__(self, "removed_two", _suit(self.removed_two))
        if self.partner_exchange in (0, 1) and not isinstance(self.partner_exchange, bool):
            object.__setattr__(self, "partner_exchange", bool(self.partner_exchange))
        if self.signals in (0, 1) and not isinstance(self.signals, bool):
            object.__setattr__(self, "signals", bool(self.signals))
        if self.double_all in (0, 1) and not isinstance(self.double_all, bool):
            object.__setattr__(self, "double_all", bool(self.double_all))
        self.validate()
        if self.match_format is not MatchFormat.HANDS:
            object.__setattr__(self, "hands_to_win", 2)
        if self.players != CHIAMATA_PLAYERS:
            object.__setattr__(self, "points_to_win", POINTS_TO_WIN)
            object.__setattr__(self, "double_all", True)
            object.__setattr__(self, "match_hands", MATCH_HANDS)
        if self.players != 3:
            object.__setattr__(self, "removed_two", Suit.COINS)
        if self.players != 4:
            object.__setattr__(self, "partner_exchange", True)
            object.__setattr__(self, "signals", False)

    @staticmethod
    def make(
        *,
        players: int = 2,
        match_format: MatchFormat | str = MatchFormat.HANDS,
        hands_to_win: int = 2,
        partner_exchange: bool = True,
        removed_two: Suit | int = Suit.COINS,
        signals: bool = False,
        points_to_win: int = POINTS_TO_WIN,
        double_all: bool = True,
        match_hands: int = MATCH_HANDS,
    ) -> TableOptions:
        """Options from keywords; a format may be given by name and the removed 2 by suit number."""
        return TableOptions(
            players=players,
            match_format=_match_format(match_format),
            hands_to_win=hands_to_win,
            partner_exchange=partner_exchange,
            removed_two=_suit(removed_two),
            signals=signals,
            points_to_win=points_to_win,
            double_all=double_all,
            match_hands=match_hands,
        )

    def validate(self) -> None:
        """Raise OptionsError unless these are options of a real game (fairness.md §8.2)."""
        if isinstance(self.players, bool) or self.players not in (2, 3, 4, 5):
            raise OptionsError(f"Briscola is played by 2, 3, 4 or 5 players, not {self.players!r}")
        if not isinstance(self.match_format, MatchFormat):
            raise OptionsError(
                f"unknown match format {self.match_format!r}: use hands, points or total"
            )
        if self.match_format is MatchFormat.HANDS and self.players == 3:
            raise OptionsError(
                "the 'hands' match format (61 to win a hand) is for 2 or 4 players; "
                "3 players play the 'points' format"
            )
        if (self.match_format is MatchFormat.TOTAL) != (self.players == CHIAMATA_PLAYERS):
            raise OptionsError(
                "5 players (Briscola chiamata) play the 'total' format, and only they: "
                "a score per hand summed over the match's hands"
            )
        ptw = self.points_to_win
        if not _int(ptw) or not POINTS_TO_WIN <= ptw <= 120:
            raise OptionsError(f"points to win must be 61 to 120, not {ptw!r}")
        if not isinstance(self.double_all, bool):
            raise OptionsError(f"double_all must be on or off, not {self.double_all!r}")
        mh = self.match_hands
        if not _int(mh) or not 1 <= mh <= MAX_MATCH_HANDS:
            raise OptionsError(f"hands in a match must be 1 to {MAX_MATCH_HANDS}, not {mh!r}")
        htw = self.hands_to_win
        if isinstance(htw, bool) or not isinstance(htw, int) or not 1 <= htw <= 5:
            raise OptionsError(f"hands to win must be 1 to 5, not {htw!r}")
        if not isinstance(self.partner_exchange, bool):
            raise OptionsError(f"partner_exchange must be on or off, not {self.partner_exchange!r}")
        if not isinstance(self.removed_two, Suit):
            raise OptionsError(f"removed_two must be a suit, not {self.removed_two!r}")
        if not isinstance(self.signals, bool):
            raise OptionsError(f"signals must be allowed or not, not {self.signals!r}")

    @property
    def deck_size(self) -> int:
        return 39 if self.players == 3 else 40

    @property
    def chiamata(self) -> bool:
        """Five players: Briscola chiamata (an auction, a called card, no stock, no upcard)."""
        return self.players == CHIAMATA_PLAYERS

    @property
    def hand_size(self) -> int:
        """Cards each seat is dealt at the start: 3, or the whole pack's share (8) at 5 players."""
        return self.deck_size // self.players if self.chiamata else 3

    @property
    def sides(self) -> int:
        """Number of sides scoring card points separately: partnerships at 4 players (at 5 each
        seat counts its own; the called partnership is known only at the end)."""
        return 2 if self.players == 4 else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for: seats 0 and 2 against 1 and 3 at 4 players."""
        return seat % 2 if self.players == 4 else seat

    def partner_of(self, seat: int) -> int | None:
        return (seat + 2) % 4 if self.players == 4 else None

    @property
    def exchange_enabled(self) -> bool:
        return self.players == 4 and self.partner_exchange

    @property
    def base_hands(self) -> int:
        """Hands in a 'points' or 'total' match before any tie-break."""
        if self.match_format is MatchFormat.TOTAL:
            return self.match_hands
        return 3 if self.players == 3 else 2

    def summary(self) -> str:
        """A short human summary, e.g. ``4p hands:2 exchange``."""
        parts = [f"{self.players}p"]
        if self.match_format is MatchFormat.HANDS:
            parts.append(f"hands:{self.hands_to_win}")
        elif self.match_format is MatchFormat.TOTAL:
            parts.append(f"total:{self.match_hands}")
            if self.points_to_win != POINTS_TO_WIN:
                parts.append(f"win:{self.points_to_win}")
            if not self.double_all:
                parts.append("no-double")
        else:
            parts.append(f"points:{self.base_hands}")
        if self.players == 4:
            parts.append("exchange" if self.partner_exchange else "no-exchange")
            if self.signals:
                parts.append("signals")
        if self.players == 3:
            parts.append(f"no-2{self.removed_two.letter}")
        return " ".join(parts)

    def side_text(self, side: int, names: Sequence[str]) -> str:
        """A side as a person reads it: 'Bea (seat 1)', or 'side A (Ann + Cid, seats 0+2)'.

        ``names`` are the players' names by seat (a missing one reads 'seat N').
        """
        seats = [s for s in range(self.players) if self.side_of(s) == side]
        who = [names[s] if s < len(names) else f"seat {s}" for s in seats]
        if len(seats) == 1:
            return f"{who[0]} (seat {seats[0]})"
        label = "AB"[side] if 0 <= side < 2 else str(side)
        return f"side {label} ({' + '.join(who)}, seats {'+'.join(map(str, seats))})"

    def to_dict(self) -> dict[str, Any]:
        """The options as the wire writes them (protocol/SPEC.md ``table-options``): an option
        newer than the first five only when it is not at its default."""
        out: dict[str, Any] = {
            "players": self.players,
            "match_format": str(self.match_format),
            "hands_to_win": self.hands_to_win,
            "partner_exchange": self.partner_exchange,
            "removed_two": int(self.removed_two),
        }
        if self.signals:
            out["signals"] = True
        if self.points_to_win != POINTS_TO_WIN:
            out["points_to_win"] = self.points_to_win
        if not self.double_all:
            out["double_all"] = False
        if self.match_hands != MATCH_HANDS:
            out["match_hands"] = self.match_hands
        return out

    @staticmethod
    def from_dict(data: dict[str, Any]) -> TableOptions:
        try:
            players = int(data["players"])
            match_format = MatchFormat(data["match_format"])
            hands_to_win = int(data.get("hands_to_win", 2))
            partner_exchange = bool(data.get("partner_exchange", True))
            removed_two = Suit(int(data.get("removed_two", 0)))
            signals = data.get("signals", False)
            if not isinstance(signals, bool):
                raise ValueError(f"signals must be true or false, not {signals!r}")
            double_all = data.get("double_all", True)
            if not isinstance(double_all, bool):
                raise ValueError(f"double_all must be true or false, not {double_all!r}")
            points_to_win = data.get("points_to_win", POINTS_TO_WIN)
            match_hands = data.get("match_hands", MATCH_HANDS)
        except (KeyError, ValueError, TypeError) as exc:
            raise OptionsError(f"bad table options {data!r}: {exc}") from exc
        return TableOptions(
            players=players,
            match_format=match_format,
            hands_to_win=hands_to_win,
            partner_exchange=partner_exchange,
            removed_two=removed_two,
            signals=signals,
            points_to_win=points_to_win,
            double_all=double_all,
            match_hands=match_hands,
        )


def all_variants() -> list[TableOptions]:
    """Every distinct combination of options the rules allow (used by tests and tools).

    The five-player game's two numeric options take two values each here, their default and
    another (points to win 61 and 71, a match of 5 hands and of 1): every other value plays by
    the same rules, and ``validate`` checks the whole range.
    """
    out: list[TableOptions] = []
    for players in (2, 3, 4):
        for fmt in (MatchFormat.HANDS, MatchFormat.POINTS):
            if fmt is MatchFormat.HANDS and players == 3:
                continue
            hands = range(1, 6) if fmt is MatchFormat.HANDS else (2,)
            exchanges = (True, False) if players == 4 else (True,)
            twos = tuple(Suit) if players == 3 else (Suit.COINS,)
            signals = (False, True) if players == 4 else (False,)
            for n in hands:
                for ex in exchanges:
                    for two in twos:
                        for sig in signals:
                            out.append(
                                TableOptions.make(
                                    players=players,
                                    match_format=fmt,
                                    hands_to_win=n,
                                    partner_exchange=ex,
                                    removed_two=two,
                                    signals=sig,
                                )
                            )
    for target in (POINTS_TO_WIN, 71):
        for double in (True, False):
            for length in (MATCH_HANDS, 1):
                out.append(
                    TableOptions.make(
                        players=CHIAMATA_PLAYERS,
                        match_format=MatchFormat.TOTAL,
                        points_to_win=target,
                        double_all=double,
                        match_hands=length,
                    )
                )
    return out
