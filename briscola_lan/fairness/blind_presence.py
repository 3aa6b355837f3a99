"""The call that opens a blind hand (protocol/fairness.md §11.3): which people's seats answered
it, and so the hand's parties."""

from __future__ import annotations

from collections.abc import Sequence

from briscola_lan.fairness.blind_fault import BlindFault
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import Present


class Presence:
    """The call that opens a blind hand (§11.3): which human seats answered it with a
    ``present``, and so the hand's parties once the host published the answers."""

    def __init__(self, human: Sequence[bool]) -> None:
        self.human = tuple(human)
        self.present: dict[int, int] = {}  # seat -> its present's record
        self.parties: tuple[int, ...] | None = None  # fixed when the round closes

    @property
    def closed(self) -> bool:
        return self.parties is not None

    def on_present(self, st: Present, record: int) -> None:
        """A published present (the host must have checked it: any fault here is the host's)."""
        if self.parties is not None:
            raise BlindFault(HOST_PARTY, "a present after the hand's parties were fixed")
        if not 0 <= st.seat < len(self.human) or not self.human[st.seat]:
            raise BlindFault(
                HOST_PARTY, "only a person's seat answers the call: an AI seat is the host's"
            )
        if self.present and st.seat <= max(self.present):
            raise BlindFault(HOST_PARTY, "the presents must be published once each, in seat order")
        self.present[st.seat] = record

    def close(self) -> tuple[int, ...]:
        """The parties: the seats that answered, in seat order, then the host exactly when it
        plays some seat (an AI seat, or a person's seat that did not answer)."""
        if self.parties is None:
            seats = tuple(sorted(self.present))
            self.parties = (*seats, HOST_PARTY) if len(seats) < len(self.human) else seats
        return self.parties

    def left_out(self) -> tuple[int, ...]:
        """The people's seats that are not parties of the hand (the host plays them)."""
        return tuple(s for s, h in enumerate(self.human) if h and s not in self.present)


__all__ = ["Presence"]
