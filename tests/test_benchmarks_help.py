"""Every benchmark answers ``--help`` with its usage, without running (the commands docs/ quote)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
# Child processes the benchmarks start themselves, not commands a person runs.
CHILDREN = {"net_echo.py"}


@pytest.mark.parametrize(
    "script", sorted(p.name for p in BENCHMARKS.glob("*.py") if p.name not in CHILDREN)
)
def test_a_benchmark_shows_its_usage(script: str) -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("usage:"), out.stdout[:500]
