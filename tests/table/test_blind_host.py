"""The blind deal on the host, without sockets: whole matches at every table shape, the host
restarted from its snapshot at every step of a hand, a player away when a hand starts, and what
the host's own party may open (protocol/fairness.md §11)."""

from __future__ import annotations

import random

import pytest

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.deal import Phase
from briscola_lan.table.deal_blind import BlindDeal
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m

from .helpers import counter_entropy


def _options(players: int) -> TableOptions:
    fmt = MatchFormat.POINTS if players == 3 else MatchFormat.HANDS
    return TableOptions.make(players=players, match_format=fmt, hands_to_win=1)


def _random(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda view: rng.choice(view.legal_plays)


def _table_with_ai(
    players: int, humans: list[int], label: str
) -> tuple[HostTable, list[ClientSession], Wire]:
    ai = {s: "rules" for s in range(players) if s not in humans}
    return seat_clients(
        _options(players), entropy=counter_entropy(label), name="t", deal="blind", ai_seats=ai
    )


def _all_files_verify(host: HostTable, clients: list[ClientSession]) -> None:
    for name, records in [("host", host.records)] + [
        (f"client {i}", c.records) for i, c in enumerate(clients)
    ]:
        rep = verify_records(records)
        assert rep.verdict == "verified" and rep.deal == "blind", (name, rep.verdict, rep.blame)
    for c in clients:
        assert c.state.match_over and not c.state.match_aborted
        assert all(ch.status == "verified" for ch in c.state.checks), [
            ch.summary for ch in c.state.checks
        ]


@pytest.mark.parametrize(
    ("players", "humans"),
    [(2, [0, 1]), (2, [0]), (3, [0, 1, 2]), (3, [0, 2]), (4, [0, 1, 2, 3]), (4, [0, 2]), (4, [1])],
)
def test_a_blind_match_at_every_table_shape_verifies_in_every_file(
    players: int, humans: list[int]
) -> None:
    host, clients, wire = _table_with_ai(players, humans, f"shape{players}{humans}")
    wire.deliver(host.start())
    wire.pump()
    play_out(wire, [_random(i) for i in range(len(humans))])
    assert host.phase is Phase.OVER and not host.internal_errors
    parties = {h.parties for h in verify_records(host.records).hands}
    want = (*humans, HOST_PARTY) if len(humans) < players else tuple(humans)
    assert parties == {want}
    _all_files_verify(host, clients)


@pytest.mark.parametrize("players", [2, 4])
def test_the_host_restarted_at_every_step_of_a_hand_goes_on(players: int) -> None:
    """Every few messages the host process 'dies' and a new one restores its snapshot; every
    client reconnects with its token and the hand goes on where it was."""
    humans = [0, 2] if players == 4 else [0]  # the host is a party: its secret is restored too
    host, clients, wire = _table_with_ai(players, humans, f"restart{players}")
    wire.deliver(host.start())
    rng = random.Random(players)
    restarts = 0
    choosers = [_random(10 + i) for i in range(len(clients))]
    for _step in range(4000):
        if host.phase is Phase.OVER:
            break
        # move a little: deliver some messages, or let a seat play
        if wire.to_client or wire.to_host:
            for _ in range(rng.randrange(1, 6)):
                if wire.to_client:
                    conn, frame = wire.to_client.popleft()
                    for msg in wire.client_dec[conn].feed(frame):
                        wire.send_to_host(conn, clients[conn].receive(msg))
                elif wire.to_host:
                    conn, frame = wire.to_host.popleft()
                    for msg in wire.host_dec[conn].feed(frame):
                        wire.deliver(host.receive(conn, msg))
        else:
            deal = host.deal
            to_play = deal.to_play if deal is not None else None
            moved = False
            for i, c in enumerate(clients):
                v = c.state.view
                if v is not None and v.my_turn and to_play == v.seat:
                    wire.send_to_host(i, c.play(choosers[i](v)))
                    moved = True
                    break
            if not moved:
                wire.deliver(host.tick(host.now + 1.0))
        if rng.random() < 0.04 and isinstance(host.deal, BlindDeal):
            restarts += 1
            data = host.snapshot()
            host = HostTable.restore(
                data, identity=host.identity, entropy=counter_entropy(f"r{_step}")
            )
            host.tick(0.0)
            wire = Wire(host, clients)  # what was on its way is lost with the old process
            for i, c in enumerate(clients):
                c.connection_lost()
                wire.deliver(host.connect(i))
                wire.send_to_host(i, c.hello())
    wire.pump()
    assert host.phase is Phase.OVER, "the match did not finish"
    assert restarts >= 3
    _all_files_verify(host, clients)


def test_a_player_away_when_a_hand_starts_is_played_by_the_host_for_that_hand() -> None:
    host, clients, wire = seat_clients(
        TableOptions.make(players=2, hands_to_win=3), entropy=counter_entropy("away"), deal="blind"
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    choosers = [_random(1), _random(2)]
    original = wire.send_to_host
    away = {"on": False}

    def send(conn: int, msgs: list) -> None:  # type: ignore[type-arg]
        if conn == 1 and any(isinstance(x, m.AckHand) for x in msgs) and host.hand_number == 0:
            away["on"] = True  # the first hand is over: seat 1 leaves instead of acknowledging
        if not (away["on"] and conn == 1):
            original(conn, msgs)

    wire.send_to_host = send  # type: ignore[method-assign]
    while not away["on"]:  # play the first hand out
        deal = host.deal
        to_play = deal.to_play if deal is not None else None
        for i, c in enumerate(clients):
            v = c.state.view
            if v is not None and v.my_turn and to_play == v.seat:
                wire.send_to_host(i, c.play(choosers[i](v)))
                break
        wire.pump()
    assert host.phase is Phase.ACK
    away["on"] = True
    wire.deliver(host.disconnect(1))
    wire.to_client = type(wire.to_client)(x for x in wire.to_client if x[0] != 1)
    wire.pump()
    wire.deliver(host.tick(host.now + host.timeout + 1))  # the acks' deadline: the next hand
    wire.pump()
    assert host.hand_number == 1
    wire.deliver(host.tick(host.now + host.call_wait))  # nobody answers for the seat away
    wire.pump()
    assert verify_records(host.records).hands[-1].parties == (
        0,
        HOST_PARTY,
    )  # the host plays seat 1
    assert host.seats[1].taken_over
    # it comes back mid-hand: it watches, the host keeps playing its seat until the hand is over
    away["on"] = False
    wire.deliver(host.connect(1))
    wire.send_to_host(1, clients[1].hello())
    wire.pump()
    assert clients[1].state.taken_over and clients[1].state.view is None
    while host.hand_number == 1 and host.phase is not Phase.OVER:
        deal = host.deal
        to_play = deal.to_play if deal is not None else None
        for i, c in enumerate(clients):
            v = c.state.view
            if v is not None and v.my_turn and to_play == v.seat:
                wire.send_to_host(i, c.play(choosers[i](v)))
                break
        wire.pump()
        wire.deliver(host.tick(host.now + 0.1))
        wire.pump()
    if host.phase is not Phase.OVER:  # a third hand: the seat is a party again
        assert verify_records(host.records).hands[-1].parties == (0, 1)
        assert not clients[1].state.taken_over
        play_out(wire, choosers)
    for records in (host.records, clients[0].records, clients[1].records):
        rep = verify_records(records)
        assert rep.blame is None and rep.verdict in ("verified", "unacknowledged"), rep.verdict
    assert verify_records(host.records).hands[0].missing_acks == (1,)


def test_the_hosts_party_opens_only_the_seats_it_plays() -> None:
    host, _clients, wire = _table_with_ai(4, [0, 2], "own-only")
    wire.deliver(host.start())
    wire.pump()
    deal = host.deal
    assert isinstance(deal, BlindDeal) and deal.host_party is not None and deal.bh is not None
    hp, bh = deal.host_party, deal.bh
    assert bh.upcard is not None
    for pos, seat in bh.sched.dealt.items():
        if pos == bh.upcard_position:
            continue
        if seat in (1, 3):
            assert hp.card_at(pos) is not None  # the AI seats it plays
        else:
            assert hp.card_at(pos) is None  # the people's cards stay closed to the host
            assert pos not in hp.openable_positions()
