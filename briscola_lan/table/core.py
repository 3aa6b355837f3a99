"""The host coordinator's shared state and how it speaks: its settings, seats and connections,
the transcript it signs, and the messages it sends to everyone or to one seat.

``HostTable`` (table/host.py) is this state with the lobby (table/lobby.py) and the match's
lifecycle (table/lifecycle.py) on top; the deals see it as a ``table.deal.TableSide``.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from briscola_lan.choices import AI_LEVELS, BLIND, BLIND_PLAYERS, default_deal
from briscola_lan.fairness.context import ContextChain, kind_of
from briscola_lan.fairness.identity import Identity, verify_signature
from briscola_lan.fairness.statements import Receipt, Statement
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.match import Match
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.deal import DEAL_MODES, Deal, Outgoing, Phase, Refused, Seat, refuse_foreign
from briscola_lan.table.seeds import SeedRound
from briscola_lan.table.signals import HostSignals
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Message, Record, SeatInfo

MAX_NAME = 32


def unknown_level(level: str) -> str | None:
    """Why ``level`` is not an AI level a table seats, or None if it is one."""
    if level in AI_LEVELS:
        return None
    return f"unknown AI level {level[:MAX_NAME]!r}: use one of {', '.join(AI_LEVELS)}"


class Bot(Protocol):
    def choose(self, view: SeatView) -> Card: ...


class ChiamataBot(Protocol):
    """Five players: a bot that bids (None: passes) and calls a suit as well as plays."""

    def bid(self, view: SeatView) -> Bid | None: ...

    def call(self, view: SeatView) -> Suit: ...

    def choose(self, view: SeatView) -> Card: ...


BotFactory = Callable[[str, int], Bot]


def default_bot_factory(level: str, seed: int) -> Bot:
    """The bot of ``level`` from briscola_lan.ai (loaded with the first AI seat)."""
    from briscola_lan.ai import make_bot

    bot: Bot = make_bot(level, seed)
    return bot


def chiamata_bot_factory(level: str, seed: int) -> ChiamataBot:
    """Five players: the bot of ``level`` that bids and calls too (briscola_lan.ai)."""
    from briscola_lan.ai import make_chiamata_bot

    bot: ChiamataBot = make_chiamata_bot(level, seed)
    return bot


@dataclass(slots=True)
class Connection:
    """One transport connection: whether it said hello, and the seat it holds."""

    hello: bool = False
    seat: int | None = None
    # The challenge this connection was sent: its hello's proof must sign this nonce, and the
    # TLS certificate it was served with (SHA-256; empty in one process, without TLS).
    nonce: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    channel: bytes = b""
    proven: int = 0  # hellos whose proof verified: a second refused one closes the connection


class TableCore:
    """The state of one table and what every part of the coordinator does with it."""

    # The network host checks a blind hand's key reveals in a worker thread (``pending_checks``
    # hands the work out, ``checks_done`` takes its result); without one, a table checks them
    # as they are published.
    defer_checks = False
    # What ``broadcast`` and ``to_seat`` put in the seats' logs since the journal last took it,
    # in order: (the message, the seats whose log it went to). None until a journal follows the
    # table (``table.host_journal.JournalCursor``, which empties it as it writes): it then
    # writes what is new from this list rather than look each seat's log over.
    appended: list[tuple[Message, tuple[int, ...]]] | None = None

    def __init__(
        self,
        options: TableOptions,
        *,
        name: str,
        identity: Identity,
        ai_seats: Mapping[int, str] | None = None,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        bot_factory: BotFactory | None = None,
        grace: float = 30.0,
        timeout: float = 60.0,
        call_wait: float = 10.0,
        play_timeout: float = 120.0,
        ai_delay: float = 0.0,
        draw_partners: bool = False,
        draw_dealer: bool = False,
        clock: Callable[[], float] = time.time,
        deal: str | None = None,
        hints: bool = False,
    ) -> None:
        """``clock`` is the wall clock the receipts are dated by (Unix seconds); ``ai_delay``
        is the AI players' pace: seconds after the last card played, by anyone; ``deal`` is
        "blind" or "classic" (default: ``default_deal``); ``hints`` allows the players to ask
        their client's AI for hints (said in ``welcome``)."""
        options.validate()
        if deal is not None and deal not in DEAL_MODES:
            raise ValueError(f"unknown deal {deal!r}: use blind or classic")
        people = options.players - len(ai_seats or {})
        self.deal_mode = deal or default_deal(people, options.players)
        if self.deal_mode == BLIND and options.players not in BLIND_PLAYERS:
            raise ValueError(f"the blind deal does not seat {options.players} players")
        if draw_partners and options.players != 4:
            raise ValueError("partnerships can only be drawn at 4 players")
        self.draw_partners, self.draw_dealer = draw_partners, draw_dealer
        self.hints = hints
        self.drawing = False  # the draw's commit-reveal round is running
        self.options = options
        self.name = name[:MAX_NAME]
        self.identity = identity
        self.entropy = entropy
        self.clock = clock
        self.bot_factory: BotFactory = bot_factory or default_bot_factory
        self.grace, self.timeout, self.ai_delay = grace, timeout, ai_delay
        self.call_wait = call_wait  # blind deal: seconds the people have to answer a hand's call
        self.play_timeout = play_timeout  # seconds a person has for a card (two people or more)
        self.turn_since = 0.0  # when the hand started waiting for the card it waits for
        self._turn: tuple[int, int, int | None] | None = None  # (hand, acts, seat) of that wait
        self.seats = [Seat() for _ in range(options.players)]
        self.conns: dict[int, Connection] = {}
        self.phase = Phase.LOBBY
        self.now = 0.0
        self.records: list[Record] = []  # the host's full transcript (public and private)
        self.context = ContextChain()  # the chain, and the context a statement is due with
        self.game_id = b""
        self.match: Match | None = None
        self.deal: Deal | None = None  # the current (or last) hand's deal protocol
        self.draw_round: SeedRound | None = None  # the seat and dealer draw's seeds
        self.draw_seed = b""
        self.hand_number = -1
        self.named: dict[int, int] = {}  # seat -> the aborted hands that named it (replayed)
        self.redeals = 0  # five players: hands everyone passed, each dealt again (void)
        self._replay_due = False  # a hand was aborted naming a seat: deal it again
        self.internal_errors: list[str] = []
        # conn -> the name and key its hello gave, for the seat it takes
        self._pending_names: dict[int, tuple[str, bytes]] = {}
        # encoded seat-log messages kept between snapshots (host_snapshot._MessageTable)
        self.encoded_cache: dict[int, tuple[Message, bytes]] = {}
        self._bots: dict[int, Bot] = {}
        self._chiamata_bots: dict[int, ChiamataBot] = {}  # five players
        # Receipts owed for statements the table took and relayed, signed when the table
        # settles (``HostTable.settle``): (seat, hand, the record, its time). In the snapshot.
        self.receipts_due: list[tuple[int, int, Record, int]] = []
        # Renewed by every step that may change the table's state (``HostTable``'s entry
        # points); kept by a step that moved only the values ``host_snapshot.hot_rest`` reads (a
        # classic card and what it owes): the journal then writes those alone, without
        # looking the rest over.
        self.rest_mark: object = object()
        self.signals = HostSignals(self)  # partners' signals (fairness.md §12)
        self._rebase = True  # the network layer's clock is unknown until the first tick
        self._reset_hand_state()
        for seat, level in (ai_seats or {}).items():
            problem = unknown_level(level)
            if problem is not None:
                raise ValueError(problem)
            self._put_ai(seat, level)

    def _reset_hand_state(self) -> None:
        n = self.options.players
        self.acks: list[Record | None] = [None] * n
        self.deadline = 0.0
        self.chain_at_reveal = b""
        self.last_ai_move = -1e18

    def _put_ai(self, seat_no: int, level: str) -> None:
        ident = Identity.generate(self.entropy(32))
        self.seats[seat_no] = Seat(
            True, f"AI {level} {seat_no}", ident.public_key, level, ident, None, None, True
        )

    # --- seats and phases -----------------------------------------------------------------------

    @property
    def seat_infos(self) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(
                i, s.occupied, s.name, s.key, s.ai, s.ai is not None or s.conn is not None, s.ready
            )
            for i, s in enumerate(self.seats)
        )

    def _my_seat(self, c: Connection) -> int:
        if c.seat is None:
            raise Refused(ErrorCode.NOT_SEATED, "take a seat first")
        return c.seat

    def _need_phase(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise Refused(ErrorCode.WRONG_PHASE, f"not now: the table is in the {self.phase} phase")

    def host_plays(self, seat_no: int) -> bool:
        s = self.seats[seat_no]
        return s.ai is not None or s.taken_over

    def seat_signer(self, seat_no: int) -> Identity:
        s = self.seats[seat_no]
        if s.ai_identity is not None:
            return s.ai_identity
        return self.identity

    def check_sig(self, seat_no: int, body: bytes, sig: bytes) -> None:
        seat = self.seats[seat_no]
        if not verify_signature(seat.key, body, sig):
            raise Refused(ErrorCode.BAD_SIGNATURE, "signature does not verify with your key")

    def _check_context(self, st: Statement, seat_no: int) -> None:
        refuse_foreign(st, self.game_id, self.hand_number, seat_no)

    # --- speaking: to everyone, to a seat, into the transcript -----------------------------------

    def _seats_changed(self, out: list[Outgoing], event: str) -> None:
        self.broadcast(out, m.SeatsChanged(self.seat_infos, event), log=False)

    def broadcast(self, out: list[Outgoing], msg: Message, log: bool = True) -> None:
        for conn, c in self.conns.items():
            if c.hello:
                out.append(Outgoing(conn, msg))
        if log:
            logged: list[int] = []
            for i, seat in enumerate(self.seats):
                if seat.ai is None:
                    seat.log.append(msg)
                    logged.append(i)
            appended = self.appended
            if appended is not None and logged:
                appended.append((msg, tuple(logged)))

    def to_seat(self, out: list[Outgoing], seat_no: int, msg: Message) -> None:
        seat = self.seats[seat_no]
        if seat.ai is None:
            seat.log.append(msg)
            appended = self.appended
            if appended is not None:
                appended.append((msg, (seat_no,)))
        if seat.conn is not None:
            out.append(Outgoing(seat.conn, msg))

    def sign(self, st: Statement, signer: Identity | None = None) -> Record:
        body = st.encode()
        rec = (body, (signer or self.identity).sign(body))
        self.append(rec, st.PUBLIC, kind=st.KIND)
        return rec

    def receipt(self, seat_no: int, hand: int, rec: Record, out: list[Outgoing]) -> None:
        """Give the seat the host's signed receipt for a statement it sent: its evidence that
        the host had it (never in the host's own transcript; the seat's file holds it)."""
        st = Receipt(self.game_id, hand, seat_no, int(self.clock()), rec[0], rec[1])
        body = st.encode()
        self.to_seat(out, seat_no, m.ReceiptIssued(body, self.identity.sign(body)))

    def receipt_due(self, seat_no: int, hand: int, rec: Record) -> None:
        """The seat's receipt for ``rec``, owed: signed when the table settles, after what
        relays ``rec`` has left (dated now)."""
        self.receipts_due.append((seat_no, hand, rec, int(self.clock())))

    def settle_receipts(self, out: list[Outgoing]) -> None:
        """Sign the receipts owed (``receipt_due``), in the order they became due."""
        due, self.receipts_due = self.receipts_due, []
        for seat_no, hand, rec, when in due:
            st = Receipt(self.game_id, hand, seat_no, when, rec[0], rec[1])
            body = st.encode()
            self.to_seat(out, seat_no, m.ReceiptIssued(body, self.identity.sign(body)))

    def append(
        self, rec: Record, public: bool, *, transparent: bool = False, kind: str | None = None
    ) -> None:
        """A record enters the host's transcript (``transparent``: a public record that makes
        nothing due, fairness.md §8.1, such as a late key reveal; ``kind``: its statement's
        kind, when the caller has it, else read from its body)."""
        self.records.append(rec)
        if public:
            body = rec[0]
            self.context.published(kind or kind_of(body), body, transparent=transparent)

    @property
    def chain(self) -> bytes:
        """The chain hash over the public records so far (fairness.md §8.1)."""
        return self.context.chain

    def context_for(self, kind: str) -> bytes:
        """The context a statement of ``kind`` must carry to be published now (§8.1)."""
        return self.context.expected(kind)

    def check_context(self, st: Statement) -> None:
        """Refuse a party statement made over another history than the host's (its client was
        behind, or lies): relayed, it would be the host's fault in every other file."""
        if st.context != self.context.expected(st.KIND):  # type: ignore[attr-defined]
            raise Refused(
                ErrorCode.STALE_CONTEXT,
                f"your {st.KIND} was made over another history than the table's (context)",
            )
