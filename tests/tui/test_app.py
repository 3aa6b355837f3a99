"""The client's flows headless: keys into a pipe, DummyOutput, assertions on the app's state."""

from __future__ import annotations

import asyncio
from pathlib import Path

from prompt_toolkit.data_structures import Point
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from briscola_lan.rules import MatchFormat, Suit
from briscola_lan.tui import learn, render, render_menus, render_table
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.deck import Deck
from briscola_lan.tui.learn import LEARN_TRICKS
from briscola_lan.tui.state import LobbyEntry, Screen

from .helpers import DOWN, ENTER, ESC, LEFT, RIGHT, Driver, running, wait_for


def _lines(frags: render.Frag) -> list[str]:
    return "".join(f[1] for f in frags).splitlines()


async def _play_out_hand(d: Driver) -> None:
    """Press Enter whenever it is my turn until the hand is over."""
    m = d.client

    async def step() -> None:
        while not m.model.hand_over:
            if m.model.my_turn:
                before = m.model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: m.model.changes > b, what="my card to be played")
            else:
                await asyncio.sleep(0.005)

    await asyncio.wait_for(step(), 20)


async def test_play_vs_ai_with_one_key_and_finish_a_hand() -> None:
    async with running() as d:
        assert d.client.ui.screen is Screen.LOBBY
        await d.keys("a")
        await wait_for(lambda: d.client.model.started, what="the deal")
        m = d.client.model
        assert d.client.ui.screen is Screen.TABLE
        assert m.players == 2 and len(m.hand) == 3
        assert m.upcard is not None and m.trump == m.upcard.suit
        assert m.stock_left == 40 - 6
        await _play_out_hand(d)
        res = m.last_result
        assert res is not None
        assert sum(res.points) == 120
        assert sum(m.tricks_won) == 20
        assert res.verification is not None and res.verification.ok is None
        assert sum(m.hands_won) == (1 if res.winner is not None else 0)
        # the next hand starts on n, not on a stray Enter
        await d.keys(ENTER)
        assert m.hand_over
        await d.keys("n")
        await wait_for(lambda: not m.hand_over, what="the next hand")
        assert m.hand_number == 1 and len(m.hand) == 3


async def test_choose_card_with_digits_and_arrows() -> None:
    async with running() as d:
        await d.keys("a")
        await wait_for(lambda: d.client.model.my_turn, what="my turn")
        ui = d.client.ui
        await d.keys("3")
        assert ui.card_index == 2
        await d.keys(RIGHT)
        assert ui.card_index == 0
        await d.keys(LEFT, LEFT)
        assert ui.card_index == 1
        chosen = d.client.shown_hand()[1]
        await d.keys(ENTER)
        await wait_for(lambda: chosen not in d.client.model.hand, what="the play")
        played = [
            c
            for t in ([d.client.model.last_trick] if d.client.model.last_trick else [])
            for _, c in t.plays
        ] + [c for _, c in d.client.model.trick]
        assert chosen in played


async def test_click_a_card_plays_it() -> None:
    async with running() as d:
        await d.keys("a")
        await wait_for(lambda: d.client.model.my_turn, what="my turn")
        frags = render_table.hand_lines(d.client.model, d.client.ui, on_click=d.client.click_card)
        target = d.client.shown_hand()[2]
        label = target.label()
        handlers = [f[2] for f in frags if len(f) == 3 and f[1].strip() == label]
        assert len(handlers) == 1, "each card face must carry a mouse handler"
        handlers[0](MouseEvent(Point(0, 0), MouseEventType.MOUSE_UP, MouseButton.LEFT, frozenset()))
        await wait_for(lambda: target not in d.client.model.hand, what="the click to play")


async def test_quit_mid_match_asks_first() -> None:
    async with running() as d:
        await d.keys("a")
        await wait_for(lambda: d.client.model.started, what="the deal")
        await d.keys("q")
        assert d.client.ui.confirm_quit
        await d.keys("n")
        assert not d.client.ui.confirm_quit
        assert d.client.ui.screen is Screen.TABLE and not d.task.done()
        await d.keys(ESC)
        assert d.client.ui.confirm_quit
        await d.keys("y")
        assert d.client.ui.screen is Screen.LOBBY
        await d.keys("q")
        code = await asyncio.wait_for(d.task, 5)
        assert code == 0


async def test_host_form_three_players_sets_every_option() -> None:
    async with running(
        ClientConfig(name="Tess", ai_level="rules", ai_delay=0.0, trick_pause=0.0, settle=0.0)
    ) as d:
        ui = d.client.ui
        await d.keys("h")
        assert ui.screen is Screen.HOST_FORM
        # type a table name on the first row
        await d.keys("\x7f" * 40, "Kitchen")
        assert ui.form.table_name == "Kitchen"
        await d.keys(DOWN, RIGHT)  # players 2 -> 3
        assert ui.form.players == 3
        rows = render_menus.form_rows(ui.form)
        assert "two" in rows and "format" not in rows and "exchange" not in rows
        await d.keys(DOWN, RIGHT, RIGHT)  # removed 2: coins -> swords
        assert ui.form.removed_two is Suit.SWORDS
        await d.keys(DOWN, " ")  # draw the first dealer: on
        assert ui.form.draw_dealer is True
        await d.keys(DOWN, RIGHT)  # seat 1: rules -> strong
        assert ui.form.fillers[0] == "strong"
        await d.keys(DOWN, LEFT, LEFT, LEFT)  # seat 2: rules -> random -> open -> strong
        assert ui.form.fillers[1] == "strong"
        await d.keys(LEFT, LEFT)  # strong -> rules -> random
        assert ui.form.fillers[1] == "random"
        await d.keys(ENTER)
        await wait_for(lambda: d.client.model.started, what="the table")
        opts = d.client.model.options
        assert opts.players == 3 and opts.match_format is MatchFormat.POINTS
        assert opts.removed_two is Suit.SWORDS
        assert opts.deck_size == 39
        assert d.client.model.title == "Kitchen"
        assert [s.level for s in d.client.model.seats[1:]] == ["strong", "random"]


async def test_host_form_four_players_exchange_and_hands() -> None:
    async with running() as d:
        ui = d.client.ui
        await d.keys("h", DOWN, RIGHT, RIGHT)  # players 4
        assert ui.form.players == 4
        await d.keys(DOWN, DOWN, RIGHT, RIGHT)  # hands to win 2 -> 4
        assert ui.form.hands_to_win == 4
        await d.keys(DOWN, " ")  # exchange off
        assert ui.form.partner_exchange is False
        await d.keys(ENTER)
        await wait_for(lambda: d.client.model.started, what="the table")
        opts = d.client.model.options
        assert (opts.players, opts.hands_to_win, opts.partner_exchange) == (4, 4, False)
        assert opts.match_format is MatchFormat.HANDS


async def test_host_form_open_seat_without_network_says_why() -> None:
    cfg = ClientConfig(name="Tess", ai_level="rules", ai_delay=0.0, trick_pause=0.0, settle=0.0)
    async with running(cfg) as d:
        ui = d.client.ui
        assert ui.form.fillers == ["rules"] * 4  # the --ai-level is the form's default
        await d.keys("h", DOWN, DOWN, DOWN, DOWN, DOWN, LEFT, LEFT)  # seat 1: rules, random, open
        assert ui.form.fillers[0] == "open"
        await d.keys(ENTER)
        assert ui.screen is Screen.HOST_FORM
        assert ui.form.error is not None and "network" in ui.form.error


async def test_learn_mode_covers_the_game_then_practice() -> None:
    async with running() as d:
        ui = d.client.ui
        await d.keys("l")
        assert ui.screen is Screen.LEARN
        pages = ["".join(f[1] for f in learn.page_lines(ui))]
        while ui.learn_step < learn.last_step():
            await d.keys(RIGHT)
            pages.append("".join(f[1] for f in learn.page_lines(ui)))
        text = "\n".join(pages)
        # the suit names of the deck shown, then the four tricks judged by the engine
        for name in ("diamonds", "hearts", "spades", "clubs"):
            assert name in pages[1], pages[1]
        tricks = pages[learn.FIRST_TRICK_PAGE : learn.FIRST_TRICK_PAGE + len(LEARN_TRICKS)]
        assert "A♥ wins the trick" in tricks[0] and "21 points" in tricks[0]
        assert "highest heart wins" in tricks[0]
        assert "2♣ wins the trick" in tricks[1] and "4 points" in tricks[1]
        assert "Clubs are the briscola" in tricks[1]
        assert "7♠ wins the trick" in tricks[2] and "3 points" in tricks[2]
        assert "3♣ wins the trick" in tricks[3] and "12 points" in tricks[3]
        # drawing from the stock, the winner leading, the last draw taking the briscola
        assert (
            "Drawing from the stock" in text and "draw first" in text and "Stock left: 32" in text
        )
        assert "The winner leads" in text and "lead now" in text
        assert "The last draw" in text and "the last card drawn was that briscola" in text
        assert "The end of a hand" in text and "61 or more" in text
        await d.keys(LEFT)
        assert ui.learn_step == learn.last_step() - 1
        await d.keys(ENTER, ENTER)
        await wait_for(lambda: d.client.model.started, what="the practice game")
        assert ui.screen is Screen.TABLE and d.client.model.players == 2


async def test_learn_mode_in_the_italian_deck() -> None:
    cfg = ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0,
                       deck=Deck.ITALIAN)  # fmt: skip
    async with running(cfg) as d:
        ui = d.client.ui
        await d.keys("l", RIGHT)
        suits = "".join(f[1] for f in learn.page_lines(ui))
        for name in ("Denari", "Coppe", "Spade", "Bastoni"):
            assert name in suits
        await d.keys(RIGHT, RIGHT)
        trick2 = "".join(f[1] for f in learn.page_lines(ui))
        assert "Bastoni are the briscola" in trick2 and "2⚚ wins the trick" in trick2
        await d.keys(RIGHT, RIGHT)
        trick4 = "".join(f[1] for f in learn.page_lines(ui))
        assert "the order is A 3 R C F 7 6 5 4 2" in trick4


async def test_last_trick_help_and_log() -> None:
    async with running() as d:
        await d.keys("a")
        m = d.client.model
        await wait_for(lambda: m.my_turn, what="my turn")
        await d.keys(ENTER)
        await wait_for(lambda: m.last_trick is not None, what="a finished trick")
        await d.keys("l")
        assert d.client.ui.show_last_trick
        text = "".join(f[1] for f in d.client._last_trick_text())
        assert "Taken by" in text
        await d.keys(ESC)
        assert not d.client.ui.show_last_trick and not d.client.ui.confirm_quit
        await d.keys("?")
        assert d.client.ui.show_help
        await d.keys("?")
        assert not d.client.ui.show_help
        assert any("took the trick" in line for line in m.log)


async def test_lobby_updates_live_and_keeps_selection() -> None:
    """Tables come and go without moving the rows under the cursor: those listed keep their
    order, a new one comes last, the cursor stays on its table; a finished table is passed over
    by the cursor and refused by Enter."""
    async with running() as d:
        c = d.client

        def entry(key: str, seated: int, phase: str = "lobby") -> LobbyEntry:
            return LobbyEntry(key, f"Table {key}", "host", "2p hands:2", seated, 2, 2 - seated,
                              phase=phase)  # fmt: skip

        def keys() -> list[str]:
            return [e.key for e in c.ui.lobby]

        c.set_lobby([entry("b", 1), entry("d", 1)])
        await d.keys(DOWN)
        assert c.ui.lobby[c.ui.lobby_index].key == "d"
        # a table appears before them in name order, and both fill: nothing moves
        c.set_lobby([entry("a", 0), entry("b", 2), entry("d", 2)])
        assert keys() == ["b", "d", "a"] and c.ui.lobby[c.ui.lobby_index].key == "d"
        lines = "".join(f[1] for f in render_menus.lobby_lines(c.ui))
        assert "FULL" in lines and "Table a" in lines
        c.ui.lobby[0].phase = "play"
        assert "Table b" in next(
            ln for ln in _lines(render_menus.lobby_lines(c.ui)) if "playing" in ln
        )
        # the table under the cursor finishes its match: the cursor moves on to one to join
        c.set_lobby([entry("a", 0), entry("b", 2), entry("d", 2, "over")])
        assert keys() == ["b", "d", "a"] and c.ui.lobby[c.ui.lobby_index].key == "a"
        await d.keys(DOWN)  # round to the top
        assert c.ui.lobby[c.ui.lobby_index].key == "b"
        await d.keys(DOWN)  # past the finished table
        assert c.ui.lobby[c.ui.lobby_index].key == "a"
        c.ui.lobby_index = 1  # (a finished table chosen all the same) is refused
        await d.keys(ENTER)
        assert "is over" in c.ui.lobby_status and c.ui.screen is Screen.LOBBY
        c.set_lobby([entry("a", 0)])  # they vanish
        assert c.ui.lobby_index == 0 and keys() == ["a"]
        await d.keys(ENTER)
        assert "network client" in c.ui.lobby_status


async def test_saved_games_screen_lists_and_verifies(tmp_path: Path) -> None:
    (tmp_path / "game1.briscola.json").write_bytes(b"not a transcript")
    (tmp_path / "notes.txt").write_text("not a game")
    cfg = ClientConfig(
        name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0, games=tmp_path
    )
    async with running(cfg) as d:
        await d.keys("s")
        ui = d.client.ui
        assert ui.screen is Screen.SAVED
        assert [Path(p).name for p in ui.saved_files] == ["game1.briscola.json"]
        await d.keys(ENTER)
        assert ui.saved_report[0] == "game1.briscola.json: CANNOT VERIFY"
        assert "not a transcript file" in ui.saved_report[1]
        await d.keys(ESC)
        assert ui.screen is Screen.LOBBY


async def test_match_of_one_hand_ends_and_leaves_without_asking() -> None:
    async with running() as d:
        ui = d.client.ui
        await d.keys("h", DOWN, DOWN, DOWN, LEFT)  # hands to win 2 -> 1
        assert ui.form.hands_to_win == 1
        await d.keys(ENTER)
        await wait_for(lambda: d.client.model.started, what="the deal")
        await _play_out_hand(d)
        m = d.client.model
        res = m.last_result
        assert res is not None
        assert m.match_over == (res.winner is not None)
        if m.match_over:
            text = "".join(f[1] for f in d.client._table_text(70))
            assert "YOU WIN THE MATCH!" in text or "You lose the match:" in text
            assert "r: rematch" in text
            assert ui.show_summary  # the match summary comes up by itself at the end
            await d.keys(ESC)
            assert not ui.show_summary and ui.screen is Screen.TABLE
            hints = "".join(f[1] for f in d.client._hints(100))
            assert "next hand" not in hints and "match over" in hints and "Esc: lobby" in hints
            await d.keys(ESC)
            assert ui.screen is Screen.LOBBY and not ui.confirm_quit
