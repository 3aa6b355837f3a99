"""Five players, Briscola chiamata, at the host and its clients (classic deal, fairness.md §13):
the auction and the call are signed, relayed and receipted; a bid out of turn, an illegal one, a
call by another seat are refused and nothing is published; a bid withheld past the play deadline
is made by the host's AI; a hand everyone passes is void and dealt again by the same dealer; the
partner's client knows it from its cards; a restored host goes on from the middle of the auction;
AI seats bid, call and play in any seat; every file verifies."""

from __future__ import annotations

from typing import Any

import pytest

from briscola_lan.fairness.classic_hand import bid_code
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import (
    BidStatement,
    CallStatement,
    HostReveal,
    Receipt,
    Takeover,
    decode,
)
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Suit
from briscola_lan.table import events as ev
from briscola_lan.table.core import chiamata_bot_factory
from briscola_lan.table.deal import Phase
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m

from .helpers import FIVE, chiamata_bots, counter_entropy, error_codes, five_table, statements


def _table(label: str, **kw: Any) -> tuple[HostTable, list[Any], Wire]:
    return five_table(label, "classic", **kw)


def test_a_whole_match_at_five_verifies_in_every_file() -> None:
    host, clients, wire = _table("five-whole")
    bots = chiamata_bots()
    play_out(wire, [b.choose for b in bots], auction=bots)
    assert host.phase is Phase.OVER and not host.internal_errors
    assert host.match is not None and host.match.winner is not None
    for records in (host.records, *(c.records for c in clients)):
        rep = verify_records(records)
        assert rep.verdict == "verified" and rep.match_ended
    sts = statements(host.records)
    assert any(isinstance(st, BidStatement) for st in sts)
    assert sum(isinstance(st, CallStatement) for st in sts) == len(host.match.results)
    # every seat's score over the match, as the clients summed them, is the host's
    for c in clients:
        assert c.state.scores == host.match.scores()
    # each bid and call a seat made is receipted to it, and only to it
    for seat, c in enumerate(clients):
        mine = [
            decode(st.statement)
            for st in statements(c.records)
            if isinstance(st, Receipt)
            and isinstance(decode(st.statement), BidStatement | CallStatement)
        ]
        assert mine and all(st.seat == seat for st in mine)


def test_bids_out_of_turn_illegal_and_foreign_calls_are_refused() -> None:
    host, clients, wire = _table("five-refused")
    first = (host.deal.dealer + 1) % 5 if host.deal is not None else 1  # type: ignore[union-attr]
    other = (first + 1) % 5
    before = len(host.records)
    wire.send_to_host(other, clients[other].bid(Bid(2)))  # not its turn
    wire.pump()
    assert error_codes(clients[other])[-1] == m.ErrorCode.NOT_YOUR_TURN
    wire.send_to_host(first, clients[first].call(Suit.CUPS))  # no auction won yet
    wire.pump()
    assert error_codes(clients[first])[-1] == m.ErrorCode.NOT_YOUR_TURN
    assert len(host.records) == before  # nothing published
    wire.send_to_host(first, clients[first].bid(Bid(4)))  # the jack: legal
    wire.pump()
    assert isinstance(decode(host.records[-1][0]), BidStatement)
    wire.send_to_host(other, clients[other].bid(Bid(2)))  # the king does not top the jack
    wire.pump()
    assert error_codes(clients[other])[-1] == m.ErrorCode.ILLEGAL_PLAY
    wire.send_to_host(other, clients[other].bid(Bid(60 + 1)))  # points: tops any rank
    wire.pump()
    last = decode(host.records[-1][0])
    assert isinstance(last, BidStatement) and last.bid == 61
    # a play in the auction is refused as well
    view = clients[(other + 1) % 5].state.view
    assert view is not None and view.my_bid and not view.my_turn
    for c in clients:
        assert verify_records(c.records).verdict == "incomplete"


def test_a_forged_bid_is_refused() -> None:
    host, clients, wire = _table("five-forged")
    first = 1  # the first dealer is seat 0
    c = clients[first]
    assert c.state.view is not None and c.state.view.my_bid
    ms = c._ms
    assert ms is not None
    st = BidStatement(ms.game_id, 0, first, c._checker.context_for("bid"), 0, bid_code(Bid(3)))
    body = st.encode()
    forged = Identity.generate(b"\x07" * 32).sign(body)  # not seat 1's key
    wire.send_to_host(first, [m.MakeBid(body, forged)])
    wire.pump()
    assert error_codes(c)[-1] == m.ErrorCode.BAD_SIGNATURE
    wire.send_to_host(2, [m.MakeBid(body, c.identity.sign(body))])  # seat 1's bid from seat 2
    wire.pump()
    assert error_codes(clients[2])[-1] == m.ErrorCode.NOT_ALLOWED
    assert not any(isinstance(st, BidStatement) for st in statements(host.records))


def test_a_withheld_bid_is_made_by_the_hosts_ai() -> None:
    host, clients, wire = _table("five-withheld")
    deal = host.deal
    assert deal is not None and deal.to_play == 1  # seat 1 bids first, and does not
    wire.deliver(host.tick(host.now + 0.01))  # the turn's clock starts
    wire.deliver(host.tick(host.now + host.play_timeout - 1))
    wire.pump()
    assert not any(isinstance(st, Takeover) for st in statements(host.records))
    wire.deliver(host.tick(host.now + 2))
    wire.pump()
    sts = statements(host.records)
    (takeover,) = [st for st in sts if isinstance(st, Takeover)]
    assert (takeover.seat, takeover.ai, takeover.at_play) == (1, 1, 0)
    bids = [st for st in sts if isinstance(st, BidStatement)]
    assert bids and bids[0].seat == 1  # the AI bid for seat 1, with the host's key
    bots = chiamata_bots()
    play_out(wire, [b.choose for b in bots], auction=bots)
    assert host.phase is Phase.OVER
    for records in (host.records, *(c.records for c in clients)):
        assert verify_records(records).verdict == "verified"


def test_everyone_passing_voids_the_hand_and_the_dealer_deals_again() -> None:
    host, clients, wire = _table("five-passed")
    for _ in range(5):
        seat = host.deal.to_play  # type: ignore[union-attr]
        assert seat is not None
        wire.send_to_host(seat, clients[seat].bid(None))
        wire.pump()
    sts = statements(host.records)
    reveal = next(st for st in sts if isinstance(st, HostReveal))
    assert reveal.hand == 0 and reveal.points == (0, 0, 0, 0, 0)
    assert host.hand_number == 1 and host.deal is not None and host.deal.dealer == 0
    assert host.match is not None and not host.match.results  # the void hand is not recorded
    assert any(isinstance(e, ev.HandEnded) and e.passed_out for e in clients[0].state.events)
    bots = chiamata_bots()
    play_out(wire, [b.choose for b in bots], auction=bots)
    rep = verify_records(host.records)
    assert rep.verdict == "verified" and rep.hands[0].passed_out
    assert [h.hand for h in rep.hands][:2] == [0, 1]


def test_the_partner_knows_from_its_cards_and_the_others_when_the_card_is_played() -> None:
    host, clients, wire = _table("five-partner")
    bots = chiamata_bots()
    hand = host.deal.hand  # type: ignore[union-attr]
    assert hand is not None
    while hand.contract is None:  # the auction and the call, by the bots
        seat = hand.current_player
        assert seat is not None
        v = clients[seat].state.view
        msgs = (
            clients[seat].bid(bots[seat].bid(v))
            if v.my_bid
            else clients[seat].call(bots[seat].call(v))
        )
        wire.send_to_host(seat, msgs)
        wire.pump()
        # this table's deal is fixed (counter entropy): a bid is made, the called card is dealt
        assert not hand.passed_out
    holder = hand.called_holder
    caller = hand.contract.caller
    assert holder is not None
    for seat, c in enumerate(clients):
        called = [e for e in c.state.events if isinstance(e, ev.CardCalled)]
        assert called and called[-1].partner == (seat == holder)
        view = c.state.view
        assert view is not None and view.contract == hand.contract
        # nobody else is told who the partner is: only the holder's view names it
        if seat == holder:
            assert view.partner == seat and view.holds_called
        else:
            assert view.partner is None
    assert caller is not None


@pytest.mark.parametrize("ai", [{1: "rules"}, {2: "strong", 4: "random"}, {1: "rules", 3: "rules"}])
def test_ai_seats_bid_call_and_play_in_any_seat(ai: dict[int, str]) -> None:
    host, clients, wire = seat_clients(
        FIVE,
        entropy=counter_entropy(f"five-ai-{sorted(ai)}"),
        name="t",
        deal="classic",
        ai_seats=ai,
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    bots = [chiamata_bot_factory("rules", i) for i in range(len(clients))]
    play_out(wire, [b.choose for b in bots], auction=bots)
    assert host.phase is Phase.OVER and not host.internal_errors
    sts = statements(host.records)
    assert {st.seat for st in sts if isinstance(st, BidStatement)} >= set(ai)
    for records in (host.records, *(c.records for c in clients)):
        assert verify_records(records).verdict == "verified"


@pytest.mark.parametrize("bids", [0, 2])
def test_a_restored_host_goes_on_from_the_middle_of_the_auction(bids: int) -> None:
    host, clients, wire = _table(f"five-restore-{bids}")
    bots = chiamata_bots()
    for _ in range(bids):  # the deal made (and some bids), then the host stops
        seat = host.deal.to_play  # type: ignore[union-attr]
        assert seat is not None
        wire.send_to_host(seat, clients[seat].bid(bots[seat].bid(clients[seat].state.view)))
        wire.pump()
    snap = host.snapshot()
    restored = HostTable.restore(
        snap, identity=host.identity, entropy=counter_entropy(f"five-restored-{bids}")
    )
    old = host.deal
    new = restored.deal
    assert old is not None and new is not None and old.hand is not None  # type: ignore[attr-defined]
    assert new.hand.public.auction.bids == old.hand.public.auction.bids  # type: ignore[attr-defined]
    assert new.to_play == old.to_play
    # the restored host takes the clients (they resume their seats) and the match goes on
    wire2 = Wire(restored, clients)
    for i, c in enumerate(clients):
        wire2.deliver(restored.connect(i))
        wire2.send_to_host(i, c.hello())
        wire2.pump()
    play_out(wire2, [b.choose for b in bots], auction=bots)
    assert restored.phase is Phase.OVER
    for records in (restored.records, *(c.records for c in clients)):
        assert verify_records(records).verdict == "verified"


def test_five_players_are_dealt_blind_with_two_people_or_more() -> None:
    key = Identity.generate(b"\x01" * 32)
    assert HostTable(FIVE, name="t", identity=key).deal_mode == "blind"  # five people
    two = HostTable(FIVE, name="t", identity=key, ai_seats={2: "rules", 3: "rules", 4: "rules"})
    assert two.deal_mode == "blind"  # two people, three AI seats (whose cards the host knows)
    one = HostTable(FIVE, name="t", identity=key, ai_seats=dict.fromkeys(range(1, 5), "rules"))
    assert one.deal_mode == "classic"  # against AI players only
    asked = HostTable(FIVE, name="t", identity=key, deal="classic")
    assert asked.deal_mode == "classic"
