"""AI levels: the host seats only the levels it can play (protocol/SPEC.md, set_ai_seat)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from briscola_lan.choices import AI_LEVELS
from briscola_lan.fairness import verify_records
from briscola_lan.fairness.identity import Identity
from briscola_lan.net.host_cmd import parse_ai_seats
from briscola_lan.net.table_spec import HostError, TableSpec, make_table
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Phase, SnapshotError
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import FrameDecoder
from tests.table.helpers import counter_entropy

TWO = TableOptions.make(players=2, hands_to_win=1)
FOUR = TableOptions.make(players=4, hands_to_win=1)
VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors" / "codec.json"


def _owner_table(options: TableOptions = FOUR) -> tuple[HostTable, list[ClientSession], Wire]:
    """A lobby where only the player in seat 0 (who may seat AIs) still sits."""
    host, clients, wire = seat_clients(options, entropy=counter_entropy())
    for i in range(1, options.players):
        wire.send_to_host(i, clients[i].leave_seat())
    wire.pump()
    assert [s.occupied for s in host.seat_infos] == [True] + [False] * (options.players - 1)
    return host, clients, wire


def _sent(wire: Wire, msgs: list[m.Message]) -> list[m.Message]:
    """What the host sends (to anyone) in answer to seat 0's messages."""
    before = {i: len(r) for i, r in wire.received.items()}
    wire.send_to_host(0, msgs)
    wire.pump()
    return [msg for i, r in wire.received.items() for msg in r[before[i] :]]


@pytest.mark.parametrize("level", ["easy", "Rules", "strong:200", "", "rules "])
def test_set_ai_seat_with_an_unknown_level_is_refused_and_changes_nothing(level: str) -> None:
    host, _clients, wire = _owner_table()
    before = (host.seat_infos, host.phase, len(host.records))
    (err,) = _sent(wire, [m.SetAiSeat(1, level)])  # only the refusal: no seats_changed
    assert isinstance(err, m.Error) and err.code == "unknown_level"
    assert repr(level) in err.text and "random, rules, strong" in err.text
    assert (host.seat_infos, host.phase, len(host.records)) == before
    # the same through the host's own entry point
    with pytest.raises(ValueError, match="random, rules, strong"):
        host.set_ai_seat(1, level)
    assert (host.seat_infos, host.phase, len(host.records)) == before
    # the table still works: a real level takes the seat
    answers = _sent(wire, [m.SetAiSeat(1, "rules")])
    assert answers and all(isinstance(a, m.SeatsChanged) for a in answers)  # seen by everyone
    assert host.seat_infos[1].ai == "rules"


def test_an_unknown_level_cannot_be_given_when_the_table_is_made() -> None:
    with pytest.raises(ValueError, match="unknown AI level 'easy'"):
        HostTable(TWO, name="t", identity=Identity.generate(bytes(32)), ai_seats={1: "easy"})
    spec = TableSpec("t", TWO, {1: "easy"}, 0)  # e.g. a hand-edited saved table's meta file
    with pytest.raises(HostError, match="unknown AI level 'easy'"):
        make_table(spec, Identity.generate(bytes(32)))


def test_a_snapshot_with_an_unknown_level_is_refused() -> None:
    host = HostTable(TWO, name="t", identity=Identity.generate(bytes(32)), ai_seats={1: "rules"})
    host.seats[1].ai = "easy"  # as an older or edited state file could hold it
    with pytest.raises(SnapshotError, match="unknown AI level 'easy'"):
        HostTable.restore(host.snapshot(), identity=host.identity)


def test_the_host_command_refuses_an_unknown_level() -> None:
    args = argparse.Namespace(ai=1, ai_level="easy", ai_seats="")
    with pytest.raises(HostError, match="unknown AI level 'easy'"):
        parse_ai_seats(args, 2)
    args = argparse.Namespace(ai=0, ai_level="rules", ai_seats="1:hard")
    with pytest.raises(HostError, match="unknown AI level 'hard'"):
        parse_ai_seats(args, 2)
    args = argparse.Namespace(ai=1, ai_level="strong", ai_seats="2:random")
    assert parse_ai_seats(args, 4) == {1: "strong", 2: "random"}


@pytest.mark.parametrize("level", AI_LEVELS)
def test_every_real_level_plays_its_seat_to_the_end_of_the_match(level: str) -> None:
    host, clients, wire = _owner_table(TWO)
    assert not [x for x in _sent(wire, [m.SetAiSeat(1, level)]) if isinstance(x, m.Error)]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase is Phase.PLAY
    play_out(wire, [lambda v: v.legal_plays[0]] * 2)  # raises if the AI seat never plays
    assert host.phase is Phase.OVER and not host.internal_errors
    assert verify_records(host.records).ok and not clients[0].state.match_aborted


def test_the_codec_vector_for_set_ai_seat_is_a_level_the_host_accepts() -> None:
    vectors = [v for v in json.loads(VECTORS.read_text())["vectors"] if v["name"] == "SetAiSeat"]
    placing = []
    for vector in vectors:
        (msg,) = FrameDecoder().feed(bytes.fromhex(vector["frame_hex"]))
        assert isinstance(msg, m.SetAiSeat)
        if msg.level is not None:
            placing.append(msg)
    assert placing  # the vectors put an AI in a seat, not only free one
    for msg in placing:
        host, _clients, wire = _owner_table()
        assert not [x for x in _sent(wire, [msg]) if isinstance(x, m.Error)]
        assert host.seat_infos[msg.seat].ai == msg.level
