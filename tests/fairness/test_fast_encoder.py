"""Each statement class's generated encoder (``Statement.encode``) makes the bytes of the
reference, field by field (``Statement.encode_fields``), and refuses what it refuses: any value
of every kind of field, plain or not (an ``IntEnum``, a ``bool``, a ``bytearray``, a wrong
size, out of range)."""

from __future__ import annotations

import enum
import itertools
from dataclasses import fields
from typing import Any

import pytest

from briscola_lan.fairness.statements import KINDS, Opening, Statement, StatementError


class _Number(enum.IntEnum):
    SEVEN = 7


_VALUES: dict[str, list[Any]] = {
    "u32": [0, 7, 0xFFFFFFFF, True, _Number.SEVEN, -1, 1 << 32, "7"],
    "b16": [bytes(16), b"\x01" * 16, bytearray(16), b"short", b"x" * 32],
    "b32": [bytes(32), b"\x02" * 32, bytearray(32), b"x" * 31],
    "b64": [bytes(64), bytearray(64), b"x" * 63],
    "bin": [b"", b"body", bytearray(b"ba"), b"x" * 9000],
    "str": ["", "nome", "è"],
    "u32s": [(), (1, 2), (True,), (-1,)],
    "b32s": [(), (bytes(32),), (b"x",)],
    "strs": [(), ("a", "b")],
    "opening": [Opening(1, 2, bytes(32)), Opening(-1, 2, bytes(32))],
    "openings": [(), (Opening(3, 4, b"\x05" * 32),), (Opening(3, 4, b"x"),)],
}


def _outcome(encode: Any) -> tuple[str, Any]:
    try:
        return "bytes", encode()
    except (StatementError, ValueError, TypeError) as exc:
        return type(exc).__name__, str(exc)


@pytest.mark.parametrize("cls", sorted(KINDS.values(), key=lambda c: c.KIND), ids=lambda c: c.KIND)
def test_the_fast_encoder_is_the_reference(cls: type[Statement]) -> None:
    names = [f.name for f in fields(cls)]
    choices = [_VALUES[kind] for kind in cls.SCHEMA]
    # Every field takes each of its values once, the others a plain one, then a few mixes.
    plain = [c[0] for c in choices]
    cases = [list(plain)]
    for i, options in enumerate(choices):
        for value in options[1:]:
            case = list(plain)
            case[i] = value
            cases.append(case)
    cases += [list(c) for c in itertools.islice(itertools.product(*choices), 50)]
    for values in cases:
        st = cls(**dict(zip(names, values, strict=True)))
        assert _outcome(st.encode) == _outcome(st.encode_fields), (cls.KIND, values)
