"""A cheating host sees the deal, withholds a seed reveal and blames that seat: every verdict."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness import verify_cmd
from briscola_lan.fairness.encoding import DRAW_HAND, deck_seed
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.shuffle import deal_deck
from briscola_lan.fairness.statements import (
    Abort,
    DrawStart,
    Evidence,
    SeedReveal,
    decode,
)
from briscola_lan.fairness.transcript import dumps
from briscola_lan.fairness.verify import HOST, Fault, MatchReport, draw_result, verify_records
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.rules.hand import Hand
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Outgoing, Phase
from briscola_lan.table.seeds import SeedRound
from briscola_lan.table.selfplay import Wire
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Record
from tests.table.helpers import classic, counter_entropy

VICTIM = 1
RECEIPT_TIME = 1_700_000_000  # the host's clock: 2023-11-14 22:13:20 UTC
THREE = TableOptions.make(players=3, match_format=MatchFormat.POINTS)
FOUR = TableOptions.make(players=4, hands_to_win=1)
Predicate = Callable[["HostTable", list[bytes]], bool]  # is this deal bad for the cheater?


@pytest.fixture(autouse=True)
def _one_aborted_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test here looks at one aborted hand and the files that end with its abort: the
    deal again that follows an abort naming a seat is tested in tests/table/test_replay.py."""
    monkeypatch.setattr(HostTable, "_replay_if_due", lambda self, out: None)


class CheatingHost(HostTable):
    """The host code, honest up to the moment every seed reveal is in; then it knows the deal.

    When the deal (or the seat draw) is bad for its own player in seat 0, it cheats in one of
    three ways: ``withhold`` keeps seat 1's reveal to itself (after receipting it, as the honest
    code does) and lets the reveal deadline abort the hand blaming seat 1; ``no-receipt`` does
    the same and never sent seat 1 the receipt; ``fake-evidence`` publishes seat 1's good
    reveal as "evidence" of a bad one and aborts at once.
    """

    def __init__(self, options: TableOptions, *, mode: str, bad: Predicate, **kw: Any) -> None:
        super().__init__(options, deal="classic", **kw)
        self.mode, self.bad = mode, bad
        self.cheated = False

    def receipt(self, seat_no: int, hand: int, rec: Record, out: list[Outgoing]) -> None:
        if (
            self.mode == "no-receipt"
            and seat_no == VICTIM
            and isinstance(decode(rec[0]), SeedReveal)
        ):
            return
        super().receipt(seat_no, hand, rec, out)

    def seed_round(
        self, hand: int, on_revealed: Callable[[list[bytes], list[Outgoing]], None]
    ) -> SeedRound:
        return CheatingRound(self, hand, on_revealed)


class CheatingRound(SeedRound):
    """The seed round of the cheating host: it looks at the deal once every reveal is in."""

    table: CheatingHost

    def _accept_reveal(self, seat_no: int, rec: Record, out: list[Outgoing]) -> None:
        host = self.table
        reveals = list(self.reveals)
        reveals[seat_no] = rec
        if host.cheated or any(r is None for r in reveals):
            super()._accept_reveal(seat_no, rec, out)
            return
        seeds = []
        for r in reveals:
            assert r is not None
            st = decode(r[0])
            assert isinstance(st, SeedReveal)
            seeds.append(st.seed)
        if not host.bad(host, seeds):
            super()._accept_reveal(seat_no, rec, out)
            return
        host.cheated = True
        self.reveals = reveals
        victim_rec = reveals[VICTIM]
        assert victim_rec is not None
        if host.mode == "fake-evidence":
            ev = Evidence(host.game_id, host.hand_number, VICTIM, *victim_rec)
            host.broadcast(out, m.EvidenceShown(*host.sign(ev)))
            host.abort(VICTIM, "revealed a seed that does not match its commitment", out)
        else:  # the reveal "never came": the honest deadline names seat 1
            self.reveals[VICTIM] = None


def seat0_points(host: HostTable, seeds: list[bytes]) -> int:
    """What the cheater computes: the points of the three cards its own seat 0 would get."""
    assert host.match is not None
    host_seed = classic(host).host_seed
    deck = deal_deck(host.options, deck_seed(host.game_id, host.hand_number, host_seed, seeds))
    return sum(c.points for c in Hand(host.options, deck, host.match.next_dealer).hands[0])


def bad_deal(host: HostTable, seeds: list[bytes]) -> bool:
    return seat0_points(host, seeds) < 30  # fewer than three aces' worth: cheat


def bad_draw(host: HostTable, seeds: list[bytes]) -> bool:
    """The draw seats lobby seat 0 with a partner it does not want (any but lobby seat 2)."""
    start = decode(host.records[0][0])
    assert isinstance(start, DrawStart)
    seating = draw_result(start, host.draw_seed, seeds).seating
    return seating[2] != host.options.partner_of(seating[0])


def play_cheater(
    options: TableOptions, mode: str, *, draw: bool = False, label: str = "cheat"
) -> tuple[CheatingHost, list[ClientSession], Wire]:
    """Seat one honest ClientSession per seat at a cheating host and run until the abort."""
    entropy = counter_entropy(label)
    host = CheatingHost(
        options,
        name="crooked",
        identity=Identity.generate(entropy(32)),
        entropy=entropy,
        draw_partners=draw,
        clock=lambda: float(RECEIPT_TIME),
        mode=mode,
        bad=bad_draw if draw else bad_deal,
    )
    clients = [
        ClientSession(Identity.generate(entropy(32)), f"p{i}", entropy=entropy)
        for i in range(options.players)
    ]
    host.tick(0.0)
    wire = Wire(host, clients)
    for i, c in enumerate(clients):
        wire.deliver(host.connect(i))
        wire.send_to_host(i, c.hello())
        wire.pump()
        wire.send_to_host(i, c.take_seat(i) + c.ready())
        wire.pump()
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.cheated, "the deal was not bad enough for the cheater: pick another label"
    if host.phase is not Phase.OVER:  # withholding: the reveal deadline passes
        wire.deliver(host.tick(host.now + host.timeout + 1))
        wire.pump()
    assert host.phase is Phase.OVER and not host.internal_errors
    abort = decode(host.records[-1][0])
    assert isinstance(abort, Abort) and abort.seat == VICTIM  # the host's signed word: seat 1
    assert abort.hand == (DRAW_HAND if draw else 0)
    return host, clients, wire


def files(host: HostTable, clients: list[ClientSession]) -> dict[str, MatchReport]:
    """The verdict on every party's file: the host's and each seat's."""
    out = {"host": verify_records(host.records)}
    for i, c in enumerate(clients):
        out[f"seat{i}"] = verify_records(c.records)
    return out


def blame(rep: MatchReport) -> Fault:
    assert rep.verdict in ("aborted", "failed"), rep.verdict
    f = rep.blame
    assert f is not None
    return f


def no_file_blames_the_victim(reports: dict[str, MatchReport]) -> None:
    for name, rep in reports.items():
        faults = [rep.fault, rep.blame, *(h.fault for h in rep.hands)]
        faults.append(rep.draw.fault if rep.draw is not None else None)
        for f in faults:
            assert f is None or f.party != f"seat {VICTIM}", (name, f.describe())


@pytest.mark.parametrize("players", [2, 3])
def test_withheld_reveal_with_receipt_names_the_host_in_the_victims_file(players: int) -> None:
    options = THREE if players == 3 else TableOptions.make(players=2)
    host, clients, _wire = play_cheater(options, "withhold")
    reports = files(host, clients)
    victim = blame(reports[f"seat{VICTIM}"])
    assert victim.party == "host" and victim.seat == HOST
    assert reports[f"seat{VICTIM}"].receipts >= 2  # its commit and its reveal
    assert "2023-11-14 22:13:20 UTC" in victim.reason
    for name, rep in reports.items():
        if name != f"seat{VICTIM}":
            assert blame(rep).party == f"host or seat {VICTIM}", name
            assert rep.verdict == "aborted"
    no_file_blames_the_victim(reports)
    # the victim's live client says so itself, with the receipt's time
    check = clients[VICTIM].state.checks[-1]
    assert check.status == "aborted"
    assert check.fault is not None and check.fault.party == "host"
    assert check.own_verdict is not None
    said = str(check.own_verdict)
    assert "host is at fault" in said and "22:13:20 UTC" in said
    assert "did not reveal your seed" in said
    assert said in check.summary and said in clients[VICTIM].state.log
    for i, c in enumerate(clients):
        if i != VICTIM:
            other = c.state.checks[-1]
            assert other.fault is not None and other.fault.party == f"host or seat {VICTIM}"
            assert other.own_verdict is None


def test_withheld_reveal_and_receipt_cannot_be_told_apart() -> None:
    host, clients, _wire = play_cheater(THREE, "no-receipt")
    reports = files(host, clients)
    for name, rep in reports.items():
        assert rep.verdict == "aborted" and blame(rep).party == f"host or seat {VICTIM}", name
    no_file_blames_the_victim(reports)
    check = clients[VICTIM].state.checks[-1]
    assert check.fault is not None and check.fault.party == f"host or seat {VICTIM}"
    assert check.own_verdict is not None and "cannot be told apart" in str(check.own_verdict)
    assert "host is at fault" not in str(check.own_verdict)


def test_good_reveal_shown_as_evidence_is_the_hosts_fault_everywhere() -> None:
    host, clients, _wire = play_cheater(THREE, "fake-evidence")
    reports = files(host, clients)
    for name, rep in reports.items():
        f = blame(rep)
        assert rep.verdict == "failed" and f.party == "host" and f.kind == "evidence", name
        assert "opening its commitment" in f.reason
    no_file_blames_the_victim(reports)
    for i, c in enumerate(clients):
        check = c.state.checks[-1]
        assert check.fault is not None and check.fault.party == "host", i
        assert check.fault.kind == "evidence"
    # the victim's receipt (the honest path receipted its reveal) makes its client say so too
    verdict = clients[VICTIM].state.checks[-1].own_verdict
    assert verdict is not None and "host is at fault" in str(verdict)


@pytest.mark.parametrize("mode", ["withhold", "no-receipt"])
def test_the_same_attack_in_the_seat_draw(mode: str) -> None:
    host, clients, _wire = play_cheater(FOUR, mode, draw=True, label="draw-cheat-b")
    reports = files(host, clients)
    victim_party = "host" if mode == "withhold" else f"host or seat {VICTIM}"
    for name, rep in reports.items():
        assert rep.draw is not None and rep.draw.status == "aborted", name
        assert rep.hands == [] and rep.verdict == "aborted"
        want = victim_party if name == f"seat{VICTIM}" else f"host or seat {VICTIM}"
        assert blame(rep).party == want, (name, blame(rep).describe())
    no_file_blames_the_victim(reports)
    for i, c in enumerate(clients):  # the live draw check (nobody was moved: lobby = match seat)
        d = c.state.draw
        assert d is not None and d.status == "aborted" and d.fault is not None
        assert d.fault.party == (victim_party if i == VICTIM else f"host or seat {VICTIM}"), i


def test_verify_command_on_the_victims_saved_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    host, clients, _wire = play_cheater(THREE, "withhold")
    victim_file = tmp_path / "victim.json"
    victim_file.write_bytes(dumps(clients[VICTIM].records))
    bystander = tmp_path / "seat2.json"
    bystander.write_bytes(dumps(clients[2].records))
    host_file = tmp_path / "host.json"
    host_file.write_bytes(dumps(host.records))
    verdicts = {}
    for path in (victim_file, bystander, host_file):
        code = verify_cmd.run(argparse.Namespace(files=[str(path)], json=True))
        out = json.loads(capsys.readouterr().out)
        assert code == 1 and out["verdict"] == "aborted", path.name
        verdicts[path.name] = out["at_fault"]
    assert verdicts == {
        "victim.json": "host",
        "seat2.json": f"host or seat {VICTIM}",
        "host.json": f"host or seat {VICTIM}",
    }
    assert verify_cmd.run(argparse.Namespace(files=[str(victim_file)], json=False)) == 1
    text = capsys.readouterr().out
    assert "at fault: the host" in text and "receipt" in text
    when = datetime.fromtimestamp(RECEIPT_TIME, UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    assert when in text


def test_the_victims_words_for_fake_evidence_name_the_claim() -> None:
    _host, clients, _wire = play_cheater(THREE, "fake-evidence")
    verdict = clients[VICTIM].state.checks[-1].own_verdict
    assert verdict is not None and "did not reveal" not in str(verdict)
