"""The TXT ``phase`` is always one of the public values of protocol/transport.md section 4."""

from __future__ import annotations

import pytest

from briscola_lan.net.discovery import PUBLIC_PHASES, public_phase
from briscola_lan.net.hosted import txt_for
from briscola_lan.rules import TableOptions
from briscola_lan.table.host import HostTable, Outgoing, Phase
from briscola_lan.table.selfplay import play_out
from tests.table.helpers import cycle_chooser, setup


def test_every_coordinator_phase_has_a_public_name() -> None:
    assert PUBLIC_PHASES == ("lobby", "playing", "over")
    assert {p: public_phase(str(p)) for p in Phase} == {
        Phase.LOBBY: "lobby",
        Phase.CALL: "playing",
        Phase.COMMIT: "playing",
        Phase.REVEAL: "playing",
        Phase.SHUFFLE: "playing",
        Phase.DEAL: "playing",
        Phase.PLAY: "playing",
        Phase.DISPUTE: "playing",
        Phase.ACK: "playing",
        Phase.OVER: "over",
    }
    assert public_phase("some-future-step") == "playing"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_advertised_phase_through_a_whole_match(players: int) -> None:
    fmt = "points" if players == 3 else "hands"
    host, clients, wire = setup(TableOptions.make(players=players, match_format=fmt), f"p{players}")
    internal: set[str] = set()
    advertised: list[str] = []

    def record(table: HostTable) -> None:
        internal.add(str(table.phase))
        phase = txt_for(table, "ab" * 32)["phase"].decode()
        assert phase in PUBLIC_PHASES, phase
        if not advertised or advertised[-1] != phase:
            advertised.append(phase)

    deliver = wire.deliver

    def deliver_and_record(outs: list[Outgoing]) -> None:
        record(host)  # what a TXT update published now would say
        deliver(outs)

    wire.deliver = deliver_and_record  # type: ignore[method-assign]
    record(host)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(i) for i in range(players)])
    record(host)
    assert {"commit", "reveal", "play", "ack"} <= internal  # the names that must not leak
    assert advertised == ["lobby", "playing", "over"]
