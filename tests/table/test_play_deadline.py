"""Every card a person owes has a deadline when two or more people play (transport.md §9, the
play deadline): the classic deal's AI plays the seat to the end of the hand, the blind deal's
hand is aborted naming the seat ("host or seat N", the host's AI cannot play a party's cards)
and dealt again, and a seat named twice is played by the host from then on; at a practice
table against AI players the person takes the time it wants."""

from __future__ import annotations

import pytest

from briscola_lan.fairness.statements import Abort, Takeover, decode
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.table.deal import Phase
from briscola_lan.table.selfplay import play_out, seat_clients

from .helpers import counter_entropy, cycle_chooser

TWO = TableOptions.make(players=2, hands_to_win=1)


def _stall_at_first_turn(deal: str, ai: dict[int, str] | None = None):  # type: ignore[no-untyped-def]
    host, clients, wire = seat_clients(
        TWO, entropy=counter_entropy(f"stall-{deal}-{bool(ai)}"), name="t", deal=deal, ai_seats=ai
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    _to_first_turn(host, wire)
    return host, clients, wire


def _to_first_turn(host, wire) -> None:  # type: ignore[no-untyped-def]
    for _ in range(50):  # the call and the deal: up to the first card
        wire.deliver(host.tick(host.now + 0.01))
        wire.pump()
        if host.phase is Phase.PLAY and host.deal is not None and host.deal.to_play is not None:
            break
    assert host.phase is Phase.PLAY


@pytest.mark.parametrize("deal", ["classic", "blind"])
def test_a_person_who_does_not_play_in_time(deal: str) -> None:
    host, clients, wire = _stall_at_first_turn(deal)
    deal_ = host.deal
    assert deal_ is not None
    stalled = deal_.to_play
    assert stalled is not None
    wire.deliver(host.tick(host.now + host.play_timeout - 1))
    wire.pump()
    assert host.phase is Phase.PLAY and deal_.to_play == stalled  # not yet
    wire.deliver(host.tick(host.now + 2))
    wire.pump()
    published = [decode(b) for b, _ in host.records]
    if deal == "classic":
        (takeover,) = [st for st in published if isinstance(st, Takeover)]
        assert (takeover.seat, takeover.ai) == (stalled, 1)
        assert host.seats[stalled].stalled
        play_out(wire, [cycle_chooser(0), cycle_chooser(1)])  # the AI plays the hand out
        assert host.phase is Phase.OVER
        for c in clients:
            assert verify_records(c.records).verdict == "verified"
    else:
        aborts = [st for st in published if isinstance(st, Abort)]
        assert [(a.hand, a.seat) for a in aborts] == [(0, stalled)]
        for c in [*clients]:
            blame = verify_records(c.records).blame
            assert blame is not None
            assert blame.party == f"host or seat {stalled}"
        # The hand counts for nothing and is dealt again; stalled again, the seat is named a
        # second time, and from the next deal the host plays it: the match is played out.
        assert host.hand_number == 1 and host.match is not None and not host.match.results
        _to_first_turn(host, wire)
        assert host.deal is not None and host.deal.to_play == stalled
        wire.deliver(host.tick(host.now + host.play_timeout + 1))
        wire.pump()
        assert host.hand_number == 2 and host.benched(stalled)
        play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
        assert host.phase is Phase.OVER and host.match.winner is not None
        rep = verify_records(host.records)
        assert [h.status for h in rep.hands][:2] == ["aborted", "aborted"]
        assert rep.match_ended and rep.hands[2].parties == tuple(sorted({1 - stalled, 2**32 - 1}))
        assert "two aborted hands named your seat" in " ".join(clients[stalled].state.log)


def test_a_practice_table_has_no_play_deadline() -> None:
    host, _clients, wire = _stall_at_first_turn("blind", ai={1: "rules"})
    deal_ = host.deal
    assert deal_ is not None and deal_.to_play in (0, 1)
    while deal_.to_play != 0:  # let the AI lead
        wire.deliver(host.tick(host.now + 1))
        wire.pump()
    wire.deliver(host.tick(host.now + 10 * host.play_timeout))
    wire.pump()
    assert host.phase is Phase.PLAY and deal_.to_play == 0  # still my turn, an hour later
