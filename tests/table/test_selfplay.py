"""Whole matches of every variant through HostTable and ClientSessions, in memory via the codec."""

from __future__ import annotations

from pathlib import Path

import pytest

from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import MatchFormat, TableOptions, all_variants
from briscola_lan.rules.hand import SeatView
from briscola_lan.table.selfplay import run_selfplay


class FirstCardBot:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: SeatView):  # type: ignore[no-untyped-def]
        plays = view.legal_plays
        return plays[(self.seed + len(view.tricks)) % len(plays)]


def _factory(level: str, seed: int) -> FirstCardBot:
    return FirstCardBot(seed)


def _variants() -> list[TableOptions]:
    """Every players/format/exchange combination, hands_to_win 1 and 2, each removed 2 at 3p
    (the table protocol deals 2 to 4 players; five are a rules-engine game only so far)."""
    return [
        v
        for v in all_variants()
        if not v.chiamata and (v.match_format is MatchFormat.POINTS or v.hands_to_win in (1, 2))
    ]


@pytest.mark.parametrize("options", _variants(), ids=lambda o: o.summary().replace(" ", "_"))
def test_every_variant_plays_and_verifies(options: TableOptions) -> None:
    result = run_selfplay(options, bot_factory=_factory, seed=3)
    host = result.host
    assert host.phase == "over"
    assert host.internal_errors == []
    assert host.match is not None and host.match.is_over
    report = verify_records(host.records)
    assert report.ok, report.fault
    assert report.winner == host.match.winner
    for c in result.clients:
        assert c.state.match_over and not c.state.match_aborted
        assert c.state.winner == host.match.winner
        assert [ch.status for ch in c.state.checks] == ["verified"] * len(host.match.results)
        assert all(ch.acks_match for ch in c.state.checks)
        assert c.state.errors == []
        assert verify_records(c.records).ok


def test_saved_files_verify(tmp_path: Path) -> None:
    from briscola_lan.net.games import save_transcripts

    result = run_selfplay(TableOptions.make(players=4), bot_factory=_factory)
    files = save_transcripts(tmp_path, result.host.game_id, result.transcripts())
    assert sorted(f.name.split("-")[1] for f in files) == [
        "host.briscola.json",
        *(f"seat{i}.briscola.json" for i in range(4)),
    ]
    for f in files:
        assert verify_records(load(f)).ok
