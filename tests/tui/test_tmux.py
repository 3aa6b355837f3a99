"""End to end: the real ``briscola-lan`` command in tmux, a whole hand played with keystrokes.

The screen is read back with ``capture-pane -p`` and checked as a person would read it.
"""

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

# "You  NN points" then, on the next line, "<other side>  NN points" (box characters around)
RESULT = r"You\s+(\d+) points[^\n]*\n[^\n]*?([^\s│|][^│|\n]*?)\s+(\d+) points"


class Tmux:
    """One private tmux server running one program."""

    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *args: str, check: bool = True) -> str:
        tmux = shutil.which("tmux")
        assert tmux, "tmux is needed for the end-to-end client test (apt-get install tmux)"
        out = subprocess.run(
            [tmux, "-L", self.name, *args], capture_output=True, text=True, check=False, timeout=10
        )
        if check and out.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {out.stderr}")
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", *keys)

    def _has_session(self) -> bool:
        tmux = shutil.which("tmux") or "tmux"
        r = subprocess.run([tmux, "-L", self.name, "has-session"], capture_output=True, check=False)
        return r.returncode == 0

    def wait_for(self, pattern: str, timeout: float = 15.0) -> str:
        end = time.monotonic() + timeout
        screen = ""
        while time.monotonic() < end:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{screen}")


def _command(tmp: Path, extra: str) -> str:
    exe = Path(sys.executable).parent / "briscola-lan"
    prog = (
        shlex.quote(str(exe)) if exe.exists() else f"{shlex.quote(sys.executable)} -m briscola_lan"
    )
    env = {
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(tmp / "data"),
        "HOME": str(tmp),
        "TERM": "xterm-256color",
    }
    env_text = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    return (
        f"env {env_text} {prog} --name Tess --ai-level random --ai-delay 0 --interfaces 127.0.0.1 "
        f"{extra} 2> {shlex.quote(str(tmp / 'stderr.txt'))}"
    )


_TMUX_MISSING = None if shutil.which("tmux") else "tmux is not installed (apt-get install tmux)"
_REQUIRED = os.environ.get("BRISCOLA_REQUIRE_NETNS") == "1"  # set by .ci/run: no silent skips
pytestmark = pytest.mark.skipif(
    _TMUX_MISSING is not None and not _REQUIRED, reason=f"needs tmux: {_TMUX_MISSING}"
)


@pytest.fixture
def tmux_factory(tmp_path: Path) -> Iterator[list[Tmux]]:
    if _TMUX_MISSING is not None:
        pytest.fail(f"BRISCOLA_REQUIRE_NETNS=1 but {_TMUX_MISSING}")
    made: list[Tmux] = []
    yield made
    for t in made:
        t.run("kill-server", check=False)


def _start(made: list[Tmux], tmp: Path, size: tuple[int, int], extra: str, lang: str) -> Tmux:
    t = Tmux(f"briscola-tui-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    made.append(t)
    cmd = f"LANG={lang} LC_ALL={lang} {_command(tmp, extra)}"
    tmux = shutil.which("tmux")
    assert tmux, "tmux is needed for the end-to-end client test (apt-get install tmux)"
    subprocess.run(
        [tmux, "-L", t.name, "-f", "/dev/null", "new-session", "-d", "-x", str(size[0]), "-y",
         str(size[1]), cmd],
        check=True, timeout=10, env={**os.environ, "LANG": lang, "LC_ALL": lang},
    )  # fmt: skip
    return t


def _play_hand(t: Tmux) -> str:
    t.wait_for(r"Play against AI now")
    t.keys("a")
    t.wait_for(r"Your hand")
    end = time.monotonic() + 60
    while time.monotonic() < end:
        screen = t.screen()
        if re.search(r"Hand 1 over", screen):
            return screen
        if "Your turn" in screen:
            t.keys("Enter")
        time.sleep(0.03)
    raise AssertionError(f"the hand never ended; the screen was:\n{t.screen()}")


def _quit(t: Tmux, tmp: Path) -> None:
    t.keys("q")
    t.wait_for(r"\(y/n\)")
    t.keys("y")
    end = time.monotonic() + 10
    while t._has_session() and time.monotonic() < end:
        time.sleep(0.05)
    err = (tmp / "stderr.txt").read_text() if (tmp / "stderr.txt").exists() else ""
    assert not t._has_session(), "the client did not exit after quitting"
    assert "Traceback" not in err, err


def test_real_command_plays_a_hand_in_tmux(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (100, 30), "", "C.UTF-8")
    screen = _play_hand(t)
    m = re.search(RESULT, screen)
    assert m, screen
    mine, other, theirs = int(m.group(1)), m.group(2), int(m.group(3))
    assert mine + theirs == 120
    if mine > theirs:
        assert "You win the hand!" in screen
        assert "Hands won 1-0" in screen
    elif theirs > mine:
        assert f"{other} wins the hand." in screen
        assert "Hands won 0-1" in screen
    else:
        assert "Nobody wins the hand" in screen
    assert re.search(r"tricks\s+\d+", screen)
    assert "Deal verified" in screen, screen
    # the transcripts are saved once every seat has acknowledged the hand (just after its end)
    games = tmp_path / "data" / "briscola-lan" / "games"
    end = time.monotonic() + 10
    while len(list(games.glob("*.briscola.json"))) < 2 and time.monotonic() < end:
        time.sleep(0.05)
    saved = sorted(p.name for p in games.glob("*.briscola.json"))
    assert len(saved) == 2 and any(n.endswith("-Tess.briscola.json") for n in saved), saved
    assert "♠" in screen or "♣" in screen or "♥" in screen or "♦" in screen
    _quit(t, tmp_path)


def test_real_command_ascii_mode_in_80x24(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (80, 24), "--ascii", "C.UTF-8")
    screen = _play_hand(t)
    assert all(ord(ch) < 128 for ch in screen), screen
    m = re.search(RESULT, screen)
    assert m, screen
    assert int(m.group(1)) + int(m.group(3)) == 120
    assert "+-" in screen and "|" in screen
    _quit(t, tmp_path)
