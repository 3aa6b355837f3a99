"""The verifiable deal: seeds, commitments, the deterministic shuffle, signed statements,
the transcript file and the offline verifier. Pure: no I/O beyond the identity and transcript files.
"""

from __future__ import annotations

from briscola_lan.fairness.identity import Identity, IdentityError, fingerprint, load_or_create
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
    "load_or_create",
    "shuffle_codes",
    "verify_records",
]
