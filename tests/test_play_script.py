"""``./play``: on a machine that cannot download the packages it says why and what to do, in its
own words after pip's, and stops with status 1; it sets up again only when what pip reads
changes, and when that update cannot download it starts the set-up installed before."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _copy_play(tmp_path: Path) -> None:
    for name in ("play", "pyproject.toml", "requirements.lock"):
        shutil.copy2(ROOT / name, tmp_path / name)


def _run(tmp_path: Path, env: dict[str, str], arg: str) -> subprocess.CompletedProcess[str]:
    """``./play ARG`` in ``tmp_path``."""
    return subprocess.run(
        [str(tmp_path / "play"), arg],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def _said(out: subprocess.CompletedProcess[str]) -> list[str]:
    """What ``./play`` said in its own words."""
    return [line for line in out.stderr.splitlines() if line.startswith("play: ")]


def test_play_says_what_to_do_when_the_packages_cannot_be_downloaded(tmp_path: Path) -> None:
    _copy_play(tmp_path)
    links = tmp_path / "no-wheels"
    links.mkdir()
    env = dict(os.environ)
    env.update(
        PYTHON=sys.executable,
        PIP_INDEX_URL="http://127.0.0.1:9/simple",  # nothing listens there
        PIP_FIND_LINKS=str(links),
        PIP_NO_CACHE_DIR="1",
        PIP_RETRIES="0",  # pip's own retries would only wait longer for the same answer
        HOME=str(tmp_path),
    )
    out = _run(tmp_path, env, "--help")
    assert out.returncode == 1, out.stderr
    lines = _said(out)
    assert lines[-2].startswith("play: could not download or install the packages"), lines
    assert "Are you online?" in lines[-1] and "PIP_INDEX_URL" in lines[-1]


FAKE_PYTHON = """#!/bin/sh
# The virtual environment's python: pip is only logged (and fails when asked to).
if [ "$1" = "-m" ] && [ "$2" = "pip" ]; then
    echo "pip $*" >> "$PIP_CALLS"
    exit "${FAKE_PIP_STATUS:-0}"
fi
exec "$REAL_PYTHON" "$@"
"""


def _fake_setup(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A copy of ``./play`` whose ``.venv`` has a stand-in for briscola-lan and a python whose
    pip logs its calls instead of downloading."""
    _copy_play(tmp_path)
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    (bin_dir / "python").write_text(FAKE_PYTHON)
    (bin_dir / "briscola-lan").write_text('#!/bin/sh\necho "briscola-lan started: $*"\n')
    for exe in bin_dir.iterdir():
        exe.chmod(0o755)
    env = dict(os.environ)
    env.update(
        PYTHON=sys.executable,
        REAL_PYTHON=sys.executable,
        PIP_CALLS=str(tmp_path / "pip-calls"),
        HOME=str(tmp_path),
    )
    return tmp_path / ".venv" / ".briscola-setup", env


def _play(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], int]:
    """``./play --version``, and how many times it ran pip."""
    calls = tmp_path / "pip-calls"
    before = len(calls.read_text().splitlines()) if calls.exists() else 0
    out = _run(tmp_path, env, "--version")
    after = len(calls.read_text().splitlines()) if calls.exists() else 0
    return out, after - before


def _edit(path: Path, old: str, new: str, stamp: Path) -> None:
    """Change ``path``, and date the stamp before it (as a ``git pull`` would leave them)."""
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    os.utime(stamp, (path.stat().st_mtime - 10, path.stat().st_mtime - 10))


def test_play_sets_up_again_only_when_what_pip_reads_changes(tmp_path: Path) -> None:
    stamp, env = _fake_setup(tmp_path)
    pyproject = tmp_path / "pyproject.toml"

    out, pips = _play(tmp_path, env)  # no stamp: the set-up runs, then the game starts
    assert out.returncode == 0 and pips == 1, out.stderr
    assert "briscola-lan started: --version" in out.stdout
    assert re.fullmatch(r"[0-9a-f]{64}\n", stamp.read_text())

    out, pips = _play(tmp_path, env)  # nothing changed
    assert out.returncode == 0 and pips == 0 and "started" in out.stdout

    # A change pip does not read (the tests' settings): no set-up, no network.
    _edit(
        pyproject,
        "[tool.pytest.ini_options]",
        "[tool.pytest.ini_options]\nxfail_strict = true",
        stamp,
    )
    out, pips = _play(tmp_path, env)
    assert out.returncode == 0 and pips == 0 and "started" in out.stdout, out.stderr
    assert stamp.stat().st_mtime >= pyproject.stat().st_mtime  # not read again next time

    # A change to the project's dependencies, or to the lock file: set up again.
    _edit(pyproject, '"msgpack>=1.0.8,<2"', '"msgpack>=1.0.9,<2"', stamp)
    out, pips = _play(tmp_path, env)
    assert out.returncode == 0 and pips == 1 and "started" in out.stdout
    _edit(tmp_path / "requirements.lock", "msgpack==", "# a note\nmsgpack==", stamp)
    out, pips = _play(tmp_path, env)
    assert out.returncode == 0 and pips == 1 and "started" in out.stdout


def test_play_starts_the_installed_set_up_when_an_update_cannot_download(tmp_path: Path) -> None:
    stamp, env = _fake_setup(tmp_path)
    assert _play(tmp_path, env)[0].returncode == 0  # set up once
    _edit(tmp_path / "pyproject.toml", '"msgpack>=1.0.8,<2"', '"msgpack>=1.0.9,<2"', stamp)
    key = stamp.read_text()

    env["FAKE_PIP_STATUS"] = "1"  # offline: pip cannot download
    out, pips = _play(tmp_path, env)
    assert out.returncode == 0 and pips == 1, out.stderr
    assert "--retries 0 --timeout 5" in (tmp_path / "pip-calls").read_text().splitlines()[-1]
    assert "briscola-lan started: --version" in out.stdout
    lines = _said(out)
    assert lines[-2].startswith("play: could not update the packages"), lines
    assert "when online" in lines[-1] and "PIP_INDEX_URL" in lines[-1]
    assert stamp.read_text() == key  # still due: the next run online updates

    out, pips = _play(tmp_path, env)  # tries again, and starts again
    assert out.returncode == 0 and pips == 1 and "started" in out.stdout

    # Nothing installed that could start: it stops, saying why.
    (tmp_path / ".venv" / "bin" / "briscola-lan").unlink()
    out, pips = _play(tmp_path, env)
    assert out.returncode == 1 and pips == 1
    assert "could not download or install the packages" in out.stderr


OLD_PYTHON3 = """#!/bin/sh
# Ubuntu 22.04's python3: too old.
if [ "$1" = "-V" ]; then echo "Python 3.10.12"; exit 0; fi
exit 1
"""


def test_play_finds_a_newer_python_beside_an_old_python3(tmp_path: Path) -> None:
    _, env = _fake_setup(tmp_path)
    assert _play(tmp_path, env)[0].returncode == 0  # set up once
    tools = tmp_path / "tools"
    tools.mkdir()
    (tools / "python3").write_text(OLD_PYTHON3)
    (tools / "python3").chmod(0o755)
    (tools / "dirname").symlink_to(shutil.which("dirname") or "/usr/bin/dirname")
    del env["PYTHON"]

    env["PATH"] = str(tools)  # python3 is 3.10, and nothing newer
    out, pips = _play(tmp_path, env)
    assert out.returncode == 1 and pips == 0 and "started" not in out.stdout
    lines = _said(out)
    assert lines[0] == "play: Python 3.10.12 is too old: Briscola LAN needs Python 3.11 or newer."
    assert "python3.11" in lines[1] and "PYTHON=" in lines[1]

    (tools / "python3.11").symlink_to(sys.executable)  # installed beside it
    env["PATH"] = f"{tools}:{os.environ['PATH']}"
    out, pips = _play(tmp_path, env)
    assert out.returncode == 0 and pips == 0, out.stderr
    assert "briscola-lan started: --version" in out.stdout
