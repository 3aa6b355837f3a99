"""The seat and dealer draw as a file records it (§7a): its start, the seats' seed round, the
host's reveal of what the seeds draw, and whom an unfinished draw waits for.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from briscola_lan.fairness.classic_hand import SeedRound
from briscola_lan.fairness.draw import DrawResult, draw
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY, draw_seed
from briscola_lan.fairness.identity import verify_signature
from briscola_lan.fairness.predicates import seed_opens
from briscola_lan.fairness.statements import DrawReveal, DrawStart, SeedCommit, SeedReveal
from briscola_lan.fairness.verify.report import HOST, Waiting


def draw_result(st: DrawStart, host_seed: bytes, seeds: Sequence[bytes]) -> DrawResult:
    """The draw the seeds give (§7a): the full 40-card pack, lobby seat i takes position i."""
    return draw(
        range(40),
        draw_seed(st.game_id, host_seed, list(seeds)),
        st.players,
        draw_partners=bool(st.draw_partners),
        draw_dealer=bool(st.draw_dealer),
    )


def draw_start_problem(st: DrawStart, body: bytes, sig: bytes) -> str | None:
    """Why a draw-start cannot open a match (the host's fault), or None."""
    if not verify_signature(st.host_key, body, sig):
        return "bad host signature on draw-start"
    n = st.players
    if n not in (2, 3, 4):
        return f"a draw for {n} players"
    if not (len(st.seat_keys) == len(st.names) == n):
        return f"draw-start must list {n} seats"
    if st.draw_partners not in (0, 1) or st.draw_dealer not in (0, 1):
        return "draw flags must be 0 or 1"
    if st.draw_partners and n != 4:
        return "partnerships are drawn only at 4 players"
    return None


@dataclass(slots=True)
class DrawState:
    """A draw followed from its records."""

    start: DrawStart
    seeds: SeedRound = field(init=False)
    result: DrawResult | None = None
    aborted: bool = False

    def __post_init__(self) -> None:
        self.seeds = SeedRound(self.start.game_id, DRAW_HAND, self.start.players)

    def on_commit(self, st: SeedCommit) -> None:
        self.seeds.on_commit(st, what="draw seed commitment")

    def on_reveal(self, st: SeedReveal) -> None:
        self.seeds.on_reveal(
            st,
            early="a draw seed was revealed before every commitment",
            what="draw seed reveal",
            wrong="revealed draw seed does not match the seat's commitment "
            f"(lobby seat {st.seat}, {self.start.names[st.seat]!r})",
        )

    def reveal_problem(self, st: DrawReveal) -> str | None:
        """Why the host's draw-reveal is wrong, or None (then ``result`` is set)."""
        if not self.seeds.done:
            return "the draw was revealed before every seat revealed its seed"
        if not seed_opens(st.game_id, DRAW_HAND, HOST_PARTY, st.host_seed, self.start.commitment):
            return "host draw seed does not match the host's commitment"
        result = draw_result(self.start, st.host_seed, self.seeds.seeds)
        if (tuple(st.cards), tuple(st.seating), st.dealer) != (
            result.cards,
            result.seating,
            result.dealer,
        ):
            return "the announced cards, seats or dealer are not what the seeds draw"
        self.result = result
        return None

    def waiting(self) -> Waiting:
        """Who an unfinished draw waits for (a lobby seat, or the host's draw-reveal)."""
        owed = self.seeds.owed()
        if owed is None:
            return Waiting(HOST, "the draw-reveal: the draw is not finished", lobby=True)
        kind, seat = owed
        what = owed_words(kind, seat, seed="draw seed")
        return Waiting(seat, f"{self.start.names[seat]!r}: {what}", lobby=True)


def owed_words(kind: str, party: int, *, seed: str = "seed", after_end: bool = False) -> str:
    """What a party owes next, as the reports write it (``party`` HOST for the host)."""
    if kind == SeedCommit.KIND:
        return f"its commitment to its {seed}"
    if kind == SeedReveal.KIND:
        return f"the reveal of its {seed}"
    if after_end:  # a blind hand's key reveals, after its result
        return "its key reveal" if party != HOST else "the key reveal (the host's own)"
    return f"its {kind}" if party != HOST else f"the {kind} (the host's own)"


__all__ = ["DrawState", "draw_result", "draw_start_problem", "owed_words"]
