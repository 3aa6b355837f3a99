"""Five players dealt blind (Briscola chiamata, fairness.md §13.9) at the host and its clients:
eight cards each, opened only by their owner; the auction and the call signed, relayed and
receipted; a bid out of turn, an illegal one, a forged one, one before the seat's cards and a call
by another seat refused with nothing published; a withheld bid aborts the hand naming the seat
(the blind deal's rule for a turn not taken); a hand everyone passed ends with no points, its
keys revealed, and is dealt again by the same dealer; the partner's client knows it from its
cards and nobody else does, the host included when no AI seat plays; AI seats in any seat (the
host knows their cards); a restored host goes on from the middle of the auction; every file
verifies."""

from __future__ import annotations

from typing import Any

import pytest

from briscola_lan.fairness.auction_checks import bid_code
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import (
    Abort,
    BidStatement,
    BlindEnd,
    BlindPlay,
    BlindStart,
    CallStatement,
    KeyReveal,
    Receipt,
    decode,
)
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Suit
from briscola_lan.table import events as ev
from briscola_lan.table.core import chiamata_bot_factory
from briscola_lan.table.deal import Phase
from briscola_lan.table.deal_blind import BlindDeal
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import encode_frame

from .helpers import FIVE, chiamata_bots, counter_entropy, error_codes, five_table, statements


def _table(label: str, **kw: Any) -> tuple[HostTable, list[Any], Wire]:
    return five_table(label, "blind", **kw)


def _deal(host: HostTable) -> BlindDeal:
    deal = host.deal
    assert isinstance(deal, BlindDeal)
    return deal


def test_a_whole_blind_match_at_five_verifies_in_every_file() -> None:
    host, clients, wire = _table("blind5-whole")
    deal = _deal(host)
    assert deal.host_party is None  # five people: the host is no party and opens no card
    assert deal.bh is not None and deal.bh.upcard_position is None
    for seat, c in enumerate(clients):  # eight cards each, opened by their owner alone
        view = c.state.view
        assert view is not None and len(view.hand) == 8 and view.upcard is None
        assert view.trump is None and view.seat == seat
    held = [set(c.state.view.hand) for c in clients]
    assert len(set().union(*held)) == 40
    bots = chiamata_bots()
    play_out(wire, [b.choose for b in bots], auction=bots)
    assert host.phase is Phase.OVER and not host.internal_errors
    assert host.match is not None and host.match.winner is not None
    for records in (host.records, *(c.records for c in clients)):
        rep = verify_records(records)
        assert rep.verdict == "verified" and rep.match_ended and rep.deal == "blind"
        assert all(h.call is not None for h in rep.hands if not h.passed_out)
    for c in clients:
        assert c.state.scores == host.match.scores()
    for seat, c in enumerate(clients):  # each bid and call receipted to its seat, and only there
        mine = [
            decode(st.statement)
            for st in statements(c.records)
            if isinstance(st, Receipt)
            and isinstance(decode(st.statement), BidStatement | CallStatement)
        ]
        assert mine and all(st.seat == seat for st in mine)


def test_bids_out_of_turn_illegal_forged_and_foreign_calls_are_refused() -> None:
    host, clients, wire = _table("blind5-refused")
    first, other = 1, 2  # the first dealer is seat 0
    before = len(host.records)
    wire.send_to_host(other, clients[other].bid(Bid(2)))  # not its turn
    wire.pump()
    assert error_codes(clients[other])[-1] == m.ErrorCode.NOT_YOUR_TURN
    wire.send_to_host(first, clients[first].call(Suit.CUPS))  # no auction won yet
    wire.pump()
    assert error_codes(clients[first])[-1] == m.ErrorCode.NOT_YOUR_TURN
    c = clients[first]
    ms = c._ms
    assert ms is not None
    st = BidStatement(ms.game_id, 0, first, c._checker.context_for("bid"), 0, bid_code(Bid(3)))
    body = st.encode()
    wire.send_to_host(first, [m.MakeBid(body, Identity.generate(b"\x07" * 32).sign(body))])
    wire.pump()
    assert error_codes(c)[-1] == m.ErrorCode.BAD_SIGNATURE
    wire.send_to_host(other, [m.MakeBid(body, c.identity.sign(body))])  # seat 1's bid, seat 2
    wire.pump()
    assert error_codes(clients[other])[-1] == m.ErrorCode.NOT_ALLOWED
    wrong = BidStatement(ms.game_id, 0, first, c._checker.context_for("bid"), 1, bid_code(None))
    wire.send_to_host(first, [c._signed(m.MakeBid, wrong)])  # bid number 1 when 0 is due
    wire.pump()
    assert error_codes(c)[-1] == m.ErrorCode.BAD_STATEMENT
    assert len(host.records) == before  # nothing published
    wire.send_to_host(first, clients[first].bid(Bid(4)))  # the jack: legal
    wire.pump()
    assert isinstance(decode(host.records[-1][0]), BidStatement)
    wire.send_to_host(other, clients[other].bid(Bid(2)))  # the king does not top the jack
    wire.pump()
    assert error_codes(clients[other])[-1] == m.ErrorCode.ILLEGAL_PLAY
    for c in clients:
        assert verify_records(c.records).verdict == "incomplete"


def test_a_card_in_the_auction_is_refused() -> None:
    host, clients, wire = _table("blind5-card-early")
    deal = _deal(host)
    party = clients[1]._blind
    assert party is not None and deal.bh is not None
    pos, card = next(iter(party.seat_cards(1).items()))
    st = party.play(1, card)
    assert st.position == pos
    before = len(host.records)
    wire.send_to_host(1, [clients[1]._signed(m.PlayCard, st)])
    wire.pump()
    assert error_codes(clients[1])[-1] == m.ErrorCode.WRONG_PHASE
    assert len(host.records) == before
    assert deal.bh.expected() == "bid" and not deal.bh.plays


def test_a_bid_before_the_seats_cards_is_refused() -> None:
    host, clients, wire = seat_clients(
        FIVE, entropy=counter_entropy("blind5-early-bid"), name="t", deal="blind"
    )
    held: list[tuple[int, list[m.Message]]] = []
    send = wire.send_to_host

    def hold_shares(conn: int, msgs: list[m.Message]) -> None:  # seat 4's keys come late
        keep = [x for x in msgs if conn == 4 and isinstance(x, m.SendShares)]
        held.extend((conn, [x]) for x in keep)
        send(conn, [x for x in msgs if x not in keep])

    wire.send_to_host = hold_shares  # type: ignore[method-assign]
    send(0, clients[0].start())
    wire.pump()
    deal = _deal(host)
    assert deal.bh is not None and deal.bh.expected() == "shares"
    c = clients[1]
    ms = c._ms
    assert ms is not None
    ctx = c._checker.context_for("bid")
    st = BidStatement(ms.game_id, 0, 1, ctx, 0, bid_code(Bid(0)))
    before = len(host.records)
    send(1, [c._signed(m.MakeBid, st)])
    wire.pump()
    assert error_codes(c)[-1] == m.ErrorCode.WRONG_PHASE
    assert len(host.records) == before
    for conn, msgs in held:  # the keys come: the auction opens
        send(conn, msgs)
    wire.pump()
    assert deal.bh.expected() == "bid" and clients[1].state.view.my_bid


def test_a_withheld_bid_aborts_the_hand_naming_the_seat() -> None:
    host, clients, wire = _table("blind5-withheld")
    deal = _deal(host)
    assert deal.to_play == 1  # seat 1 bids first, and does not
    wire.deliver(host.tick(host.now + 0.01))
    wire.deliver(host.tick(host.now + host.play_timeout - 1))
    wire.pump()
    assert not any(isinstance(st, Abort) for st in statements(host.records))
    wire.deliver(host.tick(host.now + 2))
    wire.pump()
    (abort,) = [st for st in statements(host.records) if isinstance(st, Abort)]
    assert abort.seat == 1 and "bid" in abort.reason
    rep = verify_records(host.records)
    fault = rep.hands[0].fault
    assert rep.hands[0].status == "aborted" and fault is not None
    assert fault.seat == 1 and fault.also_host  # no receipt: host or seat 1
    # the hand is dealt again, by the same dealer, and the match goes on
    assert host.hand_number == 1 and host.deal is not None and host.deal.dealer == 0
    bots = chiamata_bots()
    play_out(wire, [b.choose for b in bots], auction=bots)
    for records in (host.records, *(c.records for c in clients)):
        rep = verify_records(records)
        assert rep.match_ended and rep.hands[0].status == "aborted"
        assert all(h.status == "verified" for h in rep.hands[1:])


def test_everyone_passing_voids_the_blind_hand_and_the_dealer_deals_again() -> None:
    host, clients, wire = _table("blind5-passed")
    for _ in range(5):
        seat = host.deal.to_play  # type: ignore[union-attr]
        assert seat is not None
        wire.send_to_host(seat, clients[seat].bid(None))
        wire.pump()
    sts = statements(host.records)
    end = next(st for st in sts if isinstance(st, BlindEnd))
    assert end.hand == 0 and end.points == (0, 0, 0, 0, 0)
    assert not any(isinstance(st, BlindPlay) for st in sts)
    assert sum(isinstance(st, KeyReveal) and st.hand == 0 for st in sts) == 5  # the keys follow
    starts = [st for st in sts if isinstance(st, BlindStart)]
    assert [(s.hand, s.dealer) for s in starts] == [(0, 0), (1, 0)]
    assert host.match is not None and not host.match.results  # the void hand is not recorded
    assert any(isinstance(e, ev.HandEnded) and e.passed_out for e in clients[0].state.events)
    bots = chiamata_bots()
    play_out(wire, [b.choose for b in bots], auction=bots)
    rep = verify_records(host.records)
    assert rep.verdict == "verified" and rep.hands[0].passed_out
    assert [h.hand for h in rep.hands][:2] == [0, 1]


def test_only_the_partner_knows_it_is_the_partner_until_the_card_is_played() -> None:
    host, clients, wire = _table("blind5-partner")
    bots = chiamata_bots()
    bh = _deal(host).bh
    assert bh is not None
    while bh.sched.contract is None:  # the auction and the call, by the bots
        seat = host.deal.to_play  # type: ignore[union-attr]
        assert seat is not None and not bh.passed_out
        v = clients[seat].state.view
        msgs = (
            clients[seat].bid(bots[seat].bid(v))
            if v.my_bid
            else clients[seat].call(bots[seat].call(v))
        )
        wire.send_to_host(seat, msgs)
        wire.pump()
    contract = bh.sched.contract
    holders = [s for s, c in enumerate(clients) if contract.called in c.state.view.hand]
    assert len(holders) == 1
    holder = holders[0]
    assert _deal(host).view(holder) is None  # the host opens no seat's cards
    for seat, c in enumerate(clients):
        called = [e for e in c.state.events if isinstance(e, ev.CardCalled)]
        assert called and called[-1].partner == (seat == holder)
        view = c.state.view
        assert view.contract == contract and view.trump == contract.trump
        assert view.partner == (seat if seat == holder else None)
    play_out(wire, [b.choose for b in bots], auction=bots)
    rep = verify_records(host.records)
    call = rep.hands[-1].call
    assert call is not None and call.partner == holder and call.caller == contract.caller


@pytest.mark.parametrize("ai", [{1: "rules"}, {2: "strong", 4: "random"}])
def test_ai_seats_bid_call_and_play_blind_in_any_seat(ai: dict[int, str]) -> None:
    host, clients, wire = seat_clients(
        FIVE,
        entropy=counter_entropy(f"blind5-ai-{sorted(ai)}"),
        name="t",
        deal="blind",
        ai_seats=ai,
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    deal = _deal(host)
    for seat in range(5):  # the host opens the cards of the seats it plays, and only those
        assert (deal.view(seat) is not None) == (seat in ai)
    bots = [chiamata_bot_factory("rules", i) for i in range(len(clients))]
    play_out(wire, [b.choose for b in bots], auction=bots)
    assert host.phase is Phase.OVER and not host.internal_errors
    sts = statements(host.records)
    assert {st.seat for st in sts if isinstance(st, BidStatement)} >= set(ai)
    for records in (host.records, *(c.records for c in clients)):
        assert verify_records(records).verdict == "verified"


@pytest.mark.parametrize("bids", [0, 2])
def test_a_restored_blind_host_goes_on_from_the_middle_of_the_auction(bids: int) -> None:
    host, clients, wire = _table(f"blind5-restore-{bids}")
    bots = chiamata_bots()
    for _ in range(bids):
        seat = host.deal.to_play  # type: ignore[union-attr]
        assert seat is not None
        wire.send_to_host(seat, clients[seat].bid(bots[seat].bid(clients[seat].state.view)))
        wire.pump()
    snap = host.snapshot()
    restored = HostTable.restore(
        snap, identity=host.identity, entropy=counter_entropy(f"blind5-restored-{bids}")
    )
    old, new = _deal(host), _deal(restored)
    assert old.bh is not None and new.bh is not None
    assert new.bh.sched.auction.bids == old.bh.sched.auction.bids  # type: ignore[union-attr]
    assert new.to_play == old.to_play
    wire2 = Wire(restored, clients)
    for i, c in enumerate(clients):
        wire2.deliver(restored.connect(i))
        wire2.send_to_host(i, c.hello())
        wire2.pump()
    play_out(wire2, [b.choose for b in bots], auction=bots)
    assert restored.phase is Phase.OVER
    for records in (restored.records, *(c.records for c in clients)):
        assert verify_records(records).verdict == "verified"


# --- a cheating host relaying the auction --------------------------------------------------


def _two_bids(host: HostTable, clients: list[Any], wire: Wire) -> None:
    """Seats 1 and 2 bid (seat 0 deals): bids number 0 and 1, before seat 3's turn."""
    bots = chiamata_bots()
    for seat in (1, 2):
        assert host.deal is not None and host.deal.to_play == seat
        v = clients[seat].state.view
        wire.send_to_host(seat, clients[seat].bid(bots[seat].bid(v)))
        wire.pump()


def _bid_index(msg: Any) -> int | None:
    if not isinstance(msg, m.BidMade):
        return None
    st = decode(msg.body)
    return st.index if isinstance(st, BidStatement) else None


def _host_caught(client: Any) -> None:
    check = client.state.checks[-1]
    assert check.status == "failed" and check.fault is not None, client.state.log
    assert check.fault.party == "host" and check.fault.kind == "bid", check.fault


def test_a_host_that_drops_a_bid_for_one_seat_is_caught_by_that_seat() -> None:
    host, clients, wire = _table("blind5-drop")
    wire.tap = lambda conn, msg: None if conn == 3 and _bid_index(msg) == 0 else msg
    _two_bids(host, clients, wire)
    _host_caught(clients[3])
    for seat in (0, 1, 2, 4):  # the others followed the honest auction
        assert clients[seat].state.checks[-1].fault is None


def test_a_host_that_reorders_two_bids_for_one_seat_is_caught_by_that_seat() -> None:
    host, clients, wire = _table("blind5-reorder")
    held: list[Any] = []

    def tap(conn: int, msg: Any) -> Any:
        if conn != 3 or _bid_index(msg) is None:
            return msg
        if _bid_index(msg) == 0:
            held.append(msg)  # the first bid comes after the second
            return None
        wire.to_client.append((3, encode_frame(msg)))
        return held.pop()

    wire.tap = tap
    _two_bids(host, clients, wire)
    _host_caught(clients[3])
    assert clients[4].state.checks[-1].fault is None


def test_a_host_that_shows_one_seat_another_bid_is_caught_by_that_seat() -> None:
    def other_bid(msg: Any) -> Any:
        if _bid_index(msg) != 0:
            return msg
        st = decode(msg.body)  # seat 1's first bid, made another by the host (its own key)
        changed = BidStatement(st.game_id, st.hand, st.seat, st.context, 0, bid_code(Bid(0)))
        if changed == st:
            changed = BidStatement(st.game_id, st.hand, st.seat, st.context, 0, bid_code(None))
        body = changed.encode()
        return m.BidMade(body, host.identity.sign(body))

    host, clients, wire = _table("blind5-two-auctions")
    wire.tap = lambda conn, msg: msg if conn != 3 else other_bid(msg)
    seat = host.deal.to_play  # type: ignore[union-attr]
    assert seat == 1
    wire.send_to_host(1, clients[1].bid(Bid(4)))
    wire.pump()
    _host_caught(clients[3])
    assert clients[0].state.checks[-1].fault is None


# --- a cheating player: the call withheld, the table left in the auction ------------------


def _won_auction(label: str) -> tuple[HostTable, list[Any], Wire, int]:
    """Seat 1 bids the ace, everyone else passes: seat 1 owes the call."""
    host, clients, wire = _table(label)
    for _ in range(5):
        seat = host.deal.to_play  # type: ignore[union-attr]
        assert seat is not None
        v = clients[seat].state.view
        if not v.my_bid:
            break
        wire.send_to_host(seat, clients[seat].bid(Bid(0) if seat == 1 else None))
        wire.pump()
    assert host.deal is not None and host.deal.to_play == 1
    assert clients[1].state.view.my_call
    return host, clients, wire, 1


def test_a_withheld_call_aborts_the_hand_naming_the_caller() -> None:
    host, clients, wire, caller = _won_auction("blind5-no-call")
    wire.deliver(host.tick(host.now + 0.01))
    wire.deliver(host.tick(host.now + host.play_timeout + 1))
    wire.pump()
    (abort,) = [st for st in statements(host.records) if isinstance(st, Abort)]
    assert abort.seat == caller and "call" in abort.reason
    for records in (host.records, *(c.records for c in clients)):
        fault = verify_records(records).hands[0].fault
        assert fault is not None and fault.seat == caller and fault.also_host
    assert host.hand_number == 1  # dealt again


def test_a_caller_who_walks_away_in_the_auction_is_named_after_the_grace_period() -> None:
    host, _clients, wire, caller = _won_auction("blind5-walk-away")
    wire.deliver(host.disconnect(caller))
    wire.to_client = type(wire.to_client)(x for x in wire.to_client if x[0] != caller)
    wire.pump()
    wire.deliver(host.tick(host.now + 0.01))
    assert not any(isinstance(st, Abort) for st in statements(host.records))
    wire.deliver(host.tick(host.now + host.grace + 1))
    wire.pump()
    (abort,) = [st for st in statements(host.records) if isinstance(st, Abort)]
    assert abort.seat == caller and "left the table" in abort.reason
    rep = verify_records(host.records)
    assert rep.hands[0].status == "aborted" and rep.hands[0].fault is not None
    assert rep.hands[0].fault.seat == caller
