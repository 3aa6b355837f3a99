"""The one msgpack codec: length-prefixed frames, strict limits on untrusted input, typed messages.

A frame is a 4-byte big-endian length then one msgpack map whose ``"type"`` key names the message
(``messages.MESSAGE_TYPES``); the other keys are the dataclass fields. ``FrameError`` means the byte
stream is broken (drop the connection); ``MessageError`` means one well-framed message is invalid
(answer with an ``Error`` and keep the connection).
"""

from __future__ import annotations

import dataclasses
import operator
import struct
import threading
import types
import typing
from collections.abc import Callable
from typing import Any

import msgpack

from briscola_lan.rules.errors import OptionsError
from briscola_lan.rules.options import TableOptions
from briscola_lan.wire.messages import MESSAGE_TYPES, TYPE_NAMES, Message, SeatInfo

MAX_FRAME = 64 * 1024  # bytes of msgpack after the length prefix
MAX_STR = 256  # characters in any text field
MAX_BYTES = 16 * 1024  # bytes in any binary field
MAX_ITEMS = 64  # items in any list
MAX_INT = 2**31 - 1
_HEADER = struct.Struct(">I")


class CodecError(Exception):
    """Base of the codec's errors."""


class FrameError(CodecError):
    """The byte stream cannot be framed or parsed: the connection must be dropped."""


class MessageError(CodecError):
    """A well-framed message that is not a valid protocol message: answer with an Error."""


# --- encoding ----------------------------------------------------------------------------------


def _to_wire(value: Any) -> Any:
    if isinstance(value, TableOptions):
        return value.to_dict()
    if isinstance(value, SeatInfo):
        return {
            name: v if type(v) in _PLAIN else _to_wire(v)
            for name, v in zip(_SEAT_INFO_NAMES, _seat_info_values(value), strict=True)
        }
    if isinstance(value, tuple):
        return [v if type(v) in _PLAIN else _to_wire(v) for v in value]
    return value


_PLAIN = (bytes, str, int, bool, type(None))  # msgpack takes these as they are
_FIELD_NAMES: dict[type, tuple[str, ...]] = {}
_SEAT_INFO_NAMES = tuple(f.name for f in dataclasses.fields(SeatInfo))
_seat_info_values = operator.attrgetter(*_SEAT_INFO_NAMES)
_packers = threading.local()


def _pack(obj: Any) -> bytes:
    """``msgpack.packb(obj, use_bin_type=True)`` with a packer kept for this thread (making one
    costs as much as packing a message; a packer empties itself after each ``pack``)."""
    try:
        packer = _packers.packer
    except AttributeError:
        packer = _packers.packer = msgpack.Packer(use_bin_type=True)
    return bytes(packer.pack(obj))


def encode_message(msg: Message) -> bytes:
    """The msgpack body of one message (no length prefix)."""
    encode = _ENCODERS.get(type(msg))
    if encode is None:
        encode = _ENCODERS[type(msg)] = _fast_encoder(type(msg))
    return encode(msg)


def encode_fields(msg: Message) -> bytes:
    """The msgpack body of one message, field by field: the reference of ``encode_message``,
    whose path generated for each class (``_fast_encoder``) makes the same bytes."""
    cls = type(msg)
    names = _FIELD_NAMES.get(cls)
    if names is None:
        names = _FIELD_NAMES[cls] = tuple(f.name for f in dataclasses.fields(msg))
    body: dict[str, Any] = {"type": TYPE_NAMES[cls]}
    for name in names:
        value = getattr(msg, name)
        body[name] = value if type(value) in _PLAIN else _to_wire(value)
    return _pack(body)


def _fast_encoder(cls: type[Message]) -> Callable[[Message], bytes]:
    """``encode_fields`` for ``cls`` with its fields unrolled: the same map, in the same order,
    packed the same way."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    env: dict[str, Any] = {"TYPE": TYPE_NAMES[cls], "PLAIN": _PLAIN, "wire": _to_wire}
    env["pack"] = _pack
    lines = [f"    v{i} = msg.{name}\n" for i, name in enumerate(names)]
    items = ['"type": TYPE'] + [
        f"{name!r}: v{i} if type(v{i}) in PLAIN else wire(v{i})" for i, name in enumerate(names)
    ]
    src = "def encode(msg):\n" + "".join(lines) + f"    return pack({{{', '.join(items)}}})\n"
    exec(src, env)  # the source is made above from the class's fields, as dataclasses does
    encode: Callable[[Message], bytes] = env["encode"]
    return encode


_ENCODERS: dict[type, Callable[[Message], bytes]] = {}


def encode_frame(msg: Message) -> bytes:
    """One frame as ONE bytes object: the transport must write it with a single write."""
    body = encode_message(msg)
    if len(body) > MAX_FRAME:
        raise MessageError(f"message of {len(body)} bytes is over the {MAX_FRAME}-byte limit")
    return _HEADER.pack(len(body)) + body


def frame_of(body: bytes) -> bytes:
    """The frame of a message body ``encode_message`` made (its length prefix and the body)."""
    if len(body) > MAX_FRAME:
        raise MessageError(f"message of {len(body)} bytes is over the {MAX_FRAME}-byte limit")
    return _HEADER.pack(len(body)) + body


# --- decoding ----------------------------------------------------------------------------------

Converter = Callable[[Any, str], Any]


def _bad(where: str, want: str, got: Any) -> MessageError:
    return MessageError(f"field {where}: expected {want}, got {type(got).__name__}")


def _conv_int(v: Any, where: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool):
        raise _bad(where, "an integer", v)
    if not -MAX_INT <= v <= MAX_INT:
        raise MessageError(f"field {where}: integer {v} out of range")
    return v


def _conv_bool(v: Any, where: str) -> bool:
    if not isinstance(v, bool):
        raise _bad(where, "a boolean", v)
    return v


def _conv_str(v: Any, where: str) -> str:
    if not isinstance(v, str):
        raise _bad(where, "a string", v)
    if len(v) > MAX_STR:
        raise MessageError(f"field {where}: text longer than {MAX_STR} characters")
    return v


def _conv_bytes(v: Any, where: str) -> bytes:
    if not isinstance(v, bytes):
        raise _bad(where, "binary data", v)
    if len(v) > MAX_BYTES:
        raise MessageError(f"field {where}: more than {MAX_BYTES} bytes")
    return v


def _conv_options(v: Any, where: str) -> TableOptions:
    if not isinstance(v, dict):
        raise _bad(where, "a map of table options", v)
    try:
        options = TableOptions.from_dict(v)
    except (OptionsError, TypeError, ValueError) as exc:
        raise MessageError(f"field {where}: {exc}") from exc
    return options


_SCALARS: dict[Any, Converter] = {
    int: _conv_int,
    bool: _conv_bool,
    str: _conv_str,
    bytes: _conv_bytes,
    TableOptions: _conv_options,
}


def _converter(tp: Any) -> Converter:
    """Build a validating converter from a field's resolved type annotation."""
    if tp in _SCALARS:
        return _SCALARS[tp]
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        return _dataclass_converter(tp)
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        inner = _converter(next(a for a in args if a is not type(None)))

        def opt(v: Any, where: str) -> Any:
            return None if v is None else inner(v, where)

        return opt
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        item = _converter(args[0])

        def var_tuple(v: Any, where: str) -> tuple[Any, ...]:
            if not isinstance(v, list | tuple):
                raise _bad(where, "a list", v)
            if len(v) > MAX_ITEMS:
                raise MessageError(f"field {where}: more than {MAX_ITEMS} items")
            return tuple(item(x, f"{where}[{i}]") for i, x in enumerate(v))

        return var_tuple
    if origin is tuple:
        items = [_converter(a) for a in args]

        def fixed_tuple(v: Any, where: str) -> tuple[Any, ...]:
            if not isinstance(v, list | tuple) or len(v) != len(items):
                raise MessageError(f"field {where}: expected a list of {len(items)} items")
            pairs = enumerate(zip(items, v, strict=True))
            return tuple(c(x, f"{where}[{i}]") for i, (c, x) in pairs)

        return fixed_tuple
    raise TypeError(f"no wire converter for {tp!r}")  # a programming error, found at import


def _dataclass_converter(cls: type, ignore: frozenset[str] = frozenset()) -> Converter:
    """A converter from a map to ``cls``; keys in ``ignore`` (a message's "type") are skipped."""
    hints = typing.get_type_hints(cls)
    fields = [(f.name, _converter(hints[f.name]), f) for f in dataclasses.fields(cls)]
    required = frozenset(
        f.name
        for _, _, f in fields
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
    )
    names = frozenset(name for name, _, _ in fields) | ignore
    convs = [(name, c) for name, c, _ in fields]
    paths: dict[str, list[str]] = {}  # where -> "where.field" for every field (error texts)
    every = len(names)  # a map with this many keys, all known, has every field: the fast path

    def conv(v: Any, where: str) -> Any:
        if not isinstance(v, dict):
            raise _bad(where, "a map", v)
        if len(v) == every and names.issuperset(v):  # every field there, in the class's order
            at = paths.get(where)
            if at is not None:
                return cls(*[c(v[name], w) for (name, c), w in zip(convs, at, strict=True)])
        if not names.issuperset(v):
            unknown = set(v) - names
            raise MessageError(f"{where}: unknown field(s) {sorted(map(str, unknown))}")
        if not required.issubset(v):
            missing = required - set(v)
            raise MessageError(f"{where}: missing field(s) {sorted(missing)}")
        at = paths.get(where)
        if at is None:
            at = [f"{where}.{name}" for name, _ in convs]
            if len(paths) < 256:  # message names and a few list positions
                paths[where] = at
        kwargs = {name: c(v[name], w) for (name, c), w in zip(convs, at, strict=True) if name in v}
        return cls(**kwargs)

    return conv


_TYPE_KEY = frozenset({"type"})
_MESSAGE_CONVERTERS: dict[str, Converter] = {
    name: _dataclass_converter(cls, _TYPE_KEY) for name, cls in MESSAGE_TYPES.items()
}


def message_from_obj(obj: Any) -> Message:
    """Validate one unpacked msgpack object and build its message."""
    if not isinstance(obj, dict):
        raise MessageError("a message must be a map with a 'type' key")
    name = obj.get("type")
    if not isinstance(name, str) or name not in _MESSAGE_CONVERTERS:
        raise MessageError(f"unknown message type {name!r}")
    result: Message = _MESSAGE_CONVERTERS[name](obj, name)
    return result


def _unpack(body: bytes) -> Any:
    return msgpack.unpackb(
        body,
        raw=False,
        strict_map_key=True,
        max_ext_len=0,
        max_str_len=MAX_BYTES,
        max_bin_len=MAX_BYTES,
        max_array_len=MAX_ITEMS * 4,
        max_map_len=MAX_ITEMS,
    )


def decode_message(body: bytes) -> Message:
    """Decode one frame body. FrameError if it is not msgpack, MessageError if not a message."""
    try:
        obj = _unpack(body)
    except (msgpack.UnpackException, ValueError, TypeError) as exc:
        raise FrameError(f"unreadable message: {exc}") from exc
    return message_from_obj(obj)


class FrameDecoder:
    """Incremental decoder: feed bytes as they arrive, get back the complete messages.

    After a FrameError the decoder is broken for good: drop the connection. A MessageError is
    raised for the first invalid message; messages decoded before it in the same ``feed`` are
    kept in ``pending`` and returned by the next ``feed``.
    """

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buf = bytearray()
        self._broken: str | None = None
        self.pending: list[Message] = []

    def feed(self, data: bytes) -> list[Message]:
        if self._broken is not None:
            raise FrameError(f"decoder already failed: {self._broken}")
        out, self.pending = self.pending, []
        if not self._buf:  # the usual case: whole frames, read straight out of ``data``
            data = self._whole_frames(data, out)
        self._buf += data
        while len(self._buf) >= 4:
            (length,) = _HEADER.unpack_from(self._buf)
            if length == 0 or length > self.max_frame:
                self._broken = f"frame length {length} outside 1..{self.max_frame}"
                raise FrameError(self._broken)
            if len(self._buf) < 4 + length:
                break
            body = bytes(self._buf[4 : 4 + length])
            del self._buf[: 4 + length]
            try:
                out.append(decode_message(body))
            except FrameError as exc:
                self._broken = str(exc)
                raise
            except MessageError:
                self.pending = out
                raise
        return out

    def _whole_frames(self, data: bytes, out: list[Message]) -> bytes:
        """Decode the complete frames at the start of ``data`` into ``out``; the rest."""
        pos, end = 0, len(data)
        while end - pos >= 4:
            (length,) = _HEADER.unpack_from(data, pos)
            if length == 0 or length > self.max_frame or end - pos - 4 < length:
                break  # a bad length is reported by the buffered path, as before
            body = data[pos + 4 : pos + 4 + length]
            pos += 4 + length
            try:
                out.append(decode_message(body))
            except FrameError as exc:
                self._broken = str(exc)
                raise
            except MessageError:
                self._buf += data[pos:]
                self.pending = out
                raise
        return data[pos:] if pos else data

    @property
    def buffered(self) -> int:
        """Bytes received but not yet forming a complete frame."""
        return len(self._buf)


# --- local state files (the host's snapshot) --------------------------------------------------

MAX_STATE = 256 * 1024 * 1024  # bytes in a state file


class StateFileError(CodecError):
    """Bytes that are not a readable msgpack state file."""


def pack_state(obj: Any) -> bytes:
    """Encode a state tree of maps, lists or tuples, str, bytes, int, float, bool and None."""
    return _pack(obj)


def unpack_state(data: bytes) -> Any:
    """Decode a state file strictly: no ext types, string keys only, no trailing bytes."""
    if len(data) > MAX_STATE:
        raise StateFileError(f"state file of {len(data)} bytes is over the {MAX_STATE} limit")
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=True, max_ext_len=0, use_list=True)
    except (msgpack.UnpackException, ValueError, TypeError) as exc:
        raise StateFileError(f"not a msgpack state file: {exc}") from exc
