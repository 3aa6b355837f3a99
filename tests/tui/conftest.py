"""Fixtures shared by the client tests."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Config and data (identity, resume tokens, known tables, saved games) in the test's tmp."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture(autouse=True)
def judged_on_demand(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The client's review judges each play when the review is asked for, in a thread, instead
    of in its worker process as the play is made: the same review (``coach.review_play`` is
    deterministic; ``test_coach`` checks both ways), without a process judging every play of
    every test's matches, reviewed or not. A test marked ``review_worker`` keeps the worker,
    as the client has it; the worker's own tests make a ``Judge`` of their own."""
    if request.node.get_closest_marker("review_worker"):
        return
    from briscola_lan.tui import coach_judge

    monkeypatch.setattr(coach_judge.JUDGE, "submit", lambda *_: None)
