"""A blind hand restored from the host's snapshot: its statement timeout counts from the restart,
not from before the host went down (the time the host was away is nobody's)."""

from __future__ import annotations

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.identity import Identity
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Phase
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import unpack_state
from tests.table.helpers import aborts, counter_entropy, cycle_chooser

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
    assert aborts(restored.records) == [(0, 0)]


def _host_secret(host: HostTable) -> bytes:
    deal = unpack_state(host.snapshot())["state"]["deal"]
    return bytes(deal["host_secret"])


def test_the_state_file_keeps_the_hosts_hand_secret_only_while_it_needs_it() -> None:
    """With an AI seat the host is a party: its secret is in the snapshot until its key reveal
    is published, and a table restored mid-hand plays the AI seat on; none after the hand."""
    entropy = counter_entropy("ai")
    options = TableOptions.make(players=2, hands_to_win=1)
    host = HostTable(
        options,
        name="t",
        identity=Identity.generate(entropy(32)),
        entropy=entropy,
        ai_seats={1: "random"},
        deal="blind",
    )
    client = ClientSession(Identity.generate(entropy(32)), "p", entropy=entropy)
    host.tick(0.0)
    wire = Wire(host, [client])
    wire.deliver(host.connect(0))
    wire.send_to_host(0, client.hello())
    wire.pump()
    wire.send_to_host(0, client.take_seat(0) + client.ready())
    wire.pump()
    wire.send_to_host(0, client.start())
    wire.pump()
    deal = host.deal
    assert deal is not None
    while deal.plays_so_far < 6:
        view = client.state.view
        if view is not None and view.my_turn:
            wire.send_to_host(0, client.play(view.legal_plays[0]))
        wire.deliver(host.tick(host.now + 1.0))
        wire.pump()
    assert host.phase is Phase.PLAY and len(_host_secret(host)) == 32
    restored = HostTable.restore(host.snapshot(), identity=host.identity, entropy=entropy)
    wire = Wire(restored, [client])
    wire.deliver(restored.connect(0))
    wire.send_to_host(0, client.hello())
    wire.pump()
    play_out(wire, [cycle_chooser(0)])
    assert restored.phase is Phase.OVER and restored.internal_errors == []
    assert verify_records(restored.records).ok and verify_records(client.records).ok
    assert _host_secret(restored) == b""
    again = HostTable.restore(restored.snapshot(), identity=host.identity)
    assert again.phase is Phase.OVER and again.records == restored.records


def test_a_client_keeps_no_hand_secret_once_the_game_is_over() -> None:
    """The saved secrets hold each hand secret from before its first use to the end of the game
    (a resumed seat's replay goes through the game's hands again), and none after it."""
    host, clients, wire = seat_clients(TWO, entropy=counter_entropy("forget"), deal="blind")
    saved: list[list[bytes]] = [[], []]
    for i, c in enumerate(clients):
        c.on_secrets = saved[i].append
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    assert host.phase is Phase.OVER
    for i, c in enumerate(clients):
        blobs = [unpack_state(b)["seeds"] for b in saved[i]]
        hands = len(c.state.checks)
        assert [len(x) for x in blobs] == [*range(1, hands + 1), 0]
        fresh = ClientSession(c.identity, "again")
        fresh.load_secrets(saved[i][-1])
        assert fresh.pending_secrets() == saved[i][-1]


def test_a_seat_resumed_after_the_game_is_over_sends_nothing_again() -> None:
    """The same client, or a restarted one with its saved (now empty) secrets, resumes a finished
    blind match: the replay draws no secret and sends nothing the host would refuse."""
    host, clients, wire = seat_clients(TWO, entropy=counter_entropy("over"), deal="blind")
    saved: list[bytes] = []
    clients[1].on_secrets = saved.append
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    assert host.phase is Phase.OVER
    token = clients[1].state.resume_token
    for again in (clients[1], ClientSession(clients[1].identity, "restarted")):
        if again is not clients[1]:
            again.load_secrets(saved[-1])
        wire.deliver(host.disconnect(1))
        wire.clients[1] = again
        wire.deliver(host.connect(1))
        wire.send_to_host(1, again.hello(token))
        wire.pump()
        assert again.state.match_over and again.state.errors == [], again.state.log
        assert verify_records(again.records).ok
        assert unpack_state(again.pending_secrets())["seeds"] == []
