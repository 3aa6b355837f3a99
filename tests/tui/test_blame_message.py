"""The victim of a cheating host reads on its own screen what its record shows about the blame."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pyte
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import ColorDepth
from prompt_toolkit.output.vt100 import Vt100_Output

from briscola_lan.table.client import ClientSession
from briscola_lan.table.events import OwnWord
from briscola_lan.tui.app import ClientApp
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.netplay import NetBackend
from tests.table.test_cheating_host import THREE, VICTIM, _one_aborted_hand, play_cheater

from .helpers import wait_for

_ = _one_aborted_hand  # each test here looks at the one aborted hand (autouse, imported)


class _Replayed(NetBackend):
    """The network backend over a session that already lived through the cheating host's hand."""

    def __init__(self, session: ClientSession, games: Path) -> None:
        super().__init__("Crooked table", name=session.name, games=games)
        self.session = session

    async def start(self) -> None:
        self._sync()

    async def close(self) -> None:
        return None


def _screen_of(session: ClientSession, games: Path, rows: int, columns: int) -> str:
    """The whole terminal screen the client draws for ``session``, read back with pyte, as one
    string with the line breaks taken out (a wrapped sentence reads as it was written)."""

    async def draw() -> str:
        buf = io.StringIO()
        out = Vt100_Output(
            buf,
            lambda: Size(rows=rows, columns=columns),
            term="xterm",
            default_color_depth=ColorDepth.DEPTH_1_BIT,
            enable_cpr=False,
        )
        cfg = ClientConfig(
            name=session.name,
            ai_level="random",
            ai_delay=0.0,
            trick_pause=0.0,
            settle=0.0,
            ascii_only=True,
        )
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=out):
            client = ClientApp(cfg)
            client.app.ttimeoutlen = 0.01
            task = asyncio.create_task(client.run_async())
            try:
                await wait_for(lambda: client.app.is_running, what="app start")
                client.open_table(_Replayed(session, games))
                await wait_for(lambda: client.model.hand_over, what="the aborted hand's panel")
                await asyncio.sleep(0.3)
                screen = pyte.Screen(columns, rows)
                pyte.Stream(screen).feed(buf.getvalue())
            finally:
                client.app.exit(result=0)
                await asyncio.wait_for(task, 5)
        return "\n".join(screen.display)

    return asyncio.run(draw())


def _panel(screen: str, title: str) -> str:
    """The inside of the framed panel ``title`` (the screen puts panels side by side)."""
    rows = screen.split("\n")
    top = next(y for y, row in enumerate(rows) if f"+- {title} " in row)
    left = rows[top].index(f"+- {title} ")
    right = rows[top].index("+", left + 1)
    inside = []
    for row in rows[top + 1 :]:
        if row[left] == "+":
            break
        inside.append(row[left + 1 : right])
    return "\n".join(inside)


def _joined(screen: str) -> str:
    """The screen's characters in reading order without frames or any white space (a panel
    breaks a long sentence anywhere, even inside a word): compare texts squeezed the same way."""
    return "".join(screen.replace("|", "").split())


def _victim(mode: str) -> ClientSession:
    _host, clients, _wire = play_cheater(THREE, mode)
    return clients[VICTIM]


def test_the_victim_with_a_receipt_is_told_the_host_is_at_fault(tmp_path: Path) -> None:
    victim = _victim("withhold")
    own = victim.state.checks[-1].own_verdict
    assert own is not None and own.word is OwnWord.RECEIPT
    verdict = str(own)
    assert "22:13:20 UTC" in verdict
    for rows, columns in ((24, 80), (40, 120)):
        screen = _screen_of(victim, tmp_path, rows, columns)
        text = _joined(_panel(screen, "Table"))
        assert _joined(verdict) in text, screen
        assert _joined("The hand was aborted.") in text
        assert _joined("It counts for nothing: the same dealer deals again.") in text
        assert _joined("so the host is at fault") in text, screen
        assert _joined("at fault: seat 1") not in text.lower(), screen


def test_the_victim_without_a_receipt_is_told_it_cannot_be_told_apart(tmp_path: Path) -> None:
    victim = _victim("no-receipt")
    own = victim.state.checks[-1].own_verdict
    assert own is not None and own.word is OwnWord.CANNOT_TELL
    verdict = str(own)
    assert "cannot be told apart" in verdict
    screen = _screen_of(victim, tmp_path, 24, 80)
    text = _joined(_panel(screen, "Table"))
    assert _joined(verdict) in text, screen
    assert _joined("the host or you, cannot be told apart") in text


def test_a_bystander_is_never_shown_the_framed_seat_as_at_fault(tmp_path: Path) -> None:
    _host, clients, _wire = play_cheater(THREE, "withhold")
    text = _joined(_panel(_screen_of(clients[2], tmp_path, 40, 120), "Table"))
    assert _joined("cannot be told apart") in text
    assert _joined("at fault: seat 1") not in text
