"""Each message class's generated encoder (``codec.encode_message``) makes the bytes of the
reference, field by field (``codec.encode_fields``), for any message of every type."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola_lan.wire import MESSAGE_TYPES
from briscola_lan.wire.codec import encode_fields, encode_frame, encode_message, frame_of
from tests.wire.strategies import for_type


@pytest.mark.parametrize("name", sorted(MESSAGE_TYPES))
@settings(max_examples=25)
@given(data=st.data())
def test_the_fast_encoder_makes_the_reference_bytes(name: str, data: st.DataObject) -> None:
    msg = data.draw(for_type(MESSAGE_TYPES[name]))
    body = encode_fields(msg)
    assert encode_message(msg) == body
    assert encode_frame(msg) == frame_of(body)
