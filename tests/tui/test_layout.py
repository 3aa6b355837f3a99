"""The layout on the real VT100 output (read back with pyte) at 60x20, 80x24 and 100x30: large
cards at 100x30, the Players/Table divider fixed for a whole hand, words never cut, the help
scrolling with its closing key always shown, the log scrolling over the whole match, and the
lobby's discovery message readable in full at 80 columns."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from collections.abc import AsyncIterator

import pyte
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Point, Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.mouse_events import MouseButton, MouseEvent, MouseEventType
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

from briscola_lan.tui.app import ClientApp, ClientConfig

from .helpers import Driver, wait_for


class Screen:
    """A client drawing into a pyte terminal of a fixed size."""

    def __init__(self, driver: Driver, buf: io.StringIO, size: tuple[int, int]) -> None:
        self.d, self.buf, self.size = driver, buf, size

    async def lines(self) -> list[str]:
        """The screen after a redraw of the state as it is now."""
        app = self.d.client.app
        before = app.render_counter
        app.invalidate()
        await wait_for(lambda: app.render_counter > before, 5, "a redraw")
        screen = pyte.Screen(*self.size)
        pyte.Stream(screen).feed(self.buf.getvalue())
        return [line.rstrip() for line in screen.display]


@contextlib.asynccontextmanager
async def screen_of(size: tuple[int, int], **kw: object) -> AsyncIterator[Screen]:
    buf = io.StringIO()
    out = Vt100_Output(
        buf, lambda: Size(rows=size[1], columns=size[0]), term="xterm",
        default_color_depth=ColorDepth.DEPTH_1_BIT, enable_cpr=False,
    )  # fmt: skip
    base: dict[str, object] = {"name": "Tess", "ai_level": "random", "ai_delay": 0.0,
                               "trick_pause": 0.0}  # fmt: skip
    base.update(kw)
    pipe: PipeInput
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=out):
        client = ClientApp(ClientConfig(**base))  # type: ignore[arg-type]
        client.app.ttimeoutlen = 0.01
        task = asyncio.create_task(client.run_async())
        try:
            await wait_for(lambda: client.app.is_running, what="app start")
            yield Screen(Driver(client, pipe, task), buf, size)
        finally:
            if client.app.is_running and not client.app.is_done:
                client.app.exit(result=0)
            await asyncio.wait_for(task, 15)


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
        assert body.count("┌─────┐") >= 5  # three in the hand, two on the table
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
        assert "learn the game, then practice" not in text
        for _ in range(4):
            await s.d.keys("\x1b[6~")  # PageDown
        text = "\n".join(await s.lines())
        assert "Esc or ? closes" in text and "learn the game, then practice" in text, text
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
