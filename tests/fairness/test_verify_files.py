"""The offline verifier on saved transcripts: honest files pass, every edit fails and is blamed."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import os
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import (
    HostReveal,
    Play,
    SeedCommit,
    SeedReveal,
    Statement,
    decode,
)
from briscola_lan.fairness.transcript import TranscriptFileError, dumps, loads
from briscola_lan.fairness.verify import HOST, MatchReport, verify_records
from briscola_lan.rules import TableOptions
from tests.table.helpers import run_match

Record = tuple[bytes, bytes]


@dataclasses.dataclass
class Game:
    records: list[Record]
    host: Identity
    seats: list[Identity]
    other: list[Record]  # another game's transcript


@pytest.fixture(scope="module")
def game() -> Game:
    opts = TableOptions.make(players=4, hands_to_win=2)
    host, clients, _ = run_match(opts, label="files")
    other, _, _ = run_match(opts, label="other-files")
    return Game(
        list(host.records), host.identity, [c.identity for c in clients], list(other.records)
    )


def _indices(recs: list[Record], cls: type[Statement]) -> list[int]:
    return [i for i, (b, _) in enumerate(recs) if isinstance(decode(b), cls)]


def _resigned(st: Statement, key: Identity) -> Record:
    body = st.encode()
    return body, key.sign(body)


def _recontexted(recs: list[Record], game: Game) -> list[Record]:
    """The records with every party statement bound to the context due at its place, re-signed
    by its seat: what honest seats sign over a history the editor changed (fairness.md §8.1)."""
    ctx = ContextChain()
    out = []
    for rec in recs:
        st = decode(rec[0])
        context = getattr(st, "context", None)
        if context is not None and st.PUBLIC and context != ctx.expected(st.KIND):
            st = dataclasses.replace(st, context=ctx.expected(st.KIND))  # type: ignore[call-arg]
            rec = _resigned(st, game.seats[st.seat])  # type: ignore[attr-defined]  # noqa: PLW2901
        if st.PUBLIC:
            ctx.published(st.KIND, rec[0])
        out.append(rec)
    return out


def _fault(rep: MatchReport) -> tuple[int, str]:
    assert not rep.ok
    f = rep.fault or next(h.fault for h in rep.hands if h.fault is not None)
    assert f is not None
    return f.seat, f.reason


def test_honest_transcript_verifies(game: Game) -> None:
    rep = verify_records(game.records)
    assert rep.ok, rep.fault
    assert rep.match_over and all(h.acks == 4 for h in rep.hands)
    assert loads(dumps(game.records)) == game.records


def test_changed_seed_reveal_is_the_seats_fault(game: Game) -> None:
    recs = list(game.records)
    i = _indices(recs, SeedReveal)[2]
    st = decode(recs[i][0])
    assert isinstance(st, SeedReveal)
    recs[i] = _resigned(dataclasses.replace(st, seed=bytes(32)), game.seats[st.seat])
    assert _fault(verify_records(recs))[0] == st.seat


def test_changed_host_seed_is_the_hosts_fault(game: Game) -> None:
    recs = list(game.records)
    i = _indices(recs, HostReveal)[0]
    st = decode(recs[i][0])
    assert isinstance(st, HostReveal)
    recs[i] = _resigned(dataclasses.replace(st, host_seed=bytes(32)), game.host)
    seat, reason = _fault(verify_records(recs))
    assert seat == HOST and "host seed" in reason


def test_changed_salt_is_the_hosts_fault(game: Game) -> None:
    recs = list(game.records)
    i = _indices(recs, HostReveal)[1]
    st = decode(recs[i][0])
    assert isinstance(st, HostReveal)
    salts = list(st.salts)
    salts[7] = bytes(32)
    recs[i] = _resigned(dataclasses.replace(st, salts=tuple(salts)), game.host)
    seat, reason = _fault(verify_records(recs))
    assert seat == HOST and "position 7" in reason


def test_play_signed_by_the_wrong_key(game: Game) -> None:
    recs = list(game.records)
    i = _indices(recs, Play)[3]
    st = decode(recs[i][0])
    assert isinstance(st, Play)
    recs[i] = _resigned(st, game.seats[(st.seat + 1) % 4])
    seat, reason = _fault(verify_records(recs))
    assert seat == HOST and "signature" in reason


def test_changed_played_card_even_if_resigned_by_the_player(game: Game) -> None:
    recs = list(game.records)
    i = _indices(recs, Play)[5]
    st = decode(recs[i][0])
    assert isinstance(st, Play)
    recs[i] = _resigned(dataclasses.replace(st, card=(st.card + 10) % 40), game.seats[st.seat])
    seat, _ = _fault(verify_records(recs))
    assert seat == HOST  # the host's engine accepted a card the seat does not hold


@pytest.mark.parametrize(
    "edit",
    [
        lambda r, p: r[: p[4]] + r[p[4] + 1 :],  # removed
        lambda r, p: [*r[: p[4]], r[p[5]], r[p[4]], *r[p[5] + 1 :]],  # reordered
        lambda r, p: [*r[: p[4] + 1], r[p[4]], *r[p[4] + 1 :]],  # duplicated
        lambda r, p: r[:3] + r[4:],  # a seed commitment removed
    ],
    ids=["removed", "reordered", "duplicated", "commit-removed"],
)
def test_removed_reordered_duplicated(
    game: Game, edit: Callable[[list[Record], list[int]], list[Record]]
) -> None:
    recs = edit(list(game.records), _indices(game.records, Play))
    assert _fault(verify_records(recs))[0] == HOST


def test_seed_commitment_replayed_from_another_game(game: Game) -> None:
    recs = list(game.records)
    i = _indices(recs, SeedCommit)[0]
    j = _indices(game.other, SeedCommit)[0]
    recs[i] = game.other[j]
    seat, reason = _fault(verify_records(recs))
    assert seat == HOST and "another game" in reason


def test_seed_commitment_replayed_from_another_seat(game: Game) -> None:
    recs = list(game.records)
    a, b = _indices(recs, SeedCommit)[:2]
    st = decode(recs[a][0])
    assert isinstance(st, SeedCommit)
    recs[b] = _resigned(dataclasses.replace(st, seat=1), game.seats[1])  # seat 1 copies seat 0
    seat, _ = _fault(verify_records(_recontexted(recs, game)))
    assert seat == 1  # its reveal cannot open the copied commitment


def test_truncated_transcript_names_who_holds_up_the_hand(game: Game) -> None:
    i = _indices(game.records, Play)[0]
    rep = verify_records(game.records[:i])
    assert not rep.ok
    last = rep.hands[-1]
    assert last.status == "incomplete" and last.fault is None  # ending early is no fault
    assert last.waiting is not None and last.waiting.seat == HOST and rep.waiting is last.waiting
    j = _indices(game.records, SeedReveal)[1]
    rep = verify_records(game.records[:j])
    assert rep.hands[-1].fault is None and rep.blame is None
    assert rep.hands[-1].waiting is not None and rep.hands[-1].waiting.seat == 1


def test_file_must_be_canonical(game: Game) -> None:
    data = dumps(game.records)
    with pytest.raises(TranscriptFileError):
        loads(data.replace(b"\n", b"\r\n", 1))
    with pytest.raises(TranscriptFileError):
        loads(data.upper())
    with pytest.raises(TranscriptFileError):
        loads(b"{}")


def test_fuzzed_files_never_verify(game: Game) -> None:
    """Flip random bytes of an honest saved match: the verifier never reports success."""
    data = dumps(game.records)
    rng = random.Random(1234)  # test fuzzing only, nothing fair depends on it
    runs = int(os.environ.get("BRISCOLA_FUZZ_RUNS", "200"))
    parsed = 0
    for _ in range(runs):
        b = bytearray(data)
        for _ in range(rng.choice((1, 1, 1, 2, 3))):
            pos = rng.randrange(len(b))
            if rng.random() < 0.5:  # flips that keep the file parseable are the interesting ones
                b[pos] = ord(rng.choice("0123456789abcdef"))
            else:
                b[pos] = rng.randrange(256)
        if bytes(b) == data:
            continue
        try:
            recs = loads(bytes(b))
        except TranscriptFileError:
            continue
        parsed += 1
        assert not verify_records(recs).ok
    assert parsed > runs // 5  # most edits reached the verifier itself


def _verify_output(tmp_path: Path, records: list[Record], *flags: str) -> tuple[int, str]:
    from briscola_lan.cli import main

    path = tmp_path / "game.briscola.json"
    path.write_bytes(dumps(records))
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["verify", *flags, str(path)])
    return code, buf.getvalue()


def test_verify_names_the_winning_partners_at_four_players(game: Game, tmp_path: Path) -> None:
    side = verify_records(game.records).winner
    assert side in (0, 1)
    code, out = _verify_output(tmp_path, game.records)
    assert code == 0, out
    last = out.splitlines()[-1]
    assert last == (
        f"  match over: side {'AB'[side]} (bot{side} + bot{side + 2}, seats {side}+{side + 2}) won"
    )
    code, text = _verify_output(tmp_path, game.records, "--json")
    report = json.loads(text)
    assert report["winner_side"] == side  # unchanged for existing readers
    assert report["winner_names"] == [f"bot{side}", f"bot{side + 2}"]


def test_verify_names_the_winner_at_two_players(tmp_path: Path) -> None:
    host, _, _ = run_match(TableOptions.make(players=2, hands_to_win=1), label="two-names")
    records = list(host.records)
    side = verify_records(records).winner
    assert side in (0, 1)
    code, out = _verify_output(tmp_path, records)
    assert code == 0, out
    assert out.splitlines()[-1] == f"  match over: bot{side} (seat {side}) won"
    assert json.loads(_verify_output(tmp_path, records, "--json")[1])["winner_names"] == [
        f"bot{side}"
    ]


def test_verify_tricks_lists_each_hands_trump_and_tricks(game: Game, tmp_path: Path) -> None:
    rep = verify_records(game.records)
    code, out = _verify_output(tmp_path, game.records)
    assert code == 0 and " trick " not in out  # only when asked
    code, out = _verify_output(tmp_path, game.records, "--tricks")
    assert code == 0, out
    lines = out.splitlines()
    for h in rep.hands:
        at = next(i for i, line in enumerate(lines) if line.startswith(f"  hand {h.hand + 1} "))
        assert h.trump is not None and lines[at + 1] == f"    trump {h.trump.symbol}"
        for i, t in enumerate(h.tricks, 1):
            cards = " ".join(str(c) for _seat, c in t.plays)
            assert lines[at + 1 + i] == (
                f"    trick {i}: seat {t.winner} (bot{t.winner}) took {cards} for {t.points}"
            )
        assert len(h.tricks) == 10


def test_the_tricks_reported_are_those_the_records_prove_up_to_a_cut_or_a_bad_card(
    game: Game,
) -> None:
    """A file cut during a hand, or whose host changed a card: the report's tricks of that hand
    are the ones completed by the records checked before the cut or the bad card."""
    whole = verify_records(game.records).hands[0].tricks
    plays = _indices(game.records, Play)
    cut = verify_records(list(game.records[: plays[9]]))  # the third trick's second card
    assert cut.verdict == "incomplete" and cut.hands[0].status == "incomplete"
    assert cut.hands[0].tricks == whole[:2]
    recs = list(game.records)
    st = decode(recs[plays[13]][0])  # the fourth trick's second card, changed by the host
    assert isinstance(st, Play)
    recs[plays[13]] = _resigned(
        dataclasses.replace(st, card=(st.card + 10) % 40), game.seats[st.seat]
    )
    bad = verify_records(recs)
    assert _fault(bad)[0] == HOST and bad.hands[0].tricks == whole[:3]
