"""QA findings on the network commands, run as real processes: transcripts saved by the host,
the line client and the bot (and verified); one-line errors for bad values; SIGTERM; 3 players;
an existing --state-dir; trust on first use per host."""

from __future__ import annotations

import asyncio
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from briscola_lan.net import tls
from briscola_lan.net.bot_cmd import UsageError, check_target
from briscola_lan.net.client import Target
from tests.net.procs import finish, spawn, start_host, wait_line

LO = ("--interfaces", "127.0.0.1")


def _files(config: Path) -> list[Path]:
    return sorted((config / "data" / "briscola-lan" / "games").glob("*.briscola.json"))


def test_host_bot_and_line_client_save_transcripts_that_verify(tmp_path: Path) -> None:
    host = start_host(
        tmp_path / "h", "--players", "3", "--port", "0", "--no-mdns", *LO, "--tick", "0.02"
    )
    assert any("3 players play the 'points' format" in line for line in host.lines)
    where = f"127.0.0.1:{host.port}"
    fp = ("--fingerprint", host.fingerprint)
    games = tmp_path / "line-games"
    children = [
        spawn(tmp_path / "j", "join", where, *fp, "--seat", "0", "--auto", "random",
              "--name", "Line", "--games", str(games)),
        spawn(tmp_path / "b1", "bot", where, *fp, "--level", "random", "--seat", "1"),
        spawn(tmp_path / "b2", "bot", where, *fp, "--level", "rules", "--seat", "2",
              "--name", "Robo"),
    ]  # fmt: skip
    try:
        results = [finish(c, 120) for c in children]
    finally:
        for c in children:
            if c.poll() is None:
                c.kill()
    code = host.stop()
    report = "\n---\n".join(out for _, out in results)
    assert [c for c, _ in results] == [0, 0, 0], report
    assert code == 0
    host_files = _files(tmp_path / "h")
    assert [p.name.endswith("-host.briscola.json") for p in host_files] == [True]
    line_files = sorted(games.glob("*-Line.briscola.json"))
    bot_files = _files(tmp_path / "b2")
    assert len(line_files) == 1 and len(bot_files) == 1, report
    assert bot_files[0].name.endswith("-Robo.briscola.json")
    for path in (host_files[0], line_files[0], bot_files[0]):
        code, out = finish(spawn(tmp_path / "v", "verify", str(path)), 60)
        assert code == 0, out
        assert "VERIFIED" in out


def test_sigterm_stops_the_host_cleanly_with_a_client_seated(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h", "--players", "2", "--no-mdns", *LO)
    bot = spawn(
        tmp_path / "b",
        "bot",
        f"127.0.0.1:{host.port}",
        "--fingerprint",
        host.fingerprint,
        "--no-start",
        "--seat",
        "1",
        "--timeout",
        "1",
    )
    try:
        assert bot.stdout is not None
        # the bot sits and waits (seat 0 is free): give it time to be connected
        proc = host.proc
        assert proc.stdout is not None
        time.sleep(2.0)
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=15)
        assert proc.returncode == 0, out
        assert "Traceback" not in out and "Exception in callback" not in out, out
        assert "host stopped" in out
    finally:
        bot.kill()
        finish(bot, 10)


BAD = [
    (("bot", "127.0.0.1:1", "--level", "godlike", *LO), "unknown"),
    (("join", "127.0.0.1:1", "--auto", "godlike", *LO), "unknown"),
    (("host", "--port", "99999", "--no-mdns", *LO), "--port 99999"),
    (("host", "--port", "-1", "--no-mdns", *LO), "--port -1"),
    (("join", "127.0.0.1:99999", "--line", *LO), "1..65535"),
    (("join", "127.0.0.1:abc", "--line", *LO), "not a valid address"),
    (("bot", "127.0.0.1:0", *LO), "1..65535"),
    (("host", "--state-dir", "/proc/nope", "--no-mdns", *LO), "--state-dir"),
    (("host", "--games", "/proc/nope", "--no-mdns", *LO), "--games"),
    (("bot", "127.0.0.1:1", "--games", "/proc/nope", *LO), "--games"),
    (("host", "--tables", "0", "--no-mdns", *LO), "--tables 0"),
    (("host", "--grace", "-5", "--no-mdns", *LO), "--grace"),
    (("host", "--tick", "0", "--no-mdns", *LO), "--tick"),
    (("tables", "--timeout", "-1", *LO), "--timeout"),
    (("bot", "Kitchen", "--timeout", "-1", *LO), "--timeout"),
    (("host", "--ai-seats", "0:strong", "--no-mdns", *LO), "seat 0 is yours"),
    (("host", "--players", "3", "--format", "hands", "--no-mdns", *LO), "points"),
]


@pytest.mark.parametrize(("args", "text"), BAD, ids=[" ".join(a[:3]) for a, _ in BAD])
def test_bad_values_give_one_line_errors(tmp_path: Path, args: tuple[str, ...], text: str) -> None:
    code, out = finish(spawn(tmp_path, *args), 30)
    assert code == 2, out
    assert "Traceback" not in out
    assert text in out
    assert len(out.strip().splitlines()) == 1, out


def test_check_target_tells_addresses_from_names() -> None:
    for good in ("Kitchen", "Anna's table", "a@b", "127.0.0.1:4000", "[::1]:4000", "Bar: 2"):
        check_target(good)
    for bad in ("127.0.0.1:abc", "[::1]:x", "localhost:70000", "10.0.0.1:0"):
        with pytest.raises(UsageError):
            check_target(bad)


def _stopped_mid_match(tmp_path: Path, *args: str) -> None:
    """A host whose match has started (a bot in seat 0, an AI at a slow pace in seat 1),
    stopped before the match is over."""
    host = start_host(tmp_path / "h", "--name", "Duo", "--no-mdns", *LO, "--ai", "1",
                      "--ai-delay", "30", *args)  # fmt: skip
    bot = spawn(tmp_path / "b", "bot", f"127.0.0.1:{host.port}", "--fingerprint",
                host.fingerprint, "--seat", "0", "--level", "random")  # fmt: skip
    try:
        assert host.proc.stdout is not None
        wait_line(host.proc.stdout, "the match started", 30, host.lines)
    finally:
        bot.kill()
        bot.wait()
    assert host.stop() == 0


def test_an_unfinished_match_needs_resume_or_force(tmp_path: Path) -> None:
    state = tmp_path / "state"
    _stopped_mid_match(tmp_path, "--state-dir", str(state))
    saved = (state / "table.json").read_bytes()
    code, out = finish(
        spawn(tmp_path / "h", "host", "--state-dir", str(state), "--no-mdns", *LO), 30
    )
    assert code == 2, out
    assert "unfinished match of table 'Duo'" in out and "--resume" in out and "--force" in out
    assert (state / "table.json").read_bytes() == saved
    again = start_host(tmp_path / "h", "--state-dir", str(state), "--resume", "--no-mdns", *LO)
    assert again.stop() == 0
    assert any("Duo" in line for line in again.lines if line.startswith("table ")), again.lines
    forced = start_host(
        tmp_path / "h", "--name", "New", "--state-dir", str(state), "--force", "--no-mdns", *LO
    )
    assert forced.stop() == 0
    assert b"New" in (state / "table.json").read_bytes()
    # a table whose match never started is no match to keep: a new table takes its place
    fresh = start_host(tmp_path / "h", "--name", "Third", "--state-dir", str(state), "--no-mdns",
                       *LO)  # fmt: skip
    assert fresh.stop() == 0
    assert b"Third" in (state / "table.json").read_bytes()


def test_the_default_journal_keeps_an_unfinished_match_and_says_how_to_continue(
    tmp_path: Path,
) -> None:
    """Without --state-dir the journal lives in the user's state folder; a new host keeps an
    unfinished match there (in a folder of its own) and says how to continue it."""
    default = tmp_path / "h" / "state" / "briscola-lan" / "host"  # XDG_STATE_HOME of the host
    _stopped_mid_match(tmp_path)
    assert (default / "table.journal").exists() and (default / "table.json").exists()
    other = start_host(tmp_path / "h", "--name", "Other", "--no-mdns", *LO)
    try:
        kept = [line for line in other.lines if "unfinished match of table 'Duo'" in line]
        assert kept and f"kept in {default}" in kept[0], other.lines
        assert "continue it with `briscola-lan host --resume`" in kept[0], kept
        said = [line for line in other.lines if line.startswith("journal in ")]
        assert said and str(default.with_name("host-2")) in said[0], other.lines
        assert "--state-dir" in said[0], said
    finally:
        assert other.stop() == 0
    again = start_host(tmp_path / "h", "--resume", "--no-mdns", *LO)
    try:
        assert any("'Duo'" in line for line in again.lines if line.startswith("table ")), (
            again.lines
        )
        said = [line for line in again.lines if line.startswith("journal in ")]
        assert said and said[0].rstrip().endswith("with `briscola-lan host --resume`"), said
    finally:
        assert again.stop() == 0


def test_default_table_name_is_per_user_and_host(tmp_path: Path) -> None:
    host = start_host(tmp_path / "h", "--no-mdns", *LO)
    host.stop()
    table_line = next(x for x in host.lines if x.startswith("table "))
    assert "'Briscola'" not in table_line and "@" in table_line


def test_same_table_name_on_two_hosts_is_not_a_changed_certificate(tmp_path: Path) -> None:
    known = tls.KnownTables(tmp_path / "known")
    a = Target("192.168.1.5", 4000, "Briscola")
    b = Target("192.168.1.9", 4000, "Briscola")
    known.check_and_remember(a.key, "aa" * 32)
    known.check_and_remember(b.key, "bb" * 32)  # another host: a first sighting
    with pytest.raises(tls.CertificateChanged, match=r"'Briscola' at 192\.168\.1\.5"):
        known.check_and_remember(a.key, "cc" * 32)


async def test_a_silent_table_gives_a_reason_not_an_empty_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """'cannot reach table ...: .' came from a TimeoutError with no text (finding 15)."""
    from briscola_lan.net import client as client_module

    monkeypatch.setattr(client_module, "CONNECT_TIMEOUT", 0.3)
    server = await asyncio.start_server(lambda r, w: None, "127.0.0.1", 0)  # never answers TLS
    port = server.sockets[0].getsockname()[1]
    try:
        c = client_module.TableClient(None, Target("127.0.0.1", port))  # type: ignore[arg-type]
        with pytest.raises(client_module.ConnectError) as info:
            await c._open(Target("127.0.0.1", port))
    finally:
        server.close()
    text = str(info.value)
    assert f"cannot reach table at 127.0.0.1:{port}: timed out." in text
    assert ": ." not in text


def test_a_host_that_went_away_is_worded_so() -> None:
    from briscola_lan.net.bot_cmd import lost_reason
    from briscola_lan.net.client import ConnectError

    class Gone:
        target = Target("127.0.0.1", 4000)
        try:
            raise ConnectError("cannot reach table at 127.0.0.1:4000: x") from TimeoutError()
        except ConnectError as exc:
            error = exc

    assert lost_reason(Gone(), True).startswith("the host went away")  # type: ignore[arg-type]
    assert lost_reason(Gone(), False).startswith("cannot reach")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "home"),
    [
        (("join", "--line", "--auto", "random", "--name", "J"), "."),
        (("bot", "--level", "random", "--name", "B"), "bots/B"),
    ],
)
async def test_killed_between_commit_and_reveal_still_reveals_after_restart(
    tmp_path: Path, command: tuple[str, ...], home: str
) -> None:
    """The restarted join or bot loads the seed it committed to (saved beside its resume token)."""
    from briscola_lan.net.player import auto_play, connect, make_chooser
    from briscola_lan.wire.messages import CommitSeed

    host = start_host(
        tmp_path / "h",
        "--players",
        "2",
        "--no-mdns",
        *LO,
        "--hands-to-win",
        "1",
        "--grace",
        "60",
        "--deal",
        "classic",
    )
    other = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "other")
    held: list[object] = []
    hold = True
    receive = other.session.receive

    def holding(message: object) -> list[object]:
        replies = receive(message)
        if not hold:
            return replies  # type: ignore[no-any-return]
        held.extend(r for r in replies if isinstance(r, CommitSeed))
        return [r for r in replies if not isinstance(r, CommitSeed)]

    other.session.receive = holding
    join_args = (command[0], f"127.0.0.1:{host.port}", "--fingerprint", host.fingerprint,
                 "--seat", "1", *command[1:])  # fmt: skip
    first = spawn(tmp_path / "j", *join_args)
    second = None
    secrets = tmp_path / "j" / "briscola-lan" / home / "resume_secrets"
    try:
        task = asyncio.create_task(auto_play(other, make_chooser("random", 0), seat=0))
        st = other.session.state
        assert await other.wait_for(lambda: bool(held), 30)  # seat 0 holds its commit
        for _ in range(50):  # seat 1 has committed (and saved its seed, with the fix)
            if secrets.is_dir() and any(secrets.iterdir()):
                break
            await asyncio.sleep(0.1)
        first.kill()
        first.wait()
        assert first.stdout is not None
        first.stdout.close()
        second = spawn(tmp_path / "j", *join_args)  # same config dir: token and seeds
        assert await other.wait_for(lambda: any("seat 1 reconnected" in x for x in st.log), 30)
        hold = False
        other.send(*held)
        await asyncio.wait_for(task, 60)
        with ThreadPoolExecutor(1) as pool:
            code, out = await asyncio.get_running_loop().run_in_executor(pool, finish, second, 60)
        assert code == 0, out
        assert st.match_over and not st.match_aborted, st.log
        assert all(ch.status == "verified" for ch in st.checks), st.log
        saved = _files(tmp_path / "j")
        assert len(saved) == 1
        code, out = finish(spawn(tmp_path / "v", "verify", str(saved[0])), 60)
        assert code == 0, out
    finally:
        for p in (first, second):
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
        await other.close()
        host.stop()


def test_resuming_a_finished_match_says_it_is_over(tmp_path: Path) -> None:
    state = tmp_path / "state"
    host = start_host(tmp_path / "h", "--state-dir", str(state), "--no-mdns", *LO, "--one-match",
                      "--hands-to-win", "1", "--ai", "1", "--tick", "0.01")  # fmt: skip
    bot = spawn(tmp_path / "b", "bot", f"127.0.0.1:{host.port}", "--fingerprint",
                host.fingerprint, "--seat", "0", "--level", "random")  # fmt: skip
    code, out = finish(bot, 60)
    assert code == 0, out
    assert host.stop() == 0
    again = start_host(tmp_path / "h", "--state-dir", str(state), "--resume", "--no-mdns", *LO)
    assert again.stop() == 0
    assert any("is over" in line for line in again.lines), again.lines
