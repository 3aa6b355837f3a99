"""Learning from the strong AI: a hint for the position on the table, with a one-line reason,
and a review of a finished hand's plays, each with what it cost against the AI's own choice.

Both ask the strong AI of ``briscola_lan.ai`` (``StrongBot.choose_scored``) about the player's
own seat view, never anything else: its score of a card is the points the player's side is
expected to end the hand with after playing it, so a play costs the best score minus its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.ai import StrongBot
from briscola_lan.rules import Card, SeatView
from briscola_lan.tui import deck as dk
from briscola_lan.tui.follow import winning_seat
from briscola_lan.tui.i18n import _, decimal, ngettext
from briscola_lan.tui.state import TableModel, UiState

HINT_SEED = 14  # the hint's bot is deterministic: the same position, the same advice
Frag = StyleAndTextTuples


@dataclass(frozen=True, slots=True)
class Advice:
    """The strong AI's card for a position, and its score of every card of the hand."""

    view: SeatView
    card: Card
    scores: dict[int, float]

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


def advise(view: SeatView) -> Advice:
    """Ask the strong AI about ``view`` (its seat's turn). Takes ~0.1-0.3 s: run it in a thread."""
    card, scores = StrongBot(HINT_SEED).choose_scored(view)
    return Advice(view, card, scores)


def reason(advice: Advice, deck: dk.Deck, ascii_only: bool) -> str:
    """Why the card is good, in a few words, from what is on the table."""
    view, card = advice.view, advice.card
    label = dk.card_label(card, deck, ascii_only)
    trump = view.trump
    trick = view.trick
    points = sum(c.points for _, c in trick)
    if not trick:
        if card.points == 0 and card.suit != trump:
            return _("a lead worth nothing: whatever answers it gains little")
        if card.suit == trump:
            return _("a briscola lead draws the others' briscole while you hold the stronger")
        return _("a lead of {n} points the others are unlikely to take").format(n=card.points)
    side = view.options.side_of(view.seat)
    before = winning_seat(trick, trump)
    partner_wins = view.players == 4 and before is not None and view.options.side_of(before) == side
    wins = winning_seat((*trick, (view.seat, card)), trump) == view.seat
    if partner_wins and not wins:
        if card.points:
            return _("your partner is taking the trick: load {n} points on it").format(
                n=card.points
            )
        return _("your partner is taking the trick: give nothing away")
    if wins and card.suit == trump and trick[0][1].suit != trump:
        return _("the briscola takes the trick and its {n} points").format(n=points + card.points)
    if wins:
        return _("takes the trick ({n} points) without a briscola").format(n=points + card.points)
    others = [c for c in view.hand if c != card]
    if any(c.suit == trump for c in others) and points <= 4:
        return _("saves the trump, the trick is worth {n}").format(n=points)
    if card.points == 0:
        return _("the trick is not worth a winner: give the least, {card}").format(card=label)
    return _("every card loses this trick: {card} gives the fewest points").format(card=label)


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
        if margin >= 0.5:
            n = round(margin)
            text += " " + ngettext(
                "About {n} point better than {card}.", "About {n} points better than {card}.", n
            ).format(n=n, card=alt_label)
        else:
            text += " " + _("{card} is about as good.").format(card=alt_label)
    return text


@dataclass(slots=True)
class ReviewedPlay:
    """One of my plays in a finished hand, judged by the strong AI."""

    trick: int  # 1-based
    played: Card
    best: Card
    cost: float


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

    def observe(self, model: TableModel) -> None:
        """Follow the hand number (a new hand drops the hint of the last one)."""
        if model.started and model.hand_number != self.hand:
            self.hand = model.hand_number
            self.hint_text, self.hint_card = "", None

    def played(self, view: SeatView, card: Card) -> None:
        """I played ``card`` from ``view``: kept for the review of this hand."""
        self.plays.setdefault(self.hand, []).append((view, card))

    async def review(self, hand: int, changed: Callable[[], None]) -> None:
        """Judge every play of ``hand`` in a thread, one by one (``changed`` after each)."""
        self.review_hand = hand
        if hand in self.reviews:
            changed()
            return
        plays = list(self.plays.get(hand, []))
        done: list[ReviewedPlay] = []
        for i, (view, card) in enumerate(plays):
            self.reviewing = (hand, i, len(plays))
            changed()
            advice = await asyncio.to_thread(advise, view)
            trick = len(view.tricks) + 1
            done.append(ReviewedPlay(trick, card, advice.card, advice.cost(card)))
        self.reviewing = None
        self.reviews[hand] = done
        changed()

    def review_lines(self, ui: UiState) -> Frag:
        """The review panel: the biggest mistake first, then every play by its cost."""
        hand = self.review_hand
        out: Frag = []

        def label(card: Card) -> str:
            return dk.card_label(card, ui.deck, ui.ascii_only)

        if hand not in self.reviews:
            if self.reviewing is not None:
                _hand, done, total = self.reviewing
                out.append(("", _("The strong AI reviews your plays: {done} of {total}...").format(
                    done=done, total=total)))  # fmt: skip
            else:
                out.append(("", _("The strong AI reviews your plays...")))
            return out
        plays = self.reviews[hand]
        if not plays:
            out.append(("", _("You made no play in this hand (an AI played your seat).")))
            return out
        cost = sum(p.cost for p in plays)
        ranked = sorted(plays, key=lambda p: (-p.cost, p.trick))
        worst = ranked[0]
        if worst.cost >= 0.5:
            out.append(("class:bad", _(
                "Biggest mistake: trick {t}, you played {played}; the AI would play {best} "
                "(about {n} points better)."
            ).format(t=worst.trick, played=label(worst.played), best=label(worst.best),
                     n=decimal(worst.cost))))  # fmt: skip
        else:
            out.append(("class:good", _("No play cost you a point: the AI agrees with you.")))
        out.append(("", "\n"))
        out.append(("", _("In all, your plays cost about {n} points against the AI's.").format(
            n=decimal(cost))))  # fmt: skip
        out.append(("", "\n\n"))
        out.append(("class:bold", _("Trick  You   AI    Cost (points, biggest first)")))
        out.append(("", "\n"))
        for p in ranked:
            same = p.best == p.played
            lost = "-" if same else decimal(p.cost)
            style = "class:bad" if p.cost >= 3 else ("class:dim" if same else "")
            out.append((style, f"{p.trick:>5}  {label(p.played):<5} {label(p.best):<5} {lost:>5}"))
            out.append(("", "\n"))
        return out
