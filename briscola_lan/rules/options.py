"""Table options: every combination of players, match format and variants the two rules texts allow.

Sources: ``000`` (pagat-style text: 2, 3, 4 players; 39 cards at 3; partner hand exchange at 4;
"points" match of 2 hands, 3 with 3 players, most total points wins, tie-break hand) and ``002``
(2 or 4 players; 61 of 120 wins a hand, 60–60 is nobody's; first side to N hands, N in 1..5).
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


def _match_format(value: object) -> MatchFormat:
    """A match format from itself or its name."""
    if isinstance(value, str) and value in MatchFormat.__members__.values():
        return MatchFormat(value)
    raise OptionsError(f"unknown match format {value!r}: use hands or points")


def _suit(value: object) -> Suit:
    """A suit from itself or its number 0..3."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return Suit(value)
    raise OptionsError(f"removed_two must be a suit 0..3, not {value!r}")


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The rules a table plays by, checked when built.

    An option that means nothing at a table is set to its default (``hands_to_win`` 2 in the
    'points' format, ``removed_two`` coins unless 3 play, ``partner_exchange`` on unless 4 play),
    so two tables that play the same game compare equal.
    """

    players: int = 2
    match_format: MatchFormat = MatchFormat.HANDS
    hands_to_win: int = 2
    partner_exchange: bool = True
    removed_two: Suit = Suit.COINS
    signals: bool = False  # partners may signal to each other (4 players; off in strict play)

    def __post_init__(self) -> None:
        # Plain strings and ints (from the CLI or the wire) are accepted for the enum fields.
        object.__setattr__(self, "match_format", _match_format(self.match_format))
        object.__setattr__(self, "removed_two", _suit(self.removed_two))
        if self.partner_exchange in (0, 1) and not isinstance(self.partner_exchange, bool):
            object.__setattr__(self, "partner_exchange", bool(self.partner_exchange))
        if self.signals in (0, 1) and not isinstance(self.signals, bool):
            object.__setattr__(self, "signals", bool(self.signals))
        self.validate()
        if self.match_format is MatchFormat.POINTS:
            object.__setattr__(self, "hands_to_win", 2)
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
    ) -> TableOptions:
        """Options from keywords; a format may be given by name and the removed 2 by suit number."""
        return TableOptions(
            players=players,
            match_format=_match_format(match_format),
            hands_to_win=hands_to_win,
            partner_exchange=partner_exchange,
            removed_two=_suit(removed_two),
            signals=signals,
        )

    def validate(self) -> None:
        """Raise OptionsError unless these are options of a real game (fairness.md §8.2)."""
        if isinstance(self.players, bool) or self.players not in (2, 3, 4):
            raise OptionsError(f"Briscola is played by 2, 3 or 4 players, not {self.players!r}")
        if not isinstance(self.match_format, MatchFormat):
            raise OptionsError(f"unknown match format {self.match_format!r}: use hands or points")
        if self.match_format is MatchFormat.HANDS and self.players == 3:
            raise OptionsError(
                "the 'hands' match format (61 to win a hand) is for 2 or 4 players; "
                "3 players play the 'points' format"
            )
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
    def sides(self) -> int:
        """Number of sides scoring separately: partnerships at 4 players."""
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
        """Hands in a 'points' match before any tie-break."""
        return 3 if self.players == 3 else 2

    def summary(self) -> str:
        """A short human summary, e.g. ``4p hands:2 exchange``."""
        parts = [f"{self.players}p"]
        if self.match_format is MatchFormat.HANDS:
            parts.append(f"hands:{self.hands_to_win}")
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
        except (KeyError, ValueError, TypeError) as exc:
            raise OptionsError(f"bad table options {data!r}: {exc}") from exc
        return TableOptions(
            players=players,
            match_format=match_format,
            hands_to_win=hands_to_win,
            partner_exchange=partner_exchange,
            removed_two=removed_two,
            signals=signals,
        )


def all_variants() -> list[TableOptions]:
    """Every distinct combination of options the rules texts allow (used by tests and tools)."""
    out: list[TableOptions] = []
    for players in (2, 3, 4):
        for fmt in MatchFormat:
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
    return out
