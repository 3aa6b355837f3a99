"""Benchmark: a five-player blind hand's set-up (Briscola chiamata, protocol/fairness.md §13.9)
beside a four-player blind hand's, measured in the same run.

``briscola-lan host --deal blind`` in a child process, the clients in this process on this
2-core machine (five clients at five players, four at four), over TLS on loopback. A hand's
set-up runs from ``hand_started`` at the first client to the moment every client holds its
cards: at five players, its eight, the auction open and the first bid due ("until the first
bid"); at four, its three and the upcard turned. Every seat is a party: each shuffles and locks
the deck in turn, then sends its keys for the others' cards. Five players: five passes of each
kind instead of four, and 32 sealed keys a party instead of 9 (plus the upcard's key).

Target: five-player blind set-up median <= 0.35 s; the ratio to the four-player one is printed.

Run: python benchmarks/bench_blind_five.py [--tables N] [--rounds N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from bench_net import HostProcess, fmt_ms, pct

from briscola_lan.fairness.memo import keep_results

# (players, cards a seat holds when the hand is set up, host options)
TABLES = {
    4: (3, ("--players", "4", "--hands-to-win", "1")),
    5: (8, ("--players", "5", "--match-hands", "1")),
}


async def one_match(port: int, fingerprint: str, players: int) -> list[float]:
    """One match at ``players`` seats, each a client here: each hand's set-up time."""
    from briscola_lan.net.client import Target
    from briscola_lan.net.player import auto_play, connect, make_chooser
    from briscola_lan.wire.messages import HandStarted

    cards = TABLES[players][0]
    target = Target("127.0.0.1", port, None, fingerprint)
    clients = [await connect(target, f"bench{i}") for i in range(players)]
    started: dict[int, float] = {}
    ready: dict[int, dict[int, float]] = {}

    def hooks(i: int, c: Any) -> None:
        def on_message(message: Any) -> None:
            st = c.session.state
            if type(message) is HandStarted:
                started.setdefault(st.hand_number, time.perf_counter())
            view = st.view
            if (
                view is not None
                and len(view.hand) == cards
                and not view.tricks
                and not view.trick
                and not view.auction
            ):
                ready.setdefault(st.hand_number, {}).setdefault(i, time.perf_counter())

        c.on_message = on_message

    for i, c in enumerate(clients):
        hooks(i, c)
    try:
        await asyncio.gather(
            *(auto_play(c, make_chooser("random", i), seat=i) for i, c in enumerate(clients))
        )
    finally:
        for c in clients:
            await c.close()
    return [max(r.values()) - started[h] for h, r in ready.items() if len(r) == players]


async def network(work: Path, tables: int, rounds: int) -> dict[int, list[float]]:
    out: dict[int, list[float]] = {4: [], 5: []}
    for _ in range(rounds):  # interleaved: four, five, four, five...
        for players, (_cards, args) in TABLES.items():
            host = HostProcess(work, *args, "--no-mdns", "--tables", str(tables), "--deal", "blind")
            try:
                for port in host.ports:
                    out[players].extend(await one_match(port, host.fingerprint, players))
            finally:
                host.stop()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--tables", type=int, default=5, help="matches per table size and round")
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        results = asyncio.run(network(Path(tmp), args.tables, args.rounds))
    print("a blind hand's set-up over TLS (hand_started -> every client holds its cards)")
    for players, label in ((4, "4 players, 3 cards and the upcard"), (5, "5 players, 8 cards")):
        s = results[players]
        print(
            f"   {label:34} median {fmt_ms(statistics.median(s))}  p90 {fmt_ms(pct(s, 90))}"
            f"  ({len(s)} hands)"
        )
    ratio = statistics.median(results[5]) / statistics.median(results[4])
    print(f"   five / four: {ratio:.2f}x   (target: five-player median <= 350 ms)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
