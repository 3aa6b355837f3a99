"""A client's resume tokens and unrevealed seeds (``net/resume_store.py``): kept per table key,
private on the disk, and moved whole to a table's new key (a practice table on a new port)."""

from __future__ import annotations

import stat
from pathlib import Path

from briscola_lan.net.resume_store import ResumeStore


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_move_takes_the_token_and_seeds_to_the_new_key_and_leaves_the_rest(
    tmp_path: Path,
) -> None:
    store = ResumeStore(tmp_path / "seat" / "resume_tokens")
    store.put("127.0.0.1:40001", "aa" * 16)
    store.put("other@host", "bb" * 16)
    store.put_secrets("127.0.0.1:40001", b"seeds")
    store.move("127.0.0.1:40001", "127.0.0.1:40003")
    assert store.get("127.0.0.1:40003") == "aa" * 16
    assert store.get("127.0.0.1:40001") is None
    assert store.get("other@host") == "bb" * 16  # another table's seat stays
    assert store.get_secrets("127.0.0.1:40003") == b"seeds"
    assert store.get_secrets("127.0.0.1:40001") is None
    assert _mode(store.path) == 0o600
    secrets = store.path.with_name("resume_secrets")
    assert _mode(secrets) == 0o700
    assert [_mode(p) for p in secrets.iterdir()] == [0o600]


def test_move_from_a_key_with_nothing_changes_nothing(tmp_path: Path) -> None:
    store = ResumeStore(tmp_path / "resume_tokens")
    store.put("127.0.0.1:40003", "cc" * 16)
    store.move("127.0.0.1:40001", "127.0.0.1:40003")  # nothing kept under the old key
    store.move("127.0.0.1:40003", "127.0.0.1:40003")  # the same key
    assert store.get("127.0.0.1:40003") == "cc" * 16
    assert not store.path.with_name("resume_secrets").exists()
