"""Private folders are made where the system has no POSIX user ids (Windows): nothing re-moded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from briscola_lan.net.files import private_dir


def test_private_dir_without_getuid_creates_and_keeps_open_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o755)
    os.chmod(shared, 0o755)
    monkeypatch.delattr(os, "getuid")
    made = private_dir(shared / "briscola-lan" / "games", tighten=True)
    assert made.is_dir()
    private_dir(shared, tighten=True)  # an open folder is left as it is, without an error
    assert shared.stat().st_mode & 0o777 == 0o755
