"""Table options: checked when built, options without effect at their default, as read."""

from __future__ import annotations

import re
from typing import Any

import pytest

from briscola_lan.rules import MatchFormat, OptionsError, Suit, TableOptions, all_variants


def test_side_text_names_the_winners() -> None:
    """How every front end names a side: one player, or a partnership with its seats."""
    names = ["Ann", "Bea", "Cid", "Dan"]
    assert TableOptions.make(players=2).side_text(1, names[:2]) == "Bea (seat 1)"
    assert TableOptions.make(players=3, match_format="points").side_text(2, names) == "Cid (seat 2)"
    four = TableOptions.make(players=4)
    assert four.side_text(0, names) == "side A (Ann + Cid, seats 0+2)"
    assert four.side_text(1, names[:2]) == "side B (Bea + seat 3, seats 1+3)"


@pytest.mark.parametrize(
    ("kwargs", "reason"),
    [
        ({"players": 7}, "2, 3, 4 or 5 players, not 7"),
        ({"players": 1}, "2, 3, 4 or 5 players, not 1"),
        ({"players": 5}, "5 players (Briscola chiamata) play the 'total' format"),
        ({"players": 4, "match_format": "total"}, "play the 'total' format, and only they"),
        ({"players": 5, "match_format": "total", "points_to_win": 60}, "61 to 120, not 60"),
        ({"players": 5, "match_format": "total", "points_to_win": 121}, "61 to 120, not 121"),
        ({"players": 5, "match_format": "total", "match_hands": 0}, "1 to 20, not 0"),
        ({"players": 5, "match_format": "total", "match_hands": 21}, "1 to 20, not 21"),
        ({"players": 5, "match_format": "total", "double_all": 2}, "on or off, not 2"),
        ({"players": 3}, "3 players play the 'points'"),
        ({"hands_to_win": 0}, "1 to 5, not 0"),
        ({"hands_to_win": 6}, "1 to 5, not 6"),
        ({"match_format": "points", "hands_to_win": 9}, "1 to 5, not 9"),  # fairness.md §8.2
        ({"match_format": "best-of"}, "unknown match format 'best-of'"),
        ({"removed_two": 4}, "a suit 0..3, not 4"),
        ({"players": 4, "partner_exchange": 2}, "on or off, not 2"),
    ],
)
def test_options_are_checked_when_built(kwargs: dict[str, Any], reason: str) -> None:
    """Not only ``make``: the plain constructor refuses options of no real game."""
    with pytest.raises(OptionsError, match=re.escape(reason)):
        TableOptions(**kwargs)
    with pytest.raises(OptionsError, match=re.escape(reason)):
        TableOptions.make(**kwargs)


def test_from_dict_refuses_what_the_constructor_refuses() -> None:
    with pytest.raises(OptionsError, match="2, 3, 4 or 5 players"):
        TableOptions.from_dict({"players": 7, "match_format": "hands"})
    with pytest.raises(OptionsError, match="61 to 120"):
        TableOptions.from_dict({"players": 5, "match_format": "total", "points_to_win": "61"})
    with pytest.raises(OptionsError, match="double_all must be true or false"):
        TableOptions.from_dict({"players": 5, "match_format": "total", "double_all": 0})
    with pytest.raises(OptionsError, match="3 players play the 'points'"):
        TableOptions.from_dict({"players": 3, "match_format": "hands"})


def test_options_without_effect_take_their_default() -> None:
    """Options that change nothing at a table do not make the same rules compare unequal."""
    assert TableOptions.make(players=2, match_format="points", hands_to_win=5) == (
        TableOptions.make(players=2, match_format="points")
    )
    assert TableOptions.make(players=3, match_format="points", hands_to_win=1).hands_to_win == 2
    for players in (2, 4):
        two = TableOptions.make(players=players, removed_two=Suit.SWORDS)
        assert two == TableOptions.make(players=players)
        assert two.removed_two is Suit.COINS
    for players, fmt in ((2, "hands"), (3, "points")):
        off = TableOptions.make(players=players, match_format=fmt, partner_exchange=False)
        assert off == TableOptions.make(players=players, match_format=fmt)
        assert off.partner_exchange is True
    # ... while options that do change the game are kept, and keep tables apart.
    assert TableOptions.make(players=4, partner_exchange=False).partner_exchange is False
    assert TableOptions.make(players=2, hands_to_win=5).hands_to_win == 5
    three = TableOptions.make(players=3, match_format="points", removed_two=Suit.CLUBS)
    assert three.removed_two is Suit.CLUBS
    assert three != TableOptions.make(players=3, match_format="points")
    # The wire form follows: what the host signs for a table is one value per game.
    assert TableOptions.make(players=2, removed_two=3, partner_exchange=False).to_dict() == {
        "players": 2,
        "match_format": "hands",
        "hands_to_win": 2,
        "partner_exchange": True,
        "removed_two": 0,
    }


def test_defaults_and_every_variant_keep_their_wire_values() -> None:
    """The options every table sends today: unchanged by the normalising."""
    assert TableOptions().to_dict() == {
        "players": 2,
        "match_format": "hands",
        "hands_to_win": 2,
        "partner_exchange": True,
        "removed_two": 0,
    }
    for opts in all_variants():
        d = opts.to_dict()
        again = TableOptions.make(
            players=d["players"],
            match_format=d["match_format"],
            hands_to_win=d["hands_to_win"],
            partner_exchange=d["partner_exchange"],
            removed_two=d["removed_two"],
            signals=d.get("signals", False),  # written only when on
            points_to_win=d.get("points_to_win", 61),  # written only away from the default
            double_all=d.get("double_all", True),
            match_hands=d.get("match_hands", 5),
        )
        assert again == opts and again.to_dict() == d
        assert ("signals" in d) is opts.signals
        assert ("double_all" in d) is (not opts.double_all)


def test_plain_names_and_numbers_are_read_for_the_enum_fields() -> None:
    opts = TableOptions.make(players=3, match_format="points", removed_two=1)
    assert opts.match_format is MatchFormat.POINTS
    assert opts.removed_two is Suit.CUPS
