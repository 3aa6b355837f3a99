"""Statistics over time: read from saved games that verify, one match per game, the player found by
identity key; the ``stats`` command and the pure summary."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from briscola_lan.ai import make_bot
from briscola_lan.commands.stats import collect, json_report, text_report
from briscola_lan.fairness.identity import KEY_FILE, Identity
from briscola_lan.fairness.transcript import SUFFIX, dumps, load
from briscola_lan.net.games import save_game
from briscola_lan.rules import TableOptions
from briscola_lan.stats import HandLine, MatchLine, summarize
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients


@dataclass
class Played:
    key: Identity  # seat 0's identity
    winner: int | None  # the side that won the match
    points: list[tuple[int, ...]]  # per hand, per side
    files: list[Path]  # the host's file and seat 0's
    game: str  # the game id, hex


def _play(directory: Path, players: int, ai: dict[int, str], label: str) -> Played:
    """Play one match through the whole protocol, a person in seat 0 and AI players in ``ai``;
    save the host's transcript and seat 0's."""
    host, clients, wire = seat_clients(
        TableOptions.make(players=players), ai_seats=ai, entropy=counter_entropy(label)
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [make_bot("rules", i).choose for i in range(len(clients))])
    assert host.match is not None and host.phase == "over"
    game = bytes(host.game_id).hex()
    files = [
        save_game(directory, game, "host", list(host.records), whole=True),
        save_game(directory, game, "seat0", list(clients[0].records), whole=True),
    ]
    return Played(
        clients[0].identity, host.match.winner, [r.points for r in host.match.results], files, game
    )


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Played]]:
    d = tmp_path_factory.mktemp("games")
    played = [
        _play(d, 2, {1: "rules"}, "a"),
        _play(d, 2, {1: "random"}, "b"),
        _play(d, 4, {1: "rules", 2: "random", 3: "rules"}, "c"),
    ]
    return d, played


def test_each_match_counts_once_from_the_players_seat(games: tuple[Path, list[Played]]) -> None:
    directory, played = games
    me = [p.key.public_key for p in played]
    c = collect(directory, me)
    assert c.files == 6 and c.failed == 0 and c.others == 0
    assert len(c.lines) == 3  # the host's file and seat 0's hold one match: counted once
    st = summarize(c.lines)
    for p in played:
        line = next(x for x in st.lines if x.game_id == p.game)
        assert line.seat == 0
        assert line.result == ("won" if p.winner == 0 else "lost")
        assert [(h.mine, h.theirs) for h in line.hands] == [(pts[0], pts[1]) for pts in p.points]
    assert st.total.matches == 3
    assert st.total.won == sum(p.winner == 0 for p in played)
    assert st.total.hands == sum(len(p.points) for p in played)
    assert st.total.points == sum(pts[0] for p in played for pts in p.points)
    assert set(st.by_level) == {"rules", "random"}
    # at 4 players the opponents are seats 1 and 3 (both "rules"); the partner is not one
    assert st.by_level["rules"].matches == 2 and st.by_level["random"].matches == 1
    assert set(st.by_players) == {2, 4}


def test_a_file_that_does_not_verify_counts_for_nothing(
    games: tuple[Path, list[Played]], tmp_path: Path
) -> None:
    """A file whose last signature is broken fails verification: it is left out and said so,
    and the same game's other file, which verifies, is the one counted."""
    _directory, played = games
    first = played[0]
    host_file, seat_file = (tmp_path / f.name for f in first.files)
    host_file.write_bytes(first.files[0].read_bytes())
    seat_file.write_bytes(_break_last_signature(first.files[1]))
    c = collect(tmp_path, [first.key.public_key])
    assert c.failed == 1 and len(c.lines) == 1 and c.lines[0].result != "unfinished"
    host_file.write_bytes(_break_last_signature(first.files[0]))
    c = collect(tmp_path, [first.key.public_key])
    assert c.failed == 2 and c.lines == []
    out = text_report(summarize(c.lines), c)
    assert "left out: 2 that do not verify" in out and "No match of yours" in out, out


def _break_last_signature(path: Path) -> bytes:
    """The file's bytes with one bit of its last record's signature flipped."""
    records = load(path)
    body, sig = records[-1]
    records[-1] = (body, sig[:-1] + bytes([sig[-1] ^ 1]))
    return dumps(records)


def test_matches_of_other_players_are_left_out(games: tuple[Path, list[Played]]) -> None:
    directory, played = games
    c = collect(directory, [played[1].key.public_key])
    assert len(c.lines) == 1 and c.others == 4  # the other two games' files
    by_name = collect(directory, [], name="bot0")  # by name: every match's seat 0
    assert len(by_name.lines) == 3


def test_best_and_worst_hands_are_shown_once_each() -> None:
    def hand(mine: int, when: float) -> HandLine:
        return HandLine("g", "T", when, 1, mine, 120 - mine, ("AI rules",))

    hands = tuple(hand(m, i) for i, m in enumerate((61, 90, 30, 60, 100)))
    line = MatchLine("g", "T", 0.0, 2, 0, "classic", (("AI", "rules"),), hands, "won")
    st = summarize([line], top=2)
    assert [h.mine for h in st.best] == [100, 90]
    assert [h.mine for h in st.worst] == [30, 60]
    few = summarize([MatchLine("g", "T", 0.0, 2, 0, "classic", (), hands[:3], "won")], top=2)
    assert [h.mine for h in few.best] == [90, 61] and [h.mine for h in few.worst] == [30]
    assert st.total.hands == 5 and st.total.hands_won == 3 and st.total.average == 68.2


def test_the_stats_command_finds_the_player_by_the_key_on_this_computer(
    games: tuple[Path, list[Played]], tmp_path: Path
) -> None:
    directory, played = games
    config = tmp_path / "config"
    (config / "briscola-lan").mkdir(parents=True)
    (config / "briscola-lan" / KEY_FILE).write_bytes(played[2].key.private_bytes())
    env = {**os.environ, "XDG_CONFIG_HOME": str(config)}
    cmd = [sys.executable, "-m", "briscola_lan", "stats", "--games", str(directory)]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    assert "Statistics from 1 of your matches in 6 saved files" in out, out
    assert "left out: 4 of other players' matches" in out and "4 players" in out, out
    report = json.loads(
        subprocess.run([*cmd, "--json"], env=env, capture_output=True, text=True, check=True).stdout
    )
    assert report["matches"] == 1 and report["by_players"]["4"]["hands"] == len(played[2].points)
    assert report == json_report(*_summary(directory, played[2].key))
    empty = subprocess.run(
        [sys.executable, "-m", "briscola_lan", "stats", "--games", str(tmp_path / "none")],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert empty.returncode == 2 and "is not a directory" in empty.stderr


def _summary(directory: Path, key: Identity):  # type: ignore[no-untyped-def]
    c = collect(directory, [key.public_key])
    return summarize(c.lines), c


def test_saved_files_have_the_suffix_the_stats_read(games: tuple[Path, list[Played]]) -> None:
    directory, played = games
    assert all(f.name.endswith(SUFFIX) and f.parent == directory for p in played for f in p.files)
