"""The Briscola rules: cards, table options, hands, matches and per-seat views.

No I/O and no randomness: the deck order is always an argument. ``Hand`` and ``Match`` are
state machines changed in place as a game goes on; options, cards, events and ``SeatView`` are
immutable values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from briscola_lan.rules.auction import Bid, Contract
from briscola_lan.rules.cards import (
    ALL_CARDS,
    RANK_POINTS,
    Card,
    Rank,
    Suit,
    beats,
    deck_for,
    trick_winner_index,
)
from briscola_lan.rules.errors import (
    IllegalBid,
    IllegalPlay,
    MatchOver,
    NotYourTurn,
    OptionsError,
    RulesError,
)
from briscola_lan.rules.options import MatchFormat, TableOptions, all_variants

if TYPE_CHECKING:
    from briscola_lan.rules.chiamata import CallResult
    from briscola_lan.rules.events import (
        BidMade,
        CardCalled,
        CardDealt,
        CardPlayed,
        Event,
        HandEnded,
        HandPassedOut,
        HandsExchanged,
        TrickTaken,
        UpcardTurned,
    )
    from briscola_lan.rules.hand import Hand, SeatView, replay_hand
    from briscola_lan.rules.match import HandResult, Match, hand_winner
    from briscola_lan.rules.schedule import Phase

__all__ = [
    "ALL_CARDS",
    "RANK_POINTS",
    "Bid",
    "BidMade",
    "CallResult",
    "Card",
    "CardCalled",
    "CardDealt",
    "CardPlayed",
    "Contract",
    "Event",
    "Hand",
    "HandEnded",
    "HandPassedOut",
    "HandResult",
    "HandsExchanged",
    "IllegalBid",
    "IllegalPlay",
    "Match",
    "MatchFormat",
    "MatchOver",
    "NotYourTurn",
    "OptionsError",
    "Phase",
    "Rank",
    "RulesError",
    "SeatView",
    "Suit",
    "TableOptions",
    "TrickTaken",
    "UpcardTurned",
    "all_variants",
    "beats",
    "deck_for",
    "hand_winner",
    "replay_hand",
    "trick_winner_index",
]

# The hand and match machines and their events load when first used (``from briscola_lan.rules
# import Hand``, or any other of their names): a program that needs only cards and options (the
# client's lobby) starts without them.
_LAZY = {
    **dict.fromkeys(
        ("BidMade", "CardCalled", "CardDealt", "CardPlayed", "Event", "HandEnded",
         "HandPassedOut", "HandsExchanged", "TrickTaken", "UpcardTurned"),
        "events",
    ),
    "CallResult": "chiamata",
    "Phase": "schedule",
    **dict.fromkeys(("Hand", "SeatView", "replay_hand"), "hand"),
    **dict.fromkeys(("HandResult", "Match", "hand_winner"), "match"),
}  # fmt: skip


def __getattr__(name: str) -> object:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
