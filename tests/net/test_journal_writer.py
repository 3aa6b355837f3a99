"""The host writes its tables' journals off the event loop (``net/write_ahead.py`` over
``net/journal_threads.py``) and keeps the write-ahead rule: while a table's frame is being
written, nothing that change (or any later one) causes reaches its players, and the table's
frames and messages keep their order, while another table on the same host plays on; a write the
disk refuses is told from the writer's thread and loses nothing; a host that stops writes every
frame queued first."""

from __future__ import annotations

import asyncio
import errno
import os
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Play, decode_as
from briscola_lan.net import journal as journal_module
from briscola_lan.net import tls
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.host_saves import SaveReporter
from briscola_lan.net.journal import Journal
from briscola_lan.net.player import PlayStats, auto_play, connect, make_chooser
from briscola_lan.net.server import HostServer
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import counter_entropy, seat_clients
from briscola_lan.wire.messages import CardPlayed
from tests.net.test_journal import _comparable as _state


def _comparable(table: HostTable) -> dict[str, Any]:
    """The table's state as its journal keeps it: its clock as at its last change (a timer's
    tick that changes nothing else is not a change: no frame)."""
    state = _state(table)
    state.pop("now")
    return state


class SlowDisk:
    """The journals' writes under ``root`` wait while the disk is held (``free`` cleared), and
    fail half-way with ``error`` while it is set, as a full disk does."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.free = threading.Event()
        self.free.set()
        self.waiting = threading.Event()  # a write waits for the disk now
        self.error: int | None = None
        self.threads: set[str] = set()  # the threads that wrote there
        self.real = journal_module._write_at

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(journal_module, "_write_at", self.write_at)

    def write_at(self, fd: int, data: bytes, offset: int) -> None:
        if self.root in Path(os.readlink(f"/proc/self/fd/{fd}")).parents:
            self.threads.add(threading.current_thread().name)
            if not self.free.is_set():
                self.waiting.set()
                assert self.free.wait(60)
                self.waiting.clear()
            if self.error is not None:
                self.real(fd, data[: len(data) // 2], offset)
                raise OSError(self.error, os.strerror(self.error))
        self.real(fd, data, offset)


def _table(name: str) -> HostTable:
    """Three seats, a person at seat 0 and two AI players (who answer the person's card at
    once, at the host: changes staged while the person's card is being written)."""
    options = TableOptions.make(players=3, match_format=MatchFormat.POINTS, hands_to_win=1)
    return HostTable(
        options,
        name=name,
        identity=Identity.generate(),
        ai_seats={1: "random", 2: "random"},
        deal="classic",
    )


class Seat:
    """A person's client at one table of the host, and what it was sent."""

    def __init__(self, client: TableClient) -> None:
        self.client = client
        self.messages: list[str] = []  # the type of each message, as it arrives
        self.cards: list[int] = []  # who played each card relayed to it, in order
        client.before_message = self._arrived

    def _arrived(self, message: Any) -> None:
        self.messages.append(type(message).__name__)
        if type(message) is CardPlayed:
            self.cards.append(decode_as(message.body, Play).seat)


async def _eventually(predicate: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out: {what}"
        await asyncio.sleep(0.01)


class Host:
    """Two tables, ``a`` and ``b``, on one in-process host, each with its journal in its own
    folder, each played by a person (``Seat``) and two AI players."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.tables = {k: _table(k) for k in "ab"}
        self.journals = {
            k: Journal.open(tmp_path / k / "table.journal", t.identity.public_key)
            for k, t in self.tables.items()
        }
        self.seats: dict[str, Seat] = {}
        self.plays: dict[str, asyncio.Task[PlayStats]] = {}
        self.server: HostServer | None = None

    async def start(self, gate: Callable[[], Any] | None = None) -> HostServer:
        cert = tls.load_or_create_certificate(self.tmp_path / "host")
        server = self.server = HostServer(
            tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint
        )
        for key, table in self.tables.items():
            hosted = await server.add_table(key, table, journal=self.journals[key])
            target = Target("127.0.0.1", hosted.port, None, cert.fingerprint)
            seat = self.seats[key] = Seat(await connect(target, f"p-{key}"))
            self.plays[key] = asyncio.create_task(
                auto_play(
                    seat.client,
                    make_chooser("random", 1),
                    seat=0,
                    delay=0.005,
                    gate=gate if key == "a" else None,
                    timeout=120,
                )
            )
        return server

    async def stop(self) -> None:
        for task in self.plays.values():
            task.cancel()
        await asyncio.gather(*self.plays.values(), return_exceptions=True)
        for seat in self.seats.values():
            await seat.client.close()
        if self.server is not None:
            await self.server.close()
        for journal in self.journals.values():
            journal.close()

    def restored(self, key: str) -> HostTable:
        """The table its journal's file gives back now (the journal closed first)."""
        table = self.tables[key]
        journal = Journal.open(self.journals[key].path, table.identity.public_key)
        try:
            restored = journal.load(table.identity)
        finally:
            journal.close()
        assert restored is not None
        return restored


def _hold_before_leading(disk: SlowDisk, hold: threading.Event, seat: list[Seat]) -> Any:
    """auto_play's gate for table a's person: once ``hold`` is set, the disk is held just
    before the person leads a trick (the two AI players answer that card at the host)."""

    async def gate() -> None:
        view = seat[0].client.session.state.view if seat else None
        if hold.is_set() and view is not None and not view.trick:
            hold.clear()
            disk.free.clear()

    return gate


async def test_a_change_leaves_only_once_its_frame_is_written_and_other_tables_play_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = SlowDisk(tmp_path / "a")
    disk.install(monkeypatch)
    host = Host(tmp_path)
    hold = threading.Event()
    seat_a: list[Seat] = []
    try:
        await host.start(_hold_before_leading(disk, hold, seat_a))
        a, b = host.seats["a"], host.seats["b"]
        seat_a.append(a)
        journal = host.journals["a"]
        await _eventually(lambda: len(a.cards) >= 6, 60, "table a plays")
        hold.set()
        await _eventually(disk.waiting.is_set, 60, "table a's person leads, its frame held")
        # The AI players answer at the host: their changes are staged behind the held frame.
        await _eventually(lambda: journal.staged - journal.resolved >= 2, 30, "frames queued")
        seen, cards, size = len(a.messages), len(a.cards), journal.path.stat().st_size
        b_cards = len(b.cards)
        await _eventually(lambda: len(b.cards) >= b_cards + 6, 60, "table b plays on")
        assert len(a.messages) == seen  # nothing of table a left meanwhile
        assert journal.path.stat().st_size == size and disk.waiting.is_set()
        # The table waits for the person, who was sent nothing: for a card, or for the
        # acknowledgement of the hand when the held lead was its last trick.
        assert host.tables["a"].phase in ("play", "ack")
        disk.free.set()
        await _eventually(lambda: len(a.cards) >= cards + 3, 30, "table a goes on")
        assert a.cards[cards : cards + 3] == [0, 1, 2]  # its card, then the AI players' answers
        for key in "ab":
            stats = await asyncio.wait_for(host.plays[key], 120)
            assert host.seats[key].client.session.state.match_over, key
            assert stats.reconnects == 0 and not stats.errors, (key, stats)
        assert disk.threads and all(t.startswith("briscola-journal-") for t in disk.threads)
    finally:
        disk.free.set()
        await host.stop()
    for key in "ab":
        assert _comparable(host.restored(key)) == _comparable(host.tables[key]), key


async def test_a_refused_write_is_told_from_the_writer_and_loses_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = SlowDisk(tmp_path / "a")
    disk.install(monkeypatch)
    host = Host(tmp_path)
    told: list[tuple[str, bool, bool]] = []
    console: list[str] = []
    try:
        server = await host.start()
        reporter = SaveReporter(server, console.append)  # as the host command has it
        loop_thread = threading.current_thread()

        def on_saving(hosted: Any, path: Path, exc: OSError | None) -> None:
            told.append((hosted.key, exc is None, threading.current_thread() is loop_thread))
            reporter.state_saving(hosted, path, exc)

        server.on_saving = on_saving
        a = host.seats["a"]
        state = a.client.session.state
        await _eventually(lambda: len(a.cards) >= 3, 60, "table a plays")
        disk.error = errno.ENOSPC
        await _eventually(lambda: len(state.notices) == 1, 30, "the players are told")
        assert state.notices[0].code == "not_saving" and "disk full" in state.notices[0].text
        cards = len(a.cards)
        await _eventually(lambda: len(a.cards) >= cards + 6, 60, "play goes on, unsaved")
        # What the disk refused waits, in order (between a write's taking it and the disk's
        # refusal, the writer holds it: looked at again until it is back in the queue).
        await _eventually(lambda: host.journals["a"].pending, 10, "the refused frames queued")
        disk.error = None
        await _eventually(lambda: len(state.notices) == 2, 30, "saved again, told")
        assert state.notices[1].code == "saving"
        for key in "ab":
            stats = await asyncio.wait_for(host.plays[key], 120)
            assert stats.reconnects == 0 and not stats.errors, (key, stats)
    finally:
        disk.error = None
        await host.stop()
    assert told == [("a", False, True), ("a", True, True)]  # once each way, on the loop
    assert all(t.startswith("briscola-journal-") for t in disk.threads)
    assert len(console) == 2 and "cannot save the game: disk full" in console[0], console
    assert "saved again" in console[1]
    assert _comparable(host.restored("a")) == _comparable(host.tables["a"])


async def test_a_host_that_stops_writes_every_frame_queued_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    disk = SlowDisk(tmp_path / "a")
    disk.install(monkeypatch)
    host = Host(tmp_path)
    hold = threading.Event()
    seat_a: list[Seat] = []
    try:
        server = await host.start(_hold_before_leading(disk, hold, seat_a))
        seat_a.append(host.seats["a"])
        journal = host.journals["a"]
        await _eventually(lambda: len(seat_a[0].cards) >= 3, 60, "table a plays")
        hold.set()
        await _eventually(disk.waiting.is_set, 60, "a frame held")
        await _eventually(lambda: journal.staged - journal.resolved >= 2, 30, "frames queued")
        closing = asyncio.create_task(server.close())
        await asyncio.sleep(0.3)
        assert not closing.done()  # it waits for the disk
        disk.free.set()
        await asyncio.wait_for(closing, 30)
        assert journal.resolved == journal.staged and not journal.pending
    finally:
        disk.free.set()
        await host.stop()
    assert _comparable(host.restored("a")) == _comparable(host.tables["a"])


def test_closing_a_journal_writes_what_is_staged(tmp_path: Path) -> None:
    """Changes staged and not written yet (the writer's) are written by ``close``, in order."""
    options = TableOptions.make(players=2, hands_to_win=1)
    host, _clients, _wire = seat_clients(options, entropy=counter_entropy("staged"), deal="classic")
    journal = Journal.open(tmp_path / "table.journal", host.identity.public_key)
    journal.save(host)
    size = journal.path.stat().st_size
    for _ in range(3):
        host.tick(host.now + 1.0)
        journal.stage(host)
    assert journal.staged == 4 and journal.resolved == 1 and journal.pending
    assert journal.path.stat().st_size == size  # staged: not written
    journal.close()
    again = Journal.open(journal.path, host.identity.public_key)
    try:
        restored = again.load(host.identity)
    finally:
        again.close()
    assert restored is not None and _comparable(restored) == _comparable(host)
