"""The host command's state folder (``net/host_state.py``): one host per folder, an unfinished
match never overwritten (refused in a folder of the user's, kept aside in the default one), a
table saved by an older version or a journal that cannot be read said so, and what is resumed
is what was journaled."""

from __future__ import annotations

from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.net.host_state import default_state_dir, open_state
from briscola_lan.net.journal import Journal
from briscola_lan.net.table_spec import HostError, TableSpec, save_spec
from briscola_lan.rules import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import seat_clients

OPTIONS = TableOptions.make(players=2, hands_to_win=1)


def _spec(name: str = "Duo") -> TableSpec:
    return TableSpec(name, OPTIONS, {1: "random"}, 0)


def _unfinished(directory: Path, identity: Identity) -> HostTable:
    """A table whose match has started (a player against an AI), journaled in ``directory``
    as the host leaves it."""
    table, clients, wire = seat_clients(
        OPTIONS, name="Duo", host_identity=identity, ai_seats={1: "random"}
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert str(table.phase) not in ("lobby", "over")
    journal = Journal.open(directory / "table.journal", identity.public_key)
    journal.save(table)
    journal.close()
    save_spec(directory / "table.json", _spec())
    return table


def test_one_host_per_folder(tmp_path: Path) -> None:
    identity = Identity.generate()
    first = open_state(tmp_path / "s", resume=False, force=False, specs=[_spec()],
                       identity=identity)  # fmt: skip
    try:
        with pytest.raises(HostError, match="another host process serves the tables saved"):
            open_state(tmp_path / "s", resume=False, force=False, specs=[_spec()],
                       identity=identity)  # fmt: skip
        other = open_state(None, resume=False, force=False, specs=[_spec()], identity=identity)
        other.close()
    finally:
        first.close()


def test_the_default_folder_in_use_gives_the_next_one(tmp_path: Path) -> None:
    identity = Identity.generate()
    first = open_state(None, resume=False, force=False, specs=[_spec()], identity=identity)
    second = open_state(None, resume=False, force=False, specs=[_spec()], identity=identity)
    try:
        assert first.directory == default_state_dir()
        assert second.directory == default_state_dir().with_name("host-2")
        assert first.resume == "briscola-lan host --resume"
        assert second.resume.endswith(f"--state-dir {second.directory}")
    finally:
        first.close()
        second.close()


def test_an_unfinished_match_is_refused_in_a_chosen_folder_and_kept_in_the_default(
    tmp_path: Path,
) -> None:
    identity = Identity.generate()
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    _unfinished(chosen, identity)
    before = (chosen / "table.journal").read_bytes()
    with pytest.raises(HostError, match=r"unfinished match of table 'Duo' is saved in .*--force"):
        open_state(chosen, resume=False, force=False, specs=[_spec()], identity=identity)
    assert (chosen / "table.journal").read_bytes() == before
    default = default_state_dir()
    default.mkdir(parents=True)
    _unfinished(default, identity)
    state = open_state(None, resume=False, force=False, specs=[_spec("New")], identity=identity)
    try:
        assert state.directory == default.with_name("host-2")
        assert len(state.kept) == 1 and "'Duo'" in state.kept[0] and str(default) in state.kept[0]
    finally:
        state.close()
    resumed = open_state(None, resume=True, force=False, specs=[], identity=identity)
    try:
        ((spec, _journal, table),) = resumed.tables
        assert (
            spec.name == "Duo" and table is not None and str(table.phase) not in ("lobby", "over")
        )
    finally:
        resumed.close()
    forced = open_state(chosen, resume=False, force=True, specs=[_spec("New")], identity=identity)
    forced.close()
    assert not (chosen / "table.json").exists()  # the new table's spec comes once it is served


def test_a_table_of_an_older_version_or_an_unreadable_journal_is_said_so(tmp_path: Path) -> None:
    identity = Identity.generate()
    old = tmp_path / "old"
    old.mkdir()
    save_spec(old / "table.json", _spec())
    (old / "table.state").write_bytes(b"\x83...")  # the whole-snapshot file of older versions
    with pytest.raises(HostError, match=r"older briscola-lan \(table.state\)"):
        open_state(old, resume=False, force=False, specs=[_spec()], identity=identity)
    with pytest.raises(HostError, match="cannot continue; start a new table"):
        open_state(old, resume=True, force=False, specs=[], identity=identity)
    other = tmp_path / "other"
    other.mkdir()
    _unfinished(other, Identity.generate())  # another host's key
    with pytest.raises(HostError, match="belongs to another host identity"):
        open_state(other, resume=False, force=False, specs=[_spec()], identity=identity)
    with pytest.raises(HostError, match=r"cannot resume: .*another host identity"):
        open_state(other, resume=True, force=False, specs=[], identity=identity)
    state = open_state(other, resume=False, force=True, specs=[_spec()], identity=identity)
    state.close()


def test_nothing_to_resume(tmp_path: Path) -> None:
    with pytest.raises(HostError, match="nothing to resume"):
        open_state(tmp_path / "none", resume=True, force=False, specs=[],
                   identity=Identity.generate())  # fmt: skip
