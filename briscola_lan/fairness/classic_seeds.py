"""What a classic hand and the seat and dealer draw share: the fault a check finds
(``ClassicFault``), a card's opening against its commitment, and the commit-reveal round of
seeds (``SeedRound``; protocol/fairness.md §3, §5, §7a).
"""

from __future__ import annotations

from collections.abc import Sequence

from briscola_lan.fairness.encoding import HOST_PARTY, card_commitment
from briscola_lan.fairness.predicates import seed_opens
from briscola_lan.fairness.statements import Opening, SeedCommit, SeedReveal


class ClassicFault(Exception):
    """A check of a classic hand failed: ``party`` is at fault (a seat, or HOST_PARTY for the host);
    ``record`` and ``kind`` name an earlier record when that one is the wrong one."""

    def __init__(self, party: int, reason: str, record: int | None = None, kind: str = "") -> None:
        super().__init__(reason)
        self.party, self.reason, self.record, self.kind = party, reason, record, kind


def opening_matches(game_id: bytes, hand: int, commitments: Sequence[bytes], o: Opening) -> bool:
    """Whether an opening opens the commitment at its position."""
    if not 0 <= o.position < len(commitments) or not 0 <= o.card < 40:
        return False
    return card_commitment(game_id, hand, o.position, o.card, o.salt) == commitments[o.position]


class SeedRound:
    """A commit-reveal round of seeds (a classic hand's, or the seat and dealer draw's): every
    seat commits in seat order, then every seat reveals in seat order; a reveal must open its
    seat's commitment (else that seat is at fault: it signed the reveal)."""

    def __init__(self, game_id: bytes, hand: int, players: int) -> None:
        self.game_id, self.hand, self.players = game_id, hand, players
        self.commits: list[bytes] = []
        self.seeds: list[bytes] = []

    @property
    def done(self) -> bool:
        return len(self.seeds) >= self.players

    def owed(self) -> tuple[str, int] | None:
        """The statement the round waits for and the seat that owes it; None once done."""
        if len(self.commits) < self.players:
            return SeedCommit.KIND, len(self.commits)
        if len(self.seeds) < self.players:
            return SeedReveal.KIND, len(self.seeds)
        return None

    def opens(self, seat: int, seed: bytes) -> bool:
        """Whether ``seed`` opens the seat's published commitment."""
        return seed_opens(self.game_id, self.hand, seat, seed, self.commits[seat])

    def on_commit(self, st: SeedCommit, what: str = "seed commitment") -> None:
        if len(self.commits) >= self.players or st.seat != len(self.commits):
            raise ClassicFault(HOST_PARTY, f"{what} out of order or duplicated")
        self.commits.append(st.commitment)

    def on_reveal(
        self,
        st: SeedReveal,
        *,
        early: str = "a seed was revealed before every seat had committed",
        what: str = "seed reveal",
        wrong: str = "revealed seed does not match the seat's commitment",
    ) -> None:
        """A published reveal: after every commitment, in seat order, opening its seat's
        commitment (else that seat is at fault, with ``wrong`` as the reason)."""
        if len(self.commits) < self.players:
            raise ClassicFault(HOST_PARTY, early)
        if len(self.seeds) >= self.players or st.seat != len(self.seeds):
            raise ClassicFault(HOST_PARTY, f"{what} out of order or duplicated")
        if not self.opens(st.seat, st.seed):
            raise ClassicFault(st.seat, wrong)
        self.seeds.append(st.seed)


__all__ = ["ClassicFault", "SeedRound", "opening_matches"]
