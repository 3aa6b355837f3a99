"""The pure client session: messages from the host in, automatic replies and commands out.

``ClientSession`` keeps an observable ``state`` (everything a UI or a bot needs: seats, the
current ``SeatView``, standings, a log, per-hand verification results) and the client's own
transcript. Seed commits, reveals and acknowledgements are answered automatically and signed
with the player's identity. Every statement received goes through the same ``TranscriptChecker``
the offline verifier uses, and each card is checked at once against the commitment at the
position the public deal schedule says; the signatures of per-card records are checked in one
batch at the end of the hand, before the acknowledgement (or at once when a problem is found),
and the first problem is recorded with the seat at fault.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from briscola_lan.fairness import match_options
from briscola_lan.fairness.blind_hand import BlindHand
from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.classic_hand import ClassicHand
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY, seed_commitment
from briscola_lan.fairness.identity import Identity, fingerprint, verify_signature
from briscola_lan.fairness.predicates import seed_opens
from briscola_lan.fairness.signals import pad, partners_point, seal, unseal
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    BlindEnd,
    BlindPlay,
    BlindStart,
    Deal,
    DrawReveal,
    DrawStart,
    Evidence,
    Exchange,
    HostCommit,
    HostReveal,
    MatchEnd,
    MatchOptions,
    MatchStart,
    Opening,
    Play,
    Present,
    SeedCommit,
    SeedReveal,
    Signal,
    Statement,
    StatementError,
    Takeover,
    decode,
    hello_proof,
)
from briscola_lan.fairness.verify import (
    HOST,
    Fault,
    TranscriptChecker,
    Violation,
    options_of,
)
from briscola_lan.rules.cards import Card
from briscola_lan.rules.events import TrickTaken as RulesTrickTaken
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.match import Match
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.signals import SignalValue
from briscola_lan.table import events as ev
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import CodecError, pack_state, unpack_state
from briscola_lan.wire.messages import PROTOCOL_VERSION, Message, Record, SeatInfo

SECRETS_FORMAT = "briscola-lan-client-secrets"
SECRETS_VERSION = 1


class SecretsError(ValueError):
    """Saved client secrets that cannot be loaded (damaged, foreign or another version)."""


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


class ClientSession:
    """One player's side of the protocol, without I/O."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        on_change: Callable[[ClientState], None] | None = None,
        on_secrets: Callable[[bytes], None] | None = None,
    ) -> None:
        """``on_secrets`` is called with ``pending_secrets()`` each time a new seed is drawn,
        before the message committing to it is returned: save it (beside the resume token) so
        that a restarted client can ``load_secrets`` and still reveal the seed it committed to.
        """
        self.identity = identity
        self.on_secrets = on_secrets
        self.name = name
        self.entropy = entropy
        self.on_change = on_change
        self.state = ClientState()
        self.records: list[Record] = []
        self.host_key = b""
        self._checker = TranscriptChecker(defer_signatures=True, follow=True)
        self._match: Match | None = None
        self._ms: MatchStart | None = None
        self._seeds: dict[tuple[bytes, int], bytes] = {}  # (game id, hand) -> my seed
        # The game that is over (its seeds forgotten): a replay of it draws no seed again.
        self._over: bytes | None = None
        self._sent: dict[tuple[str, int], Message] = {}
        self._chain_at_reveal = b""
        self._acked: dict[int, bool] = {}
        self._ack_due: int | None = None  # the deciding hand: ack once the match-end came
        self._drawing = False  # between DrawStarted and MatchStarted
        self._blind: BlindParty | None = None  # my party in the current blind hand
        self._blind_hand: BlindHand | None = None  # the current blind hand, to its last reveal
        # Past a fault this client checks nothing and takes no part in later blind hands; the
        # seats the host plays are then read from the answers it publishes, unchecked.
        self._sitting_out = False
        self._outside: frozenset[int] = frozenset()
        # the party my seat's view is read from: the current blind hand's, and after its end
        # the last one's (the final table stays on screen until the next hand starts)
        self._shown: BlindParty | None = None
        self._blind_sent: set[bytes] = set()  # blind statements sent on this connection
        self._blind_mine: set[int] = set()  # positions of my cards opened in this blind hand
        # The handshake of the current connection: the host's challenge (None until it came),
        # the TLS certificate the connection was pinned to, and a hello asked for before the
        # challenge came (its resume token), sent as soon as the challenge arrives.
        self._challenge: m.Challenge | None = None
        self._channel = b""
        self._hello_wanted: tuple[str | None] | None = None

    # --- pending secrets (a restart before the reveal must not abort the hand) ----------------

    def pending_secrets(self) -> bytes:
        """This client's seeds of the current game, as a small versioned msgpack blob.

        Seeds already revealed are public, so only the current game's seeds are kept (the
        revealed ones too while it runs: a resumed seat's replay goes through its hands again),
        and none once the game is over; the caller stores the blob privately (it lets the host
        or anyone learn an unrevealed seed).
        """
        seeds = [[gid, hand, seed] for (gid, hand), seed in sorted(self._seeds.items())]
        return pack_state(
            {
                "format": SECRETS_FORMAT,
                "version": SECRETS_VERSION,
                "seeds": seeds,
                "over": self._over,
            }
        )

    def load_secrets(self, data: bytes) -> None:
        """Take back the seeds saved by ``pending_secrets`` (call before ``hello``).

        Raises ``SecretsError`` with a readable reason for a damaged or foreign blob.
        """
        try:
            obj = unpack_state(data)
        except CodecError as exc:
            raise SecretsError(f"not a saved client secrets file ({exc})") from exc
        if not isinstance(obj, dict) or obj.get("format") != SECRETS_FORMAT:
            raise SecretsError("not a briscola-lan client secrets file")
        if obj.get("version") != SECRETS_VERSION:
            raise SecretsError(f"client secrets version {obj.get('version')!r} is not supported")
        items = obj.get("seeds")
        if not isinstance(items, list):
            raise SecretsError("damaged client secrets: seeds must be a list")
        seeds: dict[tuple[bytes, int], bytes] = {}
        for item in items:
            if not (
                isinstance(item, list)
                and len(item) == 3
                and isinstance(item[0], bytes)
                and len(item[0]) == 16
                and isinstance(item[1], int)
                and isinstance(item[2], bytes)
                and len(item[2]) == 32
            ):
                raise SecretsError("damaged client secrets: a seed is not [game id, hand, seed]")
            seeds[(item[0], item[1])] = item[2]
        over = obj.get("over")
        if not (over is None or (isinstance(over, bytes) and len(over) == 16)):
            raise SecretsError("damaged client secrets: over must be a game id or nil")
        self._seeds.update(seeds)
        self._over = over if over is not None else self._over

    def _seed_for(self, game_id: bytes, hand: int) -> bytes | None:
        """My seed for one hand (or the draw) of a game: drawn once, saved before it is used;
        None for a game that is over (a resumed seat's replay of it: there is nothing to send)."""
        key = (game_id, hand)
        seed = self._seeds.get(key)
        if seed is None:
            if game_id == self._over:
                return None
            for old in [k for k in self._seeds if k[0] != game_id]:
                del self._seeds[old]  # another game's seeds are revealed or void
            seed = self._seeds[key] = self.entropy(32)
            if self.on_secrets is not None:
                self.on_secrets(self.pending_secrets())
        return seed

    # --- commands ------------------------------------------------------------------------------

    def bind_channel(self, certificate_sha256: bytes) -> None:
        """A new connection, over TLS with this certificate (SHA-256 of its DER, as pinned): the
        next hello's proof binds it, so that a proof cannot be relayed to another host."""
        self._channel = certificate_sha256
        self._challenge, self._hello_wanted = None, None

    def hello(self, resume_token: str | None = None) -> list[Message]:
        """Introduce this player on the current connection, proving its identity key.

        The proof signs the host's challenge: if it has not come yet, the hello is sent as the
        answer to it (``receive`` returns it), so callers may ask for it right after connecting.
        """
        token = resume_token if resume_token is not None else self.state.resume_token
        if self._challenge is None:
            self._hello_wanted = (token,)
            return []
        return [self._hello(self._challenge, token)]

    def _hello(self, challenge: m.Challenge, token: str | None) -> m.Hello:
        key = self.identity.public_key
        try:
            body = hello_proof(challenge.nonce, challenge.host_key, self._channel, key)
        except StatementError as exc:  # a challenge of the wrong shape: the host will refuse
            self._changed(ev.ChallengeMalformed(str(exc)))
            return m.Hello(PROTOCOL_VERSION, self.name, key, token)
        return m.Hello(PROTOCOL_VERSION, self.name, key, token, self.identity.sign(body))

    def take_seat(self, seat: int) -> list[Message]:
        return [m.TakeSeat(seat)]

    def leave_seat(self) -> list[Message]:
        return [m.LeaveSeat()]

    def ready(self, ready: bool = True) -> list[Message]:
        return [m.SetReady(ready)]

    def set_ai_seat(self, seat: int, level: str | None) -> list[Message]:
        return [m.SetAiSeat(seat, level)]

    def start(self) -> list[Message]:
        return [m.StartMatch()]

    def play(self, card: Card) -> list[Message]:
        """A signed PlayCard for ``card`` (the host refuses it if it is not legal now)."""
        if self._blind is not None:
            seat = self.state.seat
            assert seat is not None
            return [self._signed(m.PlayCard, self._blind.play(seat, card.code))]
        c, ms = self._classic, self._ms
        if c is None or ms is None or self.state.seat is None:
            raise ValueError("no hand in progress: there is nothing to play")
        st = Play(
            ms.game_id,
            self.state.hand_number,
            self.state.seat,
            self._checker.context_for(Play.KIND),
            len(c.plays),
            card.code,
        )
        return [self._signed(m.PlayCard, st)]

    def signal(self, value: SignalValue) -> list[Message]:
        """A signed signal of ``value`` to this seat's partner (fairness.md §12), sealed so that
        only the partner reads it. ValueError when no signal can be made now."""
        s, ms = self.state, self._ms
        view = s.view
        opts = s.options
        if ms is None or s.seat is None or view is None or opts is None or not opts.signals:
            raise ValueError("no signal now: the table does not allow them or no hand is played")
        partner = opts.partner_of(s.seat)
        assert partner is not None
        index = len(view.played_cards)
        if any(x.mine and x.index // 4 == index // 4 for x in s.signals):
            raise ValueError("you already signalled in this trick")
        point = partners_point(self.identity.private_bytes(), ms.seat_keys[partner])
        st = Signal(
            ms.game_id,
            s.hand_number,
            s.seat,
            self._checker.context_for(Signal.KIND),
            index,
            seal(value, pad(ms.game_id, s.hand_number, s.seat, index, point)),
        )
        return [self._signed(m.SendSignal, st)]

    def connection_lost(self) -> None:
        """The transport is gone. A hand or draw in progress stays in progress: a host that
        left has proved nothing against itself (it may come back and go on), and one that never
        does leaves this client's record incomplete, waiting for it (fairness.md §8.9)."""
        self._challenge, self._hello_wanted = None, None  # a new connection gets a new one
        self.state.phase = "disconnected" if not self.state.match_over else "over"
        self._changed(ev.ConnectionLost())

    @property
    def view(self) -> SeatView | None:
        return self.state.view

    @property
    def my_turn(self) -> bool:
        """``view.my_turn`` without building the view: this seat is to play, its hand whole,
        and the host's AI does not play it (until the hand-back, a card would be refused)."""
        if self.state.taken_over:
            return False
        if self._blind is not None:
            view = self.state.view  # a blind seat's view: its cards, opened
            return view is not None and view.my_turn
        c, seat = self._classic, self.state.seat
        return c is not None and seat is not None and c.can_play(seat)

    @property
    def _classic(self) -> ClassicHand | None:
        """The classic hand being followed (the checker's machine; the last one until the next
        hand starts, so that the final table stays on screen)."""
        return self._checker.classic

    # --- incoming ------------------------------------------------------------------------------

    def receive(self, msg: Message) -> list[Message]:
        """Apply one host message; returns the automatic replies to send."""
        out: list[Message] = []
        handler = _HANDLERS.get(type(msg))
        if handler is None:
            self._changed(ev.Ignored(type(msg).__name__))
            return out
        handler(self, msg, out)
        self._refresh()
        return out

    def _emit(self, event: ev.Event) -> None:
        self.state.events.append(event)

    def _changed(self, event: ev.Event | None = None) -> None:
        if event is not None:
            self._emit(event)
        self.state.version += 1
        if self.on_change is not None:
            self.on_change(self.state)

    def _refresh(self) -> None:
        c, s, party = self._classic, self.state, self._shown
        ms = self._ms
        if ms is not None:
            ai = {i for i, level in enumerate(ms.ai_levels) if level}
            taken = self._outside if self._sitting_out else self._checker.taken_over
            s.host_plays = tuple(sorted(ai | taken))
        make: Callable[[], SeatView | None] | None = None
        if party is not None:
            seat = s.seat
            if seat is not None:
                make = lambda: party.view(seat)  # noqa: E731
        elif c is not None:
            seat = s.seat
            if seat is not None:
                make = lambda: c.view(seat)  # noqa: E731
        s._view, s._view_of = None, make  # built when read
        self._changed()

    def _signed(self, cls: Callable[[bytes, bytes], Message], st: Statement) -> Message:
        body = st.encode()
        sig = self.identity.sign(body)
        self._checker.known_good(self.identity.public_key, body, sig)  # it comes back, receipted
        return cls(body, sig)

    def _live(self, fault: Fault) -> None:
        """Something only this live client saw go wrong (fairness.md §8.10): told, and kept beside
        the verdict of the hand (or the draw) in progress, the first one each; the verdict, which
        is the file's, stays as the checker has it. The queued signatures are checked first,
        as before any failure is told (fairness.md §8.10): a forged record is named at once."""
        if self._checker.pending_signatures:
            try:
                self._checker.flush()
            except Violation as v:
                self._fail_now(v.fault)
        d = self.state.draw
        check = d if self._drawing and d is not None else self.state.verification
        if check is not None and check.live is None:
            check.live = fault
        self._emit(ev.LiveFault(fault))

    def _fail_now(self, fault: Fault) -> None:
        """The checker found a fault: the verdict of the draw or hand in progress."""
        d = self.state.draw
        if self._drawing and d is not None:
            if d.fault is None:
                d.status, d.fault = "failed", fault
            self._emit(ev.FaultFound(fault, draw=True))
            return
        check = self.state.verification
        if check is not None and check.fault is None:
            check.status, check.fault = "failed", fault
        self._emit(ev.FaultFound(fault, draw=False))

    def _record(self, rec: Record) -> Statement | None:
        """Keep a record and run it through the checker; the statement (past a fault too, so
        that the game can be followed), or None if the bytes are no statement."""
        self.records.append(rec)
        try:
            self._checker.add(*rec)
        except Violation as v:
            check = self.state.verification
            if self._drawing or (check is not None and check.fault is None):
                self._fail_now(v.fault)
        if self._checker.last_statement is not None:
            return self._checker.last_statement
        return None  # not a statement: the checker named the fault

    # lobby -------------------------------------------------------------------------------------

    def _on_Challenge(self, msg: m.Challenge, out: list[Message]) -> None:
        self._challenge = msg
        if self._hello_wanted is not None:
            (token,), self._hello_wanted = self._hello_wanted, None
            out.append(self._hello(msg, token))

    def _on_Welcome(self, msg: m.Welcome, out: list[Message]) -> None:
        self._challenge = None  # answered: a hello after this is for a new connection
        s = self.state
        s.phase = "lobby" if s.phase in ("disconnected", "lobby") else s.phase
        s.table_name, s.options, s.seats = msg.table_name, msg.options, msg.seats
        s.draw_partners, s.draw_dealer = msg.draw_partners, msg.draw_dealer
        s.deal = msg.deal
        self._blind_sent = set()  # a new connection: what is still owed is sent again
        s.hints = msg.hints
        if self.host_key and msg.host_key != self.host_key:
            self._live(Fault(None, "welcome", HOST, "the host's identity key changed"))
        self.host_key = msg.host_key
        s.host_fingerprint = fingerprint(msg.host_key)
        if msg.seat is not None:
            s.seat, s.resume_token = msg.seat, msg.resume_token
            self._reset_match()  # the host replays this seat's messages next
        self._changed(ev.Joined(msg.table_name, msg.options.summary()))

    def _on_ReplayDone(self, msg: m.ReplayDone, out: list[Message]) -> None:
        """The replay of this seat's messages is over: what follows is live (no state to
        change here; the network layer waits for it before it calls a resumed seat ready)."""
        self._changed()

    def _reset_match(self) -> None:
        self.records, self._checker = [], TranscriptChecker(defer_signatures=True, follow=True)
        self._match, self._ms = None, None
        self._blind, self._shown = None, None
        self._blind_hand = None
        self.state.checks = []
        self.state.draw, self._drawing = None, False
        self.state.taken_over = False

    def _on_SeatsChanged(self, msg: m.SeatsChanged, out: list[Message]) -> None:
        before, self.state.seats = self.state.seats, msg.seats
        self._emit(ev.SeatsChanged(ev.seat_news(before, msg.seats), msg.event))

    def _on_SeatAssigned(self, msg: m.SeatAssigned, out: list[Message]) -> None:
        self.state.seat, self.state.resume_token = msg.seat, msg.resume_token

    def _on_Error(self, msg: m.Error, out: list[Message]) -> None:
        self.state.errors.append(msg)
        self._emit(ev.HostRefused(msg.code, msg.text))

    def _on_Notice(self, msg: m.Notice, out: list[Message]) -> None:
        self.state.notices.append(msg)
        self._emit(ev.HostNotice(msg.text))

    def _on_PlayerConnection(self, msg: m.PlayerConnection, out: list[Message]) -> None:
        self._emit(ev.PlayerConnection(msg.seat, msg.connected))
        self.state.seats = tuple(
            SeatInfo(
                i.seat,
                i.occupied,
                i.name,
                i.public_key,
                i.ai,
                msg.connected if i.seat == msg.seat else i.connected,
                i.ready,
            )
            for i in self.state.seats
        )

    # the match ---------------------------------------------------------------------------------

    def _on_DrawStarted(self, msg: m.DrawStarted, out: list[Message]) -> None:
        self._reset_match()
        self._drawing = True
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, DrawStart):
            return  # the checker named the fault
        if st.host_key != self.host_key:
            self._live(Fault(0, "draw-start", HOST, "draw-start not signed by this table's host"))
            return
        me = self.identity.public_key
        lobby = st.seat_keys.index(me) if me in st.seat_keys else None
        self.state.draw = DrawCheck(bool(st.draw_partners), bool(st.draw_dealer), st.names, lobby)
        s = self.state
        s.game_id, s.phase = st.game_id.hex(), "playing"
        s.match_over, s.match_aborted, s.winner = False, False, None
        self._emit(ev.DrawStarted(bool(st.draw_partners), bool(st.draw_dealer)))
        if lobby is None:
            if s.seat is not None:
                self._live(Fault(0, "draw-start", HOST, "my seat is listed with another key"))
            return
        seed = self._seed_for(st.game_id, DRAW_HAND)
        if seed is None:
            return
        commit = SeedCommit(
            st.game_id,
            DRAW_HAND,
            lobby,
            self._checker.context_for(SeedCommit.KIND),
            seed_commitment(st.game_id, DRAW_HAND, lobby, seed),
        )
        out.append(self._signed(m.CommitSeed, commit))

    def _on_DrawRevealed(self, msg: m.DrawRevealed, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        d = self.state.draw
        if not isinstance(st, DrawReveal) or d is None:
            return
        rep = self._checker.report.draw
        if d.fault is None and rep is not None and rep.verified:
            d.status = "verified"
        d.cards = tuple(Card.from_code(c) for c in st.cards if 0 <= c < 40)
        d.seating, d.dealer = st.seating, st.dealer
        self._emit(ev.DrawRevealed(d.status, tuple(zip(d.names, d.cards, strict=False))))

    def _on_MatchStarted(self, msg: m.MatchStarted, out: list[Message]) -> None:
        if not self._drawing:
            self._reset_match()
        self._drawing = False
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, MatchStart):
            return  # the checker named the fault
        if st.host_key != self.host_key:
            self._live(Fault(0, "match-start", HOST, "match-start not signed by this table's host"))
            return
        if not verify_signature(st.host_key, msg.body, msg.sig):
            return
        self._ms = st
        opts = options_of(st)
        self._match = Match(opts, st.first_dealer)
        s = self.state
        s.options, s.game_id, s.phase = opts, st.game_id.hex(), "playing"
        s.match_over, s.match_aborted, s.winner = False, False, None
        s.hands_won = s.total_points = (0,) * opts.sides
        if s.seat is not None and st.seat_keys[s.seat] != self.identity.public_key:
            self._live(Fault(0, "match-start", HOST, "my seat is listed with another key"))
        self._emit(ev.MatchStarted(st.names))

    def _on_OptionsSet(self, msg: m.OptionsSet, out: list[Message]) -> None:
        """The options match-start has no field for (fairness.md §12.1)."""
        st = self._record((msg.body, msg.sig))
        s = self.state
        if not isinstance(st, MatchOptions) or s.options is None:
            return
        try:
            s.options = match_options.apply(s.options, st.options)
        except ValueError:
            return  # the checker named the host
        if self._ms is not None:
            self._match = Match(s.options, self._ms.first_dealer)
        if s.options.signals:
            self._emit(ev.SignalsAllowed())

    def _on_SignalMade(self, msg: m.SignalMade, out: list[Message]) -> None:
        """A seat's signal: read when it is this seat's partner's (or its own)."""
        st = self._record((msg.body, msg.sig))
        s, ms = self.state, self._ms
        if not isinstance(st, Signal) or ms is None or s.options is None:
            return
        me = s.seat
        value = None
        if me is not None and st.seat in (me, s.options.partner_of(me)):
            other = s.options.partner_of(st.seat) if st.seat == me else st.seat
            assert other is not None
            point = partners_point(self.identity.private_bytes(), ms.seat_keys[other])
            value = unseal(st.sealed, pad(ms.game_id, st.hand, st.seat, st.index, point))
        s.signals.append(SignalSeen(st.seat, st.index, value, st.seat == me))
        self._emit(ev.SignalMade(st.seat, value, st.seat == me))

    def _on_HandStarted(self, msg: m.HandStarted, out: list[Message]) -> None:
        ms = self._ms
        try:
            st: Statement | None = decode(msg.body)
        except StatementError:
            st = None
        if isinstance(st, BlindStart) and ms is not None:
            self._blind_hand_started(st, (msg.body, msg.sig), out)
            return
        if not isinstance(st, HostCommit) or ms is None:
            self._live(Fault(len(self.records), "hand-start", HOST, "not a host commitment"))
            return
        self.state.checks.append(HandCheck(st.hand))
        self.state.signals = []
        self._record((msg.body, msg.sig))
        self.state.hand_number = st.hand
        self.state.last_trick = None
        self._shown = None
        self._emit(ev.HandStarted(st.hand, st.dealer, blind=False))
        seat = self.state.seat
        if seat is None or self._mine_host_played(seat):
            return  # the host's AI holds my seat: it commits (and reveals) the seat's seed
        seed = self._seed_for(ms.game_id, st.hand)
        if seed is None:
            return
        commit = SeedCommit(
            ms.game_id,
            st.hand,
            seat,
            self._checker.context_for(SeedCommit.KIND),
            seed_commitment(ms.game_id, st.hand, seat, seed),
        )
        out.append(self._signed(m.CommitSeed, commit))

    # the blind deal (protocol/fairness.md §11) -------------------------------------------------

    def _blind_hand_started(self, st: BlindStart, rec: Record, out: list[Message]) -> None:
        """A blind hand calls its players: a person's seat answers at once (its receipt is its
        proof that it answered in time, fairness.md §11.3)."""
        ms = self._ms
        assert ms is not None
        self.state.checks.append(HandCheck(st.hand))
        self.state.signals = []
        self._record(rec)
        s = self.state
        s.hand_number, s.last_trick, s.deal = st.hand, None, "blind"
        self._blind, self._shown = None, None
        self._blind_hand = None
        s.taken_over = False
        self._emit(ev.HandStarted(st.hand, st.dealer, blind=True))
        seat = s.seat
        self._sitting_out, self._outside = self._checker.report.fault is not None, frozenset()
        if self._sitting_out and seat is not None and ms.ai_levels[seat] == "":
            s.taken_over = True
            self._emit(ev.SittingOut())
        if seat is None or self._checker.presence is None or ms.ai_levels[seat] != "":
            return
        if self._checker.benched(seat):  # named by two aborts: not called (fairness.md §8.7)
            s.taken_over = True
            return
        present = Present(ms.game_id, st.hand, seat, self._checker.context_for(Present.KIND))
        out.append(self._signed(m.JoinHand, present))

    def _on_HandJoined(self, msg: m.HandJoined, out: list[Message]) -> None:
        """The answers to the call: the seats that answered are the hand's parties."""
        for rec in msg.records:
            self._record(rec)
        ms, s = self._ms, self.state
        if self._sitting_out and ms is not None:
            answered = set()
            for body, _ in msg.records:
                try:
                    st = decode(body)
                except StatementError:
                    continue
                if isinstance(st, Present):
                    answered.add(st.seat)
            self._outside = frozenset(
                i for i, level in enumerate(ms.ai_levels) if level == "" and i not in answered
            )
            return
        try:
            self._checker.close_presence()
        except Violation as v:
            check = self.state.verification
            if check is not None and check.fault is None:
                self._fail_now(v.fault)
        seat, bh = s.seat, self._checker.blind
        self._blind_hand = bh  # followed to its end, key reveals included, by every seat
        if seat is None or bh is None or ms is None:
            return
        s.taken_over = seat not in bh.parties
        if s.taken_over:
            receipted = self._checker.receipt_for(bh.hand, Present.KIND, seat) is not None
            self._emit(ev.LeftOut(receipted))
            return
        secret = self._seed_for(ms.game_id, bh.hand)
        if secret is None:
            return
        self._blind = self._shown = BlindParty(bh, seat, secret, self._checker.context_for)
        self._blind_mine = set()
        self._blind_act(out)

    def _blind_act(self, out: list[Message]) -> None:
        """Send what my party owes now (each statement once on this connection)."""
        party = self._blind
        check = self.state.verification
        if party is None or (check is not None and check.fault is not None):
            return
        if party.hand is not self._checker.blind:  # the hand is over (or the checker stopped)
            return
        complaint = party.complaint()
        todo: list[tuple[Callable[[bytes, bytes], Message], Statement]] = []
        if complaint is not None:
            todo.append((m.Complain, complaint))
        else:
            owed: list[tuple[Callable[[bytes, bytes], Message], Statement | None]] = [
                (m.ShuffleDeck, party.shuffle()),
                (m.LockDeck, party.lock()),
                (m.SendShares, party.shares()),
                (m.RevealKeys, party.key_reveal()),
            ]
            owed.extend((m.ShowHand, show) for show in party.shows())
            todo.extend((cls, st) for cls, st in owed if st is not None)
        for make, statement in todo:
            body = statement.encode()
            if body not in self._blind_sent:
                self._blind_sent.add(body)
                out.append(self._signed(make, statement))

    def _blind_records(self, recs: tuple[Record, ...], out: list[Message]) -> None:
        for rec in recs:
            self._record(rec)
        self._blind_cards()
        self._blind_act(out)

    def _blind_cards(self) -> None:
        """My seat's cards that opened with these records (its deal, or a card drawn)."""
        party, seat = self._blind, self.state.seat
        if party is None or seat is None or party.hand is not self._checker.blind:
            return
        cards = party.seat_cards(seat)
        new = [p for p in cards if p not in self._blind_mine]
        if new:
            drawn = bool(self._blind_mine)
            self._blind_mine.update(new)
            opened = tuple(Card.from_code(cards[p]) for p in sorted(new))
            self._emit(ev.CardsReceived(party.hand.hand, opened, drawn=drawn))

    def _on_DeckShuffled(self, msg: m.DeckShuffled, out: list[Message]) -> None:
        self._blind_records(((msg.body, msg.sig),), out)

    def _on_DeckLocked(self, msg: m.DeckLocked, out: list[Message]) -> None:
        self._blind_records(((msg.body, msg.sig),), out)

    def _on_SharesSent(self, msg: m.SharesSent, out: list[Message]) -> None:
        self._blind_records(msg.records, out)

    def _on_HandsShown(self, msg: m.HandsShown, out: list[Message]) -> None:
        self._blind_records(msg.records, out)

    def _on_ComplaintMade(self, msg: m.ComplaintMade, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        self._emit(ev.Complained(getattr(st, "seat", HOST_PARTY)))
        self._blind_act(out)

    def _on_KeysRevealed(self, msg: m.KeysRevealed, out: list[Message]) -> None:
        self._blind_records(msg.records, out)
        self._blind_keys_closed(out)

    def _blind_card_played(self, st: BlindPlay, out: list[Message]) -> None:
        bh = self._checker.blind
        if bh is not None and bh.plays and bh.plays[-1][1] == st:  # the hand's machine took it
            mine = st.seat == self.state.seat
            self._emit(ev.CardPlayed(st.hand, st.seat, Card.from_code(st.card), mine))
            if bh.tricks and sum(len(t.plays) for t in bh.tricks) == len(bh.plays):
                self.state.last_trick = bh.tricks[-1]
                self._emit(ev.TrickTaken(st.hand, bh.tricks[-1]))
        self._blind_act(out)

    def _on_SeatTakenOver(self, msg: m.SeatTakenOver, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, Takeover):
            return
        mine = st.seat == self.state.seat
        if mine:
            self.state.taken_over = bool(st.ai)
        self._emit(ev.TakenOver(st.seat, bool(st.ai), mine))

    def _on_SeedsCommitted(self, msg: m.SeedsCommitted, out: list[Message]) -> None:
        for rec in msg.records:
            self._record(rec)
        if self._drawing:
            self._reveal_draw_seed(out)
            return
        ms, seat, hand = self._ms, self.state.seat, self.state.hand_number
        if ms is None or seat is None or (ms.game_id, hand) not in self._seeds:
            return
        seed = self._seeds[(ms.game_id, hand)]
        c = self._classic
        commits = c.seeds.commits if c is not None and c.number == hand else []
        mine = seat < len(commits) and seed_opens(ms.game_id, hand, seat, seed, commits[seat])
        if not mine and self._mine_host_played(seat):
            return  # the host's AI committed for my seat: it reveals that seed itself
        # My commitment, which only I can open (also if an AI took my seat after I made it);
        # or a commitment I lost the seed of: the reveal fails at once and names my seat,
        # rather than the hand waiting for a reveal that cannot come.
        ctx = self._checker.context_for(SeedReveal.KIND)
        out.append(self._signed(m.RevealSeed, SeedReveal(ms.game_id, hand, seat, ctx, seed)))

    def _reveal_draw_seed(self, out: list[Message]) -> None:
        gid = bytes.fromhex(self.state.game_id)
        d, seed = self.state.draw, self._seeds.get((gid, DRAW_HAND))
        if d is None or d.my_lobby_seat is None or seed is None:
            return
        ctx = self._checker.context_for(SeedReveal.KIND)
        reveal = SeedReveal(gid, DRAW_HAND, d.my_lobby_seat, ctx, seed)
        out.append(self._signed(m.RevealSeed, reveal))

    def _mine_host_played(self, seat: int) -> bool:
        return seat in self._checker.taken_over  # the host plays my seat: it holds the seed

    def _on_SeedsRevealed(self, msg: m.SeedsRevealed, out: list[Message]) -> None:
        for rec in msg.records:
            self._record(rec)

    def _on_DeckCommitted(self, msg: m.DeckCommitted, out: list[Message]) -> None:
        self._record((msg.body, msg.sig))

    def _on_CardsDealt(self, msg: m.CardsDealt, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, Deal):
            return
        if st.seat != self.state.seat:
            self._live(Fault(len(self.records) - 1, Deal.KIND, HOST, _not_mine(st.seat)))
            return
        c = self._classic
        if c is not None and c.deals and c.deals[-1][1] is st:  # the hand's machine took it
            cards = tuple(Card.from_code(o.card) for o in st.openings)
            self._emit(ev.CardsReceived(st.hand, cards, drawn=c.upcard is not None))

    def _on_UpcardTurned(self, msg: m.UpcardTurned, out: list[Message]) -> None:
        self._record((msg.body, msg.sig))

    def _on_CardPlayed(self, msg: m.CardPlayed, out: list[Message]) -> None:
        index, c, me = len(self.records), self._classic, self.state.seat
        tricks = len(c.sched.tricks) if c is not None else 0
        mine = c.held(me) if c is not None and me is not None else None  # my cards before it
        st = self._record((msg.body, msg.sig))
        if isinstance(st, BlindPlay):
            self._blind_card_played(st, out)
            return
        if not isinstance(st, Play) or c is None or c is not self._classic or not c.plays:
            return
        if c.plays[-1][1] is not st:
            return  # not a play the hand's machine took (the checker named the fault)
        # What only a live client sees (fairness.md §8.10): the play's opening is in no record,
        # and a card of mine I do not hold is judged in the file only by the host's reveal.
        problem = c.play_opening_problem(st.seat, Opening(msg.position, st.card, msg.salt))
        if problem is not None:
            self._live(Fault(index, Play.KIND, HOST, problem))
        elif st.seat == me and mine is not None and Card.from_code(st.card) not in mine:
            self._live(Fault(index, Play.KIND, HOST, "the host played a card I do not hold"))
        self._emit(ev.CardPlayed(st.hand, st.seat, Card.from_code(st.card), st.seat == me))
        if len(c.sched.tricks) > tricks:
            self.state.last_trick = c.sched.tricks[-1]
            self._emit(ev.TrickTaken(st.hand, c.sched.tricks[-1]))

    def _on_TrickTaken(self, msg: m.TrickTaken, out: list[Message]) -> None:
        last = self.state.last_trick
        if last is None and self._checker.report.fault is not None:
            return  # no trick followed past a fault: nothing to compare it with
        if last is None or (last.winner, last.points) != (msg.winner, msg.points):
            self._live(Fault(None, "trick", HOST, "the host announced another trick winner"))

    def _on_PartnerShown(self, msg: m.PartnerShown, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        if isinstance(st, Exchange) and st.seat != self.state.seat:
            self._live(Fault(len(self.records) - 1, Exchange.KIND, HOST, _not_mine(st.seat)))

    def _on_HandEnded(self, msg: m.HandEnded, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, HostReveal | BlindEnd) or self._ms is None:
            return
        blind = isinstance(st, BlindEnd)
        if not blind:
            self._blind = None
            self._hand_checked()
        self._chain_at_reveal = self._checker.chain
        self.state.last_hand_points = st.points
        if self._match is not None and not self._match.is_over:
            self._match.record_points(st.points)
            self.state.hands_won = self._match.hands_won()
            self.state.total_points = self._match.total_points()
        self._emit(ev.HandEnded(st.hand, tuple(st.points)))
        if blind:  # the result is fixed; the key reveals come next, then the acknowledgement
            self._blind_act(out)
            return
        if self._match is not None and self._match.is_over:
            self._ack_due = st.hand  # the match-end comes next; the acknowledgement covers it
            return
        self._ack(st.hand, out)

    def _hand_checked(self) -> None:
        """The hand's last check is done: its verdict, as the checker has it."""
        check = self.state.verification
        if check is not None and check.fault is None:
            rep = self._checker.report.hands[-1] if self._checker.report.hands else None
            check.status = "verified" if rep is not None and rep.verified else "failed"

    def _blind_keys_closed(self, out: list[Message]) -> None:
        """A blind hand's key reveals are in (or the missing ones named): it is checked, and
        acknowledged over the chain as it is now."""
        bh, check = self._blind_hand, self.state.verification
        if bh is None or check is None or bh.expected() != "done" or check.status != "in progress":
            return
        self._blind = None
        self._hand_checked()
        if self._checker.report.hands and self._checker.report.hands[-1].withheld:
            self._emit(ev.KeysOverdue(tuple(self._checker.report.hands[-1].withheld)))
        self._chain_at_reveal = self._checker.chain
        self._ack(bh.hand, out)  # again after a resume: the host takes the same bytes once

    def _ack(self, hand: int, out: list[Message]) -> None:
        seat = self.state.seat
        if seat is not None and self._ms is not None and not self._mine_host_played(seat):
            ack = Ack(self._ms.game_id, hand, seat, self._chain_at_reveal)
            out.append(self._signed(m.AckHand, ack))
            self._acked[hand] = True

    def _on_MatchDecided(self, msg: m.MatchDecided, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, MatchEnd):
            return
        self._chain_at_reveal = self._checker.chain
        due, self._ack_due = self._ack_due, None
        if due is not None:
            self._ack(due, out)

    def _on_ReceiptIssued(self, msg: m.ReceiptIssued, out: list[Message]) -> None:
        self._record((msg.body, msg.sig))  # kept in this seat's file: evidence of what it sent

    def _on_EvidenceShown(self, msg: m.EvidenceShown, out: list[Message]) -> None:
        self._record((msg.body, msg.sig))

    def _on_HandAcked(self, msg: m.HandAcked, out: list[Message]) -> None:
        check = self.state.verification
        for rec in msg.records:
            self._record(rec)  # an ack of another hash is caught by the checker: host's fault
        seats: set[int] = set()
        for body, _sig in msg.records:
            try:
                seats.add(decode(body).seat)  # type: ignore[attr-defined]
            except StatementError:
                continue
        n = self._ms.players if self._ms is not None else 0
        me = self.state.seat
        if check is None:
            return
        try:
            self._checker.acks_complete()  # a received acknowledgement not relayed: host's fault
        except Violation as v:
            self._fail_now(v.fault)
        if me is not None and self._acked.get(check.hand) and me not in seats:
            self._emit(ev.AckNotRelayed())
        check.acks_match = check.fault is None and len(seats) == n

    def _on_HandAborted(self, msg: m.HandAborted, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        check = self.state.verification
        d = self.state.draw
        if isinstance(st, Abort) and self._drawing and d is not None:
            draw_rep = self._checker.report.draw
            d.status = (
                "failed" if draw_rep is not None and draw_rep.status == "failed" else "aborted"
            )
            d.fault = draw_rep.fault if draw_rep is not None else None
            self._emit(ev.DrawAborted(st.reason))
            d.own_verdict = self._own_verdict(st, d.fault, d.my_lobby_seat)
            if d.own_verdict is not None:
                self._emit(d.own_verdict)
            return
        if isinstance(st, Abort) and check is not None:
            rep = self._checker.report.hands[-1]
            check.status = "failed" if rep.status == "failed" else "aborted"
            check.fault = rep.fault
            self._emit(ev.HandAborted(st.hand, st.reason))
            check.own_verdict = self._own_verdict(st, rep.fault, self.state.seat)
            if check.own_verdict is not None:
                self._emit(check.own_verdict)
            if st.seat != HOST_PARTY:  # the hand counts for nothing: it is dealt again (§8.7)
                self._emit(ev.DealtAgain())
                me = self.state.seat
                if me is not None and st.seat == me and self._checker.benched(me):
                    self._emit(ev.Benched())

    def _own_verdict(self, st: Abort, fault: Fault | None, me: int | None) -> ev.OwnRecord | None:
        """What this player's own record says when the host's abort names its seat (``me``:
        its seat, or its lobby seat in the draw)."""
        if me is None or st.seat != me or fault is None:
            return None
        if fault.seat == HOST and fault.kind == Evidence.KIND:
            return ev.OwnRecord(ev.OwnWord.EVIDENCE)
        owed = [(SeedReveal.KIND, 0), (SeedCommit.KIND, 0)]
        judged = self._checker.owed_at_abort
        if judged is not None and judged[0] == me:  # a blind hand: the statement it waited for
            owed.insert(0, (judged[1], judged[2]))
        for kind, index in owed:
            r = self._checker.receipt_for(st.hand, kind, me, index)
            if r is not None and fault.seat == HOST:
                return ev.OwnRecord(ev.OwnWord.RECEIPT, kind, r.time)
        if fault.seat == HOST:
            return ev.OwnRecord(ev.OwnWord.OWED_NOTHING)
        if fault.also_host:
            return ev.OwnRecord(ev.OwnWord.CANNOT_TELL)
        return None

    def _on_MatchEnded(self, msg: m.MatchEnded, out: list[Message]) -> None:
        s = self.state
        s.phase, s.match_over, s.match_aborted = "over", True, msg.aborted
        s.winner, s.hands_won, s.total_points = msg.winner, msg.hands_won, msg.points
        if self._match is not None and not msg.aborted and self._match.winner != msg.winner:
            self._live(Fault(None, "match-end", HOST, "announced winner differs from the hands"))
        self._emit(ev.MatchEnded(msg.winner, msg.aborted))
        self._forget_secrets()

    def _forget_secrets(self) -> None:
        """The game is over: its seeds and hand secrets are needed no more (revealed, or of a
        hand that was aborted), so none is kept, in memory or in the saved blob; the game is
        marked over, so that a replay of it (a resumed seat) does not draw seeds again."""
        game = bytes.fromhex(self.state.game_id) if self.state.game_id else None
        if self._seeds or (game is not None and game != self._over):
            self._seeds.clear()
            self._over = game
            if self.on_secrets is not None:
                self.on_secrets(self.pending_secrets())


# Each message from the host -> its handler (a message of no other type is ignored, and said).
_HANDLERS: dict[type[Message], Callable[[ClientSession, Any, list[Message]], None]] = {
    m.Challenge: ClientSession._on_Challenge,
    m.Welcome: ClientSession._on_Welcome,
    m.ReplayDone: ClientSession._on_ReplayDone,
    m.SeatsChanged: ClientSession._on_SeatsChanged,
    m.SeatAssigned: ClientSession._on_SeatAssigned,
    m.Error: ClientSession._on_Error,
    m.Notice: ClientSession._on_Notice,
    m.PlayerConnection: ClientSession._on_PlayerConnection,
    m.DrawStarted: ClientSession._on_DrawStarted,
    m.DrawRevealed: ClientSession._on_DrawRevealed,
    m.MatchStarted: ClientSession._on_MatchStarted,
    m.OptionsSet: ClientSession._on_OptionsSet,
    m.SignalMade: ClientSession._on_SignalMade,
    m.HandStarted: ClientSession._on_HandStarted,
    m.HandJoined: ClientSession._on_HandJoined,
    m.DeckShuffled: ClientSession._on_DeckShuffled,
    m.DeckLocked: ClientSession._on_DeckLocked,
    m.SharesSent: ClientSession._on_SharesSent,
    m.HandsShown: ClientSession._on_HandsShown,
    m.ComplaintMade: ClientSession._on_ComplaintMade,
    m.KeysRevealed: ClientSession._on_KeysRevealed,
    m.SeatTakenOver: ClientSession._on_SeatTakenOver,
    m.SeedsCommitted: ClientSession._on_SeedsCommitted,
    m.SeedsRevealed: ClientSession._on_SeedsRevealed,
    m.DeckCommitted: ClientSession._on_DeckCommitted,
    m.CardsDealt: ClientSession._on_CardsDealt,
    m.UpcardTurned: ClientSession._on_UpcardTurned,
    m.CardPlayed: ClientSession._on_CardPlayed,
    m.TrickTaken: ClientSession._on_TrickTaken,
    m.PartnerShown: ClientSession._on_PartnerShown,
    m.HandEnded: ClientSession._on_HandEnded,
    m.MatchDecided: ClientSession._on_MatchDecided,
    m.ReceiptIssued: ClientSession._on_ReceiptIssued,
    m.EvidenceShown: ClientSession._on_EvidenceShown,
    m.HandAcked: ClientSession._on_HandAcked,
    m.HandAborted: ClientSession._on_HandAborted,
    m.MatchEnded: ClientSession._on_MatchEnded,
}


def _not_mine(seat: int) -> str:
    return f"cards for seat {seat} were sent to this client, which is not seat {seat}"


__all__ = ["ClientSession", "ClientState", "DrawCheck", "HandCheck", "SecretsError"]
