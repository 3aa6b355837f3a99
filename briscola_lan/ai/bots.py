"""The three AI levels: random, rule-based, and strong (determinized search with an exact endgame).

Every bot sees a SeatView and nothing else, and is deterministic for its seed: the random
generator of each decision is derived from the seed and the position, so a bot keeps no state
between calls and works across hands and matches without being told.

A bot only ever returns a card its view holds. A view without its seat's whole hand is refused
(``BotError``); a search result that is not a held card is a bug: it is logged as an error and
the rule-based card is played instead, so that a table is never left waiting on a dead bot.
"""

from __future__ import annotations

import logging
import math
import random
import time
from collections.abc import Callable
from typing import Protocol

from briscola_lan.ai.evaluate import Evaluation, consistent_deals
from briscola_lan.ai.fast import POINTS, FastHand
from briscola_lan.ai.infer import BotError, Knowledge, check_turn
from briscola_lan.ai.leaf import even_split
from briscola_lan.ai.model import OpponentModel
from briscola_lan.ai.policy import (
    mixed_playout,
    own_pick,
    rule_pick,
    rules_playout,
    rules_playout_to_last_draw,
)
from briscola_lan.ai.solver import EXACT, Solver, solve
from briscola_lan.rules import Card, MatchFormat, SeatView

log = logging.getLogger(__name__)


class SearchError(BotError):
    """A search came back with cards that are not the seat's hand: a bug in the search."""


class Bot(Protocol):
    """An AI player: given one seat's view on its turn, the card it plays."""

    level: str

    def choose(self, view: SeatView) -> Card: ...


def _legal(view: SeatView) -> tuple[Card, ...]:
    """The cards the view's seat may play; BotError if not its turn or its hand is incomplete."""
    check_turn(view)
    return view.legal_plays


def _held(view: SeatView, code: int, fallback: int, search: str) -> Card:
    """``code`` if the view holds it; else log the bug and play ``fallback`` (a held card)."""
    held = {c.code for c in view.hand}
    if code in held:
        return Card.from_code(code)
    log.error(
        "bug: the %s chose %s, a card not in its hand %s (seat %d); playing %s instead",
        search,
        Card.from_code(code).label(ascii_only=True),
        [c.label(ascii_only=True) for c in view.hand],
        view.seat,
        Card.from_code(fallback).label(ascii_only=True),
    )
    assert fallback in held
    return Card.from_code(fallback)


def decision_rng(seed: int, view: SeatView) -> random.Random:
    """A generator fixed by the seed and the position (seat, deal, own cards, cards played)."""
    hand = ",".join(str(c.code) for c in sorted(view.hand, key=lambda c: c.code))
    played = ",".join(str(c.code) for c in view.played_cards)
    up = view.upcard.code if view.upcard is not None else -1  # none at 5 players
    key = f"{seed}|{view.seat}|{view.dealer}|{up}|{hand}|{played}|{view.points}"
    return random.Random(key)


class RandomBot:
    """Plays a uniformly random legal card."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Card:
        legal = _legal(view)
        return legal[decision_rng(self.seed, view).randrange(len(legal))]


class RuleBot:
    """Card counting and the usual heuristics (see ``ai.policy``); partner-aware at 4 players."""

    level = "rules"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Card:
        legal = _legal(view)
        if len(legal) == 1:
            return legal[0]
        k = Knowledge(view)
        code = rule_pick(
            k.my_hand, k.trick, view.leader, view.seat, k.n, k.trump, k.played_mask, view.stock_left
        )
        if k.n == 2 and view.stock_left == 0:
            # Card counting to the end: at 2 players with the stock gone, the unseen cards are
            # exactly the opponent's hand, so the last tricks are played out exactly.
            values = solve(k.sample(random.Random(0)), k.side)
            best = max(values, key=lambda c: (values[c], c == code, -c))
            return _held(view, best, code, "exact endgame")
        return Card.from_code(code)


# Default budget per player count. At 2 and 3 players the opponent model samples one draw order
# per determinization (cheap, so 300 samples fit); at 4 players three other seats multiply three
# noisy estimates, which measurably cost strength, so it averages every order exactly and the
# budget is 100 samples to stay in the same time (docs/ai.md, "Results").
# At 2 players a hand's points above half the deck's win it, half of them is a draw
# (``rules.match.hand_winner``).
HAND_DRAW = sum(POINTS) // 2

DEFAULT_SAMPLES: dict[int, int] = {2: 300, 3: 300, 4: 100}
EXACT_MODEL_PLAYERS: frozenset[int] = frozenset({4})


class StrongBot:
    """Determinized Monte Carlo search with rule-based playouts, exact once the stock is empty.

    Every sample deals the unseen cards consistently with the view; all candidate cards are
    scored on the same samples. At 2 players with at most one draw left, and at 3 or 4 players
    once the stock is empty, each sample is solved exactly instead of played out. The budget is
    ``samples`` (deterministic) or, if given, ``time_budget`` seconds (not deterministic).

    With ``exact_tail`` (on but for the arena's ``baseline`` level), at 2 players each playout
    stops once the stock is empty and the rest of its hand, every card then known, is solved
    exactly: both players play so from there (the rules bot and this one), where rule-based
    play to the end misjudges the last tricks.

    With ``win_bonus`` (60 for the strong level), at 2 players in the ``hands`` match format
    (a hand is won with 61 points) and fewer than ``win_stock`` cards in the stock (40, the
    strong level's: throughout the hand, the stock never holds more than 34), an outcome
    of a search that wins the hand scores ``win_bonus`` points more (half of it for 60, a
    draw): the search weighs the chance of winning the hand, which is what such a match counts,
    and not only the points.

    With ``margin_points``, the early margin (``early_margin`` points while ``early_stock``
    cards or more are in the stock) is asked of the card points a departure from the
    rule-based card gains in the playouts, without the win bonus: a bonus that applies there
    (``win_stock`` above ``early_stock``) then decides between cards the margin lets through,
    and cannot itself carry one past it.

    With ``own_playouts`` (on for the strong level), at 2 players with the exact tail the bot's
    own seat plays its own rule-based card (``own_pick``) in the playouts to the last draw, as it
    plays itself where its search is not sure, and the opponent the rules policy (its model);
    without it both play ``rule_pick``.

    With ``solve_deals`` > 0 (the arena's ``solver`` level), at 2 players every sample is solved
    instead of played out: to the end of the hand once at most ``solve_stock`` cards are left
    in the stock, ``horizon`` tricks ahead (the points beyond shared evenly) before;
    ``solve_deals`` samples, or ``samples`` if given; only with ``solve_min`` to ``solve_max``
    cards in the stock (the playouts otherwise, as the strong level plays); with
    ``solve_rules_below`` at most 1, only where the opponent model's chance that the opponents
    follow the rules, over the deals drawn for the solve, is below it (the playouts otherwise:
    they play the opponents as the rules do).

    With ``unruly_max`` >= 0, at 2 players with at most that many cards in the stock the
    playouts in which the opponent model draws an opponent that does not follow the rules are
    solved to the end (that opponent playing perfectly) instead of played at random: the model
    is then a mixture of the rules player and a perfect one, weighted by its posterior.
    """

    level = "strong"

    def __init__(
        self,
        seed: int = 0,
        *,
        samples: int | None = None,
        end_samples: int = 20,
        time_budget: float | None = None,
        exact_stock: int = 2,
        model: bool = True,
        oversample: int = 4,
        eps: float = 0.1,
        prior: float = 0.7,
        window: int = 3,
        exact_model: bool | None = None,
        confidence: float = 1.0,
        early_margin: float = 5.0,
        early_stock: int = 20,
        own_rules: bool = True,
        solve_deals: int = 0,
        solve_stock: int = 12,
        solve_min: int = 0,
        solve_max: int = 40,
        horizon: int = 6,
        solve_confidence: float = 1.0,
        solve_rules_below: float = 2.0,
        unruly_max: int = -1,
        exact_tail: bool = True,
        win_bonus: float = 60.0,
        win_stock: int = 40,
        margin_points: bool = False,
        own_playouts: bool = True,
    ) -> None:
        if (samples is not None and samples < 1) or end_samples < 1 or oversample < 1:
            raise ValueError("a strong bot needs at least one sample")
        if solve_min < 0 or solve_max < solve_min:
            raise ValueError(
                f"the stock range to solve in is empty or negative ({solve_min} to {solve_max})"
            )
        if not solve_rules_below > 0.0:
            raise ValueError(
                f"solve_rules_below is a chance, above 0 (above 1: always solved), "
                f"not {solve_rules_below}"
            )
        self.seed = seed
        self.samples = samples
        self.end_samples = end_samples
        self.time_budget = time_budget
        self.exact_stock = exact_stock
        self.model = model
        self.oversample = oversample
        self.eps = eps
        self.prior = prior
        self.window = window
        self.exact_model = exact_model
        self.confidence = confidence
        self.early_margin = early_margin
        self.early_stock = early_stock
        self.own_rules = own_rules
        self.solve_deals = solve_deals
        self.solve_stock = solve_stock
        self.solve_min = solve_min
        self.solve_max = solve_max
        self.horizon = horizon
        self.solve_confidence = solve_confidence
        self.solve_rules_below = solve_rules_below
        self.unruly_max = unruly_max
        self.exact_tail = exact_tail
        self.win_bonus = win_bonus
        self.win_stock = win_stock
        self.margin_points = margin_points
        self.own_playouts = own_playouts

    def _draw(
        self, k: Knowledge, model: OpponentModel | None, rng: random.Random, count: int
    ) -> list[tuple[FastHand, float, float]]:
        """``count`` determinizations, resampled by the opponent model's weights when on.

        Each comes with its multiplicity and the chance that the opponents follow the rules.
        """
        if model is None:
            return [(k.sample(rng), 1.0, 1.0) for _ in range(count)]
        pool = [k.sample(rng) for _ in range(count * self.oversample)]
        weighed = [model.weigh(h) for h in pool]
        weights = [w for w, _ in weighed]
        total = sum(weights)
        if total <= 0.0:
            return [(h, 1.0, self.prior) for h in pool[:count]]
        # Systematic resampling: ``count`` evenly spaced pointers into the cumulative weights.
        picks: dict[int, float] = {}
        step = total / count
        u = rng.random() * step
        acc = 0.0
        i = 0
        for w_i, w in enumerate(weights):
            acc += w
            while i < count and u + i * step < acc:
                picks[w_i] = picks.get(w_i, 0.0) + 1.0
                i += 1
        return [(pool[j], c, weighed[j][1]) for j, c in picks.items()]

    def scores(self, view: SeatView) -> dict[int, float]:
        """Mean card points the bot's side ends the hand with, per legal card code."""
        return self.evaluation(view).values

    def evaluation(self, view: SeatView) -> Evaluation:
        """Every legal card scored on the same samples, with the budget's samples."""
        return _Search(self, view).run(1)

    def _exact_model(self, players: int) -> bool:
        if self.exact_model is not None:
            return self.exact_model
        return players in EXACT_MODEL_PLAYERS

    def choose(self, view: SeatView) -> Card:
        return self.choose_scored(view)[0]

    def choose_scored(self, view: SeatView) -> tuple[Card, dict[int, float]]:
        """The card the bot plays and its score of every legal card (``scores``)."""
        card, ev = self.choose_evaluated(view)
        return card, ({} if ev is None else ev.values)

    def choose_evaluated(self, view: SeatView) -> tuple[Card, Evaluation | None]:
        """The card the bot plays and the evaluation it chose from (None: one legal card, or
        a search bug and the rule-based card instead). The client's hint and hand review use
        it to say why, what another card would cost, and how sure that is.

        The search's top card is played only when it beats the rule-based card by more than
        ``confidence`` standard errors of their difference (``solve_confidence`` where the
        deals are solved), and, with playouts while ``early_stock`` cards or more are left in
        the stock, by more than ``early_margin`` points. When it does not, as many samples again
        are drawn, and if it still does not, the rule-based card is played: a difference the
        samples cannot tell from noise is not worth a departure from the rules (card counting,
        trump conservation); nor is a small one in early playouts, whose scores are nearly flat
        and often wrong (docs/ai.md, "Levels").
        """
        legal = _legal(view)
        if len(legal) == 1:
            return legal[0], None
        k = Knowledge(view)
        pick = own_pick if self.own_rules else rule_pick
        preferred = pick(
            k.my_hand, k.trick, view.leader, view.seat, k.n, k.trump, k.played_mask, view.stock_left
        )
        try:
            search = _Search(self, view)
            if search.solved:
                margin, confidence = 0.0, self.solve_confidence
            else:
                margin = self.early_margin if view.stock_left >= self.early_stock else 0.0
                confidence = self.confidence
            ev = search.run(1)
            best = self._pick(ev, preferred, margin, confidence, search.points_gain)
            if best != preferred and confidence > 0 and self.time_budget is None:
                ev = search.run(2)
                best = self._pick(ev, preferred, margin, confidence, search.points_gain)
        except SearchError as exc:
            log.error("bug: %s (seat %d); playing the rule-based card", exc, view.seat)
            return Card.from_code(preferred), None  # rule_pick chooses from the hand
        return _held(view, best, preferred, "search"), ev

    def _pick(
        self,
        ev: Evaluation,
        preferred: int,
        margin: float = 0.0,
        confidence: float | None = None,
        points_gain: Callable[[int, int], float] | None = None,
    ) -> int:
        """The top card, unless the rule-based card is within ``confidence`` standard errors
        of it (the bot's ``confidence`` if not given), or within ``margin`` points of it (with
        ``margin_points``, ``margin`` card points as ``points_gain(top, rule-based)`` has
        them, the win bonus left out)."""
        confidence = self.confidence if confidence is None else confidence
        values = ev.values
        best = max(values, key=lambda c: (round(values[c], 6), c == preferred, -c))
        if best == preferred or preferred not in values or confidence <= 0:
            return best
        gain = values[best] - values[preferred]
        # In standard errors, not the t quantile of ``Evaluation.noise``: the rule is tuned so.
        if gain <= confidence * ev.stderr(best, preferred):
            return preferred
        if margin and self.margin_points and points_gain is not None:
            gain = points_gain(best, preferred)
        if gain > margin:
            return best
        return preferred


class _Search:
    """One decision's samples, kept so that a second run adds to the first."""

    def __init__(self, bot: StrongBot, view: SeatView) -> None:
        self.bot = bot
        self.k = k = Knowledge(view)
        self.rng = rng = decision_rng(bot.seed, view)
        self.out: dict[int, list[float]] = {c: [] for c in sorted(k.my_hand)}
        # Each playout's card points without the win bonus, kept for ``margin_points`` only.
        self.pts: dict[int, list[float]] = {c: [] for c in sorted(k.my_hand)}
        self.weights: list[float] = []
        self.done = 0
        self.model = (
            OpponentModel(
                view,
                window=bot.window,
                eps=bot.eps,
                prior=bot.prior,
                pick=None if bot._exact_model(k.n) else rng.randrange,
            )
            if bot.model
            else None
        )
        self.exact = view.stock_left <= (bot.exact_stock if k.n == 2 else 0)
        # At 2 players before that, the deals are solved too: to the end once the stock is
        # small, ``horizon`` tricks ahead before (the points beyond shared evenly).
        self.solved = (
            k.n == 2
            and not self.exact
            and bot.solve_deals > 0
            and bot.solve_min <= view.stock_left <= bot.solve_max
        )
        self.depth = EXACT if view.stock_left <= bot.solve_stock else bot.horizon
        # Deals drawn to decide whether to solve at all, solved first when they are.
        self.drawn: list[tuple[FastHand, float, float]] | None = None
        if self.solved and bot.solve_rules_below <= 1.0 and self.model is not None:
            count = bot.samples if bot.samples is not None else bot.solve_deals
            drawn = bot._draw(k, self.model, rng, count)
            total = sum(c for _, c, _ in drawn)
            p_rules = sum(c * p for _, c, p in drawn) / total
            if p_rules >= bot.solve_rules_below:
                self.solved = False
            else:
                self.drawn = drawn
        # The samples whose opponent does not follow the rules solved, not played at random.
        self.unruly = k.n == 2 and not self.exact and view.stock_left <= bot.unruly_max
        self.opponents = frozenset(
            s for s in range(k.n) if view.options.side_of(s) != view.options.side_of(k.seat)
        )
        self.bonus = (
            bot.win_bonus
            if k.n == 2
            and view.options.match_format is MatchFormat.HANDS
            and view.stock_left < bot.win_stock
            else 0.0
        )

    def points_gain(self, a: int, b: int) -> float:
        """Mean card points (no win bonus) card ``a`` gains over card ``b`` in the playouts."""
        w, pa, pb = self.weights, self.pts[a], self.pts[b]
        if not pa or len(pa) != len(w):
            return math.inf
        return sum(wi * (x - y) for wi, x, y in zip(w, pa, pb, strict=True)) / sum(w)

    def _utility(self, points: float) -> float:
        """What an outcome of ``points`` at the hand's end is worth to the search: the points,
        and the win bonus when they win the hand (half of it for a draw)."""
        if not self.bonus or points < HAND_DRAW:
            return points
        return points + (self.bonus if points > HAND_DRAW else self.bonus / 2)

    def run(self, times: int) -> Evaluation:
        """Sample until ``times`` budgets are done (or the time budget is spent)."""
        bot, k = self.bot, self.k
        deadline = None if bot.time_budget is None else time.perf_counter() + bot.time_budget
        if self.exact:
            self._exact(bot.end_samples * times - self.done, deadline)
        elif self.solved:
            deals = bot.samples if bot.samples is not None else bot.solve_deals
            self._exact(deals * times - self.done, deadline, self.depth)
        else:
            budget = bot.samples if bot.samples is not None else DEFAULT_SAMPLES[k.n]
            self._playouts(budget * times - self.done, deadline)
        # One consistent deal (2 players, the stock empty): its solution is certain.
        certain = self.exact and consistent_deals(k) == 1
        return Evaluation(
            {c: tuple(x) for c, x in self.out.items()}, tuple(self.weights), exact=certain
        )

    def _exact(self, samples: int, deadline: float | None, depth: int = EXACT) -> None:
        """Each determinization solved exactly, or ``depth`` tricks ahead with an even split
        of the points beyond (identical ones once, weighted by their count)."""
        k, out = self.k, self.out
        self.done += samples
        distinct: dict[tuple[tuple[int, ...], ...], tuple[FastHand, float]] = {}
        drawn, self.drawn = self.drawn, None
        if drawn is None or len(drawn) > samples:
            drawn = self.bot._draw(k, self.model, self.rng, samples)
        for h, count, _ in drawn:
            key = (*(tuple(sorted(x)) for x in h.hands), tuple(h.stock))
            old = distinct.get(key)
            distinct[key] = (h, count + (old[1] if old else 0.0))
        for h, count in distinct.values():
            now = h.points[k.side]
            if depth < EXACT:
                values = Solver(h, k.side, depth, even_split).values(h)
            else:
                values = solve(h, k.side)
            self._check_scored(values)
            final = depth >= EXACT  # a horizon's value is not the hand's outcome
            for c, v in values.items():
                out[c].append(self._utility(now + v) if final else now + v)
            self.weights.append(count)
            if deadline is not None and time.perf_counter() > deadline:
                break

    def _check_scored(self, values: dict[int, float]) -> None:
        """A solve scored exactly the cards in the hand (else ``SearchError``: a bug)."""
        out = self.out
        if values.keys() != out.keys():
            raise SearchError(
                "the exact search scored cards not in its hand "
                f"{sorted(values.keys() - out.keys())} or left out held cards "
                f"{sorted(out.keys() - values.keys())}"
            )

    def _playouts(self, samples: int, deadline: float | None) -> None:
        """Every candidate played in the same determinizations, then played out by the rules."""
        k, out, rng = self.k, self.out, self.rng
        # At 2 players every card is known once the stock is empty: the rest is solved.
        tail = self.bot.exact_tail and k.n == 2
        utility = self._utility
        pts = self.pts if self.bot.margin_points else None  # card points, for its margin
        own = k.seat if self.bot.own_playouts and k.n == 2 else -1
        done = 0
        while done < samples or deadline is not None:
            batch = 8 if deadline is not None else min(8, samples - done)
            for base, count, p_rules in self.bot._draw(k, self.model, rng, batch):
                # Opponents of a random type play at random in this sample's playouts; every
                # candidate replays the same random stream (common random numbers).
                stream = rng.random() if rng.random() >= p_rules else None
                if stream is not None and self.unruly:
                    now = base.points[k.side]
                    values = solve(base, k.side)
                    self._check_scored(values)
                    for c, xs in out.items():
                        xs.append(utility(now + values[c]))
                        if pts is not None:
                            pts[c].append(now + values[c])
                    self.weights.append(count)
                    continue
                for c, xs in out.items():
                    h = base.clone()
                    h.play(c)
                    p: float
                    if stream is not None:
                        mixed_playout(h, self.opponents, random.Random(stream).random)
                        p = h.points[k.side]
                    elif tail:
                        rules_playout_to_last_draw(h, own)
                        rest = Solver(h, k.side).value(h) if h.to_play >= 0 else 0.0
                        p = h.points[k.side] + rest
                    else:
                        rules_playout(h)
                        p = h.points[k.side]
                    xs.append(utility(p))
                    if pts is not None:
                        pts[c].append(p)
                self.weights.append(count)
            done += batch
            if deadline is not None and time.perf_counter() > deadline:
                break
        self.done += done
