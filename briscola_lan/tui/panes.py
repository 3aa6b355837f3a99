"""How the table screen divides the terminal: the Players pane's width, the height of the
Players and Table panes and of the hand, measured from what they show, so that nothing is cut.

The Table pane is as high as the largest it gets in the hand (every seat's card down, the
longest name winning, a completed trick's line, the briscola taken by the longest name), not as
high as it is at the moment: the panes stay put from one play to the next. At the end of a hand
the empty hand pane goes and the result takes its rows; while a hint or the choice of a signal
sits under the hand, the top panes give it the rows they keep for later. Large cards from 90x28
when they fit; the trick as card boxes when those fit too.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from briscola_lan.rules import Card, Rank, Suit
from briscola_lan.tui import render
from briscola_lan.tui.follow import Follow
from briscola_lan.tui.state import SignalNote, TableModel, UiState
from briscola_lan.tui.widgets import wrap_words

BIG_COLUMNS, BIG_ROWS = 90, 28  # from this terminal size on, cards are drawn large if they fit
COMPACT_ROWS = 22  # below this many rows, no spare row anywhere
LOG_MIN = 3  # the log pane at its smallest: one line in its frame


@dataclass(frozen=True, slots=True)
class Sizes:
    """How the table screen divides the terminal: fixed per terminal size and hand, so that
    the panes do not move from one play to the next."""

    players_width: int  # the Players pane, frame included
    top: int  # the Players and Table panes, frames included
    hand: int  # the hand pane, frame included (0: no hand pane, at the end of a hand)
    big: bool  # large cards in the hand
    compact: bool = False  # a short terminal: no spare rows (the sides line goes)
    boxes: bool = False  # the trick drawn as card boxes


def lines_of(frags: render.Frag, width: int) -> int:
    """Rows ``frags`` take once broken between words at ``width`` (a last newline adds none)."""
    text = "".join(f[1] for f in wrap_words(frags, width))
    return len(text.removesuffix("\n").split("\n")) if text else 0


def _longest_seat(model: TableModel) -> int:
    return max(range(model.players), key=lambda s: len(model.who(s)))


def _in_play_need(model: TableModel, ui: UiState, width: int, boxes: bool, compact: bool) -> int:
    """Rows of the Table pane at its largest during a hand (see the module's docstring)."""
    from briscola_lan.rules import TrickTaken  # (the rules' events: not for the lobby)
    from briscola_lan.tui import render_table

    n = model.players
    longest = _longest_seat(model)
    trump = model.trump or Suit.COINS
    best, low = Card(trump, Rank.ACE), Card(Suit((int(trump) + 1) % 4), Rank.FOUR)
    signals = _signals_probe(model)  # both partners' signals shown
    need = 0
    for taken_by in (None, longest):
        for winner in range(n):
            plays = tuple((s, best if s == winner else low) for s in range(n))
            for held in (False, True):
                probe = dataclasses.replace(
                    model, trick=() if held else plays, upcard_taken_by=taken_by,
                    stock_left=0 if taken_by is not None else 30, to_play=longest,
                    error=None, waiting=None, started=True, hand_over=False,
                    upcard=model.upcard or best, trump=trump, signals=signals,
                )  # fmt: skip
                look = dataclasses.replace(ui, follow=Follow())
                if held:
                    look.follow.held = TrickTaken(winner, plays, 120)
                rows = lines_of(render_table.table_lines(probe, look, width, big=boxes,
                                                   compact=compact), width)  # fmt: skip
                need = max(need, rows)
    # the trust line as while the stock lasts (a warning about the partner may go with it)
    with_stock = dataclasses.replace(model, stock_left=max(1, model.stock_left))
    trust = len(render_table.trust_lines(with_stock, compact=compact))
    now = len(render_table.trust_lines(model, compact=compact))
    return need + max(0, trust - now) + 1  # a line for an error (a refused key says why)


def _players_need(model: TableModel, ui: UiState, width: int, compact: bool) -> int:
    from briscola_lan.tui import render_table

    probe = dataclasses.replace(model, signals=_signals_probe(model))
    return lines_of(render_table.players_lines(probe, ui, width, compact), width)


def _signals_probe(model: TableModel) -> tuple[SignalNote, ...]:
    """Both partners' signals, the longest said (at a table that allows them; else none)."""
    from briscola_lan.rules.signals import SignalValue
    from briscola_lan.tui import render_signals

    if not (model.options.signals and model.players == 4):
        return ()
    me = model.my_seat
    value = max(SignalValue, key=lambda v: len(render_signals.signal_text(v)))
    return (SignalNote((me + 2) % 4, 10, value), SignalNote(me, 10, value))


def sizes(columns: int, rows: int, model: TableModel, ui: UiState | None = None) -> Sizes:
    """The table screen's panes for a terminal of ``columns`` x ``rows``."""
    from briscola_lan.tui import render_signals, render_table  # (a table's: not for the lobby)

    ui = ui or UiState()
    compact = rows < COMPACT_ROWS
    players_width = max(26, min(42, columns * 2 // 5))
    inner = max(10, columns - players_width - 2)
    players = _players_need(model, ui, players_width - 2, compact)
    room = rows - 2  # the title and key lines
    partner = 1 if model.partner_shown is not None else 0

    def hand_rows(big: bool) -> int:
        if model.hand_over and not model.hand:
            return 0  # nothing to show: the result takes the rows
        cards = 1 if compact or not model.hand else (5 if big else 3) + 1  # boxes and numbers
        return cards + 2 + partner

    in_hand = model.started and not model.hand_over and not model.waiting
    in_hand = in_hand or ui.follow.held is not None
    choices = [(True, True), (True, False), (False, False)]
    if columns < BIG_COLUMNS or rows < BIG_ROWS:
        choices = [(False, False)]
    for big, boxes in choices:
        if in_hand or (model.started and not model.hand_over and model.waiting):
            table = _in_play_need(model, ui, inner, boxes, compact)
        else:
            table = lines_of(render_table.table_lines(model, ui, inner, big=boxes, compact=compact),
                             inner)  # fmt: skip
        top = max(players, table) + 2
        hand = hand_rows(big)
        if top + hand + LOG_MIN <= room or (big, boxes) == choices[-1]:
            break
    if ui.signalling or ui.show_hint:
        # Under the hand, in the log's place, the player asked for a choice or a hint: the
        # top panes give it what they keep for later in the hand (they show what they show now).
        now = lines_of(
            render_table.table_lines(model, ui, inner, big=boxes, compact=compact), inner
        )
        pw = players_width - 2
        shown = lines_of(render_table.players_lines(model, ui, pw, compact), pw)
        choice = render_signals.signal_choice(columns - 2)
        aside = 2 + (lines_of(choice, columns - 2) if ui.signalling else 3)
        top = min(top, max(now, shown) + 2, room - hand - aside)
    top = max(3, min(top, room - hand - LOG_MIN))
    return Sizes(players_width, top, hand, big, compact, boxes)
