"""Helpers to drive the client headless: a pipe for keys, DummyOutput, polling on state."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from pathlib import Path

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.input.vt100_parser import Vt100Parser
from prompt_toolkit.key_binding import KeyPress
from prompt_toolkit.output import DummyOutput

from briscola_lan.tui.app import ClientApp, ClientConfig
from briscola_lan.tui.state import LobbyEntry


def net_config(tmp_path: Path) -> ClientConfig:
    """A client on 127.0.0.1 with the network parts but no discovery (tests set the lobby)."""
    from briscola_lan.tui.lobby_net import install

    cfg = ClientConfig(
        name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, interfaces=["127.0.0.1"],
        games=tmp_path / "games",
    )  # fmt: skip
    install(cfg)
    cfg.lobby_source = None
    return cfg


RIGHT = "\x1b[C"
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
    cfg = config or ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0)
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
