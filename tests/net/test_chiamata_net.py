"""Five players, Briscola chiamata, over the network, dealt classic and blind:
``briscola-lan host --players 5`` (its points-to-win, no-double and match-hands options) played
to its end by people's bots and the host's AI seats over TLS on loopback; the saved game passes
``briscola-lan verify``; the host killed in the middle of the match (its auction included) comes
back with ``--resume`` from its journal and the match plays on to a verified end; ``bot`` and
``join --line`` play the blind deal."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.statements import BidStatement, CallStatement, MatchOptions, decode
from briscola_lan.fairness.transcript import load as load_transcript
from briscola_lan.net.client import Target
from briscola_lan.net.player import auto_play, connect, make_chooser
from tests.net.procs import Host, cli_env, finish, spawn, start_host

LO = ("--interfaces", "127.0.0.1")


async def _off_loop(fn: Any, *args: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)


def _host(config: Path, *args: str) -> Host:
    return start_host(config, "--no-mdns", *LO, "--tick", "0.02", "--grace", "120",
                      "--timeout", "120", *args)  # fmt: skip


FIVE = ("--players", "5", "--points-to-win", "65", "--no-double", "--match-hands", "2")


@pytest.mark.parametrize("deal", ["classic", "blind"])
async def test_host_players_5_plays_a_whole_match_that_verifies(tmp_path: Path, deal: str) -> None:
    config = tmp_path / "h"
    host = await _off_loop(_host, config, *FIVE, "--ai", "2", "--ai-level", "rules", "--deal", deal)
    target = Target("127.0.0.1", host.port, None, host.fingerprint)
    clients = [await connect(target, f"P{i}") for i in range(3)]
    try:
        results = await asyncio.wait_for(
            asyncio.gather(
                *(
                    auto_play(c, make_chooser("rules", i), seat=i, timeout=240)
                    for i, c in enumerate(clients)
                )
            ),
            240,
        )
        assert all(r.plays > 0 for r in results)
        for c in clients:
            st = c.session.state
            assert st.match_over and not st.match_aborted, st.log
            assert st.checks and all(ch.status == "verified" for ch in st.checks), st.log
            assert st.options is not None and st.options.points_to_win == 65
            assert not st.options.double_all and st.options.match_hands == 2
            assert len(st.scores) == 5 and sum(st.scores) == 0
        assert host.stop() == 0
    finally:
        for c in clients:
            await c.close()
        if host.proc.poll() is None:
            host.stop(signal.SIGKILL)
    (saved,) = sorted((config / "data" / "briscola-lan" / "games").glob("*-host.briscola.json"))
    sts = [decode(b) for b, _ in load_transcript(saved)]
    assert any(isinstance(st, BidStatement) for st in sts)
    assert any(isinstance(st, CallStatement) for st in sts)
    (opts,) = [st for st in sts if isinstance(st, MatchOptions)]
    assert opts.options == ("double_all=off", "match_hands=2", "points_to_win=65")
    done = await _off_loop(
        lambda: subprocess.run(
            [sys.executable, "-m", "briscola_lan", "verify", str(saved)],
            check=False,
            capture_output=True,
            text=True,
            env=cli_env(config),
            timeout=60,
        )
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "verified" in done.stdout
    assert verify_records(load_transcript(saved)).deal == deal


@pytest.mark.parametrize("deal", ["classic", "blind"])
async def test_a_five_player_host_killed_mid_match_resumes_from_its_journal(
    tmp_path: Path, deal: str
) -> None:
    config = tmp_path / "h"
    host = await _off_loop(
        _host, config, "--players", "5", "--match-hands", "1", "--ai", "3", "--deal", deal
    )
    hosts = [host]
    target = Target("127.0.0.1", host.port, None, host.fingerprint)
    clients = [await connect(target, f"P{i}") for i in range(2)]
    moves, up = [0], asyncio.Event()
    up.set()

    async def gate() -> None:  # a bid, a call or a card is made once the host is back
        await up.wait()
        moves[0] += 1

    plays = [
        asyncio.create_task(
            auto_play(c, make_chooser("rules", i), seat=i, delay=0.01, timeout=300, gate=gate)
        )
        for i, c in enumerate(clients)
    ]
    try:
        for point in (1, 8):  # in the auction (after a first bid), then in the play
            while moves[0] < point and not all(p.done() for p in plays):
                await asyncio.sleep(0.005)
            await asyncio.sleep(0.02)
            before = [c.reconnects for c in clients]
            up.clear()
            hosts[-1].proc.send_signal(signal.SIGKILL)
            await _off_loop(hosts[-1].proc.wait, 10)
            again = await _off_loop(_host, config, "--resume")
            hosts.append(again)
            assert again.port == host.port and again.fingerprint == host.fingerprint
            for c, n in zip(clients, before, strict=True):
                assert await c.wait_for(lambda c=c, n=n: c.reconnects > n and c.live, 30)
            up.set()
        await asyncio.wait_for(asyncio.gather(*plays), 300)
        for c in clients:
            st = c.session.state
            assert st.match_over and not st.match_aborted, st.log
            assert st.checks and all(ch.status == "verified" for ch in st.checks), st.log
            assert verify_records(c.session.records).ok
        assert hosts[-1].stop() == 0
    finally:
        for c in clients:
            await c.close()
        for p in plays:
            p.cancel()
        for h in hosts:
            if h.proc.poll() is None:
                h.stop(signal.SIGKILL)
    (saved,) = sorted((config / "data" / "briscola-lan" / "games").glob("*-host.briscola.json"))
    report = verify_records(load_transcript(saved))
    assert report.ok and report.match_over and report.deal == deal, report


async def test_bot_and_line_client_play_a_blind_five_player_match(tmp_path: Path) -> None:
    """``briscola-lan bot`` and ``join --line`` (its auto mode) bid, call and play a blind
    five-player match beside a player and the host's two AI seats; every file verifies and the
    host's names each call and score."""
    config = tmp_path / "h"
    host = await _off_loop(
        _host, config, "--players", "5", "--match-hands", "1", "--ai", "2", "--deal", "blind"
    )
    target = (f"127.0.0.1:{host.port}", "--fingerprint", host.fingerprint)
    player = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "P0")
    line = ("join", *target, "--seat", "2", "--line", "--auto", "rules", "--name", "J")
    procs = [
        spawn(tmp_path / "b", "bot", *target, "--seat", "1", "--level", "rules", "--name", "B"),
        spawn(tmp_path / "j", *line),
    ]
    try:
        await asyncio.wait_for(
            auto_play(player, make_chooser("rules", 0), seat=0, timeout=240), 240
        )
        st = player.session.state
        assert st.match_over and not st.match_aborted, st.log
        assert st.checks and all(ch.status == "verified" for ch in st.checks), st.log
        for p in procs:
            code, out = await _off_loop(finish, p, 60)
            assert code == 0 and "match over" in out, out
        assert host.stop() == 0
    finally:
        await player.close()
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
        if host.proc.poll() is None:
            host.stop(signal.SIGKILL)
    (saved,) = sorted((config / "data" / "briscola-lan" / "games").glob("*-host.briscola.json"))
    report = verify_records(load_transcript(saved))
    assert report.ok and report.match_over and report.deal == "blind"
    assert all(h.call is not None for h in report.hands if not h.passed_out)
    for folder in ("b", "j"):
        (mine,) = sorted((tmp_path / folder / "data" / "briscola-lan" / "games").glob("*.json"))
        assert verify_records(load_transcript(mine)).ok
