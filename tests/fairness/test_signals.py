"""Signals on the record: only the two partners can open a sealed signal, and a seat signals at
the moment the hand is at, at most once a trick."""

from __future__ import annotations

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.signals import SignalBook, pad, partners_point, seal, unseal
from briscola_lan.rules.signals import SignalValue

GAME = bytes(range(16))


def test_only_the_partners_open_a_signal() -> None:
    seats = [Identity.generate(bytes([i]) * 32) for i in range(4)]
    sender, partner, opponent = seats[1], seats[3], seats[0]
    point = partners_point(sender.private_bytes(), partner.public_key)
    assert point == partners_point(partner.private_bytes(), sender.public_key)
    for value in SignalValue:
        sealed = seal(value, pad(GAME, 2, 1, 9, point))
        assert unseal(sealed, pad(GAME, 2, 1, 9, point)) is value
    # an opponent can make a point with either partner's public key, but not theirs: its pad
    # is another one, so a sealed value opens to something else (or to nothing)
    real = pad(GAME, 2, 1, 9, point)
    for p in (
        partners_point(opponent.private_bytes(), sender.public_key),
        partners_point(opponent.private_bytes(), partner.public_key),
    ):
        assert p != point and pad(GAME, 2, 1, 9, p) != real
    # every moment has its own pad: a sealed value says nothing of the next one
    pads = {pad(GAME, h, s, i, point) for h in range(2) for s in (1, 3) for i in range(40)}
    assert len(pads) == 160


def test_a_seat_signals_once_a_trick_at_the_moment_the_hand_is_at() -> None:
    book = SignalBook(players=4, plays=40)
    assert book.problem(1, 0, 0) is None
    book.add(1, 0)
    assert "already signalled" in (book.problem(1, 3, 3) or "")
    assert book.problem(3, 3, 3) is None  # the partner may, in the same trick
    assert book.problem(1, 4, 4) is None  # the next trick
    assert "cards are played" in (book.problem(2, 5, 6) or "")  # not at another moment
    assert "all played" in (book.problem(2, 40, 40) or "")
    assert "no seat" in (book.problem(4, 6, 6) or "")
