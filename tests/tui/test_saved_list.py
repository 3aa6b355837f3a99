"""The saved-games list: one row per match (the player's own file before the host's), each with
its score."""

from __future__ import annotations

import os
from pathlib import Path

from briscola_lan.ai import make_bot
from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.net.games import save_game
from briscola_lan.rules import TableOptions
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients
from briscola_lan.tui import saved


def _match(directory: Path, players: int, label: str) -> tuple[str, list[tuple[int, ...]]]:
    ai = dict.fromkeys(range(1, players), "random")
    fmt = "points" if players == 3 else "hands"
    host, clients, wire = seat_clients(
        TableOptions.make(players=players, match_format=fmt),
        ai_seats=ai,
        entropy=counter_entropy(label),
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
