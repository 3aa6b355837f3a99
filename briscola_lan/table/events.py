"""What a client session tells its front ends as it happens: one frozen event object per fact (a
card played, a trick taken, cards received, a fault found, a seat taken or left, a hand or the
match started or ended, a bid or a call at five players, ...), in ``ClientState.events`` in order.

The terminal client renders and translates them from their fields (``tui/eventlog.py``); the line
client and the bots print ``str(event)``, the event's line in English (empty for what the table
itself shows: a card played, a trick taken, cards received). Nothing parses those lines back.

Little is needed at run time (offline practice makes the play events too, without the verifier
or the wire); the other field types are annotations.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import TYPE_CHECKING

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.rules.cards import Card

if TYPE_CHECKING:
    from briscola_lan.fairness.verify import Fault
    from briscola_lan.rules.auction import Bid
    from briscola_lan.rules.chiamata import CallResult
    from briscola_lan.rules.events import TrickTaken as RulesTrickTaken
    from briscola_lan.rules.signals import SignalValue
    from briscola_lan.wire.messages import SeatInfo


@dataclass(frozen=True, slots=True)
class Event:
    """Something the session saw happen; ``str()`` is its line in English ("" for none)."""

    def __str__(self) -> str:
        return ""


# --- the connection and the lobby ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Joined(Event):
    """The host welcomed this client at its table."""

    table: str
    rules: str  # the table's options, as ``TableOptions.summary`` writes them

    def __str__(self) -> str:
        return f"joined table {self.table!r} ({self.rules})"


@dataclass(frozen=True, slots=True)
class ChallengeMalformed(Event):
    """The host's challenge cannot be answered with a proof (the host will refuse the hello)."""

    reason: str

    def __str__(self) -> str:
        return f"the host's challenge is malformed: {self.reason}"


@dataclass(frozen=True, slots=True)
class ConnectionLost(Event):
    """The transport is gone (the network layer reconnects, or says why it cannot)."""

    def __str__(self) -> str:
        return "connection lost"


@dataclass(frozen=True, slots=True)
class Ignored(Event):
    """A message this client has no use for (a newer host's)."""

    message: str  # its type's name

    def __str__(self) -> str:
        return f"ignored unexpected {self.message}"


@dataclass(frozen=True, slots=True)
class HostRefused(Event):
    """The host refused something this client sent (protocol/SPEC.md §7)."""

    code: str
    text: str  # the host's own words

    def __str__(self) -> str:
        return f"error ({self.code}): {self.text}"


@dataclass(frozen=True, slots=True)
class HostNotice(Event):
    """A notice in the host's own words."""

    text: str

    def __str__(self) -> str:
        return f"host: {self.text}"


class SeatChange(StrEnum):
    """How one seat changed in the lobby (or at the draw's reseating)."""

    TAKEN = "taken"
    MOVED = "moved"  # ``other``: the seat the player left
    LEFT = "left"
    FREED = "freed"  # its player did not come back in time
    AWAY = "away"  # its player's connection dropped: the seat is kept
    BACK = "back"
    READY = "ready"
    NOT_READY = "not ready"
    AI_SEATED = "ai seated"  # ``level``: the AI's
    AI_REMOVED = "ai removed"
    RESEATED = "reseated"  # the players moved to the seats the draw gave them


@dataclass(frozen=True, slots=True)
class SeatNews:
    """One change of the seats, as the session read it from the host's new seat list."""

    change: SeatChange
    seat: int
    name: str = ""
    other: int | None = None
    level: str = ""  # the seat's AI level ("" for a person)


def seat_news(before: tuple[SeatInfo, ...], after: tuple[SeatInfo, ...]) -> tuple[SeatNews, ...]:
    """What changed from one seat list of the host's to the next, seat by seat: a seat taken or
    left (or freed, its player away too long), a player moved, away or back, ready or not, an AI
    seated or removed; every seat changing hands at once is the draw's reseating."""
    old = {i.seat: i for i in before}
    full = len(before) == len(after) and all(i.occupied for i in (*before, *after))
    if (
        full
        and all(a.seat in old for a in after)
        and any((old[a.seat].public_key, old[a.seat].ai) != (a.public_key, a.ai) for a in after)
    ):
        return (SeatNews(SeatChange.RESEATED, -1),)
    came = {i.public_key: i.seat for i in after if i.occupied and i.ai is None}
    went = {i.public_key: i.seat for i in before if i.occupied and i.ai is None}
    news: list[SeatNews] = []
    for a in after:
        b = old.get(a.seat)
        if b is None:
            continue
        if a.occupied and not b.occupied:
            if a.ai is not None:
                news.append(SeatNews(SeatChange.AI_SEATED, a.seat, a.name, level=a.ai))
            elif went.get(a.public_key, a.seat) != a.seat:
                news.append(SeatNews(SeatChange.MOVED, a.seat, a.name, went[a.public_key]))
            else:
                news.append(SeatNews(SeatChange.TAKEN, a.seat, a.name))
        elif b.occupied and not a.occupied:
            if b.ai is not None:
                news.append(SeatNews(SeatChange.AI_REMOVED, a.seat, b.name, level=b.ai))
            elif came.get(b.public_key, b.seat) == b.seat:  # not a move (that says it)
                gone = SeatChange.LEFT if b.connected else SeatChange.FREED
                news.append(SeatNews(gone, a.seat, b.name))
        elif a.occupied and (a.public_key, a.ai) == (b.public_key, b.ai):
            if a.connected != b.connected:
                back = SeatChange.BACK if a.connected else SeatChange.AWAY
                news.append(SeatNews(back, a.seat, a.name, level=a.ai or ""))
            elif a.ready != b.ready:
                ready = SeatChange.READY if a.ready else SeatChange.NOT_READY
                news.append(SeatNews(ready, a.seat, a.name, level=a.ai or ""))
    return tuple(news)


@dataclass(frozen=True, slots=True)
class SeatsChanged(Event):
    """The host's new seat list: the changes the session read from it (none it could name: the
    host's words stand alone), and the host's own line about it."""

    changes: tuple[SeatNews, ...]
    said: str

    def __str__(self) -> str:
        return self.said


@dataclass(frozen=True, slots=True)
class PlayerConnection(Event):
    """During a match, a seat's player dropped or came back."""

    seat: int
    connected: bool

    def __str__(self) -> str:
        return f"seat {self.seat} {'reconnected' if self.connected else 'lost its connection'}"


# --- the draw and the match ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DrawStarted(Event):
    """The match opens with the verifiable draw of partners, first dealer, or both."""

    partners: bool
    dealer: bool

    def __str__(self) -> str:
        what = " and ".join(
            w for w, on in (("partners", self.partners), ("first dealer", self.dealer)) if on
        )
        return f"drawing cards for {what}"


@dataclass(frozen=True, slots=True)
class DrawRevealed(Event):
    """The draw's cards, one per lobby seat, and its verdict as this client checked it."""

    status: str  # "verified", "failed", "in progress"
    drawn: tuple[tuple[str, Card], ...]  # (name, card) in lobby seat order
    levels: tuple[str, ...] = ()  # lobby seat order: an AI seat's level, "" for a person

    def __str__(self) -> str:
        drawn = ", ".join(f"{n} drew {c}" for n, c in self.drawn)
        return f"draw {self.status}: {drawn}"


@dataclass(frozen=True, slots=True)
class DrawAborted(Event):
    """The host aborted the draw, for the reason it gave."""

    reason: str

    def __str__(self) -> str:
        return f"draw aborted: {self.reason}"


@dataclass(frozen=True, slots=True)
class MatchStarted(Event):
    """The match started with these players, in seat order (``levels``: an AI seat's level,
    "" for a person, as the signed match-start says)."""

    names: tuple[str, ...]
    levels: tuple[str, ...] = ()

    def __str__(self) -> str:
        return "the match started: " + ", ".join(self.names)


@dataclass(frozen=True, slots=True)
class SignalsAllowed(Event):
    """The table lets partners signal to each other (fairness.md §12)."""

    def __str__(self) -> str:
        return "partners may signal to each other at this table"


@dataclass(frozen=True, slots=True)
class SignalMade(Event):
    """A seat signalled to its partner; ``value`` when this seat can read it."""

    seat: int
    value: SignalValue | None
    mine: bool

    def __str__(self) -> str:
        return f"seat {self.seat} signalled"


@dataclass(frozen=True, slots=True)
class MatchEnded(Event):
    """The match is over: won by a side, or aborted."""

    winner: int | None
    aborted: bool

    def __str__(self) -> str:
        return "the match was aborted" if self.aborted else f"side {self.winner} won the match"


# --- a hand -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandStarted(Event):
    """A hand starts (``hand`` counts from 0), dealt by ``dealer``."""

    hand: int
    dealer: int
    blind: bool

    def __str__(self) -> str:
        deal = " (blind deal)" if self.blind else ""
        return f"hand {self.hand + 1} started{deal}, seat {self.dealer} deals"


@dataclass(frozen=True, slots=True)
class LeftOut(Event):
    """The host plays this client's seat this blind hand; ``receipted``: although its receipt
    for the seat's answer to the call is in this client's record (the host is at fault)."""

    receipted: bool

    def __str__(self) -> str:
        if self.receipted:
            return (
                "the host left you out of this hand and plays your seat, although it received "
                "your answer to its call (its receipt is in your record): the host is at fault"
            )
        return (
            "the host plays your seat this hand: you were not at the table when it began (or "
            "your answer to its call came too late)"
        )


@dataclass(frozen=True, slots=True)
class SittingOut(Event):
    """This client found the host at fault earlier in the match: it takes no part in later
    blind hands, and the host plays its seat."""

    def __str__(self) -> str:
        return (
            "your client found the host at fault earlier in this match and takes no part in its "
            "later hands: the host plays your seat (leave the table to stop)"
        )


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


@dataclass(frozen=True, slots=True)
class CardsReceived(Event):
    """Cards of this seat's came: its deal, or its draw after a trick (``drawn``)."""

    hand: int
    cards: tuple[Card, ...]
    drawn: bool


@dataclass(frozen=True, slots=True)
class CardPlayed(Event):
    """A card was played, as the hand's machine took it."""

    hand: int
    seat: int
    card: Card
    mine: bool  # this client's seat played it


@dataclass(frozen=True, slots=True)
class TrickTaken(Event):
    """A trick was taken (its winner, cards and points, from the records)."""

    hand: int
    trick: RulesTrickTaken


@dataclass(frozen=True, slots=True)
class Complained(Event):
    """A party says a card does not open (a blind hand): every party reveals its keys."""

    party: int  # a seat, or HOST_PARTY

    def __str__(self) -> str:
        who = "the host" if self.party == HOST_PARTY else f"seat {self.party}"
        return f"{who} says a card does not open: every party reveals its keys"


@dataclass(frozen=True, slots=True)
class KeysOverdue(Event):
    """Key reveals of a blind hand that did not come in time, named; its result stands."""

    withheld: tuple[Fault, ...]

    def __str__(self) -> str:
        names = ", ".join(f.party for f in self.withheld)
        return (
            f"key reveals did not come in time: {names}; the hand's result stands on its proved "
            "plays"
        )


@dataclass(frozen=True, slots=True)
class HandEnded(Event):
    """A hand's result: the points of each side; at five players the call, its partner and
    each seat's score by the table of weights (``call``)."""

    hand: int
    points: tuple[int, ...]
    passed_out: bool = False  # five players: everyone passed; the same dealer deals again
    call: CallResult | None = None

    def __str__(self) -> str:
        if self.passed_out:
            return f"hand {self.hand + 1}: everyone passed, the same dealer deals again"
        line = f"hand {self.hand + 1} ended: points {list(self.points)}"
        return line if self.call is None else f"{line}; {call_words(self.call)}"


def call_words(call: CallResult) -> str:
    """Five players: a hand's call in English, as ``briscola-lan verify`` words it."""
    partner = "alone" if call.alone else f"partner seat {call.partner}"
    return (
        f"seat {call.caller} called {call.called.label(ascii_only=True)} ({partner}): the "
        f"callers {'won' if call.won else 'lost'} with {call.points} of {call.target}; scores "
        f"{list(call.scores)}"
    )


@dataclass(frozen=True, slots=True)
class HandAborted(Event):
    """The host aborted the hand, for the reason it gave."""

    hand: int
    reason: str

    def __str__(self) -> str:
        return f"hand aborted: {self.reason}"


@dataclass(frozen=True, slots=True)
class DealtAgain(Event):
    """The aborted hand counts for nothing: the same dealer deals it again (§8.7)."""

    def __str__(self) -> str:
        return "the hand counts for nothing: the same dealer deals again"


@dataclass(frozen=True, slots=True)
class Benched(Event):
    """Two aborts named this client's seat: the host plays it to the end of the match."""

    def __str__(self) -> str:
        return "two aborted hands named your seat: the host plays it to the end of the match"


@dataclass(frozen=True, slots=True)
class TakenOver(Event):
    """The host's AI plays a seat from now on (``ai``), or gives it back to its player."""

    seat: int
    ai: bool
    mine: bool

    def __str__(self) -> str:
        if self.mine:
            return (
                "an AI plays your seat until you are back"
                if self.ai
                else "you play your seat again"
            )
        who = "an AI now plays" if self.ai else "its player is back in"
        return f"{who} seat {self.seat}"


@dataclass(frozen=True, slots=True)
class AckNotRelayed(Event):
    """This client's acknowledgement is not among the ones the host relayed."""

    def __str__(self) -> str:
        return (
            "your acknowledgement is not among the relayed ones: the host refused it or did not "
            "relay it"
        )


# --- the checks ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class FaultFound(Event):
    """The checker found a fault: the verdict of the draw (``draw``) or of the hand."""

    fault: Fault
    draw: bool

    def __str__(self) -> str:
        return f"{'draw ' if self.draw else ''}verification failed: {self.fault.describe()}"


@dataclass(frozen=True, slots=True)
class LiveFault(Event):
    """What only a live client saw go wrong (fairness.md §8.10): never the file's verdict."""

    fault: Fault

    def __str__(self) -> str:
        return f"live check failed (the saved file cannot show it): {self.fault.describe()}"


class OwnWord(StrEnum):
    """What a player's own record says when the host's abort names its seat."""

    EVIDENCE = "evidence"  # the host's own evidence opens the seat's commitment
    RECEIPT = "receipt"  # the host's receipt shows the owed statement came
    OWED_NOTHING = "owed nothing"  # the seat owed nothing when the hand stopped
    CANNOT_TELL = "cannot tell"  # no receipt: the host or the seat, cannot be told apart


# What a seat failed to do, by the statement an abort says it owed.
OWED_WORDS = {
    "seed-reveal": "reveal your seed",
    "seed-commit": "commit",
    "shuffle": "shuffle the deck",
    "lock": "lock the deck",
    "shares": "send your keys for the cards being dealt",
    "show": "show your hand to your partner",
    "blind-play": "play",
    "key-reveal": "reveal your keys",
    "bid": "bid",
    "call": "call a card",
}


@dataclass(frozen=True, slots=True)
class OwnRecord(Event):
    """What this player's own record says when the host's abort names its seat (fairness.md
    §8.10): ``owed`` and ``time`` for a receipt (the statement kind, when the host had it)."""

    word: OwnWord
    owed: str = ""
    time: int = 0

    def __str__(self) -> str:
        if self.word is OwnWord.EVIDENCE:
            return (
                "the host claims your seed reveal does not open your commitment, but the reveal "
                "it published as evidence opens it, so the host is at fault"
            )
        if self.word is OwnWord.RECEIPT:
            what = OWED_WORDS.get(self.owed, "answer")
            return (
                f"the host claims you did not {what}; your {self.owed} was received at "
                f"{self.when} (the host's signed receipt is in your record), so the host is at "
                "fault"
            )
        if self.word is OwnWord.OWED_NOTHING:
            return (
                "the host stopped the hand naming you, but you owed nothing: the host is at fault"
            )
        return (
            "the host says you did not answer in time; no receipt in your record proves "
            "otherwise, so your file says: the host or you, cannot be told apart"
        )

    @property
    def when(self) -> str:
        """The receipt's time, as the English line writes it (a time no clock can show, as the
        host signed it: the seconds since 1970)."""
        return receipt_time(self.time)


def receipt_time(time: int) -> str:
    """A receipt's time of day in UTC ("14:03:59 UTC"), or its number of seconds since 1970
    when no calendar holds it (a host can sign any number)."""
    try:
        return datetime.fromtimestamp(time, UTC).strftime("%H:%M:%S UTC")
    except (OverflowError, OSError, ValueError):
        return f"{time} s"


__all__ = [
    "OWED_WORDS",
    "AckNotRelayed",
    "Benched",
    "BidMade",
    "CardCalled",
    "CardPlayed",
    "CardsReceived",
    "ChallengeMalformed",
    "Complained",
    "ConnectionLost",
    "DealtAgain",
    "DrawAborted",
    "DrawRevealed",
    "DrawStarted",
    "Event",
    "FaultFound",
    "HandAborted",
    "HandEnded",
    "HandStarted",
    "HostNotice",
    "HostRefused",
    "Ignored",
    "Joined",
    "KeysOverdue",
    "LeftOut",
    "LiveFault",
    "MatchEnded",
    "MatchStarted",
    "OwnRecord",
    "OwnWord",
    "PlayerConnection",
    "SeatChange",
    "SeatNews",
    "SeatsChanged",
    "SignalMade",
    "SignalsAllowed",
    "SittingOut",
    "TakenOver",
    "TrickTaken",
    "call_words",
    "receipt_time",
    "seat_news",
]
