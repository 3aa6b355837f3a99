"""The shared predicates: a statement of another game, hand or seat; a seed opening its commit."""

from __future__ import annotations

from briscola_lan.fairness.encoding import HOST_PARTY, seed_commitment
from briscola_lan.fairness.predicates import Foreign, foreign, seed_opens
from briscola_lan.fairness.statements import SeedReveal

GAME = bytes(range(16))
OTHER = bytes(16)


def test_foreign_names_what_differs() -> None:
    st = SeedReveal(GAME, 2, 1, bytes(32), bytes(32))
    assert foreign(st, GAME, 2, 1) is None
    assert foreign(st, OTHER, 2, 1) is Foreign.GAME_OR_HAND
    assert foreign(st, GAME, 3, 1) is Foreign.GAME_OR_HAND
    assert foreign(st, GAME, 2, 0) is Foreign.SEAT
    assert foreign(st, OTHER, 2, 0) is Foreign.GAME_OR_HAND  # the game is checked first


def test_a_seed_opens_only_its_own_commitment() -> None:
    seed = bytes(range(32))
    c = seed_commitment(GAME, 0, 1, seed)
    assert seed_opens(GAME, 0, 1, seed, c)
    assert not seed_opens(GAME, 0, 1, bytes(32), c)  # another seed
    assert not seed_opens(GAME, 1, 1, seed, c)  # another hand
    assert not seed_opens(GAME, 0, 2, seed, c)  # another seat
    assert not seed_opens(OTHER, 0, 1, seed, c)  # another game
    host = seed_commitment(GAME, 0, HOST_PARTY, seed)
    assert seed_opens(GAME, 0, HOST_PARTY, seed, host) and not seed_opens(GAME, 0, 0, seed, host)
