"""The client's hint and hand review: time of one hint (the strong AI's choice and scores of a
position, ``tui.coach.advise``), median and p90, against the strong bot's plain ``choose`` on the
same positions (the baseline, measured in the same run), and the time of whole hands' reviews
(``tui.coach.review_play`` on every play of seat 0, a rules bot, in seeded hands), wall and CPU;
and with ``--pace S`` the client's way: each play given to the review's worker process
(``tui.coach_judge``) as it is made, one every S seconds, and the wall time from the hand's last
play to every play judged (the wait the player sees after the hand).

    python benchmarks/bench_hint.py [--positions 60] [--players 2 4] [--hands 6] [--pace 2]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from bench_ai import positions

from briscola_lan.ai import StrongBot, make_bot
from briscola_lan.rules import Card, Hand, SeatView, TableOptions, deck_for
from briscola_lan.tui.coach import HINT_SEED, advise, review_play
from briscola_lan.tui.coach_judge import Judge


def hand_plays(players: int, i: int) -> list[tuple[SeatView, Card]]:
    """Seat 0's plays (the view and the card) in seeded hand ``i`` of rules bots."""
    deck = list(deck_for(players))
    random.Random(f"review:{players}:{i}").shuffle(deck)
    hand = Hand(TableOptions.make(players=players), deck, i % players)
    bots = [make_bot("rules", s) for s in range(players)]
    plays: list[tuple[SeatView, Card]] = []
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat)
        card = bots[seat].choose(view)
        if seat == 0:
            plays.append((view, card))
        hand.play(seat, card)
    return plays


def worker_waits(players: int, hands: int, pace: float) -> list[float]:
    """Wall seconds from each hand's last play to the worker having judged every play."""
    judge = Judge()
    waits: list[float] = []
    try:
        for i in range(hands):
            started = []
            for j, (view, card) in enumerate(hand_plays(players, i)):
                if j:
                    time.sleep(pace)
                started.append(judge.submit(review_play, view, card))
            t = time.perf_counter()
            for f in started:
                assert f is not None, "the worker did not start"
                f.result()
            waits.append(time.perf_counter() - t)
    finally:
        judge.close()
    return waits


def reviews(players: int, hands: int) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of the review of seat 0's plays, one figure per seeded hand."""
    wall: list[float] = []
    cpu: list[float] = []
    for i in range(hands):
        plays = hand_plays(players, i)
        t, c = time.perf_counter(), time.process_time()
        for view, card in plays:
            review_play(view, card)
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return wall, cpu


def _times(fn: Callable[[SeatView], object], views: list[SeatView]) -> list[float]:
    out = []
    for view in views:
        start = time.perf_counter()
        fn(view)
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4])
    parser.add_argument("--hands", type=int, default=6)
    parser.add_argument("--pace", type=float, default=None)
    args = parser.parse_args()
    for players in args.players:
        if args.pace is not None:
            waits = worker_waits(players, args.hands, args.pace)
            print(
                f"{players}p: the review's wait after a hand's last play, one play every "
                f"{args.pace:g} s given to the worker: median {statistics.median(waits):.2f} s, "
                f"max {max(waits):.2f} s ({len(waits)} hands)"
            )
            continue
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
        wall, cpu = reviews(players, args.hands)
        print(
            f"{players}p: a hand's review ({40 // players} plays) median "
            f"{statistics.median(wall):.2f} s, max {max(wall):.2f} s; "
            f"CPU median {statistics.median(cpu):.2f} s, max {max(cpu):.2f} s ({len(wall)} hands)"
        )


if __name__ == "__main__":
    main()
