"""Facts a hand reports as it moves on, so that callers (the table, the fairness layer) can act.

``CardDealt`` names the deck position each card came from: the fairness layer opens the
commitment for exactly that position to exactly that seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card


@dataclass(frozen=True, slots=True)
class CardDealt:
    """A card from deck ``position`` went to ``seat`` (initial deal or a draw after a trick)."""

    seat: int
    card: Card
    position: int
    initial: bool


@dataclass(frozen=True, slots=True)
class UpcardTurned:
    """The upcard was turned face up: its suit is the briscola."""

    card: Card
    position: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """``seat`` played ``card``: the engine's fact. On the network the host relays the seat's
    signed play as ``wire.messages.CardPlayed`` (protocol/SPEC.md), the message of this fact."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """A trick completed: ``plays`` in play order, taken by ``winner`` for ``points``. The host
    announces only winner and points (``wire.messages.TrickTaken``); a client makes this from
    the plays it followed and compares."""

    winner: int
    plays: tuple[tuple[int, Card], ...]
    points: int


@dataclass(frozen=True, slots=True)
class HandsExchanged:
    """4 players, stock exhausted: each seat showed ``shown[seat]`` to its partner."""

    shown: tuple[tuple[Card, ...], ...]


@dataclass(frozen=True, slots=True)
class HandEnded:
    """All tricks played; card points per side (they sum to 120)."""

    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BidMade:
    """5 players: ``seat`` bid ``bid`` in the auction, or passed (``bid`` None)."""

    seat: int
    bid: Bid | None


@dataclass(frozen=True, slots=True)
class HandPassedOut:
    """5 players: everyone passed before a first bid; the hand is void and dealt again."""


@dataclass(frozen=True, slots=True)
class CardCalled:
    """5 players: the auction's winner ``seat`` called ``card``; its suit is the briscola and
    whoever holds it is the caller's secret partner."""

    seat: int
    card: Card


Event = (
    CardDealt
    | UpcardTurned
    | CardPlayed
    | TrickTaken
    | HandsExchanged
    | HandEnded
    | BidMade
    | HandPassedOut
    | CardCalled
)
