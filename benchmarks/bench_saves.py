"""Benchmark: how long the host's event loop stands still while it saves a transcript, the
saving as the host did it before (the file encoded whole and written on the loop) against the
host's saving thread, side by side.

    python benchmarks/bench_saves.py [--hands 5] [--rounds 10] [--dir DIR]

The transcript is the host's of one 4-player blind match (every seat a person, first legal
card, in memory: ``table/selfplay.py``), first to win ``--hands`` hands. Each round saves it as
the host does while a match runs: at the end of each hand, the complete hands so far
(``net/host_saves.py``: a ``.briscola.json`` written to a temporary file, flushed to the disk,
renamed over the last one), then the whole match. Once **on the loop** (``save_game``: the whole
file encoded and written by the event loop, as the host did before), once with the **saving
thread** (``GameSaver`` and ``save_each``: the records' lines encoded on the loop, only the new
ones, and the file written by the host's one saving thread while the loop goes on), in turn,
so that a busy disk slows both alike. Meanwhile a task on the loop wakes every millisecond and
records how late each wake-up is: the largest lateness over the match's saves is how long every
table of the host would have waited. Printed: the file's size, each way's median over the
rounds of the largest stall, the largest over all rounds, a save's median time, and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscola_lan.fairness.memo import keep_results  # noqa: E402
from briscola_lan.fairness.transcript import Record, dumps  # noqa: E402
from briscola_lan.net.games import GameSaver, complete_cut, save_each, save_game  # noqa: E402
from briscola_lan.rules import MatchFormat, TableOptions  # noqa: E402
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients  # noqa: E402

TICK = 0.001
IDLE = "no saving"  # the ticker alone: how late it wakes on this machine anyway
OLD = "on the loop"
NEW = "saving thread"


def host_records(hands: int) -> tuple[list[Record], bytes]:
    """The host's transcript of a 4-player blind match first to ``hands`` hands, its game id."""
    options = TableOptions.make(players=4, match_format=MatchFormat.HANDS, hands_to_win=hands)
    host, clients, wire = seat_clients(options, entropy=counter_entropy("saves"), deal="blind")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [lambda view: view.legal_plays[0]] * 4)
    return list(host.records), bytes(host.game_id)


async def stall(saves: Callable[[], Awaitable[list[float]]]) -> tuple[float, list[float]]:
    """(the loop's largest lateness, each save's time) in seconds while ``saves`` runs."""
    done = False
    worst = 0.0

    async def ticker() -> None:
        nonlocal worst
        while not done:
            due = time.perf_counter() + TICK
            await asyncio.sleep(TICK)
            worst = max(worst, time.perf_counter() - due)

    ticking = asyncio.create_task(ticker())
    await asyncio.sleep(0.05)  # the ticker runs
    worst = 0.0
    took = await saves()
    await asyncio.sleep(2 * TICK)
    done = True
    await ticking
    return worst, took


def hand_ends(records: list[Record]) -> list[int]:
    """How many records the transcript holds at each hand's end (its last acknowledgement: the
    seats' arrive together, and the host looks every 0.25 s), then at the match's end."""
    cuts = sorted({complete_cut(records[:n]) for n in range(1, len(records) + 1)} - {0})
    ends = [c for c in cuts if c + 1 not in cuts]
    return ends if ends and ends[-1] == len(records) else [*ends, len(records)]


async def rounds(
    records: list[Record], game_id: bytes, work: Path, n: int
) -> dict[str, list[tuple[float, list[float]]]]:
    ends = hand_ends(records)
    results: dict[str, list[tuple[float, list[float]]]] = {IDLE: [], OLD: [], NEW: []}
    writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="bench-saves")

    async def old_way(folder: Path) -> list[float]:
        took = []
        for end in ends:
            start = time.perf_counter()
            save_game(folder, game_id, "host", records[:end], whole=True)
            took.append(time.perf_counter() - start)
            await asyncio.sleep(0.01)  # the match goes on
        return took

    async def new_way(folder: Path) -> list[float]:
        growing: list[Record] = []
        saver = GameSaver(folder, "host", lambda: growing, lambda: game_id)
        took = []
        for end in ends:
            growing.extend(records[len(growing) : end])
            start = time.perf_counter()
            await save_each([(saver, end == len(records))], writer)
            took.append(time.perf_counter() - start)
            await asyncio.sleep(0.01)
        return took

    async def no_saves(folder: Path) -> list[float]:
        for _ in ends:
            await asyncio.sleep(0.01)
        folder.mkdir()
        (folder / "x.briscola.json").write_bytes(dumps(records))
        return [0.0 for _ in ends]

    ways = {IDLE: no_saves, OLD: old_way, NEW: new_way}
    try:
        for r in range(n):
            for way in (IDLE, OLD, NEW) if r % 2 else (IDLE, NEW, OLD):
                folder = work / f"{r}-{way[:3]}"
                results[way].append(await stall(partial(ways[way], folder)))
                saved = next(folder.glob("*.briscola.json")).read_bytes()
                assert saved == dumps(records)
    finally:
        writer.shutdown(wait=True)
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5, help="hands to win (default 5)")
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--dir", type=Path, default=None, help="where to write (default: /tmp)")
    args = parser.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    records, game_id = host_records(args.hands)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        results = asyncio.run(rounds(records, game_id, Path(tmp), args.rounds))
    print(f"host transcript: {len(records)} records, {len(dumps(records)) / 1e3:.0f} KB at the "
          f"end (4-player blind match, first to {args.hands} hands: "
          f"{len(hand_ends(records))} saves a match); {args.rounds} rounds")  # fmt: skip
    print(f"{'':14} {'largest loop stall: median':>27} {'max':>9} {'a save, median':>15}")
    medians = {}
    for way, rows in results.items():
        stalls = [s for s, _ in rows]
        medians[way] = statistics.median(stalls)
        took = statistics.median(t for _, ts in rows for t in ts)
        print(f"{way:14} {medians[way] * 1e3:24.2f} ms {max(stalls) * 1e3:6.2f} ms "
              f"{took * 1e3:12.2f} ms")  # fmt: skip
    ratio = medians[NEW] / max(medians[OLD], 1e-9)
    print(f"largest loop stall, {NEW} / {OLD}: {ratio:.2f}x")


if __name__ == "__main__":
    main()
