"""Regenerate protocol/vectors/codec.json from fixed example messages (run from the repo root)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import msgpack

from briscola_lan.rules import TableOptions
from briscola_lan.wire import SeatInfo, encode_frame
from briscola_lan.wire import messages as m


def _json(obj: Any) -> Any:
    if isinstance(obj, bytes):
        return {"hex": obj.hex()}
    if isinstance(obj, dict):
        return {k: _json(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_json(v) for v in obj]
    return obj


EXAMPLES: list[m.Message] = [
    m.Hello(2, "Anna", bytes(range(32)), None, b"\x11" * 64),
    m.Hello(2, "Bruno", bytes(32), "tok-123", bytes(64)),
    m.TakeSeat(2),
    m.LeaveSeat(),
    m.SetReady(True),
    m.SetAiSeat(3, "strong"),
    m.StartMatch(),
    m.CommitSeed(b"\x01\x02", bytes(64)),
    m.PlayCard(b"body", b"\xff" * 64),
    m.Challenge(bytes(range(32, 64)), b"\xaa" * 32),
    m.Welcome(
        2,
        "Tavolo",
        TableOptions.make(players=2),
        b"\xaa" * 32,
        (
            SeatInfo(0, True, "Anna", b"\x01" * 32, None, True, True),
            SeatInfo(1, False, "", b"", None, False, False),
        ),
        0,
        "r0",
        False,
        True,
    ),
    m.DrawStarted(b"draw-start body", b"\x07" * 64),
    m.Error("not_your_turn", "it is seat 1's turn"),
    m.SeedsCommitted(((b"a", b"b"), (b"c", b"d"))),
    m.CardPlayed(b"play", b"s" * 64, 7, b"\x00" * 32),
    m.TrickTaken(1, 21),
    m.MatchEnded(0, (2, 1), (130, 110), False),
    m.PlayerConnection(3, False),
    m.Notice("not_saving", "cannot save the game: disk full (/srv/state/table.state)"),
    m.Ping(1),
    m.Pong(1),
    m.Ping(2**31 - 1),
]


def main() -> None:
    vectors = []
    for msg in EXAMPLES:
        frame = encode_frame(msg)
        vectors.append(
            {
                "name": type(msg).__name__,
                "fields": _json(msgpack.unpackb(frame[4:])),
                "frame_hex": frame.hex(),
            }
        )
    out = {
        "description": "Message <-> exact frame bytes (4-byte big-endian length + msgpack map). "
        "Binary fields are written {\"hex\": ...} in 'fields'.",
        "vectors": vectors,
    }
    path = Path(__file__).with_name("codec.json")
    path.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
