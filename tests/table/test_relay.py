"""HostTable.on_relay: a played card leaves before the host signs what follows it (the
player's receipt, the draws, the end of the hand)."""

from __future__ import annotations

import random

from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import Outgoing
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire import messages as m

RELAYED = (m.CardPlayed, m.TrickTaken)
Log = list[Outgoing]


def _match(options: TableOptions, hooked: bool) -> tuple[Log, list[Log], Wire]:
    """Play a seeded match; every message the host sent, in order, and the relayed batches."""
    host, clients, wire = seat_clients(
        options, entropy=random.Random(7).randbytes, clock=lambda: 1_800_000_000.0, deal="classic"
    )
    sent: list[Outgoing] = []
    batches: list[list[Outgoing]] = []
    deliver = wire.deliver

    def logged(outs: list[Outgoing]) -> None:
        sent.extend(outs)
        deliver(outs)

    wire.deliver = logged  # type: ignore[method-assign]
    if hooked:

        def relay(outs: list[Outgoing]) -> None:
            batches.append(list(outs))
            logged(outs)

        host.on_relay = relay
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    rng = random.Random(3)
    play_out(wire, [lambda v: rng.choice(v.legal_plays)] * options.players)
    return sent, batches, wire


def test_relay_sends_the_same_messages_in_the_same_order_cards_first() -> None:
    options = TableOptions.make(players=4, hands_to_win=1)
    plain, none, _ = _match(options, hooked=False)
    hooked, batches, wire = _match(options, hooked=True)
    assert none == []
    assert hooked == plain  # nothing lost, duplicated or reordered
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
