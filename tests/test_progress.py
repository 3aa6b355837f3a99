"""The progress bar of ``arena`` and ``simulate``: every item goes through it, the bar (with
the time left) is drawn on stderr on a terminal only, and never mixes with the results."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from briscola_lan.progress import progress, wanted


def test_progress_yields_every_item_and_is_off_without_a_terminal() -> None:
    assert list(progress(iter(range(5)), 5, "x", enabled=False)) == [0, 1, 2, 3, 4]
    assert wanted(disabled=True) is False
    # pytest captures stderr: no terminal, no bar
    assert wanted() is False


@pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")
@pytest.mark.parametrize("command", ["arena rules random -n 4 -j 1", "simulate -n 4"])
def test_a_bar_with_the_time_left_on_a_terminal(tmp_path: Path, command: str) -> None:
    exe = Path(sys.executable).parent / "briscola-lan"
    prog = shlex.quote(str(exe)) if exe.exists() else f"{sys.executable} -m briscola_lan"
    out = tmp_path / "out.txt"
    done = tmp_path / "done"
    name = f"bar-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    # a slow level makes sure the bar is on screen for a while; stdout goes to a file
    slow = command.replace("rules random", "strong:60 rules") if "arena" in command else (
        command + " --bots strong:40,rules")  # fmt: skip
    cmd = f"{prog} {slow} > {out}; touch {done}; sleep 60"
    subprocess.run(
        ["tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-x", "80", "-y", "24", cmd],
        check=True, timeout=10,
    )  # fmt: skip
    try:
        seen = ""
        end = time.monotonic() + 120
        while time.monotonic() < end and not done.exists():
            screen = subprocess.run(
                ["tmux", "-L", name, "capture-pane", "-p"], capture_output=True, text=True,
                check=False,
            ).stdout  # fmt: skip
            if re.search(r"left \d\d:\d\d", screen):
                seen = screen
                break
            time.sleep(0.1)
        assert re.search(r"\d+\.\d%.*\d+/\s*\d+\s+elapsed \d\d:\d\d\s+left \d\d:\d\d", seen), seen
        end = time.monotonic() + 300
        while not done.exists() and time.monotonic() < end:
            time.sleep(0.1)
        result = out.read_text()
        assert "elapsed" not in result and "%" not in result.splitlines()[0], result
    finally:
        subprocess.run(["tmux", "-L", name, "kill-server"], check=False, timeout=10)
