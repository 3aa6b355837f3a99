"""The host's console: one line per event (joined, left, reconnected, an AI took a seat, a hand
and the match result), from the real ``briscola-lan host`` with a bot, and ``--quiet``."""

from __future__ import annotations

import signal
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.net.console import events, look
from briscola_lan.rules import TableOptions
from briscola_lan.table.host import HostTable
from tests.net.procs import finish, rest_of_output, spawn, start_host, wait_line

LO = ("--interfaces", "127.0.0.1")
QUICK = ("--players", "2", "--ai", "1", "--hands-to-win", "1", "--no-mdns", "--tick", "0.01", *LO)


def test_events_between_two_looks() -> None:
    table = HostTable(
        TableOptions.make(players=3, match_format="points"),
        name="Kitchen",
        identity=Identity.generate(),
        ai_seats={2: "rules"},
    )
    first = look(table)
    assert events(None, first) == ["table 'Kitchen': an AI (rules) took seat 2: AI rules 2"]
    seats = table.seats
    seats[0].occupied, seats[0].name, seats[0].conn = True, "Ann", 1
    seats[1].occupied, seats[1].name, seats[1].conn = True, "Bea", 2
    joined = look(table)
    assert events(first, joined) == [
        "table 'Kitchen': Ann joined, seat 0",
        "table 'Kitchen': Bea joined, seat 1",
    ]
    seats[1].conn = None
    assert events(joined, look(table)) == ["table 'Kitchen': Bea (seat 1) lost the connection"]
    dropped = look(table)
    seats[1].conn = 3
    assert events(dropped, look(table)) == ["table 'Kitchen': Bea (seat 1) reconnected"]
    back = look(table)
    seats[0].occupied = False
    assert events(back, look(table)) == ["table 'Kitchen': Ann left seat 0"]
    table.game_id = bytes(16)  # a match is on: two aborts name Bea
    playing = look(table)
    table.named[1] = 1
    once = look(table)
    assert events(playing, once) == [
        "table 'Kitchen': a hand was aborted naming Bea (seat 1): it is dealt again"
    ]
    table.named[1] = 2
    assert events(once, look(table)) == [
        "table 'Kitchen': a hand was aborted naming Bea (seat 1): it is dealt again; the host "
        "plays seat 1 to the end of the match"
    ]


def test_the_host_console_tells_each_event_and_quiet_silences_it(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h", *QUICK, "--name", "Kitchen")
    try:
        where = f"127.0.0.1:{host.port}"
        bot = spawn(tmp_path / "b", "bot", where, "--fingerprint", host.fingerprint,
                    "--seat", "0", "--level", "random", "--name", "Robo")  # fmt: skip
        code, out = finish(bot, 120)
        assert code == 0, out
        assert "Robo: looking for table 127.0.0.1:" in out and "Robo: connected to" in out
        lines: list[str] = []
        wait_line(host.proc.stdout, "the match is over", 60, lines)
        text = "\n".join(lines)
        assert "table 'Kitchen': an AI (rules) took seat 1" in text, text
        assert "table 'Kitchen': Robo joined, seat 0" in text, text
        assert "table 'Kitchen': the match started: Robo, AI rules 1" in text, text
        assert "table 'Kitchen': hand 1 over, points [" in text, text
        assert "the match is over:" in text and " won" in text, text
        if "Robo (seat 0) lost the connection" not in text:  # after the match's end, or before
            wait_line(host.proc.stdout, "Robo (seat 0) lost the connection", 30, lines)
    finally:
        host.stop()
    quiet = start_host(tmp_path / "q", *QUICK, "--quiet")
    try:
        bot = spawn(tmp_path / "c", "bot", f"127.0.0.1:{quiet.port}", "--fingerprint",
                    quiet.fingerprint, "--seat", "0", "--level", "random", "--quiet")  # fmt: skip
        code, out = finish(bot, 120)
        assert code == 0, out
        assert "looking for table" not in out and "playing in seat" not in out, out
        assert out.startswith("match over:"), out
        quiet.proc.send_signal(signal.SIGTERM)
        rest = rest_of_output(quiet.proc.stdout)
    finally:
        quiet.stop()
    assert "joined" not in rest and "hand 1 over" not in rest, rest
    assert "host stopped" in rest


def test_the_console_looks_again_only_when_something_it_shows_changed(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """After every message the table handles the console glances at it (cheap); it looks (and
    compares) only when the glance differs, and still tells every event."""
    import briscola_lan.net.console as console_module

    table = HostTable(TableOptions.make(players=2), name="K", identity=Identity.generate())
    lines: list[str] = []
    console = console_module.Console(lines.append)
    console.watch(table)
    console.start()
    looks = 0
    real = console_module.look

    def counting(t):  # type: ignore[no-untyped-def]
        nonlocal looks
        looks += 1
        return real(t)

    monkeypatch.setattr(console_module, "look", counting)
    for _ in range(10):
        console.poll()
    assert looks == 0 and lines == []
    table.seats[0].occupied, table.seats[0].name, table.seats[0].conn = True, "Ann", 1
    console.poll()
    console.poll()
    assert looks == 1 and lines == ["table 'K': Ann joined, seat 0"]
    table.seats[0].conn = None
    console.poll()
    assert looks == 2 and lines[-1] == "table 'K': Ann (seat 0) lost the connection"


def test_a_tick_that_writes_nothing_is_looked_at_only_every_so_often(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A tick that tells nobody anything (the table's timers, the host's tick after each
    message) does not make the console glance every time; a change such a tick makes (AI
    players alone at a table) still reaches the console within ``LOOK_EVERY`` seconds, and one
    a message announces at once. A clock that goes back looks at once too."""
    import briscola_lan.net.console as console_module

    table = HostTable(TableOptions.make(players=2), name="K", identity=Identity.generate())
    lines: list[str] = []
    console = console_module.Console(lines.append)
    watched = console.watch(table)
    console.start()
    glances = 0
    real = console_module.glance

    def counting(t):  # type: ignore[no-untyped-def]
        nonlocal glances
        glances += 1
        return real(t)

    monkeypatch.setattr(console_module, "glance", counting)
    every = console_module.LOOK_EVERY
    watched.tick(100.0)  # the first tick looks
    assert glances == 1
    for i in range(1, 10):
        watched.tick(100.0 + every * i / 10)
    assert glances == 1  # nothing written, within LOOK_EVERY: no glance
    table.seats[1].occupied, table.seats[1].name, table.seats[1].conn = True, "Bea", 7
    watched.tick(100.0 + every * 0.95)
    assert lines == []  # a change no message tells of waits for the next look...
    watched.tick(100.0 + every * 1.01)
    assert glances == 2 and lines == ["table 'K': Bea joined, seat 1"]  # ...which comes
    table.seats[1].conn = None
    watched.tick(50.0)  # the clock went back: look at once
    assert glances == 3 and lines[-1] == "table 'K': Bea (seat 1) lost the connection"

    class Writing:  # a table whose tick writes to someone: the console looks every time
        def __init__(self, inner: HostTable) -> None:
            self.inner = inner

        def __getattr__(self, name: str) -> object:
            return getattr(self.inner, name)

        def tick(self, now: float) -> list[object]:
            self.inner.tick(now)
            return ["a message"]

    writing = console_module.WatchedTable(Writing(table), console)
    writing.tick(50.01)
    writing.tick(50.02)
    assert glances == 5
