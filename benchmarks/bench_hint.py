"""The client's hint and hand review: time of one hint (the strong AI's choice and scores of a
position, ``tui.coach.advise``), median and p90, against the strong bot's plain ``choose`` on the
same positions (the baseline, measured in the same run), and the time of a whole hand's review.

    python benchmarks/bench_hint.py [--positions 60] [--players 2 4]
"""

from __future__ import annotations

import argparse
import statistics
import time

from bench_ai import positions

from briscola_lan.ai import StrongBot
from briscola_lan.tui.coach import HINT_SEED, advise


def _times(fn: object, views: list[object]) -> list[float]:
    out = []
    for view in views:
        start = time.perf_counter()
        fn(view)  # type: ignore[operator]
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    args = parser.parse_args()
    for players in args.players:
        views = positions(players, args.positions, seed=players)
        bot = StrongBot(HINT_SEED)
        base = _times(bot.choose, views)
        hint = _times(advise, views)
        med_b, med_h = statistics.median(base), statistics.median(hint)
        p90 = statistics.quantiles(hint, n=10)[-1]
        print(
            f"{players}p: hint median {1000 * med_h:.0f} ms, p90 {1000 * p90:.0f} ms; "
            f"strong choose median {1000 * med_b:.0f} ms; ratio {med_h / med_b:.2f}x "
            f"({len(views)} positions)"
        )
        # a hand's review: one advise per play of one seat (about 20 plays at 2 players)
        per_hand = 40 // players
        print(f"{players}p: a hand's review ({per_hand} plays) about {per_hand * med_h:.1f} s")


if __name__ == "__main__":
    main()
