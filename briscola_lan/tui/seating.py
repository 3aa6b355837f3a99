"""The table drawn by position, as players sit: you at the bottom, your partner across, the
opponents at your sides; each seat's card of the trick at its place, with its whole name.

Seats are numbered clockwise (``seat + 1`` is a seat's left, ``rules/hand.py``), so seen from
the bottom of the screen the next seat sits on the left, the one after across, the last on the
right. Two sizes: a text compass (``K♠`` beside each name, three or four lines) and, on large
terminals, a compass of card boxes. Every line is laid out to the width given, so no card or
mark is ever broken from its name; only a name longer than the whole width wraps.
"""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.rules import Card
from briscola_lan.tui import deck as dk
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import TableModel, UiState
from briscola_lan.tui.widgets import wrap_words

Frag = StyleAndTextTuples

BOTTOM, LEFT, TOP, RIGHT = "bottom", "left", "top", "right"
TOP_LEFT, TOP_RIGHT = "top-left", "top-right"  # five players: two seats across

# Where each seat sits, by its distance clockwise from mine, for 2 to 5 players.
_PLACES: dict[int, tuple[str, ...]] = {
    2: (BOTTOM, TOP),
    3: (BOTTOM, LEFT, RIGHT),
    4: (BOTTOM, LEFT, TOP, RIGHT),
    5: (BOTTOM, LEFT, TOP_LEFT, TOP_RIGHT, RIGHT),
}


def place_of(seat: int, my_seat: int, players: int) -> str:
    """Where ``seat`` is drawn for the player in ``my_seat``: bottom, left, top or right (at
    five players top-left and top-right)."""
    return _PLACES[players][(seat - my_seat) % players]


def seats_by_place(model: TableModel) -> dict[str, int]:
    """The seat drawn at each place of the table (a player without a seat sees seat 0's)."""
    n = model.players
    me = model.my_seat if model.seated else 0
    return {place_of(s, me, n): s for s in range(n)}


@dataclass(frozen=True, slots=True)
class SeatCell:
    """One seat as the trick shows it: its name, its card (if played) and its marks."""

    seat: int
    name: str
    card: Card | None
    winner: bool
    partner: bool
    mine: bool


def cells(
    model: TableModel, plays: tuple[tuple[int, Card], ...], winner: int | None
) -> list[tuple[str, SeatCell]]:
    """(place, cell) for every seat, in the order bottom, left, top, right."""
    played = dict(plays)
    opts = model.options
    out = []
    callers = model.callers
    for place, seat in sorted(seats_by_place(model).items(), key=lambda kv: _ORDER[kv[0]]):
        mine = model.seated and seat == model.my_seat
        partner = (
            opts.players == 4
            and model.seated
            and not mine
            and opts.side_of(seat) == opts.side_of(model.my_seat)
        ) or (  # five players: the caller and its partner, once I know we are together
            opts.chiamata and model.seated and not mine and seat in callers
            and model.my_seat in callers
        )  # fmt: skip
        out.append((place, SeatCell(seat, model.who(seat), played.get(seat), seat == winner,
                                    partner, mine)))  # fmt: skip
    return out


_ORDER = {BOTTOM: 0, LEFT: 1, TOP_LEFT: 2, TOP: 3, TOP_RIGHT: 4, RIGHT: 5}


def _mark(cell: SeatCell, done: bool, a: bool) -> str:
    if not cell.winner:
        return ""
    return ("< " if a else "◀ ") + (_("takes it") if done else _("winning"))


def _name_frags(cell: SeatCell) -> Frag:
    style = "class:me" if cell.mine else ("class:partner" if cell.partner else "")
    out: Frag = [(style, cell.name)]
    if cell.partner:
        out.append(("class:partner", " (" + _("partner") + ")"))
    return out


def _card_frags(cell: SeatCell, ui: UiState, done: bool) -> Frag:
    a = ui.ascii_only
    if cell.card is None:
        return [("class:dim", "." if a else "·")]
    style = f"{dk.SUIT_STYLE[cell.card.suit]} class:bold"
    if cell.winner:
        style += " class:card.win"
    out: Frag = [(style, dk.card_label(cell.card, ui.deck, a))]
    mark = _mark(cell, done, a)
    if mark:
        out.append(("class:good", " " + mark))
    return out


def _width(frags: Frag) -> int:
    return sum(len(f[1]) for f in frags)


def _line(out: Frag, frags: Frag, width: int, align: str) -> None:
    """``frags`` on a line of its own, placed left, centred or right in ``width``."""
    w = _width(frags)
    pad = 0 if align == "left" else (width - w if align == "right" else (width - w) // 2)
    if pad > 0:
        out.append(("", " " * pad))
    out.extend(frags)
    out.append(("", "\n"))


def text_compass(
    model: TableModel,
    ui: UiState,
    plays: tuple[tuple[int, Card], ...],
    winner: int | None,
    *,
    done: bool,
    width: int | None,
) -> Frag:
    """The trick by position in lines of text: ``Bea  K♠ ◀ winning`` at each seat's place."""
    w = width or 40
    out: Frag = []
    placed = dict(cells(model, plays, winner))

    def cell(c: SeatCell) -> Frag:
        return [*_name_frags(c), ("", "  "), *_card_frags(c, ui, done)]

    def single(c: SeatCell, align: str) -> None:
        frags = cell(c)
        if _width(frags) <= w:
            _line(out, frags, w, align)
            return
        # a name too long for the line: the name (wrapped if need be), then its card
        for part in wrap_words(_name_frags(c), w), _card_frags(c, ui, done):
            for line in _split(part):
                _line(out, line, w, align)

    def pair(left: SeatCell | None, right: SeatCell | None) -> None:
        if left is None or right is None:
            return
        lf, rf = cell(left), cell(right)
        gap = w - _width(lf) - _width(rf)
        if gap >= 2:
            out.extend(lf)
            out.append(("", " " * gap))
            out.extend(rf)
            out.append(("", "\n"))
        else:
            single(left, "left")
            single(right, "right")

    if TOP in placed:
        single(placed[TOP], "centre")
    pair(placed.get(TOP_LEFT), placed.get(TOP_RIGHT))
    pair(placed.get(LEFT), placed.get(RIGHT))
    if BOTTOM in placed:
        single(placed[BOTTOM], "centre")
    return out


def _split(frags: Frag) -> list[Frag]:
    lines: list[Frag] = [[]]
    for f in frags:
        for i, part in enumerate(f[1].split("\n")):
            if i:
                lines.append([])
            if part:
                lines[-1].append((f[0], part))
    return [line for line in lines if line]


# --- the compass of card boxes ----------------------------------------------------------------


class Canvas:
    """A grid of styled characters that rows of fragments are written into, then read out."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.rows: list[list[tuple[str, str]]] = []

    def put(self, row: int, col: int, frags: Frag) -> None:
        while len(self.rows) <= row:
            self.rows.append([("", " ")] * self.width)
        line = self.rows[row]
        for f in frags:
            for ch in f[1]:
                if 0 <= col < self.width:
                    line[col] = (f[0], ch)
                col += 1

    def frags(self) -> Frag:
        out: Frag = []
        for row in self.rows:
            end = len(row)
            while end and row[end - 1] == ("", " "):
                end -= 1
            for style, ch in row[:end]:
                if out and out[-1][0] == style and out[-1][1] != "\n":
                    out[-1] = (style, out[-1][1] + ch)
                else:
                    out.append((style, ch))
            out.append(("", "\n"))
        return out


BOX_WIDTH, BOX_HEIGHT = 6, 3


def _box(cell: SeatCell, ui: UiState) -> list[Frag]:
    a = ui.ascii_only
    tl, tr, bl, br, h, v = ("+", "+", "+", "+", "-", "|") if a else ("┌", "┐", "└", "┘", "─", "│")
    style = (
        "class:card.win" if cell.winner else ("class:dim" if cell.card is None else "class:card")
    )
    if cell.card is None:
        middle: Frag = [(style, v + "    " + v)]
    else:
        face = f"{style} {dk.SUIT_STYLE[cell.card.suit]} class:bold"
        label = dk.card_label(cell.card, ui.deck, a)
        middle = [(style, v + " "), (face, f"{label:<3}"), (style, v)]
    return [[(style, tl + h * 4 + tr)], middle, [(style, bl + h * 4 + br)]]


def box_compass(
    model: TableModel,
    ui: UiState,
    plays: tuple[tuple[int, Card], ...],
    winner: int | None,
    *,
    done: bool,
    width: int | None,
) -> Frag:
    """The trick by position as card boxes: the top and bottom seats' in the middle column, the
    side seats' at the edges, each name beside its card (wrapped within its side, never cut)."""
    w = max(width or 52, 3 * BOX_WIDTH + 4)
    placed = dict(cells(model, plays, winner))
    canvas = Canvas(w)
    cx = (w - BOX_WIDTH) // 2
    top = TOP in placed or TOP_LEFT in placed
    sides = LEFT in placed
    side_row = 2 if top else 0  # the side boxes start here
    bottom_row = (4 if top else 2) if sides else 4

    def label(c: SeatCell) -> Frag:
        frags = _name_frags(c)
        mark = _mark(c, done, ui.ascii_only)
        if mark:
            frags.append(("class:good", " " + mark))
        return frags

    def box_at(row: int, col: int, c: SeatCell) -> None:
        for i, line in enumerate(_box(c, ui)):
            canvas.put(row + i, col, line)

    def lines_in(c: SeatCell, room: int) -> list[Frag]:
        return _split(wrap_words(label(c), max(4, room)))

    if TOP_LEFT in placed:  # five players: two seats across, names above their boxes
        tl, tr = placed[TOP_LEFT], placed[TOP_RIGHT]
        tlx, trx = max(0, cx - 5), min(w - BOX_WIDTH, cx + 5)
        half = max(4, cx)
        left_lines, right_lines = lines_in(tl, half), lines_in(tr, w - half)
        extra = max(0, len(left_lines) - 1, len(right_lines) - 1)
        for i, line in enumerate(left_lines):  # ending where its card ends
            canvas.put(i + extra + 1 - len(left_lines), max(0, tlx + BOX_WIDTH - _width(line)),
                       line)  # fmt: skip
        for i, line in enumerate(right_lines):
            canvas.put(i + extra + 1 - len(right_lines), min(trx, w - _width(line)), line)
        side_row += extra
        bottom_row += extra
        box_at(1 + extra, tlx, tl)
        box_at(1 + extra, trx, tr)
    elif top:
        for i, line in enumerate(lines_in(placed[TOP], w)):  # above its box (one line, or more)
            canvas.put(i, max(0, (w - _width(line)) // 2), line)
        extra = max(0, len(lines_in(placed[TOP], w)) - 1)
        side_row += extra
        bottom_row += extra
        box_at(1 + extra, cx, placed[TOP])
    room = cx - 1  # a side seat's name stays clear of the middle column
    free = list(range(side_row + BOX_HEIGHT, side_row + BOX_HEIGHT + 2))
    free += list(range(bottom_row + BOX_HEIGHT + 1, bottom_row + BOX_HEIGHT + 10))
    if sides:
        gap = 6  # between a side card and the middle column, when the table is wide enough
        lx = max(0, cx - BOX_WIDTH - gap)
        rx = min(w - BOX_WIDTH, cx + BOX_WIDTH + gap)
        box_at(side_row, lx, placed[LEFT])
        box_at(side_row, rx, placed[RIGHT])
        for row, line in zip(free, lines_in(placed[LEFT], room), strict=False):
            # under its card, ending where the card ends (or from the edge, when longer)
            canvas.put(row, max(0, lx + BOX_WIDTH - _width(line)), line)
        for row, line in zip(free, lines_in(placed[RIGHT], room), strict=False):
            canvas.put(row, min(rx, w - _width(line)), line)
    box_at(bottom_row, cx, placed[BOTTOM])
    for i, line in enumerate(lines_in(placed[BOTTOM], w)):
        canvas.put(bottom_row + BOX_HEIGHT + i, max(0, (w - _width(line)) // 2), line)
    return canvas.frags()


def compass_rows(model: TableModel, big: bool) -> int:
    """Lines the trick takes by position (at its usual width: names that fit beside their card)."""
    n = model.players
    if big:
        return {2: 8, 3: 6, 4: 8, 5: 8}[n]
    return {2: 2, 3: 2, 4: 3, 5: 3}[n]
