"""A client that restarts before revealing its seed keeps the hand alive with its saved secrets."""

from __future__ import annotations

import msgpack
import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.identity import Identity
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession, SecretsError
from briscola_lan.table.host import Phase
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m
from tests.table.helpers import aborts, counter_entropy, cycle_chooser

TWO = TableOptions.make(players=2, hands_to_win=1)
FOUR = TableOptions.make(players=4, hands_to_win=1)


def _crash_before_reveal(
    options: TableOptions, victim: int, *, draw: bool, keep_secrets: bool
) -> tuple[Wire, list[ClientSession]]:
    """Run until ``victim`` committed; it dies before revealing and comes back as a new process."""
    saved: list[bytes] = []
    host, clients, wire = seat_clients(
        options,
        entropy=counter_entropy("crash"),
        draw_partners=draw,
        draw_dealer=draw,
        deal="classic",
    )
    clients[victim].on_secrets = saved.append
    original = wire.send_to_host

    def send(conn: int, msgs: list[m.Message]) -> None:  # the victim's reveal is never sent
        original(conn, [x for x in msgs if not (conn == victim and isinstance(x, m.RevealSeed))])

    wire.send_to_host = send  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase is Phase.REVEAL and saved
    token = clients[victim].state.resume_token
    wire.deliver(host.disconnect(victim))
    wire.send_to_host = original  # type: ignore[method-assign]
    reborn = ClientSession(clients[victim].identity, "reborn", entropy=counter_entropy("new"))
    if keep_secrets:
        reborn.load_secrets(saved[-1])
    clients[victim] = reborn
    wire.clients[victim] = reborn
    wire.deliver(host.connect(victim))
    wire.send_to_host(victim, reborn.hello(token))
    wire.pump()
    return wire, clients


@pytest.mark.parametrize("draw", [False, True])
def test_restart_with_saved_secrets_finishes_and_verifies(draw: bool) -> None:
    options = FOUR if draw else TWO
    wire, clients = _crash_before_reveal(options, 1, draw=draw, keep_secrets=True)
    assert wire.host.phase is Phase.PLAY
    play_out(wire, [cycle_chooser(i) for i in range(options.players)])
    assert wire.host.phase is Phase.OVER and wire.host.internal_errors == []
    rep = verify_records(wire.host.records)
    assert rep.ok and all(h.fault is None for h in rep.hands)
    for c in clients:
        assert verify_records(c.records).ok
        assert [x.status for x in c.state.checks] == ["verified"] * len(c.state.checks)


def test_restart_without_secrets_aborts_and_names_that_seat() -> None:
    wire, clients = _crash_before_reveal(TWO, 1, draw=False, keep_secrets=False)
    assert aborts(wire.host.records) == [(0, 1)]
    rep = verify_records(wire.host.records)
    assert rep.hands[0].status == "aborted" and rep.hands[0].fault is not None
    assert rep.hands[0].fault.seat == 1
    assert not clients[0].state.match_aborted and wire.host.hand_number == 1  # dealt again


def test_secrets_blob_is_checked_and_scoped_to_the_current_game() -> None:
    saved: list[bytes] = []
    _, clients, wire = seat_clients(TWO, entropy=counter_entropy("scope"), deal="classic")
    clients[0].on_secrets = saved.append
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert len(saved) == 1
    fresh = ClientSession(clients[0].identity, "x")
    fresh.load_secrets(saved[0])
    assert fresh.pending_secrets() == saved[0] == clients[0].pending_secrets()
    obj = msgpack.unpackb(saved[0])
    short_seed = {**obj, "seeds": [[g, h, seed[:31]] for g, h, seed in obj["seeds"]]}
    for bad in (
        b"",
        b"junk",
        saved[0][:-1],
        msgpack.packb({"format": "other", "version": 1}),
        msgpack.packb({**obj, "version": 9}),
        msgpack.packb(short_seed),
    ):
        with pytest.raises(SecretsError):
            fresh.load_secrets(bad)


def test_a_new_game_never_reuses_a_seed_of_an_earlier_game() -> None:
    c = ClientSession(Identity.generate(bytes(range(32))), "z")
    first = c._seed_for(b"\x01" * 16, 0)
    assert c._seed_for(b"\x01" * 16, 0) == first  # the same hand keeps its seed
    second = c._seed_for(b"\x02" * 16, 0)
    assert second != first
    assert [g for g, _, _ in msgpack.unpackb(c.pending_secrets())["seeds"]] == [b"\x02" * 16]
