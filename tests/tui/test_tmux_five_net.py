"""End to end in tmux at five players over the network: a real ``briscola-lan host --players 5``
with four AI seats on loopback, found by its name over mDNS and joined by the real full-screen
client (``briscola-lan join NAME``), which bids, passes and plays through the auction, the call
and the first trick."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from .test_tmux import Tmux, _quit, tmux_factory

__all__ = ["tmux_factory"]  # the fixture, shared with test_tmux.py


MINE = r"Tess \(you\)\s+(D )?\s*"  # my row in the players' list, then my bid or pass
OVER = r"Called: .."  # the auction over (my bid or pass may have closed it)


@pytest.fixture
def five_host(tmp_path: Path) -> Iterator[str]:
    """A five-player table of four random AI seats on 127.0.0.1, announced over mDNS under a
    name of its own; the table's name."""
    name = f"Cinque {uuid.uuid4().hex[:8]}"
    home = tmp_path / "host"
    home.mkdir()
    env = {
        **os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_DATA_HOME": str(home / "data"), "XDG_STATE_HOME": str(home / "state"),
    }  # fmt: skip
    cmd = [
        sys.executable, "-m", "briscola_lan", "host", "--name", name, "--players", "5",
        "--match-hands", "1", "--ai", "4", "--ai-level", "random", "--ai-delay", "0",
        "--interfaces", "127.0.0.1", "--port", "0", "--one-match", "--no-journal",
    ]  # fmt: skip
    host = subprocess.Popen(
        cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    try:
        assert host.stdout is not None
        said: list[str] = []
        end = time.monotonic() + 30
        while time.monotonic() < end:
            line = host.stdout.readline()
            said.append(line)
            if line.strip() == "ready" or not line:
                break
        assert said[-1].strip() == "ready", "".join(said)
        yield name
    finally:
        host.terminate()
        try:
            host.wait(10)
        except subprocess.TimeoutExpired:
            host.kill()
            host.wait(10)


def _join(made: list[Tmux], tmp: Path, table: str) -> Tmux:
    """The real full-screen client joining ``table`` by its name, at 100x30 in English."""
    t = Tmux(f"briscola-tui-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    made.append(t)
    env = {
        "XDG_CONFIG_HOME": str(tmp / "config"), "XDG_DATA_HOME": str(tmp / "data"),
        "HOME": str(tmp), "TERM": "xterm-256color", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
    }  # fmt: skip
    env_text = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    prog = f"{shlex.quote(sys.executable)} -m briscola_lan"
    cmd = (
        f"env {env_text} {prog} join {shlex.quote(table)} --name Tess --interfaces 127.0.0.1 "
        f"--timeout 20 --trick-pause 0.2 2> {shlex.quote(str(tmp / 'stderr.txt'))}"
    )
    tmux = shutil.which("tmux")
    assert tmux, "tmux is needed for the end-to-end client test (apt-get install tmux)"
    subprocess.run(
        [tmux, "-L", t.name, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30", cmd],
        check=True, timeout=10,
    )  # fmt: skip
    return t


def test_five_players_joined_over_the_network(
    tmux_factory: list[Tmux], tmp_path: Path, five_host: str
) -> None:
    t = _join(tmux_factory, tmp_path, five_host)
    screen = t.wait_for(r"Auction \(ace down to 2", 40)
    assert "5p total:1" in screen and "classic deal" in screen, screen
    bid_key, bids, seen = "x: pass  ", 0, ""
    end = time.monotonic() + 60
    while time.monotonic() < end:  # the auction and the call, to my first card
        seen = t.screen()
        if "Your turn: choose" in seen:
            break
        if bid_key in seen:
            if bids == 0:  # the bid cursor moves, then Enter bids what it shows
                wanted = re.search(r"Your bid: < ([^>]+) >", seen)
                assert wanted, seen
                t.keys("Right")
                moved = t.wait_for(r"Your bid: < (?!" + re.escape(wanted[1]) + r" )", 10)
                shown = re.search(r"Your bid: < ([^>]+) >", moved)
                assert shown, moved
                t.keys("Enter")  # my bid, in the players' list beside my name
                said = re.escape(shown[1].strip())
                t.wait_for(rf"{MINE}{said}\b|You bid {said}\b|{OVER}", 15)
            else:
                t.keys("x")
                t.wait_for(rf"{MINE}pass\b|You pass\b|{OVER}", 15)
            bids += 1
        elif "1-4: suit" in seen:
            t.keys("Enter")
            t.wait_for(r"Called: ..", 15)
        time.sleep(0.1)
    assert "Your turn: choose" in seen, seen
    assert re.search(r"Briscola: . \w+ +Called: ..", seen), seen
    assert bids >= 1, seen
    trick, end = "", time.monotonic() + 60
    while time.monotonic() < end:  # my card, then the first trick taken
        trick = t.screen()
        if re.search(r"took the trick \(.. .. .. .. ..\) for \d+", trick):
            break
        if "Your turn: choose" in trick:  # a hand that just changed takes the next Enter
            t.keys("Enter")
            time.sleep(0.8)
        time.sleep(0.1)
    assert re.search(r"took the trick \(.. .. .. .. ..\) for \d+", trick), trick
    assert "Deal check FAILED" not in trick, trick
    _quit(t, tmp_path)
