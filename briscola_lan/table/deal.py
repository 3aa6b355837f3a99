"""One hand's deal protocol behind one interface (classic or blind), and what a deal may ask of
the table that runs it.

The table (``table.host.HostTable``) owns the lobby, the seats, the AI players, the match and the
acknowledgements; a ``Deal`` owns one hand from its first record to its end record: the
randomness, every card dealt and played, and the statements the players owe for them. The table
starts a deal, hands it the players' deal messages and the clock, asks it what an AI seat sees
and plays, and takes the hand back when the deal has signed its end.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.predicates import Foreign, foreign
from briscola_lan.fairness.statements import Statement
from briscola_lan.rules.cards import Card
from briscola_lan.rules.chiamata import CallResult
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.match import Match
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.schedule import PublicSchedule
from briscola_lan.wire.messages import ErrorCode, Message, Record

if TYPE_CHECKING:
    from briscola_lan.table.seeds import SeedRound

from briscola_lan.choices import BLIND, CLASSIC, DEAL_MODES


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message for one connection; ``close`` asks the transport to close it after writing."""

    conn: int
    message: Message
    close: bool = False


# Its slots' descriptors: what ``object.__setattr__`` stores a field through.
_set_conn, _set_message, _set_close = (
    vars(Outgoing)[name].__set__ for name in ("conn", "message", "close")
)


def _outgoing_init(self: Outgoing, conn: int, message: Message, close: bool = False) -> None:
    """``Outgoing``'s ``__init__``: each field stored through its slot, what the frozen
    dataclass's own does through ``object.__setattr__`` (made several times a card, at 0.65 of
    the cost)."""
    _set_conn(self, conn)
    _set_message(self, message)
    _set_close(self, close)


Outgoing.__init__ = _outgoing_init  # type: ignore[method-assign]


class Phase(StrEnum):
    """The table's phase; during a hand, the phase of its deal."""

    LOBBY = "lobby"
    CALL = "call"  # blind: the hand calls its players, who answer with a present
    COMMIT = "commit"  # classic: seeds are committed
    REVEAL = "reveal"  # classic: seeds revealed; blind: the parties reveal their keys
    SHUFFLE = "shuffle"  # blind: the parties shuffle, then lock, the deck
    DEAL = "deal"  # blind: keys for a deal window or the partner exchange are on their way
    PLAY = "play"
    DISPUTE = "dispute"  # blind: a card did not open; every party reveals its keys
    ACK = "ack"
    OVER = "over"


# Refusals that close the connection: a hello that cannot be answered on it.
_CLOSING = frozenset({ErrorCode.BAD_VERSION, ErrorCode.BAD_KEY, ErrorCode.BAD_PROOF})


class Refused(Exception):
    """Bad input from a connection: it gets an Error with ``code`` and nothing changes."""

    def __init__(self, code: str, text: str, *, close: bool = False) -> None:
        super().__init__(text)
        self.code, self.text, self.close = code, text, close or code in _CLOSING


def refuse_foreign(st: Statement, game_id: bytes, hand: int, seat_no: int) -> None:
    """Refuse a seat's statement of another game or hand, or made for another seat (the check
    the verifier and every client make with ``fairness.predicates.foreign``)."""
    why = foreign(st, game_id, hand, seat_no)
    if why is Foreign.GAME_OR_HAND:
        raise Refused(ErrorCode.BAD_STATEMENT, why.value)
    if why is Foreign.SEAT:
        raise Refused(ErrorCode.NOT_ALLOWED, why.value)


@dataclass(slots=True)
class Seat:
    """One seat of the table: who sits there, their connection, and the AI that may play it."""

    occupied: bool = False
    name: str = ""
    key: bytes = b""
    ai: str | None = None
    ai_identity: Identity | None = None
    conn: int | None = None
    token: str | None = None
    ready: bool = False
    dropped_at: float | None = None
    taken_over: bool = False
    stalled: bool = False  # classic: taken over for not playing in time, until the hand ends
    log: list[Message] = field(default_factory=list)  # match messages sent, for resuming


class TableSide(Protocol):
    """What a deal uses of the table that runs it (implemented by ``HostTable``)."""

    options: TableOptions
    identity: Identity
    entropy: Callable[[int], bytes]
    seats: list[Seat]
    game_id: bytes
    hand_number: int
    records: list[Record]
    match: Match | None
    phase: Phase
    now: float
    deadline: float
    timeout: float
    grace: float
    call_wait: float
    defer_checks: bool  # the host checks the key reveals off its event loop (in a worker)
    play_timeout: float

    @property
    def play_deadline(self) -> bool: ...

    def sign(self, st: Statement, signer: Identity | None = None) -> Record: ...

    def append(
        self, rec: Record, public: bool, *, transparent: bool = False, kind: str | None = None
    ) -> None: ...

    def broadcast(self, out: list[Outgoing], msg: Message, log: bool = True) -> None: ...

    def to_seat(self, out: list[Outgoing], seat_no: int, msg: Message) -> None: ...

    def receipt(self, seat_no: int, hand: int, rec: Record, out: list[Outgoing]) -> None: ...

    def receipt_due(self, seat_no: int, hand: int, rec: Record) -> None: ...

    def check_sig(self, seat_no: int, body: bytes, sig: bytes) -> None: ...

    def context_for(self, kind: str) -> bytes: ...

    def check_context(self, st: Statement) -> None: ...

    def abort(self, seat_no: int, reason: str, out: list[Outgoing]) -> None: ...

    def hand_over(
        self,
        points: tuple[int, ...],
        out: list[Outgoing],
        *,
        acks: bool = True,
        call: CallResult | None = None,
        void: bool = False,
    ) -> None: ...

    def start_acks(self, out: list[Outgoing]) -> None: ...

    def host_plays(self, seat_no: int) -> bool: ...

    def benched(self, seat_no: int) -> bool: ...

    def seat_signer(self, seat_no: int) -> Identity: ...

    def seed_round(
        self, hand: int, on_revealed: Callable[[list[bytes], list[Outgoing]], None]
    ) -> SeedRound: ...


@dataclass(eq=False)
class Checks:
    """Work a deal hands out to run off the host's event loop: ``run`` reads the hand and
    changes nothing (a worker thread may run it while the loop serves the other tables)."""

    run: Callable[[], object]
    since: float  # the table's clock when the work became due


class Deal(ABC):
    """The deal protocol of one hand, from its first record to its end record."""

    MODE: ClassVar[str] = ""

    def __init__(self, table: TableSide, hand_number: int, dealer: int) -> None:
        self.table, self.number, self.dealer = table, hand_number, dealer

    @abstractmethod
    def start(self, out: list[Outgoing]) -> None:
        """Publish the hand's first record and whatever the host owes at once."""

    @abstractmethod
    def receive(self, seat_no: int, msg: Message, out: list[Outgoing]) -> bool:
        """Take a deal message from the player in ``seat_no``; False if it is not one. Raises
        ``Refused`` for one that cannot be taken now."""

    @abstractmethod
    def tick(self, out: list[Outgoing]) -> None:
        """Deadlines: abort a hand that waits too long for a statement."""

    @property
    @abstractmethod
    def to_play(self) -> int | None:
        """The seat whose card the hand waits for, if it waits for a card."""

    @property
    @abstractmethod
    def plays_so_far(self) -> int:
        """Cards played in this hand."""

    @property
    def acts_so_far(self) -> int:
        """Statements the hand's turns took so far (cards; at five players bids and the call
        too): a new number is a new turn, whose clock starts."""
        return self.plays_so_far

    @abstractmethod
    def view(self, seat_no: int) -> SeatView | None:
        """What a seat the host plays sees (None while it cannot play)."""

    @abstractmethod
    def play_for(self, seat_no: int, card: Card, out: list[Outgoing]) -> None:
        """The host plays ``card`` for a seat it plays (an AI, or a player it took over)."""

    def signal_schedule(self) -> PublicSchedule | None:
        """The hand's public schedule while its cards may be signalled about (fairness.md
        §12.4: dealt, the upcard turned, not ended), else None."""
        return None

    @property
    def due(self) -> bool:
        """Whether work is owed after the statement just taken (``settle`` does it): what the
        host signs after a card, once the card has left."""
        return False

    def settle(self, out: list[Outgoing]) -> None:  # noqa: B027
        """Do the work owed after the statement just taken (the draws, the exchange, the end of
        the hand; the blind deal's next host statements): a card is relayed before it."""

    def rebase(self, delta: float) -> None:  # noqa: B027
        """The table's clock moved by ``delta`` seconds without the deal (the host was down):
        move the deal's own times with it, as the table moves its deadlines."""

    def pending_checks(self) -> Checks | None:
        """Checks the host may make off its event loop (in a worker thread), if any are due and
        not handed out yet; ``finish_checks`` applies their result."""
        return None

    def finish_checks(  # noqa: B027
        self, out: list[Outgoing], checks: Checks | None = None, result: object = None
    ) -> None:
        """Apply the due checks: with ``result`` (what ``checks.run()`` returned) when it is
        for the checks still due, else by making them now."""

    def after_takeover(self, seat_no: int, out: list[Outgoing]) -> None:  # noqa: B027
        """The host just took over a seat: make the statements the seat owes now."""

    def may_take_over(self, seat_no: int) -> bool:
        """Whether the host may start playing this seat now."""
        return False

    def made_by_host(self, seat_no: int, st: Statement, body: bytes) -> bool:
        """Whether the host already made this statement for the seat (a resumed client answering
        a replayed message, to be ignored)."""
        return False

    @abstractmethod
    def dump(self) -> dict[str, Any]:
        """The deal's state for the host's snapshot (secrets included)."""


__all__ = [
    "BLIND",
    "CLASSIC",
    "DEAL_MODES",
    "Deal",
    "Outgoing",
    "Phase",
    "Refused",
    "Seat",
    "TableSide",
]
