"""``Outgoing``'s faster ``__init__`` makes the object its frozen dataclass's own makes: the
same fields, defaults, equality, hash, ``replace``, and it stays frozen."""

from __future__ import annotations

import dataclasses

import pytest

from briscola_lan.table.deal import Outgoing
from briscola_lan.wire.messages import Error, TakeSeat


@dataclasses.dataclass(frozen=True, slots=True)
class _Reference:  # the class as dataclasses makes it, its own __init__ kept
    conn: int
    message: object
    close: bool = False


def test_outgoing_is_made_as_its_dataclass_makes_it() -> None:
    message = TakeSeat(1)
    cases = [((3, message), {}), ((3, message, True), {}), ((), {"conn": 4, "message": message})]
    for args, kwargs in cases:
        out, ref = Outgoing(*args, **kwargs), _Reference(*args, **kwargs)  # type: ignore[arg-type]
        assert dataclasses.astuple(out) == dataclasses.astuple(ref)
        assert out == Outgoing(out.conn, out.message, out.close)
        assert hash(out) == hash(Outgoing(out.conn, out.message, out.close))
    out = Outgoing(2, message)
    assert dataclasses.replace(out, message=Error("x", "y")).message == Error("x", "y")
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.conn = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        Outgoing(1)  # type: ignore[call-arg]
