"""Benchmark: how long a blind hand's end holds the host's event loop, with the key reveals
checked at once (the baseline, as a table without a worker does) and handed to the worker
thread (as the network host does), in the same run.

1. Whole 4-player blind matches through the sans-IO host (``table.selfplay``): for each hand,
   the longest single call into the host (the one that publishes the key reveals), and the
   worker's check of them, timed apart.
2. The worker's check in a thread while the main thread keeps taking turns (as the event loop
   does): the longest the main thread waited for a turn, against the check's own length (libsodium
   releases the GIL, so the loop is not held while the worker computes).

Run: python benchmarks/bench_reveal_checks.py [--matches N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from briscola_lan.fairness.memo import keep_results
from briscola_lan.rules import TableOptions
from briscola_lan.table.deal import Checks
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients

OPTIONS = TableOptions.make(players=4, hands_to_win=2)


def run_match(seed: int, defer: bool) -> tuple[list[float], list[Checks]]:
    """One match; the host call that published each hand's key reveals (seconds), and the
    work handed out."""
    host, _, wire = seat_clients(OPTIONS, entropy=counter_entropy(f"b{seed}"), deal="blind")
    host.defer_checks = defer
    reveal_calls: list[float] = []
    handed: list[Checks] = []
    receive = host.receive

    def timed(conn: int, msg: Any) -> list[Any]:
        before = host.phase
        start = time.perf_counter()
        out = receive(conn, msg)
        took = time.perf_counter() - start
        checks = host.pending_checks()
        if checks is not None:  # the call that published the reveals; the worker's part apart
            reveal_calls.append(took)
            handed.append(checks)
            out += host.checks_done(checks, checks.run())
        elif before == "reveal" and host.phase != "reveal":  # checked within the call
            reveal_calls.append(took)
        return out

    host.receive = timed  # type: ignore[method-assign]
    rng = random.Random(seed)
    wire.deliver(host.start())
    wire.pump()
    play_out(wire, [lambda v, r=rng: r.choice(v.legal_plays) for _ in range(4)])
    assert host.phase == "over"
    return reveal_calls, handed


def worker_overlap(checks: Checks) -> tuple[float, float]:
    """The check's length in a thread, and the longest a short piece of the main thread's work
    took meanwhile (its own length alone is a few microseconds)."""
    done = threading.Event()
    took = [0.0]

    def work() -> None:
        start = time.perf_counter()
        checks.run()
        took[0] = time.perf_counter() - start
        done.set()

    thread = threading.Thread(target=work)
    gap = 0.0
    thread.start()
    while not done.is_set():  # a loop serving other tables: a little work, then a wait
        start = time.perf_counter()
        sum(range(200))
        gap = max(gap, time.perf_counter() - start)
        time.sleep(0.0005)
    thread.join()
    return took[0], gap


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=6)
    args = ap.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    at_once: list[float] = []
    deferred: list[float] = []
    work: list[Checks] = []
    for seed in range(args.matches):  # in turns, the same matches both ways
        at_once += run_match(seed, False)[0]
        longest, handed = run_match(seed, True)
        deferred += longest
        work += handed
    checks_ms = []
    for checks in work:
        start = time.perf_counter()
        checks.run()
        checks_ms.append(time.perf_counter() - start)
    print(f"{len(at_once)} hands of 4-player blind matches, {args.matches} matches each way")
    print(
        "the host call that publishes a hand's key reveals: checked at once (baseline) median "
        f"{1000 * statistics.median(at_once):.1f} ms (max {1000 * max(at_once):.1f}); "
        f"handed to the worker median {1000 * statistics.median(deferred):.1f} ms "
        f"(max {1000 * max(deferred):.1f}); ratio "
        f"{statistics.median(deferred) / statistics.median(at_once):.2f}x"
    )
    median_check = 1000 * statistics.median(checks_ms)
    print(f"the worker's check of a hand's reveals, alone: median {median_check:.1f} ms")
    overlaps = [worker_overlap(c) for c in work[:10]]
    print(
        "in a thread: check median "
        f"{1000 * statistics.median(t for t, _ in overlaps):.1f} ms, the main thread's longest "
        f"piece of work meanwhile median {1000 * statistics.median(g for _, g in overlaps):.2f} ms "
        f"(max {1000 * max(g for _, g in overlaps):.2f})"
    )


if __name__ == "__main__":
    main()
