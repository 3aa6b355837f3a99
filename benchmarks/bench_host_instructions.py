"""The host's CPU per card as instructions (callgrind), which no other job on the machine moves.

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/bench_host_instructions.py'

A ``briscola-lan host`` runs under ``valgrind --tool=callgrind``; four clients in this process
play one match to warm it up (imports, first uses, and the first time a finished table opens
for a new match), the counters are zeroed (``callgrind_control -z``), and ``--matches`` more (3)
are played one card at a time (``play_tables(isolate=True)``); the instructions the host ran
during it (user space: the kernel's share of a TLS write is not counted) are divided by its
cards. Everything in the match counts: seeds, deals, acknowledgements, receipts, saving the
transcript and the journal (the timer ticks every second instead of every 50 ms: under callgrind
a match lasts ~50x longer). ``--journal off`` runs the host with ``--no-journal``; ``both`` (the
default) runs one of each in turn and prints the journal's ratio. To compare two versions, run
each tree's own copy of this file (it puts its tree first on the path, for the host too);
figures in docs/performance.md (Capacity).
"""

from __future__ import annotations

import argparse
import asyncio
import glob
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_net import env_with  # noqa: E402

from briscola_lan.net import client, tls  # noqa: E402
from briscola_lan.net.player import play_tables  # noqa: E402

# The host runs ~50x slower under callgrind: on a busy machine a TLS handshake with it can take
# longer than a client's usual wait to connect.
client.CONNECT_TIMEOUT = 120.0


async def instructions_per_card(
    work: Path, matches: int, *, journal: bool = True, keep: Path | None = None
) -> tuple[int, float]:
    out = work / "callgrind"
    out.mkdir()
    host = subprocess.Popen(
        [
            "valgrind",
            "--tool=callgrind",
            f"--callgrind-out-file={out}/host.%p",
            sys.executable,
            "-m",
            "briscola_lan.net.host_cmd",
            "--interfaces",
            "127.0.0.1",
            "--players",
            "4",
            "--no-mdns",
            "--tables",
            str(1 + matches),  # a host serves a table one match: one table a match
            "--deal",
            "classic",
            "--hello-timeout",
            "120",  # the host runs ~50x slower under callgrind
            "--tick",
            "1",  # so its timers would fire ~50x as often per card: 1 s keeps them near real
            *(() if journal else ("--no-journal",)),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env_with(work),
    )
    try:
        assert host.stdout is not None
        ports: list[int] = []
        fingerprint = ""
        for line in host.stdout:
            if line.startswith("ready"):
                break
            if line.startswith("table"):
                fingerprint = line.split()[-1]
                where = line.split(" on ")[1].split()[0].rstrip(",")
                ports.append(int(where.rsplit(":", 1)[1]))
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in host.stdout], daemon=True).start()
        await play_tables([("127.0.0.1", ports[0], fingerprint)], isolate=True)
        # The warm-up table opens for a new match once its players have left: the first time
        # a host does that it imports and builds what it had not needed yet, once a process.
        while "open for a new match" not in lines.get(timeout=300):
            pass
        subprocess.run(["callgrind_control", "-z", str(host.pid)], capture_output=True, check=True)
        lat: list[float] = []
        for port in ports[1:]:
            lat += await play_tables([("127.0.0.1", port, fingerprint)], isolate=True)
        subprocess.run(["callgrind_control", "-d", str(host.pid)], capture_output=True, check=True)
    finally:
        host.terminate()
        host.wait(60)
    total = 0
    if keep is not None:  # the profile, for callgrind_annotate
        keep.mkdir(parents=True, exist_ok=True)
        for path in glob.glob(f"{out}/host.*"):
            shutil.copy(path, keep / f"{'journal' if journal else 'no-journal'}.{Path(path).name}")
    for path in glob.glob(f"{out}/host.*"):
        for line in Path(path).read_text(errors="replace").splitlines():
            if line.startswith(("summary:", "totals:")):
                total = max(total, int(line.split()[1]))
    return len(lat), total / max(1, len(lat))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--matches", type=int, default=3, help="matches measured in each run")
    parser.add_argument(
        "--journal",
        choices=("both", "on", "off"),
        default="both",
        help="the host with its journal (the default), without (--no-journal), or both in turn",
    )
    parser.add_argument(
        "--keep",
        type=Path,
        help="copy callgrind's files to this folder (read them with callgrind_annotate)",
    )
    args = parser.parse_args()
    kinds = {"both": (True, False), "on": (True,), "off": (False,)}[args.journal]
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        raise SystemExit("needs valgrind (callgrind and callgrind_control)")
    import briscola_lan

    print(f"code: {Path(briscola_lan.__file__).parent}")
    for run in range(args.runs):
        figures: dict[bool, float] = {}
        for journal in kinds:
            with tempfile.TemporaryDirectory() as tmp:
                work = Path(tmp)
                tls.load_or_create_certificate(work / "briscola-lan")
                cards, per_card = asyncio.run(
                    instructions_per_card(work, args.matches, journal=journal, keep=args.keep)
                )
            figures[journal] = per_card
            what = "with its journal" if journal else "without a journal"
            print(
                f"run {run + 1}: {cards} cards, host {what}: "
                f"{per_card / 1e6:.2f} M instructions per card"
            )
        if len(figures) == 2:
            print(f"run {run + 1}: the journal costs {figures[True] / figures[False]:.3f}x")


if __name__ == "__main__":
    main()
