"""The shared pieces of the client's rendering into prompt_toolkit formatted text: cards (as labels
and as boxes), names fitted to a width, the rules label, the title bar and the log.

Each function takes state (and the width it may fill, when that matters) and returns
``StyleAndTextTuples``; the layout calls them through small callables so that every redraw reads
the current state. ASCII mode uses no Unicode at all. Every text goes through gettext (``_``)
and every card or suit name through ``tui.deck``. The screens are drawn by ``render_table``
(the table), ``render_result`` (a hand's end), ``render_signals`` and ``render_menus`` (lobby,
host form, help).
"""

from __future__ import annotations

import re

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.rules import Card, Rank, Suit
from briscola_lan.tui import deck as dk
from briscola_lan.tui.i18n import N_, _, ngettext
from briscola_lan.tui.state import TableModel, UiState
from briscola_lan.tui.widgets import wrap_words

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
    "no-double": N_("no-double"),
}


def rules_text(summary: str, deck: dk.Deck, ascii_only: bool = False) -> str:
    """A table's short rules label (``4p hands:2 exchange``, as ``TableOptions.summary`` and
    the TXT record write it) in the player's language; a word it does not know stays."""
    out = []
    for word in summary.split():
        if m := re.fullmatch(r"(\d)p", word):
            out.append(_("{n}p").format(n=m[1]))
        elif m := re.fullmatch(r"(hands|points|total|win):(\d+)", word):
            text = {
                "hands": _("hands:{n}"),
                "points": _("points:{n}"),
                "total": _("total:{n}"),  # 5 players: hands in the match
                "win": _("win:{n}"),  # 5 players: what a rank bid needs
            }[m[1]]
            out.append(text.format(n=m[2]))
        elif m := re.fullmatch(r"no-2([dhsc])", word):
            two = Card(Suit.parse(m[1]), Rank.TWO)
            out.append(_("no-{card}").format(card=dk.card_label(two, deck, ascii_only)))
        else:
            out.append(_(_RULE_WORDS[word]) if word in _RULE_WORDS else word)
    return " ".join(out)


def nl(out: Frag) -> None:
    """Ends a line."""
    out.append(("", "\n"))


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


def boxes_row(boxes: list[list[Frag]], gap: str = " ") -> list[Frag]:
    """Boxes side by side, row by row."""
    if not boxes:
        return []
    rows: list[Frag] = [[] for _ in boxes[0]]
    for box in boxes:
        for r, line in enumerate(box):
            rows[r].extend(line)
            rows[r].append(("", gap))
    return rows


def fit_name(name: str, width: int, ascii_only: bool = False) -> str:
    """``name`` whole if it fits in ``width``, else its start and its end around an ellipsis
    ("AI r…1"): two names that differ at the end ("AI rules 1", "AI rules 2") stay apart."""
    if len(name) <= width:
        return name
    if width <= 2:
        return name[:width]
    tail = min(3, (width - 1) // 2)
    return name[: width - 1 - tail] + ("~" if ascii_only else "…") + name[-tail:]


def log_lines(model: TableModel) -> Frag:
    """The whole log of the match (the window scrolls over it)."""
    out: Frag = []
    for i, line in enumerate(model.log):
        style = "class:error" if line.startswith("!") else ""
        out.append((style, line))
        if i < len(model.log) - 1:
            nl(out)
    return out


def log_title(ui: UiState) -> str:
    s = ui.log_scroll
    if not s.can_scroll:
        return _("Log")
    if s.offset:
        return ngettext(
            "Log (PgUp/PgDn, {n} newer line below)",
            "Log (PgUp/PgDn, {n} newer lines below)",
            s.offset,
        ).format(n=s.offset)
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
