"""Run the real ``briscola-lan`` command in child processes for the network tests."""

from __future__ import annotations

import os
import select
import signal
import socket
import subprocess
import sys
import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def cli_env(config: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = str(config)
    env["XDG_DATA_HOME"] = str(config / "data")  # saved games stay in the test's directory
    env["XDG_STATE_HOME"] = str(config / "state")  # and so do the tables' journals
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


def _ephemeral_low() -> int:
    """The lowest port the kernel hands out for port 0 (and to outgoing connections)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


PORT_SLICE = 1000  # ports each pytest worker takes its hosts' ports from
_last_port: list[int] = []  # the last port this process handed out


def host_ports(count: int = 1) -> int:
    """The first of ``count`` consecutive free ports for a host started by a test, below the
    range the kernel hands out for port 0: a host killed and started again (``--resume``)
    listens on its port again, and a port from that range, free for that moment, could go to
    another test's host meanwhile (tests run in parallel workers). Each worker
    (``PYTEST_XDIST_WORKER``) takes its ports from a slice of its own, each one once until the
    slice wraps round, and only ports nothing listens on or is connected from; 0 (any free
    port) when the range starts too low to leave room."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    top = _ephemeral_low() - PORT_SLICE * (int(worker) % 16 if worker.isdigit() else 0)
    bottom = top - PORT_SLICE
    if bottom < 1024 + count:
        return 0
    port = _last_port[0] if _last_port else bottom
    for _ in range(PORT_SLICE):
        port = port + 1 if port + count < top else bottom
        if all(_free(p) for p in range(port, port + count)):
            _last_port[:] = [port + count - 1]
            return port
    return 0


def _free(port: int) -> bool:
    with socket.socket() as s:  # no SO_REUSEADDR: a port in TIME_WAIT counts as taken too
        try:
            s.bind(("", port))
        except OSError:
            return False
    return True


def wait_ready(stdout: Any, timeout: float, seen: list[str] | None = None) -> None:
    """Wait for the host's line "ready" itself (not a line holding the word, such as "Address
    already in use"), read from the pipe as ``wait_line`` reads."""
    end = time.monotonic() + timeout
    while wait_line(stdout, "ready", end - time.monotonic(), seen).strip() != "ready":
        pass


def start_host(
    config: Path, *args: str, prefix: Sequence[str] = (), observe: Path | None = None
) -> Host:
    """``briscola-lan host ARGS`` started and ready: on ports of its own (``host_ports``) unless
    ``args`` say which (``--port``) or it resumes (the port saved in its folder)."""
    if "--ai-delay" not in args:  # the AI players' human pace would only slow the tests down
        args = (*args, "--ai-delay", "0")
    if "--port" not in args and "--resume" not in args:
        tables = int(args[args.index("--tables") + 1]) if "--tables" in args else 1
        args = (*args, "--port", str(host_ports(tables)))
    proc = spawn(config, "host", *args, prefix=prefix, observe=observe)
    assert proc.stdout is not None
    lines: list[str] = []
    try:
        wait_ready(proc.stdout, 30, lines)  # from the pipe, as later reads are
    except AssertionError:
        proc.kill()
        proc.wait()
        raise AssertionError("the host did not start: " + "\n".join(lines)) from None
    tables = [x for x in lines if x.startswith("table ")]
    if not tables:  # an assertion, not StopIteration (which a thread's future cannot carry)
        proc.kill()
        proc.wait()
        raise AssertionError("the host said ready before its table: " + "\n".join(lines))
    table = tables[0]
    where = table.split(" on ")[1].split()[0].rstrip(",")
    address, _, port = where.rpartition(":")
    return Host(proc, address, int(port), table.split()[-1], [line + "\n" for line in lines])


def finish(proc: subprocess.Popen[str], timeout: float) -> tuple[int, str]:
    """Wait for a child; kill it on timeout. Returns (exit code, output)."""
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
        return -9, out
    return proc.returncode, out


# Bytes read past the last line returned, per pipe object (not per descriptor number: a later
# child's pipe may get the same number).
_PENDING: weakref.WeakKeyDictionary[Any, bytes] = weakref.WeakKeyDictionary()


def wait_line(stdout: Any, text: str, timeout: float, seen: list[str] | None = None) -> str:
    """The next output line holding ``text`` (lines before it go to ``seen``), read from the
    pipe itself: ``select`` with ``readline`` misses lines already in Python's buffer."""
    fd = stdout.fileno()
    seen = [] if seen is None else seen
    end = time.monotonic() + timeout
    while True:
        buf = _PENDING.get(stdout, b"")
        while b"\n" in buf:
            raw, buf = buf.split(b"\n", 1)
            _PENDING[stdout] = buf
            line = raw.decode("utf-8", "replace")
            seen.append(line)
            if text in line:
                return line
        if time.monotonic() >= end:
            raise AssertionError(f"{text!r} never printed; the output was: {seen}")
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                raise AssertionError(f"{text!r} never printed (end of output): {seen}")
            _PENDING[stdout] = buf + chunk


def rest_of_output(stdout: Any) -> str:
    """Everything the child prints from here to its end (after ``wait_line`` reads too)."""
    data = _PENDING.pop(stdout, b"")
    while chunk := os.read(stdout.fileno(), 65536):
        data += chunk
    return data.decode("utf-8", "replace")
