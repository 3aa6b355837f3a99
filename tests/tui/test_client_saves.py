"""The full-screen client writes its transcripts on a thread of its own: a slow disk holds no
play, the saves land after it in order, and leaving a table waits for them, and for the journal
of a table it hosts, only so long."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.net import embedded, games, journal
from briscola_lan.table.events import CardPlayed
from briscola_lan.tui import net_saves
from briscola_lan.tui.netplay import NetBackend
from briscola_lan.tui.state import Screen

from .helpers import ENTER, ESC, net_config, running, wait_for
from .test_netplay import _play_hand

pytestmark = pytest.mark.usefixtures("private_dirs")


class Disk:
    """A write held until ``release``: a disk that takes its time."""

    def __init__(self) -> None:
        self.gate = threading.Event()
        self.writing = threading.Event()
        self.threads: set[str] = set()

    def release(self) -> None:
        self.gate.set()

    def hold(self, real: Callable[..., Path]) -> Callable[..., Path]:
        """``real``, held by this disk (the threads that called it noted)."""

        def held(*args: Any, **kwargs: Any) -> Path:
            self.threads.add(threading.current_thread().name)
            self.writing.set()
            assert self.gate.wait(60), "the test never released the disk"
            return real(*args, **kwargs)

        return held


@pytest.fixture
def slow_disk(monkeypatch: pytest.MonkeyPatch) -> Iterator[Disk]:
    disk = Disk()
    monkeypatch.setattr(games, "write_transcript", disk.hold(games.write_transcript))
    try:
        yield disk
    finally:
        disk.release()  # the saving thread finishes and ends


async def test_a_slow_disk_holds_no_play_and_the_saves_land_after_it(
    tmp_path: Path, slow_disk: Disk
) -> None:
    async with running(net_config(tmp_path)) as d:
        await d.keys("a")
        model = d.client.model
        await wait_for(lambda: model.my_turn, 15, "my first turn")
        await _play_hand(d)
        await wait_for(slow_disk.writing.is_set, 10, "the first hand's save to start")
        # the disk holds the save: the screen goes on, the next hand is played meanwhile
        await d.keys("n")
        await wait_for(lambda: not model.hand_over and model.hand_number == 1, 15, "hand 2")
        await wait_for(lambda: model.my_turn, 15, "my turn in hand 2")
        folder = tmp_path / "games"
        assert not list(folder.glob("*.briscola.json"))
        slow_disk.release()
        await wait_for(lambda: len(list(folder.glob("*.briscola.json"))) == 2, 10, "the saves")
    assert slow_disk.threads and all(t.startswith("briscola-lan-saves") for t in slow_disk.threads)


async def test_leaving_waits_for_a_disk_that_does_not_answer_only_so_long(
    tmp_path: Path, slow_disk: Disk, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(net_saves, "SAVE_WAIT", 0.5)
    async with running(net_config(tmp_path)) as d:
        await d.keys("a")
        backend = d.client.backend
        assert isinstance(backend, NetBackend)
        await wait_for(lambda: d.client.model.my_turn, 15, "my first turn")
        await _play_hand(d)
        await wait_for(slow_disk.writing.is_set, 10, "the first hand's save to start")
        await d.keys(ESC, "y")
        await wait_for(lambda: d.client.ui.screen is Screen.LOBBY, 5, "the lobby")
        await wait_for(
            lambda: any("has not finished saving" in line for line in backend.model.log),
            10,
            "the closing to give up on the disk",
        )


async def test_leaving_a_table_hosted_here_waits_for_its_journal_only_so_long(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(embedded, "CLOSE_WAIT", 0.5)
    hung, gate = threading.Event(), threading.Event()  # hung: every journal write waits for gate
    real_write, real_fsync = journal._write_at, os.fsync

    def write_at(fd: int, data: bytes, offset: int) -> None:
        if hung.is_set():
            gate.wait(60)
        real_write(fd, data, offset)

    def fsync(fd: int) -> None:
        if hung.is_set():
            gate.wait(60)
        real_fsync(fd)

    monkeypatch.setattr(journal, "_write_at", write_at)
    monkeypatch.setattr(os, "fsync", fsync)
    try:
        async with running(net_config(tmp_path)) as d:
            await d.keys("a")
            backend = d.client.backend
            assert isinstance(backend, NetBackend)
            await wait_for(lambda: d.client.model.my_turn, 15, "my first turn")
            hung.set()  # the disk stops answering: my card never reaches the journal
            await d.keys(ENTER)
            await d.keys(ESC, "y")
            await wait_for(lambda: d.client.ui.screen is Screen.LOBBY, 5, "the lobby")
            await wait_for(
                lambda: any("finished writing the table's journal" in x for x in backend.model.log),
                20,
                "the closing to give up on the journal's disk",
            )
    finally:
        gate.set()


async def test_a_hints_record_on_a_slow_disk_holds_no_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The record of a hint, kept beside the saved game, is written by the saving thread: the
    play goes on while the disk holds it, and it lands after."""
    from briscola_lan.tui import netplay

    disk = Disk()
    monkeypatch.setattr(netplay, "record_hint", disk.hold(netplay.record_hint))
    try:
        async with running(net_config(tmp_path)) as d:
            await d.keys("a")
            model = d.client.model
            await wait_for(lambda: model.my_turn, 15, "my first turn")
            await d.keys("h")
            await wait_for(disk.writing.is_set, 30, "the hint's record to start")
            assert any("asked the strong AI for a hint" in line for line in model.log)
            await d.keys(ESC, ENTER)  # the hint closes and my card is played meanwhile
            backend = d.client.backend
            assert isinstance(backend, NetBackend) and backend.session is not None
            session = backend.session

            def played() -> bool:
                return any(isinstance(e, CardPlayed) and e.mine for e in session.state.events)

            await wait_for(played, 15, "my play")
            folder = tmp_path / "games"
            assert not list(folder.glob("*.hints.json"))
            disk.release()
            await wait_for(lambda: len(list(folder.glob("*.hints.json"))) == 1, 10, "the record")
    finally:
        disk.release()
    assert disk.threads and all(t.startswith("briscola-lan-saves") for t in disk.threads)
