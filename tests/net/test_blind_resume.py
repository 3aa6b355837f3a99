"""Crashes in a blind hand, as real processes: a player's client killed (SIGKILL) after its
shuffle pass and again mid-play comes back with the same config dir, takes its seat back, loads
its hand secret from its private secrets file and sends what it owes; the host killed mid-hand
resumes from its journal (``--state-dir``, ``--resume``) and the blind hand goes on, with AI
seats too (the host is then a party: its hand secret is in the journal). Every file verifies;
the secrets are in 0600 files in 0700 folders and are gone once the game is over."""

from __future__ import annotations

import asyncio
import stat
import subprocess
from collections.abc import Awaitable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import msgpack
import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import KeyReveal, decode
from briscola_lan.fairness.transcript import load as load_transcript
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.journal import parse
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.wire.messages import LockDeck
from tests.net.procs import Host, finish, spawn, start_host

LO = ("--interfaces", "127.0.0.1")


def _games(config: Path) -> list[Path]:
    return sorted((config / "data" / "briscola-lan" / "games").glob("*.briscola.json"))


def _private(path: Path, upto: Path) -> None:
    """``path`` is mode 0600 and every folder from it up to ``upto`` is 0700."""
    assert stat.S_IMODE(path.stat().st_mode) == 0o600, path
    folder = path.parent
    while True:
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
        if folder == upto:
            return
        folder = folder.parent


def _seeds(path: Path) -> dict[tuple[bytes, int], bytes]:
    obj = msgpack.unpackb(path.read_bytes(), raw=False)
    assert obj["format"] == "briscola-lan-client-secrets"
    return {(bytes(g), h): bytes(s) for g, h, s in obj["seeds"]}


async def _finish(proc: subprocess.Popen[str], timeout: float) -> tuple[int, str]:
    with ThreadPoolExecutor(1) as pool:
        return await asyncio.get_running_loop().run_in_executor(pool, finish, proc, timeout)


def _kill(proc: subprocess.Popen[str]) -> None:
    proc.kill()
    proc.wait()
    if proc.stdout is not None:
        proc.stdout.close()


async def _verify_file(tmp_path: Path, path: Path) -> str:
    code, out = await _finish(spawn(tmp_path / "v", "verify", str(path)), 60)
    assert code == 0 and "VERIFIED" in out, out
    return out


class Held:
    """Keeps the replies of some kinds a client's session makes, until released."""

    def __init__(self, client: TableClient, kinds: tuple[type, ...]) -> None:
        self.client, self.kinds, self.on = client, kinds, True
        self.held: list[Any] = []
        receive = client.session.receive

        def holding(message: Any) -> list[Any]:
            replies = receive(message)
            if not self.on:
                return replies  # type: ignore[no-any-return]
            self.held.extend(r for r in replies if isinstance(r, kinds))
            return [r for r in replies if not isinstance(r, kinds)]

        client.session.receive = holding

    def release(self) -> None:
        self.on = False
        self.client.send(*self.held)
        self.held.clear()


class Gate:
    """A gate for ``auto_play``: from ``plays`` cards in the hand on, the client stops at its
    next turn (``waiting`` is set) until ``go`` is set."""

    def __init__(self, client: TableClient, plays: int) -> None:
        self.client, self.plays = client, plays
        self.waiting, self.go = asyncio.Event(), asyncio.Event()

    async def __call__(self) -> None:
        bh = self.client.session._checker.blind
        if not self.go.is_set() and bh is not None and len(bh.plays) >= self.plays:
            self.waiting.set()
            await self.go.wait()


async def _first(*waits: Awaitable[Any], timeout: float) -> None:
    """Until the first of ``waits`` is done (or the timeout); the others are cancelled."""
    tasks = [asyncio.ensure_future(w) for w in waits]
    try:
        await asyncio.wait(tasks, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


def _lines(client: TableClient, text: str) -> int:
    return sum(text in line for line in client.session.state.log)


@pytest.mark.parametrize(
    ("command", "home"),
    [
        (("join", "--line", "--auto", "random", "--name", "J"), "."),
        (("bot", "--level", "random", "--name", "B"), "bots/B"),
    ],
    ids=["join", "bot"],
)
async def test_a_client_killed_mid_hand_comes_back_with_its_hand_secret(
    tmp_path: Path, command: tuple[str, ...], home: str
) -> None:
    host = start_host(tmp_path / "h", "--players", "2", "--no-mdns", *LO, "--hands-to-win", "1",
                      "--grace", "60", "--deal", "blind", "--tick", "0.02")  # fmt: skip
    other = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "other")
    locks = Held(other, (LockDeck,))
    gate = Gate(other, 6)
    args = (command[0], f"127.0.0.1:{host.port}", "--fingerprint", host.fingerprint,
            "--seat", "1", *command[1:])  # fmt: skip
    config = tmp_path / "j" / "briscola-lan"
    secrets = config / home / "resume_secrets" / f"127.0.0.1%3A{host.port}"
    procs = [spawn(tmp_path / "j", *args)]
    try:
        task = asyncio.create_task(auto_play(other, make_chooser("random", 0), seat=0, gate=gate))
        st = other.session.state

        def shuffled_by_seat_1() -> bool:
            bh = other.session._checker.blind
            return bh is not None and len(bh.shuffles) == 2

        assert await other.wait_for(shuffled_by_seat_1, 60), st.log
        assert locks.held  # seat 0 keeps its lock: seat 1 owes nothing now
        (game_id,) = {g for g, _ in _seeds(secrets)}
        saved = _seeds(secrets)[(game_id, 0)]
        _private(secrets, config)
        _kill(procs[0])  # 1: after its shuffle pass
        assert await other.wait_for(lambda: _lines(other, "seat 1 lost its connection") == 1, 30)
        locks.release()  # the hand now waits for seat 1's lock, with seat 1 away
        procs.append(spawn(tmp_path / "j", *args))  # same config dir: token and secrets
        assert await other.wait_for(lambda: _lines(other, "seat 1 reconnected") == 1, 60)
        # 2: mid-play, when the hand waits for seat 0 (a restarted seat 1 without its secret
        # could not open its cards: the hand would be disputed and the match over by now)
        await _first(gate.waiting.wait(), other.wait_for(lambda: st.match_over), timeout=120)
        assert gate.waiting.is_set() and not st.match_over, st.log
        _kill(procs[1])
        assert await other.wait_for(lambda: _lines(other, "seat 1 lost its connection") == 2, 30)
        gate.go.set()  # my card: the hand now waits for seat 1 (its card or its keys)
        procs.append(spawn(tmp_path / "j", *args))
        await asyncio.wait_for(task, 180)
        code, out = await _finish(procs[2], 60)
        assert code == 0, out
        assert _lines(other, "seat 1 reconnected") == 2
        assert st.match_over and not st.match_aborted, st.log
        assert all(ch.status == "verified" for ch in st.checks), st.log
        assert verify_records(other.session.records).ok
        (mine,) = _games(tmp_path / "j")
        await _verify_file(tmp_path, mine)
        assert host.stop() == 0
        (hosts,) = _games(tmp_path / "h")
        await _verify_file(tmp_path, hosts)
        revealed = [
            st.secret
            for body, _ in load_transcript(hosts)
            if isinstance(st := decode(body), KeyReveal) and (st.hand, st.seat) == (0, 1)
        ]
        assert revealed == [saved]  # the secret it saved is the one its passes were made with
        assert _seeds(secrets) == {}  # the game is over: no secret of it is kept
        assert msgpack.unpackb(secrets.read_bytes())["over"] == game_id
        _private(secrets, config)
    finally:
        for p in procs:
            if p.poll() is None:
                _kill(p)
        await other.close()
        host.stop()


# --- the host killed mid-hand -----------------------------------------------------------------


def _host_secret(journal: Path) -> bytes:
    """The host's hand secret in its journal (empty when it holds none)."""
    rest = parse(journal.read_bytes(), str(journal)).rest
    assert rest is not None
    deal: Any = rest["deal"]
    return b"" if deal is None or deal["mode"] != "blind" else bytes(deal["host_secret"])


def _restart(tmp_path: Path, state: Path, *extra: str) -> Host:
    return start_host(tmp_path / "h", "--state-dir", str(state), "--resume", "--no-mdns", *LO,
                      "--tick", "0.02", "--grace", "60", *extra)  # fmt: skip


@pytest.mark.parametrize(
    ("ai", "when", "down"),
    [(0, "passes", 0.0), (2, "play", 0.0), (0, "lock", 7.0), (2, "lock", 7.0)],
    ids=["passes", "play-with-ai-seats", "down-past-the-timeout", "ai-seats-down-past-the-timeout"],
)
async def test_the_host_killed_mid_hand_resumes_the_blind_hand(
    tmp_path: Path, ai: int, when: str, down: float
) -> None:
    """Killed while the parties pass the deck, in play, or while the hand waits for a lock pass
    (and down for longer than the statement timeout: the time the host was away is nobody's)."""
    state = tmp_path / "state"
    timeout = ("--timeout", "6") if down else ()
    host = start_host(tmp_path / "h", "--players", "4", "--no-mdns", *LO, "--hands-to-win", "1",
                      "--deal", "blind", "--state-dir", str(state), "--tick", "0.02",
                      "--grace", "60", "--ai", str(ai), "--ai-level", "random",
                      *timeout)  # fmt: skip
    where = ("--fingerprint", host.fingerprint)
    humans = [0, 2] if ai == 2 else [0, 1, 2, 3]
    bots = []
    for s in humans[1:]:
        args = ("bot", f"127.0.0.1:{host.port}", *where, "--seat", str(s), "--level", "random",
                "--name", f"B{s}")  # fmt: skip
        bots.append(spawn(tmp_path / f"b{s}", *args))
    hosts = [host]
    me = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "me")
    held = Held(me, (LockDeck,)) if when == "lock" else None
    try:
        task = asyncio.create_task(auto_play(me, make_chooser("random", 0), seat=0))

        def moment() -> bool:
            bh = me.session._checker.blind
            if bh is None:
                return False
            if when == "passes":
                return len(bh.shuffles) >= 2
            if when == "lock":
                return held is not None and bool(held.held)
            return len(bh.plays) >= 8

        assert await me.wait_for(moment, 90), me.session.state.log
        journal = state / "table.journal"
        for path in (journal, state / "table.journal.lock"):
            _private(path, state)
        _kill(host.proc)
        assert len(_host_secret(journal)) == (32 if ai else 0)  # a party: its secret is kept
        if down:
            await asyncio.sleep(down)  # the host is away this long (the scenario, not a wait)
        if held is not None:
            held.on = False  # the resumed seat sends its lock again after the replay
        hosts.append(_restart(tmp_path, state, *timeout))
        assert hosts[1].port == host.port
        await asyncio.wait_for(task, 180)
        results = [await _finish(b, 60) for b in bots]
        st = me.session.state
        assert st.match_over and not st.match_aborted, st.log
        assert all(ch.status == "verified" for ch in st.checks), st.log
        assert me.reconnects >= 1
        assert verify_records(me.session.records).ok
        assert [code for code, _ in results] == [0] * len(bots), results
        assert hosts[1].stop() == 0
        (saved,) = [p for p in _games(tmp_path / "h") if p.name.endswith("-host.briscola.json")]
        await _verify_file(tmp_path, saved)
        for s in humans[1:]:
            (theirs,) = _games(tmp_path / f"b{s}")
            await _verify_file(tmp_path, theirs)
        first = verify_records(load_transcript(saved)).hands[0]
        assert (HOST_PARTY in first.parties) == bool(ai)
    finally:
        for b in bots:
            if b.poll() is None:
                _kill(b)
        for h in hosts:
            h.stop()
        await me.close()
