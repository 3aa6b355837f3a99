"""Five players: what the client session tells its front ends of the auction and the call, as
events (``table/events.py`` has the rest): a seat's bid or pass, and the called card, with
whether this client holds it (it is the caller's partner). ``str()`` is the line client's line.
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card
from briscola_lan.table.events import Event


@dataclass(frozen=True, slots=True)
class BidMade(Event):
    """Five players: a seat bid in the auction (``bid`` None: it passed, and is out)."""

    hand: int
    seat: int
    bid: Bid | None
    mine: bool

    def __str__(self) -> str:
        return f"seat {self.seat} {'passes' if self.bid is None else f'bids {self.bid}'}"


@dataclass(frozen=True, slots=True)
class CardCalled(Event):
    """Five players: the auction's winner called a card; its suit is the briscola. ``partner``:
    this client holds the called card (it is the caller's partner; alone if it is the caller)."""

    hand: int
    seat: int
    card: Card
    mine: bool
    partner: bool

    def __str__(self) -> str:
        line = f"seat {self.seat} calls {self.card.label(ascii_only=True)} (briscola: its suit)"
        if self.partner:
            line += " - you hold it: " + ("you play alone" if self.mine else "you are the partner")
        return line


__all__ = ["BidMade", "CardCalled"]
