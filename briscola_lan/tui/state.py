"""UI state of the terminal client, kept apart from the layout: plain data the screens read.

``TableModel`` is what the table screen shows (filled by adapters from a rules ``SeatView`` or a
network ``ClientSession``); ``UiState`` is everything else the app remembers (screen, cursors,
overlays, the lobby list and the host form).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from briscola_lan.choices import default_deal
from briscola_lan.rules import Card, MatchFormat, Suit, TableOptions
from briscola_lan.rules.options import CHIAMATA_PLAYERS, MATCH_HANDS, POINTS_TO_WIN
from briscola_lan.rules.signals import SignalValue
from briscola_lan.tui.deck import Deck
from briscola_lan.tui.follow import Follow, HandOrder
from briscola_lan.tui.i18n import _
from briscola_lan.tui.widgets import Scroll

if TYPE_CHECKING:
    from briscola_lan.fairness.verify import Fault
    from briscola_lan.rules import Bid, CallResult, Contract, TrickTaken

MAX_LOG = 5000  # log lines kept: a whole match, several times over


def level_word(level: str) -> str:
    """An AI level as the player reads it (random, rules, strong)."""
    return {"random": _("random"), "rules": _("rules"), "strong": _("strong")}.get(level, level)


def ai_name(level: str, seat: int | None = None) -> str:
    """An AI player in the player's language, from its level and seat: "AI rules 1" ("IA
    regole 1"); "AI rules" without a seat (statistics)."""
    if seat is None:
        return _("AI {level}").format(level=level_word(level))
    return _("AI {level} {n}").format(level=level_word(level), n=seat)


def player_name(name: str, level: str = "", seat: int | None = None) -> str:
    """A seat's player as shown: an AI seat (its ``level`` known, from the seat list or the
    match-start) by its level and seat in the player's language; a person by the name they
    chose (a person may call themselves "AI rules 1": only the level makes an AI)."""
    return ai_name(level, seat) if level else name


class Screen(StrEnum):
    """The screens of the client."""

    LOBBY = "lobby"
    HOST_FORM = "host"
    TABLE = "table"
    LEARN = "learn"
    SAVED = "saved"
    STATS = "stats"


@dataclass(frozen=True, slots=True)
class SignalNote:
    """A signal of the hand in progress: who made it, in which trick (from 1), and what it
    said when this seat can read it (its own or its partner's; None: an opponent's)."""

    seat: int
    trick: int
    value: SignalValue | None


@dataclass(slots=True)
class SeatInfo:
    """One seat at the table as the client knows it."""

    seat: int
    name: str  # as shown: an AI seat's in the player's language
    is_ai: bool = False
    level: str = ""  # an AI seat's level (``choices.AI_LEVELS``)
    connected: bool = True
    occupied: bool = True


@dataclass(slots=True)
class Verification:
    """The deal verification result for one hand: verified, or what failed and whose fault.

    ``ok`` is None when there is nothing to check (offline practice).
    """

    ok: bool | None
    summary: str
    details: list[str] = field(default_factory=list)
    fault: Fault | None = None  # the failed check or the abort's blame: who is at fault
    live: str | None = None  # what only the live client saw go wrong: never the verdict


@dataclass(slots=True)
class HandSummary:
    """A finished hand as the end-of-hand panel shows it."""

    number: int
    points: tuple[int, ...]
    winner: int | None
    tiebreak: bool = False
    verification: Verification | None = None
    taken: tuple[tuple[Card, ...], ...] = ()  # the cards each side took (empty: not known)
    upcard: Card | None = None  # the face-up briscola, and who drew it with the stock's last card
    upcard_taken_by: int | None = None
    call: CallResult | None = None  # 5 players: the contract, the callers, each seat's score


@dataclass(slots=True)
class TableModel:
    """Everything the table screen shows; the adapters keep it up to date."""

    title: str = ""  # the backend names the table
    my_seat: int = 0
    options: TableOptions = field(default_factory=TableOptions)
    seats: list[SeatInfo] = field(default_factory=list)
    started: bool = False
    hand_number: int = 0
    dealer: int = 0
    hand: tuple[Card, ...] = ()
    trump: Suit | None = None
    upcard: Card | None = None
    upcard_taken_by: int | None = None
    stock_left: int = 0
    trick: tuple[tuple[int, Card], ...] = ()
    last_trick: TrickTaken | None = None
    to_play: int | None = None
    tricks_won: tuple[int, ...] = ()
    hand_sizes: tuple[int, ...] = ()  # cards each seat holds (public: everyone can count them)
    points: tuple[int, ...] = ()
    partner_shown: tuple[Card, ...] | None = None
    hands_won: tuple[int, ...] = ()
    total_points: tuple[int, ...] = ()
    hand_results: list[HandSummary] = field(default_factory=list)
    hand_over: bool = False
    match_winner: int | None = None
    match_over: bool = False
    connection: str = "local"  # "local", "connected", "reconnecting", "closed"
    closed_why: str | None = None  # why a network table is closed for good, in the player's words
    log: list[str] = field(default_factory=list)
    error: str | None = None
    waiting: str | None = None  # shown instead of the table while no hand is on
    seated: bool = True  # False while a network client holds no seat (looking, full, refused)
    can_fill_ai: bool = False  # I manage a waiting table with open seats: f seats AI players
    known: bool = True  # False until the table's rules are known (before the host's welcome)
    deal: str = ""  # the table's deal, "blind" or "classic", once known
    host_plays: tuple[int, ...] = ()  # the seats the host plays this hand (its AI, a seat away)
    signals: tuple[SignalNote, ...] = ()  # this hand's signals, as this seat saw them
    live: bool = True  # False while the host replays a resumed seat's messages (no turn then)
    # Five players (Briscola chiamata): the auction so far ((seat, bid or None: a pass), in
    # order), whose bid or call it is, the bids I may make, the contract once called, the
    # caller's partner as I know it (None: not yet known), and the match's score per seat.
    auction: tuple[tuple[int, Bid | None], ...] = ()
    to_bid: int | None = None
    to_call: int | None = None
    legal_bids: tuple[Bid, ...] = ()
    contract: Contract | None = None
    partner: int | None = None
    scores: tuple[int, ...] = ()
    changes: int = 0

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def my_turn(self) -> bool:
        return (
            self.live
            and self.closed_why is None  # a table closed for good: nobody to play to
            and self.waiting is None  # cards on their way, a replay, no hand: no turn
            and self.seated
            and self.started
            and not self.hand_over
            and self.to_play == self.my_seat
        )

    def _may_act(self) -> bool:
        return (
            self.live
            and self.closed_why is None
            and self.waiting is None
            and self.seated
            and self.started
            and not self.hand_over
        )

    @property
    def my_bid(self) -> bool:
        """Five players: it is my turn to bid (or pass)."""
        return self._may_act() and self.to_bid is not None and self.to_bid == self.my_seat

    @property
    def my_call(self) -> bool:
        """Five players: I won the auction and name the suit now."""
        return self._may_act() and self.to_call is not None and self.to_call == self.my_seat

    @property
    def in_auction(self) -> bool:
        """Five players: the hand is dealt and the bids or the call are still to come."""
        return (
            self.started
            and not self.hand_over
            and self.contract is None
            and (self.to_bid is not None or self.to_call is not None)
        )

    @property
    def callers(self) -> tuple[int, ...]:
        """Five players: the caller and its partner as far as I know them (the caller alone
        while the partner is unknown, or when it holds the called card itself)."""
        if self.contract is None:
            return ()
        caller = self.contract.caller
        if self.partner is None or self.partner == caller:
            return (caller,)
        return (caller, self.partner)

    @property
    def last_result(self) -> HandSummary | None:
        return self.hand_results[-1] if self.hand_results else None

    def name_of(self, seat: int) -> str:
        for info in self.seats:
            if info.seat == seat:
                return info.name
        return _("seat {n}").format(n=seat)

    def side_name(self, side: int) -> str:
        """A side as a person reads it: 'You', a name, or 'You + Bea' at four players."""
        opts = self.options
        if opts.players == 4:
            members = [s for s in range(4) if opts.side_of(s) == side]
            names = [self.who(s) for s in members]
            return " + ".join(names)
        return self.who(side)

    def who(self, seat: int) -> str:
        return _("You") if self.seated and seat == self.my_seat else self.name_of(seat)

    def add_log(self, line: str) -> None:
        self.log.append(line)
        del self.log[:-MAX_LOG]
        self.changes += 1


@dataclass(slots=True)
class LobbyEntry:
    """A table seen on the network (or the local 'practice' entry)."""

    key: str
    name: str
    host: str
    summary: str
    seated: int
    players: int
    open_seats: int
    address: str = ""
    fingerprint: str = ""
    phase: str = "lobby"
    deal: str = ""  # "blind" or "classic" ("" : a table that does not say, classic)


@dataclass(slots=True)
class HostForm:
    """The 'host a table' form: every table option plus seat fillers and the table name."""

    table_name: str = ""  # the app proposes "<name>'s table"
    players: int = 2
    match_format: MatchFormat = MatchFormat.HANDS
    hands_to_win: int = 2
    partner_exchange: bool = True
    removed_two: Suit = Suit.COINS
    signals: bool = False  # 4 players: partners may signal to each other (strict play: off)
    draw_partners: bool = False  # 4 players: partnerships drawn (verifiably) before the match
    draw_dealer: bool = False  # the first dealer drawn (verifiably) before the match
    # "blind" (nobody, the host included, sees a card before the rules show it) or "classic";
    # "" follows the default: blind with two or more seats for people.
    deal: str = ""
    hints: bool = False  # players may ask the strong AI for a hint (always on with no other person)
    # Per other seat (1..players-1): "open" for a person, or an AI level.
    fillers: list[str] = field(default_factory=lambda: ["rules"] * 4)
    # 5 players (Briscola chiamata): what a rank bid needs, the double score for all 120 card
    # points, the hands in a match
    points_to_win: int = POINTS_TO_WIN
    double_all: bool = True
    match_hands: int = MATCH_HANDS
    row: int = 0
    error: str | None = None

    def options(self) -> TableOptions:
        fmt = self.match_format
        if self.players == 3:
            fmt = MatchFormat.POINTS
        if self.players == CHIAMATA_PLAYERS:
            fmt = MatchFormat.TOTAL
        return TableOptions.make(
            players=self.players,
            match_format=fmt,
            hands_to_win=self.hands_to_win,
            partner_exchange=self.partner_exchange,
            removed_two=self.removed_two,
            signals=self.signals,
            points_to_win=self.points_to_win,
            double_all=self.double_all,
            match_hands=self.match_hands,
        )

    def seat_fillers(self) -> list[str]:
        """Fillers for seats 1..players-1 (seat 0 is the host; a short list repeats its last)."""
        while len(self.fillers) < self.players - 1:
            self.fillers.append(self.fillers[-1] if self.fillers else "rules")
        return self.fillers[: self.players - 1]

    def deal_mode(self) -> str:
        """The deal the table will use: the one chosen, else the default for its people and
        players (``choices.default_deal``: blind with two or more people; classic at five)."""
        people = 1 + sum(1 for f in self.seat_fillers() if f == "open")
        return self.deal or default_deal(people, self.players)


@dataclass(slots=True)
class UiState:
    """Everything the app remembers besides the table model."""

    screen: Screen = Screen.LOBBY
    ascii_only: bool = False
    player_name: str = "Player"
    lobby: list[LobbyEntry] = field(default_factory=list)
    lobby_index: int = 0
    lobby_status: str = ""  # the app says what discovery is doing
    kept: list[Any] = field(default_factory=list)  # unfinished matches hosted here (net.kept)
    form: HostForm = field(default_factory=HostForm)
    card_index: int = 0
    show_help: bool = False
    show_last_trick: bool = False
    show_verify_details: bool = False
    show_hint: bool = False
    show_review: bool = False
    show_summary: bool = False  # the match summary: every hand's points and the cards taken
    signalling: bool = False  # choosing a signal for the partner (g, then 1-6 or Esc)
    bid_index: int = 0  # 5 players: the bid chosen among the ones I may make (Left/Right)
    call_index: int = 0  # 5 players: the suit chosen for the call (Left/Right, 1-4)
    hide_points: bool = False  # the running point count hidden (remembered for the session)
    last_form: tuple[HostForm, str | None] | None = None  # the table last started from the form
    confirm_quit: bool = False
    quit_to_lobby: bool = False  # what a "yes" in the quit dialog does: lobby, or quit
    learn_step: int = 0
    saved_files: list[str] = field(default_factory=list)
    saved_index: int = 0
    saved_report: list[str] = field(default_factory=list)
    deck: Deck = Deck.FRENCH
    hand_order: HandOrder = HandOrder.SORTED
    follow: Follow = field(default_factory=Follow)
    log_scroll: Scroll = field(default_factory=lambda: Scroll(from_end=True))
    help_scroll: Scroll = field(default_factory=Scroll)
    page_scroll: Scroll = field(default_factory=Scroll)  # learn, saved games, hand review
    summary_scroll: Scroll = field(default_factory=Scroll)
