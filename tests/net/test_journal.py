"""The host's journal (``net/journal.py`` over ``table/host_journal.py``): what a kill would
leave at any step of a match gives back the very table that was live then; a torn write gives
back the table before it; and a journal that was edited or damaged, made by another version or
another host, taken by a second host or refused by a full disk says so clearly and loses nothing
else."""

from __future__ import annotations

import errno
import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import journal as journal_module
from briscola_lan.net.journal import (
    FRAME_HEAD,
    HEADER_SIZE,
    MAGIC,
    Journal,
    JournalBusy,
    JournalError,
)
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.table import host_journal
from briscola_lan.table.host import HostTable
from briscola_lan.table.host_journal import apply_rest_changes, rest_changes
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients
from briscola_lan.wire.codec import pack_state, unpack_state


def _comparable(table: HostTable) -> dict[str, Any]:
    """A table's snapshot as a map, with what restoring changes on purpose made equal (every
    connection is dropped) and each seat's log as the messages themselves."""
    state = unpack_state(table.snapshot())["state"]
    messages = state.pop("messages")
    for seat in state["seats"]:
        seat["connected"] = False
        seat.pop("dropped_at")
        seat["log"] = [messages[i] for i in seat["log"]]
    return dict(state)


def _copy(journal: Path, to: Path) -> Path:
    """The journal as a kill would leave it now (as written so far), copied to ``to``."""
    to.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(journal, to / journal.name)
    return to / journal.name


def _frames(data: bytes) -> list[tuple[int, int]]:
    """Where each frame of a journal's bytes starts and ends."""
    out, pos = [], HEADER_SIZE
    while pos < len(data):
        end = pos + FRAME_HEAD + int.from_bytes(data[pos : pos + 4], "big")
        out.append((pos, end))
        pos = end
    return out


def _load(path: Path, identity: Identity, *, settle: bool = True) -> HostTable | None:
    """The table a host restores from the journal at ``path``, once it has done what it owed
    (``settle``: a card's draws and receipt sent before the journal had them are made again;
    False to compare it with a live table that owes them still)."""
    journal = Journal.open(path, identity.public_key)
    try:
        table = journal.load(identity)
    finally:
        journal.close()
    if table is not None and settle:
        table.settle()
    return table


def _play(
    tmp_path: Path,
    options: TableOptions,
    after: Callable[[HostTable, Journal, int], None],
    **kwargs: Any,
) -> tuple[HostTable, Journal]:
    """Self-play a match (first legal card), writing the journal after every host step that
    sends something, as the network host does (a card relayed once the journal has it, before
    the host signs what follows it), then calling ``after(table, journal, step)``."""
    host, clients, wire = seat_clients(options, entropy=counter_entropy("journal"), **kwargs)
    journal = Journal.open(tmp_path / "table.journal", host.identity.public_key)
    steps = [0]
    receive, tick = host.receive, host.tick

    def saved(out: list[Any]) -> list[Any]:
        if out:
            journal.save(host)
            steps[0] += 1
            after(host, journal, steps[0])
        return out

    def relayed(conn: int, msg: Any) -> list[Any]:
        out = receive(conn, msg, settle=False)
        if not host.due:
            return saved(out)
        wire.deliver(saved(out))  # the relay, written first: the host owes what follows it
        settled = host.settle()
        if not host.redone:
            return saved(settled)
        steps[0] += 1  # sent unwritten: a kill now leaves a journal that makes it again
        after(host, journal, steps[0])
        return settled

    host.receive = relayed  # type: ignore[method-assign]
    host.tick = lambda now: saved(tick(now))  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [lambda view: view.legal_plays[0]] * len(clients))
    return host, journal


@pytest.mark.parametrize(
    ("players", "deal", "every", "extra"),
    [
        (2, "classic", 1, {}),
        (2, "blind", 2, {}),
        (3, "blind", 7, {"ai_seats": {1: "random"}}),
        (4, "classic", 1, {"draw_partners": True, "draw_dealer": True}),
        (4, "blind", 3, {"ai_seats": {1: "rules", 3: "random"}}),
    ],
    ids=["2p-classic", "2p-blind", "3p-blind-ai", "4p-classic-drawn", "4p-blind-2ai"],
)
def test_a_kill_at_any_step_leaves_the_live_table(
    tmp_path: Path, players: int, deal: str, every: int, extra: dict[str, Any]
) -> None:
    """At every step of a whole match (every few steps of a blind one, whose restore replays
    its hand), the journal's files as they are (what a kill leaves) restore a table equal to
    the live one: records, seats' logs, the deal, the timers."""
    fmt = MatchFormat.POINTS if players == 3 else MatchFormat.HANDS
    options = TableOptions.make(players=players, match_format=fmt, hands_to_win=1)
    checked: list[int] = []

    def check(table: HostTable, journal: Journal, step: int) -> None:
        if step % every:
            return
        copy = _copy(journal.path, tmp_path / f"kill{step}")
        restored = _load(copy, table.identity, settle=not table.due)
        assert restored is not None
        assert _comparable(restored) == _comparable(table), step
        shutil.rmtree(copy.parent)
        checked.append(step)

    host, journal = _play(tmp_path, options, check, deal=deal, **extra)
    journal.close()
    assert host.phase == "over" and len(checked) > 15
    restored = _load(tmp_path / "table.journal", host.identity)
    assert restored is not None and _comparable(restored) == _comparable(host)


def test_the_restored_table_goes_on_with_what_it_holds(tmp_path: Path) -> None:
    """A table restored mid-hand goes on writing to the journal it came from (no row twice,
    none lost): a restore from the journal then is the restored table."""
    options = TableOptions.make(players=2, hands_to_win=1)
    seen: dict[int, HostTable] = {}

    def keep(table: HostTable, journal: Journal, step: int) -> None:
        if step == 25:
            _copy(journal.path, tmp_path / "at25")

    host, journal = _play(tmp_path, options, keep, deal="blind")
    journal.close()
    path = tmp_path / "at25" / "table.journal"
    again = Journal.open(path, host.identity.public_key)
    try:
        table = again.load(host.identity)
        assert table is not None
        seen[0] = table
        out = table.tick(table.now + 5.0)  # time passes: the table changes, and is journaled
        table.seats[0].log.append(table.seats[0].log[-1])  # one message more for seat 0
        again.save(table)
        del out
    finally:
        again.close()
    restored = _load(path, host.identity)
    assert restored is not None and _comparable(restored) == _comparable(seen[0])


def test_a_torn_write_gives_the_table_before_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A kill (or a power cut) in the middle of writing a change leaves part of it at the end of
    the journal: the journal gives back the table as it was before that change (whose messages
    never left), says so, and goes on from there; never a part of a change."""
    options = TableOptions.make(players=2, hands_to_win=1)
    sizes: dict[int, int] = {}
    tables: dict[int, dict[str, Any]] = {}

    def note(table: HostTable, journal: Journal, step: int) -> None:
        size = journal.path.stat().st_size
        if sizes and size == sizes[len(sizes)]:
            return  # sent unwritten (made again from the journal): not a change of the file
        sizes[len(sizes) + 1] = size
        tables[len(tables) + 1] = _comparable(table)

    host, journal = _play(tmp_path, options, note, deal="classic")
    journal.close()
    data = journal.path.read_bytes()
    for before in (1, 9, 30, len(sizes) - 1):
        after = sizes[before + 1]
        for cut in sorted({sizes[before] + 1, sizes[before] + 39, sizes[before] + 40,
                           (sizes[before] + after) // 2, after - 1}):  # fmt: skip
            path = tmp_path / f"torn{cut}" / "table.journal"
            path.parent.mkdir()
            path.write_bytes(data[:cut])
            caplog.clear()
            journal = Journal.open(path, host.identity.public_key)
            try:
                restored = journal.load(host.identity)
                assert restored is not None and _comparable(restored) == tables[before], cut
                assert "cut short" in caplog.text
                restored.tick(restored.now + 1.0)
                journal.save(restored)  # and the journal goes on from the whole change
            finally:
                journal.close()
            again = _load(path, host.identity)
            assert again is not None and _comparable(again) == _comparable(restored)
    zeros = tmp_path / "zeros" / "table.journal"  # what some file systems leave after a crash
    zeros.parent.mkdir()
    zeros.write_bytes(data[: sizes[30]] + bytes(700))
    restored = _load(zeros, host.identity, settle=False)
    assert restored is not None and _comparable(restored) == tables[30]


def _finished(tmp_path: Path) -> tuple[HostTable, Path]:
    options = TableOptions.make(players=2, hands_to_win=1)
    host, journal = _play(tmp_path, options, lambda t, j, s: None, deal="classic")
    journal.close()
    return host, journal.path


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0x5A]) + data[at + 1 :]


@pytest.mark.parametrize(
    "edit",
    [
        lambda d, f: _flip(d, f[3][0] + FRAME_HEAD + 20),  # a byte of a change
        lambda d, f: _flip(d, f[5][0] + 12),  # a byte of a change's digest
        lambda d, f: d[: f[4][0]] + d[f[5][0] :],  # a change taken out
        lambda d, f: d[: f[4][0]] + d[f[5][0] : f[6][0]] + d[f[4][0] : f[5][0]] + d[f[6][0] :],
        lambda d, f: _flip(d, f[-1][1] - 1),  # the last change's last byte
        lambda d, f: d + d[f[2][0] : f[2][1]],  # a change repeated at the end
    ],
    ids=["change", "digest", "removed", "swapped", "last", "repeated"],
)
def test_an_edited_journal_is_refused_and_says_so(
    tmp_path: Path, edit: Callable[[bytes, list[tuple[int, int]]], bytes]
) -> None:
    host, path = _finished(tmp_path)
    data = path.read_bytes()
    path.write_bytes(edit(data, _frames(data)))
    with pytest.raises(JournalError, match="changed outside briscola-lan"):
        _load(path, host.identity)
    assert path.read_bytes() == edit(data, _frames(data))  # left as it was
    os.remove(path)  # nothing else is touched: a new journal there works
    journal = Journal.open(path, host.identity.public_key)
    journal.close()


def test_damaged_bytes_are_refused(tmp_path: Path) -> None:
    """A byte changed anywhere in the file, header included: the journal is refused with a
    JournalError that says what it is; never a table that is not the one written."""
    host, path = _finished(tmp_path)
    good = path.read_bytes()
    frames = _frames(good)
    spots = set(range(HEADER_SIZE))  # the header, every byte
    for start, end in frames[::4]:  # a frame's head, every byte; its payload, a few
        spots.update(range(start, start + FRAME_HEAD))
        spots.update(range(start + FRAME_HEAD, end, 97))
    whys: list[str] = []
    for at in sorted(spots):
        path.write_bytes(_flip(good, at))
        with pytest.raises(JournalError) as info:
            _load(path, host.identity)
        whys.append(str(info.value))
    for why in ("is not a briscola-lan table journal", "another briscola-lan version",
                "belongs to another host identity", "changed outside briscola-lan",
                "is damaged (the length"):  # fmt: skip
        assert any(why in w for w in whys), why


def test_not_a_journal_another_version_another_host(tmp_path: Path) -> None:
    host, path = _finished(tmp_path)
    with pytest.raises(JournalError, match="belongs to another host identity"):
        _load(path, Identity.generate())
    data = path.read_bytes()
    v = len(MAGIC)
    path.write_bytes(data[:v] + (99).to_bytes(4, "big") + data[v + 4 :])
    with pytest.raises(JournalError, match="another briscola-lan version"):
        _load(path, host.identity)
    text = tmp_path / "notes.journal"
    text.write_text("my shopping list\n" * 100)
    with pytest.raises(JournalError, match="not a briscola-lan table journal"):
        _load(text, host.identity)
    assert text.read_text().startswith("my shopping")  # untouched


def test_two_hosts_on_one_journal(tmp_path: Path) -> None:
    identity = Identity.generate()
    first = Journal.open(tmp_path / "table.journal", identity.public_key)
    try:
        with pytest.raises(JournalBusy, match="in use by another host process"):
            Journal.open(tmp_path / "table.journal", identity.public_key)
    finally:
        first.close()
    Journal.open(tmp_path / "table.journal", identity.public_key).close()  # free again


def test_a_full_disk_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A disk that takes part of a change and then refuses the rest (ENOSPC) makes ``save``
    raise and cuts the part off again; the journal still gives the table before the change. Once
    there is room again the next save writes everything since, and the journal gives back the
    live table."""
    options = TableOptions.make(players=2, hands_to_win=1)
    refused: list[int] = []
    write_at = journal_module._write_at

    def half_then_full(fd: int, data: bytes, offset: int) -> None:
        write_at(fd, data[: len(data) // 2], offset)
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def fill(table: HostTable, journal: Journal, step: int) -> None:
        if step != 10:
            return
        before, size = _comparable(table), journal.path.stat().st_size
        owed = table.due
        monkeypatch.setattr(journal_module, "_write_at", half_then_full)
        for _ in range(3):  # the table goes on meanwhile (its messages are sent)
            HostTable.tick(table, table.now + 1.0)
            with pytest.raises(OSError) as info:
                journal.save(table)
            assert info.value.errno == errno.ENOSPC
            assert journal.path.stat().st_size == size  # the part written is cut off again
            refused.append(step)
        restored = _load(_copy(journal.path, tmp_path / "full"), table.identity, settle=not owed)
        assert restored is not None and _comparable(restored) == before  # as it was
        monkeypatch.setattr(journal_module, "_write_at", write_at)
        journal.save(table)  # room again: everything since is written
        restored = _load(_copy(journal.path, tmp_path / "room"), table.identity, settle=False)
        assert restored is not None and _comparable(restored) == _comparable(table)

    host, journal = _play(tmp_path, options, fill, deal="classic")
    journal.close()
    assert refused == [10, 10, 10]
    restored = _load(tmp_path / "table.journal", host.identity)
    assert restored is not None and _comparable(restored) == _comparable(host)


def test_a_new_match_starts_the_journal_over(tmp_path: Path) -> None:
    first, journal = _play(tmp_path, TableOptions.make(players=2, hands_to_win=1), lambda *a: None)
    second = HostTable(first.options, name="next", identity=first.identity)
    journal.save(second)
    journal.close()
    restored = _load(journal.path, first.identity)
    assert restored is not None and restored.name == "next" and restored.records == []
    assert len(_frames(journal.path.read_bytes())) == 1  # the finished match's changes are gone


def test_the_journal_is_private(tmp_path: Path) -> None:
    """The journal holds the unrevealed deck and the AI players' keys: its files are 0600 (its
    write-ahead log and index too, while the host runs) in 0700 folders, whatever the umask."""
    folder = tmp_path / "new" / "state"
    modes: dict[str, int] = {}

    def look(table: HostTable, journal: Journal, step: int) -> None:
        if step == 5:
            for p in [folder.parent, *folder.parent.rglob("*")]:
                modes[str(p.relative_to(tmp_path))] = stat.S_IMODE(p.stat().st_mode)

    old = os.umask(0)
    try:
        _host, journal = _play(folder, TableOptions.make(players=2, hands_to_win=1), look)
        journal.close()
    finally:
        os.umask(old)
    assert modes == {
        "new": 0o700,
        "new/state": 0o700,
        "new/state/table.journal": 0o600,
        "new/state/table.journal.lock": 0o600,
    }, modes


def test_what_the_journal_encoded_is_what_the_host_sends(tmp_path: Path) -> None:
    """Each change hands back the messages it wrote to the seats' logs, encoded: byte for byte
    what the codec makes of each (the server frames and sends those bytes instead of encoding
    them again), and every message a seat's log gained is among them."""
    from briscola_lan.wire.codec import encode_message

    host, clients, wire = seat_clients(TableOptions(players=2), entropy=counter_entropy("enc"))
    journal = Journal.open(tmp_path / "table.journal", host.identity.public_key)
    assert journal.save(host) == {}  # the journal's start
    receive = host.receive
    reused = [0]

    def saved(conn: int, msg: Any) -> list[Any]:
        before = [len(seat.log) for seat in host.seats]
        out = receive(conn, msg)
        bodies = journal.save(host)
        logged = {id(m): m for seat in host.seats for m in seat.log}
        added = [m for seat, n in zip(host.seats, before, strict=True) for m in seat.log[n:]]
        assert all(id(m) in bodies for m in added)
        for key, body in bodies.items():
            assert body == encode_message(logged[key])
        reused[0] += sum(id(o.message) in bodies for o in out)
        return out

    host.receive = saved  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [lambda view: view.legal_plays[0]] * len(clients))
    journal.close()
    assert host.phase == "over"
    assert reused[0] > 100  # most of what the host sends was encoded once, by the journal


def test_a_change_of_the_rest_writes_the_values_that_changed() -> None:
    """Between two rests, only the values that differ are written, each at the deepest map
    whose keys did not change (a list is written whole); made again on the old rest they give
    the new one. A rest whose own keys changed is written whole."""
    old: dict[str, Any] = {
        "now": 1.0,
        "seats": [{"ready": False}],
        "deal": {"seeds": {"hand": 1}, "hand": {"deck": [1, 2], "plays": [1]}, "salts": [b"s"]},
        "match": None,
        "flag": 0,
    }
    new: dict[str, Any] = {
        "now": 2.0,
        "seats": [{"ready": True}],
        "deal": {"seeds": {"hand": 1}, "hand": {"deck": [1, 2], "plays": [1, 2]}, "salts": [b"s"]},
        "match": {"results": []},
        "flag": False,  # equal to 0 in Python, not in msgpack: written
    }
    changes = rest_changes(old, new)
    assert changes is not None
    assert sorted(path for path, _value in changes) == [
        ("deal", "hand", "plays"), ("flag",), ("match",), ("now",), ("seats",),
    ]  # fmt: skip
    again = unpack_state(pack_state(old))
    apply_rest_changes(again, unpack_state(pack_state(changes)))
    assert again == unpack_state(pack_state(new)) and again["flag"] is False
    assert rest_changes(old, {**new, "extra": 1}) is None
    assert rest_changes(new, new) == []
    for bad, why in [
        ("not a list", "not a list"),
        ([["now"]], r"not \[path, value\]"),
        ([[[], 1]], "no path of keys"),
        ([[["deal", "nope"], 1]], "names deal.nope, not there"),
        ([[["now", "x"], 1]], r"names now.x, not there"),
    ]:
        with pytest.raises(ValueError, match=why):
            apply_rest_changes(unpack_state(pack_state(old)), bad)


def test_a_card_writes_its_plays_not_the_whole_state(tmp_path: Path) -> None:
    """The first change writes the table's state whole; every later one writes what changed
    in it: a card, its hand's plays and what moved with it, never the deck's salts, the seeds
    or the options again."""
    options = TableOptions.make(players=4, hands_to_win=1)
    _host, journal = _play(tmp_path, options, lambda *a: None, deal="classic")
    journal.close()
    data = journal.path.read_bytes()
    rests = []
    for start, end in _frames(data):
        rest = unpack_state(data[start + FRAME_HEAD : end])[7]
        rests.append(None if rest is None else unpack_state(rest))
    assert isinstance(rests[0], dict) and rests[0]["options"] == options.to_dict()
    later = [r for r in rests[1:] if r is not None]
    assert later and all(isinstance(r, list) for r in later)
    cards = [{tuple(p) for p, _value in r} for r in later]
    cards = [paths for paths in cards if ("deal", "hand", "plays") in paths]
    assert len(cards) >= 40  # a change for each card of the hand
    for paths in cards:
        assert not paths & {("options",), ("host_key",), ("deal", "salts"), ("deal", "seeds")}


def test_a_journal_of_the_first_layout_is_read_and_goes_on_in_this_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A journal written by the version that wrote the whole state at every change (journal
    version 1) gives back its table; the journal is then written again in this version's
    layout and goes on from it."""
    from briscola_lan.table import host_journal

    options = TableOptions.make(players=2, hands_to_win=1)
    tables: dict[int, dict[str, Any]] = {}

    def keep(table: HostTable, journal: Journal, step: int) -> None:
        if step == 30:
            _copy(journal.path, tmp_path / "at30")
            tables[step] = _comparable(table)

    with monkeypatch.context() as m:
        m.setattr(journal_module, "VERSION", 1)
        m.setattr(host_journal, "rest_changes", lambda old, new: None)  # the whole rest
        m.setattr(host_journal.JournalCursor, "_hot_changes", lambda self, t: None)
        host, journal = _play(tmp_path / "live", options, keep, deal="classic")
        journal.close()
    path = tmp_path / "at30" / "table.journal"
    assert path.read_bytes()[len(MAGIC) : len(MAGIC) + 4] == (1).to_bytes(4, "big")
    again = Journal.open(path, host.identity.public_key)
    try:
        table = again.load(host.identity)
        assert table is not None and _comparable(table) == tables[30]
        table.tick(table.now + 5.0)
        again.save(table)
        live = _comparable(table)
    finally:
        again.close()
    assert path.read_bytes()[len(MAGIC) : len(MAGIC) + 4] == (2).to_bytes(4, "big")
    restored = _load(path, host.identity)
    assert restored is not None and _comparable(restored) == live


def test_a_change_naming_state_the_journal_lacks_is_refused(tmp_path: Path) -> None:
    """A frame whose digest is right but whose change names a value the table's state does not
    have (a journal written by something else than this host) is refused as damaged, saying
    where."""
    host, path = _finished(tmp_path)
    data = path.read_bytes()
    parsed = journal_module.parse(data, "x")
    bad = pack_state(
        [parsed.tx + 1, len(parsed.records), [], len(parsed.messages), [], [],
         [[e, len(lg)] for e, lg in zip(parsed.epochs, parsed.logs, strict=True)],
         pack_state([[["deal", "nope"], 1]])]
    )  # fmt: skip
    frame, _digest = journal_module.frame(parsed.digest, bad)
    path.write_bytes(data + frame)
    with pytest.raises(JournalError, match=r"is damaged .*names deal.nope, not there"):
        _load(path, host.identity)


@pytest.mark.parametrize("deal", ["classic", "blind"])
def test_a_kill_at_any_step_of_a_five_player_hand_leaves_the_live_table(
    tmp_path: Path, deal: str
) -> None:
    """Briscola chiamata, dealt classic or blind: the auction's bids and the call are part of
    the hand's state, written as they change; at every step of a whole match the journal as a
    kill leaves it restores a table equal to the live one."""
    from briscola_lan.table.core import chiamata_bot_factory

    options = TableOptions.make(players=5, match_format="total", match_hands=1)
    label = "journal5" if deal == "classic" else "journal5-blind"
    host, clients, wire = seat_clients(options, entropy=counter_entropy(label), name="t", deal=deal)
    journal = Journal.open(tmp_path / "table.journal", host.identity.public_key)
    receive, tick = host.receive, host.tick
    checked: list[int] = []

    def saved(out: list[Any]) -> list[Any]:
        if out:
            journal.save(host)
            copy = _copy(journal.path, tmp_path / f"kill{len(checked)}")
            restored = _load(copy, host.identity, settle=not host.due)
            assert restored is not None
            assert _comparable(restored) == _comparable(host), len(checked)
            shutil.rmtree(copy.parent)
            checked.append(1)
        return out

    host.receive = lambda conn, msg: saved(receive(conn, msg))  # type: ignore[method-assign]
    host.tick = lambda now: saved(tick(now))  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    bots = [chiamata_bot_factory("rules", seat) for seat in range(5)]
    play_out(wire, [b.choose for b in bots], auction=bots)
    journal.close()
    assert host.phase == "over" and len(checked) > 40


def test_a_tick_with_nothing_to_do_keeps_the_next_card_small(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host ticks its tables every 50 ms, between any two cards of people at a human pace. A
    tick with nothing to do moves only the clock: the card after it is still written from the
    few values a card moves, without the whole table looked over (``dump_rest``) again."""
    looked: list[int] = []
    whole = host_journal.dump_rest
    monkeypatch.setattr(host_journal, "dump_rest", lambda t: looked.append(1) or whole(t))
    monkeypatch.setattr(host_journal, "CHECK_HOT", False)  # which looks the table over too
    options = TableOptions.make(players=2, hands_to_win=1)
    quiet: list[bool] = []

    def ticked(host: HostTable, journal: Journal, step: int) -> None:
        if not host.due:  # between two messages, where the server's timer falls
            quiet.append(HostTable.tick(host, host.now + 0.01) == [])

    counts = []
    for after, name in (((lambda *a: None), "untouched"), (ticked, "ticked")):
        looked.clear()
        _host, journal = _play(tmp_path / name, options, after, deal="classic")
        journal.close()
        counts.append(len(looked))
    assert len(quiet) > 40 and all(quiet), quiet  # a tick after each step, none with work to do
    assert counts[1] == counts[0], counts  # not one more look over the whole table
