"""One blind hand between fixed parties, for the vector generators (protocol/fairness.md §11).

Every statement of a whole 2-player hand (parties seat 0 and seat 1), made by the reference
parties from fixed hand secrets, in transcript order; the vectors take their examples from it.
"""

from __future__ import annotations

import hashlib

from briscola_lan.fairness.blind_hand import BlindHand
from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.statements import (
    BlindPlay,
    Complaint,
    KeyReveal,
    LockPass,
    Shares,
    Show,
    ShufflePass,
    Statement,
)
from briscola_lan.rules import TableOptions


def secret(label: str) -> bytes:
    return hashlib.sha256(("briscola-lan vectors/" + label).encode()).digest()


def play_hand(
    options: TableOptions, game_id: bytes, parties: tuple[int, ...]
) -> tuple[BlindHand, dict[int, BlindParty], list[Statement]]:
    """Play one blind hand to its end (each seat plays its lowest card code)."""
    hand = BlindHand(options, game_id, 0, 0, parties)
    party = {q: BlindParty(hand, q, secret(f"blind/{q}")) for q in parties}
    out: list[Statement] = []

    def feed(st: Statement) -> None:
        index = len(out)
        out.append(st)
        if isinstance(st, ShufflePass):
            hand.on_shuffle(st, index)
        elif isinstance(st, LockPass):
            hand.on_lock(st, index)
        elif isinstance(st, Shares):
            hand.on_shares(st, index)
        elif isinstance(st, Show):
            hand.on_show(st, index)
        elif isinstance(st, BlindPlay):
            hand.on_play(st, index)
        elif isinstance(st, Complaint):
            hand.on_complaint(st, index)
        elif isinstance(st, KeyReveal):
            hand.on_key_reveal(st, index)

    while hand.expected() != "end":
        what, who = hand.owed()
        if what == Show.KIND:
            for st in sorted((s for p in party.values() for s in p.shows()), key=lambda s: s.seat):
                feed(st)
            continue
        if what == BlindPlay.KIND:
            seat = who[0]
            p = party[hand.owner(seat)]
            feed(p.play(seat, min(p.seat_cards(seat).values())))
            continue
        for q in who:
            made = {
                ShufflePass.KIND: party[q].shuffle,
                LockPass.KIND: party[q].lock,
                Shares.KIND: party[q].shares,
                KeyReveal.KIND: party[q].key_reveal,
            }[what]()
            assert made is not None, (what, q)
            feed(made)
    return hand, party, out
