"""The host killed (SIGKILL) at random instants of a match, again and again, each time started
again with ``--resume`` from its default journal: every statement a player holds a receipt
for is held by the host that comes back (in its transcript, or taken and waiting for the rest
of its round), the players' clients rejoin by themselves (the same address, port, certificate
and host key), and the match plays on to a verified end whose transcript holds every one.
"""

from __future__ import annotations

import asyncio
import random
import signal
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.statements import Receipt, decode
from briscola_lan.fairness.transcript import load as load_transcript
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.files import load_or_create_identity
from briscola_lan.net.journal import Journal
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.wire.codec import unpack_state
from tests.net.procs import Host, start_host

LO = ("--interfaces", "127.0.0.1")
T = TypeVar("T")


def _receipted(client: TableClient) -> set[bytes]:
    """The statements this player holds the host's receipt for."""
    out = set()
    for body, _sig in client.session.records:
        st = decode(body)
        if isinstance(st, Receipt):
            out.add(st.statement)
    return out


def _journaled(config: Path) -> set[bytes]:
    """Every statement the host's journal holds (what a restarted host comes back with): its
    transcript, and the statements it took and publishes once their round is complete (seed
    commitments and reveals, a blind hand's pending statements, acknowledgements)."""
    identity = load_or_create_identity(config / "briscola-lan")
    path = config / "state" / "briscola-lan" / "host" / "table.journal"
    journal = Journal.open(path, identity.public_key)
    try:
        table = journal.load(identity)
    finally:
        journal.close()
    assert table is not None
    held: set[bytes] = set()
    stack: list[object] = [unpack_state(table.snapshot())["state"]]
    while stack:
        obj = stack.pop()
        if isinstance(obj, bytes):
            held.add(obj)
        elif isinstance(obj, dict):
            stack.extend(v for k, v in obj.items() if k != "messages")  # not what it sent
        elif isinstance(obj, list):
            stack.extend(obj)
    return held


async def _off_loop(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` in a thread of its own, gone when it returns (no thread outlives a test).
    A StopIteration it raises comes back as a RuntimeError: an asyncio future cannot carry
    one, and the test would wait for it until its timeout."""

    def call() -> T:
        try:
            return fn(*args)
        except StopIteration as exc:
            raise RuntimeError(f"{fn.__name__} raised StopIteration") from exc

    with ThreadPoolExecutor(1) as pool:
        return await asyncio.get_running_loop().run_in_executor(pool, call)


def _host(config: Path, *args: str) -> Host:
    return start_host(config, "--no-mdns", *LO, "--tick", "0.02", "--grace", "120",
                      "--timeout", "120", *args)  # fmt: skip


@pytest.mark.parametrize(
    ("seed", "players", "args"),
    [
        (1, 1, ("--players", "2", "--ai", "1", "--hands-to-win", "1")),
        (2, 2, ("--players", "2", "--deal", "blind", "--hands-to-win", "1")),
        (3, 2, ("--players", "4", "--ai", "2", "--hands-to-win", "1", "--deal", "classic")),
    ],
    ids=["classic-vs-ai", "blind-two-people", "4p-two-people-two-ai"],
)
async def test_kills_at_random_instants_lose_no_receipted_statement(
    tmp_path: Path, seed: int, players: int, args: tuple[str, ...]
) -> None:
    """Killed during the hand's set-up and at five random cards (a few ms after the card
    leaves the player: while the host reads it, writes its journal or sends what follows)."""
    rng = random.Random(seed)
    config = tmp_path / "h"
    host = await _off_loop(_host, config, *args)
    hosts = [host]
    target = Target("127.0.0.1", host.port, None, host.fingerprint)
    clients = [await connect(target, f"P{i}") for i in range(players)]
    seats = [0, 1] if "--ai" not in args else [0, 2][:players]
    cards, up = [0], asyncio.Event()
    up.set()

    async def gate() -> None:  # a card is played once the host is back
        await up.wait()
        cards[0] += 1

    plays = [
        asyncio.create_task(
            auto_play(
                c, make_chooser("random", seed + i), seat=s, delay=0.01, timeout=300, gate=gate
            )
        )
        for i, (c, s) in enumerate(zip(clients, seats, strict=True))
    ]
    points = [0, *sorted(rng.sample(range(1, 18), 5))]  # the cards played before each kill
    kills = 0
    try:
        for point in points:
            while cards[0] < point and not all(p.done() for p in plays):
                await asyncio.sleep(0.005)
            await asyncio.sleep(rng.uniform(0.0, 0.05) if point else rng.uniform(0.05, 0.3))
            before = [c.reconnects for c in clients]
            up.clear()
            hosts[-1].proc.send_signal(signal.SIGKILL)
            await _off_loop(hosts[-1].proc.wait, 10)
            kills += 1
            held = set().union(*(_receipted(c) for c in clients))
            kept = _journaled(config)
            assert held <= kept, f"kill {kills}: {len(held - kept)} receipted statements lost"
            again = await _off_loop(_host, config, "--resume")
            hosts.append(again)
            assert again.port == host.port and again.fingerprint == host.fingerprint
            for c, n in zip(clients, before, strict=True):  # back at the table by itself
                assert await c.wait_for(lambda c=c, n=n: c.reconnects > n and c.live, 30)
            up.set()
        results = await asyncio.wait_for(asyncio.gather(*plays), 300)
        assert kills == len(points)
        for c in clients:
            st = c.session.state
            assert st.match_over and not st.match_aborted, st.log
            assert st.checks and all(ch.status == "verified" for ch in st.checks), st.log
            assert verify_records(c.session.records).ok
            assert c.reconnects >= kills  # each time the client came back by itself
        assert all(r.plays > 0 for r in results)
        held = set().union(*(_receipted(c) for c in clients))
        assert hosts[-1].stop() == 0
    finally:
        for c in clients:
            await c.close()
        for p in plays:
            p.cancel()
        for h in hosts:
            if h.proc.poll() is None:
                h.stop(signal.SIGKILL)
    games = sorted((config / "data" / "briscola-lan" / "games").glob("*-host.briscola.json"))
    (saved,) = games
    records = load_transcript(saved)
    report = verify_records(records)
    assert report.ok and report.match_over, report
    assert held <= {body for body, _ in records}
