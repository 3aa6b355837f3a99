"""The real command in child processes: host, tables, join and bots playing whole matches;
a host killed mid-hand and resumed; a bot killed mid-hand (left to the host's AI, or restarted);
a changed certificate refused."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from briscola_lan.net.client import Target
from briscola_lan.net.player import auto_play, connect, make_chooser
from tests.net.procs import finish, spawn, start_host

LO = ("--interfaces", "127.0.0.1")


def _tables(config: Path) -> list[dict[str, object]]:
    code, out = finish(spawn(config, "tables", *LO, "--timeout", "2.5", "--json"), 30)
    assert code == 0, out
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_four_player_match_between_processes_found_by_mdns(tmp_path: Path) -> None:
    name = f"cli-{uuid.uuid4().hex[:8]}"
    host = start_host(tmp_path / "h", "--name", name, "--players", "4", "--ai", "1", *LO)
    children: list[subprocess.Popen[str]] = []
    try:
        listed = [t for t in _tables(tmp_path / "l") if t["name"] == name]
        assert len(listed) == 1
        assert listed[0]["free"] == 3 and listed[0]["players"] == 4
        assert listed[0]["fingerprint"] == host.fingerprint
        assert listed[0]["rules"] == "4p hands:2 exchange"
        code, out = finish(spawn(tmp_path / "l", "tables", *LO, "--timeout", "2.5"), 30)
        assert code == 0, out
        row = next(line for line in out.splitlines() if line.startswith(name))
        assert row.split()[2:6] == ["1/4", "open", "blind", "4p"], out  # seats, state, deal, rules
        assert all(len(line) <= 79 for line in out.splitlines()), out  # fits 80 columns
        children.append(
            spawn(
                tmp_path / "j",
                "join",
                f"127.0.0.1:{host.port}",
                "--fingerprint",
                host.fingerprint,
                "--seat",
                "0",
                "--auto",
                "random",
                "--name",
                "J",
            )
        )
        for i in range(2):
            children.append(
                spawn(
                    tmp_path / f"b{i}",
                    "bot",
                    name,
                    *LO,
                    "--seat",  # explicit seats: a bot must not race J for seat 0
                    str(2 + i),
                    "--level",
                    "random",
                    "--seed",
                    str(i),
                )
            )
        results = [finish(c, 60) for c in children]
        report = "\n---\n".join(out for _, out in results)
        assert [code for code, _ in results] == [0, 0, 0], report
        assert "match over" in results[0][1] and "verified" in results[0][1]
        assert all("match over" in out and "verified" in out for _, out in results[1:])
    finally:
        for c in children:
            if c.poll() is None:
                c.kill()
                c.wait()
        assert host.stop() == 0
    assert not [t for t in _tables(tmp_path / "l") if t["name"] == name], "not unregistered"


@pytest.mark.parametrize(("players", "ai"), [(2, 0), (3, 1)])
def test_small_tables_by_address(tmp_path: Path, players: int, ai: int) -> None:
    extra = ["--format", "points"] if players == 3 else ["--hands-to-win", "1"]
    host = start_host(
        tmp_path / "h", "--players", str(players), "--ai", str(ai), "--no-mdns", *LO, *extra
    )
    try:
        bots = [
            spawn(
                tmp_path / f"b{i}",
                "bot",
                f"127.0.0.1:{host.port}",
                "--fingerprint",
                host.fingerprint,
                "--seat",
                str(i),
                "--level",
                "rules",
            )
            for i in range(players - ai)
        ]
        for code, out in (finish(b, 120) for b in bots):
            assert code == 0, out
            assert "match over" in out
    finally:
        host.stop()


@pytest.mark.parametrize("deal", ["blind", "classic"])
async def test_host_killed_mid_hand_resumes_and_clients_finish(tmp_path: Path, deal: str) -> None:
    state = tmp_path / "state"
    args = ("--players", "2", "--no-mdns", *LO, "--state-dir", str(state), "--deal", deal)
    host = start_host(tmp_path / "h", *args)
    clients = [
        await connect(Target("127.0.0.1", host.port, None, host.fingerprint), f"p{i}")
        for i in range(2)
    ]
    try:
        tasks = [
            asyncio.create_task(auto_play(c, make_chooser("random", i), seat=i, delay=0.02))
            for i, c in enumerate(clients)
        ]
        watch = clients[0].session.state
        assert await clients[0].wait_for(
            lambda: watch.view is not None and len(watch.view.tricks) >= 4, 30
        )
        host.stop(signal.SIGKILL)
        assert await clients[0].wait_for(lambda: not clients[0].connected.is_set(), 5)
        with ThreadPoolExecutor(1) as pool:  # keep the loop serving the clients meanwhile
            host = await asyncio.get_running_loop().run_in_executor(
                pool, lambda: start_host(tmp_path / "h", *args, "--resume")
            )
        results = await asyncio.wait_for(asyncio.gather(*tasks), 90)
        assert all(r.reconnects >= 1 for r in results)
        for c in clients:
            st = c.session.state
            assert st.match_over and not st.match_aborted
            assert st.checks and all(ch.status == "verified" for ch in st.checks), [
                ch.summary for ch in st.checks
            ]
    finally:
        for c in clients:
            await c.close()
        host.stop()


def test_bot_process_killed_mid_hand_the_ai_takes_its_seat(tmp_path: Path) -> None:
    # The classic deal: in a blind hand nobody else holds the seat's keys (no takeover).
    host = start_host(
        tmp_path / "h",
        "--players",
        "2",
        "--no-mdns",
        *LO,
        "--grace",
        "0.3",
        "--hands-to-win",
        "1",
        "--deal",
        "classic",
    )
    try:
        common = ("--fingerprint", host.fingerprint, "--level", "random", "--delay", "0.02")
        keeper = spawn(tmp_path / "a", "bot", f"127.0.0.1:{host.port}", "--seat", "0", *common)
        victim = spawn(tmp_path / "b", "bot", f"127.0.0.1:{host.port}", "--seat", "1", *common)
        assert victim.stdout is not None
        # first what it does while it connects, then a line when it plays its first card
        said = [victim.stdout.readline() for _ in range(3)]
        assert said[0].startswith("bot-random: looking for table 127.0.0.1:"), said
        assert said[1].startswith("bot-random: connected to 127.0.0.1:"), said
        assert "taking a seat" in said[1], said
        assert said[2].startswith("playing in seat 1"), said
        time.sleep(0.2)
        victim.kill()
        assert victim.wait() == -9
        victim.stdout.close()
        code, out = finish(keeper, 120)
        assert code == 0, out
        assert "match over" in out
    finally:
        host.stop()


def test_join_refuses_a_changed_certificate(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h1", "--players", "2", "--no-mdns", *LO)
    port = host.port
    try:
        first = spawn(tmp_path / "j", "join", f"127.0.0.1:{port}", stdin=subprocess.PIPE)
        assert first.stdin is not None
        first.stdin.write("quit\n")
        first.stdin.flush()
        code, out = finish(first, 30)
        assert code == 0, out
        assert "connected to table" in out
    finally:
        host.stop()
    impostor = start_host(tmp_path / "h2", "--players", "2", "--no-mdns", *LO, "--port", str(port))
    try:
        code, out = finish(spawn(tmp_path / "j", "join", f"127.0.0.1:{port}"), 30)
        assert code == 2, out
        assert "changed" in out and "known_tables" in out
    finally:
        impostor.stop()


@pytest.mark.parametrize("command", ["join", "bot"])
async def test_process_killed_mid_trick_restarts_and_resumes_its_seat(
    tmp_path: Path, command: str
) -> None:
    """``join`` and ``bot`` alike: killed mid-trick and started again with the same arguments,
    the process takes its own seat back (same identity and resume token from its config dir),
    the host never hands the seat to an AI, and the match ends verified."""
    # A long grace: the host's AI must not take the seat while the process restarts.
    host = start_host(
        tmp_path / "h", "--players", "2", "--no-mdns", *LO, "--hands-to-win", "1", "--grace", "60"
    )
    other = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "other")
    target = (f"127.0.0.1:{host.port}", "--fingerprint", host.fingerprint, "--seat", "1")
    if command == "join":
        args = ("join", *target, "--line", "--auto", "random", "--name", "P")
    else:
        args = ("bot", *target, "--level", "random", "--name", "P")
    first = spawn(tmp_path / "p", *args)
    second = None
    try:
        task = asyncio.create_task(auto_play(other, make_chooser("random", 0), seat=0, delay=0.03))
        st = other.session.state

        def mid_trick() -> bool:
            v = st.view
            return v is not None and len(v.tricks) >= 3 and len(v.trick) == 1 and v.to_play == 1

        assert await other.wait_for(mid_trick, 30)
        first.kill()
        first.wait()
        assert first.stdout is not None
        first.stdout.close()
        second = spawn(tmp_path / "p", *args)  # same config dir: same identity and token
        await asyncio.wait_for(task, 60)
        with ThreadPoolExecutor(1) as pool:
            code, out = await asyncio.get_running_loop().run_in_executor(pool, finish, second, 60)
        assert code == 0, out
        assert "match over" in out
        # The result names the winner, as the terminal client and ``verify`` do.
        winner = "P (seat 1)" if st.winner == 1 else "other (seat 0)"
        assert f"{'won by ' if command == 'bot' else 'match over: '}{winner}" in out, out
        assert any("seat 1 reconnected" in line for line in st.log)
        assert st.seats[1].name == "P" and st.seats[1].ai is None
        assert st.match_over and not st.match_aborted
        assert all(ch.status == "verified" for ch in st.checks)
        saved = sorted((tmp_path / "p" / "data" / "briscola-lan" / "games").glob("*-P.*"))
        assert len(saved) == 1
        code, report = finish(spawn(tmp_path / "v", "verify", str(saved[0])), 60)
        assert code == 0, report
        assert "players: other, P;" in report and "an AI played" not in report
        config = tmp_path / "p" / "briscola-lan"
        if command == "join":
            assert "took seat" not in out  # it came back to its seat, it did not sit down anew
        else:
            result = next(line for line in out.splitlines() if line.startswith("match over"))
            assert result.startswith("match over: seat 1,"), out
            assert int(result.split(" cards played")[0].rsplit(" ", 1)[1]) > 0  # played again
            # The bot's key is its own: it never made or used the player's identity.
            assert (config / "bots" / "P" / "identity.key").exists()
            assert not (config / "identity.key").exists()
    finally:
        for p in (first, second):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
        await other.close()
        host.stop()
