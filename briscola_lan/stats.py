"""A player's statistics over time, from saved games that verify: wins, losses, points by opponent
and by AI level, the best and worst hands.

Pure: it takes what the verifier found in each file (``MatchReport``) and the file's opening
``match-start`` record, and never reads a file itself (``commands/stats.py`` does). Only what the
verifier checked counts: a file with a failed check counts for nothing, a hand counts when its
status is ``verified``, and a match's result when the file holds the whole match. The player is
found by identity key (every seat signs with its own), or by name when no key matches.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from briscola_lan.fairness.statements import MatchStart
from briscola_lan.fairness.verify import MatchReport

__all__ = [
    "VERDICT_RANK",
    "HandLine",
    "MatchLine",
    "Stats",
    "Tally",
    "match_line",
    "pick_files",
    "summarize",
]

HUMAN = ""  # the AI level of a person's seat in a match-start record

# The verdicts in the order a file is preferred when several hold one game (the player's own and
# the host's); "failed" files never count.
VERDICT_RANK = {
    "verified": 0,
    "unacknowledged": 1,
    "withheld": 2,
    "aborted": 3,
    "incomplete": 4,
    "failed": 9,
}


@dataclass(frozen=True, slots=True)
class HandLine:
    """One verified hand, from the player's side: its points against the best other side's."""

    game_id: str
    table: str
    when: float  # the file's time, seconds since the epoch
    number: int  # the hand's number in the match, from 1
    mine: int  # the player's side's card points
    theirs: int  # the points of the strongest other side
    opponents: tuple[str, ...]  # who played on the other sides, as ``opponent_label`` gives

    @property
    def result(self) -> str:
        """ "won", "lost" or "tied" (60–60, or a top score shared at three)."""
        return "won" if self.mine > self.theirs else "lost" if self.mine < self.theirs else "tied"


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One saved match, from the player's seat."""

    game_id: str
    table: str
    when: float
    players: int
    seat: int
    deal: str  # "classic" or "blind"
    opponents: tuple[tuple[str, str], ...]  # (name, AI level or "" for a person), other sides
    hands: tuple[HandLine, ...]
    result: str  # "won", "lost" or "unfinished" (the file does not hold the match's end)

    @property
    def levels(self) -> tuple[str, ...]:
        """The AI levels played against (each once), "" for people."""
        return tuple(dict.fromkeys(level for _name, level in self.opponents))


def opponent_label(name: str, level: str) -> str:
    """How statistics name an opponent: a person by name, an AI by its level (its seat name
    changes from table to table)."""
    return f"AI {level}" if level else name


def match_line(
    report: MatchReport, start: MatchStart, me: Sequence[bytes], when: float, name: str = ""
) -> MatchLine | None:
    """The player's line for one file's match, or None when it cannot count (a failed check, no
    options, or no seat of the player's: found by key in ``me``, else by ``name``)."""
    if report.verdict == "failed" or report.options is None:
        return None
    seat = next((s for s, key in enumerate(start.seat_keys) if key in me), None)
    if seat is None and name:
        seat = next((s for s, n in enumerate(start.names) if n == name), None)
    if seat is None:
        return None
    options = report.options
    side = options.side_of(seat)
    others = [s for s in range(options.players) if options.side_of(s) != side]
    levels = list(start.ai_levels) + [HUMAN] * options.players
    opponents = tuple((start.names[s], levels[s]) for s in others)
    labels = tuple(opponent_label(n, lv) for n, lv in opponents)
    hands = []
    for h in report.hands:
        if h.status != "verified" or h.points is None:
            continue
        theirs = max(p for i, p in enumerate(h.points) if i != side)
        hands.append(
            HandLine(
                report.game_id, report.table_name, when, h.hand + 1, h.points[side], theirs, labels
            )
        )
    if report.match_over and report.match_ended and report.winner is not None:
        result = "won" if report.winner == side else "lost"
    else:
        result = "unfinished"
    return MatchLine(
        report.game_id,
        report.table_name,
        when,
        options.players,
        seat,
        report.deal or "classic",
        opponents,
        tuple(hands),
        result,
    )


def pick_files(found: Iterable[tuple[str, str, int, object]]) -> list[object]:
    """One file per game: of ``(game_id, verdict, hands, file)`` the best verdict, then the most
    verified hands; the files in the order their games were first seen."""
    best: dict[str, tuple[int, int, object]] = {}
    for game_id, verdict, hands, item in found:
        rank = (VERDICT_RANK.get(verdict, 9), -hands)
        if game_id not in best or rank < best[game_id][:2]:
            best[game_id] = (*rank, item)
    return [item for _rank, _hands, item in best.values()]


@dataclass(slots=True)
class Tally:
    """Matches and hands against one opponent (or one AI level), and the points in them."""

    matches: int = 0
    won: int = 0
    lost: int = 0
    hands: int = 0
    hands_won: int = 0
    points: int = 0  # the player's side's card points over those hands
    points_against: int = 0

    @property
    def average(self) -> float | None:
        """The player's average card points a hand, None before a hand counts."""
        return self.points / self.hands if self.hands else None

    @property
    def average_against(self) -> float | None:
        return self.points_against / self.hands if self.hands else None

    def add_match(self, line: MatchLine) -> None:
        if line.result != "unfinished":
            self.matches += 1
            self.won += line.result == "won"
            self.lost += line.result == "lost"
        for h in line.hands:
            self.hands += 1
            self.hands_won += h.result == "won"
            self.points += h.mine
            self.points_against += h.theirs


@dataclass(slots=True)
class Stats:
    """Everything the statistics screen and ``briscola-lan stats`` show."""

    lines: list[MatchLine] = field(default_factory=list)
    total: Tally = field(default_factory=Tally)
    unfinished: int = 0  # matches whose files stop before their end
    by_opponent: dict[str, Tally] = field(default_factory=dict)
    by_level: dict[str, Tally] = field(default_factory=dict)  # "" collects matches vs people
    by_players: dict[int, Tally] = field(default_factory=dict)
    best: list[HandLine] = field(default_factory=list)  # the player's best hands, best first
    worst: list[HandLine] = field(default_factory=list)  # worst first

    @property
    def hands(self) -> list[HandLine]:
        return [h for line in self.lines for h in line.hands]


def summarize(lines: Iterable[MatchLine], top: int = 3) -> Stats:
    """The statistics of the player's matches (one line per match), with ``top`` best and worst
    hands (by the margin over the strongest other side, then the points)."""
    st = Stats(lines=sorted(lines, key=lambda m: m.when))
    for line in st.lines:
        st.total.add_match(line)
        st.unfinished += line.result == "unfinished"
        st.by_players.setdefault(line.players, Tally()).add_match(line)
        for label in dict.fromkeys(opponent_label(n, lv) for n, lv in line.opponents):
            st.by_opponent.setdefault(label, Tally()).add_match(line)
        for level in line.levels:
            st.by_level.setdefault(level, Tally()).add_match(line)
    ranked = sorted(st.hands, key=lambda h: (h.theirs - h.mine, -h.mine, -h.when))
    st.best = ranked[:top]
    st.worst = ranked[len(st.best) :][::-1][:top]  # a hand is shown once, best or worst
    return st
