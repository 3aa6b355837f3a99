"""Pure rendering of the client's state into prompt_toolkit formatted text, screen by screen.

Each function takes state and returns ``StyleAndTextTuples``; the layout calls them through small
callables so that every redraw reads the current state. ASCII mode uses no Unicode at all.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType

from briscola_lan.rules import Card, MatchFormat, Rank, Suit
from briscola_lan.tui.state import HostForm, TableModel, UiState

SUIT_STYLE = {
    Suit.COINS: "class:suit.coins",
    Suit.CUPS: "class:suit.cups",
    Suit.SWORDS: "class:suit.swords",
    Suit.CLUBS: "class:suit.clubs",
}
SUIT_NAME = {Suit.COINS: "coins", Suit.CUPS: "cups", Suit.SWORDS: "swords", Suit.CLUBS: "clubs"}

Frag = StyleAndTextTuples


def card_label(card: Card, ascii_only: bool) -> str:
    """``A♥`` or, in ASCII mode, ``Ah``."""
    return card.label(ascii_only=ascii_only)


def card_frag(card: Card, ascii_only: bool, extra: str = "") -> tuple[str, str]:
    style = SUIT_STYLE[card.suit] + (" " + extra if extra else "")
    return (style, card_label(card, ascii_only))


def suit_text(suit: Suit, ascii_only: bool) -> str:
    return f"{SUIT_NAME[suit]}" if ascii_only else f"{suit.symbol} {SUIT_NAME[suit]}"


def _nl(out: Frag) -> None:
    out.append(("", "\n"))


# --- table -------------------------------------------------------------------------------------


def seat_lines(model: TableModel, ascii_only: bool) -> Frag:
    """The players box: seats, partnerships, turn marker, presence."""
    out: Frag = []
    opts = model.options
    arrow = ">" if ascii_only else "▶"
    if not model.known:
        out.append(("class:dim", _not_seated_text(model)))
        _nl(out)
        return out
    for info in sorted(model.seats, key=lambda s: s.seat):
        turn = model.started and not model.hand_over and model.to_play == info.seat
        mark = arrow if turn else " "
        mine = model.seated and info.seat == model.my_seat
        name = info.name + (" (you)" if mine else "")
        style = "class:me" if mine else ""
        if turn:
            style += " class:turn"
        out.append(("class:turn" if turn else "", f"{mark}"))
        out.append((style, f"{info.seat} {name[:16]:<16}"))
        tags = []
        if opts.players == 4:
            tags.append("AB"[opts.side_of(info.seat)])
        if info.is_ai:
            tags.append(info.level or "AI")
        if not info.occupied:
            tags.append("open")
        elif not info.connected:
            tags.append("away")
        if model.started and model.dealer == info.seat:
            tags.append("D")
        out.append(("class:dim", " " + " ".join(tags)))
        _nl(out)
    if opts.players == 4:
        out.append(("class:dim", "Sides: A = seats 0+2, B = 1+3"))
        _nl(out)
    if not model.seated:
        out.append(("class:error", _not_seated_text(model)))
        _nl(out)
    return out


def _not_seated_text(model: TableModel) -> str:
    """What a network client without a seat is doing: connecting, or why it has no seat."""
    if model.connection == "connecting":
        return "connecting..."
    if model.connection == "closed":
        return "not connected"
    return "You are not seated."


def _side_label(model: TableModel, side: int) -> str:
    if model.options.players == 4 and not model.seated:
        return "AB"[side]
    if model.options.players == 4:
        us = model.options.side_of(model.my_seat) == side
        return f"{'AB'[side]} ({'us' if us else 'them'})"
    return model.who(side)


def score_lines(model: TableModel) -> Frag:
    """Tricks and points per side this hand, and the match standing."""
    out: Frag = []
    opts = model.options
    if not model.known or not model.seated:  # no hand of its own: no per-hand figures
        return out
    for side in range(opts.sides):
        tricks = model.tricks_won[side] if side < len(model.tricks_won) else 0
        pts = model.points[side] if side < len(model.points) else 0
        label = _side_label(model, side)
        out.append(("", f"{label[:12]:<12} tricks {tricks:>2} pts {pts:>3}"))
        _nl(out)
    out.append(("class:dim", standing_text(model)))
    _nl(out)
    return out


def standing_text(model: TableModel) -> str:
    opts = model.options
    sides = range(opts.sides)
    if opts.match_format is MatchFormat.HANDS:
        won = model.hands_won or (0,) * opts.sides
        score = "-".join(str(won[s]) for s in sides)
        return f"Hands won {score} (first to {opts.hands_to_win})"
    tot = model.total_points or (0,) * opts.sides
    score = "-".join(str(tot[s]) for s in sides)
    return f"Match points {score} ({opts.base_hands} hands)"


def wrap_words(frags: Frag, width: int | None) -> Frag:
    """Styled text with every line longer than ``width`` broken between words (a word longer
    than the width is cut); unchanged when the width is unknown."""
    if not width or width < 10:
        return frags
    lines: list[list[tuple[str, str]]] = [[]]
    for frag in frags:
        style, text = frag[0], frag[1]
        for i, part in enumerate(text.split("\n")):
            if i:
                lines.append([])
            if part:
                lines[-1].append((style, part))
    out: Frag = []
    for n, line in enumerate(lines):
        if n:
            _nl(out)
        col = 0
        for style, text in line:
            for word in re.findall(r"\S+|\s+", text):
                if word.isspace():
                    if col + len(word) > width:  # a break replaces the spaces
                        _nl(out)
                        col = 0
                    else:
                        out.append((style, word))
                        col += len(word)
                    continue
                rest = word
                while col + len(rest) > width:
                    if col == 0:  # longer than a whole line: cut it
                        out.append((style, rest[:width]))
                        rest = rest[width:]
                    _nl(out)
                    col = 0
                if rest:
                    out.append((style, rest))
                    col += len(rest)
    return out


def table_lines(
    model: TableModel, ui: UiState, width: int | None = None, own_verdict: str | None = None
) -> Frag:
    """The centre of the table: briscola, stock, trick, last trick, whose turn, or the result.

    ``width`` (the panel's columns, once known) breaks long lines between words;
    ``own_verdict`` is what my own record says when the host blamed my seat for the hand."""
    a = ui.ascii_only
    out: Frag = []
    if model.hand_over and model.last_result is not None:
        return wrap_words(result_lines(model, ui, own_verdict), width)
    if model.waiting or not model.started:
        out.append(("", model.waiting or "Waiting for the hand to start..."))
        _nl(out)
        if model.error:
            out.append(("class:error", model.error))
            _nl(out)
        return wrap_words(out, width)
    if model.trump is not None and model.upcard is not None:
        out.append(("", "Briscola: "))
        if model.upcard_taken_by is None:
            out.append(card_frag(model.upcard, a, "class:bold"))
            out.append(("", f"  trump {suit_text(model.trump, a)}"))
        else:
            out.append((SUIT_STYLE[model.trump], suit_text(model.trump, a)))
            out.append(("class:dim", f"  ({card_label(model.upcard, a)} taken)"))
        out.append(("", f"   Stock: {model.stock_left}"))
        _nl(out)
    names = {seat: model.who(seat)[:12] for seat in range(model.players)}
    width = max(len(n) for n in names.values()) if names else 4
    if model.trick:
        for i, (seat, card) in enumerate(model.trick):
            out.append(("", "Trick:  " if i == 0 else "        "))
            out.append(("", f"{names[seat]:<{width}}  "))
            out.append(card_frag(card, a, "class:bold"))
            _nl(out)
    else:
        out.append(("", "Trick:  "))
        out.append(("class:dim", "new trick, " + ("you lead" if model.my_turn else "empty")))
        _nl(out)
    if model.last_trick is not None:
        lt = model.last_trick
        out.append(("class:dim", f"Last:   {names[lt.winner]} took +{lt.points} ("))
        for i, (_, card) in enumerate(lt.plays):
            out.append(card_frag(card, a))
            if i < len(lt.plays) - 1:
                out.append(("class:dim", " "))
        out.append(("class:dim", ")"))
        _nl(out)
    if model.connection == "reconnecting":
        out.append(("class:error", "Connection lost: reconnecting, play resumes by itself..."))
    elif model.my_turn:
        out.append(("class:turn", "Your turn: choose a card, Enter plays it"))
    elif model.to_play is not None:
        out.append(("", f"Waiting for {model.who(model.to_play)}..."))
    _nl(out)
    if model.error:
        out.append(("class:error", model.error))
        _nl(out)
    return out


def result_lines(model: TableModel, ui: UiState, own_verdict: str | None = None) -> Frag:
    """End of a hand: points per side, hand result, standing and the deal verification (with
    ``own_verdict`` in its place when the host blamed my seat: my record's word on it)."""
    res = model.last_result
    assert res is not None
    out: Frag = []
    tb = " (tie-break)" if res.tiebreak else ""
    out.append(("class:bold", f"Hand {res.number + 1}{tb} over."))
    _nl(out)
    for side, pts in enumerate(res.points):
        out.append(("", f"  {_side_label(model, side)[:16]:<16} {pts:>3} points"))
        _nl(out)
    if not res.points:
        out.append(("class:bad", "The hand was aborted."))
    elif res.winner is None:
        out.append(("class:bold", "Nobody wins the hand (a tie)."))
    elif model.options.side_of(model.my_seat) == res.winner:
        out.append(("class:good", "You win the hand!" if model.players != 4 else "Your side wins!"))
    else:
        verb = "win" if model.players == 4 else "wins"
        out.append(("class:bad", f"{model.side_name(res.winner)} {verb} the hand."))
    _nl(out)
    out.append(("", standing_text(model)))
    _nl(out)
    v = res.verification
    if v is None:
        out.append(("class:dim", "Deal check: waiting for the reveals..."))
    elif v.ok is None:
        out.append(("class:dim", "Deal check: "))
        out.append(("", v.summary))
    elif v.ok:
        out.append(("class:good", "Deal verified"))
    else:
        out.append(("class:bad", "Deal check FAILED: "))
        out.append(("", own_verdict or v.summary))
    out.append(("class:dim", "  [v] details"))
    _nl(out)
    if model.match_over and model.match_winner is not None:
        win = model.options.side_of(model.my_seat) == model.match_winner
        out.append(
            (
                "class:good" if win else "class:bad",
                "MATCH WON!" if win else f"Match won by {model.side_name(model.match_winner)}.",
            )
        )
        out.append(("", "  Press Esc for the lobby."))
    elif model.match_over:
        out.append(("class:bad", "The match is over, with no winner (aborted)."))
        out.append(("", "  Esc: lobby"))
    else:
        out.append(("class:turn", "Press n for the next hand."))
    _nl(out)
    return out


def hand_lines(
    model: TableModel, ui: UiState, on_click: Callable[[int], None] | None = None
) -> Frag:
    """My cards as small boxes with their numbers; the selected one is highlighted."""
    a = ui.ascii_only
    cards = model.hand
    if not cards:
        return [("class:dim", "(no cards)")]
    tl, tr, bl, br, h, v = ("+", "+", "+", "+", "-", "|") if a else ("┌", "┐", "└", "┘", "─", "│")
    rows: list[Frag] = [[], [], [], []]
    for i, card in enumerate(cards):
        sel = i == ui.card_index and model.my_turn
        box = "class:card.selected" if sel else "class:card"
        handler = _click_handler(on_click, i) if on_click is not None else None

        def add(row: int, style: str, text: str, handler: object = handler) -> None:
            if handler is None:
                rows[row].append((style, text))
            else:
                rows[row].append((style, text, handler))  # type: ignore[arg-type]

        label = card_label(card, a)
        add(0, box, tl + h * 4 + tr)
        add(1, box, v + " ")
        add(1, box + " " + SUIT_STYLE[card.suit] + " class:bold", f"{label:<3}")
        add(1, box, v)
        add(2, box, bl + h * 4 + br)
        num = f"[{i + 1}]" if sel else f" {i + 1} "
        add(3, "class:turn" if sel else "class:dim", f"  {num} ")
        for r in rows:
            r.append(("", " "))
    out: Frag = []
    for r in rows:
        out.extend(r)
        _nl(out)
    if model.partner_shown is not None:
        out.append(("class:partner", "Your partner still holds: "))
        for card in model.partner_shown:
            out.append(card_frag(card, a, "class:bold"))
            out.append(("", " "))
        if not model.partner_shown:
            out.append(("class:dim", "no cards "))
        out.append(("class:dim", "(hidden after your next play)"))
        _nl(out)
    return out


def _click_handler(on_click: Callable[[int], None], index: int) -> Callable[[MouseEvent], None]:
    def handler(event: MouseEvent) -> None:
        if event.event_type == MouseEventType.MOUSE_UP:
            on_click(index)

    return handler


def log_lines(model: TableModel, height: int = 200) -> Frag:
    out: Frag = []
    lines = model.log[-height:]
    for i, line in enumerate(lines):
        style = "class:error" if line.startswith("!") else ""
        out.append((style, line))
        if i < len(lines) - 1:
            _nl(out)
    return out


def title_text(model: TableModel, ui: UiState) -> Frag:
    conn = {
        "local": "offline",
        "connected": "connected",
        "reconnecting": "RECONNECTING...",
        "closed": "disconnected",
        "connecting": "connecting...",
    }.get(model.connection, model.connection)
    if model.connection == "connected" and not model.seated:
        conn = "not seated"
    hand = f"Hand {model.hand_number + 1}" if model.started else "Waiting"
    sep = " - " if ui.ascii_only else " · "
    style = "class:title" + (" class:error" if model.connection == "reconnecting" else "")
    facts = f"{model.options.summary()}{sep}" if model.known else ""
    if model.known and model.deal:
        facts += f"{model.deal} deal{sep}"
    if model.known and model.seated:
        facts += f"{hand}{sep}"
    return [
        (style, f" Briscola LAN{sep}{model.title}{sep}{facts}"),
        (style + (" class:blink" if model.connection == "reconnecting" else ""), conn),
    ]


# --- lobby, form, help ---------------------------------------------------------------------------


def lobby_lines(ui: UiState) -> Frag:
    out: Frag = []
    if not ui.lobby:
        out.append(("class:dim", "No tables found yet. They appear here as they are announced."))
        _nl(out)
        return out
    out.append(("class:dim", f"  {'TABLE':<20} {'HOST':<14} {'RULES':<18} {'DEAL':<7} SEATS"))
    _nl(out)
    for i, entry in enumerate(ui.lobby):
        sel = i == ui.lobby_index
        style = "class:selected" if sel else ""
        mark = ">" if sel else " "
        full = " FULL" if entry.open_seats <= 0 else ""
        if entry.phase not in ("", "lobby"):
            full = " playing" if entry.phase != "over" else " over"
        out.append(
            (
                style,
                f"{mark} {entry.name[:20]:<20} {entry.host[:14]:<14} {entry.summary[:18]:<18} "
                f"{(entry.deal or 'classic')[:7]:<7} {entry.seated}/{entry.players}{full}",
            )
        )
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
    if form.players == 3:
        rows.append("two")
    if form.players == 4:
        rows.append("drawp")
    rows.append("drawd")
    rows.extend(f"seat{i}" for i in range(1, form.players))
    rows.append("deal")
    rows.append("start")
    return rows


def form_lines(form: HostForm, ascii_only: bool) -> Frag:
    out: Frag = []
    rows = form_rows(form)
    form.row = min(form.row, len(rows) - 1)
    lt, gt = "<", ">"
    for i, row in enumerate(rows):
        sel = i == form.row
        style = "class:selected" if sel else ""
        if row == "name":
            label, value = "Table name", form.table_name + ("_" if sel else "")
        elif row == "players":
            label, value = "Players", f"{lt} {form.players} {gt}"
        elif row == "format":
            value = (
                "hands: first to N hands (61+ wins a hand)"
                if form.match_format is MatchFormat.HANDS
                else "points: 2 hands, most points wins"
            )
            label, value = "Match format", f"{lt} {value} {gt}"
        elif row == "hands":
            label, value = "Hands to win", f"{lt} {form.hands_to_win} {gt}"
        elif row == "exchange":
            label, value = (
                "Partner exchange",
                f"{lt} {'on' if form.partner_exchange else 'off'} {gt}",
            )
        elif row == "two":
            two = Card(form.removed_two, Rank.TWO).label(ascii_only)
            label, value = "2 removed (39 cards)", f"{lt} {two} {gt}"
        elif row == "drawp":
            label, value = "Draw partners", f"{lt} {'on' if form.draw_partners else 'off'} {gt}"
        elif row == "drawd":
            label, value = "Draw first dealer", f"{lt} {'on' if form.draw_dealer else 'off'} {gt}"
        elif row == "deal":
            mode = form.deal_mode()
            text = (
                "blind: nobody sees a card before it is shown"
                if mode == "blind"
                else "classic: the host's engine knows the deck"
            )
            label, value = "Deal", f"{lt} {text} {gt}"
        elif row.startswith("seat"):
            idx = int(row[4:])
            filler = form.fillers[idx - 1]
            text = "open for a person" if filler == "open" else f"AI ({filler})"
            label, value = f"Seat {idx}", f"{lt} {text} {gt}"
        else:
            label, value = "", "[ Start the table ]"
        mark = ">" if sel else " "
        out.append((style, f"{mark} {label:<22} {value}"))
        _nl(out)
    if form.players == 3:
        out.append(
            ("class:dim", "  3 players play the 'points' format: 3 hands, most points wins.")
        )
        _nl(out)
    if form.error:
        out.append(("class:error", form.error))
        _nl(out)
    return out


HELP_TABLE = [
    ("Left/Right", "choose a card"),
    ("1-9", "choose card by number"),
    ("Enter", "play the chosen card"),
    ("mouse click", "play that card"),
    ("l", "show/hide the last trick"),
    ("n", "next hand (after a hand)"),
    ("f", "seat AI in the open seats"),
    ("v", "deal verification details"),
    ("?", "this help"),
    ("Esc", "close a panel / leave"),
    ("q", "quit (asks first mid-match)"),
]
HELP_LOBBY = [
    ("Up/Down", "choose a table"),
    ("Enter", "join the chosen table"),
    ("a", "play against AI now"),
    ("h", "host a table"),
    ("l", "learn: four example tricks"),
    ("s", "saved games"),
    ("q", "quit"),
]


def help_lines(ui: UiState) -> Frag:
    out: Frag = []
    out.append(("class:bold", "Table keys"))
    _nl(out)
    for key, what in HELP_TABLE:
        out.append(("", f"  {key:<12} {what}"))
        _nl(out)
    out.append(("class:bold", "Lobby keys"))
    _nl(out)
    for key, what in HELP_LOBBY:
        out.append(("", f"  {key:<12} {what}"))
        _nl(out)
    out.append(("class:dim", "Press Esc or ? to close."))
    return out
