"""Presence cannot be faked (protocol/fairness.md §11.3): a host that leaves a connected person
out of a blind hand, to play the seat itself and see its cards (and, at 4 players, the cards its
partner shows it), is caught by that seat's own file and client; nobody honest is blamed."""

from __future__ import annotations

import random
from typing import Any

import pytest

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import Present, Receipt, Show, decode
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.table import deal_blind
from briscola_lan.table.client import ClientSession
from briscola_lan.table.deal import Outgoing
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire.messages import Record

from .helpers import counter_entropy


def _random(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda view: rng.choice(view.legal_plays)


class FakeAway(deal_blind.BlindDeal):
    """The honest host's blind deal, but it leaves ``VICTIM`` out of the first hand: it takes
    the seat's answer to the call (with a receipt, unless ``RECEIPT`` is off) and then drops
    it, publishes the call without it and plays the seat itself."""

    VICTIM = 1
    RECEIPT = True
    dropped = False

    def _awaited(self) -> list[int]:
        return [s for s in super()._awaited() if s != self.VICTIM or not self.dropped]

    def _on_present(self, st: Present, rec: Record, out: list[Outgoing]) -> None:
        if st.seat != self.VICTIM or self.number > 0:
            super()._on_present(st, rec, out)
            return
        if self.RECEIPT:
            self.table.receipt(st.seat, self.number, rec, out)
        self.dropped = True  # the answer came: forget it, and close the call without it
        self._end_call_if_answered(out)


def _play(
    monkeypatch: pytest.MonkeyPatch, players: int, *, receipt: bool, victim: int
) -> tuple[HostTable, list[ClientSession], Wire]:
    monkeypatch.setattr(FakeAway, "RECEIPT", receipt)
    monkeypatch.setattr(FakeAway, "VICTIM", victim)
    monkeypatch.setattr("briscola_lan.table.lifecycle.BlindDeal", FakeAway)
    opts = TableOptions.make(players=players, hands_to_win=1)
    host, clients, wire = seat_clients(
        opts, entropy=counter_entropy(f"away{players}{receipt}"), name="t", deal="blind"
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [_random(i) for i in range(players)])
    return host, clients, wire


def _blames(records: list[Record]) -> str | None:
    blame = verify_records(records).blame
    return blame.party if blame is not None else None


@pytest.mark.parametrize("players", [2, 4])
def test_a_seat_left_out_after_its_answer_was_receipted_proves_the_host_at_fault(
    monkeypatch: pytest.MonkeyPatch, players: int
) -> None:
    victim = 1 if players == 2 else 2
    host, clients, _ = _play(monkeypatch, players, receipt=True, victim=victim)
    first = verify_records(host.records).hands[0]
    assert victim not in first.parties and HOST_PARTY in first.parties  # the host played the seat
    # The victim's own file holds the receipt: the host is at fault, at that receipt.
    rep = verify_records(clients[victim].records)
    assert rep.verdict == "failed" and rep.blame is not None and rep.blame.party == "host"
    assert rep.blame.kind == "receipt" and "left seat" in rep.blame.reason
    check = clients[victim].state.checks[0]
    assert check.fault is not None and check.fault.seat == -1
    assert any("left you out" in line for line in clients[victim].state.log)
    # Nobody else's file blames anyone: the host hid the answer from them.
    for i, c in enumerate(clients):
        if i != victim:
            assert _blames(c.records) is None
            assert verify_records(c.records).verdict == "verified"
    if players == 4:
        # What the fake away bought the host: the cards seat 0 showed its partner, the victim.
        shows = [st for b, _ in host.records if isinstance(st := decode(b), Show)]
        assert any(s.seat == 0 and s.partner == victim for s in shows)


def test_a_seat_left_out_without_a_receipt_is_never_blamed(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host that drops the answer leaves no proof: the seat's client says its answer went
    unanswered, and no file blames the seat."""
    host, clients, _ = _play(monkeypatch, 2, receipt=False, victim=1)
    assert 1 not in verify_records(host.records).hands[0].parties
    for records in (host.records, clients[0].records, clients[1].records):
        assert _blames(records) is None
    assert any("the host plays your seat this hand" in line for line in clients[1].state.log)


def test_a_late_answer_is_refused_and_the_seat_is_played_by_the_host() -> None:
    """The call's time runs out with a connected seat silent: the host publishes the answers
    that came and plays the seat; an answer after that is refused, without a receipt."""
    opts = TableOptions.make(players=2, hands_to_win=1)
    host, clients, wire = seat_clients(
        opts, entropy=counter_entropy("late"), name="t", deal="blind"
    )
    held: list[Any] = []
    send = wire.send_to_host

    def hold(conn: int, msgs: list[Any]) -> None:
        keep = [x for x in msgs if not (conn == 1 and type(x).__name__ == "JoinHand")]
        held.extend(x for x in msgs if x not in keep)
        send(conn, keep)

    wire.send_to_host = hold  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert held and host.phase == "call"
    wire.deliver(host.tick(host.now + host.call_wait + 0.1))
    wire.pump()
    assert host.phase != "call"
    assert verify_records(host.records).hands[0].parties == (0, HOST_PARTY)
    before = len(clients[1].state.errors)
    send(1, held)
    wire.pump()
    assert clients[1].state.errors[before].code == "not_allowed"  # the host plays it now
    receipted = [
        decode(st.statement) for b, _ in clients[1].records if isinstance(st := decode(b), Receipt)
    ]
    assert not any(isinstance(x, Present) for x in receipted)
    for records in (host.records, clients[0].records, clients[1].records):
        assert _blames(records) is None


@pytest.mark.parametrize("receipt", [False, True])
def test_every_client_shows_which_seats_the_host_plays_while_it_plays_them(
    monkeypatch: pytest.MonkeyPatch, receipt: bool
) -> None:
    """The seat the host left out is one it plays, in every client's state (the players box
    marks it, the table's trust line names it). Without proof of the answer the seat is back in
    the next hand; a seat whose client caught the host takes no part in later hands, says so,
    and every client shows the host playing it."""
    monkeypatch.setattr(FakeAway, "VICTIM", 2)
    monkeypatch.setattr(FakeAway, "RECEIPT", receipt)
    monkeypatch.setattr("briscola_lan.table.lifecycle.BlindDeal", FakeAway)
    opts = TableOptions.make(players=4, hands_to_win=2)
    host, clients, wire = seat_clients(
        opts, entropy=counter_entropy("shows"), name="t", deal="blind"
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase == "play"
    for c in clients:
        assert c.state.host_plays == (2,)
    choosers = [_random(i) for i in range(4)]
    for _ in range(2000):  # play the first hand out
        if host.hand_number > 0 and host.phase == "play":
            break
        for i, c in enumerate(clients):
            v = c.state.view
            if v is not None and v.my_turn and host.deal is not None and host.deal.to_play == i:
                wire.send_to_host(i, c.play(choosers[i](v)))
                wire.pump()
                break
        else:
            wire.deliver(host.tick(host.now + 1.0))
            wire.pump()
    assert host.hand_number == 1 and host.phase == "play"
    for c in clients:
        assert c.state.host_plays == ((2,) if receipt else ())
    log = clients[2].state.log
    assert not any("verification failed: trick" in line for line in log)
    if receipt:
        assert clients[2].state.taken_over
        assert "takes no part in its later hands" in log[-1]
