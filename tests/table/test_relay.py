"""A played card leaves before the host signs what follows it: ``HostTable.receive(settle=False)``
returns what relays it and leaves the rest owed (the player's receipt, the draws, the end of the
hand), ``settle()`` signs it; a table stopped in between does it when it is restored."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable, Outgoing
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m

RELAYED = (m.CardPlayed, m.TrickTaken, m.DeckLocked)
Log = list[Outgoing]
CLOCK = 1_800_000_000.0


def _match(
    options: TableOptions, split: bool, deal: str = "classic", restore_at: int | None = None
) -> tuple[Log, list[Log], Wire]:
    """Play a seeded match; every message the host sent, in order, and the batches sent before
    the host settled. ``restore_at``: at that card the host is restored from its snapshot
    between the relay and the settling (a host stopped there), and the match goes on."""
    _host, clients, wire = seat_clients(
        options, entropy=random.Random(7).randbytes, clock=lambda: CLOCK, deal=deal
    )
    sent: list[Outgoing] = []
    batches: list[Log] = []
    deliver = wire.deliver

    def logged(outs: list[Outgoing]) -> None:
        sent.extend(outs)
        deliver(outs)

    wire.deliver = logged  # type: ignore[method-assign]
    if split:
        cards = [0]

        def receive(conn: int, msg: Any) -> list[Outgoing]:
            table = wire.host
            out = HostTable.receive(table, conn, msg, settle=False)
            if not table.due:
                return out
            batches.append(list(out))
            logged(out)
            cards[0] += isinstance(msg, m.PlayCard)
            if cards[0] == restore_at:
                restored = HostTable.restore(
                    table.snapshot(), identity=table.identity, clock=lambda: CLOCK
                )
                restored.conns = table.conns
                for old, new in zip(table.seats, restored.seats, strict=True):
                    new.conn = old.conn
                restored.receive = receive  # type: ignore[method-assign]
                wire.host = table = restored
                # What the blind deal owed is done when the restored table resumes: its tick.
                return [*table.settle(), *table.tick(CLOCK)]
            return table.settle()

        wire.host.receive = receive  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    rng = random.Random(3)
    play_out(wire, [lambda v: rng.choice(v.legal_plays)] * options.players)
    return sent, batches, wire


def test_a_card_is_relayed_before_anything_is_signed_and_nothing_else_changes() -> None:
    options = TableOptions.make(players=4, hands_to_win=1)
    plain, _, _ = _match(options, split=False)
    split, batches, wire = _match(options, split=True)
    assert split == plain  # nothing lost, duplicated or reordered
    # Every card a seat plays goes early, with the trick it completes, before the host signs
    # anything (the player's receipt, the draws, the end of the hand): 40 cards a hand.
    assert wire.host.match is not None
    assert len(batches) == 40 * len(wire.host.match.results)
    for batch in batches:
        assert batch and all(isinstance(o.message, RELAYED) for o in batch)
        assert sum(isinstance(o.message, m.CardPlayed) for o in batch) == 4  # one per seat
    assert sum(any(isinstance(o.message, m.TrickTaken) for o in b) for b in batches) == 10 * len(
        wire.host.match.results
    )
    assert verify_records(wire.host.records).ok
    for client in wire.clients:
        assert client.state.match_over and all(c.status == "verified" for c in client.state.checks)


@pytest.mark.parametrize("deal", ["classic", "blind"])
def test_the_blind_deal_relays_its_cards_first_too(deal: str) -> None:
    options = TableOptions.make(players=2, hands_to_win=1)
    plain, _, _ = _match(options, split=False, deal=deal)
    split, batches, wire = _match(options, split=True, deal=deal)
    assert split == plain
    assert sum(isinstance(o.message, m.CardPlayed) for b in batches for o in b) >= 2 * 40 // 2
    # A lock pass's receipt is signed before the pass is relayed; nothing else is.
    early = [o.message for b in batches for o in b if not isinstance(o.message, m.ReceiptIssued)]
    assert all(isinstance(msg, RELAYED) for msg in early)
    assert verify_records(wire.host.records).ok


@pytest.mark.parametrize(
    ("players", "deal", "at"),
    [
        *((4, "classic", at) for at in (1, 4, 20, 40)),
        *((2, "blind", at) for at in (1, 2, 40)),
    ],
)
def test_a_host_stopped_between_the_relay_and_its_signatures_does_them_when_restored(
    players: int, deal: str, at: int
) -> None:
    """At the first card, a trick's last card (the draws owed), the last trick's and the hand's
    last (its end owed): the restored host signs what the stop cut off, the same records and
    messages, and the match ends verified."""
    options = TableOptions.make(players=players, hands_to_win=1)
    plain, _, before = _match(options, split=False, deal=deal)
    resumed, _, wire = _match(options, split=True, deal=deal, restore_at=at)
    assert wire.host.records == before.host.records
    # Every player had the same messages (the restored blind deal signs its keys at its
    # first tick, after the receipt it owed: the order of those two may differ).
    assert Counter(map(repr, resumed)) == Counter(map(repr, plain))
    assert verify_records(wire.host.records).ok
    for client in wire.clients:
        assert client.state.match_over and all(c.status == "verified" for c in client.state.checks)


def test_the_snapshot_keeps_what_is_owed() -> None:
    options = TableOptions.make(players=2, hands_to_win=1)
    host, clients, wire = seat_clients(options, entropy=random.Random(5).randbytes, deal="classic")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    hand = host.deal.hand  # type: ignore[union-attr]
    assert hand is not None
    seat = hand.current_player
    assert seat is not None
    view = clients[seat].state.view
    assert view is not None
    (msg,) = clients[seat].play(view.legal_plays[0])
    out = host.receive(seat, msg, settle=False)
    assert host.due and [type(o.message) for o in out] == [m.CardPlayed] * 2
    restored = HostTable.restore(host.snapshot(), identity=host.identity)
    assert restored.due and restored.receipts_due == host.receipts_due
    owed = restored.settle()
    assert not restored.due
    assert [type(o.message) for o in owed] == []  # nobody connected to the restored table
    assert restored.seats[seat].log[-1].__class__ is m.ReceiptIssued
