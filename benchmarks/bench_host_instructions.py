"""The host's CPU per card as instructions (callgrind), which no other job on the machine moves.

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/bench_host_instructions.py'

A ``briscola-lan host`` runs under ``valgrind --tool=callgrind``; four clients in this process
play one 4-player classic match of two hands (``--format points``: every match is 80 cards, so
runs compare) to warm it up (imports, first uses, and the first time a finished table opens
for a new match), the counters are zeroed (``callgrind_control -z``), and ``--matches`` more (3)
are played one card at a time (``play_tables(isolate=True)``); the instructions the host ran
during it (user space: the kernel's share of a TLS write is not counted) are divided by its
cards. Everything in the match counts: seeds, deals, acknowledgements, receipts, saving the
transcript and the journal (the timer ticks every second instead of every 50 ms: under callgrind
a match lasts ~50x longer). The host's timers (its tick, the transcripts' and the finished
tables' looks, a few a second) cost it instructions for as long as the matches last, and under
callgrind on a busy machine they last longer. A twin of the host (the same command, nobody
playing at it) runs under callgrind beside it, measured over the same time: the figure is also
printed without the twin's instructions ("without them"), which the machine's load moves far
less.
``--journal off`` runs the host with ``--no-journal``; ``both`` (the default) runs one of each in
turn and prints the journal's ratio. To compare two versions, run each tree's own copy of this
file (it puts its tree first on the path, for the host too; copy this one into an older tree to
measure it the same way); figures in docs/performance.md (Capacity).
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
import time
from dataclasses import dataclass
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


def _start_host(work: Path, matches: int, journal: bool) -> subprocess.Popen[str]:
    """``briscola-lan host`` under callgrind, its files in ``work``, its profiles in
    ``work/callgrind``."""
    out = work / "callgrind"
    out.mkdir(parents=True)
    tls.load_or_create_certificate(work / "briscola-lan")
    return subprocess.Popen(
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
            "--format",
            "points",  # two hands a match (a third when the points tie): 80 cards, every run
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


def _tables(host: subprocess.Popen[str]) -> tuple[list[int], str]:
    """The host's tables' ports and its fingerprint, from its start-up lines."""
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
    return ports, fingerprint


def _dumped(work: Path) -> int:
    """The instructions of callgrind's first dump (the measured part) in ``work``."""
    total = 0
    for path in glob.glob(f"{work}/callgrind/host.*"):
        part, most = 0, 0
        for line in Path(path).read_text(errors="replace").splitlines():
            if line.startswith("part:"):
                part = int(line.split()[1])
            elif line.startswith(("summary:", "totals:")):
                most = max(most, int(line.split()[1]))
        if part == 1:
            total = most
    return total


def _control(option: str, *hosts: subprocess.Popen[str]) -> None:
    for host in hosts:
        subprocess.run(
            ["callgrind_control", option, str(host.pid)], capture_output=True, check=True
        )


@dataclass
class Measured:
    """One run: the cards played, the host's instructions meanwhile and how long they took,
    and its twin's (the same host, nobody playing at it) over the same time."""

    cards: int
    instructions: int
    seconds: float
    twin: int

    @property
    def per_card(self) -> float:
        return self.instructions / max(1, self.cards)

    @property
    def card_work(self) -> float:
        """A card's instructions without the timers' (what the twin ran meanwhile)."""
        return (self.instructions - self.twin) / max(1, self.cards)


async def instructions_per_card(
    work: Path, matches: int, *, journal: bool = True, keep: Path | None = None
) -> Measured:
    host = _start_host(work / "host", matches, journal)
    # Its twin: the same host, started alike, whose tables nobody joins. Its instructions over
    # the same time are the timers' (the tick, the transcripts' and finished tables' looks),
    # which run for as long as the matches last: longer on a busy machine.
    twin = _start_host(work / "twin", matches, journal)
    try:
        ports, fingerprint = _tables(host)
        _tables(twin)
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=lambda: [lines.put(x) for x in host.stdout], daemon=True).start()  # type: ignore[union-attr]
        threading.Thread(target=lambda: [None for _ in twin.stdout], daemon=True).start()  # type: ignore[union-attr]
        await play_tables([("127.0.0.1", ports[0], fingerprint)], isolate=True)
        # The warm-up table opens for a new match once its players have left: the first time
        # a host does that it imports and builds what it had not needed yet, once a process.
        while "open for a new match" not in lines.get(timeout=300):
            pass
        _control("-z", host, twin)
        lat: list[float] = []
        start = time.monotonic()
        for port in ports[1:]:
            lat += await play_tables([("127.0.0.1", port, fingerprint)], isolate=True)
        _control("-d", host, twin)
        played = time.monotonic() - start
    finally:
        for h in (host, twin):
            h.terminate()
        for h in (host, twin):
            h.wait(600)  # callgrind writes its profile as it exits: slow on a busy machine
    if keep is not None:  # the profile, for callgrind_annotate
        keep.mkdir(parents=True, exist_ok=True)
        for path in glob.glob(f"{work}/host/callgrind/host.*"):
            shutil.copy(path, keep / f"{'journal' if journal else 'no-journal'}.{Path(path).name}")
    return Measured(len(lat), _dumped(work / "host"), played, _dumped(work / "twin"))


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
        figures: dict[bool, Measured] = {}
        for journal in kinds:
            with tempfile.TemporaryDirectory() as tmp:
                m = asyncio.run(
                    instructions_per_card(Path(tmp), args.matches, journal=journal, keep=args.keep)
                )
            figures[journal] = m
            what = "with its journal" if journal else "without a journal"
            print(
                f"run {run + 1}: {m.cards} cards in {m.seconds:.0f} s, host {what}: "
                f"{m.per_card / 1e6:.2f} M instructions per card; its twin's timers "
                f"{m.twin / max(1e-9, m.seconds) / 1e6:.2f} M a second: "
                f"{m.card_work / 1e6:.2f} M a card without them"
            )
        if len(figures) == 2:
            on, off = figures[True], figures[False]
            print(
                f"run {run + 1}: the journal costs {on.per_card / off.per_card:.3f}x "
                f"({on.card_work / off.card_work:.3f}x without the timers)"
            )


if __name__ == "__main__":
    main()
