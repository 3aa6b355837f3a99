"""The live client checks per-card signatures at the end of the hand: still caught, same blame."""

from __future__ import annotations

from collections.abc import Callable

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.statements import Play, decode
from briscola_lan.fairness.verify import HOST, TranscriptChecker, Violation
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.selfplay import play_out
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Message
from tests.table.helpers import cycle_chooser, run_match, setup

FOUR = TableOptions.make(players=4, hands_to_win=1)
TWO = TableOptions.make(players=2, hands_to_win=1)


def _flip(b: bytes, i: int = 10) -> bytes:
    return b[:i] + bytes([b[i] ^ 1]) + b[i + 1 :]


def _forge_play(
    victim: int, play_index: int, salt_too: int | None = None
) -> Callable[[int, Message], Message]:
    """A tap that breaks the signature of play ``play_index`` as sent to ``victim`` (and, if
    ``salt_too`` is given, the opening of that later play)."""

    def tap(conn: int, msg: Message) -> Message:
        if conn == victim and isinstance(msg, m.CardPlayed):
            st = decode(msg.body)
            assert isinstance(st, Play)
            if st.hand == 0 and st.index == play_index:
                return m.CardPlayed(msg.body, _flip(msg.sig), msg.position, msg.salt)
            if st.hand == 0 and st.index == salt_too:
                return m.CardPlayed(msg.body, msg.sig, msg.position, _flip(msg.salt, 0))
        return msg

    return tap


def _record_of_play(client: ClientSession, play_index: int) -> int:
    for i, (body, _sig) in enumerate(client.records):
        st = decode(body)
        if isinstance(st, Play) and st.hand == 0 and st.index == play_index:
            return i
    raise AssertionError("play not found")


def test_forged_play_signature_mid_hand_is_caught_before_the_ack() -> None:
    _host, clients, wire = setup(FOUR)
    wire.tap = _forge_play(2, 13)
    status_at_ack: dict[int, str] = {}
    original = wire.send_to_host

    def send(conn: int, msgs: list[Message]) -> None:
        for msg in msgs:
            if isinstance(msg, m.AckHand) and decode(msg.body).hand == 0:  # type: ignore[attr-defined]
                status_at_ack[conn] = clients[conn].state.checks[0].status
        original(conn, msgs)

    wire.send_to_host = send  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(i) for i in range(4)])
    victim = clients[2]
    check = victim.state.checks[0]
    index = _record_of_play(victim, 13)
    assert check.status == "failed"
    assert check.fault is not None
    assert (check.fault.index, check.fault.kind, check.fault.seat) == (index, "play", HOST)
    assert "signature" in check.fault.reason
    # the batch check ran before the victim acknowledged: its ack went out already failed
    assert status_at_ack == {0: "verified", 1: "verified", 2: "failed", 3: "verified"}
    for other in (0, 1, 3):
        assert clients[other].state.checks[0].status == "verified"
    offline = verify_records(victim.records).fault  # the offline verifier checks at once
    assert offline is not None and (offline.index, offline.seat) == (index, HOST)
    assert offline.reason == check.fault.reason


def test_forged_signature_is_pending_until_the_end_of_the_hand() -> None:
    seen: list[tuple[str, int]] = []
    box: dict[str, list[ClientSession]] = {}
    forge = _forge_play(1, 3)

    def tap(conn: int, msg: Message) -> Message:
        out = forge(conn, msg)
        if conn == 1 and isinstance(msg, m.CardPlayed) and "c" in box:
            st = decode(msg.body)
            if st.index == 5:  # type: ignore[attr-defined]
                c = box["c"][1]
                seen.append((c.state.checks[0].status, c._checker.pending_signatures))
        return out

    _host, clients, wire = setup(TWO)
    box["c"] = clients
    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    # just before play 5 reached seat 1, the forged play 3 was queued, not yet blamed
    assert seen and seen[0][0] == "in progress" and seen[0][1] > 0
    fault = clients[1].state.checks[0].fault
    assert fault is not None and fault.index == _record_of_play(clients[1], 3)
    assert fault.seat == HOST


def test_structural_fault_after_a_forged_signature_reports_the_forgery_first() -> None:
    _, clients, _ = run_match(FOUR, tap=_forge_play(0, 6, salt_too=9))
    fault = clients[0].state.checks[0].fault
    assert fault is not None
    assert fault.index == _record_of_play(clients[0], 6)
    assert "signature" in fault.reason and fault.seat == HOST
    offline = verify_records(clients[0].records).fault
    assert offline is not None and offline.index == fault.index


def test_a_wrong_play_opening_alone_is_a_live_finding_at_once() -> None:
    box: dict[str, list[ClientSession]] = {}
    seen: list[tuple[str, str | None]] = []
    forge = _forge_play(0, 99, salt_too=4)

    def tap(conn: int, msg: Message) -> Message:
        out = forge(conn, msg)
        if conn == 0 and isinstance(msg, m.CardPlayed) and decode(msg.body).index == 5:  # type: ignore[attr-defined]
            check = box["c"][0].state.checks[0]
            seen.append((check.status, check.live.reason if check.live else None))
        return out

    _host, clients, wire = setup(FOUR)
    box["c"] = clients
    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(i) for i in range(4)])
    # the bad opening of play 4 was told before play 5 came, beside a verdict still in progress
    assert len(seen) == 1 and seen[0][0] == "in progress"
    assert seen[0][1] is not None and "opening" in seen[0][1]
    check = clients[0].state.checks[0]
    assert check.live is not None and check.live.index == _record_of_play(clients[0], 4)
    assert check.live.seat == HOST
    # the opening is in no record: the file verifies, and so says the client
    assert check.status == "verified" and check.fault is None
    assert verify_records(clients[0].records).hands[0].status == "verified"


def test_deferred_and_immediate_checkers_agree_on_every_forged_record() -> None:
    _, clients, _ = run_match(TWO)
    records = clients[0].records
    for i in range(len(records)):
        body, sig = records[i]
        forged = [*records[:i], (body, _flip(sig)), *records[i + 1 :]]
        verdicts = []
        for defer in (False, True):
            checker = TranscriptChecker(defer_signatures=defer)
            for rec in forged:
                try:
                    checker.add(*rec)
                except Violation:
                    break
            rep = checker.finish()
            verdicts.append((rep.fault, [(h.status, h.fault) for h in rep.hands]))
        assert verdicts[0] == verdicts[1], i
        assert verdicts[0][0] is not None and verdicts[0][0].index == i


def test_finish_checks_signatures_still_queued() -> None:
    _, clients, _ = run_match(TWO)
    records = list(clients[0].records)
    cut = _record_of_play(clients[0], 7) + 1
    body, sig = records[cut - 1]
    checker = TranscriptChecker(defer_signatures=True)
    for rec in [*records[: cut - 1], (body, _flip(sig))]:
        checker.add(*rec)
    assert checker.pending_signatures > 0
    rep = checker.finish()
    assert rep.fault is not None and rep.fault.index == cut - 1 and rep.fault.seat == HOST
    assert rep.hands[-1].status == "failed"
