"""The client's screens: the container tree of lobby, host form, table, learn mode and saved
games, the panels on top of them (help, last trick, hint, review, verification, quit), and the
small callables through which every window reads the app's state at each redraw.

``AppLayout`` is mixed into ``ClientApp``, which holds that state (``ui``, ``model``, the table
backend); nothing here changes it. The table's panes take their sizes from the terminal
(``render.sizes``): larger cards at 100x30, the same divider from one play to the next.
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
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.containers import AnyContainer
from prompt_toolkit.layout.controls import FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension as D

from briscola_lan.net.files import games_dir
from briscola_lan.tui import render
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import Screen, TableModel, UiState
from briscola_lan.tui.widgets import ScrollControl, WrapControl

if TYPE_CHECKING:  # loaded when first used (a hint, a table, learn mode): not for the lobby
    from types import ModuleType

    from prompt_toolkit.application import Application

    from briscola_lan.tui.app import ClientConfig
    from briscola_lan.tui.backend import TableBackend
    from briscola_lan.tui.coach import Coach
    from briscola_lan.tui.saved import SavedList


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
    """A key-hint line cut to ``width`` between its items (two spaces apart), never in one."""
    if len(text) <= width:
        return text
    items = text.split("  ")
    while len(items) > 1 and len("  ".join(items)) > width:
        items.pop(-2 if len(items) > 2 else -1)  # keep the last item (quit) while there is room
    return "  ".join(items)[:width]


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
    _log_control: ScrollControl
    _table_window: Window

    @property
    @abstractmethod
    def coach(self) -> Coach:
        """The hint and review coach of the table on the screen."""

    @abstractmethod
    def click_card(self, index: int) -> None:
        """A click on the card at ``index`` of the shown hand plays it."""

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def _sizes(self) -> render.Sizes:
        return render.sizes(*self._size(), self.model)

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
                    _wrapped(lambda w: render.lobby_lines(self.ui, w)),
                    a,
                    height=D(min=4, weight=1),
                ),
                _wrapped(
                    lambda w: [("", self.ui.lobby_status)],
                    height=D(min=1, max=4),
                    dont_extend_height=True,
                ),
                _box(lambda: _("Menu"), _wrapped(self._lobby_menu), a, height=D.exact(7)),
            ]
        )
        form = _box(
            lambda: _("Host a table"), _wrapped(lambda w: render.form_lines(ui.form, ui, w)), a
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
                _box(
                    lambda: _("Your hand"),
                    _wrapped(self._hand_text),
                    a,
                    height=lambda: D.exact(self._sizes().hand),
                ),
                _box(
                    lambda: render.log_title(ui),
                    Window(self._log_control),
                    a,
                    height=D(min=3, weight=1),
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
        body = HSplit(
            [
                title_bar,
                ConditionalContainer(lobby, filter=on(Screen.LOBBY)),
                ConditionalContainer(form, filter=on(Screen.HOST_FORM)),
                ConditionalContainer(table, filter=on(Screen.TABLE)),
                ConditionalContainer(learn_box, filter=on(Screen.LEARN)),
                ConditionalContainer(saved_box, filter=on(Screen.SAVED)),
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
            if w >= 60:  # wide panels span the screen: no table text peeks out at their sides
                return Float(box, left=0, right=0)
            return Float(box)

        def on_table() -> bool:
            return ui.screen is Screen.TABLE

        floats = [
            panel(
                render.help_title,
                ScrollControl(
                    lambda w: render.help_lines(self.ui), ui.help_scroll, more=self._more
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
                lambda: _("Hint (h)"),
                WrapControl(self._hint_text),
                lambda: ui.show_hint and on_table() and not ui.show_help,
                60,
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
        }
        sep = " - " if self.ui.ascii_only else " · "
        return [
            ("class:title", f" Briscola LAN{sep}{names[self.ui.screen]}{sep}{self.config.name}")
        ]

    def _hints(self, width: int = 200) -> StyleAndTextTuples:
        s = self.ui.screen
        model = self.model
        if self.ui.confirm_quit:
            text = _("y: yes, leave   n: no, keep playing")
        elif self.ui.show_help:
            text = _("Up/Down/PgUp/PgDn: scroll  Esc or ?: close")
        elif s is Screen.LOBBY:
            text = _("a: play vs AI  h: host  Enter: join  l: learn  s: saved  ?: keys  q: quit")
        elif s is Screen.HOST_FORM:
            text = _("Up/Down: field  Left/Right: change  type: name  Enter: start  Esc: back")
        elif s is Screen.TABLE:
            if self.ui.follow.held is not None:
                text = _("any key: go on  ?: keys  q: quit")
            elif model.connection == "closed" and not model.started:
                text = _("not connected  Esc: back to the lobby  q: quit")
            elif not model.seated and model.connection == "connecting":
                text = _("connecting...  Esc: back to the lobby  q: quit")
            elif not model.seated:
                text = _("not seated  Esc: back to the lobby  q: quit")
            elif model.waiting and not model.hand_over and model.can_fill_ai:
                text = _("waiting for players  f: fill open seats with AI  ?: keys  Esc: leave")
            elif model.waiting and not model.hand_over:
                text = _("waiting for the table  ?: keys  Esc: leave  q: quit")
            elif model.hand_over and model.match_over:
                text = _("match over  r: rematch  w: review  v: verification  Esc: lobby")
            elif model.hand_over:
                text = _("n: next hand  w: review  v: verification  l: last trick  ?: keys")
            else:
                n = max(1, len(model.hand))
                if self.backend is not None and not self.backend.hints_allowed():
                    text = _("Left/Right/1-{n}: card  Enter: play  ?: keys  q: quit").format(n=n)
                else:
                    text = _("Left/Right/1-{n}: card  Enter: play  h: hint  ?: keys  q: quit")
                    text = text.format(n=n)
        elif s is Screen.LEARN:
            text = _("Right/Enter: next  Left: back  Up/Down: scroll  Esc: lobby")
        else:
            text = _("Up/Down: choose  Enter: verify  PgUp/PgDn: scroll  Esc: back")
        return [("class:dim", " " + fit_keys(text, width - 1))]

    def _lobby_menu(self, width: int) -> StyleAndTextTuples:
        return [
            ("class:bold", " a "), ("", _("Play against AI now (on this machine)") + "\n"),
            ("class:bold", " h "), ("", _("Host a table on the network") + "\n"),
            ("class:bold", " " + _("Enter") + " "), ("", _("Join the selected table") + "\n"),
            ("class:bold", " l "), ("", _("Learn the game, then practice") + "   "),
            ("class:bold", " s "), ("", _("Saved games")),
        ]  # fmt: skip

    def _players_text(self, width: int = 36) -> StyleAndTextTuples:
        out = render.seat_lines(self.model, self.ui, width, self._sizes().compact)
        out.extend(render.score_lines(self.model, self.ui, width))
        return out

    def _table_text(self, width: int | None = None) -> StyleAndTextTuples:
        sizes = self._sizes()
        return render.table_lines(
            self.model, self.ui, width, self._own_verdict(), big=sizes.big, compact=sizes.compact
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
        from briscola_lan.tui import sessionlog

        return sessionlog.render(verdict, str, str) or verdict

    def _hand_text(self, width: int) -> StyleAndTextTuples:
        sizes = self._sizes()
        return render.hand_lines(
            self.model, self.ui, on_click=self.click_card, big=sizes.big, inline=sizes.compact
        )

    def _hint_text(self, width: int = 0) -> StyleAndTextTuples:
        return [("", self.coach.hint_text), ("class:dim", "\n" + _("Esc closes."))]

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
        if v.fault_seat is not None:
            who = _("the host") if v.fault_seat < 0 else self.model.who(v.fault_seat)
            if v.fault_also_host and v.fault_seat >= 0:
                who = _("the host or {name} (this record cannot tell them apart)").format(name=who)
            out.append(("class:bad", _("At fault: {who}").format(who=who) + "\n"))
        for line in v.details:
            out.append(("", line + "\n"))
        out.append(("class:dim", _("Esc or v to close.")))
        return out

    def _saved_text(self, width: int) -> StyleAndTextTuples:
        from briscola_lan.tui import saved

        return saved.browser_lines(self.ui, self.saved_games, width)
