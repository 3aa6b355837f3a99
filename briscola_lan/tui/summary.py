"""The match summary: every hand played so far with its points per side, who won it, its deal
check, who drew the face-up briscola, and the cards each side took (``m`` at the table, and on
the screen by itself when a match ends)."""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.rules import Card
from briscola_lan.tui import chiamata, render, render_result
from briscola_lan.tui.i18n import _, ngettext
from briscola_lan.tui.state import HandSummary, TableModel, UiState
from briscola_lan.tui.widgets import hang

Frag = StyleAndTextTuples


def side_label(model: TableModel, side: int) -> str:
    """A side as the summary names it: 'You', 'Bea', or 'A (us): You + Bea' at four players."""
    if model.players == 4:
        return f"{render_result.side_label(model, side)}: {model.side_name(side)}"
    return model.who(side)


def _taken(cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """Cards grouped by suit, the strongest first, as a hand is sorted."""
    return tuple(sorted(cards, key=lambda c: (int(c.suit), int(c.rank))))


def _hand(model: TableModel, ui: UiState, res: HandSummary, width: int | None) -> Frag:
    out: Frag = []
    title = (_("Hand {n} (tie-break)") if res.tiebreak else _("Hand {n}")).format(n=res.number + 1)
    out.append(("class:bold", title))
    if not res.points:
        out.append(("class:bad", "  " + _("aborted: it counts for nothing")))
        out.append(("", "\n"))
        return out
    if res.call is not None:  # five players: the call and its verdict
        style, winner = chiamata.verdict_text(model, res.call)
    else:
        style, winner = render_result.hand_winner_text(model, res.winner)
    out.append((style, "  " + winner))
    out.append(("", "\n"))
    if res.upcard is not None and res.upcard_taken_by is not None:
        upcard = render.card_label(res.upcard, ui)
        if model.seated and res.upcard_taken_by == model.my_seat:
            text = _("Briscola {card}: you drew it with the last card.")
        else:
            text = _("Briscola {card}: {name} drew it with the last card.")
        out.append(("class:dim", "  " + text.format(card=upcard, name=model.name_of(
            res.upcard_taken_by)) + "\n"))  # fmt: skip
    for side, pts in enumerate(res.points):
        cards = res.taken[side] if side < len(res.taken) else None
        out.append(("class:bold", f"  {side_label(model, side)}: "))
        out.append(("", ngettext("{n} point", "{n} points", pts).format(n=pts)))
        if res.call is not None:
            role = chiamata.role_word_of(res.call, side)
            score = chiamata.score_text(res.call.scores[side])
            out.append(("", f" ({score}{', ' + role if role else ''})"))
        if cards is None:
            out.append(("", "\n"))
            continue
        out.append(("", ", " + ngettext("{n} card", "{n} cards", len(cards)).format(
            n=len(cards)) + ":\n"))  # fmt: skip
        body: Frag = []
        for card in _taken(cards):
            body.append(render.card_frag(card, ui))
            body.append(("", " "))
        out.extend(hang([("", "    ")], body, width))
    v = res.verification
    if v is not None and v.ok is not None:
        check = _("Deal verified") if v.ok else _("Deal check FAILED:") + " " + v.summary
        out.append(("class:good" if v.ok else "class:bad", "  " + check + "\n"))
    return out


def summary_lines(model: TableModel, ui: UiState, width: int | None = None) -> Frag:
    """The whole summary, hand by hand, then the standing (or the match's result)."""
    out: Frag = []
    if model.match_over:
        style, text = render_result.match_result_text(model)
        out.append((style, text + "\n"))
    for res in model.hand_results:
        out.extend(_hand(model, ui, res, width))
    if not model.hand_results:
        out.append(("class:dim", _("No hand has been played to the end yet.") + "\n"))
    if model.started and not model.match_over and not model.hand_over:
        out.append(("", _("Hand {n} is being played.").format(n=model.hand_number + 1) + "\n"))
    out.append(("class:bold", render_result.standing_text(model) + "\n"))
    out.append(("class:dim", _("m or Esc closes, Up/Down scrolls.")))
    return out
