"""Quitting the client while the review's worker is judging a play: the client exits at once,
it does not wait for that play's judging to end."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A client's last moments: a play being judged (a minute's work), then ``close`` and exit.
SCRIPT = textwrap.dedent(
    """
    import sys, time
    sys.path.insert(0, sys.argv[1])
    from briscola_lan.tui.coach_judge import Judge
    from tests.tui.slow_judging import slow

    judge = Judge()
    started = judge.submit(slow, None, None)
    assert started is not None
    while not started.running():
        time.sleep(0.01)
    time.sleep(1.0)  # the worker has the play
    judge.close()
    print("closed", flush=True)
    """
)


def test_the_client_exits_without_waiting_for_a_play_being_judged() -> None:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(ROOT)],
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    took = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "closed"
    # The play's judging takes 60 s: an exit that waited for it would take that long at least.
    assert took < 45, f"the process took {took:.1f} s to exit after closing the worker"
