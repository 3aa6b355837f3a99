"""Helpers to drive the client headless: a pipe for keys, DummyOutput, polling on state."""

from __future__ import annotations

import asyncio
import contextlib
import io
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pyte
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.output import ColorDepth, DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from briscola_lan.tui.app import ClientApp
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.state import LobbyEntry


def net_config(tmp_path: Path) -> ClientConfig:
    """A client on 127.0.0.1 with the network parts but no discovery (tests set the lobby)."""
    from briscola_lan.tui.lobby_net import install

    cfg = ClientConfig(
        name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, interfaces=["127.0.0.1"],
        games=tmp_path / "games", settle=0.0,
    )  # fmt: skip
    install(cfg)
    cfg.lobby_source = None
    return cfg


RIGHT = "\x1b[C"
PGDN = "\x1b[6~"
LEFT = "\x1b[D"
UP = "\x1b[A"
DOWN = "\x1b[B"
ENTER = "\r"
ESC = "\x1b"


def lobby_entry(host: object, name: str, seated: int, players: int = 2) -> LobbyEntry:
    """The lobby line for an embedded loopback host, as discovery would give it."""
    port, fingerprint = getattr(host, "port"), getattr(host, "fingerprint")  # noqa: B009
    return LobbyEntry(
        "k", name, "127.0.0.1", f"{players}p hands:2", seated, players, players - seated,
        address=f"127.0.0.1:{port}", fingerprint=fingerprint,
    )  # fmt: skip


async def wait_for(cond: Callable[[], bool], timeout: float = 10.0, what: str = "") -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what or cond}")
        await asyncio.sleep(0.005)


def _presses(data: str) -> int:
    """How many key presses the terminal input makes of ``data`` (a mouse event is one)."""
    presses: list[KeyPress] = []
    parser = Vt100Parser(presses.append)
    parser.feed(data)
    parser.flush()
    return len(presses)


class Driver:
    """A running client with a key pipe."""

    def __init__(self, client: ClientApp, pipe: PipeInput, task: asyncio.Task[int]) -> None:
        self.client = client
        self.pipe = pipe
        self.task = task
        self.handled = 0  # key presses the app has taken from the pipe and handled
        client.app.key_processor.after_key_press += self._handled

    def _handled(self, _: object) -> None:
        self.handled += 1

    async def keys(self, *data: str) -> None:
        """Type each string and wait until the app has handled every key of it (or quit).

        Not a fixed pause: on a loaded machine a key can wait longer than any pause in the
        pipe, and a bare Escape is only taken after ``ttimeoutlen``.
        """
        app = self.client.app
        for d in data:
            want = self.handled + _presses(d)
            self.pipe.send_text(d)

            def done(want: int = want) -> bool:
                if self.task.done() or not app.is_running or app.is_done:
                    return True  # the app quit: it takes no more keys
                return self.handled >= want and not app.key_processor.key_buffer

            await wait_for(done, 15, f"the client to handle the keys {d!r}")


@contextlib.asynccontextmanager
async def running(config: ClientConfig | None = None) -> AsyncIterator[Driver]:
    cfg = config or ClientConfig(
        name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0
    )
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        client = ClientApp(cfg)
        client.app.ttimeoutlen = 0.01
        client.app.timeoutlen = 0.01
        task = asyncio.create_task(client.run_async())
        await wait_for(lambda: client.app.is_running, what="app start")
        driver = Driver(client, pipe, task)
        try:
            yield driver
        finally:
            # The body may have quit the app itself (q, y): it is then done or still closing
            # its table, and a second exit() raises "Return value already set".
            if client.app.is_running and not client.app.is_done:
                client.app.exit(result=0)
            await asyncio.wait_for(task, 15)


class Screen:
    """A client drawing into a pyte terminal of a fixed size."""

    def __init__(self, driver: Driver, buf: io.StringIO, size: tuple[int, int]) -> None:
        self.d, self.buf, self.size = driver, buf, size
        self.term = pyte.Screen(*size)
        self._stream = pyte.Stream(self.term)
        self._fed = 0  # how much of the output the terminal has taken

    async def lines(self) -> list[str]:
        """The screen after a redraw of the state as it is now."""
        app = self.d.client.app
        before = app.render_counter
        app.invalidate()
        await wait_for(lambda: app.render_counter > before, 5, "a redraw")
        # Only the output written since the last look: the terminal keeps its state, as a real
        # one does, and a tour of a hundred screens parses each byte once, not once a screen.
        out = self.buf.getvalue()
        self._stream.feed(out[self._fed :])
        self._fed = len(out)
        return [line.rstrip() for line in self.term.display]


@contextlib.asynccontextmanager
async def screen_of(
    size: tuple[int, int], config: ClientConfig | None = None, **kw: object
) -> AsyncIterator[Screen]:
    buf = io.StringIO()
    out = Vt100_Output(
        buf, lambda: Size(rows=size[1], columns=size[0]), term="xterm",
        default_color_depth=ColorDepth.DEPTH_1_BIT, enable_cpr=False,
    )  # fmt: skip
    base: dict[str, object] = {"name": "Tess", "ai_level": "random", "ai_delay": 0.0,
                               "trick_pause": 0.0, "settle": 0.0}  # fmt: skip
    base.update(kw)
    pipe: PipeInput
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=out):
        client = ClientApp(config or ClientConfig(**base))  # type: ignore[arg-type]
        client.app.ttimeoutlen = 0.01
        task = asyncio.create_task(client.run_async())
        try:
            await wait_for(lambda: client.app.is_running, what="app start")
            yield Screen(Driver(client, pipe, task), buf, size)
        finally:
            if client.app.is_running and not client.app.is_done:
                client.app.exit(result=0)
            await asyncio.wait_for(task, 15)
