"""Where ``briscola-lan host`` keeps its tables, and what it does with what it finds there.

The folder is ``--state-dir DIR``, by default ``$XDG_STATE_HOME/briscola-lan/host``
(``~/.local/state/briscola-lan/host``). It holds each table's spec (``table.json``: name, rules,
AI players, port) and journal (``table.journal``, ``net/journal.py``; ``table000...`` with
``--tables N``), and ``host.lock``: one host process per folder. At start:

- ``--resume``: every table saved there comes back from its journal, on its port;
- otherwise the folder takes new tables. A match saved there that was started and is not over
  is never overwritten (nor a journal this host cannot read): with ``--state-dir`` the host
  refuses, saying how to continue it (``--resume``) or to start anew over it (``--force``); in
  the default folder it is kept, and the host uses the next default folder (``host-2``,
  ``host-3``...) that is free, saying where the kept match is and how to continue it. A
  finished match, or a table whose match never started, is replaced.

A table a client hosts itself is kept the same way, in a family of folders of its own
(``open_own_folder``, ``net/kept.py``), each with its own host key; the lobby continues one with
``resume_state``.
"""

from __future__ import annotations

import contextlib
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from briscola_lan.net import files
from briscola_lan.net.journal import (
    Journal,
    JournalError,
    journal_path,
    read_summary,
    remove_journal,
)
from briscola_lan.net.lock import FileLock, try_lock
from briscola_lan.net.table_spec import HostError, TableSpec, load_spec, saved_specs

DEFAULT_NAME = "host"
LOCK_NAME = "host.lock"
MAX_DEFAULT_FOLDERS = 100  # host, host-2 ... host-100
LEGACY_SUFFIX = ".state"  # the whole-snapshot state file of older versions


def default_state_dir() -> Path:
    """The host's folder when no ``--state-dir`` is given."""
    return files.state_dir() / DEFAULT_NAME


def resume_command(directory: Path) -> str:
    """The command that continues the tables saved in ``directory``."""
    if os.path.abspath(directory) == os.path.abspath(default_state_dir()):
        return "briscola-lan host --resume"
    return f"briscola-lan host --resume --state-dir {shlex.quote(str(directory))}"


@dataclass
class HostState:
    """The folder a host process holds (locked), and its tables: each spec with its journal
    and, when resumed, the table the journal held."""

    directory: Path
    lock: FileLock
    tables: list[tuple[TableSpec, Journal, Any]] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # unfinished matches left in other folders

    @property
    def resume(self) -> str:
        return resume_command(self.directory)

    def close(self) -> None:
        """Close every journal and free the folder."""
        for _spec, journal, _table in self.tables:
            journal.close()
        self.lock.release()


def open_state(
    state_dir: Path | None,
    *,
    resume: bool,
    force: bool,
    specs: list[TableSpec],
    identity: Any,
) -> HostState:
    """The folder for this host, locked, with its tables' journals open: the saved tables
    restored (``resume``), or journals made ready for ``specs``. A ``HostError`` says what
    stands in the way (a folder in use, an unfinished match, a damaged journal)."""
    if resume:
        return resume_state(state_dir or default_state_dir(), identity)
    if state_dir is not None:
        lock = _claim(state_dir, explicit=True)
        assert lock is not None
        why = _blocker(state_dir, _key(identity))
        if why is not None and not force:
            lock.release()
            raise HostError(
                f"{why} is saved in {state_dir}: continue it with `{resume_command(state_dir)}`, "
                "or start a new table over it with --force"
            )
        return _fresh(state_dir, lock, specs, identity, [])
    kept: list[str] = []
    base = default_state_dir()
    for i in range(1, MAX_DEFAULT_FOLDERS + 1):
        directory = base if i == 1 else base.with_name(f"{DEFAULT_NAME}-{i}")
        lock = _claim(directory, explicit=False)
        if lock is None:  # another host serves from it
            continue
        why = _blocker(directory, _key(identity))
        if why is not None and not (force and i == 1):
            lock.release()
            kept.append(f"{why} is kept in {directory}: continue it with "
                        f"`{resume_command(directory)}`")  # fmt: skip
            continue
        return _fresh(directory, lock, specs, identity, kept)
    raise HostError(
        f"every default state folder ({base} to {base.name}-{MAX_DEFAULT_FOLDERS}) is in use or "
        "holds an unfinished match: choose one with --state-dir"
    )


def _claim(directory: Path, *, explicit: bool) -> FileLock | None:
    """Lock ``directory`` for this host (made 0700: it will hold the live deck); None when
    another host holds it and it is a default folder (an error for one given by the user)."""
    try:
        files.check_writable(directory, tighten=True)
        lock = try_lock(directory / LOCK_NAME)
    except OSError as exc:
        raise HostError(
            f"--state-dir: cannot write in {directory}: {files.describe_os_error(exc)}"
        ) from exc
    if lock is None and explicit:
        raise HostError(
            f"another host process serves the tables saved in {directory}: stop it first, or "
            "choose another --state-dir"
        )
    return lock


def _blocker(directory: Path, host_key: bytes) -> str | None:
    """What in ``directory`` must not be overwritten without ``--force``: an unfinished match,
    a journal this host cannot continue, a table saved by an older version; None if nothing."""
    for spec_path in saved_specs(directory):
        path = spec_path.with_suffix(".journal")
        try:
            summary = read_summary(path, host_key)
        except JournalError as exc:
            return f"a table journal this host cannot continue ({exc})"
        if summary is not None and summary.started and not summary.over:
            return f"an unfinished match of table {summary.name!r}"
        if summary is None and spec_path.with_suffix(LEGACY_SUFFIX).exists():
            return f"a table saved by an older briscola-lan ({spec_path.stem}{LEGACY_SUFFIX})"
    return None


def _clear(directory: Path) -> None:
    """Remove the tables saved in ``directory`` (their specs, journals and older state files)."""
    for path in directory.glob("table*.journal"):
        remove_journal(path)
    for spec_path in saved_specs(directory):
        with contextlib.suppress(FileNotFoundError):
            spec_path.with_suffix(LEGACY_SUFFIX).unlink()
        with contextlib.suppress(FileNotFoundError):
            spec_path.unlink()


def stem(index: int, count: int) -> str:
    """The file stem of table ``index`` of ``count`` (``table``, or ``table000``...)."""
    return "table" if count == 1 else f"table{index:03d}"


def _fresh(
    directory: Path, lock: FileLock, specs: list[TableSpec], identity: Any, kept: list[str]
) -> HostState:
    state = HostState(directory, lock, kept=kept)
    try:
        _clear(directory)
        for i, spec in enumerate(specs):
            journal = Journal.open(journal_path(directory, stem(i, len(specs))), _key(identity))
            state.tables.append((spec, journal, None))
    except JournalError as exc:
        state.close()
        raise HostError(str(exc)) from exc
    except OSError as exc:
        state.close()
        raise HostError(
            f"--state-dir: cannot write in {directory}: {files.describe_os_error(exc)}"
        ) from exc
    return state


def open_own_folder(
    base: Path, spec: TableSpec, identity_of: Callable[[Path], Any]
) -> tuple[HostState, Any]:
    """A folder for a new table of the family ``base``, ``base-2``, ``base-3``... (the tables a
    client hosts itself, ``net/kept.py``), locked, its journal ready for ``spec``: the first
    folder no process holds that keeps no unfinished match (those stay for the lobby to
    continue). Each folder has a host key of its own (``identity_of(folder)``), returned too."""
    from briscola_lan.fairness.identity import IdentityError

    for i in range(1, MAX_DEFAULT_FOLDERS + 1):
        directory = base if i == 1 else base.with_name(f"{base.name}-{i}")
        lock = _claim(directory, explicit=False)
        if lock is None:  # another process serves the table kept there
            continue
        try:
            identity = identity_of(directory)
        except IdentityError:  # a damaged key: what is kept there stays as it is
            lock.release()
            continue
        if _blocker(directory, _key(identity)) is None:
            return _fresh(directory, lock, [spec], identity, []), identity
        lock.release()
    raise HostError(
        f"every folder from {base} to {base.name}-{MAX_DEFAULT_FOLDERS} is in use or keeps an "
        "unfinished match: continue one from the lobby first"
    )


def resume_state(directory: Path, identity: Any) -> HostState:
    """The folder ``directory``, locked, with every table saved there restored from its
    journal; a ``HostError`` says why not (nothing saved, a folder in use, a damaged journal)."""
    if not directory.is_dir():
        raise HostError(f"nothing to resume in {directory}: no table was saved there")
    lock = _claim(directory, explicit=True)
    assert lock is not None
    state = HostState(directory, lock)
    try:
        paths = saved_specs(directory)
        if not paths:
            raise HostError(f"nothing to resume in {directory}: no table was saved there")
        for spec_path in paths:
            spec = load_spec(spec_path)
            path = spec_path.with_suffix(".journal")
            if not path.exists() and spec_path.with_suffix(LEGACY_SUFFIX).exists():
                raise HostError(
                    f"cannot resume from {directory}: its table was saved by an older "
                    f"briscola-lan ({spec_path.stem}{LEGACY_SUFFIX}), which this version cannot "
                    "continue; start a new table (--force)"
                )
            journal = Journal.open(path, _key(identity))
            state.tables.append((spec, journal, None))
            state.tables[-1] = (spec, journal, journal.load(identity))
    except JournalError as exc:
        state.close()
        raise HostError(f"cannot resume: {exc}") from exc
    except BaseException:
        state.close()
        raise
    return state


def _key(identity: Any) -> bytes:
    key: bytes = identity.public_key
    return key


__all__ = [
    "HostState",
    "default_state_dir",
    "open_own_folder",
    "open_state",
    "resume_command",
    "resume_state",
    "stem",
]
