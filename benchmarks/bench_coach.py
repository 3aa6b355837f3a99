"""The hint and the hand review against the honest evaluator (``ai.evaluate.evaluate``, the
``YARDSTICK`` budget: uniform deals consistent with the seat's view, each solved exactly; every
deal once few remain), with the same figures for the previous coach (the ``baseline`` search's
top card, and a play called a mistake from half a point) measured in the same run.

Hands are 2-player, seeded: seat 0 is the player (the rules bot in even hands, the strong search
in odd ones), seat 1 the strong search (``_player``: the strong search with its confidence rule
and no early margin, fixed so that the positions stay put). Every decision of seat 0 with two
cards or more is judged.

    python benchmarks/bench_coach.py [--hands 30] [--seed 1] [--jobs 2] [--cache FILE] [--pace 2]
                                     [--normal-noise] [--review-seed 15] [--review-only]
    python benchmarks/bench_coach.py --positions [--deals 24]
    python benchmarks/bench_coach.py --playouts 20 34 [--count 40] [--deals 4] [--seed 1]
    python benchmarks/bench_coach.py --horizon --cache FILE [--hands 30] [--seed 1]

Figures: the hint's agreement with the evaluator's best card where that best is clear (its
margin over the next card is larger than the evaluator's noise) per third of the hand (tricks
1-7, 8-14, 15-20), with 95% Wilson intervals; the mean loss per decision (the evaluator's cost
of the hint's card); the median hint time (CPU: on a shared machine the figure that does not
depend on the others' load). The review: the share of plays it calls mistakes
that are the evaluator's best or within 1 point of it; the share of hands whose biggest mistake
is the evaluator's costliest play (of the hands where the review names one; where it is not,
how often the costliest play's cost is above the named one's by less than the evaluator's 95%
noise on it, and how often the review called that play a mistake; and how often the
evaluator's own deals, resampled, name the same costliest play: the most any review can
score against its noise); that share again where the review names its biggest mistake
alone, where it names others about as costly with it (``coach.biggest_mistakes``: is the
evaluator's costliest among them?), and on the hands where the evaluator's costliest play is
clear (above every other play's cost by more than the margin of error of the difference); the
mean absolute error of the biggest mistake's stated cost;
hands of the strong player with a mistake named;
the review's CPU time per hand, and the wait from the hand's last play to the review being
ready when the worker judges each play as it is made (``tui/coach_judge.py``), one of the
player's plays every ``--pace`` seconds (the CPU times as durations, the worker on a core of its
own). The review's figures are given also for the same review without its check on fresh
deals ("unchecked": each flagged play's cost as the deals that flagged it stated it, from the
same run) and, but with ``--review-only``, for the previous coach. Beside them, how far the
evaluator's own noise bounds them: the mean loss of its own
best card against its deals resampled with replacement (by third), and the mean absolute error
its noise alone puts on the biggest mistakes' costs (0.80 of its standard error).
``--review-seed`` sets the review's seed (``coach.REVIEW_SEED``, and with it its fresh deals'):
the review's own noise, seen across seeds. ``--review-only`` skips the hints and the previous
coach: the review's figures alone, sooner.
The hints and reviews are computed in ``--jobs`` processes (CPU time measured in each).
``--cache`` keeps the evaluator's results between runs (the same
positions and budget give the same figures): its deals' outcomes, from which each run works out
which best cards are clear. ``--normal-noise`` takes every 95% noise (the evaluator's, the
hint's, the review's) as 1.96 standard errors whatever the number of deals, instead of Student's
t quantile for that number (``ai.evaluate.t95``): the same hands, to see what the quantile
changes.

``--playouts STOCK_LO STOCK_HI``: on positions from games of rules bots with that many cards in
the stock, each card's outcome per deal by one rule-based playout (the strong search's method)
and by the exact solver, on the same deals: how the differences between cards correlate, per
deal and per position (the mean over ``--deals`` deals), and how often the best cards agree.

``--horizon``: the horizon search's own error, without the evaluator's noise. On each decision
where the hint searches 6 tricks ahead (2 players, more than 12 cards in the stock), the
evaluator's very deals (its seed and its number of deals) are searched 6 tricks ahead, the
points beyond valued by each leaf (``ai/leaf.py``: ``even_split``, the hint's; ``held_cards``,
the review's), and compared with the same deals solved to the
end (the cache's: run the figures above with ``--cache`` first): the mean absolute error of the
difference between two cards' values (the means over the deals), how often the best card
differs from the solved deals', and each leaf's CPU time.

``--positions``: the regression positions of ``tests/ai/test_positions.py``, each evaluated
with ``--deals`` deals solved exactly, and the card the strong bot (four seeds), the baseline
search (four seeds) and the hint choose there.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from briscola_lan.ai import Bot, StrongBot, make_bot
from briscola_lan.ai import evaluate as evaluate_module
from briscola_lan.ai.evaluate import YARDSTICK, Z95, Budget, Evaluation, evaluate
from briscola_lan.ai.infer import Knowledge
from briscola_lan.ai.leaf import LeafModel, even_split, held_cards
from briscola_lan.ai.policy import rules_playout
from briscola_lan.ai.solver import Solver
from briscola_lan.rules import Card, Hand, SeatView, TableOptions, deck_for
from briscola_lan.tui import coach


@dataclass(slots=True)
class Decision:
    """One decision of the player's seat: the view it played from and the card."""

    hand: int
    player: str
    view: SeatView
    played: Card


# decision, evaluation, hint, hint seconds, baseline card, evaluator's best is clear, third
Row = tuple[Decision, Evaluation, coach.Advice, float, Card, bool, int]


def _wilson(k: int, n: int) -> str:
    if n == 0:
        return "n/a"
    z = 1.96
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return f"{100 * p:.1f}% [{100 * (mid - half):.1f}, {100 * (mid + half):.1f}] ({k}/{n})"


def _player(level: str, seed: int) -> Bot:
    """The bots that play the benchmark's hands: the rules bot, and the strong search with its
    confidence rule but no early margin, its playouts played by the rules to the end (no
    exact tail) and scored in points alone (no win bonus), 300 samples a decision: fixed here,
    so that the positions, and the evaluator's cached results, do not move when the strong
    level is tuned."""
    if level != "strong":
        return make_bot(level, seed)
    return StrongBot(seed, samples=300, early_margin=0.0, exact_tail=False, win_bonus=0.0)


def decisions(hands: int, seed: int) -> list[Decision]:
    """Seat 0's decisions (two cards or more) in ``hands`` seeded 2-player hands."""
    out: list[Decision] = []
    for i in range(hands):
        deck = list(deck_for(2))
        random.Random(f"coach:{seed}:{i}").shuffle(deck)
        player = "rules" if i % 2 == 0 else "strong"
        bots = [_player(player, 100 + i), _player("strong", 200 + i)]
        hand = Hand(TableOptions.make(players=2), deck, i % 2)
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            card = bots[seat].choose(view)
            if seat == 0 and len(view.hand) > 1:
                out.append(Decision(i, player, view, card))
            hand.play(seat, card)
    return out


def _key(view: SeatView) -> str:
    hand = ",".join(str(c.code) for c in sorted(view.hand, key=lambda c: c.code))
    played = ",".join(str(c.code) for c in view.played_cards)
    deals = YARDSTICK.deals(view.stock_left, view.players)  # a new budget, a new evaluation
    return f"{view.seat}|{view.dealer}|{view.upcard.code}|{hand}|{played}|{view.points}|{deals}"


def _evaluate(view: SeatView) -> dict[str, object]:
    start = time.process_time()
    ev = evaluate(view, YARDSTICK, random.Random(_key(view)))
    return {
        "samples": {str(c): list(xs) for c, xs in ev.samples.items()},
        "weights": list(ev.weights),
        "exact": ev.exact,
        "cpu": time.process_time() - start,
    }


def _as_evaluation(d: dict[str, object]) -> Evaluation:
    samples = d["samples"]
    assert isinstance(samples, dict)
    weights = d["weights"]
    assert isinstance(weights, list)
    return Evaluation(
        {int(c): tuple(xs) for c, xs in samples.items()}, tuple(weights), exact=bool(d["exact"])
    )


def _old_review(view: SeatView, card: Card) -> tuple[float, int]:
    """The previous review: the baseline search's cost of the play, and its top card (300
    samples, its budget at 2 players then: fixed, as the players are)."""
    old = StrongBot(coach.REVIEW_SEED, samples=300, confidence=0.0, own_playouts=False)
    best, scores = old.choose_scored(view)
    return max(0.0, scores[best.code] - scores[card.code]), best.code


@dataclass(slots=True)
class Coached:
    """What the coach, and the previous coach, make of one decision, with the CPU times."""

    reviewed: coach.ReviewedPlay
    review_s: float
    advice: coach.Advice | None = None  # the hint and the previous coach's: not with
    hint_s: float = 0.0  # ``--review-only``
    old_card: Card | None = None
    old_review: tuple[float, int] | None = None


REVIEW_ONLY = False  # ``--review-only``: set before the jobs are forked


def _coach(d: Decision) -> Coached:
    t = time.process_time()
    reviewed = coach.review_play(d.view, d.played)
    review_s = time.process_time() - t
    if REVIEW_ONLY:
        return Coached(reviewed, review_s)
    t = time.process_time()
    advice = coach.advise(d.view)
    hint_s = time.process_time() - t
    old = make_bot("baseline", coach.HINT_SEED).choose(d.view)
    return Coached(reviewed, review_s, advice, hint_s, old, _old_review(d.view, d.played))


def _floor(ev: Evaluation, rng: random.Random, rounds: int = 200) -> float:
    """The evaluator's own noise: the mean loss, against its deals resampled with replacement,
    of its best card (what a hint that knew each card's true value, taken to be the evaluator's,
    would lose to the evaluator's noise alone)."""
    if ev.exact or ev.deals < 2:
        return 0.0
    best, n, total = ev.best(), ev.deals, 0.0
    for _ in range(rounds):
        pick = [rng.randrange(n) for _ in range(n)]
        means = {c: sum(xs[i] for i in pick) / n for c, xs in ev.samples.items()}
        total += max(means.values()) - means[best]
    return total / rounds


def _resampled_cost(ev: Evaluation, card: int, rng: random.Random) -> float:
    """The evaluator's cost of ``card`` with its deals resampled with replacement (its cost
    when exact: no noise)."""
    if ev.exact or ev.deals < 2:
        return ev.cost(card)
    n, w = ev.deals, ev.weights
    pick = [rng.randrange(n) for _ in range(n)]
    total = sum(w[i] for i in pick)
    means = {c: sum(w[i] * xs[i] for i in pick) / total for c, xs in ev.samples.items()}
    return max(means.values()) - means[card]


def _costliest_agreement(
    evs: list[Evaluation], played: list[int], rng: random.Random, rounds: int = 200
) -> tuple[float, float]:
    """How far the evaluator's noise lets anything name its costliest play of a hand, its deals
    resampled ``rounds`` times: how often the costliest play is the one its own deals name (what
    a review that knew each play's true cost, taken to be the evaluator's, would score), and
    how often two resamplings name the same play (two evaluations of this budget agreeing)."""
    costs = [ev.cost(c) for ev, c in zip(evs, played, strict=True)]
    named = costs.index(max(costs))
    counts: dict[int, int] = {}
    for _ in range(rounds):
        again = [_resampled_cost(ev, c, rng) for ev, c in zip(evs, played, strict=True)]
        top = again.index(max(again))
        counts[top] = counts.get(top, 0) + 1
    return counts.get(named, 0) / rounds, sum((k / rounds) ** 2 for k in counts.values())


def _clear_costliest(costs: list[float], noise: list[float]) -> int | None:
    """The evaluator's costliest play of a hand when it is clear (its cost above every other
    play's by more than the margin of error of the difference, the review's own rule for
    mistakes about as costly); None otherwise."""
    top = costs.index(max(costs))
    for i, c in enumerate(costs):
        if i != top and costs[top] - c <= math.hypot(noise[top], noise[i]):
            return None
    return top


def _named_with_ties(
    reviews: list[list[coach.ReviewedPlay]], costs: list[list[float]], noise: list[list[float]]
) -> None:
    """The review's biggest mistake where it names one alone, and where it names others about
    as costly with it (``coach.biggest_mistakes``), against the evaluator's costliest play; and
    on the hands where the evaluator's costliest play is clear."""
    alone = alone_ok = tied = tied_ok = clear = clear_ok = 0
    for reviewed, hand_costs, hand_noise in zip(reviews, costs, noise, strict=True):
        named = [reviewed.index(p) for p in coach.biggest_mistakes(reviewed)]
        if not named:
            continue
        costliest = hand_costs.index(max(hand_costs))
        if len(named) == 1:
            alone += 1
            alone_ok += named[0] == costliest
        else:
            tied += 1
            tied_ok += costliest in named
        sure = _clear_costliest(hand_costs, hand_noise)
        if sure is not None:
            clear += 1
            clear_ok += named[0] == sure
    print(f"     review: its biggest mistake named alone in {alone} hands: the evaluator's "
          f"costliest play in {_wilson(alone_ok, alone)}")  # fmt: skip
    print(f"     review: with others about as costly in {tied} hands: the evaluator's costliest "
          f"play among them in {_wilson(tied_ok, tied)}")  # fmt: skip
    print(f"     review: where the evaluator's costliest play is clear ({clear} of the hands "
          f"naming a mistake), the biggest mistake is it in "
          f"{_wilson(clear_ok, clear)}")  # fmt: skip


def _positions(deals: int) -> None:
    """The regression positions: the evaluator's scores, and what each player chooses."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.ai.test_positions import POSITIONS  # the tests' own positions

    for position in POSITIONS:
        hand, costly = position()
        seat = hand.current_player
        assert seat is not None
        view = hand.view(seat)
        strong = [StrongBot(s).choose(view).label(ascii_only=True) for s in range(4)]
        base = [make_bot("baseline", s).choose(view).label(ascii_only=True) for s in range(4)]
        hint = coach.advise(view).card.label(ascii_only=True)
        chosen = f"strong {' '.join(strong)}; baseline {' '.join(base)}; hint {hint}"
        if view.players > 2 and view.stock_left > 0:
            # One deal of 4 hands of 3 cards and a stock to solve exactly: far too large.
            print(f"{position.__name__} (costly: {costly}): not evaluated; {chosen}")
            continue
        start = time.process_time()
        ev = evaluate(view, Budget(lambda stock, players: deals), random.Random(1))
        cpu = time.process_time() - start
        best = ev.best()

        def name(code: int) -> str:
            return Card.from_code(code).label(ascii_only=True)

        scores = ", ".join(
            f"{name(c)} {ev.values[c]:.1f}"
            + ("" if c == best else f" (-{ev.cost(c):.1f} ± {ev.noise(best, c):.1f})")
            for c in ev.ranked()
        )
        print(f"{position.__name__} (costly: {costly}): evaluator, {ev.deals} deals "
              f"({cpu:.0f} s CPU): {scores}")  # fmt: skip
        print(f"    {chosen}")


def _wait(per_play: list[float], pace: float) -> float:
    """Seconds from a hand's last play to its review being ready, when the worker judges each
    play as it is made (``coach_judge``), one play every ``pace`` seconds, on a core of its own:
    the time to judge the last play, plus whatever the worker had not finished by then."""
    free = 0.0  # when the worker is done with the plays before
    for i, cpu in enumerate(per_play):
        free = max(free, i * pace) + cpu
    return free - (len(per_play) - 1) * pace


def _correlation(a: list[float], b: list[float]) -> float:
    ma, mb = statistics.mean(a), statistics.mean(b)
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b, strict=True))
    return sab / math.sqrt(sum((x - ma) ** 2 for x in a) * sum((y - mb) ** 2 for y in b))


def _playouts(stock_lo: int, stock_hi: int, count: int, deals: int, seed: int) -> None:
    """Rule-based playouts against exact solving, card differences on the same deals."""
    rng = random.Random(seed)
    bots = [make_bot("rules", 1), make_bot("rules", 2)]
    views: list[SeatView] = []
    while len(views) < count:
        deck = list(deck_for(2))
        rng.shuffle(deck)
        hand = Hand(TableOptions.make(players=2), deck, rng.randrange(2))
        found = []
        while not hand.is_terminal:
            seat = hand.current_player
            assert seat is not None
            view = hand.view(seat)
            if stock_lo <= view.stock_left <= stock_hi and len(view.hand) > 1:
                found.append(view)
            hand.play(seat, bots[seat].choose(view))
        if found:
            views.append(rng.choice(found))
    per_deal: tuple[list[float], list[float]] = ([], [])
    per_pos: tuple[list[float], list[float]] = ([], [])
    agree = 0
    for view in views:
        k = Knowledge(view)
        cards = sorted(k.my_hand)
        exact: dict[int, list[float]] = {c: [] for c in cards}
        playout: dict[int, list[float]] = {c: [] for c in cards}
        for _ in range(deals):
            h = k.sample(rng)
            values = Solver(h, k.side).values(h)
            for c in cards:
                x = h.clone()
                x.play(c)
                rules_playout(x)
                exact[c].append(values[c])
                playout[c].append(x.points[k.side] - h.points[k.side])
        for c in cards[1:]:
            for i in range(deals):
                per_deal[0].append(exact[c][i] - exact[cards[0]][i])
                per_deal[1].append(playout[c][i] - playout[cards[0]][i])
            per_pos[0].append(statistics.mean(exact[c]) - statistics.mean(exact[cards[0]]))
            per_pos[1].append(statistics.mean(playout[c]) - statistics.mean(playout[cards[0]]))
        best_e = max(cards, key=lambda c: statistics.mean(exact[c]))
        best_p = max(cards, key=lambda c: statistics.mean(playout[c]))
        agree += best_e == best_p
    print(
        f"stock {stock_lo}-{stock_hi}, {count} positions x {deals} deals: card differences, "
        f"playouts against exact, correlate {_correlation(*per_deal):.2f} per deal "
        f"(sd {statistics.pstdev(per_deal[1]):.1f} against {statistics.pstdev(per_deal[0]):.1f}),"
        f" {_correlation(*per_pos):.2f} per position; same best card in {agree} of {count}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--cache", type=Path, default=None)
    parser.add_argument("--pace", type=float, default=2.0)
    parser.add_argument("--positions", action="store_true")
    parser.add_argument("--deals", type=int, default=24)
    parser.add_argument("--playouts", type=int, nargs=2, metavar=("STOCK_LO", "STOCK_HI"))
    parser.add_argument("--count", type=int, default=40)
    parser.add_argument("--normal-noise", action="store_true")
    parser.add_argument("--review-seed", type=int, default=coach.REVIEW_SEED)
    parser.add_argument("--review-only", action="store_true")
    parser.add_argument("--horizon", action="store_true")
    args = parser.parse_args()
    global REVIEW_ONLY
    REVIEW_ONLY = args.review_only  # before the jobs are forked: they inherit them
    coach.REVIEW_SEED = args.review_seed
    if args.normal_noise:  # before the jobs are forked: they inherit it
        evaluate_module.t95 = lambda df: Z95  # type: ignore[assignment]
        print("noise: 1.96 standard errors whatever the number of deals")
    if args.playouts:
        lo, hi = args.playouts
        _playouts(lo, hi, args.count, args.deals, args.seed)
        return
    if args.positions:
        _positions(args.deals)
        return
    if args.horizon:
        if args.cache is None or not args.cache.exists():
            parser.error("--horizon compares with the evaluator's solved deals: give --cache FILE")
        _horizon(decisions(args.hands, args.seed), json.loads(args.cache.read_text()))
        return

    start = time.perf_counter()
    ds = decisions(args.hands, args.seed)
    print(
        f"{len(ds)} decisions of seat 0 in {args.hands} hands ({time.perf_counter() - start:.0f} s)"
    )
    cache: dict[str, dict[str, object]] = {}
    if args.cache is not None and args.cache.exists():
        cache = json.loads(args.cache.read_text())
    todo = [d.view for d in ds if _key(d.view) not in cache]
    start = time.perf_counter()
    if todo:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            for i, (v, r) in enumerate(zip(todo, pool.imap(_evaluate, todo), strict=True)):
                cache[_key(v)] = r
                if args.cache is not None and (i % 10 == 9 or i == len(todo) - 1):
                    args.cache.write_text(json.dumps(cache))  # a stopped run keeps its work
    evals = {_key(d.view): _as_evaluation(cache[_key(d.view)]) for d in ds}
    cpu = [float(cache[_key(d.view)]["cpu"]) for d in ds]  # type: ignore[arg-type]
    print(
        f"evaluator: {len(todo)} evaluated now ({time.perf_counter() - start:.0f} s), CPU per "
        f"decision median {statistics.median(cpu):.2f} s, max {max(cpu):.1f} s"
    )

    # The hint, the review and the previous coach's, on every decision (CPU times in each job).
    start = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
        coached = pool.map(_coach, ds, chunksize=4)
    print(f"coach: {time.perf_counter() - start:.0f} s")
    if not REVIEW_ONLY:
        _hint_figures(ds, coached, evals)
    _review_figures(ds, coached, evals, args.pace)


def _horizon(ds: list[Decision], cache: dict[str, dict[str, object]]) -> None:
    """The hint's horizon search against the evaluator's deals solved to the end (``--horizon``)."""
    ds = [
        d
        for d in ds
        if d.view.stock_left > coach.SOLVED_STOCK
        and _key(d.view) in cache
        and not _as_evaluation(cache[_key(d.view)]).exact
    ]
    leaves: dict[str, LeafModel] = {"even split": even_split, "held cards": held_cards}
    errors: dict[str, list[float]] = {name: [] for name in leaves}
    wrong = dict.fromkeys(leaves, 0)
    cpu = dict.fromkeys(leaves, 0.0)
    for d in ds:
        solved = _as_evaluation(cache[_key(d.view)])
        exact = {c: statistics.mean(xs) for c, xs in solved.samples.items()}
        for name, leaf in leaves.items():
            budget = Budget(YARDSTICK.deals, exact_up_to=YARDSTICK.exact_up_to, depth=6, leaf=leaf)
            start = time.process_time()
            ev = evaluate(d.view, budget, random.Random(_key(d.view)))  # the evaluator's deals
            cpu[name] += time.process_time() - start
            near = {c: statistics.mean(xs) for c, xs in ev.samples.items()}
            cards = sorted(near)
            for i, a in enumerate(cards):
                for b in cards[i + 1 :]:
                    errors[name].append(abs(near[a] - near[b] - (exact[a] - exact[b])))
            wrong[name] += exact[max(cards, key=near.__getitem__)] < max(exact.values())
    print(
        f"{len(ds)} decisions searched 6 tricks ahead by the hint, on the evaluator's deals"
        " (the same deals solved to the end)"
    )
    for name in leaves:
        print(
            f"  {name:>10}: card differences off by {statistics.mean(errors[name]):.2f} points "
            f"on average; a worse card than the solved deals' best in {wrong[name]} of {len(ds)};"
            f" CPU {1000 * cpu[name] / len(ds):.0f} ms a decision"
        )


def _hint_figures(ds: list[Decision], coached: list[Coached], evals: dict[str, Evaluation]) -> None:
    rows: list[Row] = []
    for d, c in zip(ds, coached, strict=True):
        ev = evals[_key(d.view)]
        advice, hint_s, old = c.advice, c.hint_s, c.old_card
        assert advice is not None and old is not None
        ranked = ev.ranked()
        best, second = ranked[0], ranked[1]
        clear = ev.clear(best, second)
        third = min(2, len(d.view.tricks) * 3 // 20)
        rows.append((d, ev, advice, hint_s, old, clear, third))
    print("\nHINT (the evaluator's clear best card, by third of the hand)")
    picks: list[tuple[str, Callable[[Row], int]]] = [
        ("hint", lambda r: r[2].card.code),
        ("baseline", lambda r: r[4].code),
    ]
    for label, pick in picks:
        parts = []
        for third in (0, 1, 2):
            sel = [r for r in rows if r[5] and r[6] == third]
            ok = sum(1 for r in sel if pick(r) == r[1].best())
            parts.append(f"third {third + 1}: {_wilson(ok, len(sel))}")
        sel = [r for r in rows if r[5]]
        ok = sum(1 for r in sel if pick(r) == r[1].best())
        print(f"  {label:>8}: " + "; ".join(parts) + f"; all: {_wilson(ok, len(sel))}")
        losses = [r[1].cost(pick(r)) for r in rows]
        by_third = [
            statistics.mean([r[1].cost(pick(r)) for r in rows if r[6] == t] or [0.0])
            for t in (0, 1, 2)
        ]
        print(
            f"  {label:>8}: mean loss {statistics.mean(losses):.2f} "
            f"± {1.96 * statistics.stdev(losses) / math.sqrt(len(losses)):.2f} points a decision "
            f"(thirds {by_third[0]:.2f} / {by_third[1]:.2f} / {by_third[2]:.2f}), "
            f"worst {max(losses):.1f}; "
            f"best card in {_wilson(sum(x < 1e-9 for x in losses), len(losses))}"
        )
    times = [r[3] for r in rows]
    print(
        f"  hint CPU time: median {1000 * statistics.median(times):.0f} ms, "
        f"p90 {1000 * statistics.quantiles(times, n=10)[-1]:.0f} ms, max {1000 * max(times):.0f} ms"
    )
    equal = [r for r in rows if r[2].runner_up() is not None
             and r[2].about_equal(r[2].runner_up()[0])]  # type: ignore[index]  # fmt: skip
    print(f"  'about as good' said in {len(equal)} of {len(rows)} hints")
    rng = random.Random(0)
    floors = [_floor(r[1], rng) for r in rows]
    by_third = [statistics.mean([f for f, r in zip(floors, rows, strict=True) if r[6] == t])
                for t in (0, 1, 2)]  # fmt: skip
    print(
        f"  the evaluator's own noise: its best card loses {statistics.mean(floors):.2f} points "
        f"a decision to its deals resampled (thirds {by_third[0]:.2f} / {by_third[1]:.2f} / "
        f"{by_third[2]:.2f})"
    )


def _review_figures(
    ds: list[Decision], coached: list[Coached], evals: dict[str, Evaluation], pace: float
) -> None:
    """The review's figures, hand by hand, beside the same review without its fresh deals
    (each flagged play's cost as the deals that flagged it stated it) and the previous one."""
    print(f"\nREVIEW (seed {coach.REVIEW_SEED})")
    by_hand: dict[int, list[tuple[Decision, Coached]]] = {}
    for d, c in zip(ds, coached, strict=True):
        by_hand.setdefault(d.hand, []).append((d, c))
    # Each review's calls per hand: (called a mistake, stated cost) for each play.
    calls: dict[str, list[list[tuple[bool, float]]]] = {"review": [], "unchecked": []}
    if not REVIEW_ONLY:
        calls["baseline"] = []
    costs_by_hand: list[list[float]] = []
    noise_by_hand: list[list[float]] = []
    cost_noise_by_hand: list[list[float]] = []  # each play's cost's 95% noise, the evaluator's
    strong: list[bool] = []  # the hand's player is the strong search
    evs_by_hand: list[tuple[list[Evaluation], list[int]]] = []  # each play's evaluation
    reviews_by_hand: list[list[coach.ReviewedPlay]] = []
    review_s: list[float] = []
    wait_s: list[float] = []
    checked = 0
    for pairs in by_hand.values():
        hand_ds = [d for d, _ in pairs]
        reviewed = [c.reviewed for _, c in pairs]
        per_play = [c.review_s for _, c in pairs]
        review_s.append(sum(per_play))
        wait_s.append(_wait(per_play, pace))
        evs = [evals[_key(d.view)] for d in hand_ds]
        costs_by_hand.append([ev.cost(d.played.code) for ev, d in zip(evs, hand_ds, strict=True)])
        # the evaluator's own error on a cost: mean |normal| = 0.80 standard error
        noise_by_hand.append([0.7979 * ev.stderr(ev.best(), d.played.code)
                              for ev, d in zip(evs, hand_ds, strict=True)])  # fmt: skip
        cost_noise_by_hand.append([ev.noise(ev.best(), d.played.code)
                                   for ev, d in zip(evs, hand_ds, strict=True)])  # fmt: skip
        calls["review"].append([(p.mistake, p.cost) for p in reviewed])
        reviews_by_hand.append(reviewed)
        evs_by_hand.append((evs, [d.played.code for d in hand_ds]))
        checked += sum(p.flagged is not None for p in reviewed)
        first = [p.flagged or (p.cost, p.noise) for p in reviewed]
        calls["unchecked"].append(
            [
                (p.solved and c - e >= coach.MISTAKE_MARGIN, c)
                for p, (c, e) in zip(reviewed, first, strict=True)
            ]
        )
        if not REVIEW_ONLY:
            olds = [c.old_review for _, c in pairs]
            calls["baseline"].append([(c >= 0.5, c) for c, _ in olds])  # type: ignore[misc]
        strong.append(hand_ds[0].player == "strong")
    print(f"  plays judged again on fresh deals: {checked} of {len(ds)}")
    for label, per_hand in calls.items():
        fl: list[float] = []
        ok = n = 0
        missed = within = called = 0  # hands whose costliest play is not the biggest mistake
        err: list[float] = []
        err_floor: list[float] = []
        hands = zip(per_hand, costs_by_hand, noise_by_hand, cost_noise_by_hand, strict=True)
        for hand_calls, costs, floor, cost_noise in hands:
            mistakes = [i for i, (m, _) in enumerate(hand_calls) if m]
            fl += [costs[i] for i in mistakes]
            if not mistakes:
                continue
            top = max(mistakes, key=lambda i: (hand_calls[i][1], -i))
            n += 1
            ok += costs[top] == max(costs)
            if costs[top] != max(costs):
                costliest = costs.index(max(costs))
                missed += 1
                within += costs[costliest] - costs[top] <= cost_noise[costliest]
                called += hand_calls[costliest][0]
            err.append(abs(hand_calls[top][1] - costs[top]))
            err_floor.append(floor[top])
        named = sum(any(m for m, _ in h) for h, s in zip(per_hand, strong, strict=True) if s)
        print(f"  {label:>9}: hands played by the strong bot with a mistake named: "
              f"{named} of {sum(strong)}")  # fmt: skip
        near = sum(1 for c in fl if c <= 1.0)
        print(f"  {label:>9}: plays called mistakes that are best or within 1 point: "
              f"{_wilson(near, len(fl))}")  # fmt: skip
        print(f"  {label:>9}: biggest mistake is the evaluator's costliest play: "
              f"{_wilson(ok, n)} of the hands naming one")  # fmt: skip
        if missed:
            print(f"  {label:>9}: where it is not ({missed} hands), the costliest play's cost is "
                  f"above the biggest mistake's by less than the evaluator's noise on it in "
                  f"{within}; called a mistake in {called}")  # fmt: skip
        if label == "review" and n:
            rng = random.Random(7)
            agree = [
                _costliest_agreement(evs, played, rng)
                for (evs, played), hand_calls in zip(evs_by_hand, per_hand, strict=True)
                if any(m for m, _ in hand_calls)
            ]
            print(f"  {label:>9}: on those {n} hands, the evaluator against its own deals "
                  f"resampled: its costliest play is the one its deals name in "
                  f"{100 * statistics.mean(a for a, _ in agree):.1f}% (a review that knew every "
                  f"play's true cost, taken to be the evaluator's); two resamplings name the "
                  f"same play in {100 * statistics.mean(b for _, b in agree):.1f}%")  # fmt: skip
        if label == "review" and n:
            _named_with_ties(reviews_by_hand, costs_by_hand, cost_noise_by_hand)
        if err:
            print(f"  {label:>9}: biggest mistake's stated cost, mean absolute error "
                  f"{statistics.mean(err):.2f} points ({len(err)} hands); the evaluator's "
                  f"own noise alone: {statistics.mean(err_floor):.2f} expected")  # fmt: skip
    print(
        f"  review CPU time per hand: median {statistics.median(review_s):.2f} s, "
        f"max {max(review_s):.2f} s ({len(review_s)} hands)"
    )
    print(
        f"  the review's wait after the hand's last play, each play judged by the worker as it "
        f"is made, one play every {pace:g} s: median {statistics.median(wait_s):.2f} s, "
        f"max {max(wait_s):.2f} s"
    )


if __name__ == "__main__":
    main()
