"""One blind hand between fixed parties, for the vector generators (protocol/fairness.md §11).

Every statement of a whole 2-player hand (parties seat 0 and seat 1), made by the reference
parties from fixed hand secrets, in transcript order (the host's blind-end, after the last play,
is not among them); the vectors take their examples from it.
"""

from __future__ import annotations

import hashlib

from briscola_lan.fairness.blind_hand import BlindHand, BlindStatement
from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.statements import (
    BlindPlay,
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
    chain = ContextChain()  # the contexts, over this hand's statements alone
    party = {q: BlindParty(hand, q, secret(f"blind/{q}"), chain.expected) for q in parties}
    out: list[Statement] = []

    def feed(st: Statement) -> None:
        index = len(out)
        out.append(st)
        assert isinstance(st, BlindStatement)
        chain.published(st.KIND, st.encode())
        hand.apply(st, index)

    while hand.expected() != "done":
        if hand.expected() == "end":  # the result, fixed by the plays; the key reveals follow
            hand.on_end()
            hand.reveal_context = chain.expected(KeyReveal.KIND)
            continue
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
