"""How long one redraw of the full-screen client takes: the lobby, and the table screen in a
practice match (a 4-player match against AI players on the client's embedded host), five tricks
into its first hand and into its second (the log longer), at 60x20, 80x24, 100x30 and 160x50.
Each redraw is made by the application as a change makes it (``invalidate``: the layout
measured, every pane's text made and broken between words, the screen compared with the last
one and the difference written), timed from prompt_toolkit's ``before_render`` to
``after_render``, median of N. Baseline in the same run: a minimal prompt_toolkit full-screen
app (one window of text, the whole screen) redrawn the same way at the same size. Each of the
client's screens is also redrawn with prompt_toolkit's own division of rows and columns put back
in its splits (``tui/split.py`` gives the same sizes in time proportional to the children): the
"own" columns, and the client's redraw over that.

Run it inside a network namespace (the practice table listens on 127.0.0.1):

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/bench_render.py [--renders N]'

The client's files (identity, saved games) go to a temporary folder.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

SIZES = [(60, 20), (80, 24), (100, 30), (160, 50)]


class Timed:
    """The seconds each redraw of ``app`` takes, from its start to its end."""

    def __init__(self, app: object) -> None:
        self.times: list[float] = []
        self._start = 0.0
        app.before_render += self._before  # type: ignore[attr-defined]
        app.after_render += self._after  # type: ignore[attr-defined]

    def _before(self, _: object) -> None:
        self._start = time.perf_counter()

    def _after(self, _: object) -> None:
        self.times.append(time.perf_counter() - self._start)


async def until(cond: Callable[[], bool], timeout: float, what: str) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise RuntimeError(f"timed out waiting for {what}")
        await asyncio.sleep(0.002)


async def redraws(app: object, timed: Timed, n: int) -> float:
    """Median milliseconds of ``n`` redraws, one after the other."""
    timed.times.clear()
    for _ in range(n):
        before = app.render_counter  # type: ignore[attr-defined]
        app.invalidate()  # type: ignore[attr-defined]
        await until(lambda b=before: app.render_counter > b, 10, "a redraw")  # type: ignore[attr-defined]
    return statistics.median(timed.times[-n:]) * 1000


async def both(app: object, timed: Timed, n: int) -> tuple[float, float]:
    """``redraws`` with the client's splits, then with prompt_toolkit's own division."""
    from prompt_toolkit.layout import containers

    from briscola_lan.tui import split

    ours = await redraws(app, timed, n)
    kept = split.HSplit.__dict__["_divide_heights"], split.VSplit.__dict__["_divide_widths"]
    split.HSplit._divide_heights = containers.HSplit._divide_heights  # type: ignore[method-assign]
    split.VSplit._divide_widths = containers.VSplit._divide_widths  # type: ignore[method-assign]
    try:
        own = await redraws(app, timed, n)
    finally:
        split.HSplit._divide_heights, split.VSplit._divide_widths = kept  # type: ignore[method-assign]
    return ours, own


def _output(size: tuple[int, int]) -> object:
    from prompt_toolkit.data_structures import Size
    from prompt_toolkit.output import ColorDepth
    from prompt_toolkit.output.vt100 import Vt100_Output

    return Vt100_Output(
        io.StringIO(), lambda: Size(rows=size[1], columns=size[0]), term="xterm",
        default_color_depth=ColorDepth.DEPTH_8_BIT, enable_cpr=False,
    )  # fmt: skip


async def minimal(size: tuple[int, int], n: int) -> float:
    from prompt_toolkit.application import Application, create_app_session
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.layout import Layout
    from prompt_toolkit.layout.containers import Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    columns, rows = size
    text = "\n".join(("minimal app " * columns)[:columns] for _ in range(rows))
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=_output(size)):
        app: Application[None] = Application(
            layout=Layout(Window(FormattedTextControl(text))), full_screen=True
        )
        timed = Timed(app)
        task = asyncio.create_task(app.run_async())
        await until(lambda: app.is_running, 10, "the minimal app")
        ms = await redraws(app, timed, n)
        app.exit()
        await task
    return ms


async def client(
    size: tuple[int, int], n: int, games: Path
) -> tuple[tuple[float, float], list[tuple[tuple[float, float], int]]]:
    """The lobby's median redraw in ms (``both`` ways); the table's, with its log's lines, five
    tricks into the first hand and into the second."""
    from prompt_toolkit.application import create_app_session
    from prompt_toolkit.input import create_pipe_input

    from briscola_lan.tui.app import ClientApp
    from briscola_lan.tui.config import ClientConfig
    from briscola_lan.tui.lobby_net import install

    cfg = ClientConfig(name="Bench", ai_level="random", ai_delay=0.0, trick_pause=0.0,
                       settle=0.0, interfaces=["127.0.0.1"], games=games)  # fmt: skip
    install(cfg)
    cfg.lobby_source = None
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=_output(size)):
        c = ClientApp(cfg)
        app = c.app
        app.ttimeoutlen = 0.01
        timed = Timed(app)
        task = asyncio.create_task(c.run_async())
        await until(lambda: app.is_running, 10, "the client")
        lobby = await both(app, timed, n)
        # a practice match at 4 players (the form: players right twice), played into its hand
        c.ui.form.row, c.ui.form.players = 0, 2
        pipe.send_text("h\x1b[B\x1b[C\x1b[C\r")
        await until(lambda: c.model.my_turn, 60, "my first turn")
        tables: list[tuple[tuple[float, float], int]] = []
        for hand in (1, 2):
            if hand == 2:  # the first hand played out, the second begun
                first = c.model.hand_number
                while not c.model.hand_over:
                    await play(c, pipe)
                pipe.send_text("n")
                await until(
                    lambda f=first: c.model.hand_number != f and c.model.my_turn, 60, "hand 2"
                )
            for _ in range(5):  # five tricks: the log and the tricks panel filled
                await play(c, pipe)
            await until(lambda: c.model.my_turn, 60, "my turn")
            tables.append((await both(app, timed, n), len(c.model.log)))
        app.exit(result=0)
        await asyncio.wait_for(task, 30)
    return lobby, tables


async def play(c: object, pipe: object) -> None:
    """My card when it is my turn (Enter: the card under the cursor)."""
    m = c.model  # type: ignore[attr-defined]
    await until(lambda: m.my_turn or m.hand_over, 60, "my turn")
    if m.hand_over:
        return
    before = m.changes
    pipe.send_text("\r")  # type: ignore[attr-defined]
    await until(lambda: m.changes > before, 30, "my play")


async def main(renders: int) -> None:
    print(
        f"median of {renders} redraws each, ms; baseline: a minimal full-screen app, same size;"
        " own: the same screen with prompt_toolkit's own division of rows and columns"
    )
    print(f"{'size':>8} {'minimal':>8} {'lobby':>8} {'ratio':>6} {'own':>6} "
          f"{'hand 1':>8} {'ratio':>6} {'own':>6} {'hand 2':>8} {'ratio':>6} {'own':>6}"
          "  log lines")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for size in SIZES:
            base = await minimal(size, renders)
            games = Path(tmp) / f"games-{size[0]}x{size[1]}"
            lobby, tables = await client(size, renders, games)
            row = f"{size[0]:>4}x{size[1]:<3} {base:8.2f}"
            for ms, own in (lobby, *(t for t, _ in tables)):
                row += f" {ms:8.2f} {ms / base:5.1f}x {ms / own:5.2f}x"
            print(row + "  " + " / ".join(str(log) for _, log in tables), flush=True)


def run() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--renders", type=int, default=50, help="redraws per screen (50)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        for var in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME"):
            os.environ[var] = str(Path(home) / var.lower())
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        asyncio.run(main(args.renders))


if __name__ == "__main__":
    run()
