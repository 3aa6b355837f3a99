"""Resident memory of the terminal client: the real ``briscola-lan`` in tmux, a hand vs AI.

Starts the client in a private tmux server (100x30), presses ``a`` (practice: an embedded host on
127.0.0.1 and the real client library), plays one whole hand with Enter, and reads VmRSS and
VmHWM (peak) from /proc. Baseline, measured in the same run: a bare ``python -c`` that imports
prompt_toolkit and waits. Run it inside a network namespace for safety:

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/client_memory.py'
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

TARGET_MB = 80.0


def tmux(name: str, *args: str) -> str:
    out = subprocess.run(["tmux", "-L", name, *args], capture_output=True, text=True, check=False)
    return out.stdout


def rss(pid: int) -> tuple[float, float]:
    """(VmRSS, VmHWM) in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) / 1024, int(fields["VmHWM"].split()[0]) / 1024


def run_in_tmux(cmd: str, env: dict[str, str]) -> tuple[str, int]:
    name = f"bench-client-{os.getpid()}-{uuid.uuid4().hex[:6]}"
    env_text = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    subprocess.run(
        ["tmux", "-L", name, "-f", "/dev/null", "new-session", "-d", "-x", "100", "-y", "30",
         f"exec env {env_text} {cmd}"],
        check=True,
    )  # fmt: skip
    pid = int(tmux(name, "display", "-p", "#{pane_pid}").strip())
    return name, pid


def main() -> int:
    tmp = Path(tempfile.mkdtemp(prefix="briscola-mem-"))
    env = {
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(tmp / "data"),
        "XDG_STATE_HOME": str(tmp / "state"),
        "LANG": "C.UTF-8",
        "TERM": "xterm-256color",
    }
    py = shlex.quote(sys.executable)
    base_name, base_pid = run_in_tmux(f"{py} -c 'import prompt_toolkit, time; time.sleep(30)'", env)
    time.sleep(1.0)
    base_rss, _ = rss(base_pid)
    tmux(base_name, "kill-server")

    name, pid = run_in_tmux(
        f"{py} -m briscola_lan --name Bench --ai-level rules --ai-delay 0 --interfaces 127.0.0.1",
        env,
    )
    try:
        end = time.monotonic() + 20
        while "Play against AI now" not in tmux(name, "capture-pane", "-p"):
            if time.monotonic() > end:
                raise SystemExit("the client did not start")
            time.sleep(0.05)
        lobby_rss, _ = rss(pid)
        tmux(name, "send-keys", "a")
        end = time.monotonic() + 60
        while True:
            screen = tmux(name, "capture-pane", "-p")
            if "Hand 1 over" in screen:
                break
            if time.monotonic() > end:
                raise SystemExit("the hand did not finish:\n" + screen)
            if "Your turn" in screen:
                tmux(name, "send-keys", "Enter")
            time.sleep(0.03)
        table_rss, peak = rss(pid)
    finally:
        tmux(name, "kill-server")
    print(f"baseline (python + prompt_toolkit import): {base_rss:6.1f} MB")
    print(f"client in the lobby (mDNS browsing):        {lobby_rss:6.1f} MB")
    print(f"client after a hand (embedded host + TLS):  {table_rss:6.1f} MB  peak {peak:.1f} MB")
    print(f"ratio to baseline: {table_rss / base_rss:.2f}x; target < {TARGET_MB:.0f} MB: "
          f"{'met' if peak < TARGET_MB else 'NOT met'}")  # fmt: skip
    return 0


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__).parse_args()  # --help, no options
    sys.exit(main())
