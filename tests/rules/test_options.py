"""Table options as people read them."""

from __future__ import annotations

from briscola_lan.rules import TableOptions


def test_side_text_names_the_winners() -> None:
    """How every front end names a side: one player, or a partnership with its seats."""
    names = ["Ann", "Bea", "Cid", "Dan"]
    assert TableOptions.make(players=2).side_text(1, names[:2]) == "Bea (seat 1)"
    assert TableOptions.make(players=3, match_format="points").side_text(2, names) == "Cid (seat 2)"
    four = TableOptions.make(players=4)
    assert four.side_text(0, names) == "side A (Ann + Cid, seats 0+2)"
    assert four.side_text(1, names[:2]) == "side B (Bea + seat 3, seats 1+3)"
