"""The AI players' pace: an AI plays ``ai_delay`` seconds after the last card played by anyone
(a person's card too), on the host's own clock; 0 plays at once."""

from __future__ import annotations

from briscola_lan.fairness.identity import Identity
from briscola_lan.rules import TableOptions
from briscola_lan.rules.cards import beats
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire

from .helpers import counter_entropy


def _table(ai_delay: float) -> tuple[HostTable, ClientSession, Wire]:
    entropy = counter_entropy(f"pace{ai_delay}")
    host = HostTable(
        TableOptions.make(players=2), name="Pace", identity=Identity.generate(entropy(32)),
        entropy=entropy, ai_seats={1: "random"}, ai_delay=ai_delay,
    )  # fmt: skip
    me = ClientSession(Identity.generate(entropy(32)), "Ann", entropy=entropy)
    host.tick(0.0)
    wire = Wire(host, [me])
    wire.deliver(host.connect(0))
    wire.send_to_host(0, me.hello())
    wire.pump()
    wire.send_to_host(0, [*me.take_seat(0), *me.ready(), *me.start()])
    wire.pump()
    return host, me, wire


def _plays(host: HostTable) -> int:
    return host.deal.plays_so_far if host.deal is not None else 0


def test_an_ai_waits_its_pace_after_a_persons_card() -> None:
    host, me, wire = _table(0.6)
    now = 0.0
    while me.state.view is None or not me.state.view.my_turn:  # the AI leads the first trick
        now += 0.1
        wire.deliver(host.tick(now))
        wire.pump()
        assert now < 30, "my first turn never came"
    now += 5.0  # I think for a while: the AI's last card is long ago
    wire.deliver(host.tick(now))
    wire.pump()
    view = me.state.view
    assert view is not None and len(view.trick) == 1
    led = view.trick[0][1]
    losing = [c for c in view.legal_plays if not beats(c, led, view.trump)]
    assert losing, "every card of mine takes the AI's lead: pick another label"
    wire.send_to_host(0, me.play(losing[0]))
    wire.pump()  # my card loses the first trick: the AI leads the next one
    after_me = _plays(host)
    wire.deliver(host.tick(now + 0.3))
    wire.pump()
    assert _plays(host) == after_me, "the AI played before its pace"
    wire.deliver(host.tick(now + 0.7))
    wire.pump()
    assert _plays(host) == after_me + 1, "the AI did not play once its pace was over"


def test_no_pace_plays_at_once() -> None:
    host, _me, wire = _table(0.0)
    wire.deliver(host.tick(0.05))
    wire.pump()
    assert _plays(host) == 1  # the AI led at the first tick
