"""How long the terminal client's event loop stalls while the AI players of its own table think.

Plays one hand of practice against ``strong`` AI players through the client's ``NetBackend``
(an embedded host on 127.0.0.1, the real TLS client library), with a 5 ms ticker on the client's
event loop recording how late each tick wakes up (a late tick is a frozen screen). Baseline in the
same run: the same hand with the host on the client's own loop (as before the host thread).
Run it inside a network namespace:

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/client_ui_lag.py'
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from briscola_lan.net.embedded import EmbeddedHost, start_embedded_host
from briscola_lan.rules import TableOptions
from briscola_lan.tui.netplay import NetBackend


async def one_hand(players: int, own_thread: bool, games: Path) -> list[float]:
    async def factory() -> EmbeddedHost:
        return await start_embedded_host(
            TableOptions.make(players=players),
            "Lag",
            dict.fromkeys(range(1, players), "strong"),
            ["127.0.0.1"],
            advertise=False,
            ai_delay=0.0,
            own_thread=own_thread,
            keep=False,  # one hand of a match: no unfinished match left in the user's lobby
        )

    backend = NetBackend(
        "Lag", name="Tess", host_factory=factory, want_seat=0, auto_start=True, games=games
    )
    lags: list[float] = []
    done = False

    async def ticker() -> None:
        while not done:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            lags.append(time.perf_counter() - t - 0.005)

    task = asyncio.create_task(ticker())
    await backend.start()
    model = backend.model
    end = time.monotonic() + 120
    while not (model.hand_over and model.last_result is not None) and time.monotonic() < end:
        if model.my_turn and backend._pending_play != backend._plays_seen():
            backend.play(model.hand[0])
        await asyncio.sleep(0.002)
    done = True
    await task
    await backend.close()
    if not model.hand_over:
        sys.exit("the hand did not finish within 120 s")
    return sorted(lags)


def line(label: str, lags: list[float]) -> tuple[float, float]:
    worst, med = lags[-1] * 1000, statistics.median(lags) * 1000
    p99 = lags[int(len(lags) * 0.99)] * 1000
    print(f"{label:<34} ticks {len(lags):>5}  max {worst:7.1f} ms  p99 {p99:7.1f} ms  "
          f"median {med:6.2f} ms")  # fmt: skip
    return worst, med


async def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("XDG_CONFIG_HOME", str(Path(tmp) / "config"))
        games = Path(tmp) / "games"
        for players in (2, 4):
            base = line(
                f"{players}p host on the UI loop (baseline)", await one_hand(players, False, games)
            )
            new = line(f"{players}p host on its own thread", await one_hand(players, True, games))
            print(f"{'':<34} max lag {new[0] / base[0]:.2f}x baseline, "
                  f"median {new[1] / base[1]:.2f}x baseline")  # fmt: skip


if __name__ == "__main__":
    argparse.ArgumentParser(description=__doc__).parse_args()  # --help, no options
    asyncio.run(main())
