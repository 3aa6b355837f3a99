"""A finished table opens for a new match once everyone has left it (``--one-match`` keeps the
result on show): the same port and options, a new game with its own transcript."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net.client import Target
from briscola_lan.net.next_match import REOPEN_AFTER, Reopener, due_for_reopening
from briscola_lan.net.player import connect
from tests.net.procs import Host, finish, spawn, start_host, wait_line

LO = ("--interfaces", "127.0.0.1")
QUICK = ("--players", "2", "--ai", "1", "--hands-to-win", "1", "--no-mdns", "--tick", "0.01", *LO)


def _reopener(phase: str, players: int) -> Reopener:
    seats = [SimpleNamespace(conn=i + 1 if i < players else None) for i in range(2)]
    table = SimpleNamespace(phase=phase, seats=seats, waiting=set())
    served = SimpleNamespace(hosted=SimpleNamespace(table=table))
    return Reopener(served=served, saver=0)  # type: ignore[arg-type]


def test_a_table_reopens_only_once_its_match_is_over_and_its_players_have_left() -> None:
    playing = _reopener("playing", 0)
    assert not due_for_reopening(playing, 0.0) and not due_for_reopening(playing, 100.0)
    r = _reopener("over", 1)  # a player still reads the result
    assert not due_for_reopening(r, 0.0) and not due_for_reopening(r, 100.0)
    r.hosted.table.seats[0].conn = None  # ... and leaves at t=100
    assert not due_for_reopening(r, 100.0)
    assert not due_for_reopening(r, 100.0 + REOPEN_AFTER / 2)
    r.hosted.table.seats[0].conn = 7  # the player looks in again: the wait starts over
    assert not due_for_reopening(r, 100.0 + REOPEN_AFTER)
    r.hosted.table.seats[0].conn = None
    assert not due_for_reopening(r, 200.0)
    assert due_for_reopening(r, 200.0 + REOPEN_AFTER)


def test_a_newcomer_waiting_for_the_next_match_reopens_a_table_its_players_left() -> None:
    r = _reopener("over", 1)
    r.hosted.table.waiting.add(9)  # a newcomer's hello waits for the next match...
    assert not due_for_reopening(r, 0.0)  # ... while a player still reads the result
    r.hosted.table.seats[0].conn = None
    assert due_for_reopening(r, 0.5)  # at once: no need to wait REOPEN_AFTER for nobody


def _bot(tmp_path: Path, host: Host) -> tuple[int, str]:
    bot = spawn(tmp_path / "b", "bot", f"127.0.0.1:{host.port}", "--fingerprint",
                host.fingerprint, "--seat", "0", "--level", "random")  # fmt: skip
    return finish(bot, 60)


def _await_line(host: Host, text: str, timeout: float) -> str:
    assert host.proc.stdout is not None
    return wait_line(host.proc.stdout, text, timeout, host.lines)


def _host_files(config: Path) -> list[Path]:
    return sorted((config / "data" / "briscola-lan" / "games").glob("*-host.briscola.json"))


def test_after_a_match_the_table_opens_again_for_the_next(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h", *QUICK)
    try:
        for match in (1, 2):
            code, out = _bot(tmp_path, host)
            assert code == 0 and "match over" in out, out
            _await_line(host, "open for a new match", 10 + REOPEN_AFTER)
            assert len(_host_files(tmp_path / "h")) == match
    finally:
        assert host.stop() == 0
    reports = [verify_records(load(path)) for path in _host_files(tmp_path / "h")]
    assert all(r.ok and r.match_over for r in reports), reports
    assert len({r.game_id for r in reports}) == 2  # two matches: two games, two transcripts


async def test_with_one_match_the_result_stays_on_show(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h", *QUICK, "--one-match")
    try:
        code, out = _bot(tmp_path, host)
        assert code == 0, out
        time.sleep(REOPEN_AFTER + 1.0)
        late = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "late")
        try:
            st = late.session.state
            await late.wait_for(lambda: st.options is not None or late.error is not None, 10)
            late.send(*late.session.take_seat(0))  # the finished match still holds the seats
            await late.wait_for(lambda: bool(st.errors) or st.seat is not None, 10)
            assert st.seat is None and st.errors[-1].code in ("wrong_phase", "seat_taken"), st
        finally:
            await late.close()
    finally:
        assert host.stop() == 0
    assert not any("open for a new match" in line for line in host.lines)
