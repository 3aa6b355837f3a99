"""Network bots at ``--delay 0`` play whole matches against each other over real sockets.

The host runs without a journal (``--no-journal``), so it relays each card before it signs the
draws that follow (the early relay): a bot that played as soon as a trick was taken chose from a
hand that still lacked its drawn card, and the strong bot died with a ``KeyError`` in most
matches.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.net.procs import finish, spawn, start_host

LO = ("--interfaces", "127.0.0.1")


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_strong_and_rules_bots_play_whole_matches_at_full_speed(tmp_path: Path, seed: int) -> None:
    host = start_host(
        tmp_path / "h", "--players", "2", "--no-mdns", "--one-match", "--no-journal", *LO
    )
    levels = ["strong", "rules"] if seed % 2 else ["rules", "strong"]  # the strong bot leads too
    try:
        bots = [
            spawn(
                tmp_path / f"b{seat}",
                "bot",
                f"127.0.0.1:{host.port}",
                "--fingerprint",
                host.fingerprint,
                "--seat",
                str(seat),
                "--level",
                level,
                "--seed",
                str(seed),
                "--delay",
                "0",
            )
            for seat, level in enumerate(levels)
        ]
        results = [finish(b, 240) for b in bots]
        for (code, out), level in zip(results, levels, strict=True):
            assert code == 0, f"the {level} bot failed:\n{out}"
            assert "match over" in out, out
            assert "hand 1: verified" in out, out
            # Nothing went wrong on the way: no traceback, no logged bot error, no reconnect.
            assert "Traceback" not in out and "ERROR" not in out, out
            assert "0 reconnects" in out, out
    finally:
        host.stop()
