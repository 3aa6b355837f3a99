"""Live tampering by a dishonest host or player: each is detected and blamed on the right party."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.statements import (
    Ack,
    Deal,
    Exchange,
    HostReveal,
    MatchStart,
    Opening,
    Play,
    SeedReveal,
    decode,
)
from briscola_lan.fairness.verify import HOST
from briscola_lan.rules import TableOptions
from briscola_lan.table import deal_classic as classic_module
from briscola_lan.table import host as host_module
from briscola_lan.table.client import ClientSession
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Message
from tests.table.helpers import aborts, classic, hand_of, run_match, setup

TWO = TableOptions.make(players=2, hands_to_win=1)
FOUR = TableOptions.make(players=4, hands_to_win=1)


def _flip(b: bytes, i: int = 0) -> bytes:
    return b[:i] + bytes([b[i] ^ 1]) + b[i + 1 :]


def _failed_on_host(clients: list[ClientSession], seats: list[int] | None = None) -> None:
    for i in seats if seats is not None else range(len(clients)):
        check = clients[i].state.checks[0]
        assert check.status == "failed", (i, check)
        assert check.fault is not None and check.fault.seat == HOST, check.fault


class HostSigner:
    """Re-signs edited host statements with the (dishonest) host's own key."""

    def __init__(self) -> None:
        self.key = None

    def resign(self, host: host_module.HostTable, st: object) -> tuple[bytes, bytes]:
        body = st.encode()  # type: ignore[attr-defined]
        return body, host.identity.sign(body)


def test_changed_host_seed_is_blamed_on_host() -> None:
    box: dict[str, host_module.HostTable] = {}

    def tap(conn: int, msg: Message) -> Message:
        if isinstance(msg, m.HandEnded):
            st = decode(msg.body)
            assert isinstance(st, HostReveal)
            bad = dataclasses.replace(st, host_seed=_flip(st.host_seed))
            body = bad.encode()
            return m.HandEnded(body, box["h"].identity.sign(body))
        return msg

    host, clients, wire = setup(TWO)
    box["h"] = host
    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    from briscola_lan.table.selfplay import play_out
    from tests.table.helpers import cycle_chooser

    wire.pump()
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    _failed_on_host(clients)
    assert "host seed" in clients[0].state.checks[0].fault.reason  # type: ignore[union-attr]
    assert verify_records(clients[1].records).fault.seat == HOST  # type: ignore[union-attr]


def test_changed_player_seed_aborts_and_blames_that_seat() -> None:
    def client_tap(conn: int, msg: Message) -> Message:
        if conn == 1 and isinstance(msg, m.RevealSeed):
            st = decode(msg.body)
            assert isinstance(st, SeedReveal)
            bad = dataclasses.replace(st, seed=_flip(st.seed, 5))
            body = bad.encode()
            return m.RevealSeed(body, clients_box[1].identity.sign(body))
        return msg

    clients_box: list[ClientSession] = []
    host, clients, wire = setup(TWO)
    clients_box.extend(clients)
    original = wire.send_to_host
    wire.send_to_host = lambda c, msgs: original(  # type: ignore[method-assign]
        c, [client_tap(c, x) for x in msgs]
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert aborts(host.records)[0] == (0, 1)
    report = verify_records(host.records)
    assert report.hands[0].status == "aborted"
    assert report.hands[0].fault is not None and report.hands[0].fault.seat == 1
    for c in clients:
        assert c.state.checks[0].status == "aborted"
        assert c.state.checks[0].fault.seat == 1  # type: ignore[union-attr]
        assert not c.state.match_aborted  # the hand counts for nothing: it is dealt again


def _resign_deal(host: host_module.HostTable, msg: m.CardsDealt, edit) -> m.CardsDealt:  # type: ignore[no-untyped-def]
    st = decode(msg.body)
    assert isinstance(st, Deal)
    bad = dataclasses.replace(st, openings=edit(st.openings))
    body = bad.encode()
    return m.CardsDealt(body, host.identity.sign(body))


@pytest.mark.parametrize("what", ["salt", "card", "position", "other_game"])
def test_bad_dealt_opening_detected_at_once(what: str) -> None:
    box: dict[str, object] = {}
    other_game_opening: list[Opening] = []

    def edit(openings: tuple[Opening, ...]) -> tuple[Opening, ...]:
        o = openings[0]
        if what == "salt":
            o = dataclasses.replace(o, salt=_flip(o.salt))
        elif what == "card":
            o = dataclasses.replace(o, card=(o.card + 1) % 40)
        elif what == "position":  # the opening of another position, relabelled
            o = dataclasses.replace(openings[1], position=o.position)
        else:  # replayed from another game with the same position
            o = dataclasses.replace(other_game_opening[0], position=o.position)
        return (o, *openings[1:])

    # an honest game first, to have an opening from another game to replay
    h0, _, _ = run_match(TWO, label="other")
    for body, _sig in h0.records:
        st = decode(body)
        if isinstance(st, Deal):
            other_game_opening.append(st.openings[0])

    tampered: list[int] = []

    def tap(conn: int, msg: Message) -> Message:
        if conn == 1 and isinstance(msg, m.CardsDealt) and not tampered:
            tampered.append(1)
            return _resign_deal(box["h"], msg, edit)  # type: ignore[arg-type]
        return msg

    host, clients, wire = setup(TWO)
    box["h"] = host
    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    check = clients[1].state.checks[0]
    assert check.status == "failed" and check.fault is not None and check.fault.seat == HOST
    assert check.fault.kind == "deal"
    assert clients[0].state.checks[0].status == "in progress"  # seat 0 saw nothing wrong yet


def test_deal_to_the_wrong_seat_breaks_the_schedule() -> None:
    box: dict[str, host_module.HostTable] = {}

    def tap(conn: int, msg: Message) -> Message:
        if conn == 1 and isinstance(msg, m.CardsDealt):
            st = decode(msg.body)
            assert isinstance(st, Deal)
            # seat 0's real deal, addressed to seat 1 and re-signed
            other = next(s for s in box["deals"] if s.seat == 0)  # type: ignore[attr-defined]
            bad = dataclasses.replace(other, seat=1)
            body = bad.encode()
            return m.CardsDealt(body, box["h"].identity.sign(body))  # type: ignore[attr-defined]
        if conn == 0 and isinstance(msg, m.CardsDealt):
            box.setdefault("deals", []).append(decode(msg.body))  # type: ignore[attr-defined]
        return msg

    host, clients, wire = setup(TWO)
    box["h"] = host
    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    check = clients[1].state.checks[0]
    assert check.fault is not None and check.fault.seat == HOST
    assert "schedule" in check.fault.reason


def _first_play(wire, clients, host) -> None:  # type: ignore[no-untyped-def]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    seat = hand_of(host).current_player
    view = clients[seat].state.view
    wire.send_to_host(seat, clients[seat].play(view.legal_plays[0]))
    wire.pump()


def test_changed_played_card_fails_the_players_signature() -> None:
    def tap(conn: int, msg: Message) -> Message:
        if conn == 1 and isinstance(msg, m.CardPlayed):
            st = decode(msg.body)
            assert isinstance(st, Play)
            body = dataclasses.replace(st, card=(st.card + 1) % 40).encode()
            return m.CardPlayed(body, msg.sig, msg.position, msg.salt)
        return msg

    host, clients, wire = setup(TWO)
    wire.tap = tap
    _first_play(wire, clients, host)
    _failed_on_host(clients, [1])
    assert "signature" in clients[1].state.checks[0].fault.reason  # type: ignore[union-attr]
    assert clients[0].state.checks[0].status == "in progress"


def test_changed_opening_of_played_card_is_a_live_finding() -> None:
    def tap(conn: int, msg: Message) -> Message:
        if conn == 0 and isinstance(msg, m.CardPlayed):
            return m.CardPlayed(msg.body, msg.sig, msg.position, _flip(msg.salt))
        return msg

    host, clients, wire = setup(TWO)
    wire.tap = tap
    _first_play(wire, clients, host)
    # a live finding (the opening is in no record), shown apart from the file's verdict
    live = clients[0].state.checks[0].live
    assert live is not None and live.seat == HOST and "opening" in live.reason
    assert [c.state.checks[0].status for c in clients] == ["in progress", "in progress"]
    assert clients[1].state.checks[0].live is None


def test_changed_signature_is_blamed_on_host() -> None:
    def tap(conn: int, msg: Message) -> Message:
        if isinstance(msg, m.HandStarted):
            return m.HandStarted(msg.body, _flip(msg.sig, 10))
        return msg

    _, clients, _ = run_match(TWO, tap=tap)
    _failed_on_host(clients)


def test_swapped_cards_in_committed_deck(monkeypatch: pytest.MonkeyPatch) -> None:
    real = classic_module.deal_deck

    def swapped(options, seed):  # type: ignore[no-untyped-def]
        deck = list(real(options, seed))
        deck[0], deck[20] = deck[20], deck[0]
        return tuple(deck)

    monkeypatch.setattr(classic_module, "deal_deck", swapped)
    host, clients, _ = run_match(TWO)
    _failed_on_host(clients)
    fault = clients[0].state.checks[0].fault
    assert fault is not None and fault.kind == "deck-commit" and "position 0" in fault.reason
    rep = verify_records(host.records)
    assert rep.fault is not None and rep.fault.seat == HOST


def test_dropped_message_detected() -> None:
    dropped: list[int] = []

    def tap(conn: int, msg: Message) -> Message | None:
        if conn == 1 and isinstance(msg, m.CardPlayed) and not dropped:
            dropped.append(1)
            return None
        return msg

    host, clients, wire = setup(TWO)
    wire.tap = tap
    _first_play(wire, clients, host)
    assert clients[1].state.checks[0].status == "in progress"  # it cannot know yet
    hand = hand_of(host)
    seat = hand.current_player
    st = Play(host.game_id, 0, seat, host.context_for(Play.KIND), 1, hand.hands[seat][0].code)
    body = st.encode()
    wire.send_to_host(seat, [m.PlayCard(body, clients[seat].identity.sign(body))])
    wire.pump()
    check = clients[1].state.checks[0]
    assert check.fault is not None and check.fault.seat == HOST
    # The play made after the one withheld names a history this file does not have.
    assert check.fault.kind == "play" and "withheld a record" in check.fault.reason


def test_wrong_key_move_is_refused() -> None:
    host, clients, wire = setup(TWO)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    hand = hand_of(host)
    assert hand is not None
    seat = hand.current_player
    assert seat is not None
    other = clients[1 - seat]
    card = hand.hands[seat][0]
    st = Play(host.game_id, 0, seat, host.context_for(Play.KIND), 0, card.code)
    body = st.encode()
    before = len(host.records)
    out = host.receive(seat, m.PlayCard(body, other.identity.sign(body)))
    assert [type(o.message) for o in out] == [m.Error]
    assert out[0].message.code == "bad_signature"  # type: ignore[union-attr]
    assert len(host.records) == before and len(hand.plays) == 0


def _another_match_start(
    box: dict[str, host_module.HostTable],
) -> Callable[[int, Message], Message]:
    """A host that shows seat 0 another match-start (same game, another table name)."""

    def tap(conn: int, msg: Message) -> Message:
        if conn == 0 and isinstance(msg, m.MatchStarted):
            st = decode(msg.body)
            assert isinstance(st, MatchStart)
            body = dataclasses.replace(st, table_name="a different story").encode()
            return m.MatchStarted(body, box["h"].identity.sign(body))
        return msg

    return tap


def test_equivocation_is_caught_at_the_first_statement_made_over_the_other_past(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The host shows seat 0 another match-start and relays every statement unchecked: each
    seat's client catches it at the first statement of the other seat, made over the other
    past (its context), and blames the host; neither seat is blamed in any file."""
    box: dict[str, host_module.HostTable] = {}
    monkeypatch.setattr(host_module.HostTable, "check_context", lambda self, st: None)
    host, clients, wire = setup(TWO)
    box["h"] = host
    wire.tap = _another_match_start(box)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for c in clients:
        check = c.state.checks[0]
        assert check.fault is not None and check.fault.seat == HOST
        assert check.fault.kind == "seed-commit" and "another history" in check.fault.reason
    # Seat 0's file holds seat 1's commitment, made over the true match-start; seat 1's holds
    # seat 0's, made over the other one: each file fails there, the host at fault.
    for c in clients:
        rep = verify_records(c.records)
        assert rep.verdict == "failed" and rep.blame is not None and rep.blame.party == "host"


def test_equivocation_refused_by_the_host_ends_as_a_drop_never_a_blame() -> None:
    """The same host, with its own context check on: it refuses seat 0's statements (made over
    the other past) and the hand times out. That is a drop: no file blames seat 0 alone."""
    box: dict[str, host_module.HostTable] = {}
    host, clients, wire = setup(TWO)
    box["h"] = host
    wire.tap = _another_match_start(box)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert any(e.code == ErrorCode.STALE_CONTEXT for e in clients[0].state.errors)
    wire.deliver(host.tick(host.now + host.timeout + 1))
    wire.pump()
    for records in (host.records, *(c.records for c in clients)):
        blame = verify_records(records).blame
        assert blame is not None and blame.party == "host or seat 0"


def test_relayed_ack_of_another_history_is_the_hosts_fault() -> None:
    """If a host relays an acknowledgement of a different hash, every client blames the host."""
    box: dict[str, host_module.HostTable] = {}

    def tap(conn: int, msg: Message) -> Message:
        if isinstance(msg, m.HandAcked):
            body, _ = msg.records[0]
            st = decode(body)
            assert isinstance(st, Ack)
            bad = dataclasses.replace(st, chain_hash=bytes(32)).encode()
            return m.HandAcked(((bad, box["c"][st.seat].identity.sign(bad)), *msg.records[1:]))
        return msg

    host, clients, wire = setup(TWO)
    box["h"], box["c"] = host, clients  # type: ignore[assignment]
    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    from briscola_lan.table.selfplay import play_out
    from tests.table.helpers import cycle_chooser

    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    for c in clients:
        check = c.state.checks[0]
        assert check.fault is not None and check.fault.seat == HOST
        assert "equivocation" in check.fault.reason


def test_a_seat_cannot_frame_the_host_with_a_bogus_ack() -> None:
    def client_tap(conn: int, msg: Message) -> Message:
        if conn == 1 and isinstance(msg, m.AckHand):
            st = decode(msg.body)
            assert isinstance(st, Ack)
            body = dataclasses.replace(st, chain_hash=bytes(32)).encode()
            return m.AckHand(body, box[1].identity.sign(body))
        return msg

    box: list[ClientSession] = []
    host, clients, wire = setup(TWO)
    box.extend(clients)
    original = wire.send_to_host
    wire.send_to_host = lambda c, msgs: original(  # type: ignore[method-assign]
        c, [client_tap(c, x) for x in msgs]
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    from briscola_lan.table.selfplay import play_out
    from tests.table.helpers import cycle_chooser

    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    rep = verify_records(host.records)
    # the bogus ack was refused, never relayed: that hand lacks seat 1's ack, nobody is blamed
    assert rep.verdict == "unacknowledged" and rep.blame is None
    assert [h.missing_acks for h in rep.hands if h.missing_acks] == [(1,)]
    assert rep.hands[0].acks == 1
    assert clients[0].state.checks[0].status == "verified"
    assert any(e.code == "bad_statement" for e in clients[1].state.errors)


def test_partner_exchange_showing_a_card_the_partner_does_not_hold() -> None:
    box: dict[str, host_module.HostTable] = {}

    def tap(conn: int, msg: Message) -> Message:
        if conn == 2 and isinstance(msg, m.PartnerShown):
            st = decode(msg.body)
            assert isinstance(st, Exchange)
            hand = hand_of(box["h"])
            assert hand is not None
            # a genuine opening, but of a card seat 2 itself holds, not its partner
            mine = hand.hands[2][0]
            pos = classic(box["h"]).position_of[mine.code]
            fake = Opening(pos, mine.code, classic(box["h"]).salts[pos])
            bad = dataclasses.replace(st, openings=(fake, *st.openings[1:]))
            body = bad.encode()
            return m.PartnerShown(body, box["h"].identity.sign(body))
        return msg

    host, clients, wire = setup(FOUR)
    box["h"] = host
    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    from briscola_lan.table.selfplay import play_out
    from tests.table.helpers import cycle_chooser

    play_out(wire, [cycle_chooser(i) for i in range(4)])
    check = clients[2].state.checks[0]
    assert check.fault is not None and check.fault.seat == HOST
    assert check.fault.kind == "exchange"
    assert clients[0].state.checks[0].status == "verified"
