"""prompt_toolkit's ``HSplit`` and ``VSplit`` with the same sizes found in time proportional to
their children, not to the rows and columns they share out.

prompt_toolkit gives a split's children their minimum sizes, then one row (or column) at a time
to each child in turn (``take_using_weights``: in proportion to their weights) until they reach
their preferred sizes or the space runs out, then on to their maximum sizes; a turn that falls to
a child already at its size gives nothing. A titled box is three splits, each with one child that
grows beside borders that do not, so a redraw at 80 columns takes some thousands of turns, each a
step of that generator and a sum of the sizes. ``divide`` makes the same turns in the same order
(the generator's own order, kept per set of weights) with a running total, and ``HSplit`` and
``VSplit`` here use it; ``tests/tui/test_split.py`` checks it against prompt_toolkit's own
division on random children.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from prompt_toolkit.application.current import get_app
from prompt_toolkit.layout import containers
from prompt_toolkit.layout.dimension import Dimension, sum_layout_dimensions
from prompt_toolkit.layout.screen import WritePosition
from prompt_toolkit.utils import take_using_weights


class _Turns:
    """The order ``take_using_weights`` gives the children of one set of weights their turns:
    as much of it as has been asked for, and the generator to make more."""

    def __init__(self, weights: tuple[int, ...]) -> None:
        self.seen: list[int] = []
        self._more: Iterator[int] = take_using_weights(list(range(len(weights))), list(weights))

    def at(self, n: int) -> int:
        seen = self.seen
        while len(seen) <= n:
            seen.append(next(self._more))
        return seen[n]


_TURNS: dict[tuple[int, ...], _Turns] = {}
_KEPT = 256  # sets of weights whose order is kept (a screen has a few)


def _turns(weights: tuple[int, ...]) -> _Turns:
    turns = _TURNS.get(weights)
    if turns is None:
        if len(_TURNS) >= _KEPT:
            _TURNS.clear()
        turns = _TURNS[weights] = _Turns(weights)
    return turns


def divide(dimensions: Sequence[Dimension], space: int, *, to_max: bool = True) -> list[int] | None:
    """The sizes prompt_toolkit gives children of these dimensions sharing ``space`` (None: not
    enough for their minimums); ``to_max`` False stops at their preferred sizes."""
    total = sum_layout_dimensions(list(dimensions))
    if total.min > space:
        return None
    sizes = [d.min for d in dimensions]
    turns = _turns(tuple(d.weight for d in dimensions))
    turns.at(0)  # as prompt_toolkit does: ValueError when no child has a weight
    seen = turns.seen
    n = 0  # the next turn: the second loop goes on where the first one stopped
    given = sum(sizes)
    steps = [(min(space, total.preferred), [d.preferred for d in dimensions])]
    if to_max:
        steps.append((min(space, total.max), [d.max for d in dimensions]))
    for stop, caps in steps:
        room = [i for i, d in enumerate(dimensions) if d.weight > 0 and sizes[i] < caps[i]]
        while given < stop:
            if not room:  # nothing can grow: prompt_toolkit would go round for ever
                return sizes
            i = seen[n] if n < len(seen) else turns.at(n)
            n += 1
            if sizes[i] < caps[i]:
                sizes[i] += 1
                given += 1
                if sizes[i] >= caps[i]:
                    room.remove(i)
    return sizes


class HSplit(containers.HSplit):
    """``prompt_toolkit``'s ``HSplit``, its rows shared out by ``divide``."""

    def _divide_heights(self, write_position: WritePosition) -> list[int] | None:
        if not self.children:
            return []
        width, height = write_position.width, write_position.height
        dimensions = [c.preferred_height(width, height) for c in self._all_children]
        return divide(dimensions, height, to_max=not get_app().is_done)


class VSplit(containers.VSplit):
    """``prompt_toolkit``'s ``VSplit``, its columns shared out by ``divide``."""

    def _divide_widths(self, width: int) -> list[int] | None:
        children = self._all_children
        if not children:
            return []
        return divide([c.preferred_width(width) for c in children], width)
