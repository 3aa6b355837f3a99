"""Run the real ``briscola-lan`` command in child processes for the network tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def cli_env(config: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = str(config)
    env["XDG_DATA_HOME"] = str(config / "data")  # saved games stay in the test's directory
    env.pop("BRISCOLA_LAN_GAMES", None)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def cli_args(*args: str, observe: Path | None = None) -> list[str]:
    """The command line of ``briscola-lan ARGS``; with ``observe``, run under ``observe.py``,
    which records what the process gets, holds and writes in that file."""
    if observe is not None:
        return [sys.executable, "-m", "tests.net.observe", str(observe), "--", *args]
    return [sys.executable, "-m", "briscola_lan", *args]


def spawn(
    config: Path,
    *args: str,
    prefix: Sequence[str] = (),
    stdin: int | None = None,
    observe: Path | None = None,
) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*prefix, *cli_args(*args, observe=observe)],
        stdin=stdin if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=cli_env(config),
    )


@dataclass
class Host:
    """A running ``briscola-lan host`` and what it printed when ready."""

    proc: subprocess.Popen[str]
    address: str
    port: int
    fingerprint: str
    lines: list[str]

    def stop(self, sig: int = signal.SIGTERM) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            return self.proc.wait(10)
        finally:
            if self.proc.stdout is not None:
                self.proc.stdout.close()


def start_host(
    config: Path, *args: str, prefix: Sequence[str] = (), observe: Path | None = None
) -> Host:
    proc = spawn(config, "host", *args, prefix=prefix, observe=observe)
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if line.startswith("ready"):
            table = next(x for x in lines if x.startswith("table "))
            where = table.split(" on ")[1].split()[0].rstrip(",")
            address, _, port = where.rpartition(":")
            return Host(proc, address, int(port), table.split()[-1], lines)
    proc.kill()
    proc.wait()
    raise AssertionError("the host did not start: " + "".join(lines))


def finish(proc: subprocess.Popen[str], timeout: float) -> tuple[int, str]:
    """Wait for a child; kill it on timeout. Returns (exit code, output)."""
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        return -9, out
    return proc.returncode, out
