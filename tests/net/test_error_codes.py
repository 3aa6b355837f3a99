"""Every error code of protocol/SPEC.md §7, driven through a pure HostTable, and the order of
the host's checks (§7.1): the first check a command fails names the code."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Play, SeedCommit
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Outgoing, Phase
from briscola_lan.wire import messages as m
from tests.table.helpers import challenge, counter_entropy, hand_of, proven_hello, say_hello, setup

TWO = TableOptions.make(players=2, hands_to_win=1)
SPEC = Path(__file__).resolve().parents[2] / "protocol" / "SPEC.md"


def _code(out: list[Outgoing]) -> str:
    errors = [o.message.code for o in out if isinstance(o.message, m.Error)]
    assert len(errors) == 1, out
    return errors[0]


def _spec_codes() -> set[str]:
    section = SPEC.read_text(encoding="utf-8").split("## 7. Errors", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, flags=re.MULTILINE))


def _lobby_codes() -> dict[str, str]:
    """Handshake and lobby refusals: case name -> the code the host answered."""
    host = HostTable(
        TWO, name="t", identity=Identity.generate(bytes(32)), entropy=counter_entropy()
    )
    ann, bob, cid = (Identity.generate(bytes([i]) * 32) for i in (1, 2, 3))
    got: dict[str, str] = {}
    ch = challenge(host, 10)
    got["command before hello"] = _code(host.receive(10, m.TakeSeat(0)))
    got["version 1 hello"] = _code(host.receive(10, m.Hello(1, "x", ann.public_key)))
    ch = challenge(host, 11)
    small_order = b"\x01" + bytes(31)  # the neutral point
    got["invalid key"] = _code(host.receive(11, proven_hello(ann, ch, key=small_order)))
    ch = challenge(host, 12)
    unproven = m.Hello(m.PROTOCOL_VERSION, "x", ann.public_key, None, None)
    got["hello without proof"] = _code(host.receive(12, unproven))
    got["unknown token"] = _code(say_hello(host, 13, ann, "ann", "not-a-token"))
    assert not any(isinstance(o.message, m.Error) for o in say_hello(host, 0, ann, "ann"))
    assert not any(isinstance(o.message, m.Error) for o in say_hello(host, 1, bob, "bob"))
    assert not any(isinstance(o.message, m.Error) for o in say_hello(host, 2, cid, "cid"))
    got["second hello"] = _code(host.receive(0, proven_hello(ann, ch)))
    got["host-only message"] = _code(host.receive(0, m.TrickTaken(0, 0)))
    got["unseated start"] = _code(host.receive(0, m.StartMatch()))
    got["unseated set_ai_seat"] = _code(host.receive(0, m.SetAiSeat(1, "random")))
    got["unseated ready"] = _code(host.receive(0, m.SetReady(True)))
    got["unseated leave"] = _code(host.receive(0, m.LeaveSeat()))
    got["unseated commit"] = _code(host.receive(0, m.CommitSeed(b"x", b"y")))
    got["no such seat"] = _code(host.receive(0, m.TakeSeat(2)))
    assert not any(isinstance(o.message, m.Error) for o in host.receive(0, m.TakeSeat(0)))
    got["seat taken"] = _code(host.receive(1, m.TakeSeat(0)))
    got["bot level"] = _code(host.receive(0, m.SetAiSeat(1, "expert")))
    got["empty seat"] = _code(host.receive(0, m.StartMatch()))
    assert not any(isinstance(o.message, m.Error) for o in say_hello(host, 15, ann, "ann"))
    got["identity seated on another connection"] = _code(host.receive(15, m.TakeSeat(1)))
    assert not any(isinstance(o.message, m.Error) for o in host.receive(1, m.TakeSeat(1)))
    got["not seat 0"] = _code(host.receive(1, m.StartMatch()))
    got["not ready"] = _code(host.receive(0, m.StartMatch()))
    ann_token = host.seats[0].token
    got["someone else's token"] = _code(say_hello(host, 14, cid, "cid", ann_token))
    return got


def test_handshake_and_lobby_codes() -> None:
    assert _lobby_codes() == {
        "command before hello": "hello_first",
        "version 1 hello": "bad_version",
        "invalid key": "bad_key",
        "hello without proof": "bad_proof",
        "unknown token": "bad_token",
        "second hello": "wrong_phase",
        "host-only message": "bad_message",
        "unseated start": "not_seated",
        "unseated set_ai_seat": "not_seated",
        "unseated ready": "not_seated",
        "unseated leave": "not_seated",
        "unseated commit": "not_seated",
        "no such seat": "no_such_seat",
        "seat taken": "seat_taken",
        "bot level": "unknown_level",
        "empty seat": "not_ready",
        "identity seated on another connection": "not_allowed",
        "not seat 0": "not_allowed",
        "not ready": "not_ready",
        "someone else's token": "bad_token",
    }


def _lobby(players: int = 2) -> tuple[HostTable, list[Identity]]:
    """A lobby with one welcomed, unseated connection per player (connection i: player i)."""
    opts = TableOptions.make(players=players, hands_to_win=1)
    host = HostTable(
        opts, name="t", identity=Identity.generate(bytes(32)), entropy=counter_entropy()
    )
    people = [Identity.generate(bytes([i + 1]) * 32) for i in range(players)]
    for i, who in enumerate(people):
        assert not any(isinstance(o.message, m.Error) for o in say_hello(host, i, who, f"p{i}"))
    return host, people


def test_take_seat_of_ones_own_seat_is_answered_and_changes_nothing() -> None:
    """SPEC.md §5: a repeated take_seat of the sender's own seat (a client that asks again) is
    answered with seat_assigned, the same seat and resume token, to the sender only; the seat
    stays as it was (ready included) and nobody else is told anything."""
    host, _people = _lobby()
    first = host.receive(0, m.TakeSeat(1))
    (assigned,) = [o.message for o in first if isinstance(o.message, m.SeatAssigned)]
    assert not any(isinstance(o.message, m.Error) for o in host.receive(0, m.SetReady(True)))
    before = [dataclasses.replace(s, log=list(s.log)) for s in host.seats]
    again = host.receive(0, m.TakeSeat(1))
    assert [(o.conn, o.message) for o in again] == [(0, m.SeatAssigned(1, assigned.resume_token))]
    assert host.seats == before and host.seats[1].ready


def test_a_seated_player_moves_to_a_free_seat() -> None:
    """SPEC.md §5: a seated connection's take_seat of another free seat moves it there, keeping
    its resume token (not ready any more); its old seat is free; everyone sees the move."""
    host, people = _lobby(4)
    host.receive(0, m.TakeSeat(0))
    host.receive(1, m.TakeSeat(2))
    host.receive(0, m.SetReady(True))
    token = host.seats[0].token
    out = host.receive(0, m.TakeSeat(1))
    assert [o.message for o in out if o.conn == 0 and isinstance(o.message, m.SeatAssigned)] == [
        m.SeatAssigned(1, token)
    ]
    changed = [o for o in out if isinstance(o.message, m.SeatsChanged)]
    assert sorted(o.conn for o in changed) == [0, 1, 2, 3]  # every welcomed connection
    events = {o.message.event for o in changed if isinstance(o.message, m.SeatsChanged)}
    assert events == {"p0 moved from seat 0 to seat 1"}
    assert not host.seats[0].occupied
    moved = host.seats[1]
    assert (moved.key, moved.token, moved.conn) == (people[0].public_key, token, 0)
    assert not moved.ready
    # a seat someone holds is still refused, and the old seat is free for anyone
    assert _code(host.receive(0, m.TakeSeat(2))) == "seat_taken"
    assert not any(isinstance(o.message, m.Error) for o in host.receive(2, m.TakeSeat(0)))


def _signed(who: ClientSession, st: Play | SeedCommit, cls: type = m.PlayCard) -> m.Message:
    body = st.encode()
    msg: m.Message = cls(body, who.identity.sign(body))
    return msg


def _match_codes() -> dict[str, str]:
    """Refusals in a match: case name -> the code the host answered."""
    host, clients, wire = setup(TWO)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    hand = hand_of(host)
    assert hand is not None and host.phase is Phase.PLAY and hand.current_player is not None
    turn = hand.current_player
    other = 1 - turn
    gid = host.game_id
    mine = hand.hands[turn][0].code

    def play(seat: int, st: Play, signer: int | None = None, sig: bytes | None = None) -> str:
        who = clients[seat if signer is None else signer]
        msg = _signed(who, st)
        if sig is not None:
            msg = m.PlayCard(st.encode(), sig)
        return _code(host.receive(seat, msg))

    ctx = host.context_for(Play.KIND)
    commit = SeedCommit(gid, 0, turn, ctx, bytes(32))
    return {
        "garbage body": _code(host.receive(turn, m.PlayCard(b"\x00garbage", bytes(64)))),
        "wrong kind": _code(host.receive(turn, _signed(clients[turn], commit))),
        "commit in play": _code(host.receive(turn, _signed(clients[turn], commit, m.CommitSeed))),
        "seat change mid-match": _code(host.receive(turn, m.TakeSeat(other))),
        "another game": play(turn, Play(bytes(16), 0, turn, ctx, 0, mine)),
        "another hand": play(turn, Play(gid, 1, turn, ctx, 0, mine)),
        "another seat": play(turn, Play(gid, 0, other, ctx, 0, hand.hands[other][0].code)),
        "bad signature": play(turn, Play(gid, 0, turn, ctx, 0, mine), sig=bytes(64)),
        "wrong index": play(turn, Play(gid, 0, turn, ctx, 5, mine)),
        "no such card": play(turn, Play(gid, 0, turn, ctx, 0, 40)),
        "out of turn": play(other, Play(gid, 0, other, ctx, 0, hand.hands[other][0].code)),
        "card not held": play(turn, Play(gid, 0, turn, ctx, 0, hand.hands[other][0].code)),
        # The order (SPEC.md §7.1): the first failing check names the code.
        "another seat, bad signature": play(turn, Play(gid, 0, other, ctx, 0, mine), sig=bytes(64)),
        "bad signature, wrong index": play(turn, Play(gid, 0, turn, ctx, 5, mine), sig=bytes(64)),
        "another game, bad signature": play(
            turn, Play(bytes(16), 0, turn, ctx, 0, mine), sig=bytes(64)
        ),
        "another history": play(turn, Play(gid, 0, turn, bytes(32), 0, mine)),
        "another history, wrong index": play(turn, Play(gid, 0, turn, bytes(32), 5, mine)),
    }


def test_match_codes_and_the_order_of_checks() -> None:
    assert _match_codes() == {
        "garbage body": "bad_statement",
        "wrong kind": "bad_statement",
        "commit in play": "wrong_phase",
        "seat change mid-match": "wrong_phase",
        "another game": "bad_statement",
        "another hand": "bad_statement",
        "another seat": "not_allowed",
        "bad signature": "bad_signature",
        "wrong index": "bad_statement",
        "no such card": "illegal_play",
        "out of turn": "not_your_turn",
        "card not held": "illegal_play",
        "another seat, bad signature": "not_allowed",
        "bad signature, wrong index": "bad_signature",
        "another game, bad signature": "bad_statement",
        "another history": "stale_context",
        "another history, wrong index": "stale_context",
    }


def test_every_documented_code_is_driven_and_every_code_is_documented() -> None:
    driven = set(_lobby_codes().values()) | set(_match_codes().values())
    documented = _spec_codes()
    codes = {v for k, v in vars(m.ErrorCode).items() if k.isupper()}
    assert documented == codes
    assert driven == documented
