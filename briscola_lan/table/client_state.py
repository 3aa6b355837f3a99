"""What a client session shows its front ends: ``ClientState`` (seats, the seat's view, standings,
the events seen, each hand's and the draw's verification as this client checked it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from briscola_lan.rules.cards import Card
from briscola_lan.table import events as ev

if TYPE_CHECKING:
    from briscola_lan.fairness.verify import Fault
    from briscola_lan.rules.events import TrickTaken as RulesTrickTaken
    from briscola_lan.rules.hand import SeatView
    from briscola_lan.rules.options import TableOptions
    from briscola_lan.rules.signals import SignalValue
    from briscola_lan.wire import messages as m
    from briscola_lan.wire.messages import SeatInfo


@dataclass(slots=True)
class HandCheck:
    """Verification of one hand as this client sees it.

    ``status`` and ``fault`` are the verdict of this client's file, as the checker has it (the
    offline verifier reaches the same on the same records); ``live`` is the first thing only a
    live client could see go wrong (fairness.md §8.10: a play's opening, an announced trick or
    match winner, a message for another seat), shown apart: it never changes the verdict."""

    hand: int
    status: str = "in progress"  # "in progress", "verified", "failed", "aborted"
    fault: Fault | None = None
    acks_match: bool | None = None  # every seat acknowledged the same history
    # Said to this player when the host blames its seat: what its own record shows.
    own_verdict: ev.OwnRecord | None = None
    live: Fault | None = None  # seen live only; not part of the file's verdict

    @property
    def summary(self) -> str:
        if self.own_verdict is not None:
            text = f"hand {self.hand + 1}: {self.status} — {self.own_verdict}"
        elif self.fault is not None:
            text = f"hand {self.hand + 1}: {self.status} — {self.fault.describe()}"
        else:
            text = f"hand {self.hand + 1}: {self.status}"
        return text if self.live is None else f"{text}; {live_words(self.live)}"


@dataclass(slots=True)
class DrawCheck:
    """The seat and dealer draw as this client saw and checked it (lobby seat numbers)."""

    draw_partners: bool
    draw_dealer: bool
    names: tuple[str, ...]  # lobby seat order
    my_lobby_seat: int | None
    levels: tuple[str, ...] = ()  # lobby seat order: an AI seat's level, "" for a person
    status: str = "in progress"  # "in progress", "verified", "failed", "aborted"
    cards: tuple[Card, ...] = ()  # card drawn by each lobby seat
    seating: tuple[int, ...] = ()  # match seat of each lobby seat
    dealer: int | None = None  # first dealer (match seat)
    fault: Fault | None = None
    # Said to this player when the host blames its lobby seat: what its own record shows.
    own_verdict: ev.OwnRecord | None = None
    live: Fault | None = None  # seen live only (as ``HandCheck.live``)

    @property
    def summary(self) -> str:
        if self.own_verdict is not None:
            text = f"draw: {self.status} — {self.own_verdict}"
        elif self.fault is not None:
            text = f"draw: {self.status} — {self.fault.describe()}"
        elif not self.cards:
            text = f"draw: {self.status}"
        else:
            drawn = ", ".join(f"{n} {c}" for n, c in zip(self.names, self.cards, strict=True))
            text = f"draw: {self.status} — {drawn}"
        return text if self.live is None else f"{text}; {live_words(self.live)}"


def live_words(fault: Fault) -> str:
    """A live-only finding as the log and the summaries write it (never the file's verdict)."""
    return str(ev.LiveFault(fault))


@dataclass(slots=True)
class ClientState:
    """Everything the UI shows; ``version`` grows on every change."""

    phase: str = "disconnected"  # disconnected, lobby, playing, over
    version: int = 0
    table_name: str = ""
    host_fingerprint: str = ""
    options: TableOptions | None = None
    seat: int | None = None
    resume_token: str | None = None
    seats: tuple[SeatInfo, ...] = ()
    game_id: str = ""
    hand_number: int = -1
    # ``view`` (a property below): None before the deal and while this seat's cards travel.
    _view: SeatView | None = field(default=None, repr=False)
    _view_of: Callable[[], SeatView | None] | None = field(default=None, repr=False, compare=False)
    hands_won: tuple[int, ...] = ()
    total_points: tuple[int, ...] = ()
    scores: tuple[int, ...] = ()  # five players: each seat's score summed over the match
    last_hand_points: tuple[int, ...] | None = None
    match_over: bool = False
    match_aborted: bool = False
    winner: int | None = None
    checks: list[HandCheck] = field(default_factory=list)
    events: list[ev.Event] = field(default_factory=list)  # what happened, in order
    errors: list[m.Error] = field(default_factory=list)
    notices: list[m.Notice] = field(default_factory=list)  # the host's notices (SPEC: notice)
    last_trick: RulesTrickTaken | None = None
    draw_partners: bool = False  # the table draws partnerships (4 players)
    draw_dealer: bool = False  # the table draws the first dealer
    hints: bool = False  # the host allows hints (welcome)
    draw: DrawCheck | None = None  # the draw of this match, once it started
    taken_over: bool = False  # the host's AI plays this seat (seat_taken_over), until handed back
    host_plays: tuple[int, ...] = ()  # the seats the host plays now: AI seats, taken over, left out
    deal: str = "classic"  # the table's deal: "blind" or "classic" (from the welcome)
    signals: list[SignalSeen] = field(default_factory=list)  # this hand's signals (§12)

    @property
    def partner_signals(self) -> tuple[tuple[int, SignalValue], ...]:
        """The partner's signals of this hand that this seat read: (play index, value), what
        ``SeatView.partner_signals`` carries to the hint and the review."""
        return tuple((x.index, x.value) for x in self.signals if not x.mine and x.value is not None)

    @property
    def verification(self) -> HandCheck | None:
        return self.checks[-1] if self.checks else None

    @property
    def view(self) -> SeatView | None:
        """This seat's view (None before the deal and while its cards travel), built when it is
        first read after a change: a UI or a bot reads it, not every message needs it."""
        make = self._view_of
        if make is not None:
            self._view, self._view_of = make(), None
        return self._view

    @view.setter
    def view(self, value: SeatView | None) -> None:
        self._view, self._view_of = value, None

    @property
    def log(self) -> list[str]:
        """The events' lines in English, in order (what the line client prints)."""
        return [line for e in self.events if (line := str(e))]


@dataclass(frozen=True, slots=True)
class SignalSeen:
    """A signal of the hand in progress as this seat saw it: who made it and when; its value
    when this seat can read it (its own, or its partner's), else None."""

    seat: int
    index: int  # plays made when it was made: trick ``index // 4``
    value: SignalValue | None
    mine: bool  # made by this seat
