"""Lobby seats of players who lose their connection: kept for the grace period, then freed."""

from __future__ import annotations

from briscola_lan.fairness import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.rules.options import MatchFormat
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Phase
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import FrameDecoder
from tests.table.helpers import counter_entropy, cycle_chooser

THREE = TableOptions.make(players=3, match_format=MatchFormat.POINTS)


def _lobby() -> tuple[HostTable, list[ClientSession], Wire]:
    """Three players seated and ready in the lobby; the table's clock at 100."""
    host, clients, wire = seat_clients(THREE, entropy=counter_entropy("lobby"))
    wire.deliver(host.tick(100.0))
    wire.pump()
    return host, clients, wire


def _drop(wire: Wire, seat: int) -> None:
    wire.deliver(wire.host.disconnect(seat))
    wire.clients[seat].connection_lost()
    wire.pump()


def _reconnect(wire: Wire, seat: int) -> None:
    """Connection ``seat`` again (new decoders), saying hello with the session's resume token."""
    wire.host_dec[seat], wire.client_dec[seat] = FrameDecoder(), FrameDecoder()
    wire.deliver(wire.host.connect(seat))
    wire.send_to_host(seat, wire.clients[seat].hello())
    wire.pump()


def _tick(wire: Wire, now: float) -> None:
    wire.deliver(wire.host.tick(now))
    wire.pump()


def _seen(client: ClientSession) -> list[bool]:
    return [s.occupied for s in client.state.seats]


def test_a_lobby_seat_is_freed_after_the_grace_period_and_everyone_sees_it() -> None:
    host, clients, wire = _lobby()
    _drop(wire, 1)
    assert _seen(clients[0]) == _seen(clients[2]) == [True, True, True]  # kept for now
    assert "seat 1 kept for 30 s" in clients[0].state.log[-1]
    assert not clients[0].state.seats[1].connected and not clients[0].state.seats[1].ready
    _tick(wire, 100.0 + host.grace - 0.5)
    assert host.seat_infos[1].occupied
    before = len(wire.received[0])
    _tick(wire, 100.0 + host.grace)
    assert not host.seat_infos[1].occupied and host.info().free_seats == (1,)
    (changed,) = wire.received[0][before:]
    assert isinstance(changed, m.SeatsChanged) and not changed.seats[1].occupied
    assert "seat 1 is free" in changed.event
    assert _seen(clients[0]) == _seen(clients[2]) == [True, False, True]
    _tick(wire, 100.0 + 3 * host.grace)  # freed once: nothing more is said
    assert len(wire.received[0]) == before + 1
    # the seat-0 owner can now fill it and start, and the match is played out
    wire.send_to_host(0, clients[0].set_ai_seat(1, "rules") + clients[0].start())
    wire.pump()
    assert host.phase is Phase.PLAY and not clients[0].state.errors
    play_out(wire, [cycle_chooser(i) for i in range(3)])
    assert host.phase is Phase.OVER and verify_records(host.records).ok
    # the old resume token no longer holds a seat: the player is told to join afresh
    _reconnect(wire, 1)
    assert [e.code for e in clients[1].state.errors] == ["bad_token"]


def test_a_player_who_comes_back_within_the_grace_keeps_the_seat() -> None:
    host, clients, wire = _lobby()
    token = clients[1].state.resume_token
    _drop(wire, 1)
    _tick(wire, 100.0 + host.grace - 1)
    _reconnect(wire, 1)
    assert clients[1].state.seat == 1 and clients[1].state.resume_token == token
    assert not clients[1].state.errors
    assert clients[0].state.seats[1].connected and clients[0].state.seats[1].name == "bot1"
    _tick(wire, 100.0 + 5 * host.grace)  # back in time: the old drop no longer counts
    assert host.seat_infos[1].occupied and host.seat_infos[1].connected
    # it drops again: a new grace period from the new drop
    _drop(wire, 1)
    _tick(wire, 100.0 + 6 * host.grace - 1)
    assert host.seat_infos[1].occupied
    _tick(wire, 100.0 + 6 * host.grace)
    assert not host.seat_infos[1].occupied


def test_ai_seats_and_connected_players_are_never_freed() -> None:
    host, clients, wire = _lobby()
    wire.send_to_host(2, clients[2].leave_seat())
    wire.send_to_host(0, clients[0].set_ai_seat(2, "random"))
    wire.pump()
    _tick(wire, 100.0 + 10 * host.grace)
    assert [s.occupied for s in host.seat_infos] == [True, True, True]
    assert host.seat_infos[2].ai == "random"


def test_a_restored_lobby_frees_the_seats_of_players_who_do_not_come_back() -> None:
    host, clients, _wire = _lobby()
    data = host.snapshot()  # the host process dies here, with everyone in the lobby
    restored = HostTable.restore(data, identity=host.identity, entropy=counter_entropy("r"))
    restored.tick(7.0)  # the new process's clock
    wire2 = Wire(restored, clients)
    for c in clients:
        c.connection_lost()
    _reconnect(wire2, 0)
    _reconnect(wire2, 2)
    _tick(wire2, 7.0 + restored.grace - 1)
    assert [s.occupied for s in restored.seat_infos] == [True, True, True]
    _tick(wire2, 7.0 + restored.grace)
    assert [s.occupied for s in restored.seat_infos] == [True, False, True]
    assert _seen(clients[0]) == [True, False, True]
