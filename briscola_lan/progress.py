"""A progress bar with the time left, for long commands (``arena``, ``simulate``), on stderr.

prompt_toolkit's ``ProgressBar`` draws it; it is shown only when stderr is a terminal (so a
pipe or a ``--json`` reader gets clean output) and can be turned off with ``--no-progress``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

_T = TypeVar("_T")


def wanted(disabled: bool = False) -> bool:
    """Whether to draw a bar: stderr is a terminal and the user did not turn it off."""
    return not disabled and sys.stderr.isatty()


def progress(
    items: Iterable[_T], total: int, label: str, *, title: str = "", enabled: bool = True
) -> Iterator[_T]:
    """Yield ``items``; while they come, a bar on stderr: done/total, the time elapsed and an
    estimate of the time left."""
    if not enabled:
        yield from items
        return
    from prompt_toolkit.output import create_output
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import formatters as f

    bar_formatters = [
        f.Label(), f.Text(" "), f.Percentage(), f.Text(" "), f.Bar(sym_a="#", sym_b="#", sym_c="."),
        f.Text(" "), f.Progress(), f.Text("  elapsed "), f.TimeElapsed(), f.Text("  left "),
        f.TimeLeft(),
    ]  # fmt: skip
    output = create_output(stdout=sys.stderr)
    with ProgressBar(title=title or None, formatters=bar_formatters, output=output) as bar:
        yield from bar(items, total=total, label=label)
