"""The tables a client hosts itself (practice, or a table for the LAN hosted from the lobby),
kept so that no game is lost: each in a folder of its own under
``$XDG_STATE_HOME/briscola-lan/tables`` (``practice``, ``practice-2``..., ``hosted``,
``hosted-2``...), as ``briscola-lan host`` keeps its tables (``net/host_state.py``).

A folder holds the table's spec and journal (``table.json``, ``table.journal``), its host key
(``identity.key``: the same table comes back under the same key, so that its players' clients
follow it), where it listened (``hosting.json``), the hosting player's seat token and seeds
(``resume_tokens``, ``resume_secrets/``) and ``host.lock`` (the process serving it). A folder
whose match was started and is not over is never reused for a new table: the lobby offers to
continue it (``unfinished``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from briscola_lan.net import files

if TYPE_CHECKING:
    from briscola_lan.fairness.identity import Identity
    from briscola_lan.table.host_journal import Summary

log = logging.getLogger(__name__)

PRACTICE = "practice"  # on loopback, against AI players alone
HOSTED = "hosted"  # on the LAN, advertised over mDNS
KINDS = (PRACTICE, HOSTED)
HOSTING = "hosting.json"
SEAT_TOKENS = "resume_tokens"


def tables_dir() -> Path:
    """Where the tables a client hosts itself are kept."""
    return files.state_dir() / "tables"


def folder_identity(directory: Path) -> Identity:
    """The host key of the table kept in ``directory`` (made with the folder's first table)."""
    return files.load_or_create_identity(directory)


def seat_tokens(directory: Path) -> Path:
    """Where the hosting player's seat token at the table kept in ``directory`` is kept."""
    return directory / SEAT_TOKENS


def forget_seat(directory: Path) -> None:
    """A new table in ``directory``: the seat token and seeds of the one before go."""
    with contextlib.suppress(FileNotFoundError):
        seat_tokens(directory).unlink()
    shutil.rmtree(directory / "resume_secrets", ignore_errors=True)


def save_hosting(directory: Path, kind: str, interfaces: list[str]) -> None:
    """Keep how the table in ``directory`` is hosted: practice or hosted, on which addresses."""
    data = {"kind": kind, "interfaces": interfaces}
    files.write_private(directory / HOSTING, json.dumps(data).encode("utf-8"))


def load_hosting(directory: Path) -> tuple[str, list[str]]:
    """What ``save_hosting`` kept; ``ValueError`` or ``OSError`` when it cannot be read."""
    data = json.loads((directory / HOSTING).read_text(encoding="utf-8"))
    kind, interfaces = data["kind"], data["interfaces"]
    if kind not in KINDS or not isinstance(interfaces, list) or not interfaces:
        raise ValueError(f"{directory / HOSTING}: not a kept table's hosting")
    return str(kind), [str(i) for i in interfaces]


@dataclass(frozen=True, slots=True)
class KeptTable:
    """An unfinished match kept in ``directory``, as the lobby offers it."""

    directory: Path
    kind: str  # PRACTICE or HOSTED
    summary: Summary
    changed: float  # when its journal was last written (seconds since the epoch)

    @property
    def name(self) -> str:
        return self.summary.name

    @property
    def hand(self) -> int:
        """The hand in play (1 for the first)."""
        return len(self.summary.hands) + 1


def unfinished(root: Path | None = None) -> list[KeptTable]:
    """The unfinished matches kept under ``root`` (default ``tables_dir()``), the latest first;
    one another process serves now is left out, and so is one that cannot be read."""
    root = tables_dir() if root is None else root
    try:
        folders = sorted(p for p in root.iterdir() if p.is_dir())
    except OSError:
        return []
    out = []
    for directory in folders:
        kept = _kept(directory)
        if kept is not None:
            out.append(kept)
    return sorted(out, key=lambda k: -k.changed)


def _kept(directory: Path) -> KeptTable | None:
    from briscola_lan.fairness.identity import KEY_FILE, Identity, IdentityError
    from briscola_lan.net.journal import JournalError, journal_path, read_summary

    kind = directory.name.split("-")[0]
    journal = journal_path(directory)
    if kind not in KINDS or not journal.exists():
        return None
    try:
        key = Identity((directory / KEY_FILE).read_bytes()).public_key
        summary = read_summary(journal, key)
        changed = journal.stat().st_mtime
    except (OSError, IdentityError, JournalError) as exc:
        log.warning("the table kept in %s cannot be continued: %s", directory, exc)
        return None
    if summary is None or not summary.started or summary.over or in_use(directory):
        return None
    return KeptTable(directory, kind, summary, changed)


def in_use(directory: Path) -> bool:
    """Whether a process (this client, or another of the user's) serves the table kept in
    ``directory`` now; a folder that cannot be locked counts as in use."""
    from briscola_lan.net.host_state import LOCK_NAME
    from briscola_lan.net.lock import try_lock

    try:
        lock = try_lock(directory / LOCK_NAME)
    except OSError:
        return True
    if lock is None:
        return True
    lock.release()
    return False


__all__ = [
    "HOSTED",
    "KINDS",
    "PRACTICE",
    "KeptTable",
    "folder_identity",
    "forget_seat",
    "in_use",
    "load_hosting",
    "save_hosting",
    "seat_tokens",
    "tables_dir",
    "unfinished",
]
