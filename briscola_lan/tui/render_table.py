"""Pure rendering of the table screen: the players box, the tricks and points, the centre of the
table (briscola, stock, trick, whose turn) and my hand."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from briscola_lan.rules import Card, Rank
from briscola_lan.tui import chiamata, render_chiamata, seating
from briscola_lan.tui.follow import display_order, winning_seat
from briscola_lan.tui.i18n import _
from briscola_lan.tui.render import (
    SUIT_STYLE,
    Frag,
    boxes_row,
    card_box,
    card_frag,
    card_label,
    cards_text,
    fit_name,
    nl,
    suit_text,
)
from briscola_lan.tui.render_result import result_lines, side_label, standing_text
from briscola_lan.tui.render_signals import signal_lines
from briscola_lan.tui.state import TableModel, UiState, level_word
from briscola_lan.tui.widgets import wrap_words


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
        nl(out)
        return out
    w = width or 36
    infos = sorted(model.seats, key=lambda s: s.seat)
    held_w = opts.hand_size if model.started and not model.hand_over else 0
    if opts.chiamata and compact:  # eight cards each: a short terminal's room goes to names
        held_w = 0
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
        if opts.chiamata and model.started:
            tags.extend(_five_tags(model, ui, info.seat))
        level = level_word(info.level) if info.is_ai else ""
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
        nl(out)
    if opts.players == 4 and not compact:
        out.append(("class:dim", _("Sides: A = seats 0+2, B = 1+3")))
        nl(out)
    if not model.seated:
        out.append(("class:error", _not_seated_text(model)))
        nl(out)
    return out


def players_lines(model: TableModel, ui: UiState, width: int, compact: bool) -> Frag:
    """The Players pane: the seats, the tricks and points, and on a short terminal the
    partners' signals (the Table pane has no row for them there)."""
    out = seat_lines(model, ui, width, compact)
    out.extend(score_lines(model, ui, width, compact))
    if compact:
        out.extend(signal_lines(model, ui, width, short=True))
    return out


def _five_tags(model: TableModel, ui: UiState, seat: int) -> list[str]:
    """A seat's tags at five players: its last bid during the auction, then its part in the
    hand as far as I know it (caller, partner)."""
    if model.in_auction:
        said = [b for s, b in model.auction if s == seat]
        return [chiamata.bid_text(said[-1], ui.deck)] if said else []
    role = chiamata.role_word(model, seat)
    return [role] if role else []


def _mine(model: TableModel, seat: int) -> bool:
    return model.seated and seat == model.my_seat


def _not_seated_text(model: TableModel) -> str:
    """What a network client without a seat is doing: connecting, or why it has no seat."""
    if model.connection == "connecting":
        return _("connecting...")
    if model.connection == "closed":
        return _("not connected")
    return _("You are not seated.")


def score_lines(
    model: TableModel,
    ui: UiState | None = None,
    width: int | None = None,
    compact: bool = False,
) -> Frag:
    """Tricks and points per side this hand, and the match standing."""
    out: Frag = []
    opts = model.options
    if not model.known or not model.seated:  # no hand of its own: no per-hand figures
        return out
    w = width or 36
    if opts.chiamata:
        if not compact:  # (a short terminal keeps the match scores' line only)
            out.extend(render_chiamata.score_rows(model, ui or UiState(), w))
        text = standing_text(model, len(standing_text(model)) > w)
        out.append(("class:dim", text))
        nl(out)
        return out
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
        nl(out)
    short = short or len(standing_text(model)) > w
    out.append(("class:dim", standing_text(model, short)))
    nl(out)
    return out


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
        nl(out)
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
        return wrap_words(result_lines(model, ui, own_verdict, compact), width)
    if (model.waiting or not model.started) and not held:
        out.append(("", model.waiting or _("Waiting for the hand to start...")))
        nl(out)
        if model.error:
            out.append(("class:error", model.error))
            nl(out)
        return wrap_words(out, width)
    if model.options.chiamata and model.in_auction and not held:
        out.extend(render_chiamata.auction_lines(model, ui, width, compact))
        for style, text in trust_lines(model, compact=compact):
            out.append((style, text))
            nl(out)
        if model.error:
            out.append(("class:error", model.error))
            nl(out)
        return wrap_words(out, width)
    if model.options.chiamata:
        out.extend(render_chiamata.contract_lines(model, ui, compact))
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
        nl(out)
    for style, text in trust_lines(model, compact=compact):
        out.append((style, text))
        nl(out)
    if model.players == 3:
        out.append(("class:dim", removed_two_text(model, ui)))
        nl(out)
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
        nl(out)
    if model.error:
        out.append(("class:error", model.error))
        nl(out)
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
    for row in boxes_row(boxes, " " if big else "  "):
        out.extend(row)
        nl(out)
    out.extend(numbers)
    nl(out)
    if model.partner_shown is not None:
        out.append(("class:partner", _("Your partner still holds:") + " "))
        for card in model.partner_shown:
            out.append(card_frag(card, ui, "class:bold"))
            out.append(("", " "))
        if not model.partner_shown:
            out.append(("class:dim", _("no cards") + " "))
        out.append(("class:dim", _("(hidden after your next play)")))
        nl(out)
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
        out.append(("", "  " if len(cards) <= 6 else " "))  # (eight cards at five players)
    nl(out)
    if model.partner_shown is not None:
        out.append(("class:partner", _("Your partner still holds:") + " "))
        out.append(("", cards_text(model.partner_shown, ui)))
        nl(out)
    return out


def _click_handler(
    on_click: Callable[[int, Card], None], index: int, card: Card
) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_click(index, card)

    return handler
