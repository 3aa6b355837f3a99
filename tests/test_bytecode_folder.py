"""Where the environment forbids writing bytecode, the processes the tests start keep theirs in
the run's own folder (``tests/conftest.py``), compiled once a run, never beside the sources."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_started_process_keeps_its_bytecode_in_the_runs_folder() -> None:
    assert not os.environ.get("PYTHONDONTWRITEBYTECODE"), "every process compiles the project"
    prefix = os.environ.get("PYTHONPYCACHEPREFIX")
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, briscola_lan.tui.bell; print(sys.pycache_prefix, sys.dont_write_bytecode)",
        ],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    started_prefix, dont_write = out.stdout.split()
    assert dont_write == "False", "the started process compiles the project every time"
    if prefix is None:  # bytecode may be written beside the sources: Python's own caches serve
        assert started_prefix == "None"
        return
    assert started_prefix == prefix
    folder = Path(prefix, *ROOT.parts[1:], "briscola_lan", "tui")
    assert list(folder.glob("bell.*.pyc")), f"no bytecode of tui/bell.py in {folder}"
