"""Benchmark: the journal's CPU a change when the host's timer ticks between every two messages.

    python benchmarks/bench_journal_ticks.py [--rounds 5] [--hands 3]

A host ticks its tables every 50 ms: at a human pace a tick falls between any two cards. A tick
with nothing to do moves only the clock, so the card after it can still be written from the few
values a card moves (``hot_rest``) instead of the whole table looked over again
(``JournalCursor.changes``). Each round plays the same 4-player classic match twice in memory
(``table/selfplay.py``, first legal card, fixed entropy), the journal written after every host
step that sends something as ``net/server.py`` writes it (a card's relay first, then what it made
due): flat out; with a tick that has nothing to do after each step (checked: it sends nothing);
and the same with the table marked as changed after each tick (``rest_mark``), which is what a
tick did before: the baseline. Printed per round: the journal's changes and its CPU a change
(``Journal.stage``, the thread's CPU clock) each way, and the ratios; then the medians.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscola_lan.net.journal import Journal  # noqa: E402
from briscola_lan.rules import TableOptions  # noqa: E402
from briscola_lan.table.host import HostTable  # noqa: E402
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients  # noqa: E402


def play(work: Path, hands: int, tick: str) -> tuple[int, float]:
    """One match, the journal written after each step; (changes, CPU seconds in ``stage``)."""
    options = TableOptions.make(players=4, hands_to_win=hands)
    host, clients, wire = seat_clients(options, entropy=counter_entropy("ticks"), deal="classic")
    journal = Journal.open(work / "table.journal", host.identity.public_key)
    spent = [0.0, 0.0]  # CPU seconds, changes
    receive, stage = host.receive, journal.stage

    def staged(table: HostTable, encoded: Any = None) -> dict[int, bytes]:
        start = time.thread_time()
        try:
            return stage(table, encoded)
        finally:
            spent[0] += time.thread_time() - start
            spent[1] += 1

    journal.stage = staged  # type: ignore[method-assign]

    def saved(out: list[Any]) -> list[Any]:
        if out:
            journal.save(host)
            if tick and not host.due:  # where the server's timer falls between two messages
                if HostTable.tick(host, host.now + 0.01):
                    raise SystemExit("a tick had something to do: not the case measured")
                if tick == "marked":
                    host.rest_mark = object()  # the baseline: the whole rest looked over
        return out

    def relayed(conn: int, msg: Any) -> list[Any]:
        out = receive(conn, msg, settle=False)
        if not host.due:
            return saved(out)
        wire.deliver(saved(out))  # the relay first, as the network host sends it
        return saved(host.settle())

    host.receive = relayed  # type: ignore[method-assign,assignment]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    chooser: Callable[[Any], Any] = lambda view: view.legal_plays[0]  # noqa: E731
    play_out(wire, [chooser] * len(clients))
    journal.close()
    if host.phase != "over":
        raise SystemExit("the match did not finish")
    return int(spent[1]), spent[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--hands", type=int, default=3, help="hands to win the match")
    args = parser.parse_args()
    ways = ("flat out", "ticked", "marked")
    got: dict[str, list[float]] = {w: [] for w in ways}
    for r in range(args.rounds):
        for way in ways:
            with tempfile.TemporaryDirectory() as tmp:
                changes, cpu = play(Path(tmp), args.hands, "" if way == "flat out" else way)
            got[way].append(cpu / changes * 1e6)
        a, b, c = (got[w][-1] for w in ways)
        print(
            f"round {r + 1}: {changes} changes; µs a change: flat out {a:.1f}, a quiet tick "
            f"between every two steps {b:.1f}, the same with the rest looked over after each "
            f"tick (as before) {c:.1f}: ticked {b / c:.2f}x the baseline, {b / a:.2f}x flat out"
        )
    a, b, c = (statistics.median(got[w]) for w in ways)
    print(
        f"median µs a change: flat out {a:.1f}, ticked {b:.1f}, as before {c:.1f}: "
        f"ticked {b / c:.2f}x the baseline, {b / a:.2f}x flat out"
    )


if __name__ == "__main__":
    main()
