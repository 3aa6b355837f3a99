"""``briscola-lan simulate`` and ``arena`` at five players (Briscola chiamata): the bots bid and
call, a deal everyone passes is dealt again, and the totals are the table of weights' scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from briscola_lan.ai import make_chiamata_bot
from briscola_lan.ai.chiamata import RuleChiamata
from briscola_lan.arena import arena, format_arena, seatings
from briscola_lan.cli import main
from briscola_lan.fairness import verify_records
from briscola_lan.fairness.transcript import load as load_transcript
from briscola_lan.rules import Bid, SeatView, TableOptions
from briscola_lan.sim import (
    MAX_REDEALS,
    SimulationError,
    format_report,
    parse_levels,
    play_dealt_hand,
    shuffled_deck,
)

FIVE = TableOptions.make(players=5, match_format="total")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_five_players_scores_every_hand_by_the_weights(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["simulate", "--players", "5", "--bots", "rules", "-n", "2", "--seed", "4", "--json"]
    code, out, _ = _run(capsys, *args)
    assert code == 0
    rep = json.loads(out)
    assert rep["options"]["players"] == 5 and rep["sides"] == [[s] for s in range(5)]
    t = rep["totals"]
    calls = [h["call"] for m in rep["matches"] for h in m["hands"]]
    assert t["hands"] == len(calls) >= 10  # two matches of five hands (and any tie-break)
    for m in rep["matches"]:
        sums = [sum(h["call"]["scores"][s] for h in m["hands"]) for s in range(5)]
        assert m["winner"] == sums.index(max(sums)) and sums.count(max(sums)) == 1
    for c in calls:
        assert sum(c["scores"]) == 0 and c["won"] == (c["points"] >= c["target"])
        assert c["scores"][c["caller"]] == (2 if c["won"] else -2) * (
            2 if c["points"] in (0, 120) else 1
        ) * (2 if c["partner"] == c["caller"] else 1)
    assert t["scores"] == [sum(c["scores"][s] for c in calls) for s in range(5)]
    assert sum(t["scores"]) == 0 and sum(t["calls"]) == len(calls)
    assert sum(t["calls_won"]) == sum(c["won"] for c in calls)
    assert sum(t["partners"]) + sum(t["alone"]) == len(calls)
    assert _run(capsys, *args)[1] == out  # the same seed, the same games
    text = format_report(rep)
    assert "seat 0 (rules): score" in text and "dealt again" in text


def test_simulate_five_players_options_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--players", "5", "--bots", "strong:4,random", "-n", "1",
        "--match-hands", "1", "--points-to-win", "71", "--no-double", "--json",
    )  # fmt: skip
    assert code == 0
    rep = json.loads(out)
    assert rep["bots"] == ["strong:4"] + ["random"] * 4
    assert rep["options"]["points_to_win"] == 71 and rep["options"]["double_all"] is False
    for h in rep["matches"][0]["hands"]:
        assert h["call"]["target"] >= 71
    code, _, err = _run(capsys, "simulate", "--players", "5", "--bots", "baseline", "-n", "1")
    assert code == 2 and "unknown bot level" in err
    code, _, err = _run(capsys, "simulate", "--players", "5", "--format", "hands", "-n", "1")
    assert code == 2 and "'total' format" in err
    code, _, err = _run(capsys, "simulate", "--players", "5", "--points-to-win", "50")
    assert code == 2 and "points to win must be 61 to 120" in err
    assert parse_levels("strong,rules", 5) == ["strong"] + ["rules"] * 4


class PassingFirst(RuleChiamata):
    """Passes in the first ``n`` auctions it is asked about (counted by the bid's first view)."""

    def __init__(self, seed: int, passes: int) -> None:
        super().__init__(seed)
        self.passes = passes

    def bid(self, view: SeatView) -> Bid | None:
        if self.passes > 0:
            if len(view.auction) >= 4:
                self.passes -= 1
            return None
        return super().bid(view)


def test_a_deal_everyone_passes_is_dealt_again_from_the_next_deck() -> None:
    bots = [PassingFirst(s, 1) for s in range(5)]
    hand, redeals = play_dealt_hand(FIVE, 3, (0, 0), 2, list(bots))
    assert redeals >= 1 and not hand.passed_out and hand.dealer == 2
    assert list(hand.deck) == shuffled_deck(FIVE, 3, 0, 0, redeals)
    never = [PassingFirst(s, 10**6) for s in range(5)]
    with pytest.raises(SimulationError, match=f"passed {MAX_REDEALS + 1} deals"):
        play_dealt_hand(FIVE, 3, (0, 0), 2, list(never))


def test_a_bot_that_cannot_bid_is_refused_at_five() -> None:
    from briscola_lan.ai import make_bot

    bots = [make_bot("rules", s) for s in range(5)]
    with pytest.raises(SimulationError, match="cannot bid"):
        play_dealt_hand(FIVE, 3, (0,), 0, bots)
    assert make_chiamata_bot("rules").level == "rules"


def test_arena_at_five_rotates_one_a_against_four_b(capsys: pytest.CaptureFixture[str]) -> None:
    assert seatings(5, "a", "b") == [["a" if s == k else "b" for s in range(5)] for k in range(5)]
    r = arena(FIVE, "rules", "random", deals=3, seed=2, unit="hands", jobs=1)
    assert r["played"] == 15 and r["a_won"] + r["b_won"] + r["nobody"] == 15
    assert 0 <= r["a_calls_won"] <= r["a_calls"] <= 15
    assert r["a_mean_score_ci95"] >= 0
    again = arena(FIVE, "rules", "random", deals=3, seed=2, unit="hands", jobs=1)
    assert {k: v for k, v in again.items() if k != "seconds"} == {
        k: v for k, v in r.items() if k != "seconds"
    }
    text = format_arena(r)
    assert "rules's mean score a hand (table of weights)" in text
    assert f"rules called {r['a_calls']} hands" in text
    code, out, _ = _run(
        capsys, "arena", "rules", "random", "-n", "1", "--players", "5", "--unit", "matches",
        "--match-hands", "1", "--jobs", "1", "--json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)["played"] == 5
    code, _, err = _run(capsys, "arena", "rules", "baseline", "--players", "5", "-n", "1")
    assert code == 2 and "unknown bot level" in err


@pytest.mark.parametrize("deal", ["classic", "blind"])
def test_simulate_five_players_saves_games_that_verify(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, deal: str
) -> None:
    """``--save`` plays five players through the protocol (classic or blind deal): every seat's
    file verifies, and the totals are the protocol's."""
    out_dir = tmp_path / "games"
    code, out, _ = _run(
        capsys, "simulate", "--players", "5", "--bots", "rules", "-n", "1", "--match-hands", "1",
        "--seed", "4", "--save", str(out_dir), "--deal", deal, "--json",
    )  # fmt: skip
    assert code == 0
    rep = json.loads(out)
    files = sorted(out_dir.glob("*.briscola.json"))
    assert len(files) == 6  # the host's and each seat's
    for f in files:
        report = verify_records(load_transcript(f))
        assert report.verdict == "verified" and report.match_over and report.deal == deal
    hands = rep["matches"][0]["hands"]
    assert hands and all("call" in h for h in hands)
