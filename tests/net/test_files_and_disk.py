"""Files on disk: every file the host, the clients, the bots and the terminal client write is
private (0600, in 0700 folders, created so, never chmod-ed later), and a disk that fills up or
turns read-only mid-game stops nothing: the host goes on in memory, says so once, and catches up
when the disk is back."""

from __future__ import annotations

import argparse
import asyncio
import errno
import logging
import os
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness.identity import IdentityError
from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net import files, host_cmd, tls
from briscola_lan.net import journal as journal_module
from briscola_lan.net.client import Target
from briscola_lan.net.files import load_or_create_identity, private_dir, write_private
from briscola_lan.net.host_saves import RETRY_SAVES
from briscola_lan.net.journal import Journal
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.net.table_spec import load_spec
from tests.net.procs import ROOT, cli_args, finish

LO = ("--interfaces", "127.0.0.1")


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def walk(root: Path) -> Iterator[Path]:
    yield root
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            yield Path(dirpath) / name


def loose_modes(root: Path) -> list[str]:
    """Every folder under ``root`` that is not 0700 and every file that is not 0600."""
    bad = []
    for path in walk(root):
        want = 0o700 if path.is_dir() else 0o600
        if _mode(path) != want:
            bad.append(f"{path.relative_to(root.parent)}: {_mode(path):o}")
    return bad


def _home_env(home: Path) -> dict[str, str]:
    """A user whose only folder is an empty HOME: the defaults (~/.config, ~/.local/...)."""
    env = dict(os.environ)
    for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "BRISCOLA_LAN_GAMES"):
        env.pop(var, None)
    env["HOME"] = str(home)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def _spawn(home: Path, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        cli_args(*args),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=_home_env(home),
        # the usual umask: without the fix, files come out 0644 and folders 0755
        preexec_fn=lambda: os.umask(0o022),  # noqa: PLW1509 (no threads in the child yet)
    )


def _start_host(home: Path, *args: str) -> tuple[subprocess.Popen[str], int, str, list[str]]:
    proc = _spawn(home, "host", *args)
    assert proc.stdout is not None
    lines: list[str] = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("ready"):
            table = next(x for x in lines if x.startswith("table "))
            port = int(table.split(" on ")[1].split()[0].rpartition(":")[2])
            return proc, port, table.split()[-1], lines
    proc.wait()
    raise AssertionError("the host did not start: " + "".join(lines))


def test_every_file_the_host_a_bot_and_a_line_client_write_is_private(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir(mode=0o700)
    state = home / "state"  # made by the host
    host, port, fp, lines = _start_host(
        home, "--players", "2", "--hands-to-win", "1", "--no-mdns", *LO,
        "--tick", "0.01", "--state-dir", str(state),
    )  # fmt: skip
    where = f"127.0.0.1:{port}"
    children = [
        _spawn(home, "bot", where, "--fingerprint", fp, "--seat", "0", "--level", "random"),
        _spawn(home, "join", where, "--fingerprint", fp, "--seat", "1", "--auto", "random",
               "--name", "Line", "--line"),
    ]  # fmt: skip
    try:
        results = [finish(c, 120) for c in children]
    finally:
        for c in children:
            if c.poll() is None:
                c.kill()
        host.terminate()
        out, _ = host.communicate(timeout=30)
    report = "".join(lines) + out + "\n---\n".join(o for _, o in results)
    assert [c for c, _ in results] == [0, 0], report
    config, data = home / ".config" / "briscola-lan", home / ".local" / "share" / "briscola-lan"
    written = {str(p.relative_to(home)) for p in walk(home) if p.is_file()}
    for expected in (
        ".config/briscola-lan/identity.key",  # the host's and the line client's key
        ".config/briscola-lan/host-key.pem",
        ".config/briscola-lan/host-cert.pem",
        ".config/briscola-lan/known_tables",
        ".config/briscola-lan/resume_tokens",
        ".config/briscola-lan/bots/bot-random/identity.key",
        ".config/briscola-lan/bots/bot-random/resume_tokens",
        "state/table.journal",  # the table's journal
        "state/table.json",
    ):
        assert expected in written, (expected, sorted(written))
    assert any(p.startswith(".config/briscola-lan/resume_secrets/") for p in written)
    assert any(
        p.startswith(".config/briscola-lan/bots/bot-random/resume_secrets/") for p in written
    )
    saved = sorted(p.name for p in (data / "games").iterdir())
    assert len(saved) == 3, saved  # the host's, the bot's and the line client's transcripts
    assert not [p for p in written if p.endswith(".tmp")], written
    assert config.is_dir()
    for folder in (home / ".config", home / ".local", state):
        assert loose_modes(folder) == [], folder


def test_write_private_replaces_atomically_and_never_shows_the_data_to_others(
    tmp_path: Path,
) -> None:
    old = os.umask(0)  # even with no umask at all
    try:
        path = tmp_path / "new" / "deeper" / "secret"
        write_private(path, b"one")
        assert path.read_bytes() == b"one" and _mode(path) == 0o600
        assert _mode(path.parent) == 0o700 and _mode(path.parent.parent) == 0o700
        loose = tmp_path / "loose"
        loose.write_bytes(b"old")
        os.chmod(loose, 0o644)
        write_private(loose, b"new")  # a file an older version left readable
        assert loose.read_bytes() == b"new" and _mode(loose) == 0o600
        with pytest.raises(FileExistsError):
            write_private(loose, b"other", replace=False)  # create-once keeps the first
        assert loose.read_bytes() == b"new"
        assert sorted(p.name for p in tmp_path.iterdir()) == ["loose", "new"]  # no temp left
    finally:
        os.umask(old)


def test_a_write_the_disk_refuses_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "table.state"
    write_private(path, b"old state")

    def full(fd: int, data: Any) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "write", full)
    with pytest.raises(OSError, match="No space"):
        write_private(path, b"new state")
    monkeypatch.undo()
    assert path.read_bytes() == b"old state"
    assert [p.name for p in tmp_path.iterdir()] == ["table.state"]


def test_folders_of_its_own_are_tightened_a_chosen_games_folder_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    mine = tmp_path / "cfg" / "briscola-lan"
    mine.mkdir(parents=True, mode=0o755)
    os.chmod(mine, 0o755)  # as an older version left it
    load_or_create_identity()
    assert _mode(mine) == 0o700 and _mode(mine / "identity.key") == 0o600
    assert _mode(tmp_path / "cfg") == 0o755  # ~/.config is the user's, not ours
    chosen = tmp_path / "Documents"
    chosen.mkdir(mode=0o755)
    os.chmod(chosen, 0o755)
    private_dir(chosen)  # e.g. --games ~/Documents: left as the user made it
    assert _mode(chosen) == 0o755
    private_dir(chosen, tighten=True)  # --state-dir holds the live deck: made private
    assert _mode(chosen) == 0o700


def test_identity_created_once_then_refused_if_damaged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    a = load_or_create_identity()
    path = tmp_path / "briscola-lan" / "identity.key"
    assert _mode(path) == 0o600
    assert load_or_create_identity().public_key == a.public_key
    path.write_bytes(b"short")
    with pytest.raises(IdentityError, match="move it away"):
        load_or_create_identity()


# --- a full or read-only disk ---------------------------------------------------------------


class DiskFault:
    """Makes the one file writer refuse every file under ``roots`` while ``on``, and the tables'
    journals there too (they append to their file: the disk takes half a change, then
    refuses)."""

    def __init__(self, code: int, *roots: Path) -> None:
        self.code, self.roots, self.on, self.refused = code, roots, False, 0
        self.real: Callable[..., None] = files.write_private
        self.real_write_at = journal_module._write_at

    def covers(self, path: Path) -> bool:
        return any(r == path or r in path.parents for r in self.roots)

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(files, "write_private", self)
        monkeypatch.setattr(journal_module, "_write_at", self.write_at)

    def write_at(self, fd: int, data: bytes, offset: int) -> None:
        if self.on and self.covers(Path(os.readlink(f"/proc/self/fd/{fd}"))):
            self.refused += 1
            self.real_write_at(fd, data[: len(data) // 2], offset)
            raise OSError(self.code, os.strerror(self.code))
        self.real_write_at(fd, data, offset)

    def __call__(self, path: Path, data: bytes, **kw: Any) -> None:
        if self.on and self.covers(path):
            self.refused += 1
            raise OSError(self.code, os.strerror(self.code), str(path))
        self.real(path, data, **kw)


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS])
async def test_a_disk_that_refuses_writes_mid_game_stops_nothing_and_loses_nothing(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    code: int,
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    state, games = tmp_path / "state", tmp_path / "games"
    fault = DiskFault(code, state, games)
    fault.install(monkeypatch)
    fp = tls.load_or_create_certificate().fingerprint
    parser = argparse.ArgumentParser()
    host_cmd.configure(parser)
    args = parser.parse_args(
        ["--players", "2", "--ai", "1", "--hands-to-win", "1", "--no-mdns", *LO, "--tick",
         "0.01", "--state-dir", str(state), "--games", str(games), "--ai-delay", "0"]
    )  # fmt: skip
    stop = asyncio.Event()
    caplog.set_level(logging.WARNING)
    host = asyncio.create_task(host_cmd.serve(args, stop=stop))
    try:
        while not (state / "table.json").exists():
            assert not host.done(), host
            await asyncio.sleep(0.02)
        port = load_spec(state / "table.json").port
        client = await connect(Target("127.0.0.1", port, None, fp), "Bea")
        try:
            st = client.session.state
            play = asyncio.create_task(
                auto_play(client, make_chooser("random", 1), seat=0, delay=0.02, timeout=120)
            )
            assert await client.wait_for(
                lambda: st.view is not None and len(st.view.played_cards) >= 2, 60
            )
            fault.on = True  # the disk fills up two cards into the hand
            stats = await asyncio.wait_for(play, 120)  # ... and the match is played to its end
            assert st.match_over and stats.reconnects == 0 and client.reconnects == 0
            assert fault.refused > 1
            assert [n.code for n in st.notices] == ["not_saving"], st.notices
            reason = "disk full" if code == errno.ENOSPC else "read-only file system"
            assert reason in st.notices[0].text
            fault.on = False  # space again
            assert await client.wait_for(lambda: len(st.notices) == 2, 3 * RETRY_SAVES)
            assert st.notices[1].code == "saving"
        finally:
            await client.close()
    finally:
        stop.set()
        assert await asyncio.wait_for(host, 30) == 0
    # nothing lost: the journal and the transcript hold the whole finished match
    identity = load_or_create_identity()
    journal = Journal.open(state / "table.journal", identity.public_key)
    try:
        table = journal.load(identity)
    finally:
        journal.close()
    saved = load(next(games.glob("*-host.briscola.json")))
    report = verify_records(saved)
    assert table is not None and str(table.phase) == "over" and table.records == saved
    assert report.ok and report.match_over
    out, err = capfd.readouterr()
    console = (out + err).splitlines()
    refused = [line for line in console if "cannot save the game" in line]
    assert len(refused) == 1 and reason in refused[0] and str(tmp_path) in refused[0], console
    assert len([line for line in console if "saved again" in line]) == 1, console
    assert "Traceback" not in out + err and "never retrieved" not in out + err
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]


def test_a_state_folder_on_a_full_disk_is_said_so_at_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    state = tmp_path / "state"
    fault = DiskFault(errno.ENOSPC, state)
    fault.on = True
    fault.install(monkeypatch)
    code = host_cmd.main(["--no-mdns", *LO, "--state-dir", str(state)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"--state-dir: cannot write in {state}: disk full" in err, err
    assert "Pick another --port" not in err


def test_help_stays_light() -> None:
    """``net.files`` is imported by the commands: it must not pull cryptography in."""
    out = subprocess.run(
        [sys.executable, "-c", "import sys, briscola_lan.net.files; "
         "print('cryptography' in sys.modules)"],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
    ).stdout  # fmt: skip
    assert out.strip() == "False"
