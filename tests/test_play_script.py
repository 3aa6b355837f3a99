"""``./play`` on a machine that cannot download the packages says why and what to do, in its
own words after pip's, and stops with status 1."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_play_says_what_to_do_when_the_packages_cannot_be_downloaded(tmp_path: Path) -> None:
    for name in ("play", "pyproject.toml", "requirements.lock"):
        shutil.copy2(ROOT / name, tmp_path / name)
    links = tmp_path / "no-wheels"
    links.mkdir()
    env = dict(os.environ)
    env.update(
        PYTHON=sys.executable,
        PIP_INDEX_URL="http://127.0.0.1:9/simple",  # nothing listens there
        PIP_FIND_LINKS=str(links),
        PIP_NO_CACHE_DIR="1",
        HOME=str(tmp_path),
    )
    out = subprocess.run(
        [str(tmp_path / "play"), "--help"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 1, out.stderr
    lines = [line for line in out.stderr.splitlines() if line.startswith("play: ")]
    assert lines[-2].startswith("play: could not download or install the packages"), lines
    assert "Are you online?" in lines[-1] and "PIP_INDEX_URL" in lines[-1]
