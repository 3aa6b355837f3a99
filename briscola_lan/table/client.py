"""The pure client session: messages from the host in, automatic replies and commands out.

``ClientSession`` keeps an observable ``state`` (everything a UI or a bot needs: seats, the
current ``SeatView``, standings, the events it saw, per-hand verification results; see
``client_state.py``) and the client's own transcript. Each message type has its handler in one
table (``_HANDLERS``); the session is written in parts: what every handler shares
(``client_core.py``), a blind hand (``client_blind.py``), a hand's and the match's end
(``client_ends.py``), and here the commands, the lobby, the match's start and a classic hand.
Seed commits, reveals and acknowledgements are answered automatically and signed
with the player's identity. Every statement received goes through the same ``TranscriptChecker``
the offline verifier uses, and each card is checked at once against the commitment at the
position the public deal schedule says; the signatures of per-card records are checked in one
batch at the end of the hand, before the acknowledgement (or at once when a problem is found),
and the first problem is recorded with the seat at fault.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from briscola_lan.fairness import match_options
from briscola_lan.fairness.auction_checks import bid_code, bid_of
from briscola_lan.fairness.blind_hand import BlindHand
from briscola_lan.fairness.classic_hand import ClassicHand
from briscola_lan.fairness.encoding import DRAW_HAND, seed_commitment
from briscola_lan.fairness.identity import fingerprint, verify_signature
from briscola_lan.fairness.predicates import seed_opens
from briscola_lan.fairness.signals import pad, partners_point, seal, unseal
from briscola_lan.fairness.statements import (
    BidStatement,
    BlindPlay,
    BlindStart,
    CallStatement,
    Deal,
    DrawReveal,
    DrawStart,
    Exchange,
    HostCommit,
    MatchOptions,
    MatchStart,
    Opening,
    Play,
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
    options_of,
)
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.match import Match
from briscola_lan.rules.signals import SignalValue
from briscola_lan.table import events as ev
from briscola_lan.table.client_core import NoSignal, SecretsError
from briscola_lan.table.client_ends import HandEnds
from briscola_lan.table.client_state import ClientState, DrawCheck, HandCheck, SignalSeen
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import PROTOCOL_VERSION, Message, SeatInfo


class ClientSession(HandEnds):
    """One player's side of the protocol, without I/O."""

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

    def bid(self, bid: Bid | None) -> list[Message]:
        """Five players: a signed MakeBid (None: pass); the host refuses one not legal now."""
        c, ms, seat = self._auction_hand, self._ms, self.state.seat
        if c is None or ms is None or seat is None:
            raise ValueError("no hand in progress: there is no auction to bid in")
        ctx = self._checker.context_for(BidStatement.KIND)
        st = BidStatement(ms.game_id, self.state.hand_number, seat, ctx, len(c.bids), bid_code(bid))
        return [self._signed(m.MakeBid, st)]

    def call(self, suit: Suit) -> list[Message]:
        """Five players: the auction's winner's signed CallCard, naming the called card's suit."""
        ms, seat = self._ms, self.state.seat
        if self._auction_hand is None or ms is None or seat is None:
            raise ValueError("no hand in progress: there is no card to call")
        ctx = self._checker.context_for(CallStatement.KIND)
        st = CallStatement(ms.game_id, self.state.hand_number, seat, ctx, int(suit))
        return [self._signed(m.CallCard, st)]

    def signal(self, value: SignalValue) -> list[Message]:
        """A signed signal of ``value`` to this seat's partner (fairness.md §12), sealed so that
        only the partner reads it. ``NoSignal`` when no signal can be made now."""
        s, ms = self.state, self._ms
        view = s.view
        opts = s.options
        if ms is None or s.seat is None or view is None or opts is None or not opts.signals:
            raise NoSignal("no signal now: the table does not allow them or no hand is played")
        partner = opts.partner_of(s.seat)
        assert partner is not None
        index = len(view.played_cards)
        if any(x.mine and x.index // 4 == index // 4 for x in s.signals):
            raise NoSignal("you already signalled in this trick", already=True)
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
    def my_move(self) -> bool:
        """Whether the hand waits for this seat now: its card (``my_turn``), or at five players
        its bid or the call, its hand whole and the host's AI not playing it."""
        if self.state.taken_over:
            return False
        if self._blind is not None:
            view = self.state.view  # a blind seat's view: its cards, opened
            return view is not None and (view.my_turn or view.my_bid or view.my_call)
        c, seat = self._classic, self.state.seat
        return c is not None and seat is not None and c.can_act(seat)

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
        ai = {i.public_key: i.ai for i in self.state.seats if i.occupied and i.ai}
        levels = tuple(ai.get(key, "") for key in st.seat_keys)  # the AI seats, by their keys
        self.state.draw = DrawCheck(
            bool(st.draw_partners), bool(st.draw_dealer), st.names, lobby, levels
        )
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
        drawn = tuple(zip(d.names, d.cards, strict=False))
        self._emit(ev.DrawRevealed(d.status, drawn, d.levels))

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
        s.hands_won = s.total_points = s.scores = (0,) * opts.sides
        if s.seat is not None and st.seat_keys[s.seat] != self.identity.public_key:
            self._live(Fault(0, "match-start", HOST, "my seat is listed with another key"))
        self._emit(ev.MatchStarted(st.names, st.ai_levels))

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

    @property
    def _auction_hand(self) -> ClassicHand | BlindHand | None:
        """Five players: the hand whose auction is followed (classic or blind)."""
        return self._classic if self._classic is not None else self._checker.blind

    def _on_BidMade(self, msg: m.BidMade, out: list[Message]) -> None:
        c = self._auction_hand
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, BidStatement) or c is None or not c.bids or c.bids[-1][1] is not st:
            return  # not a bid the hand's machine took (the checker named the fault)
        me = self.state.seat
        self._emit(ev.BidMade(st.hand, st.seat, bid_of(st.bid), st.seat == me))

    def _on_CardCalled(self, msg: m.CardCalled, out: list[Message]) -> None:
        c = self._auction_hand
        st = self._record((msg.body, msg.sig))
        if not isinstance(st, CallStatement) or c is None or c.call is None or c.call[1] is not st:
            return  # not a call the hand's machine took (the checker named the fault)
        contract = c.sched.contract
        assert contract is not None
        me = self.state.seat
        mine = self._my_cards(c, me)
        holds = mine is not None and contract.called in mine
        called = contract.called
        self._emit(ev.CardCalled(st.hand, st.seat, called, st.seat == me, holds))

    def _my_cards(self, c: ClassicHand | BlindHand, me: int | None) -> tuple[Card, ...] | None:
        """This seat's cards in hand, as its deals (classic) or its party's keys (blind) open
        them; None if it has none here."""
        if me is None:
            return None
        if isinstance(c, ClassicHand):
            return c.held(me)
        party = self._blind
        if party is None or party.hand is not c:
            return None
        return tuple(Card.from_code(code) for code in party.seat_cards(me).values())

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
    m.BidMade: ClientSession._on_BidMade,
    m.CardCalled: ClientSession._on_CardCalled,
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


__all__ = ["ClientSession", "ClientState", "DrawCheck", "HandCheck", "NoSignal", "SecretsError"]
