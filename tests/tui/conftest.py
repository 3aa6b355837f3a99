"""Fixtures shared by the client tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Config and data (identity, resume tokens, known tables, saved games) in the test's tmp."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
