"""The host follows each classic hand with the machine the verifier and every client follow
(``ClassicHand``), and takes each record it is about to publish through it first: a record the
machine refuses (a bug of the host's own code) is never published."""

from __future__ import annotations

import dataclasses

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.statements import Deal, HostReveal, Opening, Upcard, decode
from briscola_lan.rules import TableOptions
from briscola_lan.table import deal_classic
from briscola_lan.table.deal_classic import ClassicDeal, OwnRecordRefused
from briscola_lan.table.host import HostTable, Phase
from briscola_lan.table.selfplay import play_out
from tests.table.helpers import classic, counter_entropy, cycle_chooser, hand_of, setup

FOUR = TableOptions.make(players=4, hands_to_win=1)
TWO = TableOptions.make(players=2, hands_to_win=1)


def _kinds(host: HostTable) -> list[str]:
    return [decode(body).KIND for body, _sig in host.records]


def test_the_host_follows_every_record_it_publishes_with_the_classic_machine() -> None:
    host, clients, wire = setup(FOUR, "own-records")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    deal = classic(host)
    machine = deal.machine
    assert machine is not None and machine.deck_commit is not None
    # the machine holds every seat's deals (the host's file) and sees what the engine sees
    engine = hand_of(host)
    assert engine is not None
    for seat in range(4):
        assert machine.view(seat) == engine.view(seat)
    play_out(wire, [cycle_chooser(i) for i in range(4)])
    assert machine.revealed and len(machine.plays) == 40
    assert verify_records(host.records).ok


def test_a_record_the_machine_refuses_is_never_published(monkeypatch: pytest.MonkeyPatch) -> None:
    """A host bug that would turn the upcard with the wrong salt: the machine refuses it before
    it is signed into the transcript, and the hand goes no further."""
    real = ClassicDeal._opening

    def wrong_upcard(self: ClassicDeal, pos: int) -> Opening:
        o = real(self, pos)
        if self.hand is not None and pos == self.hand.upcard_position:
            return dataclasses.replace(o, salt=bytes(32))
        return o

    monkeypatch.setattr(ClassicDeal, "_opening", wrong_upcard)
    host, clients, wire = setup(TWO, "own-upcard")
    with pytest.raises(OwnRecordRefused, match="upcard"):
        wire.send_to_host(0, clients[0].start())
        wire.pump()
    kinds = _kinds(host)
    assert "deal" in kinds and Upcard.KIND not in kinds
    rep = verify_records(host.records)
    assert rep.fault is None and rep.verdict == "incomplete"  # nothing wrong was published


def test_a_deal_off_the_schedule_is_never_published(monkeypatch: pytest.MonkeyPatch) -> None:
    real = ClassicDeal._send_deals

    def shifted(self: ClassicDeal, dealt: list[tuple[int, int]], out: list) -> None:  # type: ignore[type-arg]
        if self.hand is not None and len(self.hand.plays) == 2:  # the first draws, one off
            dealt = [(seat, position + 1) for seat, position in dealt]
        real(self, dealt, out)

    monkeypatch.setattr(ClassicDeal, "_send_deals", shifted)
    host, clients, wire = setup(TWO, "own-deal")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    before = len([k for k in _kinds(host) if k == Deal.KIND])
    with pytest.raises(OwnRecordRefused, match="deal"):
        play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    assert len([k for k in _kinds(host) if k == Deal.KIND]) == before
    assert verify_records(host.records).fault is None


def test_a_restored_host_rebuilds_the_machine_from_its_transcript() -> None:
    host, clients, wire = setup(TWO, "own-restore")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for _ in range(7):
        seat = hand_of(host).current_player  # type: ignore[union-attr]
        wire.send_to_host(seat, clients[seat].play(clients[seat].state.view.legal_plays[0]))  # type: ignore[union-attr]
        wire.pump()
    restored = HostTable.restore(
        host.snapshot(), identity=host.identity, entropy=counter_entropy("own-r")
    )
    assert restored.phase is Phase.PLAY
    was, now = classic(host).machine, classic(restored).machine
    assert was is not None and now is not None and now is not was
    assert len(now.plays) == len(was.plays) == 7
    assert now.sched.tricks == was.sched.tricks and now.cards == was.cards
    assert now.view(0) == was.view(0) and now.view(1) == was.view(1)


def test_a_snapshot_whose_hand_breaks_the_schedule_is_refused() -> None:
    host, clients, wire = setup(TWO, "own-damaged")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    # a deal record edited in the saved transcript: its opening no longer opens its commitment
    for i, (body, sig) in enumerate(host.records):
        st = decode(body)
        if isinstance(st, Deal):
            o = st.openings[0]
            wrong = dataclasses.replace(o, salt=bytes(32))
            bad = dataclasses.replace(st, openings=(wrong, *st.openings[1:]))
            host.records[i] = (bad.encode(), sig)
            break
    with pytest.raises(ValueError, match=r"damaged table snapshot: .* does not match"):
        HostTable.restore(host.snapshot(), identity=host.identity)


def test_the_host_checks_its_reveal_without_shuffling_or_replaying_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    shuffles = []
    real = deal_classic.deal_deck

    def counted(*args: object) -> object:
        shuffles.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(deal_classic, "deal_deck", counted)
    from briscola_lan.fairness import classic_hand

    monkeypatch.setattr(classic_hand, "deal_deck", counted)
    host, clients, wire = setup(TWO, "own-reveal")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(0), cycle_chooser(1)])
    assert HostReveal.KIND in _kinds(host)
    # the host shuffled once per hand; its machine took the reveal with that deck (the clients'
    # checkers shuffle again, each for itself)
    reveals = _kinds(host).count(HostReveal.KIND)
    assert len(shuffles) == reveals * (1 + len(clients))
