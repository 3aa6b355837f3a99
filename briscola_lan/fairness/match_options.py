"""The table options match-start has no field for, as the ``match-options`` record writes them
(``name=value`` texts, sorted by name; protocol/fairness.md §12.1): written by the host, read by
the verifier and every client.
"""

from __future__ import annotations

import dataclasses

from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import TableOptions

# name -> (the option's field in TableOptions, its text when set). A flag is written by that
# text when it is not at its default; a number ("" here) by its decimal digits. An option left at
# its default is not written, so a match that uses none has no match-options record at all.
_KNOWN = {
    "double_all": ("double_all", "off"),  # 5 players: no double score for all 120 points
    "match_hands": ("match_hands", ""),  # 5 players: hands in the match
    "points_to_win": ("points_to_win", ""),  # 5 players: what a rank bid needs
    "signals": ("signals", "allowed"),
}
_DEFAULTS = TableOptions()


def texts(options: TableOptions) -> tuple[str, ...]:
    """The match-options texts of ``options`` (empty: no record)."""
    out = []
    for name, (attr, on) in sorted(_KNOWN.items()):
        value = getattr(options, attr)
        if value == getattr(_DEFAULTS, attr):
            continue
        out.append(f"{name}={on or value}")
    return tuple(out)


def apply(options: TableOptions, items: tuple[str, ...]) -> TableOptions:
    """``options`` (from match-start) with a match-options record's texts; ValueError, with the
    reason, for a record that is not valid (empty, unsorted, repeated, unknown, or an option the
    table cannot have)."""
    if not items:
        raise ValueError("an empty match-options record (it is left out when nothing is set)")
    names = []
    changes: dict[str, object] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or name not in _KNOWN:
            raise ValueError(f"unknown table option {item!r}")
        attr, on = _KNOWN[name]
        if not on:  # a number, in decimal digits without a leading zero
            if not value.isdecimal() or not value.isascii() or str(int(value)) != value:
                raise ValueError(f"table option {name} takes a number, not {value!r}")
            changes[attr] = int(value)
        elif value != on:
            raise ValueError(f"table option {name} takes the value {on!r}, not {value!r}")
        else:
            changes[attr] = not getattr(_DEFAULTS, attr)
        names.append(name)
    if names != sorted(set(names)):
        raise ValueError("match-options texts must be sorted by name, each once")
    try:
        new = dataclasses.replace(options, **changes)  # type: ignore[arg-type]
    except OptionsError as exc:
        raise ValueError(str(exc)) from None
    if texts(new) != items:  # e.g. signals at a table of 2: normalized away
        raise ValueError(f"{', '.join(items)} is not an option of a {options.players}-player table")
    return new


__all__ = ["apply", "texts"]
