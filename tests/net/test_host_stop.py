"""Stopping ``briscola-lan host`` (SIGTERM, Ctrl-C) mid-match saves what was played: the hands
played to their end verify, and ``verify`` reports the hand that was under way as incomplete."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.net.procs import Host, finish, spawn, start_host, wait_line

LO = ("--interfaces", "127.0.0.1")
# Two hands at least (first to win 2); the bot thinks a little, so the stop lands mid-hand.
MATCH = ("--players", "2", "--ai", "1", "--hands-to-win", "2", "--no-mdns", "--tick", "0.01")


def _games(config: Path) -> Path:
    return config / "data" / "briscola-lan" / "games"


def _wait(what: str, done: Callable[[], object], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if done():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def _line(proc: subprocess.Popen[str], text: str, timeout: float = 60.0) -> None:
    assert proc.stdout is not None
    wait_line(proc.stdout, text, timeout)


@pytest.mark.parametrize(
    ("sig", "finished_hands"),
    [(signal.SIGTERM, 1), (signal.SIGINT, 0)],
    ids=["sigterm-in-hand-2", "sigint-in-hand-1"],
)
def test_stopping_the_host_mid_match_saves_what_was_played(
    tmp_path: Path, sig: int, finished_hands: int
) -> None:
    host: Host = start_host(tmp_path / "h", *MATCH, *LO)
    bot = spawn(tmp_path / "b", "bot", f"127.0.0.1:{host.port}", "--fingerprint",
                host.fingerprint, "--seat", "0", "--level", "random", "--delay", "0.2")  # fmt: skip
    games = _games(tmp_path / "h")
    try:
        if finished_hands == 0:
            _line(bot, "playing in seat 0")  # the bot's first card of the first hand
        else:
            # the first hand's transcript appears once it is acknowledged; the next one starts
            # at that same moment (the host commits to its seed as the acks complete)
            _wait("the first hand saved", lambda: list(games.glob("*-host.briscola.json")))
            time.sleep(0.5)
        assert host.stop(sig) == 0
    finally:
        bot.kill()
        bot.wait()
    saved = list(games.glob("*-host.briscola.json"))
    assert len(saved) == 1, saved
    code, out = finish(spawn(tmp_path / "v", "verify", str(saved[0])), 60)
    assert code == 3, out  # verified as far as it goes, and a hand not finished
    assert f"{saved[0]}: INCOMPLETE" in out, out
    for n in range(1, finished_hands + 1):
        assert re.search(rf"hand {n} \(dealer seat \d\): verified", out), out
    open_hand = finished_hands + 1
    assert f"hand {open_hand} is not finished in this file" in out, out
    code, out = finish(spawn(tmp_path / "v", "verify", "--json", str(saved[0])), 60)
    report = json.loads(out)
    assert code == 3 and report["incomplete"] is True and report["ok"] is False
    assert [h["status"] for h in report["hands"]] == ["verified"] * finished_hands + ["incomplete"]
