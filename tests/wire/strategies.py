"""Hypothesis strategies that build any protocol message from its field annotations."""

from __future__ import annotations

import dataclasses
import types
import typing
from typing import Any

from hypothesis import strategies as st

from briscola_lan.rules import TableOptions, all_variants
from briscola_lan.wire import MESSAGE_TYPES

_SCALARS: dict[Any, st.SearchStrategy[Any]] = {
    int: st.integers(min_value=-(2**31) + 1, max_value=2**31 - 1),
    bool: st.booleans(),
    str: st.text(max_size=40),
    bytes: st.binary(max_size=80),
    TableOptions: st.sampled_from(all_variants()),
}


def for_type(tp: Any) -> st.SearchStrategy[Any]:
    if tp in _SCALARS:
        return _SCALARS[tp]
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = typing.get_type_hints(tp)
        return st.builds(tp, **{f.name: for_type(hints[f.name]) for f in dataclasses.fields(tp)})
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        return st.one_of(*(st.none() if a is type(None) else for_type(a) for a in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return st.lists(for_type(args[0]), max_size=5).map(tuple)
    if origin is tuple:
        return st.tuples(*(for_type(a) for a in args))
    raise TypeError(tp)


messages = st.one_of(*(for_type(cls) for cls in MESSAGE_TYPES.values()))
