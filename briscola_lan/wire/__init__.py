"""Protocol messages and the one msgpack codec with framing (pure: no sockets)."""

from __future__ import annotations

from briscola_lan.wire.codec import (
    MAX_FRAME,
    CodecError,
    FrameDecoder,
    FrameError,
    MessageError,
    decode_message,
    encode_frame,
    encode_message,
)
from briscola_lan.wire.messages import (
    CLIENT_MESSAGES,
    MESSAGE_TYPES,
    PROTOCOL_VERSION,
    TYPE_NAMES,
    ErrorCode,
    Message,
    Record,
    SeatInfo,
)

__all__ = [
    "CLIENT_MESSAGES",
    "MAX_FRAME",
    "MESSAGE_TYPES",
    "PROTOCOL_VERSION",
    "TYPE_NAMES",
    "CodecError",
    "ErrorCode",
    "FrameDecoder",
    "FrameError",
    "Message",
    "MessageError",
    "Record",
    "SeatInfo",
    "decode_message",
    "encode_frame",
    "encode_message",
]
