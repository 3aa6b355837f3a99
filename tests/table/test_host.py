"""HostTable: lobby, bad input, secrecy of hidden cards, AI seats, drops, takeovers, resuming,
withheld reveals and snapshots."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Deal, Exchange, Play, decode
from briscola_lan.rules import Card, TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Phase
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import decode_message, encode_message
from tests.table.helpers import (
    challenge,
    counter_entropy,
    cycle_chooser,
    proven_hello,
    run_match,
    say_hello,
    setup,
)

from .helpers import classic, hand_of

TWO = TableOptions.make(players=2, hands_to_win=1)
FOUR = TableOptions.make(players=4, hands_to_win=1)


def _state(host: HostTable) -> tuple[object, ...]:
    hand = hand_of(host)
    return (
        host.phase,
        len(host.records),
        host.chain,
        tuple(s.occupied for s in host.seats),
        None if hand is None else (tuple(map(tuple, hand.hands)), tuple(hand.plays)),
    )


def _errors(outs: list) -> list[str]:  # type: ignore[type-arg]
    return [o.message.code for o in outs if isinstance(o.message, m.Error)]


def test_hello_first_and_version_mismatch() -> None:
    host = HostTable(TWO, name="t", identity=Identity.generate(bytes(32)))
    ch = challenge(host, 1)
    assert _errors(host.receive(1, m.TakeSeat(0))) == ["hello_first"]
    player = Identity.generate(b"\x05" * 32)
    out = host.receive(1, m.Hello(1, "x", player.public_key))  # a version 1 client: no proof
    assert _errors(out) == ["bad_version"] and out[0].close
    assert "version" in out[0].message.text  # type: ignore[union-attr]
    out = host.receive(1, proven_hello(player, ch, "x"))
    assert isinstance(out[0].message, m.Welcome)


def test_lobby_seats_ready_and_start_rules() -> None:
    host = HostTable(
        FOUR, name="t", identity=Identity.generate(bytes(32)), entropy=counter_entropy()
    )
    keys = [Identity.generate(bytes([i + 1]) * 32) for i in range(3)]
    for i in range(3):
        assert _errors(say_hello(host, i, keys[i], f"p{i}")) == []
    assert _errors(host.receive(0, m.TakeSeat(0))) == []
    assert _errors(host.receive(1, m.TakeSeat(0))) == ["seat_taken"]
    assert _errors(host.receive(1, m.TakeSeat(7))) == ["no_such_seat"]
    assert _errors(host.receive(1, m.TakeSeat(1))) == []
    assert _errors(host.receive(1, m.SetAiSeat(2, "random"))) == ["not_allowed"]  # not seat 0
    assert _errors(host.receive(0, m.SetAiSeat(1, "random"))) == ["seat_taken"]
    assert _errors(host.receive(0, m.SetAiSeat(2, "random"))) == []
    assert _errors(host.receive(0, m.StartMatch())) == ["not_ready"]  # seat 3 empty
    assert _errors(host.receive(2, m.TakeSeat(3))) == []
    assert _errors(host.receive(0, m.StartMatch())) == ["not_ready"]  # humans not ready
    for i in range(3):
        host.receive(i, m.SetReady(True))
    assert _errors(host.receive(2, m.LeaveSeat())) == []
    assert host.info().free_seats == (3,)
    host.receive(2, m.TakeSeat(3))
    host.receive(2, m.SetReady(True))
    out = host.receive(0, m.StartMatch())
    assert (
        _errors(out) == [] and host.phase is Phase.CALL
    )  # blind: the first hand calls its players
    assert any(isinstance(o.message, m.MatchStarted) for o in out)
    assert _errors(host.receive(1, m.TakeSeat(2))) == ["wrong_phase"]


def test_bad_input_gets_an_error_and_changes_nothing() -> None:
    host, clients, wire = setup(TWO)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    hand = hand_of(host)
    assert hand is not None and host.phase is Phase.PLAY
    turn = hand.current_player
    assert turn is not None
    other = 1 - turn
    gid = host.game_id
    ctx = host.context_for(Play.KIND)

    def signed(seat: int, st: Play, key: ClientSession | None = None) -> m.PlayCard:
        body = st.encode()
        return m.PlayCard(body, (key or clients[seat]).identity.sign(body))

    cases = {
        "garbage statement": (turn, m.PlayCard(b"\x00garbage", bytes(64))),
        "out of turn": (
            other,
            signed(other, Play(gid, 0, other, ctx, 0, hand.hands[other][0].code)),
        ),
        "card not held": (
            turn,
            signed(turn, Play(gid, 0, turn, ctx, 0, hand.hands[other][0].code)),
        ),
        "someone else's seat": (
            other,
            signed(turn, Play(gid, 0, turn, ctx, 0, hand.hands[turn][0].code), clients[turn]),
        ),
        "bad signature": (
            turn,
            m.PlayCard(Play(gid, 0, turn, ctx, 0, hand.hands[turn][0].code).encode(), bytes(64)),
        ),
        "wrong play index": (
            turn,
            signed(turn, Play(gid, 0, turn, ctx, 5, hand.hands[turn][0].code)),
        ),
        "another game": (
            turn,
            signed(turn, Play(bytes(16), 0, turn, ctx, 0, hand.hands[turn][0].code)),
        ),
        "wrong phase": (turn, m.CommitSeed(b"x", b"y")),
        "host message": (turn, m.TrickTaken(0, 0)),
        "seat change mid-match": (turn, m.TakeSeat(other)),
    }
    for name, (conn, msg) in cases.items():
        before = _state(host)
        out = host.receive(conn, msg)
        assert len(out) == 1 and isinstance(out[0].message, m.Error), name
        assert out[0].conn == conn and not out[0].close, name
        assert _state(host) == before, name
    # the table still works afterwards
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    assert host.phase is Phase.OVER and verify_records(host.records).ok


def test_wrong_resume_token() -> None:
    host, clients, _wire = setup(TWO)
    out = say_hello(host, 9, clients[0].identity, "again", "not-a-token")
    assert _errors(out) == ["bad_token"]
    token = host.seats[0].token
    out = say_hello(host, 10, Identity.generate(bytes(32)), "thief", token)
    assert _errors(out) == ["bad_token"]  # the token alone is not enough: the key must match


def test_no_hidden_card_reaches_another_seat_before_it_is_public() -> None:
    """Record every message each seat receives; a card of another seat may appear only once it
    is public: played, the upcard, shown to a partner, or at the end-of-hand reveal."""
    _host, _clients, wire = run_match(FOUR)
    for seat, msgs in wire.received.items():
        public: set[int] = set()
        mine: set[int] = set()
        revealed = False
        for msg in msgs:
            if isinstance(msg, m.HandStarted):
                public, mine, revealed = set(), set(), False
            if isinstance(msg, m.HandEnded):
                revealed = True
            body = getattr(msg, "body", None)
            if body is None:
                continue
            st = decode(body)
            if isinstance(st, Deal):
                assert st.seat == seat
                mine |= {o.card for o in st.openings}
            elif isinstance(st, Exchange):
                assert st.seat == seat and st.partner == (seat + 2) % 4
                public |= {o.card for o in st.openings}
            elif isinstance(st, Play):
                public.add(st.card)
            if hasattr(st, "opening"):
                public.add(st.opening.card)  # type: ignore[attr-defined]
            # every card code in this message must be mine or public by now
            raw = encode_message(msg)
            assert decode_message(raw) == msg
            if not revealed:
                codes = _card_codes(st)
                assert codes <= (mine | public), (seat, type(msg).__name__, codes - mine - public)


def _card_codes(st: object) -> set[int]:
    out: set[int] = set()
    if hasattr(st, "openings"):
        out |= {o.card for o in st.openings}  # type: ignore[attr-defined]
    if hasattr(st, "opening"):
        out.add(st.opening.card)  # type: ignore[attr-defined]
    if isinstance(st, Play):
        out.add(st.card)
    return out


def test_client_view_matches_the_engine_view() -> None:
    host, clients, wire = setup(FOUR)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for _ in range(25):
        hand = hand_of(host)
        assert hand is not None
        for i, c in enumerate(clients):
            assert c.state.view == hand.view(i)
        seat = hand.current_player
        assert seat is not None
        wire.send_to_host(seat, clients[seat].play(clients[seat].state.view.legal_plays[-1]))
        wire.pump()


def test_ai_seats_play_inside_the_host() -> None:
    entropy = counter_entropy("ai")
    host = HostTable(
        FOUR,
        name="t",
        identity=Identity.generate(entropy(32)),
        ai_seats={1: "random", 2: "rules", 3: "random"},
        entropy=entropy,
    )
    client = ClientSession(Identity.generate(entropy(32)), "me", entropy=entropy)
    wire = Wire(host, [client])
    wire.deliver(host.connect(0))
    wire.send_to_host(0, client.hello())  # answered once the host's challenge arrives
    wire.pump()
    wire.send_to_host(0, client.take_seat(0) + client.ready() + client.start())
    wire.pump()
    play_out(wire, [cycle_chooser(0)])
    assert host.phase is Phase.OVER and host.internal_errors == []
    assert [c.status for c in client.state.checks] == ["verified"] * len(client.state.checks)
    assert verify_records(client.records).ok


def test_withheld_reveal_aborts_and_names_the_seat() -> None:
    def client_tap(conn: int, msg: m.Message) -> m.Message | None:
        return None if conn == 1 and isinstance(msg, m.RevealSeed) else msg

    host, clients, wire = setup(TWO)
    original = wire.send_to_host
    wire.send_to_host = lambda c, msgs: original(  # type: ignore[method-assign]
        c, [x for x in msgs if client_tap(c, x) is not None]
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase is Phase.REVEAL
    wire.deliver(host.tick(host.now + host.timeout + 1))
    wire.pump()
    rep = verify_records(host.records)
    assert rep.hands[0].status == "aborted" and rep.hands[0].fault.seat == 1  # type: ignore[union-attr]
    for c in clients:
        assert c.state.checks[0].fault.seat == 1  # type: ignore[union-attr]
        assert not c.state.match_aborted  # the hand counts for nothing: it is dealt again
    assert host.hand_number == 1 and host.phase is Phase.REVEAL  # the new seeds, all committed
    assert host.deal is not None and host.deal.dealer == 0  # by the same dealer


def test_drop_grace_takeover_then_resume_and_hand_back() -> None:
    opts = TableOptions.make(players=2, hands_to_win=2)
    host, clients, wire = setup(opts)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    # seat 1 drops in the middle of the first hand
    for _ in range(3):
        seat = hand_of(host).current_player  # type: ignore[union-attr]
        wire.send_to_host(seat, clients[seat].play(clients[seat].state.view.legal_plays[0]))
        wire.pump()
    wire.deliver(host.disconnect(1))
    wire.deliver(host.tick(host.now + 1))
    assert not host.seats[1].taken_over
    wire.deliver(host.tick(host.now + host.grace + 1))  # grace expires: an AI plays seat 1
    assert host.seats[1].taken_over
    wire.pump()
    # run until the second hand starts, with seat 1 played by the host's AI
    for _ in range(200):
        if host.hand_number >= 1 and host.phase is Phase.PLAY:
            break
        hand = hand_of(host)
        if hand is not None and hand.current_player == 0 and host.phase is Phase.PLAY:
            wire.send_to_host(0, clients[0].play(clients[0].state.view.legal_plays[0]))
        wire.deliver(host.tick(host.now + 1))
        wire.pump()
    assert host.hand_number == 1 and host.seats[1].taken_over
    # the player comes back with its token: the host replays its messages
    resumed = clients[1]
    wire.client_dec[1] = type(wire.client_dec[0])()
    wire.host_dec[1] = type(wire.host_dec[0])()
    wire.deliver(host.connect(1))
    wire.send_to_host(1, resumed.hello())
    wire.pump()
    assert resumed.state.seat == 1 and resumed.state.hand_number == 1
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    assert host.phase is Phase.OVER
    report = verify_records(host.records)
    assert report.ok
    assert verify_records(resumed.records).ok
    assert verify_records(clients[0].records).ok
    # the saved record says who played seat 1 from which play on: the host's AI, in hand 1
    assert report.takeovers[0][:3] == (0, 1, True)
    assert report.takeovers[0][3] == 3  # after the three plays made before the drop
    from briscola_lan.fairness.verify_cmd import human_report

    assert "from play 4: an AI played for seat 1" in human_report("f", report)


def test_snapshot_restore_continues_the_match() -> None:
    host, clients, wire = setup(TWO)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for _ in range(5):
        seat = hand_of(host).current_player  # type: ignore[union-attr]
        wire.send_to_host(seat, clients[seat].play(clients[seat].state.view.legal_plays[0]))
        wire.pump()
    data = host.snapshot()
    restored = HostTable.restore(data, identity=host.identity, entropy=counter_entropy("r"))
    assert restored.records == host.records and restored.phase is Phase.PLAY
    with pytest.raises(ValueError):
        HostTable.restore(data, identity=Identity.generate(bytes(32)))
    with pytest.raises(ValueError):
        HostTable.restore(b"garbage", identity=host.identity)
    # every client reconnects to the restored host with its resume token
    wire2 = Wire(restored, clients)
    for i, c in enumerate(clients):
        wire2.deliver(restored.connect(i))
        wire2.send_to_host(i, c.hello())
        wire2.pump()
    play_out(wire2, [cycle_chooser(0), cycle_chooser(1)])
    assert restored.phase is Phase.OVER
    assert verify_records(restored.records).ok
    for c in clients:
        assert verify_records(c.records).ok


def test_info_for_discovery() -> None:
    host = HostTable(
        FOUR, name="Tavolo", identity=Identity.generate(bytes(32)), ai_seats={3: "rules"}
    )
    info = host.info()
    assert info.name == "Tavolo" and info.free_seats == (0, 1, 2) and info.seated == 1
    assert info.rules == FOUR.summary() and len(info.host_fingerprint) == 19
    assert dataclasses.asdict(info)["phase"] == "lobby"
    assert Card.from_code(0) is not None


def test_first_tick_rebases_times_onto_the_callers_clock() -> None:
    """A table started (or restored) before its first tick does not see its deadlines as past."""
    host, clients, wire = setup(TWO)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.phase is Phase.PLAY
    data = host.snapshot()
    wire.deliver(host.tick(1_000_000.0))  # a monotonic clock far from 0
    assert host.phase is Phase.PLAY
    restored = HostTable.restore(data, identity=host.identity)
    restored.tick(5.0)  # the new process's clock may be smaller
    restored.tick(5.0 + restored.grace - 1)
    assert not any(s.taken_over for s in restored.seats)
    restored.tick(5.0 + restored.grace + 1)  # nobody came back within the grace period
    assert all(s.taken_over for s in restored.seats)


def test_a_host_gone_mid_hand_leaves_the_hand_waiting_for_it_not_failed() -> None:
    """A lost connection proves nothing against the host (it may come back and go on): the
    hand stays in progress, and a record that ends there is incomplete, nobody's fault."""
    _host, clients, wire = setup(TWO)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    clients[1].connection_lost()
    check = clients[1].state.checks[0]
    assert check.status == "in progress" and check.fault is None
    assert verify_records(clients[1].records).verdict == "incomplete"
    assert clients[1].state.phase == "disconnected"
    assert clients[0].state.checks[0].status == "in progress"


def test_snapshot_is_a_versioned_msgpack_file_and_bad_files_are_refused(tmp_path: Path) -> None:
    import pickle

    import msgpack

    from briscola_lan.table.host import SnapshotError

    host, clients, wire = setup(TWO)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    data = host.snapshot()
    obj = msgpack.unpackb(data)
    assert obj["format"] == "briscola-lan-host-state" and obj["version"] == 5
    # a broadcast is stored once, however many seats' logs name it
    logs = [seat["log"] for seat in obj["state"]["seats"]]
    assert set(logs[0]) & set(logs[1]) and len(obj["state"]["messages"]) < sum(map(len, logs))
    assert sorted(set(logs[0]) | set(logs[1])) == list(range(len(obj["state"]["messages"])))
    # the round trip keeps the whole state (connections count as dropped after a restore)
    again = HostTable.restore(data, identity=host.identity)

    def comparable(state: dict[str, object]) -> dict[str, object]:
        seats = [
            {k: v for k, v in seat.items() if k not in ("connected", "dropped_at")}
            for seat in state["seats"]  # type: ignore[attr-defined]
        ]
        return {**state, "seats": seats}

    after = msgpack.unpackb(again.snapshot())["state"]
    assert comparable(after) == comparable(obj["state"])
    assert all(not seat["connected"] for seat in after["seats"])
    assert hand_of(again) is not None and hand_of(host) is not None
    assert hand_of(again).deck == hand_of(host).deck and classic(again).salts == classic(host).salts

    class Boom:
        def __reduce__(self) -> tuple[object, tuple[str]]:
            return (open, (str(tmp_path / "pwned"),))

    evil = pickle.dumps({"version": 1, "state": Boom()})
    cases = {
        "garbage": b"garbage",
        "pickle": evil,
        "empty": b"",
        "truncated": data[: len(data) // 2],
        "foreign msgpack": msgpack.packb({"format": "something-else", "version": 2}),
        "future version": msgpack.packb({**obj, "version": 6}),
        "earlier version": msgpack.packb({**obj, "version": 4}),
        "a log naming no message": msgpack.packb(
            {
                **obj,
                "state": {
                    **obj["state"],
                    "seats": [
                        {**obj["state"]["seats"][0], "log": [len(obj["state"]["messages"])]},
                        obj["state"]["seats"][1],
                    ],
                },
            }
        ),
        "wrong type": msgpack.packb({**obj, "state": {**obj["state"], "phase": 7}}),
        "missing field": msgpack.packb(
            {**obj, "state": {k: v for k, v in obj["state"].items() if k != "deal"}}
        ),
        "edited record": msgpack.packb(
            {
                **obj,
                "state": {
                    **obj["state"],
                    "records": [[b"\x00" * 8, b"x"], *obj["state"]["records"][1:]],
                },
            }
        ),
        "records out of chain": msgpack.packb(
            {
                **obj,
                "state": {**obj["state"], "records": obj["state"]["records"][::-1]},
            }
        ),
        "impossible play": msgpack.packb(
            {
                **obj,
                "state": {
                    **obj["state"],
                    "deal": {
                        **obj["state"]["deal"],
                        "hand": {**obj["state"]["deal"]["hand"], "plays": [99]},
                    },
                },
            }
        ),
    }
    for what, bad in cases.items():
        with pytest.raises(SnapshotError) as info:
            HostTable.restore(bad, identity=host.identity)
        assert str(info.value), what
    assert not (tmp_path / "pwned").exists()  # nothing was executed
    with pytest.raises(SnapshotError, match="another host identity"):
        HostTable.restore(data, identity=Identity.generate(bytes(32)))
    # a corrupt file on disk gives the same clear error
    path = tmp_path / "table.state"
    path.write_bytes(data[:-3])
    with pytest.raises(SnapshotError, match="snapshot"):
        HostTable.restore(path.read_bytes(), identity=host.identity)


def test_snapshot_during_the_draw_and_after_the_reseating() -> None:
    four = TableOptions.make(players=4, hands_to_win=1)
    host, clients, wire = seat_clients(
        four, entropy=counter_entropy("snapdraw"), draw_partners=True, draw_dealer=True
    )
    original = wire.send_to_host
    held: list[tuple[int, list[m.Message]]] = []

    def send(conn: int, msgs: list[m.Message]) -> None:
        keep = [x for x in msgs if not isinstance(x, m.RevealSeed)]
        if len(keep) != len(msgs):
            held.append((conn, [x for x in msgs if isinstance(x, m.RevealSeed)]))
        original(conn, keep)

    wire.send_to_host = send  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert host.drawing and host.phase is Phase.REVEAL and len(held) == 4
    restored = HostTable.restore(host.snapshot(), identity=host.identity)
    assert restored.drawing and restored.draw_partners and restored.draw_dealer
    wire2 = Wire(restored, clients)
    for i, c in enumerate(clients):
        wire2.deliver(restored.connect(i))
        wire2.send_to_host(i, c.hello())
        wire2.pump()
    for conn, msgs in held:
        wire2.send_to_host(conn, msgs)
    wire2.pump()
    assert not restored.drawing and restored.phase is Phase.PLAY
    mid = HostTable.restore(restored.snapshot(), identity=host.identity)
    assert [s.key for s in mid.seats] == [s.key for s in restored.seats]
    play_out(wire2, [cycle_chooser(i) for i in range(4)])
    assert restored.phase is Phase.OVER
    rep = verify_records(restored.records)
    assert rep.ok and rep.draw is not None and rep.draw.verified
    for c in clients:
        assert verify_records(c.records).ok
