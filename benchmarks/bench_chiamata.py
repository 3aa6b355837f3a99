"""Decision time of the five-player (Briscola chiamata) bots: median, p90 and max per decision,
bids and calls apart from cards, with the ratio against the rules bot measured in the same run.

Positions come from seeded hands between rules bots: every bid, every call, and every card
decision with more than one card to choose from; every level decides on the same positions.
Wall time, and the process's CPU time (the figure that does not depend on the others' load on
a shared machine). Target: the strong bot's median decision at most 250 ms.

    python benchmarks/bench_chiamata.py [--hands 20] [--levels random rules strong] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from briscola_lan.ai import ChiamataBot, make_chiamata_bot
from briscola_lan.rules import Hand, Phase, SeatView, TableOptions, deck_for

FIVE = TableOptions.make(players=5, match_format="total")


def positions(hands: int, seed: int) -> list[tuple[str, SeatView]]:
    """(what is owed: 'bid', 'call' or 'card', the view) of every decision of rules bots."""
    rng = random.Random(seed)
    bots = [make_chiamata_bot("rules", s) for s in range(5)]
    out: list[tuple[str, SeatView]] = []
    played = 0
    while played < hands:
        deck = list(deck_for(5))
        rng.shuffle(deck)
        hand = Hand(FIVE, deck, rng.randrange(5))
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            if hand.phase == Phase.AUCTION:
                out.append(("bid", view))
                hand.bid(seat, bots[seat].bid(view))
            elif hand.phase == Phase.CALL:
                out.append(("call", view))
                hand.call(seat, bots[seat].call(view))
            else:
                if len(view.legal_plays) > 1:
                    out.append(("card", view))
                hand.play(seat, bots[seat].choose(view))
        played += not hand.passed_out
    return out


def decide(bot: ChiamataBot, kind: str) -> Callable[[SeatView], object]:
    return {"bid": bot.bid, "call": bot.call, "card": bot.choose}[kind]


def _p90(xs: list[float]) -> float:
    return sorted(xs)[int(0.9 * (len(xs) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--levels", nargs="+", default=["random", "rules", "strong"])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    views = positions(args.hands, args.seed)
    kinds = {k: sum(1 for x, _ in views if x == k) for k in ("bid", "call", "card")}
    print(f"5 players, {args.hands} hands: {len(views)} decisions {kinds}")
    print(
        f"{'level':>10} {'kind':>5} {'median ms':>10} {'p90 ms':>8} {'max ms':>8} "
        f"{'x rules':>8} {'CPU median':>10} {'CPU p90':>8}"
    )
    medians: dict[tuple[str, str], float] = {}
    rows = []
    for level in ["rules", *[lv for lv in args.levels if lv != "rules"]]:
        bot = make_chiamata_bot(level, 7)
        wall: dict[str, list[float]] = {"all": [], "bid": [], "call": [], "card": []}
        cpu: dict[str, list[float]] = {k: [] for k in wall}
        for kind, view in views:
            t, c = time.perf_counter(), time.process_time()
            decide(bot, kind)(view)
            dc, dt = (time.process_time() - c) * 1000, (time.perf_counter() - t) * 1000
            for k in ("all", kind):
                wall[k].append(dt)
                cpu[k].append(dc)
        for kind in ("all", "bid", "call", "card"):
            med = statistics.median(wall[kind])
            medians[level, kind] = med
            rows.append((level, kind, med, _p90(wall[kind]), max(wall[kind]),
                         statistics.median(cpu[kind]), _p90(cpu[kind])))  # fmt: skip
    for level, kind, med, p90, mx, cmed, cp90 in rows:
        if level in args.levels:
            ratio = med / medians["rules", kind]
            print(
                f"{level:>10} {kind:>5} {med:>10.3f} {p90:>8.3f} {mx:>8.1f} {ratio:>7.1f}x "
                f"{cmed:>10.2f} {cp90:>8.2f}"
            )


if __name__ == "__main__":
    main()
