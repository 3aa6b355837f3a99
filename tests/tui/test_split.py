"""The splits the screens are built from share their space out exactly as prompt_toolkit's own."""

from __future__ import annotations

import random

import pytest
from prompt_toolkit.layout import containers
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.screen import WritePosition

from briscola_lan.tui import layout, split


class Fixed(containers.Container):
    """A child that asks for one dimension either way."""

    def __init__(self, d: Dimension) -> None:
        self.d = d

    def reset(self) -> None:
        pass

    def preferred_width(self, max_available_width: int) -> Dimension:
        return self.d

    def preferred_height(self, width: int, max_available_height: int) -> Dimension:
        return self.d

    def write_to_screen(self, *args: object, **kw: object) -> None:
        pass

    def get_children(self) -> list[containers.Container]:
        return []


def _children(rng: random.Random) -> list[containers.Container]:
    """Children of random sizes and weights; one without a weight has a fixed size (a weightless
    child that could grow would make prompt_toolkit's division go round for ever)."""
    out: list[containers.Container] = []
    for _ in range(rng.randint(1, 7)):
        low = rng.randint(0, 6)
        preferred = low + rng.choice((0, 0, 1, rng.randint(0, 40)))
        high = rng.choice((preferred, preferred + rng.randint(0, 60), 10**9))
        weight = rng.choice((1, 1, 1, 2, 3, 5))
        if rng.random() < 0.15:
            weight, preferred, high = 0, low, low
        out.append(Fixed(Dimension(min=low, preferred=preferred, max=high, weight=weight)))
    out.append(Fixed(Dimension(weight=rng.choice((1, 2)))))  # one that can always grow
    return out


@pytest.mark.parametrize("seed", range(8))
def test_columns_and_rows_are_shared_as_prompt_toolkit_shares_them(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(30):
        kids = _children(rng)
        rng.shuffle(kids)
        space = rng.randint(0, 120)
        want = containers.VSplit(kids)._divide_widths(space)
        assert split.VSplit(kids)._divide_widths(space) == want
        where = WritePosition(0, 0, width=80, height=space)
        want = containers.HSplit(kids)._divide_heights(where)
        assert split.HSplit(kids)._divide_heights(where) == want


def test_without_a_child_with_a_weight_it_refuses_as_prompt_toolkit_does() -> None:
    kids = [Fixed(Dimension(min=1, max=5, weight=0))]  # (two would have a padding between)
    with pytest.raises(ValueError):
        containers.VSplit(kids)._divide_widths(20)
    with pytest.raises(ValueError):
        split.VSplit(kids)._divide_widths(20)


def test_the_screens_are_built_from_these_splits() -> None:
    assert layout.HSplit is split.HSplit and layout.VSplit is split.VSplit
