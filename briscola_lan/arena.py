"""``briscola-lan arena A B``: two bot levels over many seeded deals, seats swapped, with 95% CIs.

Every deal is played once per seating on the same deck and dealer (A and B swap sides; at
3 and 5 players one A against the B, with A at each seat in turn), so card luck evens out. Deals
run in several processes; the result depends only on the seed, not on ``--jobs``. At five players
(Briscola chiamata) A's score by the table of weights is measured, and how often its side wins
the hands it calls.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from typing import Any

from briscola_lan.progress import progress, wanted
from briscola_lan.rules import TableOptions
from briscola_lan.sim import (
    SimulationError,
    add_table_arguments,
    make_seat_bot,
    options_from_args,
    parse_levels,
    play_dealt_hand,
    play_match,
)

# One seating of one deal, from A's point of view: (+1 A won, -1 B won, 0 nobody), A's points
# minus the mean of the other sides, and at five players A's score by the table of weights, the
# hands A called and those its side won.
Seating = tuple[int, float, int, int, int]


def seatings(players: int, a: str, b: str) -> list[list[str]]:
    """Level per seat for every seating: sides swapped at 2 and 4 players, A rotated at 3 and 5."""
    if players in (3, 5):
        return [[a if s == k else b for s in range(players)] for k in range(players)]
    first = [a if s % 2 == 0 else b for s in range(players)]
    return [first, [b if x == a else a for x in first]] if a != b else [first, first[:]]


def _a_seats(k: int, players: int) -> list[int]:
    if players in (3, 5):
        return [k]
    return [s for s in range(players) if s % 2 == k % 2]


def _outcome(points: list[int], a_sides: list[int], sides: int) -> tuple[int, float]:
    """(+1 A won, -1 B won, 0 nobody) and A's points minus the mean of the other sides."""
    a_pts = sum(points[s] for s in a_sides) / len(a_sides)
    b_list = [points[s] for s in range(sides) if s not in a_sides]
    top = max(points)
    winners = [s for s in range(sides) if points[s] == top]
    won = 0
    if len(winners) == 1:
        won = 1 if winners[0] in a_sides else -1
    return won, a_pts - sum(b_list) / len(b_list)


Task = tuple[dict[str, Any], str, str, int, int, str, str]


def _score_outcome(score: int) -> int:
    return (score > 0) - (score < 0)


def play_deal(task: Task) -> list[Seating]:
    """All seatings of one deal (a hand, or a whole match), one ``Seating`` each. ``ignore``
    ("a", "b" or ""): the bots of that side do not read their partners' signals."""
    opts_dict, a, b, seed, deal, unit, ignore = task
    options = TableOptions.from_dict(opts_dict)
    n = options.players
    out: list[Seating] = []
    for k, levels in enumerate(seatings(n, a, b)):
        bots = [
            make_seat_bot(options, lv, seed * 7919 + deal * 31 + s) for s, lv in enumerate(levels)
        ]
        a_seats = _a_seats(k, n)
        a_sides = sorted({options.side_of(s) for s in a_seats})
        deaf = frozenset(s for s in range(n) if ignore and (s in a_seats) == (ignore == "a"))
        if unit == "hands":
            hand, _ = play_dealt_hand(options, seed, (deal,), deal % n, bots, deaf=deaf)
            won, diff = _outcome(list(hand.returns()), a_sides, options.sides)
            call = hand.result()
            if call is None:
                out.append((won, diff, 0, 0, 0))
            else:
                score = call.scores[k]
                called = int(call.caller == k)
                out.append((_score_outcome(score), diff, score, called, called * call.won))
        else:
            rec = play_match(options, bots, seed, deal, first_dealer=deal % n, deaf=deaf)
            diff = sum(_outcome(h["points"], a_sides, options.sides)[1] for h in rec.hands) / len(
                rec.hands
            )
            won = 0 if rec.winner < 0 else (1 if rec.winner in a_sides else -1)
            calls = [h["call"] for h in rec.hands if "call" in h]
            score = sum(c["scores"][k] for c in calls)
            own = [c for c in calls if c["caller"] == k]
            out.append((won, diff, score, len(own), sum(c["won"] for c in own)))
    return out


def wilson(wins: int, total: int) -> tuple[float, float, float]:
    """Share and its 95% Wilson score interval."""
    if total == 0:
        return 0.0, 0.0, 0.0
    z = 1.96
    p = wins / total
    den = 1 + z * z / total
    mid = (p + z * z / (2 * total)) / den
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / den
    return p, mid - half, mid + half


def mean_ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% normal interval."""
    if not values:
        return 0.0, 0.0
    m = sum(values) / len(values)
    if len(values) < 2:
        return m, 0.0
    var = sum((v - m) ** 2 for v in values) / (len(values) - 1)
    return m, 1.96 * math.sqrt(var / len(values))


def arena(
    options: TableOptions,
    a: str,
    b: str,
    *,
    deals: int,
    seed: int,
    unit: str,
    jobs: int,
    show_progress: bool = False,
    ignore_signals: str = "",
) -> dict[str, Any]:
    """Run the deals (in ``jobs`` processes) and summarise them from A's point of view;
    ``show_progress`` draws a bar with the time left on stderr; ``ignore_signals`` ("a" or
    "b"): at a table with signals, that side's bots play without reading them."""
    tasks: list[Task] = [
        (options.to_dict(), a, b, seed, d, unit, ignore_signals) for d in range(deals)
    ]
    start = time.perf_counter()
    label = f"{a} vs {b}: {unit}"
    if jobs > 1:
        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            results = list(
                progress(pool.imap(play_deal, tasks, chunksize=1), deals, label,
                         enabled=show_progress)
            )  # fmt: skip
    else:
        results = list(progress(map(play_deal, tasks), deals, label, enabled=show_progress))
    elapsed = time.perf_counter() - start
    flat = [r for deal in results for r in deal]
    a_won = sum(1 for r in flat if r[0] > 0)
    b_won = sum(1 for r in flat if r[0] < 0)
    p, lo, hi = wilson(a_won, a_won + b_won)
    # Seatings of one deal are paired: the interval uses one mean difference per deal.
    m, half = mean_ci([sum(r[1] for r in deal) / len(deal) for deal in results])
    out: dict[str, Any] = {
        "options": options.to_dict(),
        "a": a,
        "b": b,
        "seed": seed,
        "unit": unit,
        "ignore_signals": ignore_signals or None,
        "deals": deals,
        "played": len(flat),
        "a_won": a_won,
        "b_won": b_won,
        "nobody": len(flat) - a_won - b_won,
        "a_share_of_decided": round(p, 4),
        "a_share_ci95": [round(lo, 4), round(hi, 4)],
        "mean_point_diff_per_hand": round(m, 3),
        "mean_point_diff_ci95": round(half, 3),
        "seconds": round(elapsed, 1),
    }
    if options.chiamata:
        out.update(_chiamata_summary(results))
    return out


def _chiamata_summary(results: list[list[Seating]]) -> dict[str, Any]:
    """Five players: A's mean score (a hand, or a match) with its 95% interval, one mean per
    deal over its seatings; the hands A called, how many its side won, and that share's
    interval."""
    m, half = mean_ci([sum(r[2] for r in deal) / len(deal) for deal in results])
    calls = sum(r[3] for deal in results for r in deal)
    calls_won = sum(r[4] for deal in results for r in deal)
    p, lo, hi = wilson(calls_won, calls)
    return {
        "a_mean_score": round(m, 3),
        "a_mean_score_ci95": round(half, 3),
        "a_calls": calls,
        "a_calls_won": calls_won,
        "a_calls_won_share": round(p, 4),
        "a_calls_won_ci95": [round(lo, 4), round(hi, 4)],
    }


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "a",
        help="level of bot A (random, rules, strong, strong:N, strong:win_stock=20+exact_tail=0)",
    )
    parser.add_argument("b", help="level of bot B")
    parser.add_argument("--deals", "-n", type=int, default=100, help="seeded deals (or matches)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unit", choices=("hands", "matches"), default="hands")
    parser.add_argument("--jobs", "-j", type=int, default=2, help="worker processes")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar (shown on a terminal)"
    )
    add_table_arguments(parser)
    parser.add_argument(
        "--ignore-signals",
        choices=("a", "b"),
        default="",
        help="with --signals: side A's (or B's) bots play without reading their partners' "
        "signals (what the signals are worth: strong strong --signals --ignore-signals b)",
    )


def format_arena(r: dict[str, Any]) -> str:
    opts = TableOptions.from_dict(r["options"])
    # From the counts, not the rounded JSON fields: one rounding only (369 of 397 is 92.9%).
    share, lo, hi = wilson(r["a_won"], r["a_won"] + r["b_won"])
    unit = r["unit"]
    a, b = r["a"], r["b"]
    deaf = r.get("ignore_signals")
    if deaf:  # say which side reads the signals (A and B are often the same level)
        a += " (deaf)" if deaf == "a" else " (signals)"
        b += " (deaf)" if deaf == "b" else " (signals)"
    lines = [
        f"{a} vs {b}  {opts.summary()}  seed {r['seed']}  {r['deals']} deals, "
        f"{r['played']} {unit} played (all seatings), {r['seconds']} s",
        f"{unit} won: {a} {r['a_won']}, {b} {r['b_won']}, nobody {r['nobody']}",
        f"{a} wins {100 * share:.1f}% of decided {unit} (95% CI {100 * lo:.1f}-{100 * hi:.1f}%)",
        f"mean point difference per hand ({a} - {b}): "
        f"{r['mean_point_diff_per_hand']:+.2f} ± {r['mean_point_diff_ci95']:.2f}",
    ]
    if opts.chiamata:
        each = "hand" if unit == "hands" else "match"
        c_share, c_lo, c_hi = wilson(r["a_calls_won"], r["a_calls"])
        lines += [
            f"{r['a']}'s mean score a {each} (table of weights): "
            f"{r['a_mean_score']:+.3f} ± {r['a_mean_score_ci95']:.3f}",
            f"{r['a']} called {r['a_calls']} hands, its side won {r['a_calls_won']}: "
            f"{100 * c_share:.1f}% (95% CI {100 * c_lo:.1f}-{100 * c_hi:.1f}%)",
        ]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        options = options_from_args(args)
        parse_levels(f"{args.a},{args.b}", options.players)
        if args.deals < 1 or args.jobs < 1:
            raise SimulationError("--deals and --jobs must be at least 1")
        if args.ignore_signals and not options.signals:
            raise SimulationError("--ignore-signals needs --signals (partners signalling)")
        result = arena(
            options,
            args.a,
            args.b,
            deals=args.deals,
            seed=args.seed,
            unit=args.unit,
            jobs=args.jobs,
            show_progress=wanted(args.no_progress),
            ignore_signals=args.ignore_signals,
        )
    except SimulationError as exc:
        print(f"briscola-lan arena: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(result, indent=1) if args.json else format_arena(result))
    return 0
