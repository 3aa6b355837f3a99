"""The layout on the real VT100 output (read back with pyte) at 60x20, 80x24 and 100x30: large
cards at 100x30, the Players/Table divider fixed for a whole hand, words never cut, the help
scrolling with its closing key always shown, the log scrolling over the whole match, and the
lobby's discovery message readable in full at 80 columns."""

from __future__ import annotations

import asyncio
import re

from prompt_toolkit.data_structures import Point
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType

from .helpers import Screen, screen_of, wait_for


def _divider(lines: list[str]) -> int:
    """The column where the Players pane ends and the Table pane begins."""
    top = next(ln for ln in lines if "Players" in ln and "Table" in ln)
    return top.index("┐┌")


async def _play_a_hand(s: Screen, each: object = None) -> list[list[str]]:
    """Enter at each of my turns until the hand is over; the screens seen on the way."""
    c = s.d.client
    seen = []

    async def step() -> None:
        while not c.model.hand_over:
            if c.model.my_turn:
                seen.append(await s.lines())
                before = c.model.changes
                await s.d.keys("\r")
                await wait_for(lambda b=before: c.model.changes > b, what="my play")
            else:
                await asyncio.sleep(0.005)

    await asyncio.wait_for(step(), 30)
    return seen


async def test_the_divider_stays_put_for_a_whole_hand_at_80x24() -> None:
    async with screen_of((80, 24)) as s:
        await s.d.keys("a")
        await wait_for(lambda: s.d.client.model.my_turn, what="my turn")
        screens = await _play_a_hand(s)
        assert len(screens) >= 18
        columns = {_divider(lines) for lines in screens}
        assert len(columns) == 1, columns
        for lines in screens:  # never a word cut at the pane's edge
            text = "\n".join(lines)
            assert "choose a ca\n" not in text and "Ente\n" not in text


async def test_cards_grow_at_100x30_and_a_trick_is_drawn_as_cards() -> None:
    async with screen_of((100, 30), trick_pause=60.0) as s:
        await s.d.keys("a")
        c = s.d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        lines = await s.lines()
        hand_top = next(i for i, ln in enumerate(lines) if "Your hand" in ln)
        assert lines[hand_top + 1].count("┌─────┐") == 3, "\n".join(lines)  # 7-wide cards
        assert lines[hand_top + 5].count("└─────┘") == 3  # 5 rows high
        await s.d.keys("\r")
        await wait_for(lambda: c.ui.follow.held is not None, what="the trick held")
        lines = await s.lines()
        table = [ln[ln.index("┐┌") + 2 :] for ln in lines if "┐┌" in ln][:1]
        assert table
        body = "\n".join(lines)
        assert body.count("┌─────┐") == 3  # three large ones in the hand
        assert body.count("┌────┐") == 2  # the table: a box at each seat's place
        assert re.search(r"takes? the trick: \+\d+ points", body), body


async def test_at_60x20_everything_fits_and_wraps_between_words() -> None:
    async with screen_of((60, 20)) as s:
        await s.d.keys("a")
        await wait_for(lambda: s.d.client.model.my_turn, what="my turn")
        lines = await s.lines()
        text = "\n".join(lines)
        assert "Window too small" not in text
        assert "Your turn: choose a card" in text, text  # broken after a whole word
        assert len({_divider(lines)}) == 1 and "Log" in text


async def test_help_scrolls_at_60x20_and_always_says_how_to_close() -> None:
    async with screen_of((60, 20)) as s:
        await s.d.keys("?")
        lines = await s.lines()
        text = "\n".join(lines)
        assert "Esc or ? closes" in text and "more below" in text, text
        assert "Lobby keys" in text and "learn the game, then practice" in text  # this screen's
        assert "learn: the page before" not in text
        for _ in range(8):
            await s.d.keys("\x1b[6~")  # PageDown
        text = "\n".join(await s.lines())
        assert "Esc or ? closes" in text and "learn: the page before" in text, text
        await s.d.keys("\x1b")
        assert not s.d.client.ui.show_help


async def test_the_lobby_says_why_discovery_is_off_in_full_at_80_columns() -> None:
    async with screen_of((80, 24)) as s:
        why = (
            "Discovery is off: no network interface to look for tables on; pass "
            "--interfaces 127.0.0.1 to play on this machine only"
        )
        s.d.client.ui.lobby_status = why
        text = " ".join(" ".join(ln.split()) for ln in await s.lines())
        assert "--interfaces 127.0.0.1 to play on this machine only" in text, text


async def test_the_log_scrolls_back_to_the_start_of_the_match() -> None:
    async with screen_of((80, 24)) as s:
        await s.d.keys("a")
        c = s.d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        await _play_a_hand(s)
        first = c.model.log[0]
        assert len(c.model.log) > 20
        assert first not in "\n".join(await s.lines())
        for _ in range(len(c.model.log)):  # PageUp, to the start
            await s.d.keys("\x1b[5~")
        assert first in "\n".join(await s.lines())
        assert c.ui.log_scroll.offset > 0
        await s.d.keys("\x1b[6~" * len(c.model.log))
        assert c.ui.log_scroll.offset == 0
        # the mouse wheel over the log scrolls it too
        wheel = MouseEvent(Point(0, 0), MouseEventType.SCROLL_UP, MouseButton.NONE, frozenset())
        c._log_control.mouse_handler(wheel)
        assert c.ui.log_scroll.offset == 3


async def test_a_short_log_shows_its_newest_line_from_the_start() -> None:
    """At 60x20 the log has few rows: a newest line longer than they are shows its start and
    "…", not the end of its last rows; scrolled back, the log shows its rows as they are."""
    async with screen_of((60, 20)) as s:
        await s.d.keys("a")
        c = s.d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        await s.lines()
        page = c.ui.log_scroll.page
        assert page <= 4
        words = [f"word{i:02}" for i in range(8 * (page + 2))]  # 8 a row: longer than the pane
        c.model.add_log(" ".join(words))
        text = "\n".join(await s.lines())
        assert words[0] in text and words[-1] not in text, text
        assert re.search(r"word\d+…", text), text
        await s.d.keys("\x1b[5~")  # PgUp: the rows as they are
        n = c.ui.log_scroll.offset
        assert n > 0
        said = f"{n} newer line below" if n == 1 else f"{n} newer lines below"
        assert said in "\n".join(await s.lines())
        await s.d.keys("\x1b[6~")
        assert c.ui.log_scroll.offset == 0
        assert words[-1] not in "\n".join(await s.lines())


def test_the_head_of_the_last_line_fits_its_rows() -> None:
    from briscola_lan.tui.widgets import head_of_last

    frags = [("", "first line\n"), ("class:error", "! a long newest line that wraps on")]
    assert head_of_last(frags, 40, 1) is None  # fits: shown as it is
    one = head_of_last(frags, 12, 1)
    assert one is not None and len(one) == 1
    text = "".join(f[1] for f in one[0])
    assert text.endswith("…") and len(text) <= 12 and text.startswith("! a long")
    assert one[0][0][0] == "class:error"  # its style kept
    two = head_of_last(frags, 12, 2)
    assert two is not None and ["".join(f[1] for f in r).strip() for r in two] == [
        "! a long",
        "newest line…",
    ]
