"""The pure table coordinator (host side): connection messages in, messages to send out.

Theory of operation. The network layer gives every transport connection an integer id and calls
``connect``, ``receive``, ``disconnect`` and ``tick``; each returns ``Outgoing`` messages to write.
Nothing here blocks, sleeps or touches a socket. Phases of a match::

    LOBBY --start--> [draw: COMMIT -> REVEAL -> seats moved, match-start] --> hand
    hand (the deal's phases) --end record--> ACK --all acks (or timeout)--> next hand | OVER
    hand --a deadline with a statement missing, or a fault--> OVER (hand aborted, party named)

A hand is run by its deal protocol (``table.deal``): classic (``COMMIT -> REVEAL -> PLAY``, the
host's engine knows the deck) or blind (``SHUFFLE -> DEAL/PLAY ... -> REVEAL``, nobody sees a
card before the rules show it). The lobby, the seats, the AI players and the acknowledgements
here do not depend on which deal is used.

With drawn partners or a drawn first dealer, the match opens with a draw: the same commit-reveal
round with hand number ``DRAW_HAND`` and lobby seat numbers, then the host reveals its draw seed
and the result, moves the players to the seats the draw gives and signs match-start.
Every fact of the hand is a signed statement (``fairness.statements``) appended to ``records``,
the host's full transcript; public ones are broadcast, private ones (a seat's cards, the partner
exchange) go only to that seat. Bad input never raises: the sender gets an ``Error`` and the state
does not change. AI seats play from their ``SeatView`` only, with host-held keys and seeds.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from briscola_lan.choices import AI_LEVELS, default_deal
from briscola_lan.fairness import match_options
from briscola_lan.fairness.context import ContextChain, kind_of
from briscola_lan.fairness.encoding import (
    DRAW_HAND,
    HOST_PARTY,
    seed_commitment,
)
from briscola_lan.fairness.identity import Identity, fingerprint, verify_signature
from briscola_lan.fairness.pubkey import InvalidKey, check_public_key
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    DrawReveal,
    DrawStart,
    MatchEnd,
    MatchOptions,
    MatchStart,
    Receipt,
    Statement,
    StatementError,
    Takeover,
    decode,
    hello_proof,
)
from briscola_lan.fairness.verify import BENCHED_AFTER, draw_result
from briscola_lan.rules.cards import Card
from briscola_lan.rules.errors import RulesError
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.match import Match
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.deal import (
    BLIND,
    CLASSIC,
    DEAL_MODES,
    Checks,
    Deal,
    Outgoing,
    Phase,
    Refused,
    Seat,
    refuse_foreign,
)
from briscola_lan.table.deal_blind import BlindDeal
from briscola_lan.table.deal_classic import ClassicDeal
from briscola_lan.table.seeds import SeedRound
from briscola_lan.table.signals import HostSignals
from briscola_lan.table.snapshot import Fields, SnapshotError, opt_records, record
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import (
    CodecError,
    decode_message,
    encode_message,
    pack_state,
    unpack_state,
)
from briscola_lan.wire.messages import PROTOCOL_VERSION, ErrorCode, Message, Record, SeatInfo

SNAPSHOT_FORMAT = "briscola-lan-host-state"
# 4: the seats' logs index one list of messages; 3: the hand's deal (classic or blind) in its own
# map; 1 was a pickle
SNAPSHOT_VERSION = 5
MAX_NAME = 32


def unknown_level(level: str) -> str | None:
    """Why ``level`` is not an AI level a table seats, or None if it is one."""
    if level in AI_LEVELS:
        return None
    return f"unknown AI level {level[:MAX_NAME]!r}: use one of {', '.join(AI_LEVELS)}"


# The messages a hand's deal (or the draw's seed round) takes, each carrying one statement.
_DEAL_MESSAGES: frozenset[type[Message]] = frozenset(
    {
        m.CommitSeed,
        m.RevealSeed,
        m.PlayCard,
        m.JoinHand,
        m.ShuffleDeck,
        m.LockDeck,
        m.SendShares,
        m.ShowHand,
        m.Complain,
        m.RevealKeys,
    }
)


class Bot(Protocol):
    def choose(self, view: SeatView) -> Card: ...


BotFactory = Callable[[str, int], Bot]


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What discovery advertises about a table."""

    name: str
    options: TableOptions
    seated: int
    free_seats: tuple[int, ...]
    version: str
    host_fingerprint: str
    phase: str
    draw_partners: bool = False
    draw_dealer: bool = False
    deal: str = CLASSIC  # the deal protocol: "blind" or "classic"

    @property
    def rules(self) -> str:
        """The rules label (the TXT's ``rules``): the options' summary, then what is drawn."""
        drawn = [
            tag
            for tag, on in (
                ("drawn-partners", self.draw_partners),
                ("drawn-dealer", self.draw_dealer),
            )
            if on
        ]
        return " ".join([self.options.summary(), *drawn])


@dataclass(slots=True)
class _Conn:
    hello: bool = False
    seat: int | None = None
    # The challenge this connection was sent: its hello's proof must sign this nonce, and the
    # TLS certificate it was served with (SHA-256; empty in one process, without TLS).
    nonce: bytes = field(default_factory=lambda: secrets.token_bytes(32))
    channel: bytes = b""
    proven: int = 0  # hellos whose proof verified: a second refused one closes the connection


def default_bot_factory(level: str, seed: int) -> Bot:
    """The bot of ``level`` from briscola_lan.ai (loaded with the first AI seat)."""
    from briscola_lan.ai import make_bot

    bot: Bot = make_bot(level, seed)
    return bot


class HostTable:
    """One table: lobby, seats, AI players, the match, its hands' deals, acknowledgements."""

    # The network host checks a blind hand's key reveals in a worker thread (``pending_checks``
    # hands the work out, ``checks_done`` takes its result); without one, a table checks them
    # as they are published.
    defer_checks = False

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
        self.deal_mode = deal or default_deal(options.players - len(ai_seats or {}))
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
        self._turn: tuple[int, int, int | None] | None = None  # (hand, plays, seat) of that wait
        self.seats = [Seat() for _ in range(options.players)]
        self.conns: dict[int, _Conn] = {}
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
        self._replay_due = False  # a hand was aborted naming a seat: deal it again
        self.internal_errors: list[str] = []
        # encoded seat-log messages kept between snapshots (_MessageTable)
        self.encoded_cache: dict[int, tuple[Message, bytes]] = {}
        self._bots: dict[int, Bot] = {}
        # Set by the network layer: called with the messages that relay a card (and the trick it
        # completes) as soon as they exist, before the host signs what follows (the player's
        # receipt, the next deals, the partner exchange, its end-of-hand reveal), so that the card
        # is not held back by those signatures; what it is given is not returned by ``receive``
        # or ``tick`` again.
        self.on_relay: Callable[[list[Outgoing]], None] | None = None
        self.signals = HostSignals(self)  # partners' signals (fairness.md §12)
        self._rebase = True  # the network layer's clock is unknown until the first tick
        self._reset_hand_state()
        for seat, level in (ai_seats or {}).items():
            problem = unknown_level(level)
            if problem is not None:
                raise ValueError(problem)
            self._put_ai(seat, level)

    # --- the interface the network layer uses -------------------------------------------------

    def connect(self, conn: int, channel: bytes = b"") -> list[Outgoing]:
        """A new connection: send it a fresh challenge, which its hello must sign.

        ``channel`` is the SHA-256 of the TLS certificate the connection was served with (the
        client signs the one it pinned), or empty for a client in the same process.
        """
        c = self.conns[conn] = _Conn(channel=channel)  # the nonce is never the table's entropy
        return [Outgoing(conn, m.Challenge(c.nonce, self.identity.public_key))]

    def receive(self, conn: int, message: Message) -> list[Outgoing]:
        """Handle one message; bad input gets an Error for ``conn`` and changes nothing."""
        if conn not in self.conns:
            self.conns[conn] = _Conn()
        out: list[Outgoing] = []
        if self.deal is not None:  # what comes next comes after the due checks
            self.deal.finish_checks(out)
        try:
            self._dispatch(conn, message, out)
        except Refused as r:
            return [Outgoing(conn, m.Error(r.code, r.text), close=r.close)]
        except (StatementError, ValueError) as exc:
            return [Outgoing(conn, m.Error(ErrorCode.BAD_STATEMENT, f"malformed statement: {exc}"))]
        self._replay_if_due(out)
        if isinstance(message, m.PlayCard):  # the AI players' pace counts from any card played
            self.last_ai_move = self.now
        return out

    def disconnect(self, conn: int) -> list[Outgoing]:
        c = self.conns.pop(conn, None)
        out: list[Outgoing] = []
        if c is None or c.seat is None:
            return out
        seat = self.seats[c.seat]
        seat.conn, seat.dropped_at = None, self.now
        if self.phase is Phase.LOBBY:
            seat.ready = False
            self._seats_changed(
                out, f"{seat.name} left the table (seat {c.seat} kept for {self.grace:g} s)"
            )
        else:
            self.broadcast(out, m.PlayerConnection(c.seat, False), log=False)
        return out

    def tick(self, now: float) -> list[Outgoing]:
        """Time-driven work: AI moves, grace periods, deadlines."""
        if self._rebase:  # first tick of this process: move our times onto its clock
            delta = now - self.now
            self.deadline += delta
            self.last_ai_move += delta
            for seat in self.seats:
                if seat.dropped_at is not None:
                    seat.dropped_at += delta
            if self.deal is not None:
                self.deal.rebase(delta)
            self._rebase = False
        self.now = now
        out: list[Outgoing] = []
        try:
            self._tick(out)
            self._replay_if_due(out)
        except (RulesError, StatementError, ValueError) as exc:  # a bug, never bad input
            self.internal_errors.append(repr(exc))
        return out

    def pending_checks(self) -> Checks | None:
        """Work to run in a worker thread (reading the hand only), if some is due: the key
        reveals of a blind hand, published and on their way to the players."""
        return self.deal.pending_checks() if self.deal is not None else None

    def checks_done(self, checks: Checks, result: object) -> list[Outgoing]:
        """The worker's ``result`` for ``checks``: the hand moves on (or is aborted, naming the
        party whose reveal is wrong); a result for checks already made is ignored."""
        out: list[Outgoing] = []
        if self.deal is not None:
            self.deal.finish_checks(out, checks, result)
            self._replay_if_due(out)
        return out

    def info(self) -> TableInfo:
        free = tuple(i for i, s in enumerate(self.seats) if not s.occupied)
        return TableInfo(
            name=self.name,
            options=self.options,
            seated=len(self.seats) - len(free),
            free_seats=free,
            version=str(PROTOCOL_VERSION),
            host_fingerprint=self.identity.fingerprint,
            phase=str(self.phase),
            draw_partners=self.draw_partners,
            draw_dealer=self.draw_dealer,
            deal=self.deal_mode,
        )

    def snapshot(self) -> bytes:
        """Everything needed to continue after the host process dies, as a msgpack state file.

        The layout is documented in protocol/SPEC.md §10. It holds the AI seats' private keys and
        the host's unrevealed seeds: write it where only the host's user can read it.
        """
        return pack_state(
            {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION, "state": _dump_state(self)}
        )

    @classmethod
    def restore(
        cls,
        data: bytes,
        *,
        identity: Identity,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        bot_factory: BotFactory | None = None,
        clock: Callable[[], float] = time.time,
    ) -> HostTable:
        """Rebuild a table from ``snapshot()``; every connection is treated as dropped.

        Raises ``SnapshotError`` with a readable reason for a file that is not a snapshot, is of
        another version, belongs to another host identity, or is damaged or inconsistent.
        """
        try:
            obj = unpack_state(data)
        except CodecError as exc:
            raise SnapshotError(f"not a table snapshot ({exc})") from exc
        if not isinstance(obj, dict) or obj.get("format") != SNAPSHOT_FORMAT:
            raise SnapshotError("not a briscola-lan table snapshot: start a new table")
        if obj.get("version") != SNAPSHOT_VERSION:
            raise SnapshotError(
                f"snapshot version {obj.get('version')!r} is not {SNAPSHOT_VERSION}: "
                "it was saved by another briscola-lan version; start a new table"
            )
        table = cls.__new__(cls)
        try:
            _load_state(table, Fields(obj.get("state"), "state"), identity)
        except SnapshotError:
            raise
        except (RulesError, StatementError, CodecError, ValueError, KeyError, TypeError) as exc:
            raise SnapshotError(f"damaged table snapshot: {exc}") from exc
        table.entropy = entropy
        table.clock = clock
        table.bot_factory = bot_factory or default_bot_factory
        table._bots = {}
        table.conns = {}
        table.on_relay = None
        table.signals = HostSignals(table)  # read again from the transcript when asked
        table._rebase = True
        return table

    # --- methods the host's own CLI may call ---------------------------------------------------

    def set_ai_seat(self, seat: int, level: str | None) -> list[Outgoing]:
        out: list[Outgoing] = []
        try:
            self._set_ai(seat, level, out)
        except Refused as r:
            raise ValueError(r.text) from None
        return out

    def start(self) -> list[Outgoing]:
        out: list[Outgoing] = []
        try:
            self._start_match(out)
        except Refused as r:
            raise ValueError(r.text) from None
        return out

    @property
    def seat_infos(self) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(
                i, s.occupied, s.name, s.key, s.ai, s.ai is not None or s.conn is not None, s.ready
            )
            for i, s in enumerate(self.seats)
        )

    # --- dispatch -------------------------------------------------------------------------------

    def _dispatch(self, conn: int, msg: Message, out: list[Outgoing]) -> None:
        c = self.conns[conn]
        if not c.hello:
            if not isinstance(msg, m.Hello):
                raise Refused(ErrorCode.HELLO_FIRST, "send Hello first")
            self._hello(conn, c, msg, out)
            return
        if isinstance(msg, m.Hello):
            raise Refused(ErrorCode.WRONG_PHASE, "already said hello on this connection")
        if isinstance(msg, m.TakeSeat):
            self._take_seat(conn, c, msg.seat, out)
        elif isinstance(msg, m.LeaveSeat):
            self._my_seat(c)  # not_seated before wrong_phase, as for every seated command
            self._leave_seat(c, out)
        elif isinstance(msg, m.SetReady):
            s = self._my_seat(c)
            self._need_phase(Phase.LOBBY)
            self.seats[s].ready = msg.ready
            self._seats_changed(out, f"{self.seats[s].name} is {'' if msg.ready else 'not '}ready")
        elif isinstance(msg, m.SetAiSeat):
            self._need_owner(c)
            self._set_ai(msg.seat, msg.level, out)
        elif isinstance(msg, m.StartMatch):
            self._need_owner(c)
            self._start_match(out)
        elif isinstance(msg, m.SendSignal):
            self.signals.receive(self._my_seat(c), msg.body, msg.sig, out)
        elif isinstance(msg, m.AckHand):
            self._on_ack(self._my_seat(c), msg.body, msg.sig, out)
        elif type(msg) in _DEAL_MESSAGES:
            self._on_deal_message(self._my_seat(c), msg, out)
        else:
            raise Refused(ErrorCode.BAD_MESSAGE, f"{type(msg).__name__} is not sent by clients")

    def _on_deal_message(self, seat_no: int, msg: Message, out: list[Outgoing]) -> None:
        """A statement for the hand's deal (or the draw's seeds): to whoever runs it now."""
        rnd = self.draw_round
        if self.drawing and rnd is not None and isinstance(msg, m.CommitSeed | m.RevealSeed):
            if isinstance(msg, m.CommitSeed):
                rnd.on_commit(seat_no, msg.body, msg.sig, out)
            else:
                rnd.on_reveal(seat_no, msg.body, msg.sig, out)
            return
        deal = self.deal
        if deal is not None and not self.drawing and deal.receive(seat_no, msg, out):
            return
        if (msg.body, msg.sig) in self.records:  # type: ignore[union-attr]
            return  # sent again by a resumed client after its round was over
        decode(msg.body)  # type: ignore[union-attr]  # a malformed statement says so first
        raise Refused(ErrorCode.WRONG_PHASE, f"not now: the table is in the {self.phase} phase")

    def _my_seat(self, c: _Conn) -> int:
        if c.seat is None:
            raise Refused(ErrorCode.NOT_SEATED, "take a seat first")
        return c.seat

    def _need_owner(self, c: _Conn) -> None:
        if self._my_seat(c) != 0:  # not_seated first, then not_allowed (SPEC.md §7)
            raise Refused(ErrorCode.NOT_ALLOWED, "only the player in seat 0 manages the table")

    def _need_phase(self, *phases: Phase) -> None:
        if self.phase not in phases:
            raise Refused(ErrorCode.WRONG_PHASE, f"not now: the table is in the {self.phase} phase")

    def _hello(self, conn: int, c: _Conn, msg: m.Hello, out: list[Outgoing]) -> None:
        if msg.version != PROTOCOL_VERSION:
            raise Refused(
                ErrorCode.BAD_VERSION,
                f"this table speaks protocol version {PROTOCOL_VERSION}, your client speaks "
                f"{msg.version}: update briscola-lan on the older side",
            )
        try:
            check_public_key(msg.public_key)
        except InvalidKey as exc:
            raise Refused(
                ErrorCode.BAD_KEY, f"public_key is not a valid Ed25519 identity key: {exc}"
            ) from None
        self._check_proof(c, msg)
        c.proven += 1
        again = c.proven > 1  # one retry (without the token) per connection, then it closes
        name = msg.name.strip()[:MAX_NAME] or "player"
        seat_no: int | None = None
        if msg.resume_token is not None:
            for i, s in enumerate(self.seats):
                if s.token is not None and secrets.compare_digest(s.token, msg.resume_token):
                    seat_no = i
            if seat_no is None:
                raise Refused(
                    ErrorCode.BAD_TOKEN, "unknown resume token: join as a new player", close=again
                )
            if self.seats[seat_no].key != msg.public_key:
                raise Refused(
                    ErrorCode.BAD_TOKEN, "resume token belongs to another identity", close=again
                )
        c.hello = True
        out.append(
            Outgoing(
                conn,
                m.Welcome(
                    PROTOCOL_VERSION,
                    self.name,
                    self.options,
                    self.identity.public_key,
                    self.seat_infos,
                    seat_no,
                    None if seat_no is None else self.seats[seat_no].token,
                    self.draw_partners,
                    self.draw_dealer,
                    self.deal_mode,
                    self.hints,
                ),
            )
        )
        c_name = name
        if seat_no is None:
            self._pending_names[conn] = (c_name, msg.public_key)
            return
        seat = self.seats[seat_no]
        old = seat.conn
        if old is not None and old in self.conns:
            self.conns[old].seat = None
            out.append(Outgoing(old, m.Error(ErrorCode.BAD_TOKEN, "resumed elsewhere"), close=True))
        c.seat, seat.conn, seat.dropped_at = seat_no, conn, None
        self._pending_names[conn] = (seat.name, seat.key)
        for logged in seat.log:
            out.append(Outgoing(conn, logged))
        out.append(Outgoing(conn, m.ReplayDone()))  # the end of the replay: live from here on
        if self.phase is Phase.LOBBY:
            self._seats_changed(out, f"{seat.name} is back")
        else:
            self.broadcast(out, m.PlayerConnection(seat_no, True), log=False)

    def _check_proof(self, c: _Conn, msg: m.Hello) -> None:
        """The hello must prove the key: its signature over this connection's challenge."""
        if msg.proof is None:
            raise Refused(
                ErrorCode.BAD_PROOF,
                "hello has no proof of the identity key: update briscola-lan on the client",
            )
        body = hello_proof(c.nonce, self.identity.public_key, c.channel, msg.public_key)
        if not verify_signature(msg.public_key, body, msg.proof):
            raise Refused(
                ErrorCode.BAD_PROOF,
                "hello's proof does not verify: it must be signed by the private key of "
                "public_key, over this connection's challenge and the table's certificate",
            )

    def _take_seat(self, conn: int, c: _Conn, seat_no: int, out: list[Outgoing]) -> None:
        self._need_phase(Phase.LOBBY)
        if not 0 <= seat_no < len(self.seats):
            raise Refused(ErrorCode.NO_SUCH_SEAT, f"seats are 0..{len(self.seats) - 1}")
        if c.seat == seat_no:  # asked again (SPEC.md §5): answered, nothing changes
            out.append(Outgoing(conn, m.SeatAssigned(seat_no, self.seats[seat_no].token)))
            return
        if self.seats[seat_no].occupied:
            raise Refused(ErrorCode.SEAT_TAKEN, f"seat {seat_no} is taken: choose a free seat")
        name, key = self._pending_names.get(conn, ("player", b""))
        if c.seat is None and any(s.occupied and s.key == key for s in self.seats if s.ai is None):
            raise Refused(
                ErrorCode.NOT_ALLOWED, "this identity already holds a seat on another connection"
            )
        if c.seat is not None:  # a move to a free seat: the same player, the same resume token
            old = c.seat
            token = self.seats[old].token
            self.seats[old] = Seat()
            event = f"{name} moved from seat {old} to seat {seat_no}"
        else:
            token = self.entropy(16).hex()
            event = f"{name} took seat {seat_no}"
        self.seats[seat_no] = Seat(True, name, key, None, None, conn, token)
        c.seat = seat_no
        out.append(Outgoing(conn, m.SeatAssigned(seat_no, token)))
        self._seats_changed(out, event)

    def _leave_seat(self, c: _Conn, out: list[Outgoing]) -> None:
        self._need_phase(Phase.LOBBY)
        s = self._my_seat(c)
        name = self.seats[s].name
        self.seats[s] = Seat()
        conn = next(k for k, v in self.conns.items() if v is c)
        c.seat = None
        out.append(Outgoing(conn, m.SeatAssigned(None, None)))
        self._seats_changed(out, f"{name} left seat {s}")

    def _put_ai(self, seat_no: int, level: str) -> None:
        ident = Identity.generate(self.entropy(32))
        self.seats[seat_no] = Seat(
            True, f"AI {level} {seat_no}", ident.public_key, level, ident, None, None, True
        )

    def _set_ai(self, seat_no: int, level: str | None, out: list[Outgoing]) -> None:
        self._need_phase(Phase.LOBBY)
        if not 0 <= seat_no < len(self.seats):
            raise Refused(ErrorCode.NO_SUCH_SEAT, f"seats are 0..{len(self.seats) - 1}")
        seat = self.seats[seat_no]
        if level is None:
            if seat.ai is None:
                raise Refused(ErrorCode.NOT_ALLOWED, f"seat {seat_no} has no AI to remove")
            self.seats[seat_no] = Seat()
            self._seats_changed(out, f"AI removed from seat {seat_no}")
            return
        if seat.occupied and seat.ai is None:
            raise Refused(ErrorCode.SEAT_TAKEN, f"a player sits in seat {seat_no}")
        problem = unknown_level(level)
        if problem is not None:
            raise Refused(ErrorCode.UNKNOWN_LEVEL, problem)
        self._put_ai(seat_no, level)
        self._seats_changed(out, f"AI ({level}) sits in seat {seat_no}")

    # --- broadcasting ---------------------------------------------------------------------------

    def _seats_changed(self, out: list[Outgoing], event: str) -> None:
        self.broadcast(out, m.SeatsChanged(self.seat_infos, event), log=False)

    def broadcast(self, out: list[Outgoing], msg: Message, log: bool = True) -> None:
        for conn, c in self.conns.items():
            if c.hello:
                out.append(Outgoing(conn, msg))
        if log:
            for seat in self.seats:
                if seat.ai is None:
                    seat.log.append(msg)

    def to_seat(self, out: list[Outgoing], seat_no: int, msg: Message) -> None:
        seat = self.seats[seat_no]
        if seat.ai is None:
            seat.log.append(msg)
        if seat.conn is not None:
            out.append(Outgoing(seat.conn, msg))

    def sign(self, st: Statement, signer: Identity | None = None) -> Record:
        body = st.encode()
        rec = (body, (signer or self.identity).sign(body))
        self.append(rec, st.PUBLIC)
        return rec

    def receipt(self, seat_no: int, hand: int, rec: Record, out: list[Outgoing]) -> None:
        """Give the seat the host's signed receipt for a statement it sent: its evidence that
        the host had it (never in the host's own transcript; the seat's file holds it)."""
        st = Receipt(self.game_id, hand, seat_no, int(self.clock()), rec[0], rec[1])
        body = st.encode()
        self.to_seat(out, seat_no, m.ReceiptIssued(body, self.identity.sign(body)))

    def append(self, rec: Record, public: bool, *, transparent: bool = False) -> None:
        """A record enters the host's transcript (``transparent``: a public record that makes
        nothing due, fairness.md §8.1, such as a late key reveal)."""
        self.records.append(rec)
        if public:
            self.context.published(kind_of(rec[0]), rec[0], transparent=transparent)

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

    # --- the match ------------------------------------------------------------------------------

    def _reset_hand_state(self) -> None:
        n = self.options.players
        self._pending_names: dict[int, tuple[str, bytes]] = getattr(self, "_pending_names", {})
        self.acks: list[Record | None] = [None] * n
        self.deadline = 0.0
        self.chain_at_reveal = b""
        self.last_ai_move = -1e18

    def _start_match(self, out: list[Outgoing]) -> None:
        self._need_phase(Phase.LOBBY)
        missing = [i for i, s in enumerate(self.seats) if not s.occupied]
        if missing:
            raise Refused(ErrorCode.NOT_READY, f"seats {missing} are empty: seat players or AIs")
        unready = [i for i, s in enumerate(self.seats) if s.ai is None and not s.ready]
        if unready:
            raise Refused(ErrorCode.NOT_READY, f"seats {unready} are not ready yet")
        self.game_id = self.entropy(16)
        if self.draw_partners or self.draw_dealer:
            self._start_draw(out)
        else:
            self._sign_match_start(0, out)

    def _start_draw(self, out: list[Outgoing]) -> None:
        """Open the draw: a commit-reveal round like a hand's, in lobby seat numbers."""
        self._reset_hand_state()
        self.drawing = True
        self.hand_number = DRAW_HAND
        self.draw_seed = self.entropy(32)
        ds = DrawStart(
            self.game_id,
            self.options.players,
            int(self.draw_partners),
            int(self.draw_dealer),
            self.identity.public_key,
            tuple(s.key for s in self.seats),
            tuple(s.name for s in self.seats),
            seed_commitment(self.game_id, DRAW_HAND, HOST_PARTY, self.draw_seed),
        )
        self.broadcast(out, m.DrawStarted(*self.sign(ds)))
        self.draw_round = self.seed_round(DRAW_HAND, self._finish_draw)
        self.draw_round.start(out)

    def _finish_draw(self, seeds: list[bytes], out: list[Outgoing]) -> None:
        """Reveal the draw, move every player to its drawn seat, then start the match."""
        start = decode(self.records[0][0])
        assert isinstance(start, DrawStart)
        result = draw_result(start, self.draw_seed, seeds)
        dr = DrawReveal(self.game_id, self.draw_seed, result.cards, result.seating, result.dealer)
        self.broadcast(out, m.DrawRevealed(*self.sign(dr)))
        self.drawing, self.draw_round = False, None
        moved = [Seat()] * len(self.seats)
        for lobby, new_seat in enumerate(result.seating):
            moved[new_seat] = self.seats[lobby]
        self.seats = moved
        for i, seat in enumerate(self.seats):
            if seat.conn is not None and seat.conn in self.conns:
                self.conns[seat.conn].seat = i
            if seat.ai is None:
                self.to_seat(out, i, m.SeatAssigned(i, seat.token))
        if result.seating != tuple(range(len(self.seats))):
            self._seats_changed(out, "players moved to the seats the draw gave them")
        self._sign_match_start(result.dealer, out)

    def _sign_match_start(self, first_dealer: int, out: list[Outgoing]) -> None:
        o = self.options
        ms = MatchStart(
            self.game_id,
            o.players,
            str(o.match_format),
            o.hands_to_win,
            int(o.partner_exchange),
            int(o.removed_two),
            self.identity.public_key,
            tuple(s.key for s in self.seats),
            tuple(s.name for s in self.seats),
            tuple(s.ai or "" for s in self.seats),
            first_dealer,
            self.name,
        )
        body, sig = self.sign(ms)
        self.match = Match(o, first_dealer)
        self.broadcast(out, m.MatchStarted(body, sig))
        extra = match_options.texts(o)
        if extra:  # the options match-start has no field for (fairness.md §12.1)
            self.broadcast(out, m.OptionsSet(*self.sign(MatchOptions(self.game_id, extra))))
        self._start_hand(out)

    def seed_round(
        self, hand: int, on_revealed: Callable[[list[bytes], list[Outgoing]], None]
    ) -> SeedRound:
        """The commit-reveal round of seeds for a classic hand, or the draw (``DRAW_HAND``)."""
        return SeedRound(self, hand, on_revealed)

    def host_plays(self, seat_no: int) -> bool:
        s = self.seats[seat_no]
        return s.ai is not None or s.taken_over

    def benched(self, seat_no: int) -> bool:
        """Aborted hands named this person's seat twice: the host plays it to the end of the
        match (protocol/fairness.md §8.7); a blind hand does not call it."""
        return self.seats[seat_no].ai is None and self.named.get(seat_no, 0) >= BENCHED_AFTER

    def seat_signer(self, seat_no: int) -> Identity:
        s = self.seats[seat_no]
        if s.ai_identity is not None:
            return s.ai_identity
        return self.identity

    def _start_hand(self, out: list[Outgoing]) -> None:
        assert self.match is not None
        if self.deal_mode == CLASSIC:  # a seat benched: the AI plays it, from before the commits
            for i, seat in enumerate(self.seats):
                if self.benched(i) and not seat.taken_over:
                    self._takeover(i, True, out)
        self._reset_hand_state()
        self.hand_number = self.match.hand_number + sum(self.named.values())  # aborted: dealt again
        cls = BlindDeal if self.deal_mode == BLIND else ClassicDeal
        self.deal = cls(self, self.hand_number, self.match.next_dealer)
        self.deal.start(out)

    def check_sig(self, seat_no: int, body: bytes, sig: bytes) -> None:
        seat = self.seats[seat_no]
        if not verify_signature(seat.key, body, sig):
            raise Refused(ErrorCode.BAD_SIGNATURE, "signature does not verify with your key")

    def _check_context(self, st: Statement, seat_no: int) -> None:
        refuse_foreign(st, self.game_id, self.hand_number, seat_no)

    def hand_over(self, points: tuple[int, ...], out: list[Outgoing], *, acks: bool = True) -> None:
        """The deal signed the hand's end record: the match records its points; if they decide
        the match the host signs match-end; then (``acks``; a blind hand's come after its key
        reveals, ``start_acks``) every seat acknowledges the hand."""
        match = self.match
        assert match is not None and self.deal is not None
        match.record_points(points, self.deal.dealer)
        if match.is_over:
            assert match.winner is not None
            end = MatchEnd(
                self.game_id,
                len(match.results),
                match.winner,
                match.hands_won(),
                match.total_points(),
            )
            self.broadcast(out, m.MatchDecided(*self.sign(end)))
        if acks:
            self.start_acks(out)

    def start_acks(self, out: list[Outgoing]) -> None:
        """The hand is over: every seat acknowledges the chain as it is now (the host for the
        seats it plays)."""
        self.chain_at_reveal = self.chain  # after the match-end: the last acks cover it
        self.phase = Phase.ACK
        self.deadline = self.now + self.timeout
        for i in range(len(self.seats)):
            if self.host_plays(i):
                self._host_ack(i, out)

    def _host_ack(self, seat_no: int, out: list[Outgoing]) -> None:
        st = Ack(self.game_id, self.hand_number, seat_no, self.chain_at_reveal)
        body = st.encode()
        self._accept_ack(seat_no, (body, self.seat_signer(seat_no).sign(body)), out)

    def _on_ack(self, seat_no: int, body: bytes, sig: bytes, out: list[Outgoing]) -> None:
        st = decode(body)
        if not isinstance(st, Ack):
            raise Refused(ErrorCode.BAD_STATEMENT, "AckHand must carry an ack statement")
        if self.acks[seat_no] == (body, sig) or self._ack_made_by_host(seat_no, st, body):
            return  # repeated by a resumed client, or answering a replayed message
        self._need_phase(Phase.ACK)
        self._check_context(st, seat_no)
        self.check_sig(seat_no, body, sig)
        if self.acks[seat_no] is not None:
            raise Refused(ErrorCode.BAD_STATEMENT, "you already acknowledged this hand")
        if st.chain_hash != self.chain_at_reveal:
            # Either this client was sent a different history (the host's fault, which the
            # client sees when its ack is missing) or it lies: never relay it, so that a seat
            # cannot frame the host with a bogus acknowledgement.
            raise Refused(
                ErrorCode.BAD_STATEMENT,
                "your transcript hash differs from the host's: the histories differ",
            )
        self.receipt(seat_no, st.hand, (body, sig), out)
        self._accept_ack(seat_no, (body, sig), out)

    def _accept_ack(self, seat_no: int, rec: Record, out: list[Outgoing]) -> None:
        self.acks[seat_no] = rec
        if all(a is not None for a in self.acks):
            self._close_hand(out)

    def _close_hand(self, out: list[Outgoing]) -> None:
        match = self.match
        assert match is not None
        recs = tuple(a for a in self.acks if a is not None)
        for r in recs:
            self.append(r, False)
        self.broadcast(out, m.HandAcked(recs))
        if match.is_over:
            self.phase = Phase.OVER
            self.broadcast(
                out, m.MatchEnded(match.winner, match.hands_won(), match.total_points(), False)
            )
        else:
            if self.deal_mode == CLASSIC:  # blind: each hand's parties say who the host plays
                self._hand_back(out)  # before hand_started: a returned player commits to it
            self._start_hand(out)

    def abort(self, seat_no: int, reason: str, out: list[Outgoing]) -> None:
        """Abort the hand (or the draw) naming a seat or the host. A hand aborted naming a seat
        counts for nothing and is dealt again once the message being handled is done (the deal
        that aborted may still be unwinding); the draw's abort, or one naming the host, ends
        the match (protocol/fairness.md §8.7)."""
        match = self.match
        rec = self.sign(Abort(self.game_id, self.hand_number, seat_no, reason))
        self.broadcast(out, m.HandAborted(*rec))
        self.phase = Phase.OVER
        if match is not None and not self.drawing and seat_no != HOST_PARTY:
            self.named[seat_no] = self.named.get(seat_no, 0) + 1
            self._replay_due = True
            return
        self.drawing, self.draw_round = False, None
        zero = (0,) * self.options.sides
        won, points = (match.hands_won(), match.total_points()) if match else (zero, zero)
        self.broadcast(out, m.MatchEnded(None, won, points, True))

    def _replay_if_due(self, out: list[Outgoing]) -> None:
        """A hand aborted naming a seat: the same dealer deals it again, with a fresh deal and
        the next hand number; a seat named twice is played by the host from now on."""
        if not self._replay_due:
            return
        self._replay_due = False
        if self.deal_mode == CLASSIC:
            self._hand_back(out)
        self._start_hand(out)

    def _takeover(self, seat_no: int, ai: bool, out: list[Outgoing]) -> None:
        plays = self.deal.plays_so_far if self.deal is not None else 0
        rec = self.sign(Takeover(self.game_id, self.hand_number, seat_no, int(ai), plays))
        self.seats[seat_no].taken_over = ai
        self.broadcast(out, m.SeatTakenOver(*rec))

    # --- time -----------------------------------------------------------------------------------

    def _tick(self, out: list[Outgoing]) -> None:
        if self.phase is Phase.LOBBY:
            self._free_abandoned_seats(out)
            return
        if self.phase is Phase.OVER:
            return
        if self.drawing:  # the draw has no takeovers: a missing seat is named
            if self.draw_round is not None:
                self.draw_round.tick(out)
            return
        deal = self.deal
        assert deal is not None
        turn = (deal.number, deal.plays_so_far, deal.to_play)
        if turn != self._turn:  # the hand waits for another card (or none): its clock starts
            self._turn, self.turn_since = turn, self.now
        if isinstance(deal, ClassicDeal):
            self._classic_takeovers(deal, out)
        if self.phase is Phase.PLAY:
            self.signals.tick(out)  # an AI seat signals before it plays
            self._ai_moves(out)
        if self.phase is Phase.ACK:
            if self.now >= self.deadline:
                self._close_hand(out)
        else:
            deal.tick(out)

    def _classic_takeovers(self, deal: ClassicDeal, out: list[Outgoing]) -> None:
        """Classic deal: an AI plays the seat of a player gone for the grace period (or who has
        not committed by the deadline), and hands it back when the player returns."""
        if self.phase is Phase.PLAY:
            self._hand_back(out)
        for i, seat in enumerate(self.seats):
            stalls = (  # connected, but the card it owes is overdue: the AI plays the hand out
                seat.conn is not None and deal.to_play == i and self.play_due(i)
            )
            if (
                seat.ai is None
                and not seat.taken_over
                and (
                    stalls
                    or (
                        seat.conn is None
                        and seat.dropped_at is not None
                        and (self.now - seat.dropped_at >= self.grace or deal.commit_due(i))
                    )
                )
                and deal.may_take_over(i)
            ):
                seat.stalled = stalls
                self._takeover(i, True, out)
                if self.phase is Phase.ACK:
                    if self.acks[i] is None:
                        self._host_ack(i, out)
                else:
                    deal.after_takeover(i, out)

    @property
    def play_deadline(self) -> bool:
        """Whether a person's card has a deadline: with two or more people at the table (at a
        practice table against AI players, the person takes the time it wants)."""
        return sum(1 for s in self.seats if s.ai is None) >= 2

    def play_due(self, seat_no: int) -> bool:
        """The card the hand waits for from this seat is overdue (``play_timeout``)."""
        deal = self.deal
        return (
            deal is not None
            and deal.to_play == seat_no
            and self.play_deadline
            and self.now - self.turn_since >= self.play_timeout
        )

    def _hand_back(self, out: list[Outgoing]) -> None:
        """Give AI-played seats back to their players who are connected again.

        Only while cards are played or when the hand is closed, before the next one starts:
        during the commit and reveal the AI holds the seat's seed and reveals it itself, and
        during the acknowledgements it has acknowledged the hand for the seat (acks are recorded
        when the hand closes, and must be signed while the AI holds the seat). A seat taken for
        not playing in time is given back when the hand is closed (``stalled``).
        """
        closing = self.phase is not Phase.PLAY
        for i, seat in enumerate(self.seats):
            if self.benched(i):
                continue
            if seat.taken_over and seat.conn is not None and (closing or not seat.stalled):
                seat.stalled = False
                self._takeover(i, False, out)

    def _ack_made_by_host(self, seat_no: int, st: Ack, body: bytes) -> bool:
        """Whether the host already acknowledged this hand for the seat (the same bytes), or
        the ack is of an earlier hand: a resumed client answering replayed messages."""
        if st.game_id != self.game_id or self.drawing:
            return False
        if st.hand < self.hand_number:
            return True
        if st.hand != self.hand_number:
            return False
        ack = self.acks[seat_no]
        return ack is not None and ack[0] == body

    def _free_abandoned_seats(self, out: list[Outgoing]) -> None:
        """Lobby: a player gone for the grace period loses the seat (and its resume token)."""
        for i, seat in enumerate(self.seats):
            if (
                seat.occupied
                and seat.ai is None
                and seat.conn is None
                and seat.dropped_at is not None
                and self.now - seat.dropped_at >= self.grace
            ):
                self.seats[i] = Seat()
                self._seats_changed(out, f"{seat.name} did not come back: seat {i} is free")

    def _ai_moves(self, out: list[Outgoing]) -> None:
        deal = self.deal
        while deal is not None and self.phase is Phase.PLAY:
            seat_no = deal.to_play
            if seat_no is None or not self.host_plays(seat_no):
                return
            if self.now - self.last_ai_move < self.ai_delay:
                return
            view = deal.view(seat_no)
            if view is None:
                return
            bot = self._bots.get(seat_no)
            if bot is None:
                level = self.seats[seat_no].ai or "rules"
                seed = int.from_bytes(self.game_id[:4], "big") + seat_no
                bot = self._bots[seat_no] = self.bot_factory(level, seed)
            card = bot.choose(view)
            if card not in view.hand:
                self.internal_errors.append(f"bot for seat {seat_no} chose {card!r}")
                card = view.legal_plays[0]
            deal.play_for(seat_no, card, out)
            self.last_ai_move = self.now
            if self.ai_delay > 0:
                return


# --- the snapshot file ---------------------------------------------------------------------------


class _MessageTable:
    """The messages of every seat's log, each encoded once: a broadcast is one object in every
    human seat's log, so the snapshot stores it once and the logs hold indices (SPEC.md §10).
    The encodings are kept from one snapshot to the next (with the message, so an id is never
    reused while it is cached): a snapshot encodes only what was sent since the last one."""

    def __init__(self, cache: dict[int, tuple[Message, bytes]]) -> None:
        self.old = cache
        self.cache: dict[int, tuple[Message, bytes]] = {}
        self.index: dict[int, int] = {}
        self.encoded: list[bytes] = []

    def add(self, msg: Message) -> int:
        key = id(msg)
        at = self.index.get(key)
        if at is None:
            hit = self.old.get(key)
            data = hit[1] if hit is not None and hit[0] is msg else encode_message(msg)
            self.cache[key] = (msg, data)
            at = self.index[key] = len(self.encoded)
            self.encoded.append(data)
        return at


def _dump_seat(seat: Seat, messages: _MessageTable) -> dict[str, object]:
    return {
        "occupied": seat.occupied,
        "name": seat.name,
        "key": seat.key,
        "ai": seat.ai,
        "ai_private_key": seat.ai_identity.private_bytes() if seat.ai_identity else None,
        "token": seat.token,
        "ready": seat.ready,
        "connected": seat.conn is not None,
        "dropped_at": seat.dropped_at,
        "taken_over": seat.taken_over,
        "stalled": seat.stalled,
        "log": [messages.add(msg) for msg in seat.log],
    }


def _load_seat(f: Fields, now: float, messages: list[Message]) -> Seat:
    private = f.opt_bytes("ai_private_key")
    seat = Seat(
        occupied=f.get_bool("occupied"),
        name=f.get_str("name"),
        key=f.get_bytes("key"),
        ai=f.opt_str("ai"),
        ai_identity=Identity(private) if private is not None else None,
        conn=None,
        token=f.opt_str("token"),
        ready=f.get_bool("ready"),
        dropped_at=f.opt_float("dropped_at"),
        taken_over=f.get_bool("taken_over"),
        stalled=f.get_bool("stalled"),
        log=[_logged(messages, i) for i in f.ints("log")],
    )
    if seat.ai_identity is not None and seat.ai_identity.public_key != seat.key:
        raise SnapshotError("damaged table snapshot: an AI seat's key does not match")
    problem = None if seat.ai is None else unknown_level(seat.ai)
    if problem is not None:
        raise SnapshotError(f"damaged table snapshot: {problem}")
    if f.get_bool("connected"):  # it was connected when the host died: it is dropped now
        seat.dropped_at = now
    return seat


def _logged(messages: list[Message], i: int) -> Message:
    if not 0 <= i < len(messages):
        raise SnapshotError(f"damaged table snapshot: a seat's log names message {i}")
    return messages[i]


def _dump_state(t: HostTable) -> dict[str, object]:
    match = t.match
    messages = _MessageTable(t.encoded_cache)
    seats = [_dump_seat(seat, messages) for seat in t.seats]
    t.encoded_cache = messages.cache
    return {
        "host_key": t.identity.public_key,
        "options": t.options.to_dict(),
        "name": t.name,
        "grace": t.grace,
        "timeout": t.timeout,
        "call_wait": t.call_wait,
        "play_timeout": t.play_timeout,
        "ai_delay": t.ai_delay,
        "draw_partners": t.draw_partners,
        "draw_dealer": t.draw_dealer,
        "deal_mode": t.deal_mode,
        "hints": t.hints,
        "drawing": t.drawing,
        "messages": messages.encoded,
        "seats": seats,
        "phase": str(t.phase),
        "now": t.now,
        "records": [list(r) for r in t.records],
        "chain": t.chain,
        "game_id": t.game_id,
        "match": None
        if match is None
        else {
            "first_dealer": match.first_dealer,
            "results": [[r.dealer, list(r.points)] for r in match.results],
        },
        "deal": None if t.deal is None else t.deal.dump(),
        "draw": None
        if t.draw_round is None
        else {"seed": t.draw_seed, "round": t.draw_round.dump()},
        "hand_number": t.hand_number,
        "internal_errors": list(t.internal_errors),
        "acks": [None if r is None else list(r) for r in t.acks],
        "deadline": t.deadline,
        "chain_at_reveal": t.chain_at_reveal,
        "last_ai_move": t.last_ai_move,
    }


def _load_state(t: HostTable, f: Fields, identity: Identity) -> None:
    if f.get_bytes("host_key") != identity.public_key:
        raise SnapshotError("snapshot belongs to another host identity")
    options = TableOptions.from_dict(dict(f.map("options").obj))
    n = options.players
    t.options, t.identity = options, identity
    t.name = f.get_str("name")[:MAX_NAME]
    t.grace, t.timeout, t.ai_delay = (
        f.get_float("grace"),
        f.get_float("timeout"),
        f.get_float("ai_delay"),
    )
    t.call_wait = f.get_float("call_wait")
    t.play_timeout = f.get_float("play_timeout")
    t.draw_partners, t.draw_dealer = f.get_bool("draw_partners"), f.get_bool("draw_dealer")
    t.deal_mode = f.get_str("deal_mode")
    if t.deal_mode not in DEAL_MODES:
        raise SnapshotError(f"damaged table snapshot: unknown deal {t.deal_mode!r}")
    t.hints = bool(f.obj.get("hints", False))  # absent in snapshots from before the option
    t.drawing = f.get_bool("drawing")
    t.now = f.get_float("now")
    t.turn_since, t._turn = t.now, None  # a card owed when the host stopped: its time again
    seats = f.get_list("seats")
    if len(seats) != n:
        raise SnapshotError(f"damaged table snapshot: {n} seats expected")
    messages = [decode_message(b) for b in f.bytes_list("messages")]
    t.seats = [
        _load_seat(Fields(s, f"state.seats[{i}]"), t.now, messages) for i, s in enumerate(seats)
    ]
    t.encoded_cache = {}
    t.phase = Phase(f.get_str("phase"))
    t.records = [record(r) for r in f.get_list("records")]
    t.context = ContextChain()
    t.named, t._replay_due = {}, False
    for body, _sig in t.records:  # the chain is recomputed, so edited records are noticed
        st = decode(body)
        if st.PUBLIC:
            t.context.follow(body)
        if isinstance(st, Abort) and st.hand != DRAW_HAND and st.seat != HOST_PARTY:
            t.named[st.seat] = t.named.get(st.seat, 0) + 1  # a hand dealt again (§8.7)
    if t.chain != f.get_bytes("chain"):
        raise SnapshotError("damaged table snapshot: the records do not match their hash chain")
    t.game_id = f.get_bytes("game_id")
    t.match = None
    mf = f.opt_map("match")
    if mf is not None:
        t.match = Match(options, mf.get_int("first_dealer"))
        for r in mf.get_list("results"):
            if not (isinstance(r, list) and len(r) == 2 and isinstance(r[0], int)):
                raise SnapshotError("damaged table snapshot: a hand result is not [dealer, points]")
            t.match.record_points(Fields({"p": r[1]}, "result").ints("p"), r[0])
    t.hand_number = f.get_int("hand_number")
    t.internal_errors = [str(x) for x in f.get_list("internal_errors")]
    t._pending_names = {}
    t.acks = opt_records(f, "acks", n)
    t.deal, t.draw_round, t.draw_seed = None, None, b""
    df = f.opt_map("draw")
    if df is not None:
        t.draw_seed = df.get_bytes("seed")
        rf = df.map("round")
        t.draw_round = t.seed_round(rf.get_int("hand"), t._finish_draw)
        t.draw_round.load(rf)
    hf = f.opt_map("deal")
    if hf is not None:
        mode = hf.get_str("mode")
        if mode == CLASSIC:
            t.deal = ClassicDeal.load(t, hf)
        elif mode == BLIND:
            t.deal = BlindDeal.load(t, hf)
        else:
            raise SnapshotError(f"damaged table snapshot: unknown deal {mode!r}")
    t.deadline = f.get_float("deadline")
    t.chain_at_reveal = f.get_bytes("chain_at_reveal")
    t.last_ai_move = f.get_float("last_ai_move")


__all__ = [
    "HostTable",
    "Outgoing",
    "Phase",
    "SnapshotError",
    "TableInfo",
    "fingerprint",
    "unknown_level",
]
