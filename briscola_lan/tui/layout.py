"""The client's screens: the container tree of lobby, host form, table, learn mode and saved
games, the panels on top of them (help, last trick, hint, review, verification, quit), and the
small callables through which every window reads the app's state at each redraw.

``AppLayout`` is mixed into ``ClientApp``, which holds that state (``ui``, ``model``, the table
backend); nothing here changes it. The table's panes take their sizes from the terminal
(``panes.sizes``, measured from what they show): larger cards at 100x30, the same divider
from one play to the next.
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.layout import (
    ConditionalContainer,
    Float,
    FloatContainer,
    Layout,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension as D

from briscola_lan.net.files import games_dir
from briscola_lan.tui import panes, render, render_menus
from briscola_lan.tui.i18n import _, ngettext
from briscola_lan.tui.split import HSplit, VSplit
from briscola_lan.tui.state import Screen, TableModel, UiState
from briscola_lan.tui.widgets import ScrollControl, WrapControl

if TYPE_CHECKING:  # loaded when first used (a hint, a table, learn mode): not for the lobby
    from types import ModuleType

    from prompt_toolkit.application import Application

    from briscola_lan.tui.backend import TableBackend
    from briscola_lan.tui.coach import Coach
    from briscola_lan.tui.config import ClientConfig
    from briscola_lan.tui.saved import SavedList
    from briscola_lan.tui.statsview import StatsView


def _learn() -> ModuleType:
    """Learn mode's pages (``tui/learn.py``), loaded when the player first opens them."""
    from briscola_lan.tui import learn

    return learn


def _box(title: Callable[[], str] | str, body: AnyContainer, ascii_only: bool, **kw: Any) -> HSplit:
    """A titled frame drawn with box characters, or plain ASCII ones in ASCII mode."""
    h, v, tl, tr, bl, br = ("-", "|", "+", "+", "+", "+") if ascii_only else "─│┌┐└┘"

    def title_frag() -> StyleAndTextTuples:
        t = title() if callable(title) else title
        return [("class:frame.title", f" {t} ")]

    top = VSplit(
        [
            Window(width=1, height=1, char=tl, style="class:frame"),
            Window(width=1, height=1, char=h, style="class:frame"),
            Window(FormattedTextControl(title_frag), height=1, dont_extend_width=True),
            Window(height=1, char=h, style="class:frame"),
            Window(width=1, height=1, char=tr, style="class:frame"),
        ],
        height=1,
    )
    middle = VSplit(
        [
            Window(width=1, char=v, style="class:frame"),
            body,
            Window(width=1, char=v, style="class:frame"),
        ]
    )
    bottom = VSplit(
        [
            Window(width=1, height=1, char=bl, style="class:frame"),
            Window(height=1, char=h, style="class:frame"),
            Window(width=1, height=1, char=br, style="class:frame"),
        ],
        height=1,
    )
    return HSplit([top, middle, bottom], **kw)


def fit_keys(text: str, width: int) -> str:
    """A key-hint line cut to ``width`` between its items (two spaces apart), never in one.

    Items go from the right, the last one (quit, back) and ``?`` (the keys) kept to the end:
    every key dropped from the line is one ``?`` lists."""
    if len(text) <= width:
        return text
    items = text.split("  ")
    pinned = {len(items) - 1} | {i for i, item in enumerate(items) if item.startswith("?")}
    while len("  ".join(items)) > width:
        droppable = [i for i in range(len(items)) if i not in pinned]
        if not droppable:
            break
        drop = droppable[-1]
        del items[drop]
        pinned = {i - 1 if i > drop else i for i in pinned}
    return "  ".join(items)[:width]


def _signal_choice(width: int) -> StyleAndTextTuples:
    """The signals to choose from (``render_signals``, loaded with the first table shown)."""
    from briscola_lan.tui import render_signals

    return render_signals.signal_choice(width)


def _wrapped(fn: Callable[[int], StyleAndTextTuples], **kw: Any) -> Window:
    """A window whose text is broken between words at its own width."""
    return Window(WrapControl(fn), **kw)


class AppLayout:
    """The layout of ``ClientApp`` and the text callables it reads (a mixin: the app holds the
    state named below and builds its ``Application`` from ``_layout()``)."""

    config: ClientConfig
    ui: UiState
    model: TableModel
    backend: TableBackend | None
    app: Application[int]
    saved_games: SavedList | None
    stats_view: StatsView | None
    _log_control: ScrollControl
    _table_window: Window
    _sizes_cache: tuple[object, panes.Sizes] | None = None

    @property
    @abstractmethod
    def coach(self) -> Coach:
        """The hint and review coach of the table on the screen."""

    @abstractmethod
    def click_card(self, index: int, card: Any = None) -> None:
        """A click on the card at ``index`` of the shown hand plays it (if ``card`` is still
        the card there)."""

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def _sizes(self) -> panes.Sizes:
        """The table's panes for this redraw (measured once per redraw and terminal size)."""
        key = (self.app.render_counter, self._size(), id(self.model), self.model.changes)
        cached = self._sizes_cache
        if cached is not None and cached[0] == key:
            return cached[1]
        sizes = panes.sizes(*self._size(), self.model, self.ui)
        self._sizes_cache = (key, sizes)
        return sizes

    def _layout(self) -> Layout:
        a = self.config.ascii_only
        ui = self.ui

        def on(screen: Screen) -> Condition:
            return Condition(lambda: self.ui.screen is screen)

        title_bar = Window(WrapControl(self._title), height=1, style="class:title")
        hint_bar = _wrapped(self._hints, height=1)

        lobby = HSplit(
            [
                _box(
                    lambda: _("Tables on the network"),
                    _wrapped(lambda w: render_menus.lobby_lines(self.ui, w)),
                    a,
                    height=D(min=4, weight=1),
                ),
                _wrapped(
                    lambda w: [("", self.ui.lobby_status)],
                    height=D(min=1, max=4),
                    dont_extend_height=True,
                ),
                _box(
                    lambda: _("Menu"),
                    _wrapped(self._lobby_menu),
                    a,
                    height=lambda: D.exact(8 if self.ui.kept else 7),
                ),
            ]
        )
        form = _box(
            lambda: _("Host a table"),
            _wrapped(lambda w: render_menus.form_lines(ui.form, ui, w)),
            a,
        )
        self._log_control = ScrollControl(
            lambda w: render.log_lines(self.model),
            ui.log_scroll,
            more=lambda up: render.more_text(up, a),
        )
        self._table_window = Window(
            WrapControl(self._table_text),
        )
        table = HSplit(
            [
                VSplit(
                    [
                        _box(
                            lambda: _("Players"),
                            _wrapped(self._players_text),
                            a,
                            width=lambda: D.exact(self._sizes().players_width),
                        ),
                        _box(lambda: _("Table"), self._table_window, a),
                    ],
                    height=lambda: D.exact(self._sizes().top),
                ),
                ConditionalContainer(
                    _box(
                        lambda: _("Your hand"),
                        _wrapped(self._hand_text),
                        a,
                        height=lambda: D.exact(max(3, self._sizes().hand)),
                    ),
                    filter=Condition(lambda: self._sizes().hand > 0),
                ),
                # the hint goes beside the hand, in the log's place: the hand stays in view
                ConditionalContainer(
                    _box(
                        lambda: render.log_title(ui),
                        Window(self._log_control),
                        a,
                        height=D(min=3, weight=1),
                    ),
                    filter=Condition(lambda: self._aside() is None),
                ),
                ConditionalContainer(
                    _box(
                        lambda: _("Hint (h; Esc closes)"),
                        _wrapped(self._hint_text),
                        a,
                        height=D(min=3, weight=1),
                    ),
                    filter=Condition(lambda: self._aside() == "hint"),
                ),
                ConditionalContainer(
                    _box(
                        lambda: _("Signal to your partner (Esc: no signal)"),
                        _wrapped(_signal_choice),
                        a,
                        height=D(min=3, weight=1),
                    ),
                    filter=Condition(lambda: self._aside() == "signal"),
                ),
            ]
        )
        learn_box = _box(
            lambda: _("Learn Briscola"),
            Window(
                ScrollControl(lambda w: _learn().page_lines(ui), ui.page_scroll, more=self._more)
            ),
            a,
        )
        saved_box = _box(
            lambda: _("Saved games in {dir}").format(dir=self.config.games or games_dir()),
            Window(ScrollControl(self._saved_text, ui.page_scroll, more=self._more)),
            a,
        )
        stats_box = _box(
            lambda: _("Your statistics, from the saved games that verify"),
            Window(ScrollControl(self._stats_text, ui.page_scroll, more=self._more)),
            a,
        )
        body = HSplit(
            [
                title_bar,
                ConditionalContainer(lobby, filter=on(Screen.LOBBY)),
                ConditionalContainer(form, filter=on(Screen.HOST_FORM)),
                ConditionalContainer(table, filter=on(Screen.TABLE)),
                ConditionalContainer(learn_box, filter=on(Screen.LEARN)),
                ConditionalContainer(saved_box, filter=on(Screen.SAVED)),
                ConditionalContainer(stats_box, filter=on(Screen.STATS)),
                hint_bar,
            ]
        )

        def panel(
            title: Callable[[], str],
            control: WrapControl,
            cond: Callable[[], bool],
            w: int,
        ) -> Float:
            box = ConditionalContainer(
                _box(title, Window(control, style="class:panel"), a, width=w),
                filter=Condition(cond),
            )
            # A panel that scrolls keeps the title and the keys line in view; a wide one spans
            # the screen, so that no table text peeks out at its sides.
            top = bottom = 1 if isinstance(control, ScrollControl) else None
            if w >= 60:
                return Float(box, left=0, right=0, top=top, bottom=bottom)
            return Float(box, top=top, bottom=bottom)

        def on_table() -> bool:
            return ui.screen is Screen.TABLE

        floats = [
            panel(
                render_menus.help_title,
                ScrollControl(
                    lambda w: render_menus.help_lines(
                        self.ui, w, auction=on_table() and self.model.in_auction
                    ),
                    ui.help_scroll,
                    more=self._more,
                ),
                lambda: ui.show_help,
                50,
            ),
            panel(
                lambda: _("Last trick"),
                WrapControl(self._last_trick_text),
                lambda: ui.show_last_trick and on_table() and not ui.show_help,
                44,
            ),
            panel(
                lambda: _("Match summary"),
                ScrollControl(
                    lambda w: self._summary().summary_lines(self.model, self.ui, w),
                    ui.summary_scroll,
                    more=self._more,
                ),
                lambda: ui.show_summary and on_table() and not ui.show_help,
                80,
            ),
            panel(
                lambda: _("Review of your plays (w or Esc closes, Up/Down scrolls)"),
                ScrollControl(
                    lambda w: self.coach.review_lines(self.ui), ui.page_scroll, more=self._more
                ),
                lambda: ui.show_review and on_table() and not ui.show_help,
                80,
            ),
            panel(
                lambda: _("Deal verification"),
                WrapControl(self._verify_text),
                lambda: ui.show_verify_details and on_table(),
                70,
            ),
            panel(
                lambda: _("Leave the match?"),
                WrapControl(self._confirm_text),
                lambda: ui.confirm_quit,
                48,
            ),
        ]
        return Layout(FloatContainer(body, floats=floats))

    def _aside(self) -> str | None:
        """What sits under the hand in the log's place, the hand staying in view: the choice of
        a signal, or the hint (None: the log)."""
        if self.ui.screen is not Screen.TABLE:
            return None
        if self.ui.signalling:
            return "signal"
        return "hint" if self.ui.show_hint else None

    def _summary(self) -> ModuleType:
        """The match summary's module (``tui/summary.py``), loaded when first shown."""
        from briscola_lan.tui import summary

        return summary

    def _more(self, up: bool) -> str:
        return render.more_text(up, self.ui.ascii_only)

    # --- text callables --------------------------------------------------------------------

    def _confirm_text(self, width: int = 0) -> StyleAndTextTuples:
        what = _("Leave it?") if self.ui.quit_to_lobby else _("Quit the game?")
        out: StyleAndTextTuples = [
            ("class:bold", _("The match is not over. {what} (y/n)").format(what=what))
        ]
        if self.backend is not None and self.backend.hosting and self._other_humans():
            out.append(("class:error", "\n" + _("You host this table: it closes for everyone.")))
        return out

    def _other_humans(self) -> bool:
        return any(
            s.occupied and not s.is_ai and s.seat != self.model.my_seat for s in self.model.seats
        )

    def _title(self, width: int = 200) -> StyleAndTextTuples:
        if self.ui.screen is Screen.TABLE:
            return render.title_text(self.model, self.ui, width)
        names = {
            Screen.LOBBY: _("Lobby"),
            Screen.HOST_FORM: _("Host a table"),
            Screen.LEARN: _("Learn"),
            Screen.SAVED: _("Saved games"),
            Screen.STATS: _("Statistics"),
        }
        sep = " - " if self.ui.ascii_only else " · "
        return [
            ("class:title", f" Briscola LAN{sep}{names[self.ui.screen]}{sep}{self.config.name}")
        ]

    def _hints(self, width: int = 200) -> StyleAndTextTuples:
        s = self.ui.screen
        if self.ui.confirm_quit:
            text = _("y: yes, leave   n: no, keep playing")
        elif self.ui.show_help:
            text = _("Up/Down/PgUp/PgDn: scroll  Esc or ?: close")
        elif s is Screen.LOBBY and self.ui.kept:
            text = _(
                "c: continue  a: play vs AI  h: host  Enter: join  l: learn  s: saved  t: stats  "
                "?: keys  q: quit"
            )
        elif s is Screen.LOBBY:
            text = _(
                "a: play vs AI  h: host  Enter: join  l: learn  s: saved  t: stats  ?: keys  "
                "q: quit"
            )
        elif s is Screen.HOST_FORM:
            text = _(
                "Enter: start  Up/Down: field  Left/Right: change  type: name  ?: keys  Esc: back"
            )
        elif s is Screen.TABLE:
            text = self._table_hints()
        elif s is Screen.LEARN:
            text = _("Right/Enter: next  Left: back  Up/Down: scroll  ?: keys  Esc: lobby")
        elif s is Screen.STATS:
            text = _("Up/Down/PgUp/PgDn: scroll  ?: keys  Esc: back")
        else:
            text = _("Up/Down: choose  Enter: verify  PgUp/PgDn: scroll  ?: keys  Esc: back")
        return [("class:dim", " " + fit_keys(text, width - 1))]

    def _table_hints(self) -> str:
        """The key line of the table screen, for what is on it now."""
        model = self.model
        if self.ui.show_summary:
            return _("Up/Down: scroll  m or Esc: close  ?: keys  q: quit")
        if self.ui.follow.held is not None:
            return _("any key: go on  ?: keys  q: quit")
        if model.connection == "closed" and not model.started:
            return _("not connected  Esc: back to the lobby  ?: keys  q: quit")
        if not model.seated and model.connection == "connecting":
            return _("connecting...  Esc: back to the lobby  ?: keys  q: quit")
        if not model.seated:
            return _("not seated  Esc: back to the lobby  ?: keys  q: quit")
        if model.waiting and not model.hand_over and model.can_fill_ai:
            return _("waiting for players  f: fill open seats with AI  ?: keys  Esc: leave")
        if model.waiting and not model.hand_over:
            return _("waiting for the table  ?: keys  Esc: leave  q: quit")
        if model.hand_over and model.match_over:
            return _(
                "match over  r: rematch  m: summary  w: review  v: verification  ?: keys  "
                "Esc: lobby"
            )
        if model.hand_over:
            return _("n: next hand  m: summary  w: review  v: verification  l: last trick  ?: keys")
        if model.my_bid:
            return _("Enter: bid  x: pass  Left/Right: choose  Up/Down: 5 steps  ?: keys  q: quit")
        if model.my_call:
            return _("Left/Right/1-4: suit  Enter: call  ?: keys  q: quit")
        if model.in_auction:
            return _("the auction goes on  m: summary  ?: keys  q: quit")
        if self.ui.signalling:
            return _("1-6: the signal to your partner  Esc: no signal")
        n = max(1, len(model.hand))
        if model.options.signals and model.players == 4:
            if self.backend is not None and not self.backend.hints_allowed():
                return _("Left/Right/1-{n}: card  Enter: play  g: signal  ?: keys  q: quit").format(
                    n=n
                )
            return _(
                "Left/Right/1-{n}: card  Enter: play  g: signal  h: hint  ?: keys  q: quit"
            ).format(n=n)
        if self.backend is not None and not self.backend.hints_allowed():
            return _("Left/Right/1-{n}: card  Enter: play  ?: keys  q: quit").format(n=n)
        return _("Left/Right/1-{n}: card  Enter: play  h: hint  ?: keys  q: quit").format(n=n)

    def _lobby_menu(self, width: int) -> StyleAndTextTuples:
        kept: StyleAndTextTuples = []
        if self.ui.kept:
            more = len(self.ui.kept) - 1
            line = render_menus.kept_line(self.ui.kept[0])
            if more:
                line += " " + ngettext("(and {n} more)", "(and {n} more)", more).format(n=more)
            kept = [("class:bold", " c "), ("class:turn", line + "\n")]
        return [
            *kept,
            ("class:bold", " a "), ("", _("Play against AI now (on this machine)") + "\n"),
            ("class:bold", " h "), ("", _("Host a table on the network") + "\n"),
            ("class:bold", " " + _("Enter") + " "), ("", _("Join the selected table") + "\n"),
            ("class:bold", " l "), ("", _("Learn the game, then practice") + "\n"),
            ("class:bold", " s "), ("", _("Saved games") + "   "),
            ("class:bold", " t "), ("", _("Your statistics")),
        ]  # fmt: skip

    def _players_text(self, width: int = 36) -> StyleAndTextTuples:
        from briscola_lan.tui import render_table

        compact = self._sizes().compact
        return render_table.players_lines(self.model, self.ui, width, compact)

    def _table_text(self, width: int | None = None) -> StyleAndTextTuples:
        from briscola_lan.tui import render_table

        sizes = self._sizes()
        return render_table.table_lines(
            self.model, self.ui, width, self._own_verdict(), big=sizes.boxes, compact=sizes.compact
        )

    def _own_verdict(self) -> str | None:
        """What my own record says of the shown hand when the host blamed my seat (a network
        table's session keeps it per hand: "your reveal was received at ...")."""
        res = self.model.last_result
        session = getattr(self.backend, "session", None)
        if res is None or session is None:
            return None
        checks = [c for c in session.state.checks if c.hand == res.number]
        verdict = checks[-1].own_verdict if checks else None
        if verdict is None:
            return None
        from briscola_lan.tui.verdicts import own_words

        return own_words(verdict)

    def _hand_text(self, width: int) -> StyleAndTextTuples:
        from briscola_lan.tui import render_table

        sizes = self._sizes()
        return render_table.hand_lines(
            self.model, self.ui, on_click=self.click_card, big=sizes.big, inline=sizes.compact
        )

    def _hint_text(self, width: int = 0) -> StyleAndTextTuples:
        return [("", self.coach.hint_text)]

    def _last_trick_text(self, width: int = 0) -> StyleAndTextTuples:
        lt = self.model.last_trick
        if lt is None:
            return [("", _("No trick has been taken yet in this hand."))]
        out: StyleAndTextTuples = []
        for seat, card in lt.plays:
            out.append(("", f"{self.model.who(seat):<16} "))
            out.append(render.card_frag(card, self.ui, "class:bold"))
            out.append(("", "\n"))
        out.append(
            (
                "class:bold",
                _("Taken by {name} for {n} points").format(
                    name=self.model.who(lt.winner), n=lt.points
                ),
            )
        )
        return out

    def _verify_text(self, width: int = 0) -> StyleAndTextTuples:
        res = self.model.last_result
        if res is None or res.verification is None:
            return [("", _("No verification result yet."))]
        v = res.verification
        head = {True: _("VERIFIED:") + " ", False: _("FAILED:") + " ", None: ""}[v.ok]
        out: StyleAndTextTuples = [
            ("class:bad" if v.ok is False else "class:good", head + v.summary),
            ("", "\n"),
        ]
        if v.fault is not None:
            from briscola_lan.tui import verdicts  # with the first network table's verdict

            who = verdicts.who(v.fault, self.model.who)
            out.append(("class:bad", _("At fault: {who}").format(who=who) + "\n"))
        for line in v.details:
            out.append(("", line + "\n"))
        out.append(("class:dim", _("Esc or v to close.")))
        return out

    def _stats_text(self, width: int) -> StyleAndTextTuples:
        from briscola_lan.tui import statsview

        return statsview.stats_lines(self.stats_view, self.ui, width)

    def _saved_text(self, width: int) -> StyleAndTextTuples:
        from briscola_lan.tui import saved

        return saved.browser_lines(self.ui, self.saved_games, width)
