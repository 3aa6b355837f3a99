"""The full-screen terminal client: layout, key bindings, style, then the ``Application``.

``ClientApp`` holds the UI state and the current table backend; the layout reads them through
small callables, so every redraw shows the current state. Screens: lobby, host form, table,
learn mode and saved games, with help, last-trick, verification and quit-confirm panels on top.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.data_structures import Point
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

from briscola_lan.rules import MatchFormat, OptionsError, Suit
from briscola_lan.tui import render
from briscola_lan.tui.backend import PracticeBackend, TableBackend
from briscola_lan.tui.learn import LEARN_INTRO, LEARN_TRICKS, LEARN_TRUMP, describe
from briscola_lan.tui.saved import games_dir, list_saved, verify_saved
from briscola_lan.tui.state import AI_LEVELS, HostForm, LobbyEntry, Screen, TableModel, UiState

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
    ai_delay: float = 0.5
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


class ClientApp:
    """The terminal client: one instance per run (tests build one per test)."""

    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self.ui = UiState(ascii_only=config.ascii_only, player_name=config.name)
        self.ui.form.table_name = f"{config.name}'s table"
        self.ui.form.fillers = [config.ai_level] * 3
        self.model = TableModel()
        self.backend: TableBackend | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
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

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            self.model.add_log(f"! {type(exc).__name__}: {exc}")
            self.ui.lobby_status = f"Error: {exc}"
            self.app.invalidate()

    def invalidate(self) -> None:
        self._clamp_card()
        self.app.invalidate()

    def _clamp_card(self) -> None:
        n = len(self.model.hand)
        if n == 0:
            self.ui.card_index = 0
        elif self.ui.card_index >= n:
            self.ui.card_index = n - 1

    @property
    def mid_match(self) -> bool:
        return self.ui.screen is Screen.TABLE and self.model.started and not self.model.match_over

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
        self._spawn(backend.start())
        self.invalidate()

    def practice(self, players: int = 2, title: str = "Practice vs AI") -> None:
        """Play against AI players on this machine right away."""
        form = HostForm(table_name=title, players=players, fillers=[self.config.ai_level] * 3)
        self.start_form_table(form, title=title)

    def start_form_table(self, form: HostForm, title: str | None = None) -> None:
        try:
            options = form.options()
        except OptionsError as exc:
            form.error = str(exc)
            return
        fillers = form.seat_fillers()
        if self.config.host_factory is not None:
            practice = title is not None
            self.open_table(self.config.host_factory(form, self.config, practice))
            return
        if "open" in fillers:
            form.error = "Open seats need a network table, which this build cannot host."
            return
        backend = PracticeBackend(
            options,
            self.config.name,
            fillers,
            delay=self.config.ai_delay,
            ascii_only=self.ui.ascii_only,
            title=title or form.table_name,
        )
        self.open_table(backend)

    def leave_table(self) -> None:
        backend = self.backend
        self.backend = None
        if backend is not None:
            backend.listener = None
            self._spawn(backend.close())
        self.model = TableModel()
        self.ui.screen = Screen.LOBBY
        self.ui.confirm_quit = False

    def play_selected(self) -> None:
        if self.backend is None or not self.model.hand:
            return
        if not self.model.my_turn:
            self.model.error = "Not your turn yet."
            return
        self._clamp_card()
        card = self.model.hand[self.ui.card_index]
        self.backend.play(card)
        self._clamp_card()

    def click_card(self, index: int) -> None:
        if self.ui.screen is Screen.TABLE and index < len(self.model.hand):
            self.ui.card_index = index
            self.play_selected()
            self.invalidate()

    def next_hand(self) -> None:
        if self.backend is not None and self.model.hand_over:
            if self.model.match_over:
                self.leave_table()
            else:
                self.ui.show_verify_details = False
                self.backend.next_hand()

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
            self.ui.lobby_status = "No table to join yet: press a to play against AI, h to host."
            return
        entry = self.ui.lobby[self.ui.lobby_index]
        if self.config.join_factory is None:
            self.ui.lobby_status = "Joining needs the network client, which this build lacks."
            return
        self.open_table(self.config.join_factory(entry, self.config))

    def set_lobby(self, entries: list[LobbyEntry]) -> None:
        """Replace the lobby list (called by discovery as tables appear, fill up and vanish)."""
        current = self.ui.lobby[self.ui.lobby_index].key if self.ui.lobby else None
        self.ui.lobby = list(entries)
        keys = [e.key for e in entries]
        self.ui.lobby_index = keys.index(current) if current in keys else 0
        n = len(entries)
        self.ui.lobby_status = f"{n} table{'s' if n != 1 else ''} found. Updating live."
        self.app.invalidate()

    def open_saved(self) -> None:
        directory = self.config.games or games_dir()
        self.ui.saved_files = [str(p) for p in list_saved(directory)]
        self.ui.saved_index = 0
        self.ui.saved_report = [] if self.ui.saved_files else [f"No saved games in {directory}"]
        self.ui.screen = Screen.SAVED

    def verify_selected_saved(self) -> None:
        if not self.ui.saved_files:
            return
        path = Path(self.ui.saved_files[self.ui.saved_index])
        _ok, verdict, lines = verify_saved(path)
        head = f"{path.name}: {verdict}"
        self.ui.saved_report = [head, *lines]

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

        title_bar = _text(self._title, height=1, style="class:title")
        hint_bar = _text(self._hints, height=1)

        lobby = HSplit(
            [
                _box(
                    "Tables on the network",
                    _text(lambda: render.lobby_lines(self.ui), wrap_lines=False),
                    a,
                    height=D(min=4, weight=1),
                ),
                _text(lambda: [("", self.ui.lobby_status)], height=1),
                _box(
                    "Menu",
                    _text(self._lobby_menu),
                    a,
                    height=D.exact(7),
                ),
            ]
        )
        form = _box(
            "Host a table",
            _text(lambda: render.form_lines(self.ui.form, a), wrap_lines=True),
            a,
        )
        self._log_window = Window(
            FormattedTextControl(
                lambda: render.log_lines(self.model),
                get_cursor_position=self._log_end,
                show_cursor=False,
            ),
            wrap_lines=True,
        )
        self._table_window = _text(self._table_text, wrap_lines=True)
        table = HSplit(
            [
                VSplit(
                    [
                        _box(
                            "Players",
                            _text(self._players_text, wrap_lines=False),
                            a,
                            width=D(min=30, preferred=36, max=40),
                        ),
                        _box("Table", self._table_window, a),
                    ],
                    height=self._top_height,
                ),
                _box(
                    "Your hand",
                    _text(self._hand_text),
                    a,
                    height=lambda: D.exact(7 if self.model.partner_shown else 6),
                ),
                _box("Log", self._log_window, a, height=D(min=3, weight=1)),
            ]
        )
        learn = _box("Learn Briscola", _text(self._learn_text, wrap_lines=True), a)
        saved = _box(
            lambda: f"Saved games in {self.config.games or games_dir()}",
            _text(self._saved_text, wrap_lines=True),
            a,
        )
        body = HSplit(
            [
                title_bar,
                ConditionalContainer(lobby, filter=on(Screen.LOBBY)),
                ConditionalContainer(form, filter=on(Screen.HOST_FORM)),
                ConditionalContainer(table, filter=on(Screen.TABLE)),
                ConditionalContainer(learn, filter=on(Screen.LEARN)),
                ConditionalContainer(saved, filter=on(Screen.SAVED)),
                hint_bar,
            ]
        )

        def panel(
            title: str, fn: Callable[[], StyleAndTextTuples], cond: Callable[[], bool], w: int
        ) -> Float:
            box = ConditionalContainer(
                _box(title, _text(fn, wrap_lines=True, style="class:panel"), a, width=w),
                filter=Condition(cond),
            )
            if w >= 60:  # wide panels span the screen: no table text peeks out at their sides
                return Float(box, left=0, right=0)
            return Float(box)

        floats = [
            panel("Keys", lambda: render.help_lines(self.ui), lambda: ui.show_help, 46),
            panel(
                "Last trick",
                self._last_trick_text,
                lambda: ui.show_last_trick and ui.screen is Screen.TABLE and not ui.show_help,
                44,
            ),
            panel(
                "Deal verification",
                self._verify_text,
                lambda: ui.show_verify_details and ui.screen is Screen.TABLE,
                70,
            ),
            panel(
                "Leave the match?",
                self._confirm_text,
                lambda: ui.confirm_quit,
                48,
            ),
        ]
        return Layout(FloatContainer(body, floats=floats))

    # --- text callables --------------------------------------------------------------------

    def _confirm_text(self) -> StyleAndTextTuples:
        what = "Leave it?" if self.ui.quit_to_lobby else "Quit the game?"
        out: StyleAndTextTuples = [("class:bold", f"The match is not over. {what} (y/n)")]
        if self.backend is not None and self.backend.hosting and self._other_humans():
            out.append(("class:error", "\nYou host this table: it closes for everyone."))
        return out

    def _other_humans(self) -> bool:
        return any(
            s.occupied and not s.is_ai and s.seat != self.model.my_seat for s in self.model.seats
        )

    def _title(self) -> StyleAndTextTuples:
        if self.ui.screen is Screen.TABLE:
            return render.title_text(self.model, self.ui)
        names = {
            Screen.LOBBY: "Lobby",
            Screen.HOST_FORM: "Host a table",
            Screen.LEARN: "Learn",
            Screen.SAVED: "Saved games",
        }
        sep = " - " if self.ui.ascii_only else " · "
        return [
            ("class:title", f" Briscola LAN{sep}{names[self.ui.screen]}{sep}{self.config.name}")
        ]

    def _hints(self) -> StyleAndTextTuples:
        s = self.ui.screen
        if self.ui.confirm_quit:
            text = "y: yes, leave   n: no, keep playing"
        elif s is Screen.LOBBY:
            text = "a: play vs AI  h: host  Enter: join  l: learn  s: saved  ?: keys  q: quit"
        elif s is Screen.HOST_FORM:
            text = "Up/Down: field  Left/Right: change  type: name  Enter: start  Esc: back"
        elif s is Screen.TABLE:
            model = self.model
            if model.connection == "closed" and not model.started:
                text = "not connected  Esc: back to the lobby  q: quit"
            elif not model.seated and model.connection == "connecting":
                text = "connecting...  Esc: back to the lobby  q: quit"
            elif not model.seated:
                text = "not seated  Esc: back to the lobby  q: quit"
            elif model.waiting and not model.hand_over and model.can_fill_ai:
                text = "waiting for players  f: fill open seats with AI  ?: keys  Esc: leave"
            elif model.waiting and not model.hand_over:
                text = "waiting for the table  ?: keys  Esc: leave  q: quit"
            elif model.hand_over and model.match_over:
                text = "match over  Esc: lobby  v: deal verification  l: last trick  q: quit"
            elif model.hand_over:
                text = "n: next hand  v: deal verification  l: last trick  ?: keys  q: quit"
            else:
                text = "Left/Right/1-3: card  Enter: play  l: last trick  ?: keys  q: quit"
        elif s is Screen.LEARN:
            text = "Right/Enter: next  Left: back  Esc: lobby"
        else:
            text = "Up/Down: choose  Enter: verify  Esc: back"
        return [("class:dim", " " + text)]

    def _lobby_menu(self) -> StyleAndTextTuples:
        return [
            ("class:bold", " a "), ("", "Play against AI now (on this machine)\n"),
            ("class:bold", " h "), ("", "Host a table on the network\n"),
            ("class:bold", " Enter "), ("", "Join the selected table\n"),
            ("class:bold", " l "), ("", "Learn: four example tricks, then practice   "),
            ("class:bold", " s "), ("", "Saved games"),
        ]  # fmt: skip

    def _log_end(self) -> Point:
        """The end of the last log line: the log window scrolls to keep it in view."""
        lines = self.model.log[-200:]
        return Point(len(lines[-1]) if lines else 0, max(0, len(lines) - 1))

    def _top_height(self) -> D:
        players = len(self.model.seats) + (1 if self.model.players == 4 else 0)
        players += self.model.options.sides + 1
        if self.model.hand_over:
            table = 7 + self.model.options.sides
        else:
            table = 4 + self.model.players  # briscola, trick rows, last trick, turn, error
        size = self.app.output.get_size()
        waiting = self.model.waiting
        if waiting and not self.model.started:  # a long reason (a refused certificate) in full
            width = max(20, size.columns - 40)
            text = len(waiting) + len(self.model.error or "")
            table = max(table, -(-text // width) + 1)
            table = min(table, max(4 + self.model.players, size.rows - 15))
        return D.exact(max(players, table) + 2)

    def _players_text(self) -> StyleAndTextTuples:
        out = render.seat_lines(self.model, self.ui.ascii_only)
        out.extend(render.score_lines(self.model))
        return out

    def _table_text(self) -> StyleAndTextTuples:
        info = self._table_window.render_info
        width = info.window_width if info else None
        return render.table_lines(self.model, self.ui, width, self._own_verdict())

    def _own_verdict(self) -> str | None:
        """What my own record says of the shown hand when the host blamed my seat (a network
        table's session keeps it per hand: "your reveal was received at ...")."""
        res = self.model.last_result
        session = getattr(self.backend, "session", None)
        if res is None or session is None:
            return None
        checks = [c for c in session.state.checks if c.hand == res.number]
        return checks[-1].own_verdict if checks else None

    def _hand_text(self) -> StyleAndTextTuples:
        return render.hand_lines(self.model, self.ui, on_click=self.click_card)

    def _last_trick_text(self) -> StyleAndTextTuples:
        lt = self.model.last_trick
        if lt is None:
            return [("", "No trick has been taken yet in this hand.")]
        out: StyleAndTextTuples = []
        for seat, card in lt.plays:
            out.append(("", f"{self.model.who(seat):<16} "))
            out.append(render.card_frag(card, self.ui.ascii_only, "class:bold"))
            out.append(("", "\n"))
        out.append(("class:bold", f"Taken by {self.model.who(lt.winner)} for {lt.points} points"))
        return out

    def _verify_text(self) -> StyleAndTextTuples:
        res = self.model.last_result
        if res is None or res.verification is None:
            return [("", "No verification result yet.")]
        v = res.verification
        out: StyleAndTextTuples = [
            (
                "class:bad" if v.ok is False else "class:good",
                {True: "VERIFIED: ", False: "FAILED: ", None: ""}[v.ok] + v.summary,
            ),
            ("", "\n"),
        ]
        if v.fault_seat is not None:
            who = "the host" if v.fault_seat < 0 else self.model.who(v.fault_seat)
            if v.fault_also_host and v.fault_seat >= 0:
                who = f"the host or {who} (this record cannot tell them apart)"
            out.append(("class:bad", f"At fault: {who}\n"))
        for line in v.details:
            out.append(("", line + "\n"))
        out.append(("class:dim", "Esc or v to close."))
        return out

    def _learn_text(self) -> StyleAndTextTuples:
        a = self.ui.ascii_only
        step = self.ui.learn_step
        out: StyleAndTextTuples = []
        if step == 0:
            for line in LEARN_INTRO:
                out.append(("", line + "\n"))
            out.append(("", "\nIn the four example tricks below, "))
            out.append((render.SUIT_STYLE[LEARN_TRUMP], render.suit_text(LEARN_TRUMP, a)))
            out.append(("", " are the briscola.\n\n"))
            out.append(("class:turn", "Press Right or Enter to see the first trick."))
            return out
        if step <= len(LEARN_TRICKS):
            trick = LEARN_TRICKS[step - 1]
            out.append(("class:bold", f"Trick {step} of {len(LEARN_TRICKS)}   "))
            out.append(("", "Briscola: "))
            out.append((render.SUIT_STYLE[LEARN_TRUMP], render.suit_text(LEARN_TRUMP, a) + "\n\n"))
            out.append(("", "You lead         "))
            out.append(render.card_frag(trick.led, a, "class:bold"))
            out.append(("", "\nOpponent answers "))
            out.append(render.card_frag(trick.answered, a, "class:bold"))
            out.append(("", "\n\n"))
            out.append(("class:good", describe(trick, a) + "\n"))
            out.append(("", trick.lesson + "\n\n"))
            out.append(("class:turn", "Press Right or Enter to continue."))
            return out
        out.append(("", "That is all you need. Now play a practice game against an AI.\n\n"))
        out.append(("class:turn", "Press Enter to start the practice game, Esc for the lobby."))
        return out

    def _saved_text(self) -> StyleAndTextTuples:
        out: StyleAndTextTuples = []
        for i, name in enumerate(self.ui.saved_files):
            sel = i == self.ui.saved_index
            out.append(
                ("class:selected" if sel else "", f"{'>' if sel else ' '} {Path(name).name}\n")
            )
        if self.ui.saved_report:
            out.append(("", "\n"))
            for line in self.ui.saved_report:
                out.append(("", line + "\n"))
        return out

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
        table = screen_is(Screen.TABLE) & Condition(lambda: not ui.show_verify_details)
        learn = screen_is(Screen.LEARN)
        saved = screen_is(Screen.SAVED)
        confirming = Condition(lambda: ui.confirm_quit)
        helping = Condition(lambda: ui.show_help)
        on_name = form & Condition(lambda: render.form_rows(ui.form)[ui.form.row] == "name")

        @kb.add("c-c")
        def _ctrl_c(event: KeyPressEvent) -> None:
            self.request_quit(to_lobby=False)

        @kb.add("?", filter=~confirming & ~on_name)
        def _help(event: KeyPressEvent) -> None:
            ui.show_help = not ui.show_help

        @kb.add("escape", filter=helping)
        def _close_help(event: KeyPressEvent) -> None:
            ui.show_help = False

        @kb.add("y", filter=confirming)
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

        # table
        @kb.add("left", filter=table)
        def _card_left(event: KeyPressEvent) -> None:
            if self.model.hand:
                ui.card_index = (ui.card_index - 1) % len(self.model.hand)

        @kb.add("right", filter=table)
        def _card_right(event: KeyPressEvent) -> None:
            if self.model.hand:
                ui.card_index = (ui.card_index + 1) % len(self.model.hand)

        for digit in "123456789":

            @kb.add(digit, filter=table)
            def _card_digit(event: KeyPressEvent) -> None:
                i = int(event.data) - 1
                if i < len(self.model.hand):
                    ui.card_index = i

        @kb.add("enter", filter=table)
        @kb.add("space", filter=table)
        def _play(event: KeyPressEvent) -> None:
            if not self.model.hand_over:
                self.play_selected()

        @kb.add("n", filter=table)
        def _next(event: KeyPressEvent) -> None:
            self.next_hand()

        @kb.add("f", filter=table)
        def _fill(event: KeyPressEvent) -> None:
            if self.backend is not None:
                self.backend.fill_open_seats()

        @kb.add("l", filter=table)
        def _last(event: KeyPressEvent) -> None:
            ui.show_last_trick = not ui.show_last_trick

        @kb.add("v", filter=screen_is(Screen.TABLE))
        def _verify(event: KeyPressEvent) -> None:
            ui.show_verify_details = not ui.show_verify_details and self.model.hand_over

        @kb.add("escape", filter=screen_is(Screen.TABLE))
        def _table_escape(event: KeyPressEvent) -> None:
            if ui.show_verify_details:
                ui.show_verify_details = False
            elif ui.show_last_trick:
                ui.show_last_trick = False
            else:
                self.request_quit(to_lobby=True)

        @kb.add("q", filter=screen_is(Screen.TABLE))
        def _table_quit(event: KeyPressEvent) -> None:
            self.request_quit(to_lobby=False)

        # learn
        @kb.add("right", filter=learn)
        @kb.add("enter", filter=learn)
        @kb.add("space", filter=learn)
        def _learn_next(event: KeyPressEvent) -> None:
            if ui.learn_step > len(LEARN_TRICKS):
                self.practice(title="Practice after the lesson")
            else:
                ui.learn_step += 1

        @kb.add("left", filter=learn)
        def _learn_back(event: KeyPressEvent) -> None:
            ui.learn_step = max(0, ui.learn_step - 1)

        @kb.add("escape", filter=learn)
        @kb.add("q", filter=learn)
        def _learn_leave(event: KeyPressEvent) -> None:
            ui.screen = Screen.LOBBY

        # saved games
        @kb.add("up", filter=saved)
        def _saved_up(event: KeyPressEvent) -> None:
            if ui.saved_files:
                ui.saved_index = (ui.saved_index - 1) % len(ui.saved_files)

        @kb.add("down", filter=saved)
        def _saved_down(event: KeyPressEvent) -> None:
            if ui.saved_files:
                ui.saved_index = (ui.saved_index + 1) % len(ui.saved_files)

        @kb.add("enter", filter=saved)
        def _saved_verify(event: KeyPressEvent) -> None:
            self.verify_selected_saved()

        @kb.add("escape", filter=saved)
        @kb.add("q", filter=saved)
        def _saved_back(event: KeyPressEvent) -> None:
            ui.screen = Screen.LOBBY

        return kb

    # --- running ---------------------------------------------------------------------------

    async def _start_lobby(self, source: LobbySource) -> None:
        where = ", ".join(self.config.interfaces) if self.config.interfaces else "the LAN"
        self.ui.lobby_status = f"Looking for tables on {where}..."
        try:
            await source.start(self.set_lobby)
        except Exception as exc:
            self.ui.lobby_status = f"Discovery is off: {exc}"
        self.app.invalidate()

    async def run_async(self) -> int:
        """Run the app until the user quits; starts and stops discovery around it."""
        source = self.config.lobby_source
        if source is not None:
            self._spawn(self._start_lobby(source))
        else:
            self.ui.lobby_status = "Network discovery is not available in this build."
        if self.config.initial_table is not None:
            self.open_table(self.config.initial_table(self.config))
        try:
            result = await self.app.run_async()
        finally:
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
