"""Start-up to the lobby, as a person sees it: ``briscola-lan`` in a pseudo-terminal until its
lobby is on the screen, beside a minimal prompt_toolkit full-screen app until its one line is on
the screen, taking turns in the same run (median of N each); with the compiled bytecode in place
and without it (``PYTHONDONTWRITEBYTECODE`` and a fresh ``PYTHONPYCACHEPREFIX``: every module
compiled again). Target: the lobby in at most 1.3x the minimal app's time.

Run: python benchmarks/bench_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import pty
import select
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

MINIMAL = """
from prompt_toolkit.application import Application
from prompt_toolkit.layout import Layout
from prompt_toolkit.layout.containers import Window
from prompt_toolkit.layout.controls import FormattedTextControl
app = Application(layout=Layout(Window(FormattedTextControl("minimal app ready"))),
                  full_screen=True)
app.run()
"""


def until_shown(argv: list[str], marker: bytes, env: dict[str, str]) -> float:
    """Seconds from the process's start until ``marker`` is on its terminal; then it is ended."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the program, in the pseudo-terminal
        os.execve(argv[0], argv, env)
    start = time.perf_counter()
    seen = b""
    try:
        while True:
            ready, _, _ = select.select([fd], [], [], 30)
            if not ready:
                raise RuntimeError(f"{marker!r} did not show within 30 s: {seen[-400:]!r}")
            try:
                chunk = os.read(fd, 65536)
            except OSError as exc:
                raise RuntimeError(f"ended before {marker!r}: {seen[-400:]!r}") from exc
            seen += chunk
            # the screen is drawn with escape sequences between words: compare the text only
            if marker in seen.replace(b"\x1b[0m", b""):
                return time.perf_counter() - start
    finally:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        os.close(fd)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        base = dict(os.environ, TERM="xterm", COLUMNS="100", LINES="30", HOME=str(home))
        base["XDG_CONFIG_HOME"] = str(home / "config")
        base["XDG_DATA_HOME"] = str(home / "data")
        base["XDG_STATE_HOME"] = str(home / "state")
        base["BRISCOLA_LAN_INTERFACES"] = "127.0.0.1"
        base["PYTHONPATH"] = str(ROOT)
        (home / "minimal.py").write_text(MINIMAL)
        cases = {
            "minimal prompt_toolkit app": (
                [sys.executable, str(home / "minimal.py")],
                b"minimal app ready",
            ),
            "briscola-lan (the lobby)": (
                [sys.executable, "-m", "briscola_lan", "--lang", "en"],
                b"Play against AI",
            ),
        }
        print(f"load average before: {os.getloadavg()[0]:.2f}")
        for label, extra in (("compiled bytecode", {}), ("no bytecode", None)):
            times: dict[str, list[float]] = {name: [] for name in cases}
            for i in range(args.runs):
                for name, (argv, marker) in cases.items():
                    env = dict(base)
                    if extra is None:  # every module compiled again, nothing written
                        env["PYTHONDONTWRITEBYTECODE"] = "1"
                        env["PYTHONPYCACHEPREFIX"] = str(home / f"pyc-{i}")
                    else:  # bytecode written on the first run and used after, as a user has it
                        env.pop("PYTHONDONTWRITEBYTECODE", None)
                        env["PYTHONPYCACHEPREFIX"] = str(home / "pyc-compiled")
                        subprocess.run([*argv[:1], "-c", "pass"], env=env, check=True)
                    if extra is not None and i == 0:  # a first run writes the bytecode
                        until_shown(argv, marker, env)
                    times[name].append(until_shown(argv, marker, env))
            print(f"{label}: median of {args.runs} (min-max)")
            medians = {}
            for name, ts in times.items():
                medians[name] = statistics.median(ts)
                print(
                    f"   {name:28} {1000 * medians[name]:7.1f} ms"
                    f"  ({1000 * min(ts):.1f}-{1000 * max(ts):.1f})"
                )
            minimal = medians["minimal prompt_toolkit app"]
            lobby = medians["briscola-lan (the lobby)"]
            print(f"   lobby / minimal app: {lobby / minimal:.2f}x   (target <= 1.3x)")
        print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
