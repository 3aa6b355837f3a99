"""A hand aborted naming a seat counts for nothing and is dealt again (protocol/fairness.md §8.7):
a player who walks away from a hand it is losing cannot void the match, and a seat named by two
aborts is played by the host from the next deal to the end of the match. An abort naming the
host ends the match; a file that deals again after it, or numbers the new deal as the old one,
is the host's fault."""

from __future__ import annotations

import random
from typing import Any

import pytest

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import Present, Receipt, Takeover, decode
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.deal import Phase
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m

from .helpers import aborts, counter_entropy, cycle_chooser

TWO = TableOptions.make(players=2, hands_to_win=2)


def _table(deal: str, label: str) -> tuple[HostTable, list[ClientSession], Wire]:
    host, clients, wire = seat_clients(
        TWO, entropy=counter_entropy(f"replay-{deal}-{label}"), name="t", deal=deal
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    return host, clients, wire


def _play(host: HostTable, wire: Wire, seats: set[int], until: Any, rng: random.Random) -> None:
    """Play the people's cards of ``seats`` (time passes when none is due) until ``until()``."""
    for _ in range(5000):
        if until():
            return
        for i in seats:
            v = wire.clients[i].state.view
            deal = host.deal
            if v is not None and v.my_turn and deal is not None and deal.to_play == i:
                wire.send_to_host(i, wire.clients[i].play(rng.choice(v.legal_plays)))
                wire.pump()
                break
        else:
            wire.deliver(host.tick(host.now + 1.0))
            wire.pump()
    raise AssertionError("the table did not get there")


def test_a_player_who_walks_away_from_a_lost_match_cannot_void_it() -> None:
    """Two people, first to two hands, blind deal. Seat 1 loses the first hand and, in the
    second, walks away with cards in hand. The hand is aborted naming it ("host or seat 1"),
    counts for nothing, and is dealt again by the same dealer; the host plays the empty seat
    and the match is played to its end: the first hand's result stands in every file."""
    host, clients, wire = _table("blind", "walk")
    rng = random.Random(5)
    match = host.match
    assert match is not None
    _play(host, wire, {0, 1}, lambda: len(match.results) == 1 and host.phase is Phase.PLAY, rng)
    first = match.results[0]
    dealer = host.deal.dealer if host.deal is not None else None
    _play(host, wire, {0, 1}, lambda: host.deal is not None and host.deal.plays_so_far >= 3, rng)
    wire.deliver(host.disconnect(1))  # seat 1 walks away in the middle of the hand
    _play(host, wire, {0}, lambda: bool(aborts(host.records)), rng)
    assert aborts(host.records) == [(1, 1)]
    _play(host, wire, {0}, lambda: host.phase is Phase.OVER, rng)
    assert match.is_over and match.results[0] == first and len(match.results) >= 2
    reports = {"host": verify_records(host.records), "seat 0": verify_records(clients[0].records)}
    for who, rep in reports.items():
        assert rep.match_ended, who
        assert [h.hand for h in rep.hands][:3] == [0, 1, 2]
        assert rep.hands[1].status == "aborted" and rep.hands[2].dealer == dealer
        assert rep.hands[2].parties == (0, HOST_PARTY)  # the host plays the empty seat
        assert rep.verdict == "aborted" and rep.blame is not None
        assert rep.blame.party == "host or seat 1", who
    log = " ".join(clients[0].state.log)
    assert "the hand counts for nothing: the same dealer deals again" in log
    assert not clients[0].state.match_aborted and clients[0].state.match_over


def test_a_seat_named_by_two_aborts_is_played_by_the_ai_in_the_classic_deal() -> None:
    """Seat 1 never reveals its seed: each hand is aborted at the deadline naming it and dealt
    again; after the second, the host's AI takes the seat before the next commitments and
    plays it to the end of the match, and the match is decided."""
    host, clients, wire = seat_clients(
        TWO, entropy=counter_entropy("bench"), name="t", deal="classic"
    )
    send = wire.send_to_host
    wire.send_to_host = lambda c, msgs: send(  # type: ignore[method-assign]
        c, [x for x in msgs if not (c == 1 and isinstance(x, m.RevealSeed))]
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for _ in range(10):
        wire.deliver(host.tick(host.now + host.timeout / 2))
        wire.pump()
        if len(aborts(host.records)) == 2:
            break
    assert aborts(host.records) == [(0, 1), (1, 1)]
    assert host.benched(1) and host.seats[1].taken_over and host.hand_number == 2
    takeover = [decode(b) for b, _ in host.records if isinstance(decode(b), Takeover)]
    assert [(t.seat, t.ai) for t in takeover] == [(1, 1)]  # type: ignore[attr-defined]
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    assert host.phase is Phase.OVER and host.match is not None and host.match.winner is not None
    for records in (host.records, clients[0].records, clients[1].records):
        rep = verify_records(records)
        assert rep.match_ended and rep.verdict == "aborted"
        assert [h.status for h in rep.hands[:2]] == ["aborted", "aborted"]
        assert rep.blame is not None and rep.blame.party == "host or seat 1"
    assert "two aborted hands named your seat" in " ".join(clients[1].state.log)
    # The classic deal gives a taken seat back to its returning player; never a benched one.
    assert host.seats[1].conn is not None and host.seats[1].taken_over


def test_a_benched_seat_is_not_called_and_its_answer_gets_no_receipt() -> None:
    """In the blind deal a benched seat's client does not answer the call, and an answer the
    host is sent anyway is refused without a receipt (so that no file can blame the host for
    leaving the seat out)."""
    host, clients, wire = _table("blind", "benched")
    rng = random.Random(1)
    _play(host, wire, set(), lambda: host.phase is Phase.PLAY, rng)
    assert host.deal is not None
    stalled = host.deal.to_play
    assert stalled is not None
    other = 1 - stalled
    held: list[m.Message] = []
    send = wire.send_to_host

    def hold(conn: int, msgs: list[m.Message]) -> None:  # the other seat's third answer waits
        if host.hand_number == 2 and conn == other:
            held.extend(x for x in msgs if isinstance(x, m.JoinHand))
            msgs = [x for x in msgs if not isinstance(x, m.JoinHand)]
        send(conn, msgs)

    wire.send_to_host = hold  # type: ignore[method-assign]
    for _ in range(2):  # the same seat stalls at the first card of two deals in a row
        _play(host, wire, set(), lambda: host.phase is Phase.PLAY, rng)
        assert host.deal is not None and host.deal.to_play == stalled
        wire.deliver(host.tick(host.now + host.play_timeout + 1))
        wire.pump()
    assert aborts(host.records) == [(0, stalled), (1, stalled)] and host.benched(stalled)
    assert host.phase is Phase.CALL and held  # the third deal's call waits for the other seat
    c = clients[stalled]
    assert c.state.taken_over
    forced = c._signed(  # what a client that ignores the rule would send
        m.JoinHand,
        Present(host.game_id, 2, stalled, c._checker.context_for(Present.KIND)),
    )
    before = len(c.state.errors)
    send(stalled, [forced])
    wire.pump()
    assert c.state.errors[before].code == "not_allowed"
    receipted = [decode(st.statement) for b, _ in c.records if isinstance(st := decode(b), Receipt)]
    assert not any(isinstance(x, Present) and x.hand == 2 for x in receipted)
    send(other, held)
    wire.pump()
    rep = verify_records(host.records)
    assert rep.hands[2].parties == tuple(sorted((other, HOST_PARTY)))
    assert verify_records(c.records).blame is not None
    assert verify_records(c.records).blame.party == f"host or seat {stalled}"  # type: ignore[union-attr]


@pytest.mark.parametrize("deal", ["blind", "classic"])
def test_the_count_of_aborts_survives_a_restart_of_the_host(deal: str) -> None:
    """The host rebuilds the aborts that named each seat from its records: after a restart the
    next deal gets the next number and a seat named twice stays benched."""
    host, _clients, wire = _table(deal, "restart")
    rng = random.Random(3)
    _play(host, wire, {0, 1}, lambda: host.phase is Phase.PLAY, rng)
    out: list[Any] = []
    host.abort(1, "did not play in time", out)
    host._replay_if_due(out)
    wire.deliver(out)
    wire.pump()
    assert host.hand_number == 1 and host.named == {1: 1}
    restored = HostTable.restore(host.snapshot(), identity=host.identity)
    assert restored.named == {1: 1} and restored.hand_number == 1 and not restored.benched(1)


def test_a_deal_again_numbered_as_the_aborted_hand_is_the_hosts_fault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every deal begun has its own number (its keys and receipts are bound to it): a host that
    deals the aborted hand again under the same number is at fault in every file."""
    original = HostTable._replay_if_due

    def forgetful(self: HostTable, out: list[Any]) -> None:
        if self._replay_due:
            self.named = {}  # the new deal gets the aborted hand's number again
        original(self, out)

    monkeypatch.setattr(HostTable, "_replay_if_due", forgetful)
    host, clients, wire = _table("blind", "renumbered")
    _play(host, wire, set(), lambda: host.phase is Phase.PLAY, random.Random(2))
    wire.deliver(host.tick(host.now + host.play_timeout + 1))
    wire.pump()
    assert aborts(host.records)[0][0] == 0 and host.hand_number == 0
    for records in (host.records, clients[0].records, clients[1].records):
        rep = verify_records(records)
        assert rep.verdict == "failed" and rep.blame is not None and rep.blame.party == "host"
        assert "expected hand 1, got 0" in rep.blame.reason


def test_nothing_may_follow_an_abort_naming_the_host() -> None:
    """An abort naming the host ends the match: a deal after it is the host's fault."""
    host, clients, wire = _table("blind", "host-named")
    _play(host, wire, set(), lambda: host.phase is Phase.PLAY, random.Random(4))
    out: list[Any] = []
    host.abort(HOST_PARTY, "the host's own statement did not come", out)
    wire.deliver(out)
    wire.pump()
    assert clients[0].state.match_aborted and host.phase is Phase.OVER
    assert verify_records(clients[0].records).blame.party == "host"  # type: ignore[union-attr]
    host._replay_due = True  # a host that deals again anyway
    out = []
    host._replay_if_due(out)
    wire.deliver(out)
    wire.pump()
    rep = verify_records(host.records)
    assert rep.verdict == "failed" and "after the match was aborted" in rep.blame.reason  # type: ignore[union-attr]
