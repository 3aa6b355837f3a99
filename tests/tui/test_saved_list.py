"""The saved-games list: one row per match (the player's own file before the host's), each with
its score."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from briscola_lan.ai import make_bot
from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net.games import save_game
from briscola_lan.rules import TableOptions
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients
from briscola_lan.tui import saved
from briscola_lan.tui.deck import Deck, card_label


def _match(
    directory: Path, players: int, label: str, deal: str | None = None
) -> tuple[str, list[tuple[int, ...]]]:
    ai = dict.fromkeys(range(1, players), "random")
    fmt = "points" if players == 3 else "hands"
    host, clients, wire = seat_clients(
        TableOptions.make(players=players, match_format=fmt),
        ai_seats=ai,
        entropy=counter_entropy(label),
        deal=deal,
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [make_bot("rules", 0).choose])
    game = bytes(host.game_id).hex()
    save_game(directory, game, "host", list(host.records), whole=True)
    save_game(directory, game, "Tess", list(clients[0].records), whole=True)
    assert host.match is not None
    return game, [r.points for r in host.match.results]


def test_one_row_per_match_the_players_own_file(tmp_path: Path) -> None:
    first, _ = _match(tmp_path, 2, "a")
    second, _ = _match(tmp_path, 2, "b")
    for i, p in enumerate(sorted(tmp_path.iterdir())):
        os.utime(p, (1_000_000 + i, 1_000_000 + i))
    only_host = tmp_path / "abcdefabcdef-host.briscola.json"  # a hosted table nobody kept
    only_host.write_bytes(next(tmp_path.glob(f"{first[:12]}-host*")).read_bytes())
    rows = saved.list_saved(tmp_path)
    names = [p.name for p in rows]
    assert sorted(names) == sorted(
        [f"{first[:12]}-Tess.briscola.json", f"{second[:12]}-Tess.briscola.json", only_host.name]
    )
    assert names[0] == only_host.name  # newest first


def test_the_score_is_hands_won_or_points_per_side(tmp_path: Path) -> None:
    game, points = _match(tmp_path, 2, "c")
    rep = verify_records(load(next(tmp_path.glob(f"{game[:12]}-Tess*"))))
    won = [sum(1 for p in points if p[side] > 60) for side in (0, 1)]
    assert saved.score_text(rep) == f"hands {won[0]}-{won[1]}"
    game3, points3 = _match(tmp_path, 3, "d")  # 3 players: the points format
    rep3 = verify_records(load(next(tmp_path.glob(f"{game3[:12]}-Tess*"))))
    totals = [sum(p[i] for p in points3) for i in range(3)]
    assert saved.score_text(rep3) == "points " + "-".join(map(str, totals))
    line = saved.summarize(next(tmp_path.glob(f"{game3[:12]}-Tess*")))
    assert line.score == saved.score_text(rep3) and line.status == "VERIFIED"


@pytest.mark.parametrize(("players", "deal"), [(2, "classic"), (4, "classic"), (2, "blind")])
def test_the_report_shows_each_hands_trump_and_every_trick(
    tmp_path: Path, players: int, deal: str
) -> None:
    """A saved game's full report lists each hand's tricks as its records prove them: every
    card of the deck once, each trick's points to the side that took it, adding up to the
    hand's verified points."""
    game, points = _match(tmp_path, players, f"tricks-{players}-{deal}", deal)
    path = next(tmp_path.glob(f"{game[:12]}-Tess*"))
    rep = verify_records(load(path))
    assert rep.verdict == "verified" and len(rep.hands) == len(points)
    options = TableOptions.make(players=players)
    for h, verified in zip(rep.hands, points, strict=True):
        assert h.trump is not None and len(h.tricks) == 40 // players
        cards = [c for t in h.tricks for _seat, c in t.plays]
        assert sorted(c.code for c in cards) == list(range(40))
        won = [0] * len(verified)
        for t in h.tricks:
            assert len(t.plays) == players and t.winner in [seat for seat, _c in t.plays]
            won[options.side_of(t.winner)] += t.points
        assert tuple(won) == tuple(verified)
    ok, _word, lines = saved.verify_saved(path)
    assert ok
    first = lines.index(next(line for line in lines if line.startswith("hand 1 ")))
    assert lines[first + 1].startswith("  trump ")
    trick = rep.hands[0].tricks[0]
    cards = " ".join(card_label(c, Deck.FRENCH, False) for _seat, c in trick.plays)
    assert lines[first + 2].startswith("  1. ")
    assert lines[first + 2].endswith(f" took the trick ({cards}) for {trick.points}")
    assert sum(1 for line in lines if " took the trick (" in line) == sum(
        len(h.tricks) for h in rep.hands
    )
