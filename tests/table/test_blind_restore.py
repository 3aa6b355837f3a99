"""A blind hand restored from the host's snapshot: its statement timeout counts from the restart,
not from before the host went down (the time the host was away is nobody's)."""

from __future__ import annotations

from briscola_lan.rules import TableOptions
from briscola_lan.table.host import HostTable, Phase
from briscola_lan.table.selfplay import seat_clients
from briscola_lan.wire import messages as m
from tests.table.helpers import counter_entropy

TWO = TableOptions.make(players=2, hands_to_win=1)


def test_a_restored_blind_hand_gives_the_party_it_waits_for_its_whole_timeout() -> None:
    host, clients, wire = seat_clients(TWO, entropy=counter_entropy("restore"), deal="blind")
    original = wire.send_to_host

    def send(conn: int, msgs: list[m.Message]) -> None:  # seat 0 keeps its lock pass
        original(conn, [x for x in msgs if not (conn == 0 and isinstance(x, m.LockDeck))])

    wire.send_to_host = send  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase is Phase.SHUFFLE and host.deal is not None
    assert host.deal.bh.owed() == ("lock", (0,))  # type: ignore[attr-defined]
    restored = HostTable.restore(host.snapshot(), identity=host.identity)
    restored.grace = 2 * restored.timeout  # nobody reconnects here: only the timeout counts
    down = 10 * restored.timeout  # the host was down far longer than the timeout
    restored.tick(host.now + down)
    assert restored.phase is Phase.SHUFFLE  # not "seat 0 was too slow"
    restored.tick(host.now + down + restored.timeout - 1)
    assert restored.phase is Phase.SHUFFLE
    restored.tick(host.now + down + restored.timeout + 1)  # now it is late, since the restart
    assert restored.phase is Phase.OVER

