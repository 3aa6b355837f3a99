"""A live client's verdict is its file's: over honest and tampered matches, a client never says
"failed" for a hand (or the draw) whose saved file verifies, nor the reverse, and it names the
same record and party. What only a live client can see (a play's opening, the announced trick and
match winners, cards sent to the wrong seat) is a live finding, shown apart (fairness.md §8.10).
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
from collections.abc import Callable
from typing import Any

import pytest

from briscola_lan.fairness.statements import Deal, HostReveal, Play, decode
from briscola_lan.fairness.verify import (
    HOST,
    Fault,
    MatchReport,
    TranscriptChecker,
    Violation,
)
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.table.client import ClientSession, HandCheck
from briscola_lan.table.selfplay import play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Message

from .helpers import counter_entropy, cycle_chooser, run_match
from .test_host_deviations import Deviation

TWO = TableOptions.make(players=2, hands_to_win=2)
FOUR = TableOptions.make(players=4, hands_to_win=1)
THREE = TableOptions.make(players=3, match_format=MatchFormat.POINTS)

Tap = Callable[[int, Message], Message | None]


def _flip(b: bytes, i: int = 0) -> bytes:
    return b[:i] + bytes([b[i] ^ 1]) + b[i + 1 :]


Verdict = tuple[str, Fault | None]


def _verdict(rep: MatchReport, hand: int) -> Verdict:
    """A hand's status and fault in a report; a hand the file never reaches (the verifier
    stopped at an earlier fault) is failed with that fault."""
    for h in rep.hands:
        if h.hand == hand:
            return h.status, h.fault
    return ("failed", rep.fault) if rep.fault is not None else ("incomplete", None)


def _agree(check: HandCheck, file: Verdict) -> bool:
    status, fault = file
    if check.status == "in progress":
        return status != "verified"
    if check.status == "verified":
        return status in ("verified", "unacknowledged")
    return (check.status, check.fault) == (status, fault)


def assert_same_verdicts(client: ClientSession) -> MatchReport:
    """The client's verdict on each hand and on the draw is its file's, fault for fault.

    The file is judged as the verifier judges it, or as it stood before it was closed: closing a
    file judges what it lacks (an acknowledgement the host took but has not relayed yet, say),
    which a live client, whose match goes on, is still waiting for."""
    checker = TranscriptChecker()
    for body, sig in client.records:
        try:
            checker.add(body, sig)
        except Violation:
            break
    hands = [c.hand for c in client.state.checks]
    before = {n: _verdict(checker.report, n) for n in hands}
    rep = checker.finish()
    for check in client.state.checks:
        closed = _verdict(rep, check.hand)
        assert _agree(check, closed) or _agree(check, before[check.hand]), (check, closed)
    d, dr = client.state.draw, rep.draw
    if d is not None and dr is not None and d.status != "in progress":
        assert (d.status == "failed") == (dr.status == "failed"), (d, dr)
        assert (d.status == "verified") == (dr.status == "verified"), (d, dr)
    return rep


@pytest.mark.parametrize(
    ("options", "deal", "drawn"),
    [
        (TWO, "classic", False),
        (THREE, "classic", True),
        (FOUR, "classic", True),
        (TWO, "blind", False),
        (FOUR, "blind", True),
    ],
)
def test_honest_matches_verify_live_and_on_file(
    options: TableOptions, deal: str, drawn: bool
) -> None:
    _host, clients, wire = seat_clients(
        options,
        entropy=counter_entropy(f"honest-{deal}-{options.players}"),
        deal=deal,
        draw_partners=drawn and options.players == 4,
        draw_dealer=drawn,
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(i) for i in range(len(clients))])
    for c in clients:
        rep = assert_same_verdicts(c)
        assert rep.verdict == "verified"
        assert all(check.status == "verified" and check.live is None for check in c.state.checks)


def _edit_played(edit: Callable[[m.CardPlayed], m.CardPlayed], victim: int = 0) -> Tap:
    def tap(conn: int, msg: Message) -> Message:
        if conn == victim and isinstance(msg, m.CardPlayed):
            return edit(msg)
        return msg

    return tap


def _salt(msg: m.CardPlayed) -> m.CardPlayed:
    return m.CardPlayed(msg.body, msg.sig, msg.position, _flip(msg.salt))


def _position(msg: m.CardPlayed) -> m.CardPlayed:
    return m.CardPlayed(msg.body, msg.sig, (msg.position + 1) % 40, msg.salt)


def _trick_winner(conn: int, msg: Message) -> Message:
    if conn == 0 and isinstance(msg, m.TrickTaken):
        return dataclasses.replace(msg, winner=(msg.winner + 1) % 2)
    return msg


def _match_winner(conn: int, msg: Message) -> Message:
    if conn == 0 and isinstance(msg, m.MatchEnded) and msg.winner is not None:
        return dataclasses.replace(msg, winner=1 - msg.winner)
    return msg


# (name, tap): the host misleads seat 0 on something only a live client sees; its file verifies.
LIVE_ONLY: list[tuple[str, Tap]] = [
    ("play opening's salt", _edit_played(_salt)),
    ("play opening's position", _edit_played(_position)),
    ("announced trick winner", _trick_winner),
    ("announced match winner", _match_winner),
]


@pytest.mark.parametrize(("name", "tap"), LIVE_ONLY, ids=[n for n, _ in LIVE_ONLY])
def test_what_only_a_live_client_sees_is_told_apart_from_a_verified_file(
    name: str, tap: Tap
) -> None:
    _host, clients, _wire = run_match(TWO, tap=tap, label=name)
    victim = clients[0]
    rep = assert_same_verdicts(victim)
    assert rep.verdict == "verified", name
    assert [c.status for c in victim.state.checks] == ["verified"] * len(victim.state.checks)
    live = [c.live for c in victim.state.checks if c.live is not None]
    assert live and all(f.seat == HOST for f in live), name
    assert any("live check failed" in line for line in victim.state.log)
    assert all(c.live is None for c in clients[1].state.checks)


def _signed_by_host(box: dict[str, Any], st: Any) -> tuple[bytes, bytes]:
    body = st.encode()
    return body, box["host"].identity.sign(body)


def _file_taps(box: dict[str, Any]) -> list[tuple[str, Tap]]:
    """The host misleads seat 0 in a way its file shows (and often live too)."""

    def deal_salt(conn: int, msg: Message) -> Message:
        if conn == 0 and isinstance(msg, m.CardsDealt):
            st = decode(msg.body)
            assert isinstance(st, Deal)
            o = st.openings[0]
            bad = dataclasses.replace(
                st, openings=(dataclasses.replace(o, salt=_flip(o.salt)), *st.openings[1:])
            )
            return m.CardsDealt(*_signed_by_host(box, bad))
        return msg

    def host_seed(conn: int, msg: Message) -> Message:
        if conn == 0 and isinstance(msg, m.HandEnded):
            st = decode(msg.body)
            if isinstance(st, HostReveal):
                bad = dataclasses.replace(st, host_seed=_flip(st.host_seed))
                return m.HandEnded(*_signed_by_host(box, bad))
        return msg

    def play_signature_and_salt(conn: int, msg: Message) -> Message:
        if conn == 0 and isinstance(msg, m.CardPlayed):
            st = decode(msg.body)
            assert isinstance(st, Play)
            if st.index == 3:
                return m.CardPlayed(msg.body, _flip(msg.sig, 9), msg.position, _flip(msg.salt))
        return msg

    def other_seats_deal(conn: int, msg: Message) -> Message | None:
        return msg  # replaced by the wire below: seat 1's first deal goes to seat 0 as well

    return [
        ("deal opening", deal_salt),
        ("host seed", host_seed),
        ("play signature, then its salt", play_signature_and_salt),
        ("other seat's deal", other_seats_deal),
    ]


@pytest.mark.parametrize("case", range(4))
def test_what_the_file_shows_is_the_live_verdict(case: int) -> None:
    box: dict[str, Any] = {}
    name, tap = _file_taps(box)[case]
    host, clients, wire = seat_clients(TWO, entropy=counter_entropy(name), deal="classic")
    box["host"] = host
    wire.tap = tap
    if name == "other seat's deal":
        deliver, sent = wire.deliver, [False]

        def doubled(outs: list[Any]) -> None:
            for o in outs:
                deliver([o])
                if o.conn == 1 and isinstance(o.message, m.CardsDealt) and not sent[0]:
                    sent[0] = True
                    deliver([type(o)(0, o.message, o.close)])

        wire.deliver = doubled  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    with contextlib.suppress(RuntimeError):  # a seat that caught the host may stop answering
        play_out(wire, [cycle_chooser(i) for i in range(2)], max_idle=60)
    rep = assert_same_verdicts(clients[0])
    assert rep.verdict == "failed", name
    assert clients[0].state.checks[0].status == "failed"
    assert_same_verdicts(clients[1])


@pytest.mark.parametrize("seed", range(30))
def test_one_host_deviation_never_splits_the_live_verdict_from_the_file(seed: int) -> None:
    rng = random.Random(f"live-{seed}")
    players = rng.choice([2, 3, 4])
    fmt = MatchFormat.POINTS if players == 3 else MatchFormat.HANDS
    opts = TableOptions.make(players=players, match_format=fmt, hands_to_win=1)
    deal = rng.choice(["blind", "classic"])
    host, clients, wire = seat_clients(
        opts, entropy=counter_entropy(f"live-deviation-{seed}"), name="t", deal=deal
    )
    dev = Deviation(Deviation.KINDS[seed % 3], rng, rng.randrange(len(clients)), [host.identity])
    deliver = wire.deliver

    def tapped(outs: list[Any]) -> None:
        for o in outs:
            got = dev(o.conn, o.message)
            msgs = got if isinstance(got, list) else [] if got is None else [got]
            for msg in msgs:
                deliver([type(o)(o.conn, msg, o.close)])

    wire.deliver = tapped  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    with contextlib.suppress(RuntimeError):
        play_out(wire, [cycle_chooser(i) for i in range(len(clients))], max_idle=400)
    for c in clients:
        assert_same_verdicts(c)
