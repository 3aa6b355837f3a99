"""The client's key bindings: what each key does on each screen and panel, as conditions over
the app's UI state and calls of its actions (``ClientApp``), plus the host form's editing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.keys import Keys

from briscola_lan.choices import AI_LEVELS
from briscola_lan.rules import MatchFormat, Suit
from briscola_lan.rules.options import MAX_MATCH_HANDS
from briscola_lan.tui import render_menus
from briscola_lan.tui.follow import HandOrder
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import HostForm, Screen

if TYPE_CHECKING:
    from briscola_lan.tui.app import ClientApp


def key_bindings(app: ClientApp) -> KeyBindings:
    """Every key of every screen and panel, each bound under the condition where it acts."""
    kb = KeyBindings()
    ui = app.ui

    def screen_is(screen: Screen) -> Condition:
        return Condition(lambda: ui.screen is screen and not ui.confirm_quit and not ui.show_help)

    lobby = screen_is(Screen.LOBBY)
    form = screen_is(Screen.HOST_FORM)
    at_table = screen_is(Screen.TABLE)
    table = at_table & Condition(
        lambda: not ui.show_verify_details and not ui.show_review and not ui.show_summary
    )
    signalling = at_table & Condition(lambda: ui.signalling)
    # five players: my bid, or my call (the card keys choose the bid or the suit then)
    bidding = table & Condition(lambda: app.model.my_bid)
    calling = table & Condition(lambda: app.model.my_call)
    auction = bidding | calling
    choosing = table & ~signalling & ~auction  # a card key acts on the hand, unless...
    reviewing = at_table & Condition(lambda: ui.show_review)
    summing = at_table & Condition(lambda: ui.show_summary)
    held = at_table & Condition(lambda: ui.follow.held is not None)
    learning = screen_is(Screen.LEARN)
    saved_screen = screen_is(Screen.SAVED)
    confirming = Condition(lambda: ui.confirm_quit)
    helping = Condition(lambda: ui.show_help)
    on_name = form & Condition(lambda: render_menus.form_rows(ui.form)[ui.form.row] == "name")

    @kb.add("c-c")
    def _ctrl_c(event: KeyPressEvent) -> None:
        app.request_quit(to_lobby=False)

    @kb.add("?", filter=~confirming)  # (a table name cannot hold a "?": it opens the keys)
    @kb.add("f1", filter=~confirming)
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
        app.confirm_quit(True)

    @kb.add("n", filter=confirming)
    @kb.add("escape", filter=confirming)
    def _no(event: KeyPressEvent) -> None:
        app.confirm_quit(False)

    # lobby
    @kb.add("up", filter=lobby)
    def _lobby_up(event: KeyPressEvent) -> None:
        app.move_in_lobby(-1)

    @kb.add("down", filter=lobby)
    def _lobby_down(event: KeyPressEvent) -> None:
        app.move_in_lobby(1)

    @kb.add("enter", filter=lobby)
    def _lobby_join(event: KeyPressEvent) -> None:
        app.join_selected()

    @kb.add("a", filter=lobby)
    def _lobby_ai(event: KeyPressEvent) -> None:
        app.practice()

    @kb.add("c", filter=lobby)
    def _lobby_continue(event: KeyPressEvent) -> None:
        app.continue_kept()

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
        app.open_saved()

    @kb.add("t", filter=lobby)
    def _lobby_stats(event: KeyPressEvent) -> None:
        app.open_stats()

    @kb.add("q", filter=lobby)
    @kb.add("escape", filter=lobby)
    def _lobby_quit(event: KeyPressEvent) -> None:
        app.exit()

    # host form
    @kb.add("up", filter=form)
    def _form_up(event: KeyPressEvent) -> None:
        ui.form.row = (ui.form.row - 1) % len(render_menus.form_rows(ui.form))

    @kb.add("down", filter=form)
    @kb.add("tab", filter=form)
    def _form_down(event: KeyPressEvent) -> None:
        ui.form.row = (ui.form.row + 1) % len(render_menus.form_rows(ui.form))

    @kb.add("left", filter=form)
    def _form_left(event: KeyPressEvent) -> None:
        change_form(ui.form, -1)

    @kb.add("right", filter=form)
    @kb.add("space", filter=form & ~on_name)
    def _form_right(event: KeyPressEvent) -> None:
        change_form(ui.form, +1)

    @kb.add("enter", filter=form)
    def _form_start(event: KeyPressEvent) -> None:
        app.start_form_table(ui.form)

    @kb.add("escape", filter=form)
    def _form_back(event: KeyPressEvent) -> None:
        ui.screen = Screen.LOBBY

    @kb.add(Keys.Any, filter=on_name)
    def _form_type(event: KeyPressEvent) -> None:
        ch = event.data
        if ch.isprintable() and ch != "?" and len(ui.form.table_name) < 40:
            ui.form.table_name += ch

    @kb.add("backspace", filter=on_name)
    def _form_backspace(event: KeyPressEvent) -> None:
        ui.form.table_name = ui.form.table_name[:-1]

    # table: a completed trick on show goes on any key (which does nothing else then)
    @kb.add(Keys.Any, filter=held)
    def _go_on(event: KeyPressEvent) -> None:
        app.release_trick()

    @kb.add("left", filter=table & ~auction)
    def _card_left(event: KeyPressEvent) -> None:
        if app.release_trick():
            return
        if app.model.hand:
            ui.card_index = (ui.card_index - 1) % len(app.model.hand)
        app.look_at_hand()

    @kb.add("right", filter=table & ~auction)
    def _card_right(event: KeyPressEvent) -> None:
        if app.release_trick():
            return
        if app.model.hand:
            ui.card_index = (ui.card_index + 1) % len(app.model.hand)
        app.look_at_hand()

    for digit in "123456789":

        @kb.add(digit, filter=choosing)
        def _card_digit(event: KeyPressEvent) -> None:
            if app.release_trick():
                return
            i = int(event.data) - 1
            if i < len(app.model.hand):
                ui.card_index = i
            app.look_at_hand()

    @kb.add("enter", filter=choosing)
    @kb.add("space", filter=choosing)
    def _play(event: KeyPressEvent) -> None:
        if app.release_trick():
            return
        why = app.hand_just_shown()  # a card the player has not seen under the cursor
        if why is not None:
            app.model.error = why
            app.model.changes += 1
            return
        if not app.model.hand_over:
            app.play_selected()

    for key, step in (("left", -1), ("right", 1), ("down", -5), ("up", 5)):

        @kb.add(key, filter=bidding)
        def _bid_choose(event: KeyPressEvent, step: int = step) -> None:
            app.release_trick()
            n = len(app.model.legal_bids)
            ui.bid_index = max(0, min(n - 1, ui.bid_index + step))

    @kb.add("enter", filter=bidding)
    @kb.add("space", filter=bidding)
    def _bid(event: KeyPressEvent) -> None:
        from briscola_lan.tui.render_chiamata import chosen_bid

        bid = chosen_bid(app.model, ui)
        if app.backend is not None and bid is not None:
            ui.bid_index = 0
            app.backend.bid(bid)

    @kb.add("x", filter=bidding)
    @kb.add("0", filter=bidding)
    def _pass(event: KeyPressEvent) -> None:
        if app.backend is not None:
            ui.bid_index = 0
            app.backend.bid(None)

    for key, step in (("left", -1), ("right", 1)):

        @kb.add(key, filter=calling)
        def _call_choose(event: KeyPressEvent, step: int = step) -> None:
            ui.call_index = (ui.call_index + step) % 4

    for digit in "1234":

        @kb.add(digit, filter=calling)
        def _call_digit(event: KeyPressEvent) -> None:
            ui.call_index = int(event.data) - 1

    @kb.add("enter", filter=calling)
    @kb.add("space", filter=calling)
    def _call(event: KeyPressEvent) -> None:
        from briscola_lan.tui.render_chiamata import chosen_suit

        if app.backend is not None:
            app.backend.call(chosen_suit(ui))

    @kb.add("n", filter=table)
    def _next(event: KeyPressEvent) -> None:
        app.release_trick()
        app.next_hand()

    @kb.add("r", filter=table)
    def _rematch(event: KeyPressEvent) -> None:
        app.release_trick()
        app.rematch()

    @kb.add("g", filter=choosing)
    def _signal(event: KeyPressEvent) -> None:
        app.release_trick()
        app.start_signal()

    for digit in "123456":

        @kb.add(digit, filter=signalling)
        def _signal_digit(event: KeyPressEvent) -> None:
            app.send_signal(int(event.data))

    @kb.add("escape", filter=signalling)
    @kb.add("g", filter=signalling)
    def _no_signal(event: KeyPressEvent) -> None:
        ui.signalling = False

    @kb.add("h", filter=table)
    def _hint(event: KeyPressEvent) -> None:
        app.release_trick()
        app.ask_hint()

    @kb.add("w", filter=at_table)
    def _review(event: KeyPressEvent) -> None:
        app.release_trick()
        app.show_review()

    @kb.add("m", filter=at_table)
    def _summary(event: KeyPressEvent) -> None:
        app.release_trick()
        app.toggle_summary()

    @kb.add("p", filter=table & ~auction)
    def _points(event: KeyPressEvent) -> None:
        app.release_trick()
        app.toggle_points()

    for key, step in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):

        @kb.add(key, filter=summing)
        def _summary_scroll(event: KeyPressEvent, step: int = step) -> None:
            ui.summary_scroll.by(step)

    @kb.add("n", filter=summing)
    def _summary_next(event: KeyPressEvent) -> None:
        if app.model.match_over:
            return  # (an n meant for the hand just over: the match's summary stays)
        ui.show_summary = False
        app.next_hand()

    @kb.add("r", filter=summing)
    def _summary_rematch(event: KeyPressEvent) -> None:
        ui.show_summary = False
        app.rematch()

    @kb.add("o", filter=table)
    def _order(event: KeyPressEvent) -> None:
        app.release_trick()
        order = ui.hand_order
        ui.hand_order = HandOrder.DEALT if order is HandOrder.SORTED else HandOrder.SORTED
        app.invalidate()  # the cursor stays on its card

    @kb.add("f", filter=table)
    def _fill(event: KeyPressEvent) -> None:
        if app.backend is not None:
            app.backend.fill_open_seats()

    @kb.add("l", filter=table)
    def _last(event: KeyPressEvent) -> None:
        app.release_trick()
        ui.show_last_trick = not ui.show_last_trick

    @kb.add("pageup", filter=table)
    def _log_up(event: KeyPressEvent) -> None:
        app.release_trick()
        ui.log_scroll.pages(-1)

    @kb.add("pagedown", filter=table)
    def _log_down(event: KeyPressEvent) -> None:
        app.release_trick()
        ui.log_scroll.pages(1)

    for key, step in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):

        @kb.add(key, filter=reviewing)
        def _review_scroll(event: KeyPressEvent, step: int = step) -> None:
            ui.page_scroll.by(step)

    @kb.add("v", filter=at_table)
    def _verify(event: KeyPressEvent) -> None:
        app.release_trick()
        ui.show_verify_details = not ui.show_verify_details and app.model.hand_over

    @kb.add("escape", filter=at_table & ~signalling)
    def _table_escape(event: KeyPressEvent) -> None:
        if app.release_trick():
            return
        if ui.show_verify_details:
            ui.show_verify_details = False
        elif ui.show_summary:
            ui.show_summary = False
        elif ui.show_review:
            ui.show_review = False
        elif ui.show_hint:
            ui.show_hint = False
        elif ui.show_last_trick:
            ui.show_last_trick = False
        else:
            app.request_quit(to_lobby=True)

    @kb.add("q", filter=at_table)
    def _table_quit(event: KeyPressEvent) -> None:
        app.release_trick()
        app.request_quit(to_lobby=False)

    # learn
    @kb.add("right", filter=learning)
    @kb.add("enter", filter=learning)
    @kb.add("space", filter=learning)
    def _learn_next(event: KeyPressEvent) -> None:
        from briscola_lan.tui import learn

        if ui.learn_step >= learn.last_step():
            app.practice(title=_("Practice after the lesson"))
        else:
            ui.learn_step += 1
            ui.page_scroll.home()

    @kb.add("5", filter=learning)
    def _learn_five(event: KeyPressEvent) -> None:
        from briscola_lan.tui import learn

        if ui.learn_step >= learn.last_step():
            app.practice(players=5, title=_("Practice after the lesson"))

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

    stats_screen = screen_is(Screen.STATS)
    for key, step in (("up", -1), ("down", 1), ("pageup", -10), ("pagedown", 10)):

        @kb.add(key, filter=stats_screen)
        def _stats_scroll(event: KeyPressEvent, step: int = step) -> None:
            ui.page_scroll.by(step)

    @kb.add("escape", filter=stats_screen)
    @kb.add("q", filter=stats_screen)
    def _stats_back(event: KeyPressEvent) -> None:
        ui.screen = Screen.LOBBY

    @kb.add("enter", filter=saved_screen)
    def _saved_verify(event: KeyPressEvent) -> None:
        app.verify_selected_saved()

    @kb.add("escape", filter=saved_screen)
    @kb.add("q", filter=saved_screen)
    def _saved_back(event: KeyPressEvent) -> None:
        ui.screen = Screen.LOBBY

    return kb


# 5 players: the points a rank bid needs, as the host form offers them (the rules allow 61-120)
TARGETS = (61, 65, 70, 75, 80, 85, 90, 100, 110, 120)


def change_form(form: HostForm, delta: int) -> None:
    """Left (-1) or Right (+1) on the host form's current row: the next choice of that field."""
    form.error = None
    row = render_menus.form_rows(form)[form.row]
    if row == "players":
        form.players = (form.players - 2 + delta) % 4 + 2
    elif row == "target":
        i = TARGETS.index(form.points_to_win) if form.points_to_win in TARGETS else 0
        form.points_to_win = TARGETS[(i + delta) % len(TARGETS)]
    elif row == "double":
        form.double_all = not form.double_all
    elif row == "length":
        form.match_hands = (form.match_hands - 1 + delta) % MAX_MATCH_HANDS + 1
    elif row == "format":
        form.match_format = (
            MatchFormat.POINTS if form.match_format is MatchFormat.HANDS else MatchFormat.HANDS
        )
    elif row == "hands":
        form.hands_to_win = (form.hands_to_win - 1 + delta) % 5 + 1
    elif row == "exchange":
        form.partner_exchange = not form.partner_exchange
    elif row == "signals":
        form.signals = not form.signals
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
