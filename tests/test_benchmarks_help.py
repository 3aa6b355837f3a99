"""Every benchmark answers ``--help`` with its usage, without running (the commands docs/ quote)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.mark.parametrize("script", sorted(p.name for p in BENCHMARKS.glob("*.py")))
def test_a_benchmark_shows_its_usage(script: str, tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.startswith("usage:"), out.stdout[:500]
    assert not any(tmp_path.iterdir()), "--help made files"
