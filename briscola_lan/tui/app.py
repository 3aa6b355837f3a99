"""The full-screen terminal client: layout, key bindings, style, then the ``Application``.

``ClientApp`` holds the UI state and the current table backend and does what the keys ask (its
actions); ``tui/layout.py`` draws its screens through small callables that read that state at
each redraw, ``tui/keys.py`` binds the keys, ``tui/style.py`` gives the colours. Screens: lobby,
host form, table, learn mode and saved games, with help, last-trick, verification, hint,
hand-review and quit-confirm panels on top.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any

from prompt_toolkit.application import Application
from prompt_toolkit.output import ColorDepth

from briscola_lan.net.files import games_dir
from briscola_lan.rules import OptionsError
from briscola_lan.rules.signals import SignalValue
from briscola_lan.tui.bell import MoveBell
from briscola_lan.tui.config import ClientConfig, LobbySource
from briscola_lan.tui.follow import display_order
from briscola_lan.tui.i18n import _, ngettext
from briscola_lan.tui.keys import key_bindings
from briscola_lan.tui.layout import AppLayout
from briscola_lan.tui.state import HostForm, LobbyEntry, Screen, TableModel, UiState
from briscola_lan.tui.style import STYLE

if TYPE_CHECKING:  # loaded when first used (a hint, a table, the saved games): not for the lobby
    from briscola_lan.tui.backend import TableBackend
    from briscola_lan.tui.coach import Coach
    from briscola_lan.tui.saved import SavedList
    from briscola_lan.tui.statsview import StatsView


class ClientApp(AppLayout):
    """The terminal client: one instance per run (tests build one per test)."""

    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self.ui = UiState(ascii_only=config.ascii_only, player_name=config.name)
        self.ui.deck = config.deck
        self.ui.hand_order = config.hand_order
        self.ui.hide_points = config.hide_points
        self.ui.form.table_name = _("{name}'s table").format(name=config.name)
        self.ui.form.fillers = [config.ai_level] * 4
        self.model = TableModel()
        self.backend: TableBackend | None = None
        self._coach: Coach | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._closing: set[asyncio.Task[Any]] = set()  # tables closing: awaited before exit
        self._release: asyncio.TimerHandle | None = None
        self._hand_new_since: float | None = None  # when a trick's pause ran out (loop time)
        # The card under the cursor, and since when it has been there by itself (None: the
        # player put it there, with a key).
        self._slot: tuple[Any, float | None] = (None, None)
        self._summary_for: int | None = None  # the match whose summary came up by itself
        self._bell = MoveBell(config.bell_after, config.bell)
        self.saved_games: SavedList | None = None  # the saved games' screen, once opened
        self.stats_view: StatsView | None = None  # the statistics screen, once opened
        self.exit_code = 0
        self.app: Application[int] = Application(
            layout=self._layout(),
            key_bindings=key_bindings(self),
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

    def _spawn_close(self, backend: TableBackend) -> None:
        """Close ``backend`` (its table hosted here, if any, with it), then list again the
        matches that can be continued: the one just left may be one of them. Quitting waits
        for it."""

        async def close() -> None:
            await backend.close()
            await self.refresh_kept()

        task = asyncio.get_running_loop().create_task(close())
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)

    async def refresh_kept(self) -> None:
        """The unfinished matches of the tables hosted here, for the lobby's ``c``."""
        source = self.config.kept_source
        if source is None:
            return
        self.ui.kept = await asyncio.to_thread(source)
        self.app.invalidate()

    def continue_kept(self) -> None:
        """c in the lobby: the latest unfinished match of a table hosted here, continued."""
        if not self.ui.kept or self.config.continue_factory is None:
            self.ui.lobby_status = _("No unfinished match to continue.")
            return
        kept = self.ui.kept.pop(0)
        self.open_table(self.config.continue_factory(kept, self.config))

    def _task_done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            exc = task.exception()
            self.model.add_log(f"! {type(exc).__name__}: {exc}")
            self.ui.lobby_status = _("Error: {error}").format(error=exc)
            self.app.invalidate()

    def invalidate(self) -> None:
        """The backend changed the model: follow the play, then redraw."""
        news = self.backend.take_news() if self.backend is not None else []
        if news and self.ui.follow.see(news):
            self._hold_trick()
        if self._coach is not None or self.model.started:
            self.coach.observe(self.model)
            if self.backend is not None:
                for hand, view, card in self.backend.take_earlier_plays():
                    self.coach.played(view, card, hand)
        self._follow_selection()
        self._summary_at_the_end()
        m = self.model
        if self._bell.check(m.my_turn or m.my_bid or m.my_call, self._now()):
            self.app.output.bell()  # a move falls to the player after a wait
        self.app.invalidate()

    def _summary_at_the_end(self) -> None:
        """The match is over and its last trick seen: its summary comes up, once."""
        if (
            self.model.match_over
            and self.ui.follow.held is None
            and self._summary_for != id(self.model)
        ):
            self._summary_for = id(self.model)
            self.ui.show_summary = True
            self.ui.summary_scroll.home()

    def _now(self) -> float:
        try:
            return asyncio.get_running_loop().time()
        except RuntimeError:
            return 0.0

    def _follow_selection(self) -> None:
        """The cursor stays on the card it was on as the hand changes (a card drawn, the hand
        sorted); when the card under it changes all the same, that card is new to the player."""
        shown = self.shown_hand()
        card = self._slot[0]
        if card is not None and card in shown:
            self.ui.card_index = shown.index(card)
        self._clamp_card()
        now = shown[self.ui.card_index] if shown else None
        if now != card:
            self._slot = (now, self._now())

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

    def look_at_hand(self) -> None:
        """The player moved in the hand: it is on the screen and seen, Enter plays again."""
        self._hand_new_since = None
        shown = self.shown_hand()
        self._clamp_card()
        self._slot = (shown[self.ui.card_index] if shown else None, None)

    def hand_just_shown(self) -> str | None:
        """Why Enter or Space must play nothing now, if it must: the hand came on the screen by
        itself less than ``settle`` seconds ago (a trick's pause ran out), or the card under the
        cursor changed by itself that recently. None: the key may play."""
        settle = self.config.settle
        now = self._now()
        since = self._hand_new_since
        self._hand_new_since = None
        self._follow_selection()
        if since is not None and now - since < settle:
            self._slot = (self._slot[0], None)  # it is on the screen now: the next key plays
            return _("The trick just cleared: look at your hand, then play.")
        changed = self._slot[1]
        if changed is not None and now - changed < settle:
            self._slot = (self._slot[0], None)  # it is on the screen now: the next key plays
            return _("Your hand just changed: look at it, then play.")
        return None

    def release_trick(self) -> bool:
        """The held trick goes (time is up, or a key); True if one was on show."""
        if self._release is not None:
            self._release.cancel()
            self._release = None
        was = self.ui.follow.release()
        if was:
            self._clamp_card()
            self._summary_at_the_end()
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

    # --- actions ---------------------------------------------------------------------------

    def open_table(self, backend: TableBackend) -> None:
        """Switch to the table screen driven by ``backend``."""
        self.backend = backend
        self.model = backend.model
        backend.listener = self.invalidate
        self._bell.reset(self._now())
        self.ui.screen = Screen.TABLE
        self.ui.card_index = 0
        self.ui.show_last_trick = False
        self.ui.show_verify_details = False
        self.ui.show_summary = False
        self.ui.show_hint = False
        self._slot = (None, None)
        self.ui.follow = type(self.ui.follow)()
        self.ui.log_scroll.home()
        self._coach = None  # a new table: a new coach
        self._spawn(backend.start())
        self.invalidate()

    def practice(self, players: int = 2, title: str | None = None) -> None:
        """Play against AI players on this machine right away."""
        title = title or _("Practice vs AI")
        form = HostForm(table_name=title, players=players, fillers=[self.config.ai_level] * 4)
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
        self._spawn_close(backend)
        self.open_table(new)

    def leave_table(self) -> None:
        backend = self.backend
        self.backend = None
        if backend is not None:
            backend.listener = None
            self._spawn_close(backend)
        self.release_trick()
        self.model = TableModel()
        self.ui.screen = Screen.LOBBY
        self.ui.confirm_quit = False
        self.ui.show_review = False
        self.ui.show_hint = False
        self.ui.show_summary = False

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

    def click_card(self, index: int, card: Any = None) -> None:
        """A click on the card drawn at ``index`` plays it (``card``: the card drawn there when
        the screen was drawn; a hand that changed since plays nothing)."""
        if self.ui.screen is Screen.TABLE and index < len(self.model.hand):
            if self.release_trick():
                return
            if card is not None and self.shown_hand()[index] != card:
                self.model.error = _("Your hand just changed: look at it, then play.")
                self.invalidate()
                return
            self.ui.card_index = index
            self.look_at_hand()
            self.play_selected()
            self.invalidate()

    def toggle_summary(self) -> None:
        """The match summary on or off (every hand so far: points, cards taken)."""
        self.ui.show_summary = not self.ui.show_summary
        self.ui.summary_scroll.home()

    def toggle_points(self) -> None:
        """Hide or show the running point count (for the rest of the session)."""
        self.ui.hide_points = not self.ui.hide_points

    def next_hand(self) -> None:
        if self.backend is not None and self.model.hand_over and not self.model.match_over:
            self.ui.show_verify_details = False
            self.ui.show_review = False
            self.backend.next_hand()

    def start_signal(self) -> None:
        """g at a table that allows signals: choose what to tell the partner (1-6, Esc)."""
        model = self.model
        if not model.options.signals or model.players != 4:
            model.error = _("This table does not allow signals between partners.")
        elif not model.started or model.hand_over or model.trump is None:
            model.error = _("No signal now: signals are made while the cards are played.")
        else:
            model.error = None
            self.ui.signalling = True

    def send_signal(self, number: int) -> None:
        """The signal numbered ``number`` (1-6, as the chooser lists them) to the partner."""
        self.ui.signalling = False
        values = list(SignalValue)
        if self.backend is not None and 1 <= number <= len(values):
            self.backend.signal(values[number - 1])

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
        from briscola_lan.tui import coach

        view = backend.current_view()
        if not coach.supports(self.model.options):
            self.coach.hint_text = coach.unsupported_text()
        elif view is None or not self.model.my_turn:
            self.coach.hint_text = _("A hint is for your turn: wait for it.")
        if not coach.supports(self.model.options) or view is None or not self.model.my_turn:
            self.ui.show_hint = True
            return
        self.ui.show_hint = True
        self.coach.hint_text = _("The strong AI is thinking...")

        async def think() -> None:
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
        if entry.phase == "over":
            self.ui.lobby_status = _("The match at {table} is over: choose another table.").format(
                table=entry.name
            )
            return
        if self.config.join_factory is None:
            self.ui.lobby_status = _("Joining needs the network client, which this build lacks.")
            return
        self.open_table(self.config.join_factory(entry, self.config))

    def move_in_lobby(self, step: int) -> None:
        """The cursor to the next table up or down that can be joined (a finished one is
        passed over); it stays where it is when there is none."""
        lobby = self.ui.lobby
        i = self.ui.lobby_index
        for _n in range(len(lobby)):
            i = (i + step) % len(lobby)
            if lobby[i].phase != "over":
                self.ui.lobby_index = i
                return

    def set_lobby(self, entries: list[LobbyEntry]) -> None:
        """Replace the lobby list (called by discovery as tables appear, fill up and vanish).

        The rows stay put under the cursor: the tables already listed keep their order, a new
        one comes at the end, and the cursor stays on its table (or, when that one is gone, on
        the row where it was); it never rests on a finished table while another can be joined."""
        old = self.ui.lobby
        current = old[self.ui.lobby_index].key if old else None
        by_key = {e.key: e for e in entries}
        kept = [by_key[e.key] for e in old if e.key in by_key]
        known = {e.key for e in kept}
        self.ui.lobby = kept + [e for e in entries if e.key not in known]
        keys = [e.key for e in self.ui.lobby]
        if current in keys:
            self.ui.lobby_index = keys.index(current)
        else:
            self.ui.lobby_index = min(self.ui.lobby_index, max(0, len(keys) - 1))
        if self.ui.lobby and self.ui.lobby[self.ui.lobby_index].phase == "over":
            self.move_in_lobby(1)
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

    def open_stats(self) -> None:
        """The statistics screen: the saved games are verified in a thread meanwhile."""
        from briscola_lan.tui.statsview import StatsView

        directory = self.config.games or games_dir()
        if self.config.identity is not None:
            me = [self.config.identity.public_key]
        else:
            from briscola_lan.stats_read import my_keys

            me = my_keys()
        self.ui.page_scroll.home()
        self.ui.screen = Screen.STATS
        self.stats_view = StatsView(directory, me)
        self._spawn(self.stats_view.fill(self.app.invalidate))

    def verify_selected_saved(self) -> None:
        if not self.ui.saved_files:
            return
        path = Path(self.ui.saved_files[self.ui.saved_index])
        from briscola_lan.tui import saved

        _ok, verdict, lines = saved.verify_saved(path)
        head = f"{path.name}: {verdict}"
        self.ui.saved_report = [head, *lines]
        self.ui.page_scroll.home()

    # --- running ---------------------------------------------------------------------------

    async def _start_lobby(self, source: LobbySource) -> None:
        if self.config.interfaces:
            where = ", ".join(self.config.interfaces)
            self.ui.lobby_status = _("Looking for tables on {where}...").format(where=where)
        else:  # one sentence, not "the LAN" put in one: Italian joins "su la" into "sulla"
            self.ui.lobby_status = _("Looking for tables on the LAN...")
        try:
            await source.start(self.set_lobby)
        except Exception as exc:
            from briscola_lan.tui.discovery_off import discovery_reason

            reason = discovery_reason(exc)
            self.ui.lobby_status = _("Discovery is off: {reason}").format(reason=reason)
        self.app.invalidate()

    async def run_async(self) -> int:
        """Run the app until the user quits; starts and stops discovery around it."""
        source = self.config.lobby_source

        # Discovery (zeroconf's import and sockets) and the unfinished matches' list start
        # once the lobby is on the screen.
        def first_frame(_: object) -> None:
            self.app.after_render -= first_frame
            self._spawn(self.refresh_kept())
            if source is not None:
                self._spawn(self._start_lobby(source))

        self.app.after_render += first_frame
        if source is None:
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
            if self._closing:  # a table hosted here closes whole: its journal, its folder
                await asyncio.wait(list(self._closing), timeout=10)
            if source is not None:
                await source.close()
            for task in list(self._tasks):
                task.cancel()
            for task in list(self._tasks):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            from briscola_lan.tui.coach_judge import JUDGE  # light: no AI loaded by it

            JUDGE.close()  # the review's worker process, if it was started
        return int(result or 0)
