"""The small checks every follower of a match makes the same way: whether a statement is of this
game and hand and by this seat, and whether a seed opens its commitment.

The host refuses what fails them (table/), the verifier blames the host for publishing it
(fairness/verify/), and a client checks what it receives with the same functions.
"""

from __future__ import annotations

from enum import Enum

from briscola_lan.fairness.encoding import seed_commitment
from briscola_lan.fairness.statements import Statement


class Foreign(Enum):
    """Why a seat's statement is not its own statement for this game and hand."""

    GAME_OR_HAND = "statement for another game or hand"
    SEAT = "statement for a seat that is not yours"


def foreign(st: Statement, game_id: bytes, hand: int, seat: int) -> Foreign | None:
    """Whether ``st`` is of another game or hand, or made for another seat; None if it is the
    seat's own statement for this game and hand (the draw's hand number for the draw)."""
    if st.game_id != game_id or st.hand != hand:  # type: ignore[attr-defined]
        return Foreign.GAME_OR_HAND
    if st.seat != seat:  # type: ignore[attr-defined]
        return Foreign.SEAT
    return None


def seed_opens(game_id: bytes, hand: int, party: int, seed: bytes, commitment: bytes) -> bool:
    """Whether ``seed`` opens ``commitment``: the party's commitment for this game and hand (the
    draw's, or the host's with its party number) is exactly the commitment to this seed."""
    return seed_commitment(game_id, hand, party, seed) == commitment


__all__ = ["Foreign", "foreign", "seed_opens"]
