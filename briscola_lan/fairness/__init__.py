"""The verifiable deal: seeds, commitments, the deterministic shuffle, signed statements,
the transcript file and the offline verifier. Pure: it writes no file (``net.files`` does) and
reads only a saved game (``transcript.load``, for ``verify``).
"""

from __future__ import annotations

from briscola_lan.fairness.identity import Identity, IdentityError, fingerprint
from briscola_lan.fairness.shuffle import SHUFFLE_VERSION, deal_deck, shuffle_codes
from briscola_lan.fairness.verify import HOST, Fault, MatchReport, verify_records

__all__ = [
    "HOST",
    "SHUFFLE_VERSION",
    "Fault",
    "Identity",
    "IdentityError",
    "MatchReport",
    "deal_deck",
    "fingerprint",
    "shuffle_codes",
    "verify_records",
]
