"""A player who connects to a finished table while it empties (its players just left, the table
not yet open for the next match) plays the next match: it is neither told "the table is full"
nor left waiting for a seat it asked for, and its connection does not keep the table closed."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from briscola_lan.net.client import Target
from briscola_lan.net.next_match import REOPEN_AFTER
from briscola_lan.net.player import auto_play, connect, make_chooser
from tests.net.procs import finish, rest_of_output, spawn, start_host

LO = ("--interfaces", "127.0.0.1")
QUICK = ("--players", "2", "--ai", "1", "--hands-to-win", "1", "--no-mdns", "--tick", "0.01", *LO)


async def test_players_arriving_just_after_a_match_play_the_next_one(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h", *QUICK)
    try:
        bot = spawn(tmp_path / "b", "bot", f"127.0.0.1:{host.port}", "--fingerprint",
                    host.fingerprint, "--seat", "0", "--level", "random")  # fmt: skip
        code, out = finish(bot, 60)
        assert code == 0 and "match over" in out, out
        # The bot has just left: the table waits REOPEN_AFTER s before a new match. Newcomers
        # arrive now: one takes any free seat (it was told "the table is full"), the next asks
        # for seat 0 (it waited for it forever, and kept the table from ever reopening).
        for seat in (None, 0):
            left = time.monotonic()
            client = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "Ann")
            arrived = time.monotonic() - left
            try:
                stats = await auto_play(client, make_chooser("random", 3), seat=seat, timeout=60)
            finally:
                await client.close()
            st = client.session.state
            assert st.match_over and not st.match_aborted and stats.plays >= 20, (seat, st.log)
            assert arrived < REOPEN_AFTER  # it did come while the finished table emptied
    finally:
        host.proc.send_signal(signal.SIGTERM)
        assert host.proc.stdout is not None
        said = rest_of_output(host.proc.stdout)
        assert host.stop() == 0
    assert said.count("open for a new match") >= 2, said
