"""Signals between partners (fairness.md §12) through the host and its clients: only the partner
reads a signal, the AI partner reads and makes them, every file verifies; a signal at the wrong
moment, twice in a trick, at a table without signals, from a seat the host plays, or with a bad
signature is refused with a clear error and changes nothing; and a host that publishes one it
should have refused, or hides one it receipted, is caught — never the seat."""

from __future__ import annotations

import dataclasses

import pytest

from briscola_lan.fairness.signals import pad, partners_point, seal
from briscola_lan.fairness.statements import Receipt, Signal, decode
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import Card, SeatView, TableOptions
from briscola_lan.rules.signals import SignalValue, truthful
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, counter_entropy, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode


def _table(
    deal: str = "classic", *, signals: bool = True, label: str = "sig"
) -> tuple[HostTable, list[ClientSession], Wire]:
    """Persons in seats 0 to 2, an AI in seat 3 (seat 1's partner); the first deal done."""
    opts = TableOptions.make(players=4, hands_to_win=1, signals=signals)
    host, clients, wire = seat_clients(
        opts, ai_seats={3: "rules"}, entropy=counter_entropy(label), deal=deal
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    wire.deliver(host.tick(host.now))  # the AI seat signals at its first tick of the play
    wire.pump()
    return host, clients, wire


def _errors(c: ClientSession) -> list[str]:
    return [e.code for e in c.state.errors]


def _signals(records: list[tuple[bytes, bytes]]) -> list[Signal]:
    return [st for b, _ in records if isinstance(st := decode(b), Signal)]


@pytest.mark.parametrize("deal", ["classic", "blind"])
def test_only_the_partner_reads_a_signal_and_every_file_verifies(deal: str) -> None:
    host, clients, wire = _table(deal)
    assert clients[0].state.options is not None and clients[0].state.options.signals
    wire.send_to_host(0, clients[0].signal(SignalValue.THREE_OF_TRUMPS))
    wire.pump()
    wire.send_to_host(1, clients[1].signal(SignalValue.NOTHING))
    wire.pump()
    seen = {i: {(x.seat, x.value) for x in c.state.signals} for i, c in enumerate(clients)}
    three, nothing = SignalValue.THREE_OF_TRUMPS, SignalValue.NOTHING
    # seat 0's partner (seat 2) reads its signal; seat 1 sees only that one was made
    assert (0, three) in seen[0] and (0, three) in seen[2]
    assert (0, None) in seen[1] and (1, nothing) in seen[1]
    assert (1, None) in seen[0] and (1, None) in seen[2]
    # the AI in seat 3 read its partner's signal, and made its own, truthful, for seat 1
    assert host.signals.heard_by(3) == ((0, nothing),)
    ai_signal = next(st for st in _signals(host.records) if st.seat == 3)
    view3 = host.deal.view(3) if host.deal is not None else None
    assert view3 is not None and view3.trump is not None
    said = next(x.value for x in clients[1].state.signals if x.seat == 3)
    point = partners_point(host.seat_signer(3).private_bytes(), host.seats[1].key)
    assert said is not None and ai_signal.sealed == seal(
        said, pad(host.game_id, 0, 3, ai_signal.index, point)
    )
    # what each person's hint and review play with: its partner's signals alone
    made = {st.seat: st.index for st in _signals(host.records)}
    assert clients[2].state.partner_signals == ((made[0], three),)
    assert clients[0].state.partner_signals == ()  # seat 2 has not signalled
    assert clients[1].state.partner_signals == ((made[3], said),)
    receipts = [decode(decode(b).statement) for b, _ in clients[0].records if _is_receipt(b)]
    assert any(isinstance(st, Signal) and st.seat == 0 for st in receipts)
    play_out(wire, [lambda v: v.legal_plays[0]] * 3)
    assert host.phase == "over"
    for records in (host.records, *(c.records for c in clients)):
        assert verify_records(records).verdict == "verified"
    assert all(not c.state.errors for c in clients)


def _is_receipt(body: bytes) -> bool:
    return isinstance(decode(body), Receipt)


def test_the_ai_partner_signals_what_it_holds() -> None:
    host, clients, _wire = _table(label="ai")
    view = host.deal.view(3) if host.deal is not None else None
    assert view is not None
    assert len([s for s in _signals(host.records) if s.seat == 3]) == 1  # once a hand
    value = next(x.value for x in clients[1].state.signals if x.seat == 3)
    assert value is truthful(view.hand, view.trump)


def test_refusals_change_nothing() -> None:
    host, clients, wire = _table(label="refuse")
    before = len(host.records)
    # a signal made at another moment (the plays moved on): stale
    st = decode(clients[0].signal(SignalValue.NOTHING)[0].body)  # type: ignore[attr-defined]
    assert isinstance(st, Signal)
    moved = dataclasses.replace(st, index=st.index + 1)
    body = moved.encode()
    wire.send_to_host(0, [m.SendSignal(body, clients[0].identity.sign(body))])
    wire.pump()
    assert _errors(clients[0])[-1] == ErrorCode.STALE_CONTEXT
    # a bad signature
    wire.send_to_host(0, [m.SendSignal(st.encode(), bytes(64))])
    wire.pump()
    assert _errors(clients[0])[-1] == ErrorCode.BAD_SIGNATURE
    # another seat's signal, sent by seat 0
    other = dataclasses.replace(st, seat=2)
    wire.send_to_host(0, [m.SendSignal(other.encode(), clients[0].identity.sign(other.encode()))])
    wire.pump()
    assert _errors(clients[0])[-1] == ErrorCode.NOT_ALLOWED
    # not a signal at all
    wire.send_to_host(0, [m.SendSignal(b"junk", bytes(64))])
    wire.pump()
    assert _errors(clients[0])[-1] == ErrorCode.BAD_STATEMENT
    assert len(host.records) == before  # nothing published
    # the real one goes through; a second in the same trick is refused
    wire.send_to_host(0, clients[0].signal(SignalValue.NOTHING))
    wire.pump()
    assert len(_signals(host.records)) == 2  # the AI's and seat 0's
    with pytest.raises(ValueError, match="already signalled"):
        clients[0].signal(SignalValue.CARICO)
    again = dataclasses.replace(st, sealed=st.sealed ^ 1, context=host.context_for(Signal.KIND))
    wire.send_to_host(0, [m.SendSignal(again.encode(), clients[0].identity.sign(again.encode()))])
    wire.pump()
    assert _errors(clients[0])[-1] == ErrorCode.BAD_STATEMENT
    assert len(_signals(host.records)) == 2
    # the others played on: the host serves every seat as before
    play_out(wire, [lambda v: v.legal_plays[0]] * 3)
    assert host.phase == "over" and verify_records(host.records).ok


def test_a_table_without_signals_refuses_them() -> None:
    host, clients, wire = _table(signals=False, label="off")
    with pytest.raises(ValueError, match="does not allow"):
        clients[0].signal(SignalValue.NOTHING)
    st = Signal(host.game_id, 0, 0, host.context_for(Signal.KIND), 0, 7)
    wire.send_to_host(0, [m.SendSignal(st.encode(), clients[0].identity.sign(st.encode()))])
    wire.pump()
    assert _errors(clients[0])[-1] == ErrorCode.WRONG_PHASE
    assert _signals(host.records) == []
    assert not any(isinstance(decode(b), Signal) for b, _ in clients[1].records)


def test_a_host_that_hides_a_receipted_signal_is_caught_in_the_seats_file() -> None:
    """The host takes seat 0's signal and receipts it, but publishes it to nobody: the other
    files are whole without it, and seat 0's own file names the host at the hand's result,
    never the seat."""
    host, clients, wire = _table(label="hide")
    host.signals._publish = lambda st, rec, out: None  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].signal(SignalValue.NOTHING))
    wire.pump()
    assert not any(st.seat == 0 for st in _signals(host.records))
    play_out(wire, [lambda v: v.legal_plays[0]] * 3)
    rep = verify_records(clients[0].records)
    assert rep.verdict == "failed" and rep.blame is not None and rep.blame.party == "host"
    assert "never published" in rep.blame.reason
    for records in (host.records, clients[1].records, clients[2].records):
        assert verify_records(records).verdict == "verified"


@pytest.mark.parametrize("deal", ["classic", "blind"])
def test_the_ai_seat_plays_with_its_partners_signal_and_never_an_opponents(deal: str) -> None:
    """Every view the host gives the AI in seat 3 carries what its partner (seat 1) signalled,
    read with the AI seat's own key, and nothing of its opponents' signals (seats 0 and 2)."""
    opts = TableOptions.make(players=4, hands_to_win=1, signals=True)
    host, clients, wire = seat_clients(
        opts, ai_seats={3: "strong"}, entropy=counter_entropy("heard"), deal=deal
    )
    views: list[SeatView] = []

    class Recorder:
        def choose(self, view: SeatView) -> Card:
            views.append(view)
            return view.legal_plays[0]

    host.bot_factory = lambda level, seed: Recorder()
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    three, ace, carico = (
        SignalValue.THREE_OF_TRUMPS,
        SignalValue.ACE_OF_TRUMPS,
        SignalValue.CARICO,
    )
    for client, value in zip(clients, (three, carico, ace), strict=True):  # seats 0, 1, 2
        wire.send_to_host(clients.index(client), client.signal(value))
        wire.pump()
    (made,) = [st.index for st in _signals(host.records) if st.seat == 1]
    play_out(wire, [lambda v: v.legal_plays[0]] * 3)
    assert host.phase == "over" and len(views) == 10
    assert all(v.seat == 3 for v in views)
    assert {x for v in views for x in v.partner_signals} == {(made, carico)}
    assert views[-1].partner_signals == ((made, carico),)
    assert verify_records(host.records).verdict == "verified"
