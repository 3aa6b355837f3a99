"""The host's transcripts are written in a worker thread: the event loop goes on while a slow
disk writes, a later save is never overwritten by an earlier one, and a failing disk is told
once and retried, as when the writing was done on the loop."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from briscola_lan.fairness.transcript import Record, loads
from briscola_lan.net import games
from briscola_lan.net.games import GameSaver, save_each

GID = bytes.fromhex("ab" * 32)


def _records(n: int) -> list[Record]:
    return [(bytes([i % 256]) * 3, bytes([7]) * 64) for i in range(n)]


def _saver(tmp_path: Path, records: list[Record], told: list[str]) -> GameSaver:
    return GameSaver(tmp_path / "games", "host", lambda: records, lambda: GID, on_error=told.append)


def _saved(saver: GameSaver) -> list[Record]:
    assert saver.path is not None
    return loads(saver.path.read_bytes())


def test_the_event_loop_goes_on_while_a_transcript_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A disk that takes its time (here: until the test lets it go) holds up the save, not the
    loop: a task that ticks on the loop keeps ticking, and the file is there afterwards."""
    records = _records(50)
    saver = _saver(tmp_path, records, [])
    writing, go = threading.Event(), threading.Event()
    real = games.write_transcript

    def slow_write(*args: object, **kwargs: object) -> Path:
        assert threading.current_thread() is not threading.main_thread()
        writing.set()
        assert go.wait(30)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "write_transcript", slow_write)

    async def main() -> int:
        ticks = 0
        save = asyncio.create_task(save_each([(saver, True)]))
        while not writing.is_set():
            await asyncio.sleep(0.001)
        for _ in range(20):  # the loop turns while the write is held
            await asyncio.sleep(0)
            ticks += 1
        assert not save.done() and saver.path is None
        go.set()
        await save
        return ticks

    assert asyncio.run(main()) == 20
    assert _saved(saver) == records


def test_a_later_save_is_never_overwritten_by_an_earlier_one(tmp_path: Path) -> None:
    """Two saves asked one after the other but written in the other order (a thread slower
    than the loop's own save at a table's reopening or the host's stop): the file keeps the
    later one, and the saver's state follows it."""
    records = _records(10)
    saver = _saver(tmp_path, records, [])
    early = saver.prepare(whole=True)
    records.extend(_records(5))
    late = saver.prepare(whole=True)
    assert early is not None and late is not None
    path = saver.write(late)
    assert path is not None
    assert saver.finish(late, path) == path
    assert saver.write(early) == Path()  # overtaken: nothing written
    saver.finish(early, Path())
    assert _saved(saver) == records and len(records) == 15
    assert saver.prepare(whole=True) is None  # nothing new since the later save

    # Taken in the other order too: the earlier outcome, arriving last, changes nothing.
    records.extend(_records(2))
    first = saver.prepare(whole=True)
    records.extend(_records(2))
    second = saver.prepare(whole=True)
    assert first is not None and second is not None
    out_first = saver.write(first)
    out_second = saver.write(second)
    saver.finish(second, out_second)
    saver.finish(first, out_first)
    assert _saved(saver) == records and len(records) == 19
    assert saver.prepare(whole=True) is None


def test_a_refused_write_in_the_thread_is_told_once_and_retried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    records = _records(8)
    told: list[str] = []
    saver = _saver(tmp_path, records, told)
    real = games.write_transcript
    full = [True]

    def disk(*args: object, **kwargs: object) -> Path:
        if full[0]:
            raise OSError(28, "No space left on device")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(games, "write_transcript", disk)
    asyncio.run(save_each([(saver, True)]))
    asyncio.run(save_each([(saver, True)]))
    assert saver.failing and len(told) == 1 and "cannot save the game" in told[0]
    full[0] = False
    assert asyncio.run(saver.save_async(whole=True)) is not None
    assert not saver.failing and told[-1].startswith("the game is saved again")
    assert _saved(saver) == records


def test_complete_hands_only_while_the_match_runs(tmp_path: Path) -> None:
    """``save_each`` keeps what ``save`` keeps: nothing until a hand is complete."""
    saver = _saver(tmp_path, _records(4), [])
    asyncio.run(save_each([(saver, False)]))
    assert saver.path is None and not (tmp_path / "games").exists()
