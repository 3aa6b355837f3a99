"""Benchmark: the host's snapshot over a whole match, taken at each change as if written whole
each time — how big it grows, how many bytes that would write in all, and the CPU each costs.

The snapshot (protocol/SPEC.md §10) is what the host's journal is read back into
(``net/journal.py`` appends what each change added instead: ``bench_journal.py`` measures the two
side by side). Baseline in the same run, on the same snapshots: the
version 3 layout, where every human seat's log held its own copy of each message it was sent
(a broadcast stored once per seat) and every snapshot encoded every logged message again.
Run: python benchmarks/bench_state.py [--hands N]
"""

from __future__ import annotations

import argparse
import time

import msgpack

from briscola_lan.fairness.memo import keep_results
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients


def v3_size(data: bytes) -> int:
    """The same snapshot in the version 3 layout: each seat's log as its own list of bodies."""
    obj = msgpack.unpackb(data)
    state = obj["state"]
    messages = state.pop("messages")
    for seat in state["seats"]:
        seat["log"] = [messages[i] for i in seat["log"]]
    return len(msgpack.packb(obj))


class Recorder:
    """Takes a snapshot after every host step that sends something, as net/server.py does."""

    def __init__(self, host: HostTable) -> None:
        self.host = host
        self.sizes: list[int] = []
        self.v3_sizes: list[int] = []
        self.seconds = 0.0
        self.uncached_seconds = 0.0
        receive, tick = host.receive, host.tick
        host.receive = lambda conn, msg: self.after(receive(conn, msg))  # type: ignore[method-assign]
        host.tick = lambda now: self.after(tick(now))  # type: ignore[method-assign]

    def after(self, out: list[object]) -> list[object]:
        if out:
            kept = self.host.encoded_cache
            self.host.encoded_cache = {}  # the baseline: every logged message encoded again
            t = time.perf_counter()
            self.host.snapshot()
            self.uncached_seconds += time.perf_counter() - t
            self.host.encoded_cache = kept
            t = time.perf_counter()
            data = self.host.snapshot()
            self.seconds += time.perf_counter() - t
            self.sizes.append(len(data))
            self.v3_sizes.append(v3_size(data))
        return out


def play(players: int, deal: str, hands: int) -> Recorder:
    fmt = MatchFormat.POINTS if players == 3 else MatchFormat.HANDS
    options = TableOptions.make(players=players, match_format=fmt, hands_to_win=hands)
    host, clients, wire = seat_clients(
        options, entropy=counter_entropy(f"state{players}"), deal=deal
    )
    recorder = Recorder(host)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [lambda view: view.legal_plays[0]] * players)
    return recorder


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=2, help="hands to win (hands format)")
    args = ap.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    print(
        "table            writes  last KB (v3)   written MB (v3)     ratio  "
        "ms/write (v3 encode-all)"
    )
    for players in (2, 3, 4):
        for deal in ("classic", "blind"):
            r = play(players, deal, args.hands)
            n = len(r.sizes)
            mb, mb3 = sum(r.sizes) / 2**20, sum(r.v3_sizes) / 2**20
            print(
                f"{players}p {deal:8}  {n:10d}  {r.sizes[-1] // 1024:5d}"
                f" ({r.v3_sizes[-1] // 1024:5d})"
                f"  {mb:7.1f} ({mb3:7.1f})  {mb3 / mb:6.2f}x"
                f"  {r.seconds / n * 1000:6.3f} ({r.uncached_seconds / n * 1000:6.3f})"
            )


if __name__ == "__main__":
    main()
