"""The fault a check of a blind hand finds: the party at fault, and the record that shows it."""

from __future__ import annotations

from briscola_lan.fairness.encoding import HOST_PARTY


class BlindFault(Exception):
    """A check of a blind hand failed: ``party`` is at fault (a seat, or HOST_PARTY for the host);
    ``record`` names an earlier record when that one is the wrong one."""

    def __init__(
        self,
        party: int,
        reason: str,
        record: int | None = None,
        kind: str = "",
        *,
        also_host: bool = False,
    ) -> None:
        super().__init__(reason)
        self.party, self.reason, self.record, self.kind = party, reason, record, kind
        self.also_host = also_host  # the record cannot tell the host and the party apart


def party_name(party: int) -> str:
    """How a verdict names a party: the host or its seat."""
    return "the host" if party == HOST_PARTY else f"seat {party}"


__all__ = ["BlindFault", "party_name"]
