"""Signals between partners at 4 players (the "segni" of Briscola in four) on the record: sealing
one so that only the two partners can read it, and when a seat may make one (protocol/fairness.md
§12). What each signal says is the rules' (``rules.signals``).

A signal is a small number (``SignalValue``); on the wire and in the transcript it travels
sealed: ``sealed = value XOR pad``, where the pad is a hash of the hand, the seat, the moment and a
Diffie–Hellman point that only the sender and its partner can compute from their identity keys.
Everyone sees that a seat signalled, and when; only the partners see what. Nothing checks that a
signal is true: a player may bluff, as at a real table.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from nacl.bindings import crypto_scalarmult_ed25519
from nacl.exceptions import RuntimeError as NaclRuntimeError

from briscola_lan.fairness.encoding import digest
from briscola_lan.rules.signals import SignalValue, consistent, truthful

# --- sealing -------------------------------------------------------------------------------------


class SignalKeyError(ValueError):
    """A key the partners' Diffie–Hellman point cannot be made from."""


def secret_scalar(private_seed: bytes) -> bytes:
    """An identity's Ed25519 secret scalar, before clamping (RFC 8032 §5.1.5): the first half of
    SHA-512 of its 32-byte private key. ``crypto_scalarmult_ed25519`` clamps it as RFC 8032 does."""
    if len(private_seed) != 32:
        raise SignalKeyError("an Ed25519 private key is 32 bytes")
    return hashlib.sha512(private_seed).digest()[:32]


def partners_point(private_seed: bytes, partner_key: bytes) -> bytes:
    """The point only two partners can compute: [a]P, a the clamped secret scalar of one, P the
    other's identity key (a point of the prime-order subgroup): both get a·b·B."""
    try:
        return bytes(crypto_scalarmult_ed25519(secret_scalar(private_seed), partner_key))
    except (NaclRuntimeError, ValueError, TypeError) as exc:
        raise SignalKeyError(f"cannot make the partners' point: {exc}") from exc


def pad(game_id: bytes, hand: int, seat: int, index: int, point: bytes) -> int:
    """The 32-bit pad of one signal (fairness.md §12.3): unique to the game, hand, seat and the
    plays made when it was made (a seat signals at most once a trick)."""
    return int.from_bytes(digest("signal-pad", game_id, hand, seat, index, point)[:4], "big")


def seal(value: int, pad_value: int) -> int:
    return (int(value) ^ pad_value) & 0xFFFFFFFF


def unseal(sealed: int, pad_value: int) -> SignalValue | None:
    """The value of a sealed signal, or None when it opens to no signal (a sender's garbage)."""
    raw = (sealed ^ pad_value) & 0xFFFFFFFF
    try:
        return SignalValue(raw)
    except ValueError:
        return None


# --- when a seat may signal ----------------------------------------------------------------------


@dataclass(slots=True)
class SignalBook:
    """The signals of one hand so far, and the rule a new one must keep (fairness.md §12.4): made
    at the moment the hand is at (``index`` = plays made), while cards remain to be played, at
    most once per seat per trick."""

    players: int
    plays: int  # the cards of a whole hand (40 at 4 players)
    made: dict[int, set[int]] = field(default_factory=dict)  # seat -> tricks it signalled in

    def problem(self, seat: int, index: int, plays_made: int) -> str | None:
        """Why a signal by ``seat`` at ``index`` cannot be taken now (None: it can)."""
        if not 0 <= seat < self.players:
            return f"no seat {seat} at this table"
        if index != plays_made:
            return f"a signal made at play {index}, but {plays_made} cards are played"
        if plays_made >= self.plays:
            return "the hand's cards are all played: no signal now"
        if plays_made // self.players in self.made.get(seat, set()):
            return f"seat {seat} already signalled in this trick"
        return None

    def add(self, seat: int, index: int) -> None:
        self.made.setdefault(seat, set()).add(index // self.players)


__all__ = [
    "SignalBook",
    "SignalKeyError",
    "SignalValue",
    "consistent",
    "pad",
    "partners_point",
    "seal",
    "secret_scalar",
    "truthful",
    "unseal",
]
