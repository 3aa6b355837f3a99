"""The table as players expect it, headless: seats drawn by position (you at the bottom, your
partner across, opponents at the sides) at 2, 3 and 4 players, whole names, who took the face-up
briscola, the match summary, the running point count hidden, and a play key that acts only on
a card the player has seen."""

from __future__ import annotations

import asyncio

from briscola_lan.rules import ALL_CARDS, Card, Hand, TableOptions
from briscola_lan.tui import render, render_signals, render_table, seating
from briscola_lan.tui.adapters import apply_seat_view
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.state import SeatInfo, TableModel, UiState

from .helpers import DOWN, ENTER, LEFT, Driver, running, screen_of, wait_for


def _text(frags: render.Frag) -> str:
    return "".join(f[1] for f in frags)


def _model(players: int, names: list[str], me: int = 0) -> TableModel:
    opts = TableOptions.make(players=players, match_format="points" if players == 3 else "hands")
    hand = Hand(opts, [c for c in ALL_CARDS if c in set(_deck(opts))], dealer=players - 1)
    while len(hand.view(0).trick) < players - 1:  # every seat but the last has played
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, hand.legal_plays()[0])
    model = TableModel(title="T", my_seat=me)
    model.seats = [SeatInfo(s, n, is_ai=n.startswith("AI"), level="AI:rules")
                   for s, n in enumerate(names)]  # fmt: skip
    apply_seat_view(model, hand.view(me))
    return model


def _deck(opts: TableOptions) -> list[Card]:
    from briscola_lan.rules import deck_for

    return list(deck_for(opts.players, opts.removed_two))


def test_seats_are_drawn_by_position_for_two_three_and_four_players() -> None:
    assert [seating.place_of(s, 0, 2) for s in range(2)] == ["bottom", "top"]
    assert [seating.place_of(s, 0, 3) for s in range(3)] == ["bottom", "left", "right"]
    assert [seating.place_of(s, 0, 4) for s in range(4)] == ["bottom", "left", "top", "right"]
    # seen from seat 2 of 4: seat 0, the partner, is across; seat 3 (next) on the left
    assert [seating.place_of(s, 2, 4) for s in range(4)] == ["top", "right", "bottom", "left"]
    names = ["Ann", "Bea the long-named", "Cid", "Dan"]
    model = _model(4, names, me=0)
    for big, width in ((False, 46), (True, 56)):
        lines = _text(render_table.trick_text(model, UiState(), big, width=width)).splitlines()

        def row(name: str, lines: list[str] = lines) -> int:
            return next(i for i, line in enumerate(lines) if name in line)

        assert row("Cid (partner)") < row("Bea the long-named") < row("You"), lines
        assert row("Bea the long-named") == row("Dan")  # the opponents, side by side
        bea, dan = lines[row("Dan")].index("Bea"), lines[row("Dan")].index("Dan")
        assert bea < dan  # Bea (seat 1, next after me) on my left
    three = _text(
        render_table.trick_text(_model(3, ["Ann", "Bea", "Cid"]), UiState(), False, width=40)
    )
    first = three.splitlines()[0]
    assert first.index("Bea") < first.index("Cid") and "You" in three.splitlines()[-1]
    two = _text(render_table.trick_text(_model(2, ["Ann", "Bea"]), UiState(), False, width=40))
    assert two.index("Bea") < two.index("You")


def test_the_three_player_players_pane_keeps_ai_names_apart_at_every_width() -> None:
    model = _model(3, ["Tess", "AI rules 1", "AI rules 2"])
    for width in range(24, 43):
        ui = UiState()
        lines = _text(
            render_table.seat_lines(model, ui, width) + render_table.score_lines(model, ui, width)
        )
        rows = [ln for ln in lines.splitlines() if ln.strip()]
        assert all(len(r) <= width for r in rows), (width, rows)
        seats = [r for r in rows if r[1:2] in "12" and r[1:2].strip()]
        assert len(seats) == 2 and seats[0][3:] != seats[1][3:], (width, rows)
        assert "AI rules 1" in lines and "AI rules 2" in lines, (width, lines)  # whole names


def test_who_took_the_face_up_briscola_stays_on_the_table() -> None:
    model = _model(2, ["Ann", "Bea"])
    ui = UiState()
    assert "taken by" not in _text(render_table.table_lines(model, ui, 60))
    assert model.upcard is not None
    model.upcard_taken_by, model.stock_left = 1, 0
    text = _text(render_table.table_lines(model, ui, 60))
    assert f"({model.upcard.label()} taken by Bea)" in text, text
    model.upcard_taken_by = 0
    assert f"({model.upcard.label()} taken by you)" in _text(
        render_table.table_lines(model, ui, 60)
    )


async def _play_until(d: Driver, done: object, timeout: float = 30) -> None:
    c = d.client

    async def step() -> None:
        while not done():  # type: ignore[operator]
            if c.model.hand_over and not c.model.match_over:
                await d.keys("n")
            elif c.model.my_turn:
                before = c.model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: c.model.changes > b, what="my card played")
            else:
                await asyncio.sleep(0.005)

    await asyncio.wait_for(step(), timeout)


async def test_the_upcard_taker_in_a_real_game_and_the_match_summary() -> None:
    async with running() as d:
        c = d.client
        await d.keys("h", DOWN, DOWN, DOWN, LEFT, ENTER)  # one hand wins the match
        await wait_for(lambda: c.model.started, what="the deal")
        await _play_until(d, lambda: c.model.upcard_taken_by is not None)
        assert "taken by" in _text(c._table_text(70))
        await d.keys("m")  # the summary, mid-match
        assert c.ui.show_summary
        mid = _text(c._summary().summary_lines(c.model, c.ui))
        assert "No hand has been played to the end yet." in mid and "Hand 1 is being played" in mid
        await d.keys(ENTER)  # keys do not play behind the summary
        assert c.ui.show_summary
        await d.keys("m")
        assert not c.ui.show_summary
        await _play_until(d, lambda: c.model.match_over)
        assert c.ui.show_summary  # the summary comes up by itself at the end of the match
        text = _text(c._summary().summary_lines(c.model, c.ui))
        res = c.model.hand_results[0]
        assert f"You: {res.points[0]} point" in text and f"Bot 1: {res.points[1]} point" in text
        taken = res.taken
        assert sum(len(t) for t in taken) == 40 and not set(taken[0]) & set(taken[1])
        assert sum(card.points for card in taken[0]) == res.points[0]
        for card in taken[0]:
            assert card.label() in text
        assert "drew it with the last card" in text
        assert "YOU WIN THE MATCH" in text or "You lose the match" in text


async def test_the_running_point_count_can_be_hidden_for_the_session() -> None:
    cfg = ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0,
                       hide_points=True)  # fmt: skip
    async with running(cfg) as d:
        c = d.client
        await d.keys("a")
        await wait_for(lambda: c.model.my_turn, what="my turn")
        assert "pts" not in _text(c._players_text(36)) and "tricks" in _text(c._players_text(36))
        await d.keys("p")
        assert "pts" in _text(c._players_text(36))
        await d.keys("p")
        assert "pts" not in _text(c._players_text(36))
        await d.keys("q", "y")
    async with running() as d:
        c = d.client
        await d.keys("a")
        await wait_for(lambda: c.model.my_turn, what="my turn")
        await d.keys("p", "\x1b", "y", "a")  # hidden, then another table: still hidden
        await wait_for(lambda: c.model.my_turn, what="my turn at the new table")
        assert c.ui.hide_points and "pts" not in _text(c._players_text(36))


async def test_a_play_key_acts_only_on_a_card_under_the_cursor_the_player_has_seen() -> None:
    cfg = ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=5.0)
    async with running(cfg) as d:
        c = d.client
        await d.keys("a")
        await wait_for(lambda: c.model.my_turn, what="my turn")
        hand = c.model.hand
        await d.keys(ENTER)  # the hand was just dealt: nothing is played
        assert c.model.hand == hand and "look at it" in (c.model.error or "")
        await d.keys(ENTER)  # the refusal showed it: this one plays
        await wait_for(lambda: c.model.hand != hand, what="the play")
        # the cursor stays on its card when the hand is sorted again...
        await wait_for(lambda: c.model.my_turn and len(c.model.hand) == 3, what="my next turn")
        await d.keys("3")
        card = c.shown_hand()[2]
        await d.keys("o")
        assert c.shown_hand()[c.ui.card_index] == card
        # ...and a card that came under the cursor by itself (here: the one I played went)
        # is not played by a key pressed right away
        await d.keys(ENTER)
        await wait_for(lambda: card not in c.model.hand, what="my card played")
        await wait_for(lambda: c.model.my_turn and len(c.model.hand) == 3, what="my turn")
        hand = c.model.hand
        await d.keys(ENTER)
        assert c.model.hand == hand and "look at it" in (c.model.error or "")
        # a click on a card that has moved since the screen was drawn plays nothing
        shown = c.shown_hand()
        c.click_card(0, shown[1])
        assert c.model.hand == hand
        c.click_card(1, shown[1])
        await wait_for(lambda: shown[1] not in c.model.hand, what="the clicked card played")


async def test_the_hint_sits_beside_the_hand_at_80x24() -> None:
    async with screen_of((80, 24)) as s:
        c = s.d.client
        await s.d.keys("a")
        await wait_for(lambda: c.model.my_turn, what="my turn")
        await s.d.keys("h")
        await wait_for(lambda: c.coach.hint_card is not None, 30, "the hint")
        lines = await s.lines()
        text = "\n".join(lines)
        assert "Hint (h;" in text and c.coach.hint_text.split(":")[0] in text, text
        hand_row = next(i for i, ln in enumerate(lines) if "Your hand" in ln)
        hint_row = next(i for i, ln in enumerate(lines) if "Hint (h;" in ln)
        assert hint_row > hand_row
        for card in c.shown_hand():  # every card of the hand still in view
            assert card.label() in "\n".join(lines[hand_row:hint_row]), text
        await s.d.keys("\x1b")
        assert "Hint (h;" not in "\n".join(await s.lines())


def test_a_card_box_compass_fits_its_width_with_long_names() -> None:
    model = _model(4, ["Ann", "Bea " + "x" * 28, "Cid", "Dan " + "y" * 28])
    for width in (52, 60, 80):
        text = _text(render_table.trick_text(model, UiState(), True, width=width))
        assert all(len(line) <= width for line in text.splitlines()), text
        flat = text.replace("\n", " ")
        assert "x" * 10 in flat and "y" * 10 in flat  # whole (wrapped) names


def test_the_panes_stay_put_and_show_everything_the_table_can_show() -> None:
    """The Table pane is as high as its fullest moment of the hand (every card down, the longest
    name winning or taking, the briscola taken, both partners' signals), so that nothing moves
    between plays and nothing is cut, at 60x20, 80x24 and 100x30; the choice of a signal goes
    under the hand, whole, the top panes giving it their spare rows."""
    import dataclasses

    from briscola_lan.rules.events import TrickTaken
    from briscola_lan.rules.signals import SignalValue
    from briscola_lan.tui import panes
    from briscola_lan.tui.state import SignalNote

    names = ["Ann", "Bea Longname-Smith", "Cid", "Dan"]
    model = _model(4, names)
    model.options = dataclasses.replace(model.options, signals=True)
    for size in ((60, 20), (80, 24), (100, 30)):
        quiet = panes.sizes(*size, model, UiState())
        busy = dataclasses.replace(
            model, signals=(SignalNote(2, 1, SignalValue.CARICO), SignalNote(0, 1,
                            SignalValue.TRUMP_FIGURE)), upcard_taken_by=1, stock_left=0,
            error="Not your turn yet.",
        )  # fmt: skip
        ui = UiState()
        ui.follow.held = TrickTaken(1, (*model.trick, (3, model.hand[0])), 30)
        assert panes.sizes(*size, busy, ui) == quiet, size
        inner = size[0] - quiet.players_width - 2
        text = render_table.table_lines(busy, ui, inner, big=quiet.boxes, compact=quiet.compact)
        assert panes.lines_of(text, inner) <= quiet.top - 2, (size, _text(text))
        frags = render_table.players_lines(busy, ui, quiet.players_width - 2, quiet.compact)
        pane = _text(frags)
        if quiet.compact:  # a short terminal: the signals in the Players pane, in a word or two
            assert "Partner: carico" in pane and "You: trump figure" in pane, pane
        else:
            assert "Partner's signal: " in _text(text) and "carico" in _text(text)
        assert panes.lines_of(frags, quiet.players_width - 2) <= quiet.top - 2, pane
        choosing = UiState(signalling=True)
        sized = panes.sizes(*size, model, choosing)
        aside = size[1] - 2 - sized.top - sized.hand - 2  # the choice's rows in its frame
        assert panes.lines_of(render_signals.signal_choice(size[0] - 2), size[0] - 2) <= aside, size
