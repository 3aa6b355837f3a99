"""A player who asks for a seat at a table whose match is under way is told so at once (it used
to wait for the seat until its own time-out)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from pathlib import Path

import pytest

from briscola_lan.net.client import Target
from briscola_lan.net.player import MatchFailed, auto_play, connect, make_chooser
from tests.net.procs import start_host

TABLE = ("--players", "2", "--ai", "1", "--no-mdns", "--tick", "0.01",
         "--interfaces", "127.0.0.1")  # fmt: skip


async def test_a_seat_asked_for_mid_match_is_refused_clearly(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h", *TABLE)
    target = Target("127.0.0.1", host.port, None, host.fingerprint)
    bob = await connect(target, "Bob")
    # Bob thinks for a while before each card: the match stays under way.
    playing = asyncio.create_task(auto_play(bob, make_chooser("random", 1), delay=1.0))
    try:
        for _ in range(300):
            if bob.session.state.phase == "playing":
                break
            await asyncio.sleep(0.05)
        assert bob.session.state.phase == "playing"
        ann = await connect(target, "Ann")
        try:
            began = time.monotonic()
            with pytest.raises(MatchFailed, match="cannot take seat 1: a match is under way"):
                await auto_play(ann, make_chooser("random", 3), seat=1, timeout=60)
            assert time.monotonic() - began < 20  # refused, not timed out
        finally:
            await ann.close()
    finally:
        playing.cancel()
        with contextlib.suppress(asyncio.CancelledError, MatchFailed):
            await playing
        await bob.close()
        assert host.stop() == 0
