"""Every test runs with the user's folders pointed at its own temporary folder, and the session
fails if the real ones changed while it ran (seen from their folders' times alone, no file
read): the tests never read or write the player's own config, identity, saved games or resume
tokens."""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from briscola_lan.table import host_journal

# No property test is judged by its time: hypothesis's per-example deadline (200 ms) fails a
# correct test on a busy machine (an example took 386 ms once at load 10, 1.4 ms when re-run).
settings.register_profile("briscola-lan", deadline=None)
settings.load_profile("briscola-lan")

# Every journal a test writes checks that a change written from the few values a card moves is
# what looking the whole table over finds (``host_journal.CHECK_HOT``).
host_journal.CHECK_HOT = True

# The user's own folders as they were when the session started (before any fixture moved HOME).
REAL_HOME = Path(os.environ.get("HOME") or pwd.getpwuid(os.getuid()).pw_dir)
_REAL_BASES = {
    "XDG_CONFIG_HOME": os.environ.get("XDG_CONFIG_HOME") or str(REAL_HOME / ".config"),
    "XDG_DATA_HOME": os.environ.get("XDG_DATA_HOME") or str(REAL_HOME / ".local" / "share"),
    "XDG_STATE_HOME": os.environ.get("XDG_STATE_HOME") or str(REAL_HOME / ".local" / "state"),
}
REAL_DIRS = tuple(Path(base) / "briscola-lan" for base in _REAL_BASES.values())
_MOVED = ("HOME", *_REAL_BASES, "XDG_CACHE_HOME")
_UNSET = ("BRISCOLA_LAN_GAMES",)


def snapshot(dirs: tuple[Path, ...] = REAL_DIRS) -> dict[str, tuple[int, int]]:
    """The modification time of the user's briscola-lan folders and of the folders the game
    writes in them (a file made, replaced or removed there changes it), from ``stat`` alone: the
    guard reads no file and lists no folder of the user's."""
    seen: dict[str, tuple[int, int]] = {}
    for top in dirs:
        for folder in (top, top / "games", top / "state", top / "tables"):
            try:
                st = os.stat(folder)
            except OSError:
                continue
            seen[str(folder)] = (st.st_ino, st.st_mtime_ns)
    return seen


_BEFORE = snapshot()


@pytest.fixture(autouse=True)
def _user_folders_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """HOME and the XDG folders in a temporary folder of the test's own; no games override."""
    home = tmp_path_factory.mktemp("home")
    saved = {name: os.environ.get(name) for name in (*_MOVED, *_UNSET)}
    os.environ["HOME"] = str(home)
    os.environ["XDG_CONFIG_HOME"] = str(home / ".config")
    os.environ["XDG_DATA_HOME"] = str(home / ".local" / "share")
    os.environ["XDG_STATE_HOME"] = str(home / ".local" / "state")
    os.environ["XDG_CACHE_HOME"] = str(home / ".cache")
    for name in _UNSET:
        os.environ.pop(name, None)
    try:
        yield home
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the run if any test changed the user's own briscola-lan folders."""
    after = snapshot()
    if after != _BEFORE:
        changed = sorted(set(after.items()) ^ set(_BEFORE.items()))
        names = sorted({path for path, _ in changed})
        session.config.get_terminal_writer().line(
            "the tests changed the user's own folders: " + ", ".join(names[:10]), red=True
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_configure(config: pytest.Config) -> None:
    """Where the environment forbids writing bytecode (``PYTHONDONTWRITEBYTECODE``), every
    Python process the tests start (hosts, bots, clients, the workers themselves) would compile
    the project from its source again: the run keeps the bytecode in a temporary folder of its
    own instead (``PYTHONPYCACHEPREFIX``, removed at the end), compiled once a run. Nothing is
    written beside the sources."""
    if hasattr(config, "workerinput") or not os.environ.get("PYTHONDONTWRITEBYTECODE"):
        return  # a worker inherits the controller's folder; else Python's own caches serve
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return
    folder = tempfile.mkdtemp(prefix="briscola-lan-bytecode-")
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``-n auto``: one worker per core, and one more: many tests spend their time waiting on
    sockets, timers and child processes, and the extra worker runs in those waits (on 2 cores:
    250 s with three workers against 278 s with two, same commit)."""
    return (os.cpu_count() or 1) + 1
