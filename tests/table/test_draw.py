"""Drawn partnerships and drawn first dealer: the draw, reseating, live checks and tampering."""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.draw import draw, draw_key, seating_for, strength_order
from briscola_lan.fairness.encoding import DRAW_HAND
from briscola_lan.fairness.statements import (
    DrawReveal,
    DrawStart,
    MatchStart,
    SeedCommit,
    SeedReveal,
    decode,
)
from briscola_lan.fairness.transcript import dumps
from briscola_lan.fairness.verify import HOST, draw_result
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Phase
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Message
from tests.table.helpers import counter_entropy, cycle_chooser

FOUR = TableOptions.make(players=4, hands_to_win=1)
Tap = Callable[[int, Message], Message | None]


def _flip(b: bytes, i: int = 0) -> bytes:
    return b[:i] + bytes([b[i] ^ 1]) + b[i + 1 :]


def _drawn_match(
    options: TableOptions,
    *,
    partners: bool,
    dealer: bool,
    label: str = "d",
    tap: Tap | None = None,
    client_tap: Tap | None = None,
    finish: bool = True,
) -> tuple[HostTable, list[ClientSession], Wire]:
    host, clients, wire = seat_clients(
        options, entropy=counter_entropy(label), draw_partners=partners, draw_dealer=dealer
    )
    wire.tap = tap
    if client_tap is not None:
        original = wire.send_to_host

        def send(conn: int, msgs: list[Message]) -> None:
            edited = [client_tap(conn, x) for x in msgs]
            original(conn, [x for x in edited if x is not None])

        wire.send_to_host = send  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    if finish and host.phase is not Phase.OVER:
        play_out(wire, [cycle_chooser(i) for i in range(options.players)])
    return host, clients, wire


# --- the draw itself --------------------------------------------------------------------------


def test_strength_order_and_suit_tiebreak() -> None:
    # ace of clubs (30) beats the 3 of coins (1); equal ranks: coins (0) above cups, swords, clubs
    cards = [1, 30, 10, 19]  # 3♦, A♣, A♥, 2♥
    assert strength_order(cards) == [2, 1, 0, 3]
    assert sorted(range(40), key=draw_key)[:4] == [0, 10, 20, 30]  # the four aces, coins first
    assert sorted(range(40), key=draw_key)[-1] == 39  # the 2 of clubs is the lowest card


def test_seating_keeps_lobby_seat_0_and_puts_partners_opposite() -> None:
    for cards in itertools.permutations([0, 1, 2, 3]):  # A, 3, K, Q of coins, every order
        seating = seating_for(cards, draw_partners=True)
        assert sorted(seating) == [0, 1, 2, 3] and seating[0] == 0
        order = strength_order(cards)
        high = {seating[order[0]], seating[order[1]]}
        assert high in ({0, 2}, {1, 3})  # the two higher cards are partners, sitting opposite
        others = sorted(s for s in range(4) if seating[s] in (1, 3))
        assert [seating[s] for s in others] == [1, 3]  # the lower lobby seat takes seat 1
    assert seating_for([5, 6, 7], draw_partners=False) == (0, 1, 2)
    with pytest.raises(ValueError):
        seating_for([5, 6, 7], draw_partners=True)


def test_dealer_is_the_highest_card_and_every_seat_can_deal() -> None:
    dealers = set()
    for i in range(64):
        seed = bytes([i]) * 32
        r = draw(range(40), seed, 4, draw_partners=True, draw_dealer=True)
        assert len(set(r.cards)) == 4
        assert r.dealer == r.seating[strength_order(r.cards)[0]]
        assert draw(range(40), seed, 4, draw_partners=False, draw_dealer=False).dealer == 0
        dealers.add(r.dealer)
    assert dealers == {0, 1, 2, 3}


# --- whole matches ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "partners", "dealer"),
    [(4, True, True), (4, True, False), (4, False, True), (3, False, True), (2, False, True)],
)
def test_drawn_match_verifies_everywhere(players: int, partners: bool, dealer: bool) -> None:
    opts = TableOptions.make(
        players=players, match_format="points" if players == 3 else "hands", hands_to_win=1
    )
    host, clients, _ = _drawn_match(opts, partners=partners, dealer=dealer, label=f"m{players}")
    assert host.phase is Phase.OVER and host.internal_errors == []
    rep = verify_records(host.records)
    assert rep.ok and rep.draw is not None and rep.draw.verified, rep.fault
    ds = decode(host.records[0][0])
    assert isinstance(ds, DrawStart)
    ms = next(decode(b) for b, _ in host.records if isinstance(decode(b), MatchStart))
    assert isinstance(ms, MatchStart)
    assert ms.first_dealer == rep.draw.dealer == rep.hands[0].dealer
    for lobby, c in enumerate(clients):  # client i joined in lobby seat i
        d = c.state.draw
        assert d is not None and d.status == "verified" and d.my_lobby_seat == lobby
        assert c.state.seat == rep.draw.seating[lobby]
        assert ms.seat_keys[c.state.seat] == c.identity.public_key
        assert all(x.status == "verified" for x in c.state.checks)
        assert verify_records(c.records).ok
    assert c.state.draw_dealer == dealer and c.state.draw_partners == partners
    assert host.info().draw_dealer == dealer and ("drawn-dealer" in host.info().rules) == dealer


def test_partnership_draw_moves_players_and_their_tokens() -> None:
    moved = None
    for k in range(12):  # find a deterministic run where the draw moves someone
        host, clients, wire = _drawn_match(FOUR, partners=True, dealer=False, label=f"mv{k}")
        rep = verify_records(host.records)
        assert rep.draw is not None
        if rep.draw.seating != (0, 1, 2, 3):
            moved = (host, clients, wire, rep.draw.seating)
            break
    assert moved is not None
    host, clients, wire, seating = moved
    for lobby, c in enumerate(clients):
        seat = seating[lobby]
        assert host.seats[seat].key == c.identity.public_key
        assert host.seats[seat].token == c.state.resume_token
        assert host.conns[lobby].seat == seat  # connection ids follow the players
    # a moved player resumes into its new seat with its token
    mover = next(i for i in range(4) if seating[i] != i)
    wire.deliver(host.disconnect(mover))
    wire.deliver(host.connect(mover))
    wire.send_to_host(mover, clients[mover].hello())
    wire.pump()
    assert clients[mover].state.seat == seating[mover]
    assert verify_records(clients[mover].records).ok
    assert clients[mover].state.errors == []  # replayed commits and reveals are not refused


def test_draw_options_are_validated_and_announced() -> None:
    from briscola_lan.fairness.identity import Identity

    with pytest.raises(ValueError, match="4 players"):
        HostTable(
            TableOptions.make(players=2), name="t", identity=Identity.generate(), draw_partners=True
        )
    _, clients, wire = seat_clients(FOUR, entropy=counter_entropy("w"), draw_partners=True)
    welcome = next(x for x in wire.received[0] if isinstance(x, m.Welcome))
    assert welcome.draw_partners and not welcome.draw_dealer
    assert clients[0].state.draw_partners


# --- tampering ---------------------------------------------------------------------------------


def _resigned_reveal(host: HostTable, msg: m.DrawRevealed, **changes: object) -> m.DrawRevealed:
    st = decode(msg.body)
    assert isinstance(st, DrawReveal)
    body = dataclasses.replace(st, **changes).encode()  # type: ignore[arg-type]
    return m.DrawRevealed(body, host.identity.sign(body))


@pytest.mark.parametrize("what", ["dealer", "seating", "cards", "host_seed"])
def test_host_lying_about_the_draw_is_caught_live_and_blamed_on_host(what: str) -> None:
    box: dict[str, HostTable] = {}

    def tap(conn: int, msg: Message) -> Message:
        if not isinstance(msg, m.DrawRevealed):
            return msg
        st = decode(msg.body)
        assert isinstance(st, DrawReveal)
        change: dict[str, object] = {
            "dealer": {"dealer": (st.dealer + 1) % 4},
            "seating": {"seating": (0, 3, 2, 1) if st.seating != (0, 3, 2, 1) else (0, 1, 2, 3)},
            "cards": {"cards": (st.cards[1], st.cards[0], *st.cards[2:])},
            "host_seed": {"host_seed": _flip(st.host_seed)},
        }[what]
        return _resigned_reveal(box["h"], msg, **change)

    host, clients, _ = seat_clients(
        FOUR, entropy=counter_entropy("lie"), draw_partners=True, draw_dealer=True
    )
    box["h"] = host
    wire = _rewire(host, clients, tap)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for c in clients:
        d = c.state.draw
        assert d is not None and d.status == "failed", d
        assert d.fault is not None and d.fault.seat == HOST and d.fault.kind == "draw-reveal"
        rep = verify_records(c.records)
        assert not rep.ok and rep.fault is not None and rep.fault.seat == HOST


def _rewire(host: HostTable, clients: list[ClientSession], tap: Tap) -> Wire:
    wire = Wire(host, clients)
    wire.tap = tap
    return wire


def test_match_start_with_other_seats_than_drawn_is_blamed_on_host() -> None:
    host, _, _ = _drawn_match(FOUR, partners=True, dealer=True, label="ms")
    records = list(host.records)
    i = next(k for k, (b, _) in enumerate(records) if isinstance(decode(b), MatchStart))
    ms = decode(records[i][0])
    assert isinstance(ms, MatchStart)
    for bad in (
        dataclasses.replace(
            ms, seat_keys=(ms.seat_keys[2], *ms.seat_keys[1:2], ms.seat_keys[0], ms.seat_keys[3])
        ),
        dataclasses.replace(ms, first_dealer=(ms.first_dealer + 1) % 4),
    ):
        body = bad.encode()
        edited = [*records[:i], (body, host.identity.sign(body)), *records[i + 1 :]]
        rep = verify_records(edited)
        assert not rep.ok and rep.fault is not None
        assert rep.fault.seat == HOST and rep.fault.index == i and rep.fault.kind == "match-start"


def test_player_revealing_another_draw_seed_is_blamed_on_that_player() -> None:
    box: list[ClientSession] = []

    def client_tap(conn: int, msg: Message) -> Message:
        if conn == 2 and isinstance(msg, m.RevealSeed):
            st = decode(msg.body)
            assert isinstance(st, SeedReveal) and st.hand == DRAW_HAND
            body = dataclasses.replace(st, seed=_flip(st.seed, 3)).encode()
            return m.RevealSeed(body, box[2].identity.sign(body))
        return msg

    host, clients, wire = seat_clients(
        FOUR, entropy=counter_entropy("pl"), draw_partners=True, draw_dealer=True
    )
    box.extend(clients)
    original = wire.send_to_host
    wire.send_to_host = lambda c, msgs: original(c, [client_tap(c, x) for x in msgs])  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase is Phase.OVER
    rep = verify_records(host.records)
    assert rep.draw is not None and rep.draw.status == "aborted" and rep.verdict == "aborted"
    # the bad reveal itself is published as evidence: the seat is at fault, the host is not
    assert rep.blame is not None and rep.blame.party == "seat 2" and rep.blame.kind == "evidence"
    for c in clients:
        d = c.state.draw
        assert c.state.match_aborted and d is not None and d.status == "aborted"
        assert d.fault is not None and d.fault.seat == 2
    # the same lie relayed by a host that did not abort is caught by the verifier, on the player
    honest, honest_clients, _ = _drawn_match(FOUR, partners=True, dealer=True, label="pl2")
    records = list(honest.records)
    k = next(
        j
        for j, (b, _) in enumerate(records)
        if isinstance(decode(b), SeedReveal) and decode(b).seat == 1  # type: ignore[attr-defined]
    )
    st = decode(records[k][0])
    assert isinstance(st, SeedReveal) and st.hand == DRAW_HAND
    body = dataclasses.replace(st, seed=_flip(st.seed)).encode()
    records[k] = (body, honest_clients[1].identity.sign(body))
    rep = verify_records(records)
    assert rep.fault is not None and rep.fault.seat == 1 and rep.fault.index == k


def test_withheld_draw_reveal_aborts_naming_the_lobby_seat() -> None:
    def client_tap(conn: int, msg: Message) -> Message | None:
        return None if conn == 3 and isinstance(msg, m.RevealSeed) else msg

    host, clients, wire = _drawn_match(
        FOUR, partners=True, dealer=False, label="wh", client_tap=client_tap, finish=False
    )
    assert host.phase is Phase.REVEAL and host.drawing
    wire.deliver(host.tick(host.now + host.grace + 1))  # no takeover during the draw
    assert host.phase is Phase.REVEAL
    wire.deliver(host.tick(host.now + host.timeout + 1))
    wire.pump()
    assert host.phase is Phase.OVER
    rep = verify_records(host.records)
    assert rep.draw is not None and rep.draw.status == "aborted" and not rep.ok
    # no evidence, no receipt (the reveal never reached the host): nobody can tell who failed
    assert rep.blame is not None and rep.blame.party == "host or seat 3"
    for c in clients:
        assert c.state.match_aborted and c.state.draw is not None
        f = c.state.draw.fault
        assert f is not None and f.seat == 3 and f.also_host


def test_transcript_cut_during_the_draw_names_who_holds_it_up() -> None:
    host, _, _ = _drawn_match(FOUR, partners=True, dealer=True, label="cut")
    records = host.records
    kinds = [decode(b) for b, _ in records]
    first_reveal = next(i for i, st in enumerate(kinds) if isinstance(st, SeedReveal))
    draw_reveal = next(i for i, st in enumerate(kinds) if isinstance(st, DrawReveal))
    commits = [i for i, st in enumerate(kinds) if isinstance(st, SeedCommit)]
    cases = [
        (commits[2], 2),  # seats 0 and 1 committed: seat 2 holds it up
        (first_reveal + 1, 1),  # seat 0 revealed: seat 1 holds it up
        (draw_reveal, HOST),  # every seat revealed: the host never revealed the draw
    ]
    for cut, who in cases:
        rep = verify_records(records[:cut])
        assert rep.verdict == "incomplete" and rep.fault is None, (cut, rep.fault)
        assert rep.draw is not None and rep.draw.status == "incomplete"
        assert rep.draw.fault is None, (cut, rep.draw.fault)  # ending early is no fault
        waiting = rep.draw.waiting
        assert waiting is not None and waiting.seat == who and rep.waiting is waiting, cut


def test_draw_statements_out_of_place_are_the_hosts_fault() -> None:
    host, _, _ = _drawn_match(FOUR, partners=True, dealer=True, label="oop")
    records = list(host.records)
    kinds = [decode(b) for b, _ in records]
    dr = next(i for i, st in enumerate(kinds) if isinstance(st, DrawReveal))
    ms = next(i for i, st in enumerate(kinds) if isinstance(st, MatchStart))
    # the draw result removed, duplicated, or moved before the reveals
    for edited, where in (
        ([*records[:dr], *records[dr + 1 :]], dr),
        ([*records[: dr + 1], records[dr], *records[dr + 1 :]], dr + 1),
        ([*records[: dr - 4], records[dr], *records[dr - 4 : dr], *records[dr + 1 :]], dr - 4),
    ):
        rep = verify_records(edited)
        assert rep.fault is not None and rep.fault.seat == HOST and rep.fault.index == where
    # a draw result computed for other seeds (consistent with itself, signed by the host)
    st = kinds[dr]
    assert isinstance(st, DrawReveal)
    ds = kinds[0]
    assert isinstance(ds, DrawStart)
    other = draw_result(ds, st.host_seed, [bytes(32)] * 4)
    body = dataclasses.replace(
        st, cards=other.cards, seating=other.seating, dealer=other.dealer
    ).encode()
    assert (other.cards, other.seating, other.dealer) != (st.cards, st.seating, st.dealer)
    rep = verify_records([*records[:dr], (body, host.identity.sign(body)), *records[dr + 1 :]])
    assert rep.fault is not None and rep.fault.seat == HOST and rep.fault.index == dr
    assert ms == dr + 1


def test_verify_command_reports_the_draw(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from briscola_lan.fairness import verify_cmd

    host, _, _ = _drawn_match(FOUR, partners=True, dealer=True, label="cmd")
    good = tmp_path / "good.briscola.json"
    good.write_bytes(dumps(host.records))
    assert verify_cmd.run(argparse.Namespace(files=[str(good)], json=False)) == 0
    out = capsys.readouterr().out
    assert "VERIFIED" in out and "draw for partners and first dealer: verified" in out
    records = list(host.records)
    dr = next(i for i, (b, _) in enumerate(records) if isinstance(decode(b), DrawReveal))
    body, sig = records[dr]
    records[dr] = (_flip(body, len(body) - 1), sig)  # the dealer byte, signature left as it was
    bad = tmp_path / "bad.briscola.json"
    bad.write_bytes(dumps(records))
    assert verify_cmd.run(argparse.Namespace(files=[str(bad)], json=True)) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["fault"]["seat_at_fault"] == "host" and report["fault"]["record"] == dr
    assert report["draw"]["status"] == "failed"


def test_fuzzed_draw_records_never_verify() -> None:
    """Flip random hex digits inside the draw's records of a saved drawn match: never verified."""
    import os
    import random

    from briscola_lan.fairness.transcript import loads

    path = Path(__file__).resolve().parents[2] / "protocol/vectors/transcript-4p-draw.briscola.json"
    data = path.read_bytes()
    assert verify_records(loads(data)).ok
    lines = data.split(b"\n")
    draw_lines = next(i for i, line in enumerate(lines) if b"6d617463682d7374617274" in line)
    end = sum(len(line) + 1 for line in lines[: draw_lines + 1])  # through match-start
    start = len(lines[0]) + 1
    rng = random.Random(77)  # test fuzzing only, nothing fair depends on it
    runs = int(os.environ.get("BRISCOLA_FUZZ_RUNS", "200"))
    for _ in range(runs):
        b = bytearray(data)
        pos = rng.randrange(start, end)
        if chr(b[pos]) not in "0123456789abcdef":
            continue
        b[pos] = ord(rng.choice([c for c in "0123456789abcdef" if ord(c) != b[pos]]))
        rep = verify_records(loads(bytes(b)))
        assert not rep.ok and rep.fault is not None
