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

``HostTable`` is ``table.core.TableCore`` (the table's state, and how it signs and sends) with
``table.lobby.Lobby`` (hello, seats, AI seats) and ``table.lifecycle.MatchLifecycle`` (the match,
its hands, acknowledgements and deadlines); ``table.host_snapshot`` writes and reads its snapshot
file. This module is its face: the interface the network layer and the host's command line use.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from briscola_lan.fairness.identity import Identity, fingerprint
from briscola_lan.fairness.statements import StatementError
from briscola_lan.rules.errors import RulesError
from briscola_lan.rules.options import TableOptions
from briscola_lan.table import host_snapshot
from briscola_lan.table.core import Bot, BotFactory, Connection, default_bot_factory, unknown_level
from briscola_lan.table.deal import CLASSIC, Checks, Outgoing, Phase, Refused
from briscola_lan.table.deal_classic import ClassicDeal
from briscola_lan.table.lifecycle import MatchLifecycle
from briscola_lan.table.lobby import Lobby
from briscola_lan.table.signals import HostSignals
from briscola_lan.table.snapshot import SnapshotError
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import PROTOCOL_VERSION, ErrorCode, Message

# The messages a hand's deal (or the draw's seed round) takes, each carrying one statement.
_DEAL_MESSAGES: frozenset[type[Message]] = frozenset(
    {
        m.CommitSeed,
        m.RevealSeed,
        m.PlayCard,
        m.MakeBid,
        m.CallCard,
        m.JoinHand,
        m.ShuffleDeck,
        m.LockDeck,
        m.SendShares,
        m.ShowHand,
        m.Complain,
        m.RevealKeys,
    }
)


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


class HostTable(Lobby, MatchLifecycle):
    """One table: lobby, seats, AI players, the match, its hands' deals, acknowledgements."""

    # --- the interface the network layer uses -------------------------------------------------

    def connect(self, conn: int, channel: bytes = b"") -> list[Outgoing]:
        """A new connection: send it a fresh challenge, which its hello must sign.

        ``channel`` is the SHA-256 of the TLS certificate the connection was served with (the
        client signs the one it pinned), or empty for a client in the same process.
        """
        self.rest_mark = object()
        c = self.conns[conn] = Connection(channel=channel)  # the nonce is never the table's entropy
        return [Outgoing(conn, m.Challenge(c.nonce, self.identity.public_key))]

    def receive(self, conn: int, message: Message, *, settle: bool = True) -> list[Outgoing]:
        """Handle one message; bad input gets an Error for ``conn`` and changes nothing.

        ``settle=False``: what the message makes the host sign after it (a card's receipt, the
        draws, the end of the hand; ``due`` says whether there is any) is left owed, and the
        messages returned are the ones that relay it; ``settle()`` does the rest once they have
        left. Whatever comes next (a message, a tick) settles first, and the snapshot keeps
        what is owed: a host stopped in between does it when it resumes."""
        mark, self.rest_mark = self.rest_mark, object()
        if conn not in self.conns:
            self.conns[conn] = Connection()
        out: list[Outgoing] = []
        self._settle(out)
        if self.deal is not None:  # what comes next comes after the due checks
            self.deal.finish_checks(out)
        quiet = not out and not self.due  # nothing was owed or checked before this message
        try:
            self._dispatch(conn, message, out)
        except Refused as r:
            return [*out, Outgoing(conn, m.Error(r.code, r.text), close=r.close)]
        except (StatementError, ValueError) as exc:
            error = m.Error(ErrorCode.BAD_STATEMENT, f"malformed statement: {exc}")
            return [*out, Outgoing(conn, error)]
        if isinstance(message, m.PlayCard | m.MakeBid | m.CallCard):  # the AI players' pace
            # counts from any card played (and any bid or call made)
            self.last_ai_move = self.now
        if settle or not self.due:
            self._settle(out)
            self._replay_if_due(out)
        elif quiet and type(message) is m.PlayCard and isinstance(self.deal, ClassicDeal):
            self.rest_mark = mark  # a classic card: only what ``hot_rest`` reads moved
        return out

    redone = False  # the last ``settle`` is made again by a restored table (see there)

    @property
    def due(self) -> bool:
        """Work owed after the last message (``receive(settle=False)``; ``settle`` does it)."""
        return bool(self.receipts_due) or (self.deal is not None and self.deal.due)

    def settle(self) -> list[Outgoing]:
        """Do what the last message left owed (``receive(settle=False)``): the deal's work,
        then the receipts.

        ``redone`` is then True when what it did is made again, the same bytes, by a table
        restored from a snapshot taken before it (a classic card's trick, draws and receipt:
        Ed25519 signs deterministically, the receipt's time is in the snapshot): its messages
        may leave before a journal has the change."""
        mark, self.rest_mark = self.rest_mark, object()
        deal = self.deal
        hot = isinstance(deal, ClassicDeal) and deal.hot_only and not self._replay_due
        out: list[Outgoing] = []
        self._settle(out)
        self._replay_if_due(out)
        if hot:
            self.rest_mark = mark  # a card's draws and receipt: only what ``hot_rest`` reads
        self.redone = hot
        return out

    def _settle(self, out: list[Outgoing]) -> None:
        if self.deal is not None and self.deal.due:
            self.deal.settle(out)
        if self.receipts_due:
            self.settle_receipts(out)

    def disconnect(self, conn: int) -> list[Outgoing]:
        self.rest_mark = object()
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
        mark, self.rest_mark = self.rest_mark, object()
        quiet = not self._rebase and not self.due  # nothing rebased or owed before the tick
        errors = len(self.internal_errors)
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
            self._settle(out)  # owed when the host stopped, or not settled by the caller
            self._tick(out)
            self._replay_if_due(out)
        except (RulesError, StatementError, ValueError) as exc:  # a bug, never bad input
            self.internal_errors.append(repr(exc))
        if quiet and not out and len(self.internal_errors) == errors:
            self.rest_mark = mark  # a tick with nothing to do: only the clock (``hot_rest``) moved
        return out

    def acts_now(self) -> bool:
        """Whether a ``tick`` right after a message may have work to do at once: outside the
        play of a card (seeds, a deal window, a call, the acknowledgements...), a card or a
        signal of a seat the host plays. While a person's card is awaited only deadlines can
        fall due, and the server's timer ticks for those."""
        deal = self.deal
        if self.phase is not Phase.PLAY or deal is None:
            return True
        to_play = deal.to_play
        if to_play is not None and self.host_plays(to_play):
            return True
        return self.options.signals and any(s.ai is not None for s in self.seats)

    def pending_checks(self) -> Checks | None:
        """Work to run in a worker thread (reading the hand only), if some is due: the key
        reveals of a blind hand, published and on their way to the players."""
        return self.deal.pending_checks() if self.deal is not None else None

    def checks_done(self, checks: Checks, result: object) -> list[Outgoing]:
        """The worker's ``result`` for ``checks``: the hand moves on (or is aborted, naming the
        party whose reveal is wrong); a result for checks already made is ignored."""
        self.rest_mark = object()
        out: list[Outgoing] = []
        self._settle(out)
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
        return host_snapshot.dump(self)

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
        table = cls.__new__(cls)
        host_snapshot.load(table, data, identity)
        return table._restored(entropy, bot_factory, clock)

    @classmethod
    def restore_map(
        cls,
        obj: object,
        *,
        identity: Identity,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        bot_factory: BotFactory | None = None,
        clock: Callable[[], float] = time.time,
    ) -> HostTable:
        """``restore`` from the snapshot's map rather than its bytes (the host's journal
        rebuilds the map, ``table.host_journal``)."""
        table = cls.__new__(cls)
        host_snapshot.load_map(table, obj, identity)
        return table._restored(entropy, bot_factory, clock)

    def _restored(
        self,
        entropy: Callable[[int], bytes],
        bot_factory: BotFactory | None,
        clock: Callable[[], float],
    ) -> HostTable:
        self.entropy = entropy
        self.clock = clock
        self.bot_factory = bot_factory or default_bot_factory
        self._bots, self._chiamata_bots = {}, {}
        self.conns = {}
        self.rest_mark = object()
        self.signals = HostSignals(self)  # read again from the transcript when asked
        self._rebase = True
        return self

    # --- methods the host's own CLI may call ---------------------------------------------------

    def set_ai_seat(self, seat: int, level: str | None) -> list[Outgoing]:
        self.rest_mark = object()
        out: list[Outgoing] = []
        try:
            self._set_ai(seat, level, out)
        except Refused as r:
            raise ValueError(r.text) from None
        return out

    def start(self) -> list[Outgoing]:
        self.rest_mark = object()
        out: list[Outgoing] = []
        try:
            self._start_match(out)
        except Refused as r:
            raise ValueError(r.text) from None
        return out

    # --- dispatch -------------------------------------------------------------------------------

    def _dispatch(self, conn: int, msg: Message, out: list[Outgoing]) -> None:
        c = self.conns[conn]
        if not c.hello:
            if not isinstance(msg, m.Hello):
                raise Refused(ErrorCode.HELLO_FIRST, "send Hello first")
            self._hello(conn, c, msg, out)
            return
        if type(msg) in _DEAL_MESSAGES:  # the commonest by far (every card): asked first
            seat_no, deal = self._my_seat(c), self.deal
            # straight to the hand's deal; the draw's seeds, or a refusal, otherwise
            if deal is None or self.drawing or not deal.receive(seat_no, msg, out):
                self._not_for_the_deal(seat_no, msg, out)
            return
        handler = _HANDLERS.get(type(msg))
        if handler is None:
            raise Refused(ErrorCode.BAD_MESSAGE, f"{type(msg).__name__} is not sent by clients")
        handler(self, conn, c, msg, out)

    def _on_hello_again(self, conn: int, c: Connection, msg: m.Hello, out: list[Outgoing]) -> None:
        raise Refused(ErrorCode.WRONG_PHASE, "already said hello on this connection")

    def _on_take_seat(self, conn: int, c: Connection, msg: m.TakeSeat, out: list[Outgoing]) -> None:
        self._take_seat(conn, c, msg.seat, out)

    def _on_leave_seat(
        self, conn: int, c: Connection, msg: m.LeaveSeat, out: list[Outgoing]
    ) -> None:
        self._my_seat(c)  # not_seated before wrong_phase, as for every seated command
        self._leave_seat(c, out)

    def _on_set_ready(self, conn: int, c: Connection, msg: m.SetReady, out: list[Outgoing]) -> None:
        s = self._my_seat(c)
        self._need_phase(Phase.LOBBY)
        self.seats[s].ready = msg.ready
        self._seats_changed(out, f"{self.seats[s].name} is {'' if msg.ready else 'not '}ready")

    def _on_set_ai(self, conn: int, c: Connection, msg: m.SetAiSeat, out: list[Outgoing]) -> None:
        self._need_owner(c)
        self._set_ai(msg.seat, msg.level, out)

    def _on_start(self, conn: int, c: Connection, msg: m.StartMatch, out: list[Outgoing]) -> None:
        self._need_owner(c)
        self._start_match(out)

    def _on_signal(self, conn: int, c: Connection, msg: m.SendSignal, out: list[Outgoing]) -> None:
        self.signals.receive(self._my_seat(c), msg.body, msg.sig, out)

    def _on_ack_hand(self, conn: int, c: Connection, msg: m.AckHand, out: list[Outgoing]) -> None:
        self._on_ack(self._my_seat(c), msg.body, msg.sig, out)

    def _tick(self, out: list[Outgoing]) -> None:
        if self.phase is Phase.LOBBY:
            self._free_abandoned_seats(out)
        else:
            self._match_tick(out)


# A connection's message once it said hello (a deal's message apart) -> its handler.
_Handler = Callable[[HostTable, int, Connection, Any, list[Outgoing]], None]
_HANDLERS: dict[type[Message], _Handler] = {
    m.Hello: HostTable._on_hello_again,
    m.TakeSeat: HostTable._on_take_seat,
    m.LeaveSeat: HostTable._on_leave_seat,
    m.SetReady: HostTable._on_set_ready,
    m.SetAiSeat: HostTable._on_set_ai,
    m.StartMatch: HostTable._on_start,
    m.SendSignal: HostTable._on_signal,
    m.AckHand: HostTable._on_ack_hand,
}

__all__ = [
    "Bot",
    "BotFactory",
    "HostTable",
    "Outgoing",
    "Phase",
    "SnapshotError",
    "TableInfo",
    "default_bot_factory",
    "fingerprint",
    "unknown_level",
]
