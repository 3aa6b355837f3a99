"""A host's stop cannot hang on a disk that never answers: ``briscola-lan host`` says it is still
saving, ends without the disk after ``--stop-wait`` seconds or at a second Ctrl-C, and its journal
still continues the match (``net/stop_guard.py``)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from briscola_lan.net.stop_guard import EXIT_UNSAVED, StopGuard
from tests.net.procs import cli_env, finish, spawn, start_host, wait_line, wait_ready

KEPT = "the files keep it"
PLAY = b"/st/play".hex()  # in the signed bytes of a card played, as a transcript holds them


class Probe:
    """What a guard said and whether it ended the process (instead of ending it)."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.exited = threading.Event()
        self.code: int | None = None

    def say(self, line: str) -> None:
        self.lines.append(line)

    def exit(self, code: int) -> None:
        self.code = code
        self.exited.set()


def _guard(probe: Probe, limit: float | None, notice_after: float = 0.1) -> StopGuard:
    return StopGuard(
        limit, kept=KEPT, notice_after=notice_after, say=probe.say, exit=probe.exit, signals=()
    )


def test_a_stop_past_its_limit_says_so_and_ends_the_process() -> None:
    probe = Probe()
    guard = _guard(probe, 0.5)
    guard.begin()
    assert probe.exited.wait(10)
    assert probe.code == EXIT_UNSAVED
    notice, last = probe.lines
    assert "still saving" in notice and "Ctrl-C again" in notice
    assert "have not finished after 0.5 s" in last and last.endswith(KEPT)
    guard.end()


def test_a_stop_that_ends_in_time_is_left_alone() -> None:
    probe = Probe()
    guard = _guard(probe, 0.5, notice_after=0.3)
    guard.begin()
    time.sleep(0.05)
    guard.end()
    time.sleep(0.6)
    assert probe.lines == [] and not probe.exited.is_set()


def test_a_second_signal_ends_the_stop_at_once_even_without_a_limit() -> None:
    probe = Probe()
    guard = _guard(probe, None, notice_after=60)
    guard.begin()
    time.sleep(0.1)
    assert not probe.exited.is_set()
    started = time.monotonic()
    guard.force()
    assert probe.exited.wait(10)
    assert time.monotonic() - started < 5
    assert probe.lines == [f"briscola-lan host: a second stop signal: stopping without waiting "
                           f"for the disk. {KEPT}"]  # fmt: skip
    guard.end()


def test_a_stop_without_a_limit_waits_as_long_as_it_takes() -> None:
    probe = Probe()
    guard = _guard(probe, None)
    guard.begin()
    time.sleep(0.5)
    guard.end()
    assert not probe.exited.is_set()
    assert len(probe.lines) == 1 and "still saving" in probe.lines[0]


def test_a_limit_must_be_positive() -> None:
    with pytest.raises(ValueError, match="more than 0"):
        StopGuard(0)


# --- the real command, its disk stopping mid-match --------------------------------------------

MATCH = ("--players", "2", "--ai", "1", "--hands-to-win", "2", "--no-mdns", "--tick", "0.01")
LO = ("--interfaces", "127.0.0.1")


def _hung_host(tmp: Path, flag: Path, *extra: str) -> tuple[subprocess.Popen[str], int, str]:
    prefix = [sys.executable, "-m", "tests.net.hung_disk", str(flag), "--"]
    host = start_host(tmp / "h", *MATCH, *LO, *extra, prefix=prefix)
    return host.proc, host.port, host.fingerprint


def _bot(tmp: Path, port: int, fingerprint: str) -> subprocess.Popen[str]:
    bot = spawn(tmp / "b", "bot", f"127.0.0.1:{port}", "--fingerprint", fingerprint,
                "--seat", "0", "--level", "random", "--delay", "0.2")  # fmt: skip
    assert bot.stdout is not None
    wait_line(bot.stdout, "playing in seat 0", 60)
    return bot


@pytest.mark.parametrize("how", ["limit", "second-signal"])
def test_a_host_whose_disk_hangs_still_stops_and_its_journal_continues_the_match(
    tmp_path: Path, how: str
) -> None:
    flag = tmp_path / "disk-gone"
    extra = ("--stop-wait", "3") if how == "limit" else ("--stop-wait", "0")
    proc, port, fingerprint = _hung_host(tmp_path, flag, *extra)
    bot = _bot(tmp_path, port, fingerprint)
    try:
        time.sleep(1.0)  # a few cards, each in the journal before it reached the bot
        flag.touch()  # from now on the disk never finishes a flush
        started = time.monotonic()
        proc.send_signal(signal.SIGINT)
        assert proc.stdout is not None
        wait_line(proc.stdout, "still saving the tables (Ctrl-C again", 30)
        if how == "second-signal":
            proc.send_signal(signal.SIGINT)
        code, out = finish(proc, 60)
        took = time.monotonic() - started
    finally:
        bot.kill()
        bot.wait()
        if proc.poll() is None:
            proc.kill()
    assert code == EXIT_UNSAVED, out
    reason = "a second stop signal" if how == "second-signal" else "have not finished after 3 s"
    assert reason in out, out
    assert "The journal holds every change the players were sent: continue with" in out, out
    assert "host stopped" not in out
    assert took < 30, took
    # The journal is whole as far as it was written: the host continues the match from it, and
    # its transcript, saved at that host's stop, holds the cards played before the disk hung.
    games = tmp_path / "h" / "data" / "briscola-lan" / "games"
    assert not list(games.glob("*-host.briscola.json"))  # the hung host saved none
    again = subprocess.Popen(
        [sys.executable, "-m", "briscola_lan", "host", "--resume", *LO, "--no-mdns"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=cli_env(tmp_path / "h"),
    )  # fmt: skip
    try:
        assert again.stdout is not None
        wait_ready(again.stdout, 60)
    finally:
        again.send_signal(signal.SIGTERM)
        code, rest = finish(again, 30)
    assert code == 0, rest
    saved = list(games.glob("*-host.briscola.json"))
    assert len(saved) == 1, rest
    code, out = finish(spawn(tmp_path / "v", "verify", "--json", str(saved[0])), 60)
    assert code == 3, out  # every record verified; the hand under way not finished
    assert json.loads(out)["hands"][0]["status"] == "incomplete", out
    plays = [r for r in json.loads(saved[0].read_text())["records"] if PLAY in r[0]]
    assert len(plays) >= 2, plays  # the cards played before the disk hung are kept
