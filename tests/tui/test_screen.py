"""The real terminal output, read back with the pyte emulator: suit colours, the selected card in
reverse video, and a mouse click (an SGR mouse sequence) on a card playing that card."""

from __future__ import annotations

import asyncio
import io

import pyte
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

from briscola_lan.rules import Suit
from briscola_lan.tui.app import ClientApp
from briscola_lan.tui.config import ClientConfig

from .helpers import wait_for

SUIT_FG = {Suit.COINS: "d7af00", Suit.CUPS: "ff5f5f", Suit.SWORDS: "5f87ff", Suit.CLUBS: "5fd75f"}


def _find(screen: pyte.Screen, text: str) -> tuple[int, int]:
    for y in range(screen.lines):
        row = "".join(screen.buffer[y][x].data for x in range(screen.columns))
        x = row.find(text)
        if x >= 0:
            return x, y
    raise AssertionError(f"{text!r} is not on the screen:\n" + "\n".join(screen.display))


async def test_colours_selection_and_mouse_on_the_real_output() -> None:
    buf = io.StringIO()
    out = Vt100_Output(
        buf,
        lambda: Size(rows=24, columns=80),
        term="xterm-256color",
        default_color_depth=ColorDepth.DEPTH_8_BIT,
        enable_cpr=False,
    )
    cfg = ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0)
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=out):
        client = ClientApp(cfg)
        client.app.ttimeoutlen = 0.01
        task = asyncio.create_task(client.run_async())
        try:
            await wait_for(lambda: client.app.is_running, what="app start")
            pipe.send_text("a")
            await wait_for(lambda: client.model.my_turn, what="my turn")
            pipe.send_text("2")
            await asyncio.sleep(0.3)
            screen = pyte.Screen(80, 24)
            pyte.Stream(screen).feed(buf.getvalue())
            hand = client.shown_hand()
            positions = []
            for i, card in enumerate(hand):
                x, y = _find(screen, f" {card.label()} ")
                face = screen.buffer[y][x + 2]  # the suit symbol
                assert face.data == card.suit.symbol
                assert face.fg == SUIT_FG[card.suit], (card, face)
                assert face.reverse is (i == 1), (i, face)  # the chosen card, in reverse video
                positions.append((x + 1, y))
            # click the third card: press and release, SGR encoding, 1-based coordinates
            target = hand[2]
            x, y = positions[2]
            pipe.send_text(f"\x1b[<0;{x + 1};{y + 1}M\x1b[<0;{x + 1};{y + 1}m")
            await wait_for(lambda: target not in client.model.hand, what="the click to play")
        finally:
            client.app.exit(result=0)
            await asyncio.wait_for(task, 5)


async def test_verification_popup_covers_the_width_at_80x24() -> None:
    buf = io.StringIO()
    out = Vt100_Output(
        buf,
        lambda: Size(rows=24, columns=80),
        term="xterm",
        default_color_depth=ColorDepth.DEPTH_1_BIT,
        enable_cpr=False,
    )
    cfg = ClientConfig(
        name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0, ascii_only=True
    )
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=out):
        client = ClientApp(cfg)
        client.app.ttimeoutlen = 0.01
        task = asyncio.create_task(client.run_async())
        try:
            await wait_for(lambda: client.app.is_running, what="app start")
            pipe.send_text("a")

            async def finish_hand() -> None:
                while not (client.model.hand_over and client.model.last_result is not None):
                    if client.model.my_turn:
                        before = client.model.changes
                        pipe.send_text("\r")
                        await wait_for(lambda b=before: client.model.changes > b)
                    await asyncio.sleep(0.01)

            await asyncio.wait_for(finish_hand(), 30)
            assert client.model.hand_over
            pipe.send_text("v")
            await wait_for(lambda: client.ui.show_verify_details, what="the details")
            await asyncio.sleep(0.3)
            screen = pyte.Screen(80, 24)
            pyte.Stream(screen).feed(buf.getvalue())
            x, top = _find(screen, "- Deal verification ")
            assert x == 1, "\n".join(screen.display)
            _, bottom = _find(screen, "Esc or v to close.")
            # every row of the panel is framed at both screen edges: nothing of the table shows
            for y in range(top, bottom + 2):
                row = screen.display[y]
                assert row[0] == "+" or row[0] == "|", (y, row)
                assert row[79] in "+|", (y, row)
                if top < y <= bottom:
                    assert row.rstrip()[-1] == "|" and row.count("|") == 2, (y, row)
        finally:
            client.app.exit(result=0)
            await asyncio.wait_for(task, 5)
