"""Decision time of each AI level, median and p90 per move, with the ratio against the rules bot.

Positions come from seeded games between rules bots (every decision of every seat with more than
one card to choose from); every level decides on the same positions. Wall time, and the process's
CPU time (the same on an idle machine; on a shared, busy one the CPU time is the figure that
does not depend on the others' load).

    python benchmarks/bench_ai.py [--positions 150] [--players 2 3 4] [--levels random rules strong]
                                  [--signals]

``--signals``: at 4 players, each level decides the same positions again with the partner's
opening signal read (a table with signals, as ``simulate --signals`` plays it): rows
``LEVEL+signals``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time

from briscola_lan.ai import make_bot
from briscola_lan.rules import Hand, SeatView, TableOptions, deck_for
from briscola_lan.sim import opening_signals


def positions(players: int, count: int, seed: int, signals: bool = False) -> list[SeatView]:
    """Views from seeded games of rules bots; with ``signals`` (4 players) each carries the
    partner's opening signal."""
    options = TableOptions.make(
        players=players, match_format="points" if players == 3 else "hands", signals=signals
    )
    rng = random.Random(seed)
    bots = [make_bot("rules", s) for s in range(players)]
    views: list[SeatView] = []
    while len(views) < count:
        deck = list(deck_for(players))
        rng.shuffle(deck)
        hand = Hand(options, deck, rng.randrange(players))
        heard = opening_signals(hand) if signals else {}
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            if len(view.hand) > 1:
                views.append(dataclasses.replace(view, partner_signals=heard.get(seat, ())))
            hand.play(seat, bots[seat].choose(view))
    rng.shuffle(views)
    return views[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=150)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--levels", nargs="+", default=["random", "rules", "strong"])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--signals", action="store_true", help="4 players: also with signals")
    args = parser.parse_args()
    print(
        f"{'players':>7} {'level':>14} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} {'x rules':>8}"
        f" {'CPU median':>10} {'CPU p90':>8}"
    )
    for players in args.players:
        views = positions(players, args.positions, args.seed, args.signals and players == 4)
        quiet = [dataclasses.replace(v, partner_signals=()) for v in views]
        medians: dict[str, float] = {}
        rows = []
        runs = [(lv, quiet) for lv in ["rules", *[lv for lv in args.levels if lv != "rules"]]]
        if args.signals and players == 4:
            runs += [(f"{lv}+signals", views) for lv in args.levels]
        for level, batch in runs:
            bot = make_bot(level.removesuffix("+signals"), 7)
            times = []
            cpu = []
            for v in batch:
                t = time.perf_counter()
                c = time.process_time()
                bot.choose(v)
                cpu.append((time.process_time() - c) * 1000)
                times.append((time.perf_counter() - t) * 1000)
            times.sort()
            cpu.sort()
            med = statistics.median(times)
            medians[level] = med
            p90 = times[int(0.9 * (len(times) - 1))]
            cpu_p90 = cpu[int(0.9 * (len(cpu) - 1))]
            rows.append((level, med, p90, times[-1], statistics.median(cpu), cpu_p90))
        for level, med, p90, mx, cmed, cp90 in rows:
            if level.removesuffix("+signals") in args.levels:
                print(
                    f"{players:>7} {level:>14} {med:>10.3f} {p90:>8.3f} {mx:>8.1f} "
                    f"{med / medians['rules']:>7.1f}x {cmed:>10.1f} {cp90:>8.1f}"
                )


if __name__ == "__main__":
    main()
