"""Regenerate protocol/vectors/codec.json: one or more frames per message type (run from the root).

Statement carriers hold real statements (fairness.md §6) signed by fixed test keys, so that every
vector also matches protocol/messages.cddl (64-byte signatures, 32-byte keys and salts). Every
input is fixed: the output changes only when the protocol does. A message type in the code
without an example here stops the script.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack

from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY, card_commitment, seed_commitment
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import (
    PASS_BID,
    Abort,
    Ack,
    BidStatement,
    BlindEnd,
    BlindPlay,
    BlindStart,
    CallStatement,
    Complaint,
    Deal,
    DeckCommit,
    DrawReveal,
    DrawStart,
    Evidence,
    Exchange,
    HostCommit,
    HostReveal,
    MatchEnd,
    MatchOptions,
    MatchStart,
    Opening,
    Play,
    Present,
    Receipt,
    SeedCommit,
    SeedReveal,
    Show,
    Signal,
    Statement,
    Takeover,
    Upcard,
)
from briscola_lan.fairness.statements import decode as decode_statement
from briscola_lan.rules import TableOptions
from briscola_lan.wire import SeatInfo, encode_frame
from briscola_lan.wire import messages as m

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # blind_examples.py beside this script, however it is loaded
from blind_examples import play_hand  # noqa: E402


def fixed(label: str, n: int = 32) -> bytes:
    """Deterministic test bytes: SHA-256 of a label, repeated as needed."""
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(f"codec/{label}/{i}".encode()).digest()
        i += 1
    return out[:n]


HOST = Identity(fixed("host-key"))
SEATS = [Identity(fixed(f"seat-key/{i}")) for i in range(4)]
GAME = fixed("game-id", 16)
NAMES = ("Anna", "Bruno", "Carla", "Dario")
DECK = [(7 * p + 3) % 40 for p in range(40)]  # any permutation: these are format examples
SALTS = [fixed(f"salt/{p}") for p in range(40)]


def opening(position: int) -> Opening:
    return Opening(position, DECK[position], SALTS[position])


def signed(st: Statement, key: Identity = HOST) -> tuple[bytes, bytes]:
    body = st.encode()
    assert decode_statement(body) == st
    return body, key.sign(body)


def seed(hand: int, seat: int) -> bytes:
    return fixed(f"seed/{hand}/{seat}")


def commit(hand: int, seat: int) -> tuple[bytes, bytes]:
    c = seed_commitment(GAME, hand, seat, seed(hand, seat))
    return signed(SeedCommit(GAME, hand, seat, fixed("context/commit"), c), SEATS[seat])


def reveal(hand: int, seat: int) -> tuple[bytes, bytes]:
    return signed(
        SeedReveal(GAME, hand, seat, fixed("context/reveal"), seed(hand, seat)), SEATS[seat]
    )


def present(seat: int) -> tuple[bytes, bytes]:
    return signed(Present(GAME, 1, seat, fixed("context/present")), SEATS[seat])


def signal(seat: int, index: int) -> tuple[bytes, bytes]:
    """A seat's signal (fairness.md §12), sealed with a made-up value: its bytes are the point."""
    st = Signal(GAME, 0, seat, fixed(f"context/signal/{index}"), index, 0x5EA1ED + seat)
    return signed(st, SEATS[seat])


def ack(seat: int) -> tuple[bytes, bytes]:
    return signed(Ack(GAME, 0, seat, fixed("chain-hash")), SEATS[seat])


def _blind() -> dict[str, list[tuple[bytes, bytes]]]:
    """Blind statement kind -> signed examples, from one blind hand (seats 0 and 1)."""
    _hand, _parties, made = play_hand(TableOptions.make(players=2), GAME, (0, 1))
    out: dict[str, list[tuple[bytes, bytes]]] = {}
    for st in made:
        out.setdefault(st.KIND, []).append(signed(st, SEATS[st.seat]))  # type: ignore[attr-defined]
    return out


def bid(seat: int, index: int, code: int) -> tuple[bytes, bytes]:
    """A seat's signed bid (five players, fairness.md §13)."""
    return signed(
        BidStatement(GAME, 0, seat, fixed(f"context/bid/{index}"), index, code), SEATS[seat]
    )


def _statement_examples() -> dict[str, list[tuple[bytes, bytes]]]:
    """Wire name -> (body, sig) examples, for every message that carries one statement."""
    blind = _blind()
    lobby_keys = tuple(s.public_key for s in SEATS)
    draw_commit = seed_commitment(GAME, DRAW_HAND, HOST_PARTY, fixed("draw-host-seed"))
    bad_reveal = signed(
        SeedReveal(GAME, 0, 1, fixed("context/reveal"), fixed("not-the-committed-seed")), SEATS[1]
    )
    return {
        "commit_seed": [commit(0, 1), commit(DRAW_HAND, 3)],
        "reveal_seed": [reveal(0, 1)],
        "play_card": [signed(Play(GAME, 0, 1, fixed("context/play"), 0, DECK[3]), SEATS[1])],
        "make_bid": [bid(1, 0, 2), bid(2, 1, PASS_BID), bid(3, 2, 75)],
        "call_card": [signed(CallStatement(GAME, 0, 3, fixed("context/call"), 2), SEATS[3])],
        "bid_made": [bid(1, 0, 2), bid(2, 1, PASS_BID)],
        "card_called": [signed(CallStatement(GAME, 0, 3, fixed("context/call"), 2), SEATS[3])],
        "ack_hand": [ack(1)],
        "send_signal": [signal(1, 5)],
        "options_set": [signed(MatchOptions(GAME, ("signals=allowed",)))],
        "signal_made": [signal(1, 5), signal(3, 6)],
        "draw_started": [
            signed(DrawStart(GAME, 4, 1, 1, HOST.public_key, lobby_keys, NAMES, draw_commit))
        ],
        "draw_revealed": [
            signed(DrawReveal(GAME, fixed("draw-host-seed"), (27, 10, 17, 33), (0, 2, 1, 3), 2))
        ],
        "match_started": [
            signed(
                MatchStart(
                    GAME,
                    2,
                    "hands",
                    2,
                    1,
                    0,
                    HOST.public_key,
                    lobby_keys[:2],
                    NAMES[:2],
                    ("", ""),
                    0,
                    "Tavolo",
                )
            ),
            signed(
                MatchStart(
                    GAME,
                    3,
                    "points",
                    2,
                    0,
                    2,
                    HOST.public_key,
                    lobby_keys[:3],
                    ("Anna", "Bruno", "AI strong 2"),
                    ("", "", "strong"),
                    1,
                    "Osteria del Sole",
                )
            ),
        ],
        "hand_started": [
            signed(
                HostCommit(GAME, 0, 0, seed_commitment(GAME, 0, HOST_PARTY, fixed("host-seed")))
            ),
            signed(BlindStart(GAME, 0, 0, 10)),
            signed(BlindStart(GAME, 1, 3, 10)),
        ],
        "deck_committed": [
            signed(
                DeckCommit(
                    GAME,
                    0,
                    tuple(card_commitment(GAME, 0, p, DECK[p], SALTS[p]) for p in range(40)),
                )
            )
        ],
        "cards_dealt": [
            signed(Deal(GAME, 0, 1, (opening(1), opening(3), opening(5)))),
            signed(Deal(GAME, 0, 0, (opening(7),))),
        ],
        "upcard_turned": [signed(Upcard(GAME, 0, opening(6)))],
        "partner_shown": [signed(Exchange(GAME, 0, 0, 2, (opening(9), opening(14), opening(22))))],
        "seat_taken_over": [
            signed(Takeover(GAME, 0, 1, 1, 3)),
            signed(Takeover(GAME, 0, 1, 0, 40)),
        ],
        "hand_ended": [
            signed(HostReveal(GAME, 0, fixed("host-seed"), tuple(SALTS), (70, 50))),
            signed(BlindEnd(GAME, 0, (49, 71))),
        ],
        "hand_aborted": [signed(Abort(GAME, 0, 1, "did not reveal its seed in time"))],
        "receipt_issued": [signed(Receipt(GAME, 0, 1, 1_767_225_600, *commit(0, 1)))],
        "evidence_shown": [signed(Evidence(GAME, 0, 1, *bad_reveal))],
        "match_decided": [signed(MatchEnd(GAME, 3, 0, (2, 1), (190, 170)))],
        "join_hand": [present(1)],
        "shuffle_deck": blind["shuffle"][:1],
        "lock_deck": blind["lock"][:1],
        "send_shares": [blind["shares"][0], blind["shares"][-1]],
        "show_hand": [
            signed(
                Show(
                    GAME,
                    0,
                    1,
                    fixed("context/show"),
                    3,
                    (2, 17, 25),
                    (fixed("v2"), fixed("v17"), fixed("v25")),
                )
            )
        ],
        "complain": [
            signed(
                Complaint(GAME, 0, 1, fixed("context/complaint"), 17, 1, bytes(32), ()), SEATS[1]
            )
        ],
        "reveal_keys": blind["key-reveal"][:1],
        "deck_shuffled": blind["shuffle"][1:2],
        "deck_locked": blind["lock"][1:2],
        "complaint_made": [
            signed(
                Complaint(GAME, 0, 1, fixed("context/complaint"), 17, 1, bytes(32), ()), SEATS[1]
            )
        ],
    }


def _position(rec: tuple[bytes, bytes]) -> int:
    st = decode_statement(rec[0])
    assert isinstance(st, BlindPlay)
    return st.position


def _other_examples() -> dict[str, list[m.Message]]:
    """Wire name -> examples, for every message that is not one statement and a signature."""
    blind = _blind()
    seats2 = (
        SeatInfo(0, True, "Anna", SEATS[0].public_key, None, True, True),
        SeatInfo(1, False, "", b"", None, False, False),
    )
    seats4 = (
        SeatInfo(0, True, "Anna", SEATS[0].public_key, None, True, True),
        SeatInfo(1, True, "AI rules 1", SEATS[1].public_key, "rules", True, False),
        SeatInfo(2, True, "Carla", SEATS[2].public_key, None, False, False),
        SeatInfo(3, False, "", b"", None, False, False),
    )
    token = fixed("token", 16).hex()
    return {
        "hello": [
            m.Hello(2, "Anna", SEATS[0].public_key, None, fixed("proof", 64)),
            m.Hello(2, "Bruno", SEATS[1].public_key, token, fixed("proof/1", 64)),
        ],
        "take_seat": [m.TakeSeat(2)],
        "leave_seat": [m.LeaveSeat()],
        "set_ready": [m.SetReady(True), m.SetReady(False)],
        "set_ai_seat": [m.SetAiSeat(3, "strong"), m.SetAiSeat(3, None)],
        "start_match": [m.StartMatch()],
        "challenge": [m.Challenge(fixed("nonce"), HOST.public_key)],
        "welcome": [
            m.Welcome(
                2,
                "Tavolo",
                TableOptions.make(players=2),
                HOST.public_key,
                seats2,
                None,
                None,
                False,
                True,
                hints=True,
            ),
            m.Welcome(
                2,
                "Osteria del Sole",
                TableOptions.make(players=4, hands_to_win=3, partner_exchange=False),
                HOST.public_key,
                seats4,
                2,
                token,
                True,
                False,
                deal="blind",
            ),
            m.Welcome(
                2,
                "Briscola chiamata",
                TableOptions.make(
                    players=5, match_format="total", points_to_win=71, double_all=False
                ),
                HOST.public_key,
                (*seats4, SeatInfo(4, False, "", b"", None, False, False)),
                None,
                None,
            ),
            m.Welcome(
                2,
                "Circolo dei Segni",
                TableOptions.make(players=4, signals=True),
                HOST.public_key,
                seats4,
                None,
                None,
                False,
                True,
                deal="classic",
            ),
        ],
        "error": [m.Error("not_your_turn", "it is seat 1's turn")],
        "seats_changed": [m.SeatsChanged(seats4, "Carla left the table (seat 2 kept for 30 s)")],
        "seat_assigned": [m.SeatAssigned(2, token), m.SeatAssigned(None, None)],
        "seeds_committed": [m.SeedsCommitted((commit(0, 0), commit(0, 1)))],
        "seeds_revealed": [m.SeedsRevealed((reveal(0, 0), reveal(0, 1)))],
        "card_played": [
            m.CardPlayed(
                *signed(Play(GAME, 0, 1, fixed("context/play"), 0, DECK[3]), SEATS[1]), 3, SALTS[3]
            ),
            m.CardPlayed(*blind["blind-play"][0], _position(blind["blind-play"][0]), b""),
        ],
        "shares_sent": [m.SharesSent(tuple(blind["shares"][:2]))],
        "hands_shown": [
            m.HandsShown(
                tuple(
                    signed(
                        Show(
                            GAME,
                            0,
                            seat,
                            fixed("context/show"),
                            (seat + 2) % 4,
                            (seat,),
                            (fixed(f"v{seat}"),),
                        )
                    )
                    for seat in range(4)
                )
            )
        ],
        "keys_revealed": [m.KeysRevealed(tuple(blind["key-reveal"]))],
        "hand_joined": [m.HandJoined((present(0), present(2))), m.HandJoined(())],
        "trick_taken": [m.TrickTaken(1, 21), m.TrickTaken(0, 0)],
        "hand_acked": [m.HandAcked((ack(0), ack(1)))],
        "match_ended": [
            m.MatchEnded(0, (2, 1), (190, 170), False),
            m.MatchEnded(None, (0, 0), (0, 0), True),
        ],
        "player_connection": [m.PlayerConnection(3, False), m.PlayerConnection(3, True)],
        "notice": [
            m.Notice("not_saving", "cannot save the game: disk full (/srv/state/table.state)")
        ],
        "replay_done": [m.ReplayDone()],
        "ping": [m.Ping(1), m.Ping(2**31 - 1)],
        "pong": [m.Pong(1)],
    }


def examples() -> list[m.Message]:
    """Every example, in the order of MESSAGE_TYPES (the SPEC index)."""
    carried = _statement_examples()
    others = _other_examples()
    out: list[m.Message] = []
    for name, cls in m.MESSAGE_TYPES.items():
        if name in carried:
            assert [f.name for f in dataclasses.fields(cls)] == ["body", "sig"], name
            carrier = typing.cast(Callable[[bytes, bytes], m.Message], cls)
            out.extend(carrier(*rec) for rec in carried[name])
        elif others.get(name):
            out.extend(others[name])
        else:
            raise SystemExit(f"make_codec_vectors.py: no example for the message type {name!r}")
    return out


def _json(obj: Any) -> Any:
    if isinstance(obj, bytes):
        return {"hex": obj.hex()}
    if isinstance(obj, dict):
        return {k: _json(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_json(v) for v in obj]
    return obj


def main() -> None:
    vectors = []
    for msg in examples():
        frame = encode_frame(msg)
        vectors.append(
            {
                "name": type(msg).__name__,
                "fields": _json(msgpack.unpackb(frame[4:])),
                "frame_hex": frame.hex(),
            }
        )
    out = {
        "description": "Message <-> exact frame bytes (4-byte big-endian length + msgpack map), "
        "at least one per message type; every frame matches protocol/messages.cddl. 'fields' "
        'lists the keys in the order of the frame; binary values are written {"hex": ...}. '
        "Statement bodies are real statements (fairness.md §6) signed by fixed test keys.",
        "vectors": vectors,
    }
    (HERE / "codec.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
