"""The network host checks a blind hand's key reveals off its event loop: it publishes them
first (the players check them meanwhile), hands the work to a worker, and moves on with the
worker's result; a wrong reveal still aborts the hand naming its party, whichever way the check
is made, and the files are the same as when the host checks the reveals at once."""

from __future__ import annotations

import contextlib
import dataclasses
import random

import pytest

from briscola_lan.fairness.statements import Abort, KeyReveal, Receipt, decode
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.table.deal import Outgoing, Phase
from briscola_lan.table.deal_blind import CHECKS_WAIT, BlindDeal
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m

from .helpers import counter_entropy

OPTIONS = TableOptions.make(players=4, hands_to_win=1)


def _random(seed: int):  # type: ignore[no-untyped-def]
    rng = random.Random(seed)
    return lambda view: rng.choice(view.legal_plays)


def _table(label: str, *, defer: bool) -> tuple[HostTable, Wire]:
    host, _, wire = seat_clients(OPTIONS, entropy=counter_entropy(label), deal="blind")
    host.defer_checks = defer
    return host, wire


def _timeless(records: list[tuple[bytes, bytes]]) -> list[object]:
    out: list[object] = []
    for body, sig in records:
        st = decode(body)
        out.append(dataclasses.replace(st, time=0) if isinstance(st, Receipt) else (body, sig))
    return out


def _worker(host: HostTable, seen: list[tuple[int, int]], how: str) -> None:
    """After every message the host takes: the work it hands out, run as its worker thread
    would (``how="worker"``), or not run (``"loop"``: the host makes the check itself once it
    has waited long enough; the worker's late result is then ignored)."""
    receive = host.receive

    def receive_and_check(conn: int, msg: m.Message) -> list[Outgoing]:
        out = receive(conn, msg)
        checks = host.pending_checks()
        if checks is None:
            return out
        deal = host.deal
        assert isinstance(deal, BlindDeal) and deal.bh is not None
        n = len(deal.bh.parties)
        assert all(isinstance(decode(r[0]), KeyReveal) for r in host.records[-n:])
        assert any(isinstance(o.message, m.KeysRevealed) for o in out)  # out before checked
        seen.append((len(deal.bh.reveals), len(deal.unchecked)))
        assert host.phase is Phase.REVEAL and host.pending_checks() is None  # handed out once
        if how == "worker":
            return out + host.checks_done(checks, checks.run())
        out += host.tick(host.now + CHECKS_WAIT)  # no result came: the host's tick checks
        assert host.checks_done(checks, checks.run()) == []  # made already: ignored
        return out

    host.receive = receive_and_check  # type: ignore[method-assign]


@pytest.mark.parametrize("how", ["worker", "loop"])
def test_deferred_checks_give_the_same_match_as_checks_made_at_once(how: str) -> None:
    runs = {}
    for defer in (False, True):
        host, wire = _table(f"defer-{how}", defer=defer)
        seen: list[tuple[int, int]] = []
        _worker(host, seen, how)
        wire.deliver(host.start())
        wire.pump()
        play_out(wire, [_random(i) for i in range(4)])
        assert host.phase is Phase.OVER and not host.internal_errors
        assert (bool(seen), seen[:1]) == ((True, [(0, 4)]) if defer else (False, []))
        files = [host.records] + [c.records for c in wire.clients]
        assert all(verify_records(records).verdict == "verified" for records in files)
        runs[defer] = [_timeless(records) for records in files]
        assert all(ch.status == "verified" for c in wire.clients for ch in c.state.checks)
    # The same statements, in the same order, in every file (a receipt's time is the clock's).
    assert runs[True] == runs[False]


def _lying_party_match(how: str) -> tuple[HostTable, Wire, list[object]]:
    """A 4-player blind match whose seat 2 reveals a secret that is not its own; the host's
    checks made at once (``how="at-once"``), or handed out and made ``how`` it says."""
    host, wire = _table("wrong", defer=how != "at-once")
    liar = wire.clients[2]
    real_send = wire.send_to_host

    def send(conn: int, msgs: list[m.Message]) -> None:
        out = []
        for msg in msgs:
            sent = msg
            if conn == 2 and isinstance(msg, m.RevealKeys):
                st = decode(msg.body)
                assert isinstance(st, KeyReveal)
                body = dataclasses.replace(st, secret=bytes(32)).encode()
                sent = m.RevealKeys(body, liar.identity.sign(body))
            out.append(sent)
        real_send(conn, out)

    wire.send_to_host = send  # type: ignore[method-assign]
    handed: list[object] = []
    receive = host.receive

    def receive_and_check(conn: int, msg: m.Message) -> list[Outgoing]:
        out = receive(conn, msg)
        checks = host.pending_checks()
        if checks is None:
            return out
        handed.append(checks)
        if how == "worker":
            return out + host.checks_done(checks, checks.run())
        if how == "loop":
            return out + host.tick(host.now + CHECKS_WAIT)
        return out + receive(0, m.SetReady(True))  # any message first makes the check

    host.receive = receive_and_check  # type: ignore[method-assign]
    wire.deliver(host.start())
    wire.pump()
    with contextlib.suppress(RuntimeError):  # the table may stop there, as it does at once
        play_out(wire, [_random(i) for i in range(4)], max_idle=20)
    return host, wire, handed


def _outcome(host: HostTable, wire: Wire) -> list[object]:
    """The host's aborts (hand, seat named, reason) and every file's verdict and fault."""
    sts = [decode(body) for body, _ in host.records]
    out: list[object] = [[(st.hand, st.seat, st.reason) for st in sts if isinstance(st, Abort)]]
    for records in [host.records] + [c.records for c in wire.clients]:
        rep = verify_records(records)
        out.append((rep.verdict, rep.fault and (rep.fault.seat, rep.fault.reason)))
    return out


@pytest.mark.parametrize("how", ["worker", "loop", "next-message"])
def test_a_wrong_key_reveal_is_its_partys_fault_however_the_host_checks_it(how: str) -> None:
    reference, ref_wire, none = _lying_party_match("at-once")
    assert not none
    aborts, *files = _outcome(reference, ref_wire)
    assert aborts and aborts[0][1] == 2, aborts  # type: ignore[index]  # the host names seat 2
    assert all(fault is not None and fault[0] == 2 for _, fault in files), files  # type: ignore[misc]
    host, wire, handed = _lying_party_match(how)
    assert handed, "the reveals were not handed out"
    assert _outcome(host, wire) == _outcome(reference, ref_wire)


def test_a_host_restarted_before_its_check_of_a_wrong_reveal_names_the_party_at_once() -> None:
    """The host's state was saved with the reveals published and not checked (it died in the
    worker's few milliseconds): the restored host makes the check at its first tick."""
    host, wire = _table("wrong-restart", defer=True)
    liar = wire.clients[2]
    real_send = wire.send_to_host
    saved: list[bytes] = []

    def send(conn: int, msgs: list[m.Message]) -> None:
        out = []
        for msg in msgs:
            sent = msg
            if conn == 2 and isinstance(msg, m.RevealKeys):
                st = decode(msg.body)
                assert isinstance(st, KeyReveal)
                body = dataclasses.replace(st, secret=bytes(32)).encode()
                sent = m.RevealKeys(body, liar.identity.sign(body))
            out.append(sent)
        real_send(conn, out)

    wire.send_to_host = send  # type: ignore[method-assign]
    receive = host.receive

    def receive_and_save(conn: int, msg: m.Message) -> list[Outgoing]:
        out = receive(conn, msg)
        if host.pending_checks() is not None and not saved:
            saved.append(host.snapshot())
        return out

    host.receive = receive_and_save  # type: ignore[method-assign]
    wire.deliver(host.start())
    wire.pump()
    with contextlib.suppress(RuntimeError):
        play_out(wire, [_random(i) for i in range(4)], max_idle=5)
    assert saved, "the reveals were not handed out"
    again = HostTable.restore(saved[0], identity=host.identity)
    again.tick(again.now + 0.1)
    sts = [decode(body) for body, _ in again.records]
    aborts = [(st.seat, st.reason) for st in sts if isinstance(st, Abort)]
    assert aborts == [(2, "the shuffle pass is not what the revealed keys give")], aborts
