"""The verifier: checks a transcript of signed statements one by one and names who is at fault.

Used offline (``briscola-lan verify``) and by every client at the end of each hand. It checks
signatures, order, seed commitments and reveals, the shuffle, every card commitment and opening,
the public deal schedule, every play through the rules engine, the partner exchange, the points,
and that every seat acknowledged the same chain hash (protocol/fairness.md §8).

Blame rules: a seat is at fault only on evidence it signed itself (a seed reveal that does not
open the seat's commitment, published by the host or receipted to the seat). Everything the host
assembles and relays (order, context, signatures it should have checked, legality it should have
enforced, the deck, openings, points) is the host's fault. An abort for a statement that never
came, without evidence, is "the host or seat N": they cannot be told apart, unless the file holds
the host's receipt for that statement, which makes it the host's fault.

The package, by concern: ``report`` (the verdicts and who is at fault), ``start`` (the match's
opening record and its options), ``signatures``, ``draw`` (the seat and dealer draw), ``blame``
(aborts and receipts), ``state`` (what the checker keeps across a match), ``classic_records``
and ``blind_records`` (a hand's records, each taken by its machine:
``fairness.classic_hand.ClassicHand`` or ``fairness.blind_hand.BlindHand``), ``seat_records``
(receipts, evidence, aborts, acknowledgements, signals) and ``checker`` (``TranscriptChecker``,
which dispatches each record).
"""

from __future__ import annotations

from briscola_lan.fairness.classic_hand import opening_matches
from briscola_lan.fairness.verify.blame import BENCHED_AFTER, Receipted
from briscola_lan.fairness.verify.checker import TranscriptChecker, verify_records
from briscola_lan.fairness.verify.draw import draw_result
from briscola_lan.fairness.verify.report import (
    HOST,
    Blame,
    DrawReport,
    Fault,
    HandReport,
    MatchReport,
    Record,
    Violation,
    Waiting,
    party_name,
)
from briscola_lan.fairness.verify.start import AI_LEVELS, options_of, options_problem

__all__ = [
    "AI_LEVELS",
    "BENCHED_AFTER",
    "HOST",
    "Blame",
    "DrawReport",
    "Fault",
    "HandReport",
    "MatchReport",
    "Receipted",
    "Record",
    "TranscriptChecker",
    "Violation",
    "Waiting",
    "draw_result",
    "opening_matches",
    "options_of",
    "options_problem",
    "party_name",
    "verify_records",
]
