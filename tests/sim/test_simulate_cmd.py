"""``briscola-lan simulate`` and ``arena``: same seed same result, the documented JSON shape."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from briscola_lan.arena import arena, format_arena, seatings, wilson
from briscola_lan.cli import main
from briscola_lan.rules import Card, Hand, SeatView, TableOptions
from briscola_lan.rules.signals import truthful
from briscola_lan.sim import play_hand, shuffled_deck


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json_shape_and_determinism(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--bots", "rules,random", "-n", "4", "--seed", "9", "--json"]
    code, out, _ = _run(capsys, *args)
    assert code == 0
    rep = json.loads(out)
    assert set(rep) == {"options", "seed", "bots", "sides", "matches", "totals"}
    assert rep["bots"] == ["rules", "random"] and rep["sides"] == [[0], [1]]
    t = rep["totals"]
    assert t["matches"] == 4 == len(rep["matches"])
    assert sum(t["matches_won"]) == 4
    hands = [h for m in rep["matches"] for h in m["hands"]]
    assert t["hands"] == len(hands)
    assert t["hands_won"][0] + t["hands_won"][1] + t["hands_drawn"] == len(hands)
    for m in rep["matches"]:
        assert set(m) == {"index", "first_dealer", "hands", "hands_won", "winner"}
        assert max(m["hands_won"]) == 2 and m["winner"] == m["hands_won"].index(2)
        for h in m["hands"]:
            assert sum(h["points"]) == 120 and len(h["points"]) == 2
    assert _run(capsys, *args)[1] == out
    other = _run(capsys, *args[:-2], "10", "--json")[1]
    assert json.loads(other)["matches"] != rep["matches"]


@pytest.mark.parametrize(
    ("flags", "sides"),
    [
        (["--players", "3"], 3),
        (["--players", "3", "--removed-two", "s"], 3),
        (["--players", "4", "--no-exchange", "--hands-to-win", "1"], 2),
        (["--players", "4", "--format", "points"], 2),
        (["--format", "points"], 2),
    ],
)
def test_simulate_every_table_kind(
    capsys: pytest.CaptureFixture[str], flags: list[str], sides: int
) -> None:
    code, out, _ = _run(capsys, "simulate", "--bots", "rules", "-n", "2", "--json", *flags)
    assert code == 0
    rep = json.loads(out)
    assert len(rep["totals"]["points"]) == sides
    for m in rep["matches"]:
        assert m["winner"] in range(sides)
        assert all(sum(h["points"]) == 120 for h in m["hands"])


def test_simulate_text_output_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "--bots", "random", "-n", "1", "--players", "4")
    assert code == 0 and "side 0 (random@0+random@2)" in out
    code, _, err = _run(capsys, "simulate", "--bots", "wizard", "-n", "1")
    assert code == 2 and "unknown bot level" in err
    code, _, err = _run(capsys, "simulate", "--bots", "a,b,c", "-n", "1")
    assert code == 2
    code, _, err = _run(capsys, "simulate", "--players", "3", "--format", "hands")
    assert code == 2 and "3 players play the 'points' format" in err


def test_arena_seatings_and_interval() -> None:
    assert seatings(2, "a", "b") == [["a", "b"], ["b", "a"]]
    assert seatings(4, "a", "b") == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert seatings(3, "a", "b") == [["a", "b", "b"], ["b", "a", "b"], ["b", "b", "a"]]
    p, lo, hi = wilson(90, 100)
    assert p == 0.9 and 0.82 < lo < 0.84 and 0.94 < hi < 0.95


def test_arena_text_rounds_the_share_once() -> None:
    """369 won of 397 decided is 92.9%: the text must not round an already rounded 0.9295 up."""
    opts = TableOptions.make(players=2)
    r = arena(opts, "rules", "random", deals=1, seed=5, unit="hands", jobs=1)
    r.update(a_won=369, b_won=28, a_share_of_decided=round(369 / 397, 4))
    text = format_arena(r)
    assert "wins 92.9% of decided hands" in text
    _, lo, hi = wilson(369, 397)
    assert f"(95% CI {100 * lo:.1f}-{100 * hi:.1f}%)" in text


def test_arena_is_the_same_with_one_or_two_processes() -> None:
    opts = TableOptions.make(players=2)
    one = arena(opts, "rules", "random", deals=12, seed=5, unit="hands", jobs=1)
    two = arena(opts, "rules", "random", deals=12, seed=5, unit="hands", jobs=2)
    for key in ("a_won", "b_won", "nobody", "mean_point_diff_per_hand", "played"):
        assert one[key] == two[key]
    assert one["played"] == 24 and one["a_won"] > one["b_won"]
    same = arena(opts, "random", "random", deals=10, seed=5, unit="hands", jobs=1)
    assert same["mean_point_diff_per_hand"] == 0.0  # same level, both seatings: exact mirror


def test_arena_matches_and_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "arena", "rules", "random", "-n", "3", "--players", "3", "--jobs", "1", "--json"
    )
    assert code == 0
    r = json.loads(out)
    assert r["played"] == 9 and r["a_won"] + r["b_won"] + r["nobody"] == 9
    code, out, _ = _run(
        capsys, "arena", "rules", "random", "-n", "3", "--unit", "matches", "--jobs", "1"
    )
    assert code == 0 and "matches won" in out


def test_simulate_save_writes_verifiable_transcripts(
    capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    from pathlib import Path

    out_dir = Path(str(tmp_path)) / "games"
    code, out, _ = _run(
        capsys,
        "simulate",
        "--bots",
        "rules,random",
        "-n",
        "1",
        "--seed",
        "3",
        "--json",
        "--save",
        str(out_dir),
    )
    assert code == 0
    rep = json.loads(out)
    files = sorted(out_dir.iterdir())
    assert len(files) == 3 and any(f.name.endswith("-host.briscola.json") for f in files)
    assert rep["totals"]["matches"] == 1 and rep["matches"][0]["winner"] in (0, 1)
    for f in files:
        assert _run(capsys, "verify", str(f))[0] == 0


def test_two_levels_at_three_players_put_one_against_two() -> None:
    from briscola_lan.sim import parse_levels

    assert parse_levels("strong,random", 3) == ["strong", "random", "random"]
    assert parse_levels("rules,random", 4) == ["rules", "random", "rules", "random"]
    assert parse_levels("rules", 3) == ["rules"] * 3


class _Recorder:
    """A bot that plays its first legal card and keeps every view it was given."""

    def __init__(self) -> None:
        self.views: list[SeatView] = []

    def choose(self, view: SeatView) -> Card:
        self.views.append(view)
        return view.legal_plays[0]


def test_a_simulated_table_with_signals_tells_each_bot_its_partners_signal_alone() -> None:
    opts = TableOptions.make(players=4, signals=True)
    deck = shuffled_deck(opts, 3, 0)
    bots = [_Recorder() for _ in range(4)]
    hand = play_hand(opts, deck, 1, list(bots), deaf=frozenset({1}))
    for seat, bot in enumerate(bots):
        partner = (seat + 2) % 4
        first = Hand(opts, deck, 1).view(partner)
        said = ((0, truthful(first.hand, first.trump)),)
        assert len(bot.views) == 10
        assert all(v.partner_signals == (() if seat == 1 else said) for v in bot.views), seat
    assert sum(hand.returns()) == 120
    quiet = [_Recorder() for _ in range(4)]
    play_hand(TableOptions.make(players=4), deck, 1, list(quiet))
    assert all(not v.partner_signals for bot in quiet for v in bot.views)


def test_arena_and_simulate_with_signals(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base = ["arena", "strong:4", "strong:4", "-n", "1", "--players", "4", "--jobs", "1"]
    code, out, _ = _run(capsys, *base, "--signals", "--ignore-signals", "b", "--json")
    assert code == 0
    r = json.loads(out)
    assert r["options"]["signals"] and r["ignore_signals"] == "b" and r["played"] == 2
    code, out, _ = _run(capsys, *base, "--signals", "--ignore-signals", "a")
    assert code == 0 and "strong:4 (deaf) vs strong:4 (signals)" in out
    code, _, err = _run(capsys, *base, "--ignore-signals", "b")
    assert code == 2 and "--ignore-signals needs --signals" in err
    sim = ["simulate", "--bots", "strong:4", "-n", "1", "--players", "4", "--signals", "--json"]
    code, out, _ = _run(capsys, *sim)
    assert code == 0 and json.loads(out)["options"]["signals"]
    code, _, err = _run(capsys, "simulate", "--bots", "rules", "-n", "1", "--signals")
    assert code == 2 and "4-player option" in err
    code, _, err = _run(capsys, *sim[:-1], "--save", str(tmp_path / "games"))
    assert code == 2 and "leave out --save or --signals" in err
    assert not (tmp_path / "games").exists()
