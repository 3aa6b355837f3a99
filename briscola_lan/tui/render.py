"""Pure rendering of the client's state into prompt_toolkit formatted text, screen by screen.

Each function takes state (and the width it may fill, when that matters) and returns
``StyleAndTextTuples``; the layout calls them through small callables so that every redraw reads
the current state. ASCII mode uses no Unicode at all. Every text goes through gettext (``_``)
and every card or suit name through ``tui.deck``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from briscola_lan.rules import Card, MatchFormat, Rank, Suit
from briscola_lan.rules.signals import SignalValue
from briscola_lan.tui import deck as dk
from briscola_lan.tui import seating
from briscola_lan.tui.follow import display_order, winning_seat
from briscola_lan.tui.i18n import N_, _, ngettext
from briscola_lan.tui.state import HostForm, TableModel, UiState, level_word
from briscola_lan.tui.widgets import hang, split_lines, wrap_words

SUIT_STYLE = dk.SUIT_STYLE

Frag = StyleAndTextTuples

__all__ = ["SUIT_STYLE", "Frag", "wrap_words"]


def card_label(card: Card, ui: UiState) -> str:
    """``A♥`` (``Ah`` in ASCII mode), in the deck the player chose."""
    return dk.card_label(card, ui.deck, ui.ascii_only)


def card_frag(card: Card, ui: UiState, extra: str = "") -> tuple[str, str]:
    style = SUIT_STYLE[card.suit] + (" " + extra if extra else "")
    return (style, card_label(card, ui))


def cards_text(cards: tuple[Card, ...] | list[Card], ui: UiState) -> str:
    return " ".join(card_label(c, ui) for c in cards)


def suit_text(suit: Suit, ui: UiState) -> str:
    return dk.suit_text(suit, ui.deck, ui.ascii_only)


_RULE_WORDS = {
    "exchange": N_("exchange"),
    "no-exchange": N_("no-exchange"),
    "drawn-partners": N_("drawn-partners"),
    "drawn-dealer": N_("drawn-dealer"),
    "signals": N_("signals"),
}


def rules_text(summary: str, deck: dk.Deck, ascii_only: bool = False) -> str:
    """A table's short rules label (``4p hands:2 exchange``, as ``TableOptions.summary`` and
    the TXT record write it) in the player's language; a word it does not know stays."""
    out = []
    for word in summary.split():
        if m := re.fullmatch(r"(\d)p", word):
            out.append(_("{n}p").format(n=m[1]))
        elif m := re.fullmatch(r"(hands|points):(\d+)", word):
            text = _("hands:{n}") if m[1] == "hands" else _("points:{n}")
            out.append(text.format(n=m[2]))
        elif m := re.fullmatch(r"no-2([dhsc])", word):
            two = Card(Suit.parse(m[1]), Rank.TWO)
            out.append(_("no-{card}").format(card=dk.card_label(two, deck, ascii_only)))
        else:
            out.append(_(_RULE_WORDS[word]) if word in _RULE_WORDS else word)
    return " ".join(out)


def _nl(out: Frag) -> None:
    out.append(("", "\n"))


# --- cards as boxes ------------------------------------------------------------------------------


BIG_CARD_WIDTH = 7  # columns of a big card box


def card_box(card: Card | None, ui: UiState, big: bool, style: str = "class:card") -> list[Frag]:
    """A card drawn as a box: 3 rows x 6 columns, or 5 x 7 when ``big``; None: a card back."""
    a = ui.ascii_only
    tl, tr, bl, br, h, v = ("+", "+", "+", "+", "-", "|") if a else ("┌", "┐", "└", "┘", "─", "│")
    if card is None:
        fill = "#" if a else "░"
        width = 5 if big else 4
        rows: list[Frag] = [[(style, tl + h * width + tr)]]
        rows += [[(style, v + fill * width + v)] for _row in range(3 if big else 1)]
        rows.append([(style, bl + h * width + br)])
        return rows
    face = f"{style} {SUIT_STYLE[card.suit]} class:bold"
    if not big:
        label = card_label(card, ui)
        return [
            [(style, tl + h * 4 + tr)],
            [(style, v + " "), (face, f"{label:<3}"), (style, v)],
            [(style, bl + h * 4 + br)],
        ]
    rank = dk.rank_label(card.rank, ui.deck)
    mark = dk.suit_symbol(card.suit, ui.deck, a)
    return [
        [(style, tl + h * 5 + tr)],
        [(style, v), (face, f"{rank:<5}"), (style, v)],
        [(style, v), (face, f"{mark:^5}"), (style, v)],
        [(style, v), (face, f"{rank:>5}"), (style, v)],
        [(style, bl + h * 5 + br)],
    ]


def _boxes_row(boxes: list[list[Frag]], gap: str = " ") -> list[Frag]:
    """Boxes side by side, row by row."""
    if not boxes:
        return []
    rows: list[Frag] = [[] for _ in boxes[0]]
    for box in boxes:
        for r, line in enumerate(box):
            rows[r].extend(line)
            rows[r].append(("", gap))
    return rows


# --- table -------------------------------------------------------------------------------------


def seat_lines(
    model: TableModel, ui: UiState, width: int | None = None, compact: bool = False
) -> Frag:
    """The players box: seats, partnerships, turn marker, presence, cards in hand."""
    out: Frag = []
    opts = model.options
    a = ui.ascii_only
    arrow = ">" if a else "▶"
    back = "#" if a else "▮"
    if not model.known:
        out.append(("class:dim", _not_seated_text(model)))
        _nl(out)
        return out
    w = width or 36
    infos = sorted(model.seats, key=lambda s: s.seat)
    held_w = 3 if model.started and not model.hand_over else 0
    rows = []
    for info in infos:
        tags = []  # the ones a player needs; the AI's level is dropped first when room is short
        if opts.players == 4:
            tags.append("AB"[opts.side_of(info.seat)])
        if info.seat in model.host_plays and not info.is_ai:
            tags.append(_("host plays"))
        if not info.occupied:
            tags.append(_("open"))
        elif not info.connected and info.seat not in model.host_plays:
            tags.append(_("away"))  # (a seat the host plays says that instead)
        if model.started and model.dealer == info.seat:
            tags.append("D")
        level = level_word(info.level.removeprefix("AI:")) if info.is_ai else ""
        if level and level in model.name_of(info.seat):
            level = ""  # "AI rules 1" says its level already
        held = ""
        if held_w and info.seat < len(model.hand_sizes):
            held = back * model.hand_sizes[info.seat]
        rows.append((info, tags, level, held))
    # "▶0 " + name + " " + tags + " " + cards: the name whole if anything fits
    room = w - 3 - (1 + held_w if held_w else 0)
    you = _(" (you)")
    name_w = tags_w = 0
    for with_level, with_you in ((True, True), (False, True), (False, False)):
        names = [
            model.name_of(i.seat) + (you if with_you and _mine(model, i.seat) else "")
            for i, _t, _l, _h in rows
        ]
        tag_texts = [" ".join([*t, lv] if with_level and lv else t) for _i, t, lv, _h in rows]
        name_w = max((len(n) for n in names), default=0)
        tags_w = max((len(t) for t in tag_texts), default=0)
        if name_w + (1 + tags_w if tags_w else 0) <= room:
            break
    name_w = max(4, min(name_w, room - (1 + tags_w if tags_w else 0)))
    for (info, _tags, _level, held), name, tag_text in zip(rows, names, tag_texts, strict=True):
        turn = model.started and not model.hand_over and model.to_play == info.seat
        style = "class:me" if _mine(model, info.seat) else ""
        if turn:
            style += " class:turn"
        out.append(("class:turn" if turn else "", arrow if turn else " "))
        out.append((style, f"{info.seat} {fit_name(name, name_w, a):<{name_w}}"))
        if tags_w:
            out.append(("class:dim", f" {tag_text:<{tags_w}}"))
        if held_w:
            out.append(("class:dim", f" {held:<{held_w}}"))
        _nl(out)
    if opts.players == 4 and not compact:
        out.append(("class:dim", _("Sides: A = seats 0+2, B = 1+3")))
        _nl(out)
    if not model.seated:
        out.append(("class:error", _not_seated_text(model)))
        _nl(out)
    return out


def players_lines(model: TableModel, ui: UiState, width: int, compact: bool) -> Frag:
    """The Players pane: the seats, the tricks and points, and on a short terminal the
    partners' signals (the Table pane has no row for them there)."""
    out = seat_lines(model, ui, width, compact)
    out.extend(score_lines(model, ui, width))
    if compact:
        out.extend(signal_lines(model, ui, width, short=True))
    return out


def _mine(model: TableModel, seat: int) -> bool:
    return model.seated and seat == model.my_seat


def fit_name(name: str, width: int, ascii_only: bool = False) -> str:
    """``name`` whole if it fits in ``width``, else its start and its end around an ellipsis
    ("AI r…1"): two names that differ at the end ("AI rules 1", "AI rules 2") stay apart."""
    if len(name) <= width:
        return name
    if width <= 2:
        return name[:width]
    tail = min(3, (width - 1) // 2)
    return name[: width - 1 - tail] + ("~" if ascii_only else "…") + name[-tail:]


def _not_seated_text(model: TableModel) -> str:
    """What a network client without a seat is doing: connecting, or why it has no seat."""
    if model.connection == "connecting":
        return _("connecting...")
    if model.connection == "closed":
        return _("not connected")
    return _("You are not seated.")


def side_label(model: TableModel, side: int) -> str:
    if model.options.players == 4 and not model.seated:
        return "AB"[side]
    if model.options.players == 4:
        us = model.options.side_of(model.my_seat) == side
        return f"{'AB'[side]} ({_('us') if us else _('them')})"
    return model.who(side)


def score_lines(model: TableModel, ui: UiState | None = None, width: int | None = None) -> Frag:
    """Tricks and points per side this hand, and the match standing."""
    out: Frag = []
    opts = model.options
    if not model.known or not model.seated:  # no hand of its own: no per-hand figures
        return out
    w = width or 36
    hide = ui is not None and ui.hide_points  # the player counts in their head
    labels = [side_label(model, side) for side in range(opts.sides)]
    counts = [
        (
            model.tricks_won[side] if side < len(model.tricks_won) else 0,
            model.points[side] if side < len(model.points) else 0,
        )
        for side in range(opts.sides)
    ]
    forms = (
        (_("tricks {n:>2}"), _("{n:>2} tr")) if hide
        else (_("tricks {n:>2} pts {p:>3}"), _("{n:>2} tr {p:>3} pts"), _("{p:>3} pts"))
    )  # fmt: skip
    longest = max((len(x) for x in labels), default=0)
    form = forms[-1]  # the first form beside which every name is whole, else the shortest
    for candidate in forms:
        if longest + 1 + len(candidate.format(n=0, p=0)) <= w:
            form = candidate
            break
    short = form is not forms[0]
    label_w = max(4, min(longest, w - 1 - len(form.format(n=0, p=0))))
    for label, (tricks, pts) in zip(labels, counts, strict=True):
        figures = form.format(n=tricks, p=pts)
        out.append(("", f"{fit_name(label, label_w, ui.ascii_only if ui else False):<{label_w}} "
                        f"{figures}"))  # fmt: skip
        _nl(out)
    short = short or len(standing_text(model)) > w
    out.append(("class:dim", standing_text(model, short)))
    _nl(out)
    return out


def standing_text(model: TableModel, short: bool = False) -> str:
    opts = model.options
    sides = range(opts.sides)
    if opts.match_format is MatchFormat.HANDS:
        won = model.hands_won or (0,) * opts.sides
        score = "-".join(str(won[s]) for s in sides)
        text = _("Won {score} (to {n})") if short else _("Hands won {score} (first to {n})")
        return text.format(score=score, n=opts.hands_to_win)
    tot = model.total_points or (0,) * opts.sides
    score = "-".join(str(tot[s]) for s in sides)
    text = _("Pts {score} ({n} hands)") if short else _("Match points {score} ({n} hands)")
    return text.format(score=score, n=opts.base_hands)


def upcard_taker_text(model: TableModel, ui: UiState) -> str:
    """Who drew the face-up briscola with the stock's last card: '(7♥ taken by Bea)'."""
    card = card_label(model.upcard, ui) if model.upcard is not None else "?"
    taker = model.upcard_taken_by
    if taker is None:
        return ""
    if model.seated and taker == model.my_seat:
        return _("({card} taken by you)").format(card=card)
    return _("({card} taken by {name})").format(card=card, name=model.name_of(taker))


def removed_two_text(model: TableModel, ui: UiState) -> str:
    """At 3 players: which 2 is out of the deck."""
    two = Card(model.options.removed_two, Rank.TWO)
    return _("{card} is out of the deck (39 cards)").format(card=card_label(two, ui))


def trick_text(
    model: TableModel, ui: UiState, big: bool, compact: bool = False, width: int | None = None
) -> Frag:
    """The trick on the table by position (you at the bottom, your partner across, opponents at
    the sides; ``tui/seating.py``): the held, completed one, or the current one with who is
    winning so far. ``big`` draws the cards as boxes. Names are always whole."""
    held = ui.follow.held
    plays = held.plays if held is not None else model.trick
    winner = held.winner if held is not None else winning_seat(model.trick, model.trump)
    draw = seating.box_compass if big else seating.text_compass
    out = draw(model, ui, plays, winner, done=held is not None, width=width)
    if held is not None:
        mine = model.seated and held.winner == model.my_seat
        text = (
            _("You take the trick: +{points} points")
            if mine
            else _("{name} takes the trick: +{points} points")
        )
        out.append(("class:bold", text.format(name=model.who(held.winner), points=held.points)))
        if not compact:  # a short terminal's key line says it
            out.append(("class:dim", "  " + _("(any key: go on)")))
        _nl(out)
    return out


def table_lines(
    model: TableModel,
    ui: UiState,
    width: int | None = None,
    own_verdict: str | None = None,
    *,
    big: bool = False,
    compact: bool = False,
) -> Frag:
    """The centre of the table: briscola, stock, trick, whose turn, or the result.

    ``width`` (the panel's columns, once known) breaks long lines between words;
    ``own_verdict`` is what my own record says when the host blamed my seat for the hand."""
    out: Frag = []
    held = ui.follow.held is not None
    if model.hand_over and model.last_result is not None and not held:
        return wrap_words(result_lines(model, ui, own_verdict), width)
    if (model.waiting or not model.started) and not held:
        out.append(("", model.waiting or _("Waiting for the hand to start...")))
        _nl(out)
        if model.error:
            out.append(("class:error", model.error))
            _nl(out)
        return wrap_words(out, width)
    if model.trump is not None and model.upcard is not None:
        out.append(("", _("Briscola:") + " "))
        if model.upcard_taken_by is None:
            out.append(card_frag(model.upcard, ui, "class:bold"))
            out.append(("", "  " + _("trump {suit}").format(suit=suit_text(model.trump, ui))))
            out.append(("", "   " + _("Stock: {n}").format(n=model.stock_left)))
        else:  # the stock is out: who drew the face-up briscola stays on the table
            out.append((SUIT_STYLE[model.trump], suit_text(model.trump, ui)))
            taker = upcard_taker_text(model, ui)
            head = len(_("Briscola:")) + 1 + len(suit_text(model.trump, ui))
            # on a line of its own rather than broken in two
            out.append(("", "\n" if width and head + 2 + len(taker) > width else "  "))
            out.append(("class:dim", taker))
        _nl(out)
    for style, text in trust_lines(model, compact=compact):
        out.append((style, text))
        _nl(out)
    if model.players == 3:
        out.append(("class:dim", removed_two_text(model, ui)))
        _nl(out)
    out.extend(trick_text(model, ui, big, compact, width))
    if not compact:  # (a short terminal has them in the Players pane)
        out.extend(signal_lines(model, ui, width))
    if held:
        pass
    elif model.connection == "reconnecting":
        out.append(("class:error", _("Connection lost: reconnecting, play resumes by itself...")))
    elif model.connection == "closed" and model.closed_why:
        out.append(("class:error", model.closed_why))
    elif model.my_turn:
        out.append(("class:turn", _("Your turn: choose a card, Enter plays it")))
    elif model.to_play is not None:
        out.append(("", _("Waiting for {name}...").format(name=model.who(model.to_play))))
    if not (held and compact):  # (a short terminal spares the empty line under a held trick)
        _nl(out)
    if model.error:
        out.append(("class:error", model.error))
        _nl(out)
    return wrap_words(out, width)


def trust_lines(model: TableModel, *, compact: bool = False) -> list[tuple[str, str]]:
    """What the host's computer can see at this table, in one line (docs/fairness.md, table by
    table; left out of a small table, whose players box still marks the seats the host plays),
    and before the 4-player exchange a warning when the host plays my partner."""
    if not model.deal or not model.started:
        return []  # a game on this machine alone: nobody else to trust
    if model.deal == "classic":
        return (
            []
            if compact
            else [("class:dim", _("Classic deal: the host's computer knows every card."))]
        )
    ai = {i.seat for i in model.seats if i.is_ai}
    people = [model.name_of(s) for s in model.host_plays if s != model.my_seat and s not in ai]
    if not model.host_plays:
        text = _("Blind deal: no one, the host included, sees a card unshown.")
    elif not people:
        text = _("Blind deal: the host sees the AI players' cards only.")
    else:  # a person who did not answer the hand's call: the host plays that seat this hand
        text = _("Blind deal: the host plays {names} this hand and sees those cards.").format(
            names=", ".join(people)
        )
    out = [] if compact else [("class:dim", text)]
    opts = model.options
    partner = opts.partner_of(model.my_seat) if opts.players == 4 else None
    if (
        partner is not None
        and opts.partner_exchange
        and model.seated
        and partner in model.host_plays
        and model.stock_left > 0
    ):
        out.append(("class:error", _("The host plays your partner: it sees the cards you show.")))
    return out


def hand_winner_text(model: TableModel, winner: int | None) -> tuple[str, str]:
    """(style, text) for who won a hand."""
    if winner is None:
        return "class:bold", _("Nobody wins the hand (a tie).")
    if model.seated and model.options.side_of(model.my_seat) == winner:
        return "class:good", _("You win the hand!") if model.players != 4 else _("Your side wins!")
    name = model.side_name(winner)
    if model.players == 4:
        return "class:bad", _("{names} win the hand.").format(names=name)
    return "class:bad", _("{name} wins the hand.").format(name=name)


def match_result_text(model: TableModel) -> tuple[str, str]:
    """(style, text) for the end of a match: who won, said plainly either way."""
    if model.match_winner is None:
        return "class:bad", _("The match is over, with no winner (aborted).")
    win = model.seated and model.options.side_of(model.my_seat) == model.match_winner
    name = model.side_name(model.match_winner)
    if win and model.players == 4:
        return "class:good", _("YOU WIN THE MATCH, with your partner!")
    if win:
        return "class:good", _("YOU WIN THE MATCH!")
    if model.seated and model.players == 4:
        return "class:bad", _("You lose the match: {names} win it.").format(names=name)
    if model.seated:
        return "class:bad", _("You lose the match: {name} wins it.").format(name=name)
    return "class:bold", _("{name} wins the match.").format(name=name)


def result_lines(model: TableModel, ui: UiState, own_verdict: str | None = None) -> Frag:
    """End of a hand: points per side, hand result, standing and the deal verification (with
    ``own_verdict`` in its place when the host blamed my seat: my record's word on it)."""
    res = model.last_result
    assert res is not None
    out: Frag = []
    title = (_("Hand {n} (tie-break) over.") if res.tiebreak else _("Hand {n} over.")).format(
        n=res.number + 1
    )
    out.append(("class:bold", title))
    _nl(out)
    label_w = max((len(side_label(model, side)) for side in range(len(res.points))), default=0)
    for side, pts in enumerate(res.points):
        out.append(("", f"  {side_label(model, side):<{label_w}} "))
        out.append(("", ngettext("{n:>3} point", "{n:>3} points", pts).format(n=pts)))
        _nl(out)
    if not res.points:
        out.append(("class:bad", _("The hand was aborted.")))
        if not model.match_over:
            _nl(out)
            out.append(("", _("It counts for nothing: the same dealer deals again.")))
    else:
        out.append(hand_winner_text(model, res.winner))
    _nl(out)
    out.append(("", standing_text(model)))
    _nl(out)
    v = res.verification
    if v is None:
        out.append(("class:dim", _("Deal check: waiting for the reveals...")))
    elif v.ok is None:
        out.append(("class:dim", _("Deal check:") + " "))
        out.append(("", v.summary))
    elif v.ok:
        out.append(("class:good", _("Deal verified")))
    else:
        out.append(("class:bad", _("Deal check FAILED:") + " "))
        out.append(("", own_verdict or v.summary))
    out.append(("class:dim", "  " + _("[v] details")))
    _nl(out)
    if v is not None and v.live is not None:
        out.append(("class:bad", v.live))
        _nl(out)
    if model.match_over:
        out.append(match_result_text(model))
        _nl(out)
        out.append(("class:turn", _("r: rematch (same table and players)   Esc: lobby")))
    else:
        out.append(("class:turn", _("Press n for the next hand.")))
    out.append(("class:dim", "  " + _("w: review your plays")))
    _nl(out)
    return out


def hand_lines(
    model: TableModel,
    ui: UiState,
    on_click: Callable[[int, Card], None] | None = None,
    big: bool = False,
    inline: bool = False,
) -> Frag:
    """My cards as boxes with their numbers (``inline``: on one line), in display order; the
    chosen one is highlighted and the card just drawn is marked ``new``."""
    cards = display_order(model.hand, model.trump, ui.hand_order)
    if not cards:
        return [("class:dim", _("(no cards)"))]
    if inline:
        return _inline_hand(model, ui, cards, on_click)
    width = 8  # a card and its gap (large cards have no gap: they are a column wider)
    boxes: list[list[Frag]] = []
    numbers: Frag = []
    for i, card in enumerate(cards):
        sel = i == ui.card_index and model.my_turn and ui.follow.held is None
        drawn = card == ui.follow.drawn
        style = "class:card.selected" if sel else ("class:card.new" if drawn else "class:card")
        box = card_box(card, ui, big, style)
        handler = _click_handler(on_click, i, card) if on_click is not None else None
        if handler is not None:
            box = [[(f[0], f[1], handler) for f in row] for row in box]
        boxes.append(box)
        num = f"[{i + 1}]" if sel else f" {i + 1} "
        new = _("new") if drawn else ""
        cell = f" {num}{new}"
        if len(cell) > width:  # a longer word for "new" ("nuova"): whole, under its card
            cell = f"{num.rstrip()}{new}" if sel else f"{num.strip():>2} {new}"
        numbers.append(("class:turn" if sel else "class:dim", f"{cell[:width]:<{width}}"))
    out: Frag = []
    for row in _boxes_row(boxes, " " if big else "  "):
        out.extend(row)
        _nl(out)
    out.extend(numbers)
    _nl(out)
    if model.partner_shown is not None:
        out.append(("class:partner", _("Your partner still holds:") + " "))
        for card in model.partner_shown:
            out.append(card_frag(card, ui, "class:bold"))
            out.append(("", " "))
        if not model.partner_shown:
            out.append(("class:dim", _("no cards") + " "))
        out.append(("class:dim", _("(hidden after your next play)")))
        _nl(out)
    return out


def _inline_hand(
    model: TableModel,
    ui: UiState,
    cards: tuple[Card, ...],
    on_click: Callable[[int, Card], None] | None,
) -> Frag:
    """A short terminal's hand: ``[1 K♦]  2 K♠  3 5♠ new`` on one line."""
    out: Frag = []
    for i, card in enumerate(cards):
        sel = i == ui.card_index and model.my_turn and ui.follow.held is None
        style = "class:card.selected" if sel else ""
        handler = _click_handler(on_click, i, card) if on_click is not None else None
        parts: Frag = [
            (style, "[" if sel else " "),
            (style, f"{i + 1} "),
            (f"{style} {SUIT_STYLE[card.suit]} class:bold", card_label(card, ui)),
            (style, "]" if sel else " "),
        ]
        if card == ui.follow.drawn:
            parts.append(("class:card.new", _("new")))
        out.extend((f[0], f[1], handler) if handler else f for f in parts)
        out.append(("", "  "))
    _nl(out)
    if model.partner_shown is not None:
        out.append(("class:partner", _("Your partner still holds:") + " "))
        out.append(("", cards_text(model.partner_shown, ui)))
        _nl(out)
    return out


def _click_handler(
    on_click: Callable[[int, Card], None], index: int, card: Card
) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_click(index, card)

    return handler


def log_lines(model: TableModel) -> Frag:
    """The whole log of the match (the window scrolls over it)."""
    out: Frag = []
    for i, line in enumerate(model.log):
        style = "class:error" if line.startswith("!") else ""
        out.append((style, line))
        if i < len(model.log) - 1:
            _nl(out)
    return out


def log_title(ui: UiState) -> str:
    s = ui.log_scroll
    if not s.can_scroll:
        return _("Log")
    if s.offset:
        return _("Log (PgUp/PgDn, {n} newer lines below)").format(n=s.offset)
    return _("Log (PgUp: earlier lines)")


def more_text(up: bool, ascii_only: bool) -> str:
    if up:
        return ("^ " if ascii_only else "↑ ") + _("more above")
    return ("v " if ascii_only else "↓ ") + _("more below")


def title_text(model: TableModel, ui: UiState, width: int = 200) -> Frag:
    conn = {
        "local": _("offline"),
        "connected": _("connected"),
        "reconnecting": _("RECONNECTING..."),
        "closed": _("disconnected"),
        "connecting": _("connecting..."),
    }.get(model.connection, model.connection)
    if model.connection == "connected" and not model.seated:
        conn = _("not seated")
    hand = _("Hand {n}").format(n=model.hand_number + 1) if model.started else _("Waiting")
    sep = " - " if ui.ascii_only else " · "
    style = "class:title" + (" class:error" if model.connection == "reconnecting" else "")
    rules = rules_text(model.options.summary(), ui.deck, ui.ascii_only)
    facts = f"{rules}{sep}" if model.known else ""
    if model.known and model.deal:
        facts += (_("blind deal") if model.deal == "blind" else _("classic deal")) + sep
    if model.known and model.seated:
        facts += f"{hand}{sep}"
    head = f" Briscola LAN{sep}{model.title}{sep}{facts}"
    if len(head) + len(conn) > width:  # a narrow terminal: the table's facts first
        head = f" {model.title}{sep}{facts}"
    return [
        (style, head),
        (style + (" class:blink" if model.connection == "reconnecting" else ""), conn),
    ]


# --- lobby, form, help ---------------------------------------------------------------------------


def kept_line(kept: Any) -> str:
    """The lobby's offer to continue an unfinished match hosted here (``net.kept.KeptTable``)."""
    if kept.kind == "practice":
        text = _("Continue {table}: practice, hand {hand}")
    else:
        text = _("Continue {table}: hosted on the network, hand {hand}")
    return text.format(table=kept.name, hand=kept.hand)


def lobby_lines(ui: UiState, width: int | None = None) -> Frag:
    """The tables found: name, host, rules, deal and seats, in columns fitted to the width (the
    host's address goes first when room is short); a finished table is dim, its match over."""
    out: Frag = []
    if not ui.lobby:
        out.append(("class:dim", _("No tables found yet. They appear here as they are announced.")))
        _nl(out)
        return wrap_words(out, width)
    w = width or 78
    rows = []
    for entry in ui.lobby:
        state = ""
        if entry.phase == "over":
            state = _("over")
        elif entry.phase not in ("", "lobby"):
            state = _("playing")
        elif entry.open_seats <= 0:
            state = _("FULL")
        seats = f"{entry.seated}/{entry.players}" + (f" {state}" if state else "")
        deal = _("blind") if entry.deal == "blind" else _("classic")
        rows.append((entry, rules_text(entry.summary, ui.deck, ui.ascii_only), deal, seats))
    heads = (_("TABLE"), _("HOST"), _("RULES"), _("DEAL"), _("SEATS"))
    rules_w = max(len(heads[2]), *(len(r[1]) for r in rows))
    deal_w = max(len(heads[3]), *(len(r[2]) for r in rows))
    seats_w = max(len(heads[4]), *(len(r[3]) for r in rows))
    host_w = max(len(heads[1]), *(len(r[0].host) for r in rows))
    fixed = 2 + 1 + rules_w + 1 + deal_w + 1 + seats_w
    with_host = w - fixed - host_w - 1 >= 12
    if not with_host:
        host_w = 0
    name_w = max(8, w - fixed - (host_w + 1 if host_w else 0))
    name_w = min(name_w, max(len(heads[0]), *(len(r[0].name) for r in rows)))
    if name_w + fixed > w:  # still too narrow: the rules give way, cut
        rules_w = max(len(heads[2]), w - 2 - name_w - 1 - deal_w - 1 - seats_w - 1)

    def line(mark: str, cells: tuple[str, str, str, str, str]) -> str:
        name, host, rules, deal, seats = cells
        host_part = f" {host[:host_w]:<{host_w}}" if host_w else ""
        return (
            f"{mark} {fit_name(name, name_w, ui.ascii_only):<{name_w}}{host_part} "
            f"{rules[:rules_w]:<{rules_w}} {deal[:deal_w]:<{deal_w}} {seats}"
        )

    out.append(("class:dim", line(" ", heads)[:w]))
    _nl(out)
    for i, (entry, rules, deal, seats) in enumerate(rows):
        sel = i == ui.lobby_index
        style = "class:selected" if sel else ("class:dim" if entry.phase == "over" else "")
        text = line(">" if sel else " ", (entry.name, entry.host, rules, deal, seats))
        out.append((style, text[:w]))
        _nl(out)
    return out


def form_rows(form: HostForm) -> list[str]:
    """The row ids the host form shows for its current option values."""
    rows = ["name", "players"]
    if form.players != 3:
        rows.append("format")
    if form.players != 3 and form.match_format is MatchFormat.HANDS:
        rows.append("hands")
    if form.players == 4:
        rows.append("exchange")
        rows.append("signals")
    if form.players == 3:
        rows.append("two")
    if form.players == 4:
        rows.append("drawp")
    rows.append("drawd")
    rows.extend(f"seat{i}" for i in range(1, form.players))
    rows.append("hints")
    rows.append("deal")
    rows.append("start")
    return rows


def _on_off(value: bool) -> str:
    return _("on") if value else _("off")


def form_lines(form: HostForm, ui: UiState, width: int | None = None) -> Frag:
    out: Frag = []
    rows = form_rows(form)
    form.row = min(form.row, len(rows) - 1)
    lt, gt = "<", ">"
    w = width or 80
    lines: list[tuple[bool, str, str]] = []
    for i, row in enumerate(rows):
        sel = i == form.row
        if row == "name":
            label, value = _("Table name"), form.table_name + ("_" if sel else "")
        elif row == "players":
            label, value = _("Players"), f"{lt} {form.players} {gt}"
        elif row == "format":
            value = (
                _("hands: first to N hands (61+ wins a hand)")
                if form.match_format is MatchFormat.HANDS
                else _("points: 2 hands, most points wins")
            )
            label, value = _("Match format"), f"{lt} {value} {gt}"
        elif row == "hands":
            label, value = _("Hands to win"), f"{lt} {form.hands_to_win} {gt}"
        elif row == "exchange":
            label, value = _("Partner exchange"), f"{lt} {_on_off(form.partner_exchange)} {gt}"
        elif row == "signals":
            label, value = _("Partners' signals"), f"{lt} {_on_off(form.signals)} {gt}"
        elif row == "two":
            two = card_label(Card(form.removed_two, Rank.TWO), ui)
            label, value = _("2 removed (39 cards)"), f"{lt} {two} {gt}"
        elif row == "drawp":
            label, value = _("Draw partners"), f"{lt} {_on_off(form.draw_partners)} {gt}"
        elif row == "drawd":
            label, value = _("Draw first dealer"), f"{lt} {_on_off(form.draw_dealer)} {gt}"
        elif row == "hints":
            label, value = _("Hints for players"), f"{lt} {_on_off(form.hints)} {gt}"
        elif row == "deal":
            text = (
                _("blind: nobody sees a card before it is shown")
                if form.deal_mode() == "blind"
                else _("classic: the host's engine knows the deck")
            )
            label, value = _("Deal"), f"{lt} {text} {gt}"
        elif row.startswith("seat"):
            idx = int(row[4:])
            filler = form.fillers[idx - 1]
            text = (
                _("open for a person")
                if filler == "open"
                else _("AI ({level})").format(level=level_word(filler))
            )
            label, value = _("Seat {n}").format(n=idx), f"{lt} {text} {gt}"
        else:
            label, value = "", _("[ Start the table ]")
        lines.append((sel, label, value))
    # the labels in a column as wide as the longest (at most half the width); a value too long
    # for its line goes on under itself, never under the labels
    label_w = min(max(len(label) for _s, label, _v in lines), max(8, (w - 4) // 2))
    indent = 2 + label_w + 1
    for sel, name, value in lines:
        style = "class:selected" if sel else ""
        mark = ">" if sel else " "
        label = name
        if len(name) > label_w:  # a label wider than its column: on a line of its own
            out.append((style, f"{mark} {name}"))
            _nl(out)
            label = ""
        parts = split_lines(wrap_words([(style, value)], max(8, w - indent)))
        for n, part in enumerate(parts):
            head = f"{mark} {label:<{label_w}} " if n == 0 else " " * indent
            out.append((style if n == 0 else "", head))
            out.extend(part)
            _nl(out)
    if form.players == 3:
        out.append(
            (
                "class:dim",
                "  " + _("3 players play the 'points' format: 3 hands, most points wins."),
            )
        )
        _nl(out)
    if form.error:
        out.append(("class:error", form.error))
        _nl(out)
    return wrap_words(out, width)


def signal_text(value: SignalValue) -> str:
    """What a signal says, as the player reads it (docs/rules.md, "Signals between partners")."""
    return {
        SignalValue.ACE_OF_TRUMPS: _("the ace of trumps"),
        SignalValue.THREE_OF_TRUMPS: _("the three of trumps"),
        SignalValue.TRUMP_FIGURE: _("a trump figure (king, knight or jack)"),
        SignalValue.SMALL_TRUMP: _("a small trump (7 down to 2)"),
        SignalValue.CARICO: _("a carico (an ace or a three, not trumps)"),
        SignalValue.NOTHING: _("nothing of value"),
    }[value]


def signal_lines(
    model: TableModel, ui: UiState, width: int | None = None, short: bool = False
) -> Frag:
    """At a table that allows signals: what the partner (and I) signalled this hand, in words
    when the line has room for them, else in a word or two; ``short`` (a small terminal's
    Players pane): ``Partner: carico``. The choice of a signal, while the player makes one,
    sits under the hand (``signal_choice``)."""
    out: Frag = []
    if not model.options.signals or model.players != 4:
        return out
    me = model.my_seat
    partner = model.options.partner_of(me)
    for who, label in ((partner, _("Partner's signal")), (me, _("Your signal"))):
        last = next((x for x in reversed(model.signals) if x.seat == who), None)
        if last is None or last.value is None:
            continue
        if short:
            line = (_("Partner: {what}") if who == partner else _("You: {what}")).format(
                what=signal_word(last.value)
            )
        else:
            text = _("{what} (trick {n})").format(what=signal_text(last.value), n=last.trick)
            if width is not None and len(label) + 2 + len(text) > width:
                text = _("{what} (trick {n})").format(what=signal_word(last.value), n=last.trick)
            line = f"{label}: {text}"
        out.append(("class:partner" if who == partner else "class:dim", line))
        _nl(out)
    return out


def signal_choice(width: int | None = None) -> Frag:
    """The six signals to choose from, numbered as the keys 1-6 choose them, as many on a line
    as fit, never one broken in two."""
    out: Frag = []
    col = 0
    for i, value in enumerate(SignalValue, 1):
        item = f" {i} {signal_word(value)} "
        if width and col and col + len(item) > width:
            _nl(out)
            col = 0
        out.append(("class:bold", f" {i} "))
        out.append(("", signal_word(value) + " "))
        col += len(item)
    return out


def signal_word(value: SignalValue) -> str:
    """A signal in a word or two, for the choice of one."""
    return {
        SignalValue.ACE_OF_TRUMPS: _("ace of trumps"),
        SignalValue.THREE_OF_TRUMPS: _("three of trumps"),
        SignalValue.TRUMP_FIGURE: _("trump figure"),
        SignalValue.SMALL_TRUMP: _("small trump"),
        SignalValue.CARICO: _("carico"),
        SignalValue.NOTHING: _("nothing"),
    }[value]


def help_table() -> list[tuple[str, str]]:
    return [
        (_("Left/Right"), _("choose a card")),
        ("1-9", _("choose card by number")),
        (_("Enter"), _("play the chosen card")),
        (_("mouse click"), _("play that card")),
        ("h", _("a hint from the strong AI")),
        ("g", _("a signal to your partner (4 players, where the table allows them)")),
        ("w", _("review your plays (after a hand)")),
        ("m", _("the match summary: every hand, the cards taken")),
        ("p", _("hide/show the running point count")),
        ("o", _("hand sorted / as dealt")),
        ("l", _("show/hide the last trick")),
        (_("PgUp/PgDn"), _("scroll the log (or the wheel)")),
        ("n", _("next hand (after a hand)")),
        ("r", _("rematch (after the match)")),
        ("f", _("seat AI in the open seats")),
        ("v", _("deal verification details")),
        ("?", _("this help")),
        (_("Esc"), _("close a panel / leave")),
        ("q", _("quit (asks first mid-match)")),
    ]


def help_lobby() -> list[tuple[str, str]]:
    return [
        (_("Up/Down"), _("choose a table")),
        (_("Enter"), _("join the chosen table")),
        ("a", _("play against AI now")),
        ("c", _("continue an unfinished match")),
        ("h", _("host a table")),
        ("l", _("learn the game, then practice")),
        ("s", _("saved games")),
        ("t", _("your statistics")),
        ("q", _("quit")),
    ]


def help_form() -> list[tuple[str, str]]:
    return [
        (_("Up/Down/Tab"), _("choose a field")),
        (_("Left/Right/Space"), _("change its value")),
        (_("type"), _("the table's name (on its row)")),
        (_("Enter"), _("start the table")),
        (_("Esc"), _("back to the lobby")),
    ]


def help_pages() -> list[tuple[str, str]]:
    return [
        (_("Right/Enter"), _("learn: the next page (the last starts a game)")),
        (_("Left"), _("learn: the page before")),
        (_("Up/Down"), _("saved games: choose a game; elsewhere: scroll")),
        (_("Enter"), _("saved games: check the chosen game")),
        (_("PgUp/PgDn"), _("scroll")),
        (_("Esc"), _("back to the lobby")),
    ]


def help_lines(ui: UiState, width: int | None = None) -> Frag:
    """Every key of the client, the current screen's first."""
    sections = [
        ("table", _("Table keys"), help_table()),
        ("lobby", _("Lobby keys"), help_lobby()),
        ("host", _("Host form keys"), help_form()),
        ("pages", _("Learn mode, saved games and statistics"), help_pages()),
    ]
    first = {"lobby": "lobby", "host": "host", "table": "table"}.get(str(ui.screen), "pages")
    sections.sort(key=lambda sec: sec[0] != first)
    out: Frag = []
    for _id, title, keys in sections:
        out.append(("class:bold", title))
        _nl(out)
        key_w = max(12, *(len(k) for k, _w in keys))
        for key, what in keys:
            out.extend(hang([("", f"  {key:<{key_w}} ")], [("", what)], width))
    return out


def help_title() -> str:
    return _("Keys (Esc or ? closes, Up/Down scrolls)")
