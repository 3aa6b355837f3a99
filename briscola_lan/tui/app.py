"""The full-screen terminal client: layout, key bindings, style, then the ``Application``.

``ClientApp`` holds the UI state and the current table backend; the layout reads them through
small callables, so every redraw shows the current state. Screens: lobby, host form, table,
learn mode and saved games, with help, last-trick, verification, hint, hand-review and
quit-confirm panels on top. The table's panes take their sizes from the terminal
(``render.sizes``): larger cards at 100x30, the same divider from one play to the next.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys
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
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.styles import Style

from briscola_lan.net.files import games_dir
from briscola_lan.rules import MatchFormat, OptionsError, Suit
from briscola_lan.tui import render
from briscola_lan.tui.deck import Deck
from briscola_lan.tui.follow import TRICK_PAUSE, HandOrder, display_order
from briscola_lan.tui.i18n import _, ngettext
from briscola_lan.tui.state import AI_LEVELS, HostForm, LobbyEntry, Screen, TableModel, UiState
from briscola_lan.tui.widgets import ScrollControl, WrapControl

if TYPE_CHECKING:  # loaded when first used (a hint, a table, learn mode): not for the lobby
    from types import ModuleType

    from briscola_lan.tui.backend import TableBackend
    from briscola_lan.tui.coach import Coach


def _learn() -> ModuleType:
    """Learn mode's pages (``tui/learn.py``), loaded when the player first opens them."""
    from briscola_lan.tui import learn

    return learn


# A play key this soon after a trick's pause ran out was meant for the trick (seconds): the
# hand it would act on, with the card just drawn, was not on the screen when it was pressed.
SETTLE = 0.6

STYLE = Style.from_dict(
    {
        "title": "reverse bold",
        "frame": "",
        "frame.title": "bold",
        "dim": "#888888",
        "bold": "bold",
        "me": "bold",
        "turn": "bold #00afff",
        "selected": "reverse",
        "card": "",
        "card.selected": "reverse",
        "card.new": "bold #ffd700",
        "card.win": "bold #5fd75f",
        "suit.coins": "#d7af00",
        "suit.cups": "#ff5f5f",
        "suit.swords": "#5f87ff",
        "suit.clubs": "#5fd75f",
        "good": "bold #5fd75f",
        "bad": "bold #ff5f5f",
        "error": "bold #ff5f5f",
        "partner": "bold underline #d787ff",
        "panel": "bg:#262626",
        "blink": "blink",
    }
)


class LobbySource(Protocol):
    """Live list of tables on the network (discovery), pushed to a callback."""

    async def start(self, on_update: Callable[[list[LobbyEntry]], None]) -> None: ...

    async def close(self) -> None: ...


@dataclass(slots=True)
class ClientConfig:
    """Options of the ``play`` command that the app needs."""

    name: str = "Player"
    ascii_only: bool = False
    ai_level: str = "rules"
    ai_delay: float = 0.6
    trick_pause: float = TRICK_PAUSE  # seconds a completed trick stays on show (0: none)
    deck: Deck = Deck.FRENCH
    hand_order: HandOrder = HandOrder.SORTED
    interfaces: list[str] | None = None
    games: Path | None = None
    # Hooks the network layer plugs in: host a table / join a lobby entry.
    host_factory: Callable[[HostForm, ClientConfig, bool], TableBackend] | None = None
    join_factory: Callable[[LobbyEntry, ClientConfig], TableBackend] | None = None
    lobby_source: LobbySource | None = None
    # The player's signing identity (``fairness.identity.Identity``); None: the saved one.
    identity: Any = None
    # A table to open at once (``briscola-lan join``) instead of starting on the lobby.
    initial_table: Callable[[ClientConfig], TableBackend] | None = None


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


def _text(fn: Callable[[], StyleAndTextTuples], **kw: Any) -> Window:
    return Window(FormattedTextControl(fn), **kw)


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


class ClientApp:
    """The terminal client: one instance per run (tests build one per test)."""

    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self.ui = UiState(ascii_only=config.ascii_only, player_name=config.name)
        self.ui.deck = config.deck
        self.ui.hand_order = config.hand_order
        self.ui.form.table_name = _("{name}'s table").format(name=config.name)
        self.ui.form.fillers = [config.ai_level] * 3
        self.model = TableModel()
        self.backend: TableBackend | None = None
        self._coach: Coach | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._release: asyncio.TimerHandle | None = None
        self._hand_new_since: float | None = None  # when a trick's pause ran out (loop time)
        self.exit_code = 0
        self.app: Application[int] = Application(
            layout=self._layout(),
            key_bindings=self._bindings(),
            style=STYLE,
            full_screen=True,
            mouse_support=True,
            color_depth=ColorDepth.MONOCHROME if config.ascii_only else None,
        )
        self.app.ttimeoutlen = 0.05  # a bare Esc closes panels at once

    # --- helpers ---------------------------------------------------------------------------

    @property
    def coach(self) -> Coach:
        """The hint and review coach of the table on the screen (its AI loaded when first
        needed, not for the lobby)."""
        if self._coach is None:
            from briscola_lan.tui.coach import Coach

            self._coach = Coach()
        return self._coach

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            self.model.add_log(f"! {type(exc).__name__}: {exc}")
            self.ui.lobby_status = _("Error: {error}").format(error=exc)
            self.app.invalidate()

    def invalidate(self) -> None:
        """The backend changed the model: follow the play, then redraw."""
        if self.ui.follow.observe(self.model):
            self._hold_trick()
        if self._coach is not None or self.model.started:
            self.coach.observe(self.model)
        self._clamp_card()
        self.app.invalidate()

    def _hold_trick(self) -> None:
        """Keep the completed trick on show for ``trick_pause`` seconds (or until a key)."""
        if self._release is not None:
            self._release.cancel()
            self._release = None
        pause = self.config.trick_pause
        if pause <= 0:
            self.ui.follow.release()
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.ui.follow.release()
            return
        self._release = loop.call_later(pause, self._trick_time_up)

    def _trick_time_up(self) -> None:
        """The held trick's pause is over: it goes, and the hand it leaves (with the card just
        drawn) is new to the player; a play key pressed at once was meant for the trick."""
        if self.release_trick():
            self._hand_new_since = asyncio.get_running_loop().time()

    def _hand_just_shown(self) -> bool:
        """Whether the hand came on the screen by itself less than ``SETTLE`` seconds ago (the
        pause of a trick ran out): Enter or Space then plays nothing."""
        since = self._hand_new_since
        if since is None:
            return False
        self._hand_new_since = None
        return asyncio.get_running_loop().time() - since < SETTLE

    def release_trick(self) -> bool:
        """The held trick goes (time is up, or a key); True if one was on show."""
        if self._release is not None:
            self._release.cancel()
            self._release = None
        was = self.ui.follow.release()
        if was:
            self._clamp_card()
            self.app.invalidate()
        return was

    def _clamp_card(self) -> None:
        n = len(self.model.hand)
        if n == 0:
            self.ui.card_index = 0
        elif self.ui.card_index >= n:
            self.ui.card_index = n - 1

    def shown_hand(self) -> tuple[Any, ...]:
        """My cards in the order the screen shows them (the card numbers follow it)."""
        return display_order(self.model.hand, self.model.trump, self.ui.hand_order)

    @property
    def mid_match(self) -> bool:
        return self.ui.screen is Screen.TABLE and self.model.started and not self.model.match_over

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return size.columns, size.rows

    def _sizes(self) -> render.Sizes:
        return render.sizes(*self._size(), self.model)

    # --- actions ---------------------------------------------------------------------------

    def open_table(self, backend: TableBackend) -> None:
        """Switch to the table screen driven by ``backend``."""
        self.backend = backend
        self.model = backend.model
        backend.listener = self.invalidate
        self.ui.screen = Screen.TABLE
        self.ui.card_index = 0
        self.ui.show_last_trick = False
        self.ui.show_verify_details = False
        self.ui.follow = type(self.ui.follow)()
        self.ui.log_scroll.home()
        self._coach = None  # a new table: a new coach
        self._spawn(backend.start())
        self.invalidate()

    def practice(self, players: int = 2, title: str | None = None) -> None:
        """Play against AI players on this machine right away."""
        title = title or _("Practice vs AI")
        form = HostForm(table_name=title, players=players, fillers=[self.config.ai_level] * 3)
        self.start_form_table(form, title=title)

    def start_form_table(self, form: HostForm, title: str | None = None) -> None:
        try:
            options = form.options()
        except OptionsError as exc:
            form.error = str(exc)
            return
        fillers = form.seat_fillers()
        self.ui.last_form = (form, title)
        if self.config.host_factory is not None:
            practice = title is not None
            self.open_table(self.config.host_factory(form, self.config, practice))
            return
        if "open" in fillers:
            form.error = _("Open seats need a network table, which this build cannot host.")
            return
        from briscola_lan.tui.backend import PracticeBackend

        backend = PracticeBackend(
            options,
            self.config.name,
            fillers,
            delay=self.config.ai_delay,
            ascii_only=self.ui.ascii_only,
            deck=self.ui.deck,
            title=title or form.table_name,
        )
        self.open_table(backend)

    def rematch(self) -> None:
        """A new match at the same table, with the same players and AI seats."""
        backend = self.backend
        if backend is None or not self.model.match_over:
            return
        new = backend.rematch()
        if new is None:
            self.model.error = _("This table offers no rematch: Esc for the lobby.")
            self.app.invalidate()
            return
        backend.listener = None
        self.backend = None
        self._spawn(backend.close())
        self.open_table(new)

    def leave_table(self) -> None:
        backend = self.backend
        self.backend = None
        if backend is not None:
            backend.listener = None
            self._spawn(backend.close())
        self.release_trick()
        self.model = TableModel()
        self.ui.screen = Screen.LOBBY
        self.ui.confirm_quit = False
        self.ui.show_review = False
        self.ui.show_hint = False

    def play_selected(self) -> None:
        if self.backend is None or not self.model.hand:
            return
        if not self.model.my_turn:
            self.model.error = _("Not your turn yet.")
            return
        self._clamp_card()
        card = self.shown_hand()[self.ui.card_index]
        view = self.backend.current_view()
        if view is not None:
            self.coach.played(view, card)
        self.ui.show_hint = False
        self.backend.play(card)
        self._clamp_card()

    def click_card(self, index: int) -> None:
        if self.ui.screen is Screen.TABLE and index < len(self.model.hand):
            if self.release_trick():
                return
            self.ui.card_index = index
            self.play_selected()
            self.invalidate()

    def next_hand(self) -> None:
        if self.backend is not None and self.model.hand_over and not self.model.match_over:
            self.ui.show_verify_details = False
            self.ui.show_review = False
            self.backend.next_hand()

    def ask_hint(self) -> None:
        """The strong AI's card for my position, with a one-line reason (in a thread)."""
        backend = self.backend
        if backend is None:
            return
        if not backend.hints_allowed():
            self.coach.hint_text = _(
                "Hints are off at this table: other people play here and the host did not "
                "allow them."
            )
            self.ui.show_hint = True
            return
        view = backend.current_view()
        if view is None or not self.model.my_turn:
            self.coach.hint_text = _("A hint is for your turn: wait for it.")
            self.ui.show_hint = True
            return
        self.ui.show_hint = True
        self.coach.hint_text = _("The strong AI is thinking...")

        async def think() -> None:
            from briscola_lan.tui import coach

            hint = await asyncio.to_thread(coach.advise, view)
            if backend is not self.backend or self.backend.current_view() != view:
                return  # the position moved on: the hint is out of date
            self.coach.hint_text = coach.hint_line(hint, self.ui)
            self.coach.hint_card = hint.card
            backend.record_hint(view, hint.card)
            self.app.invalidate()

        self._spawn(think())

    def show_review(self) -> None:
        """The review of my plays in the hand just finished, the biggest mistake first."""
        if not self.model.hand_over or self.model.last_result is None:
            return
        self.ui.show_review = not self.ui.show_review
        self.ui.page_scroll.home()
        if self.ui.show_review:
            self._spawn(self.coach.review(self.model.last_result.number, self.app.invalidate))

    def request_quit(self, to_lobby: bool) -> None:
        if self.mid_match:
            self.ui.confirm_quit = True
            self.ui.quit_to_lobby = to_lobby
            return
        if to_lobby and self.ui.screen is not Screen.LOBBY:
            self.leave_table()
            self.ui.screen = Screen.LOBBY
        else:
            self.exit()

    def confirm_quit(self, yes: bool) -> None:
        self.ui.confirm_quit = False
        if not yes:
            return
        if self.ui.quit_to_lobby:
            self.leave_table()
        else:
            self.exit()

    def exit(self) -> None:
        if self.backend is not None:
            self.leave_table()
        self.app.exit(result=self.exit_code)

    def join_selected(self) -> None:
        if not self.ui.lobby:
            self.ui.lobby_status = _("No table to join yet: press a to play against AI, h to host.")
            return
        entry = self.ui.lobby[self.ui.lobby_index]
        if self.config.join_factory is None:
            self.ui.lobby_status = _("Joining needs the network client, which this build lacks.")
            return
        self.open_table(self.config.join_factory(entry, self.config))

    def set_lobby(self, entries: list[LobbyEntry]) -> None:
        """Replace the lobby list (called by discovery as tables appear, fill up and vanish)."""
        current = self.ui.lobby[self.ui.lobby_index].key if self.ui.lobby else None
        self.ui.lobby = list(entries)
        keys = [e.key for e in entries]
        self.ui.lobby_index = keys.index(current) if current in keys else 0
        n = len(entries)
        self.ui.lobby_status = ngettext(
            "{n} table found. Updating live.", "{n} tables found. Updating live.", n
        ).format(n=n)
        self.app.invalidate()

    def open_saved(self) -> None:
        from briscola_lan.tui import saved  # the verifier loads with the saved games' screen

        directory = self.config.games or games_dir()
        self.ui.saved_files = [str(p) for p in saved.list_saved(directory)]
        self.ui.saved_index = 0
        self.ui.saved_report = (
            [] if self.ui.saved_files else [_("No saved games in {dir}").format(dir=directory)]
        )
        self.ui.page_scroll.home()
        self.ui.screen = Screen.SAVED
        self.saved_games = saved.SavedList([Path(p) for p in self.ui.saved_files])
        self._spawn(self.saved_games.fill(self.app.invalidate))

    def verify_selected_saved(self) -> None:
        if not self.ui.saved_files:
            return
        path = Path(self.ui.saved_files[self.ui.saved_index])
        from briscola_lan.tui import saved

        _ok, verdict, lines = saved.verify_saved(path)
        head = f"{path.name}: {verdict}"
        self.ui.saved_report = [head, *lines]
        self.ui.page_scroll.home()

    # --- form editing ----------------------------------------------------------------------

    def form_change(self, delta: int) -> None:
        form = self.ui.form
        form.error = None
        row = render.form_rows(form)[form.row]
        if row == "players":
            form.players = (form.players - 2 + delta) % 3 + 2
        elif row == "format":
            form.match_format = (
                MatchFormat.POINTS if form.match_format is MatchFormat.HANDS else MatchFormat.HANDS
            )
        elif row == "hands":
            form.hands_to_win = (form.hands_to_win - 1 + delta) % 5 + 1
        elif row == "exchange":
            form.partner_exchange = not form.partner_exchange
        elif row == "two":
            form.removed_two = Suit((int(form.removed_two) + delta) % 4)
        elif row == "drawp":
            form.draw_partners = not form.draw_partners
        elif row == "drawd":
            form.draw_dealer = not form.draw_dealer
        elif row == "deal":
            form.deal = "classic" if form.deal_mode() == "blind" else "blind"
        elif row == "hints":
            form.hints = not form.hints
        elif row.startswith("seat"):
            idx = int(row[4:]) - 1
            choices = ["open", *AI_LEVELS]
            cur = choices.index(form.fillers[idx]) if form.fillers[idx] in choices else 0
            form.fillers[idx] = choices[(cur + delta) % len(choices)]

    # --- layout ----------------------------------------------------------------------------

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
        games = getattr(self, "saved_games", None)
        from briscola_lan.tui import saved

        return saved.browser_lines(self.ui, games, width)

    # --- key bindings ----------------------------------------------------------------------

    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        ui = self.ui

        def screen_is(screen: Screen) -> Condition:
            return Condition(
                lambda: ui.screen is screen and not ui.confirm_quit and not ui.show_help
            )

        lobby = screen_is(Screen.LOBBY)
        form = screen_is(Screen.HOST_FORM)
        at_table = screen_is(Screen.TABLE)
        table = at_table & Condition(lambda: not ui.show_verify_details and not ui.show_review)
        reviewing = at_table & Condition(lambda: ui.show_review)
        held = at_table & Condition(lambda: ui.follow.held is not None)
        learning = screen_is(Screen.LEARN)
        saved_screen = screen_is(Screen.SAVED)
        confirming = Condition(lambda: ui.confirm_quit)
        helping = Condition(lambda: ui.show_help)
        on_name = form & Condition(lambda: render.form_rows(ui.form)[ui.form.row] == "name")

        @kb.add("c-c")
        def _ctrl_c(event: KeyPressEvent) -> None:
            self.request_quit(to_lobby=False)

        @kb.add("?", filter=~confirming & ~on_name)
        def _help(event: KeyPressEvent) -> None:
            ui.show_help = not ui.show_help
            ui.help_scroll.home()

        @kb.add("escape", filter=helping)
        def _close_help(event: KeyPressEvent) -> None:
            ui.show_help = False

        for key, step in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):

            @kb.add(key, filter=helping & ~confirming)
            def _help_scroll(event: KeyPressEvent, step: int = step) -> None:
                ui.help_scroll.by(step)

        @kb.add("y", filter=confirming)
        @kb.add("s", filter=confirming)  # "sì": the Italian prompt says (s/n); both keys work
        def _yes(event: KeyPressEvent) -> None:
            self.confirm_quit(True)

        @kb.add("n", filter=confirming)
        @kb.add("escape", filter=confirming)
        def _no(event: KeyPressEvent) -> None:
            self.confirm_quit(False)

        # lobby
        @kb.add("up", filter=lobby)
        def _lobby_up(event: KeyPressEvent) -> None:
            if ui.lobby:
                ui.lobby_index = (ui.lobby_index - 1) % len(ui.lobby)

        @kb.add("down", filter=lobby)
        def _lobby_down(event: KeyPressEvent) -> None:
            if ui.lobby:
                ui.lobby_index = (ui.lobby_index + 1) % len(ui.lobby)

        @kb.add("enter", filter=lobby)
        def _lobby_join(event: KeyPressEvent) -> None:
            self.join_selected()

        @kb.add("a", filter=lobby)
        def _lobby_ai(event: KeyPressEvent) -> None:
            self.practice()

        @kb.add("h", filter=lobby)
        def _lobby_host(event: KeyPressEvent) -> None:
            ui.form.error = None
            ui.screen = Screen.HOST_FORM

        @kb.add("l", filter=lobby)
        def _lobby_learn(event: KeyPressEvent) -> None:
            ui.learn_step = 0
            ui.page_scroll.home()
            ui.screen = Screen.LEARN

        @kb.add("s", filter=lobby)
        def _lobby_saved(event: KeyPressEvent) -> None:
            self.open_saved()

        @kb.add("q", filter=lobby)
        @kb.add("escape", filter=lobby)
        def _lobby_quit(event: KeyPressEvent) -> None:
            self.exit()

        # host form
        @kb.add("up", filter=form)
        def _form_up(event: KeyPressEvent) -> None:
            ui.form.row = (ui.form.row - 1) % len(render.form_rows(ui.form))

        @kb.add("down", filter=form)
        @kb.add("tab", filter=form)
        def _form_down(event: KeyPressEvent) -> None:
            ui.form.row = (ui.form.row + 1) % len(render.form_rows(ui.form))

        @kb.add("left", filter=form)
        def _form_left(event: KeyPressEvent) -> None:
            self.form_change(-1)

        @kb.add("right", filter=form)
        @kb.add("space", filter=form & ~on_name)
        def _form_right(event: KeyPressEvent) -> None:
            self.form_change(+1)

        @kb.add("enter", filter=form)
        def _form_start(event: KeyPressEvent) -> None:
            self.start_form_table(ui.form)

        @kb.add("escape", filter=form)
        def _form_back(event: KeyPressEvent) -> None:
            ui.screen = Screen.LOBBY

        @kb.add(Keys.Any, filter=on_name)
        def _form_type(event: KeyPressEvent) -> None:
            ch = event.data
            if ch.isprintable() and len(ui.form.table_name) < 40:
                ui.form.table_name += ch

        @kb.add("backspace", filter=on_name)
        def _form_backspace(event: KeyPressEvent) -> None:
            ui.form.table_name = ui.form.table_name[:-1]

        # table: a completed trick on show goes on any key (which does nothing else then)
        @kb.add(Keys.Any, filter=held)
        def _go_on(event: KeyPressEvent) -> None:
            self.release_trick()

        @kb.add("left", filter=table)
        def _card_left(event: KeyPressEvent) -> None:
            if self.release_trick():
                return
            self._hand_new_since = None  # the player is looking at the hand
            if self.model.hand:
                ui.card_index = (ui.card_index - 1) % len(self.model.hand)

        @kb.add("right", filter=table)
        def _card_right(event: KeyPressEvent) -> None:
            if self.release_trick():
                return
            self._hand_new_since = None  # the player is looking at the hand
            if self.model.hand:
                ui.card_index = (ui.card_index + 1) % len(self.model.hand)

        for digit in "123456789":

            @kb.add(digit, filter=table)
            def _card_digit(event: KeyPressEvent) -> None:
                if self.release_trick():
                    return
                self._hand_new_since = None  # the player is looking at the hand
                i = int(event.data) - 1
                if i < len(self.model.hand):
                    ui.card_index = i

        @kb.add("enter", filter=table)
        @kb.add("space", filter=table)
        def _play(event: KeyPressEvent) -> None:
            if self.release_trick():
                return
            if self._hand_just_shown():  # pressed to clear a trick whose pause just ran out
                self.model.error = _("The trick just cleared: look at your hand, then play.")
                return
            if not self.model.hand_over:
                self.play_selected()

        @kb.add("n", filter=table)
        def _next(event: KeyPressEvent) -> None:
            self.release_trick()
            self.next_hand()

        @kb.add("r", filter=table)
        def _rematch(event: KeyPressEvent) -> None:
            self.release_trick()
            self.rematch()

        @kb.add("h", filter=table)
        def _hint(event: KeyPressEvent) -> None:
            self.release_trick()
            self.ask_hint()

        @kb.add("w", filter=at_table)
        def _review(event: KeyPressEvent) -> None:
            self.release_trick()
            self.show_review()

        @kb.add("o", filter=table)
        def _order(event: KeyPressEvent) -> None:
            self.release_trick()
            order = ui.hand_order
            ui.hand_order = HandOrder.DEALT if order is HandOrder.SORTED else HandOrder.SORTED

        @kb.add("f", filter=table)
        def _fill(event: KeyPressEvent) -> None:
            if self.backend is not None:
                self.backend.fill_open_seats()

        @kb.add("l", filter=table)
        def _last(event: KeyPressEvent) -> None:
            self.release_trick()
            ui.show_last_trick = not ui.show_last_trick

        @kb.add("pageup", filter=table)
        def _log_up(event: KeyPressEvent) -> None:
            self.release_trick()
            ui.log_scroll.pages(-1)

        @kb.add("pagedown", filter=table)
        def _log_down(event: KeyPressEvent) -> None:
            self.release_trick()
            ui.log_scroll.pages(1)

        for key, step in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):

            @kb.add(key, filter=reviewing)
            def _review_scroll(event: KeyPressEvent, step: int = step) -> None:
                ui.page_scroll.by(step)

        @kb.add("v", filter=at_table)
        def _verify(event: KeyPressEvent) -> None:
            self.release_trick()
            ui.show_verify_details = not ui.show_verify_details and self.model.hand_over

        @kb.add("escape", filter=at_table)
        def _table_escape(event: KeyPressEvent) -> None:
            if self.release_trick():
                return
            if ui.show_verify_details:
                ui.show_verify_details = False
            elif ui.show_review:
                ui.show_review = False
            elif ui.show_hint:
                ui.show_hint = False
            elif ui.show_last_trick:
                ui.show_last_trick = False
            else:
                self.request_quit(to_lobby=True)

        @kb.add("q", filter=at_table)
        def _table_quit(event: KeyPressEvent) -> None:
            self.release_trick()
            self.request_quit(to_lobby=False)

        # learn
        @kb.add("right", filter=learning)
        @kb.add("enter", filter=learning)
        @kb.add("space", filter=learning)
        def _learn_next(event: KeyPressEvent) -> None:
            if ui.learn_step >= _learn().last_step():
                self.practice(title=_("Practice after the lesson"))
            else:
                ui.learn_step += 1
                ui.page_scroll.home()

        @kb.add("left", filter=learning)
        def _learn_back(event: KeyPressEvent) -> None:
            ui.learn_step = max(0, ui.learn_step - 1)
            ui.page_scroll.home()

        for key, step in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):

            @kb.add(key, filter=learning)
            def _learn_scroll(event: KeyPressEvent, step: int = step) -> None:
                ui.page_scroll.by(step)

        @kb.add("escape", filter=learning)
        @kb.add("q", filter=learning)
        def _learn_leave(event: KeyPressEvent) -> None:
            ui.screen = Screen.LOBBY

        # saved games
        @kb.add("up", filter=saved_screen)
        def _saved_up(event: KeyPressEvent) -> None:
            if ui.saved_files:
                ui.saved_index = (ui.saved_index - 1) % len(ui.saved_files)

        @kb.add("down", filter=saved_screen)
        def _saved_down(event: KeyPressEvent) -> None:
            if ui.saved_files:
                ui.saved_index = (ui.saved_index + 1) % len(ui.saved_files)

        for key, step in (("pageup", -10), ("pagedown", 10)):

            @kb.add(key, filter=saved_screen)
            def _saved_scroll(event: KeyPressEvent, step: int = step) -> None:
                ui.page_scroll.by(step)

        @kb.add("enter", filter=saved_screen)
        def _saved_verify(event: KeyPressEvent) -> None:
            self.verify_selected_saved()

        @kb.add("escape", filter=saved_screen)
        @kb.add("q", filter=saved_screen)
        def _saved_back(event: KeyPressEvent) -> None:
            ui.screen = Screen.LOBBY

        return kb

    # --- running ---------------------------------------------------------------------------

    async def _start_lobby(self, source: LobbySource) -> None:
        where = ", ".join(self.config.interfaces) if self.config.interfaces else _("the LAN")
        self.ui.lobby_status = _("Looking for tables on {where}...").format(where=where)
        try:
            await source.start(self.set_lobby)
        except Exception as exc:
            self.ui.lobby_status = _("Discovery is off: {reason}").format(reason=exc)
        self.app.invalidate()

    async def run_async(self) -> int:
        """Run the app until the user quits; starts and stops discovery around it."""
        source = self.config.lobby_source
        if source is not None:
            # Discovery (zeroconf's import and sockets) starts once the lobby is on the screen.
            def first_frame(_: object) -> None:
                self.app.after_render -= first_frame
                self._spawn(self._start_lobby(source))

            self.app.after_render += first_frame
        else:
            self.ui.lobby_status = _("Network discovery is not available in this build.")
        if self.config.initial_table is not None:
            self.open_table(self.config.initial_table(self.config))
        try:
            result = await self.app.run_async()
        finally:
            if self._release is not None:
                self._release.cancel()
            if self.backend is not None:
                await self.backend.close()
            if source is not None:
                await source.close()
            for task in list(self._tasks):
                task.cancel()
            for task in list(self._tasks):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        return int(result or 0)
