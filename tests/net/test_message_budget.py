"""A connection that sends more than its message budget is read no more until the budget
refills (TCP holds it back): its messages are all handled, later, and the table's other
connections are answered at once meanwhile (protocol/transport.md 7.1)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from briscola_lan.net.admission import MessageBudget
from briscola_lan.wire.messages import Hello, Ping, Pong, SeatsChanged, TakeSeat
from tests.net.helpers import LobbyTable, RawPeer, start_host

HELLO = Hello(1, "p", b"k" * 32)  # the lobby fake welcomes any hello


def test_the_budget_gives_its_burst_then_its_rate() -> None:
    now = [0.0]
    b = MessageBudget(100.0, 50, clock=lambda: now[0])
    assert b.take(80) == 50  # the burst
    assert b.take(10) == 0 and b.wait(10) == pytest.approx(0.1)
    now[0] += 0.1
    assert b.take(80) == 10  # 100 a second
    now[0] += 10.0
    assert b.take(80) == 50  # never more than the burst
    with pytest.raises(ValueError):
        MessageBudget(0.0, 10)


async def _pongs(peer: RawPeer, want: int, until: float) -> int:
    got = 0
    while got < want and time.monotonic() < until:
        try:
            message = await peer.next(timeout=max(0.01, until - time.monotonic()))
        except TimeoutError:
            break
        got += isinstance(message, Pong)
    return got


async def test_a_flood_is_paced_and_the_others_are_answered_at_once(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, _ = await start_host(tmp_path, table, messages=(400.0, 100))
    try:
        flood, other = await RawPeer.open(port), await RawPeer.open(port)
        for peer in (flood, other):
            peer.send(HELLO)
            await peer.next()
        t0 = time.monotonic()
        for n in range(1, 601):
            flood.send(Ping(n))
        # The burst at once, then 400 a second: after 0.25 s about 200, far from 600.
        early = await _pongs(flood, 600, t0 + 0.25)
        assert 100 <= early <= 100 + 400 * 0.35, early
        # Meanwhile another connection is answered at once.
        t1 = time.monotonic()
        other.send(TakeSeat(2))
        assert isinstance(await other.next(timeout=2.0), SeatsChanged)
        assert time.monotonic() - t1 < 0.2
        # Nothing is lost: every ping is answered, at the budget's pace.
        rest = await _pongs(flood, 600 - early, time.monotonic() + 5.0)
        assert early + rest == 600
        assert time.monotonic() - t0 >= (600 - 100) / 400 * 0.8
        assert flood.writer.transport is not None and not flood.writer.is_closing()
        await flood.close()
        await other.close()
    finally:
        await server.close()


async def test_a_burst_under_the_budget_is_answered_at_once(tmp_path: Path) -> None:
    table = LobbyTable()
    server, port, _ = await start_host(tmp_path, table, messages=(10.0, 200))
    try:
        peer = await RawPeer.open(port)
        peer.send(HELLO)
        await peer.next()
        t0 = time.monotonic()
        for n in range(1, 151):
            peer.send(Ping(n))
        assert await _pongs(peer, 150, t0 + 2.0) == 150
        assert time.monotonic() - t0 < 1.0  # not paced: 150 is within the burst of 200
        await peer.close()
    finally:
        await server.close()
