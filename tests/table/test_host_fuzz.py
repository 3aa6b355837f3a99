"""HostTable.receive never raises on any message in any phase, and an Error changes nothing."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from briscola_lan.fairness.identity import Identity
from briscola_lan.rules import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import seat_clients
from briscola_lan.wire import messages as m
from tests.table.helpers import challenge, counter_entropy, proven_hello, setup
from tests.wire.strategies import messages

from .helpers import hand_of

FOUR = TableOptions.make(players=4, hands_to_win=1)


def _tables() -> list[bytes]:
    """Snapshots of a table in the lobby, mid-play, and waiting in the draw."""
    out = []
    host, clients, wire = setup(FOUR, "fuzz")
    IDENTITY.append(host.identity)
    PLAYERS.append([c.identity for c in clients])
    out.append(host.snapshot())
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for _ in range(6):
        seat = hand_of(host).current_player  # type: ignore[union-attr]
        wire.send_to_host(seat, clients[seat].play(clients[seat].state.view.legal_plays[0]))
        wire.pump()
    out.append(host.snapshot())
    PLAYERS.append([c.identity for c in clients])
    # a table waiting in the draw for the seats' reveals
    drawing, dclients, dwire = seat_clients(
        FOUR, entropy=counter_entropy("fuzz-draw"), draw_partners=True, draw_dealer=True
    )
    original = dwire.send_to_host
    dwire.send_to_host = lambda c, msgs: original(  # type: ignore[method-assign]
        c, [x for x in msgs if not isinstance(x, m.RevealSeed)]
    )
    dwire.send_to_host(0, dclients[0].start())
    dwire.pump()
    assert drawing.drawing
    IDENTITY.append(drawing.identity)
    PLAYERS.append([c.identity for c in dclients])
    out.append(drawing.snapshot())
    return out


IDENTITY: list[Identity] = []
PLAYERS: list[list[Identity]] = []  # per snapshot: the identity of the player in each seat
SNAPSHOTS = _tables()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(range(len(SNAPSHOTS))), st.integers(0, 4), messages)
def test_receive_never_raises(which: int, conn: int, msg: m.Message) -> None:
    data = SNAPSHOTS[which]
    host = HostTable.restore(data, identity=IDENTITY[min(which // 2, 1)])
    ch = challenge(host, conn)
    if conn < 4 and not isinstance(msg, m.Hello):
        token = host.seats[conn].token
        out = host.receive(conn, proven_hello(PLAYERS[which][conn], ch, "p", token))
        assert isinstance(out[0].message, m.Welcome) and host.conns[conn].seat == conn
    before = (host.phase, len(host.records), host.chain, [s.occupied for s in host.seats])
    out = host.receive(conn, msg)
    errors = [o for o in out if isinstance(o.message, m.Error)]
    if errors:
        assert len(out) == 1 and out[0].conn == conn
        assert (
            host.phase,
            len(host.records),
            host.chain,
            [s.occupied for s in host.seats],
        ) == before
    assert host.internal_errors == []
