"""Learning from the strong AI: a hint for the position on the table, with a one-line reason,
and a review of a finished hand's plays, each with what it cost and how sure that cost is.

Both judge the player's own seat view, never anything else (``ai.evaluate.Evaluation``): a
card's score is the points the player's side is expected to end the hand with after playing it,
so a play costs the best score minus its own, give or take the noise of that difference. Where
few deals agree with what the seat saw, every one of them is solved exactly (no noise);
otherwise, near the end of a 2-player hand, both solve sampled deals exactly (the review from
earlier, and with more of them); before, both solve sampled deals 6 tricks ahead at 2 players
(the review twice as many),
and at 3 and 4 players the hint is the strong bot's search and the review runs it with a larger
budget (not judged). A play the review's sampled deals flag is judged again on fresh deals
(``check_play``), whose cost and noise are the ones shown: the deals that pick a play out
overstate its cost. A play is called a mistake only when its cost is over a point more than its
noise. Each play is judged by the review's worker process (``coach_judge``) as soon as it is
made.
The reason is worked out from the rules' trick rule and what the seat can see, for any card of
the hand, and says only what is true of the position (``tests/tui/test_coach_claims.py``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.ai import StrongBot
from briscola_lan.ai.evaluate import Budget, Evaluation, consistent_deals, evaluate
from briscola_lan.ai.infer import Knowledge
from briscola_lan.ai.leaf import even_split, held_cards
from briscola_lan.rules import Card, SeatView, Suit, TableOptions, deck_for, trick_winner_index
from briscola_lan.tui import deck as dk
from briscola_lan.tui.coach_judge import JUDGE, Judge
from briscola_lan.tui.follow import winning_seat
from briscola_lan.tui.i18n import _, decimal, ngettext
from briscola_lan.tui.state import TableModel, UiState

HINT_SEED = 14  # the hint's bot is deterministic: the same position, the same advice
REVIEW_SEED = 15
EXACT_DEALS = 150  # at most this many deals agree with the view: solve every one
REVIEW_SAMPLES = {2: 500, 3: 500, 4: 200}  # the review's strong search, per player count
# (the hint's is the bot's default: 300, 300, 100, twice that when unsure)
SOLVED_STOCK = 12  # near the end of a 2-player hand: from this many cards left in the stock,
# the hint solves sampled deals exactly; the review from REVIEW_SOLVED_STOCK, with the hand's
# time to spend (its worker judges a play while the next ones are made)
REVIEW_SOLVED_STOCK = 14


def review_deals(stock_left: int, players: int) -> int:
    """Deals the review solves per play near the end of a 2-player hand (the evaluator's 100
    from 12 cards in the stock): up to about 1.3 s of the worker's time a play."""
    return 48 if stock_left > 12 else 96


def hint_deals(stock_left: int, players: int) -> int:
    """Deals the hint solves near the end of a 2-player hand, more as each costs less: about
    0.1-0.4 s in all."""
    if stock_left <= 6:
        return 96
    if stock_left <= 8:
        return 80
    return 48 if stock_left <= 10 else 32


# Before that, the hint solves 24 deals 6 tricks ahead, the points beyond shared evenly: closer
# to deals solved to the end than the strong search's playouts, at a fraction of their cost.
HINT_EARLY = Budget(lambda stock, players: 24, exact_up_to=EXACT_DEALS, depth=6, leaf=even_split)
# The review judges the early plays of a 2-player hand the same way with twice the deals, what
# lies beyond valued by the cards each side holds there (``held_cards``, fitted on solved
# positions: nearer deals solved to the end, for a third more time): each play is judged by the
# worker while the hand goes on (``coach_judge``), about 0.3-0.7 s a play.
REVIEW_EARLY = Budget(lambda stock, players: 48, exact_up_to=EXACT_DEALS, depth=6, leaf=held_cards)
MISTAKE_MARGIN = 1.0  # a mistake costs at least this much more than its margin of error
# A sampled play the review's deals find this much worse than its noise is judged again on fresh
# deals (``check_play``), whose figures are shown.
CHECK_MARGIN = MISTAKE_MARGIN
CHECK_SCALE = 1  # the fresh deals: this many times the review's own


Frag = StyleAndTextTuples


@dataclass(frozen=True, slots=True)
class Advice:
    """The strong AI's card for a position, its score of every card of the hand, and the noise
    of each score's difference from the advised card's (95% half-width; empty if exact)."""

    view: SeatView
    card: Card
    scores: dict[int, float]
    noise: dict[int, float] = field(default_factory=dict)

    def cost(self, card: Card) -> float:
        """Points the player's side is expected to lose by playing ``card`` instead."""
        if not self.scores or card.code not in self.scores:
            return 0.0
        return max(0.0, self.scores[self.card.code] - self.scores[card.code])

    def runner_up(self) -> tuple[Card, float] | None:
        """The next best card and how much less the AI expects from it."""
        others = [c for c in self.scores if c != self.card.code]
        if not others:
            return None
        best = max(others, key=lambda c: self.scores[c])
        return Card.from_code(best), self.scores[self.card.code] - self.scores[best]

    def about_equal(self, card: Card) -> bool:
        """Whether ``card``'s score is within the noise of the advised card's (or half a point)."""
        return self.cost(card) <= max(0.5, self.noise.get(card.code, 0.0))


def _exact(view: SeatView) -> Evaluation | None:
    """Every deal that agrees with the view solved exactly, if there are few enough."""
    if consistent_deals(Knowledge(view)) > EXACT_DEALS:
        return None
    return evaluate(view, Budget(lambda stock, players: 0, exact_up_to=EXACT_DEALS))


def _advice(view: SeatView, card: Card, ev: Evaluation | None) -> Advice:
    if ev is None:
        return Advice(view, card, {card.code: 0.0})
    return Advice(view, card, ev.values, {c: ev.noise(card.code, c) for c in ev.values})


def advise(view: SeatView) -> Advice:
    """Ask the strong AI about ``view`` (its seat's turn). Takes ~0.1-0.3 s: run it in a thread.

    Every deal solved when few agree with the view; in a 2-player hand, sampled deals solved
    (``hint_deals``) near the end, 6 tricks ahead before (``HINT_EARLY``); at 3 and 4 players,
    the strong bot's choice and its scores."""
    ev = _exact(view)
    if ev is None and view.players == 2:
        late = view.stock_left <= SOLVED_STOCK
        budget = Budget(hint_deals, exact_up_to=EXACT_DEALS) if late else HINT_EARLY
        ev = evaluate(view, budget, random.Random(HINT_SEED))
    if ev is not None:
        return _advice(view, Card.from_code(ev.best()), ev)
    card, ev = StrongBot(HINT_SEED).choose_evaluated(view)
    return _advice(view, card, ev)


def reason(advice: Advice, deck: dk.Deck, ascii_only: bool) -> str:
    """Why the advised card is played, in a few words, from what is on the table."""
    return explain(advice.view, advice.card, deck, ascii_only)


def explain(view: SeatView, card: Card, deck: dk.Deck, ascii_only: bool) -> str:
    """What playing ``card`` from ``view`` does, in words true of the position whatever the card.

    Only what the seat can know is used: a card "takes the trick" when no later card can beat it
    (the seat plays last, or no card still out does); otherwise it "beats the cards on the table".
    """

    def label(c: Card) -> str:
        return dk.card_label(c, deck, ascii_only)

    trump, trick = view.trump, view.trick
    assert trump is not None  # a card is played once the briscola is known
    out = _still_out(view)
    if not trick:
        return _lead(view, card, out, label)
    table = [c for _, c in trick]
    points = sum(c.points for c in table)
    if _beats(table, card, trump):
        n = points + card.points
        last = len(trick) == view.players - 1
        sure = last or not any(_beats([*table, card], x, trump) for x in out)
        if card.suit == trump:
            if sure:
                return _("the briscola takes the trick and its {n} points").format(n=n)
            return _("the briscola beats the cards on the table ({n} points so far)").format(n=n)
        if sure:
            return _("takes the trick ({n} points) without a briscola").format(n=n)
        return _("beats the cards on the table ({n} points so far) without a briscola").format(n=n)
    best = winning_seat(trick, trump)
    if view.players == 4 and best == view.options.partner_of(view.seat):
        if card.points:
            return _("your partner holds the trick: load {n} points on it").format(n=card.points)
        return _("your partner holds the trick: give nothing away")
    winners = [c for c in view.hand if _beats(table, c, trump)]
    cheapest = min(view.hand, key=lambda c: (c.points, c.code))
    if not winners:
        if card.points == cheapest.points:
            return _("every card loses this trick: {card} gives the fewest points").format(
                card=label(card)
            )
        return _("every card loses this trick, though {card} gives fewer points").format(
            card=label(cheapest)
        )
    # A card of the led suit that takes the trick and gives no points costs nothing to play.
    free = any(c.suit != trump and c.points == 0 for c in winners)
    trump_takes = any(c.suit == trump for c in winners)
    if not free and trump_takes and card.suit != trump and points + card.points <= 4:
        return _("saves the trump, the trick is worth {n}").format(n=points + card.points)
    if not free and card.points == 0 and points <= 4:
        return _("the trick is not worth a winner: give the least, {card}").format(card=label(card))
    winner = min(winners, key=lambda c: (c.suit == trump, c.points, -c.rank))  # the cheapest
    return _("does not beat the cards on the table ({n} points), {winner} does").format(
        n=points, winner=label(winner)
    )


def _lead(view: SeatView, card: Card, out: list[Card], label: Callable[[Card], str]) -> str:
    """What leading ``card`` does: how many cards still out beat it, or what it keeps."""
    trump = view.trump
    assert trump is not None  # a card is played once the briscola is known
    k = sum(_beats([card], x, trump) for x in out)
    if not k:
        return _("no card still out beats it: the trick is yours")
    if card.suit == trump:
        stronger = [c for c in view.hand if c.suit == trump and c.rank < card.rank]
        if stronger:
            return _("a briscola lead while you keep the stronger {card}").format(
                card=label(min(stronger, key=lambda c: c.rank))
            )
        return ngettext(
            "a briscola lead: {k} higher briscola is still out",
            "a briscola lead: {k} higher briscole are still out",
            k,
        ).format(k=k)
    if card.points == 0:
        return _("a lead worth nothing: it gives no points to whoever takes it")
    return ngettext(
        "a lead of {n} points: {k} card still out beats it",
        "a lead of {n} points: {k} cards still out beat it",
        k,
    ).format(n=card.points, k=k)


def _beats(table: list[Card], card: Card, trump: Suit) -> bool:
    """Whether ``card`` played after ``table`` is the best card of the trick so far."""
    return trick_winner_index([*table, card], trump) == len(table)


def _still_out(view: SeatView) -> list[Card]:
    """The cards the seat has not seen played nor holds: in other hands or in the stock."""
    seen = set(view.hand) | set(view.played_cards)
    return [c for c in deck_for(view.players, view.options.removed_two) if c not in seen]


def supports(options: TableOptions) -> bool:
    """Whether the coach gives hints and reviews at this table: 2 to 4 players (its AI does not
    judge the five-player game, Briscola chiamata)."""
    return not options.chiamata


def unsupported_text() -> str:
    """What the hint and review panels say where the coach does not advise."""
    return _("The strong AI does not coach Briscola chiamata: no hints or reviews at 5 players.")


def hint_line(advice: Advice, ui: UiState) -> str:
    """``Play 4♠: saves the trump, the trick is worth 0.`` (and the margin over the next card)."""
    label = dk.card_label(advice.card, ui.deck, ui.ascii_only)
    text = _("Play {card}: {reason}.").format(
        card=label, reason=reason(advice, ui.deck, ui.ascii_only)
    )
    second = advice.runner_up()
    if second is not None:
        alt, margin = second
        alt_label = dk.card_label(alt, ui.deck, ui.ascii_only)
        n = round(margin)  # half a point rounds to even: 0.5 is "about as good", not "0 better"
        if n >= 1 and not advice.about_equal(alt):
            text += " " + ngettext(
                "About {n} point better than {card}.", "About {n} points better than {card}.", n
            ).format(n=n, card=alt_label)
        else:
            text += " " + _("{card} is about as good.").format(card=alt_label)
    return text


@dataclass(slots=True)
class ReviewedPlay:
    """One of my plays in a finished hand: the best card, what mine cost, and its noise.

    A sampled play that the review's deals flag (``CHECK_MARGIN``) is judged again on fresh
    deals, drawn independently of those that chose the best card and flagged it: ``cost`` and
    ``noise`` are then the fresh deals' (the same deals that pick a play out overstate its cost),
    and ``flagged`` keeps the flagging deals' cost and noise (not shown)."""

    trick: int  # 1-based
    played: Card
    best: Card
    cost: float
    noise: float = 0.0  # 95% half-width of the cost (0: every deal solved)
    solved: bool = True  # judged by deals solved exactly (else by the strong search: not judged)
    flagged: tuple[float, float] | None = None  # the flagging deals' (cost, noise), if checked

    @property
    def mistake(self) -> bool:
        """Judged by solved deals, and costing over a point even at the favourable end of the
        evaluation's uncertainty (cost minus its 95% half-width)."""
        return self.solved and self.cost - self.noise >= MISTAKE_MARGIN


def about_as_costly(top: ReviewedPlay, other: ReviewedPlay) -> bool:
    """Whether ``other`` cost about as much as ``top``: ``top``'s cost is above it by no more
    than the margin of error of their difference (the two plays' 95% half-widths combined, as
    their evaluations' deals are drawn apart)."""
    return top.cost - other.cost <= math.hypot(top.noise, other.noise)


def biggest_mistakes(plays: Sequence[ReviewedPlay]) -> list[ReviewedPlay]:
    """The hand's costliest mistake first, then every other mistake about as costly as it (the
    review cannot tell which of those cost more, so it names them all); empty when no play is a
    mistake."""
    mistakes = sorted((p for p in plays if p.mistake), key=lambda p: (-p.cost, p.trick))
    if not mistakes:
        return []
    top = mistakes[0]
    return [top, *(p for p in mistakes[1:] if about_as_costly(top, p))]


def review_play(view: SeatView, card: Card) -> ReviewedPlay:
    """Judge ``card`` played from ``view`` with what that seat could see, after the hand: every
    deal solved when few remain; in a 2-player hand sampled deals solved to the end near it
    (``review_deals``), 6 tricks ahead before (``REVIEW_EARLY``), and a play they flag judged
    again the same way on fresh deals (``check_play``); at 3 and 4 players before the stock runs
    out, the strong search with a larger budget (shown, never a mistake)."""
    trick = len(view.tricks) + 1
    if len(view.hand) < 2:
        return ReviewedPlay(trick, card, card, 0.0)
    ev = _exact(view)
    budget: Budget | None = None
    if ev is None and view.players == 2:
        late = view.stock_left <= REVIEW_SOLVED_STOCK
        budget = Budget(review_deals, exact_up_to=EXACT_DEALS) if late else REVIEW_EARLY
        ev = evaluate(view, budget, random.Random(REVIEW_SEED))
    if ev is None:
        # At 3 and 4 players with a stock the strong search's scores are shown, never called a
        # mistake: they disagree too often with deals solved exactly (docs/ai.md).
        ev = StrongBot(REVIEW_SEED, samples=REVIEW_SAMPLES[view.players]).evaluation(view)
        return _reviewed(trick, card, ev, solved=False)
    play = _reviewed(trick, card, ev, solved=True)
    if budget is None or play.cost - play.noise < CHECK_MARGIN:
        return play  # every deal solved (no noise, nothing to overstate), or not flagged
    return check_play(view, play, budget)


def _reviewed(trick: int, card: Card, ev: Evaluation, solved: bool) -> ReviewedPlay:
    best = ev.best()
    if ev.values[best] - ev.values[card.code] < 1e-9:
        return ReviewedPlay(trick, card, card, 0.0, solved=solved)
    return ReviewedPlay(
        trick, card, Card.from_code(best), ev.cost(card.code), ev.noise(best, card.code), solved
    )


def check_rng() -> random.Random:
    """The fresh deals' stream: independent of the review's own (``REVIEW_SEED``)."""
    return random.Random(f"{REVIEW_SEED}:check")


def check_play(view: SeatView, play: ReviewedPlay, budget: Budget) -> ReviewedPlay:
    """``play``, flagged by the review's deals, judged again by ``budget`` on fresh deals: its
    cost, the fresh deals' difference between the card the review's deals found best and the
    card played (none when the played card does as well there), and that difference's noise."""
    deals = budget.deals
    fresh = replace(budget, deals=lambda stock, players: CHECK_SCALE * deals(stock, players))
    ev = evaluate(view, fresh, check_rng())
    best, played = play.best.code, play.played.code
    cost = max(0.0, ev.values[best] - ev.values[played])
    return ReviewedPlay(
        play.trick,
        play.played,
        play.best,
        cost,
        ev.noise(best, played),
        play.solved,
        (play.cost, play.noise),
    )


def progress_bar(done: int, total: int, width: int = 30) -> str:
    """``[#########.........]`` for ``done`` of ``total``."""
    full = width * done // max(1, total)
    return "[" + "#" * full + "." * (width - full) + "]"


def _place(view: SeatView) -> tuple[int, int]:
    """Where in its hand a play from ``view`` comes: tricks taken, then cards of this one."""
    return (len(view.tricks), len(view.trick))


@dataclass(slots=True)
class Coach:
    """My plays of each hand (the view I played from, the card), hints, reviews."""

    hand: int = -1
    plays: dict[int, list[tuple[SeatView, Card]]] = field(default_factory=dict)
    reviews: dict[int, list[ReviewedPlay]] = field(default_factory=dict)
    reviewing: tuple[int, int, int] | None = None  # (hand, done, of)
    hint_text: str = ""
    hint_card: Card | None = None
    review_hand: int = -1
    supported: bool = True  # the table is one the coach judges (``supports``)
    judge: Judge = field(default_factory=lambda: JUDGE)  # the worker process, shared
    judging: dict[int, list[Future[ReviewedPlay] | None]] = field(default_factory=dict)

    def observe(self, model: TableModel) -> None:
        """Follow the hand number (a new hand drops the hint of the last one)."""
        self.supported = supports(model.options)
        if model.started and model.hand_number != self.hand:
            self.hand = model.hand_number
            self.hint_text, self.hint_card = "", None

    def played(self, view: SeatView, card: Card, hand: int | None = None) -> None:
        """I played ``card`` from ``view`` (in ``hand``, the one on the table when None): kept
        for the review of that hand, in the order of the hand, and judged at once in the worker
        process (``coach_judge``) while the hand goes on. A play kept already (the table
        replays my plays to a client that reconnects) is not kept twice; another card at the
        same place (one the host refused, then the card the table's replay says I played)
        takes its place."""
        hand = self.hand if hand is None else hand
        plays = self.plays.setdefault(hand, [])
        judging = self.judging.setdefault(hand, [])
        judging += [None] * (len(plays) - len(judging))
        at = _place(view)
        where = len(plays)
        while where and _place(plays[where - 1][0]) > at:
            where -= 1
        if where and _place(plays[where - 1][0]) == at:
            if plays[where - 1][1] == card:
                return  # kept already
            where -= 1
            del plays[where], judging[where]
        started = self.judge.submit(review_play, view, card) if self.supported else None
        plays.insert(where, (view, card))
        judging.insert(where, started)

    async def review(self, hand: int, changed: Callable[[], None]) -> None:
        """Every play of ``hand`` judged, one by one (``changed`` after each, so that the
        panel's progress bar moves): most were judged by the worker during the hand; the rest
        are awaited there (or judged in a thread); the event loop serves the screen meanwhile."""
        self.review_hand = hand
        if hand in self.reviews or not self.supported:
            changed()
            return
        plays = list(self.plays.get(hand, []))
        started = list(self.judging.get(hand, []))
        started += [None] * (len(plays) - len(started))
        done: list[ReviewedPlay] = []
        for i, (view, card) in enumerate(plays):
            self.reviewing = (hand, i, len(plays))
            changed()
            done.append(await self.judge.judge(review_play, view, card, started[i]))
        self.reviewing = None
        self.reviews[hand] = done
        self.judging.pop(hand, None)
        changed()

    def review_lines(self, ui: UiState) -> Frag:
        """The review panel: the biggest mistake first, then every play by its cost."""
        hand = self.review_hand
        out: Frag = []
        if not self.supported:
            return [("", unsupported_text())]

        def label(card: Card) -> str:
            return dk.card_label(card, ui.deck, ui.ascii_only)

        if hand not in self.reviews:
            if self.reviewing is not None:
                _hand, done, total = self.reviewing
                out.append(("", _("The strong AI reviews your plays: {done} of {total}...").format(
                    done=done, total=total)))  # fmt: skip
                out.append(("", "\n" + progress_bar(done, total)))
            else:
                out.append(("", _("The strong AI reviews your plays...")))
            return out
        plays = self.reviews[hand]
        if not plays:
            out.append(("", _("You made no play in this hand (an AI played your seat).")))
            return out
        mistakes = [p for p in plays if p.mistake]
        ranked = sorted(
            plays, key=lambda p: (not p.mistake, p.best == p.played, not p.solved, -p.cost, p.trick)
        )
        biggest = biggest_mistakes(plays)
        if len(biggest) == 1:
            worst = biggest[0]
            out.append(("class:bad", _(
                "Biggest mistake: trick {t}, you played {played}; the AI would play {best} "
                "(about {n} ± {e} points better)."
            ).format(t=worst.trick, played=label(worst.played), best=label(worst.best),
                     n=decimal(worst.cost), e=decimal(worst.noise))))  # fmt: skip
        elif biggest:
            out.append(("class:bad", _(
                "Biggest mistakes, about as costly as each other (within their margins of error):"
            )))  # fmt: skip
            for p in biggest:
                out.append(("class:bad", "\n  " + _(
                    "Trick {t}, you played {played}; the AI would play {best} (about {n} ± {e} "
                    "points better)"
                ).format(t=p.trick, played=label(p.played), best=label(p.best),
                         n=decimal(p.cost), e=decimal(p.noise))))  # fmt: skip
        else:
            out.append(("class:good", _(
                "No play is a clear mistake: where the AI prefers another card, the difference "
                "is within its margin of error."
            )))  # fmt: skip
        out.append(("", "\n"))
        out.append(("", _("In all, your plays cost about {n} points against the AI's.").format(
            n=decimal(sum(p.cost for p in mistakes)))))  # fmt: skip
        out.append(("", "\n"))
        out.append(("class:dim", _(
            "A play counts as a mistake only when its cost is over a point more than its margin "
            "of error (±). Before the stock runs out with more than 2 players, the AI's scores "
            "are shown but not judged."
        )))  # fmt: skip
        out.append(("", "\n\n"))
        out.append(("class:bold", _("Trick  You   AI    Cost ± error (points)")))
        out.append(("", "\n"))
        for p in ranked:
            if p.best == p.played:
                cost, style = "-", "class:dim"
            elif p.mistake:
                cost = f"{decimal(p.cost)} ± {decimal(p.noise)}"
                style = "class:bad" if p.cost >= 3 else ""
            elif p.solved:
                cost = f"{decimal(p.cost)} ± {decimal(p.noise)}  " + _("(about equal)")
                style = "class:dim"
            else:
                cost = f"{decimal(p.cost)} ± {decimal(p.noise)}  " + _("(too early to judge)")
                style = "class:dim"
            out.append((style, f"{p.trick:>5}  {label(p.played):<5} {label(p.best):<5} {cost}"))
            out.append(("", "\n"))
        return out
