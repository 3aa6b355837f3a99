"""The codec: round trips, framing, limits on untrusted input, and the published byte vectors."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola_lan.rules import TableOptions
from briscola_lan.wire import (
    MAX_FRAME,
    FrameDecoder,
    FrameError,
    MessageError,
    decode_message,
    encode_frame,
    encode_message,
)
from briscola_lan.wire.codec import CodecError, message_from_obj
from briscola_lan.wire.messages import (
    MESSAGE_TYPES,
    Error,
    Hello,
    PlayCard,
    SeatsChanged,
    TakeSeat,
)
from tests.wire.strategies import messages

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "codec.json"


@settings(max_examples=300, deadline=None)
@given(messages)
def test_decode_encode_round_trip(msg: object) -> None:
    assert decode_message(encode_message(msg)) == msg  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(st.lists(messages, min_size=1, max_size=6), st.integers(min_value=1, max_value=50))
def test_frames_survive_any_split(msgs: list[object], chunk: int) -> None:
    stream = b"".join(encode_frame(m) for m in msgs)  # type: ignore[arg-type]
    dec = FrameDecoder()
    out = []
    for i in range(0, len(stream), chunk):
        out.extend(dec.feed(stream[i : i + chunk]))
    assert out == msgs
    assert dec.buffered == 0


def test_frame_is_length_prefixed_single_bytes_object() -> None:
    frame = encode_frame(TakeSeat(1))
    assert isinstance(frame, bytes)
    assert struct.unpack(">I", frame[:4])[0] == len(frame) - 4
    assert msgpack.unpackb(frame[4:]) == {"type": "take_seat", "seat": 1}


@pytest.mark.parametrize("length", [0, MAX_FRAME + 1, 2**32 - 1])
def test_bad_frame_length_breaks_the_stream(length: int) -> None:
    dec = FrameDecoder()
    with pytest.raises(FrameError):
        dec.feed(struct.pack(">I", length) + b"\x80")
    with pytest.raises(FrameError):  # a broken decoder stays broken
        dec.feed(encode_frame(TakeSeat(0)))


@pytest.mark.parametrize(
    "body",
    [
        b"\xc1",  # never-used byte
        b"\x92\x01",  # truncated array
        b"\x81\xa4type\xa9take_sea",  # truncated string
        b"\x01\x02",  # trailing data
        b"\xd4\x01\x00",  # ext type
        b"\xd6\xff\x00\x00\x00\x00",  # timestamp ext
        b"\x81\x01\x02",  # integer map key
        b"\xa2\xff\xfe",  # invalid utf-8
        b"\x91" * 3000 + b"\x00",  # very deep nesting
    ],
)
def test_garbage_is_a_frame_error(body: bytes) -> None:
    with pytest.raises(FrameError):
        decode_message(body)
    with pytest.raises(FrameError):
        FrameDecoder().feed(struct.pack(">I", len(body)) + body)


@pytest.mark.parametrize(
    "obj",
    [
        [1, 2],
        {"seat": 1},
        {"type": "no_such_thing"},
        {"type": "take_seat"},
        {"type": "take_seat", "seat": "1"},
        {"type": "take_seat", "seat": True},
        {"type": "take_seat", "seat": 2**40},
        {"type": "take_seat", "seat": 1, "extra": 0},
        {"type": "hello", "version": 1, "name": "x" * 300, "public_key": b""},
        {"type": "hello", "version": 1, "name": "x", "public_key": "not bytes"},
        {"type": "seeds_committed", "records": [[b"a"]]},
        {"type": "seeds_committed", "records": [[b"a", b"b"]] * 65},
        {
            "type": "welcome",
            "version": 1,
            "table_name": "t",
            "options": {"players": 5},
            "host_key": b"",
            "seats": [],
            "seat": None,
            "resume_token": None,
        },
    ],
)
def test_invalid_message_is_a_message_error(obj: object) -> None:
    body = msgpack.packb(obj, use_bin_type=True)
    with pytest.raises(MessageError):
        decode_message(body)


def test_message_error_keeps_the_stream_and_earlier_messages() -> None:
    bad = msgpack.packb({"type": "take_seat", "seat": "x"})
    stream = (
        encode_frame(TakeSeat(1)) + struct.pack(">I", len(bad)) + bad + encode_frame(TakeSeat(2))
    )
    dec = FrameDecoder()
    with pytest.raises(MessageError):
        dec.feed(stream)
    assert dec.feed(b"") == [TakeSeat(1), TakeSeat(2)]


def test_oversized_message_refused_on_encode() -> None:
    with pytest.raises(MessageError):
        encode_frame(Error("x", "y" * (MAX_FRAME + 10)))


def test_defaults_may_be_omitted() -> None:
    msg = message_from_obj({"type": "hello", "version": 1, "name": "a", "public_key": b"k"})
    assert msg == Hello(1, "a", b"k", None)


def _vectors() -> list[dict[str, object]]:
    data = json.loads(VECTORS.read_text())
    assert data["vectors"], "no codec vectors"
    return list(data["vectors"])


def check_codec_vector(vec: dict[str, object]) -> None:
    """Both ways: the frame decodes to the message of 'fields', which encodes to the frame."""
    frame = bytes.fromhex(str(vec["frame_hex"]))
    fields = _from_json(vec["fields"])
    assert isinstance(fields, dict)
    value = message_from_obj(fields)  # the message the vector describes
    assert type(value).__name__ == vec["name"]
    (decoded,) = FrameDecoder().feed(frame)
    assert decoded == value
    assert encode_frame(value) == frame
    unpacked = msgpack.unpackb(frame[4:])
    assert unpacked == fields
    assert list(unpacked) == list(fields)  # the keys in the frame's order


@pytest.mark.parametrize("vec", _vectors(), ids=lambda v: str(v["name"]))
def test_codec_vectors(vec: dict[str, object]) -> None:
    check_codec_vector(vec)


def test_codec_vectors_cover_every_message_type() -> None:
    covered = {v["fields"]["type"] for v in _vectors()}  # type: ignore[index]
    assert covered == set(MESSAGE_TYPES)


def _edits(vec: dict[str, object]) -> list[dict[str, object]]:
    """Copies of a vector with one thing changed: its frame, a field, or the key order."""
    frame = str(vec["frame_hex"])
    fields = dict(vec["fields"])  # type: ignore[call-overload]
    out: list[dict[str, object]] = [
        {**vec, "frame_hex": frame[:-2] + f"{int(frame[-2:], 16) ^ 1:02x}"}
    ]
    last = list(fields)[-1]
    out.append({**vec, "fields": {**fields, last: _changed(fields[last])}})
    if len(fields) > 2:
        out.append({**vec, "fields": dict(reversed(list(fields.items())))})
    return out


def _changed(value: Any) -> Any:
    """Another value of the same JSON shape."""
    if isinstance(value, dict):  # {"hex": ...}
        return {"hex": "00" + value["hex"]}
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, str):
        return value + "x"
    if isinstance(value, list) and value:
        return [*value, value[0]]
    return [0]


@pytest.mark.parametrize("vec", _vectors(), ids=lambda v: str(v["name"]))
def test_an_edited_codec_vector_fails(vec: dict[str, object]) -> None:
    for edited in _edits(vec):
        with pytest.raises((AssertionError, CodecError)):
            check_codec_vector(edited)


def _from_json(obj: object) -> object:
    """Vector files write binary fields as {"hex": "..."}."""
    if isinstance(obj, dict):
        if set(obj) == {"hex"}:
            return bytes.fromhex(obj["hex"])
        return {k: _from_json(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_from_json(v) for v in obj]
    return obj


def test_seat_list_and_options_round_trip() -> None:
    from briscola_lan.wire import SeatInfo

    seats = tuple(SeatInfo(i, i % 2 == 0, f"p{i}", bytes(32), None, True, False) for i in range(4))
    msg = SeatsChanged(seats, "p0 took seat 0")
    assert decode_message(encode_message(msg)) == msg
    assert TableOptions.make(players=4).to_dict()["players"] == 4
    assert decode_message(encode_message(PlayCard(b"x", b"y"))) == PlayCard(b"x", b"y")


def test_table_options_of_five_players_cross_the_wire() -> None:
    """A five-player table (Briscola chiamata) is announced with its own options, each kept."""
    from briscola_lan.wire.messages import Welcome

    opts = TableOptions.make(
        players=5, match_format="total", points_to_win=71, double_all=False, match_hands=3
    )
    five = Welcome(3, "Kitchen", opts, bytes(32), (), None, None)
    assert decode_message(encode_message(five)) == five
    assert opts.to_dict() == {
        "players": 5,
        "match_format": "total",
        "hands_to_win": 2,
        "partner_exchange": True,
        "removed_two": 0,
        "points_to_win": 71,
        "double_all": False,
        "match_hands": 3,
    }
