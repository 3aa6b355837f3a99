"""The match's opening record: the table options a match-start may carry, its seats and first
dealer, and (after a draw) that it seats the players where the draw put them (§7a, §8).
"""

from __future__ import annotations

from briscola_lan.choices import AI_LEVELS as BOT_LEVELS
from briscola_lan.fairness.draw import DrawResult
from briscola_lan.fairness.identity import verify_signature
from briscola_lan.fairness.statements import DrawStart, MatchStart
from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import MatchFormat, TableOptions

AI_LEVELS = ("", *BOT_LEVELS)  # "" is a human seat (fairness.md §8, valid options)


def options_of(ms: MatchStart) -> TableOptions:
    """The table options a match-start carries."""
    return TableOptions.from_dict(
        {
            "players": ms.players,
            "match_format": ms.match_format,
            "hands_to_win": ms.hands_to_win,
            "partner_exchange": bool(ms.partner_exchange),
            "removed_two": ms.removed_two,
        }
    )


def options_problem(ms: MatchStart) -> str | None:
    """Why a match-start's options are not valid options (fairness.md §8), or None."""
    if ms.players not in (2, 3, 4, 5):
        return f"a match for {ms.players} players"
    if ms.match_format not in (f.value for f in MatchFormat):
        return f"unknown match format {ms.match_format!r}"
    if (ms.match_format == MatchFormat.TOTAL.value) != (ms.players == 5):
        return "the total format is played by 5 players, and only by them"
    if not 1 <= ms.hands_to_win <= 5:
        return f"hands_to_win must be 1 to 5, not {ms.hands_to_win}"
    if ms.partner_exchange not in (0, 1):
        return f"partner_exchange must be 0 or 1, not {ms.partner_exchange}"
    if not 0 <= ms.removed_two <= 3:
        return f"removed_two must be a suit 0 to 3, not {ms.removed_two}"
    if ms.match_format == MatchFormat.HANDS.value and ms.players == 3:
        return "the hands format is not played by 3 players"
    if any(level not in AI_LEVELS for level in ms.ai_levels):
        return "an AI level that is not random, rules or strong"
    return None


def match_start_problem(st: MatchStart, body: bytes, sig: bytes) -> str | None:
    """Why a match-start cannot open a match (the host's fault), or None."""
    if not verify_signature(st.host_key, body, sig):
        return "bad host signature on match-start"
    problem = options_problem(st)
    if problem is not None:
        return f"bad table options: {problem}"
    try:
        opts = options_of(st)
    except OptionsError as exc:
        return f"bad table options: {exc}"
    n = opts.players
    if not (len(st.seat_keys) == len(st.names) == len(st.ai_levels) == n):
        return f"match-start must list {n} seats"
    if not 0 <= st.first_dealer < n:
        return "first dealer is not a seat"
    return None


def drawn_seats_problem(st: MatchStart, ds: DrawStart, r: DrawResult | None) -> str | None:
    """Why a match-start does not seat the players and the first dealer as the draw did."""
    if r is None:
        return "match-start before the draw's result"
    if st.host_key != ds.host_key or st.players != ds.players:
        return "match-start does not match the draw-start"
    for lobby, seat in enumerate(r.seating):
        if st.seat_keys[seat] != ds.seat_keys[lobby] or st.names[seat] != ds.names[lobby]:
            return f"the player drawn to seat {seat} is not the one seated there"
    if st.first_dealer != r.dealer:
        return f"the draw makes seat {r.dealer} the first dealer"
    return None


__all__ = [
    "AI_LEVELS",
    "drawn_seats_problem",
    "match_start_problem",
    "options_of",
    "options_problem",
]
