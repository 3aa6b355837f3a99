"""A match from its start to its end: the draw of seats and dealer, match-start, each hand's
deal, the acknowledgements, aborts and hands dealt again, takeovers, deadlines and AI moves."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from briscola_lan.fairness import match_options
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY, seed_commitment
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    DrawReveal,
    DrawStart,
    MatchEnd,
    MatchOptions,
    MatchStart,
    Takeover,
    decode,
)
from briscola_lan.fairness.verify import BENCHED_AFTER, draw_result
from briscola_lan.rules.chiamata import CallResult
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.match import Match
from briscola_lan.table.core import TableCore, chiamata_bot_factory
from briscola_lan.table.deal import BLIND, CLASSIC, Outgoing, Phase, Refused, Seat
from briscola_lan.table.deal_blind import BlindDeal
from briscola_lan.table.deal_classic import ClassicDeal
from briscola_lan.table.seeds import SeedRound
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Message, Record


class MatchLifecycle(TableCore):
    """The match's part of ``HostTable``: everything after the lobby's start."""

    # --- the match and its hands ---------------------------------------------------------------

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

    def benched(self, seat_no: int) -> bool:
        """Aborted hands named this person's seat twice: the host plays it to the end of the
        match (protocol/fairness.md §8.7); a blind hand does not call it."""
        return self.seats[seat_no].ai is None and self.named.get(seat_no, 0) >= BENCHED_AFTER

    def _start_hand(self, out: list[Outgoing]) -> None:
        assert self.match is not None
        if self.deal_mode == CLASSIC:  # a seat benched: the AI plays it, from before the commits
            for i, seat in enumerate(self.seats):
                if self.benched(i) and not seat.taken_over:
                    self._takeover(i, True, out)
        self._reset_hand_state()
        # An aborted hand, and at five players one everyone passed, is dealt again: a new number.
        self.hand_number = self.match.hand_number + sum(self.named.values()) + self.redeals
        cls = BlindDeal if self.deal_mode == BLIND else ClassicDeal
        self.deal = cls(self, self.hand_number, self.match.next_dealer)
        self.deal.start(out)

    def _not_for_the_deal(self, seat_no: int, msg: Message, out: list[Outgoing]) -> None:
        """A deal message the hand's deal did not take (``HostTable`` hands it the rest): the
        draw's seeds, a statement sent again after its round, or a refusal."""
        rnd = self.draw_round
        if self.drawing and rnd is not None and isinstance(msg, m.CommitSeed | m.RevealSeed):
            if isinstance(msg, m.CommitSeed):
                rnd.on_commit(seat_no, msg.body, msg.sig, out)
            else:
                rnd.on_reveal(seat_no, msg.body, msg.sig, out)
            return
        if (msg.body, msg.sig) in self.records:  # type: ignore[union-attr]
            return  # sent again by a resumed client after its round was over
        decode(msg.body)  # type: ignore[union-attr]  # a malformed statement says so first
        raise Refused(ErrorCode.WRONG_PHASE, f"not now: the table is in the {self.phase} phase")

    def hand_over(
        self,
        points: tuple[int, ...],
        out: list[Outgoing],
        *,
        acks: bool = True,
        call: CallResult | None = None,
        void: bool = False,
    ) -> None:
        """The deal signed the hand's end record: the match records its points (at five
        players with its ``call``; a ``void`` hand, everyone passed, is not recorded and is
        dealt again); if they decide the match the host signs match-end; then (``acks``; a
        blind hand's come after its key reveals, ``start_acks``) every seat acknowledges it."""
        match = self.match
        assert match is not None and self.deal is not None
        if void:
            self.redeals += 1
        else:
            match.record_points(points, self.deal.dealer, call)
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

    # --- acknowledgements, aborts, takeovers ---------------------------------------------------

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

    def _match_tick(self, out: list[Outgoing]) -> None:
        """Time-driven work of a match: the draw's and the deal's deadlines, takeovers, the AI
        players' cards, the acknowledgements' deadline."""
        if self.phase is Phase.OVER:
            return
        if self.drawing:  # the draw has no takeovers: a missing seat is named
            if self.draw_round is not None:
                self.draw_round.tick(out)
            return
        deal = self.deal
        assert deal is not None
        turn = (deal.number, deal.acts_so_far, deal.to_play)
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
        to_play = deal.to_play
        for i, seat in enumerate(self.seats):
            if seat.ai is not None or seat.taken_over:
                continue
            if seat.conn is not None:  # connected, but the card it owes is overdue: the AI
                stalls = i == to_play and self.play_due(i)  # plays the hand out
                if not stalls:
                    continue
            else:  # gone for the grace period, or its seed commitment is due
                stalls = False
                if seat.dropped_at is None or not (
                    self.now - seat.dropped_at >= self.grace or deal.commit_due(i)
                ):
                    continue
            if deal.may_take_over(i):
                seat.stalled = stalls
                self._takeover(i, True, out)
                if self.phase is Phase.ACK:
                    if self.acks[i] is None:
                        self._host_ack(i, out)
                else:
                    deal.after_takeover(i, out)
                to_play = deal.to_play  # the AI may have played the seat's card already

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
            if not seat.taken_over or seat.conn is None or self.benched(i):
                continue
            if closing or not seat.stalled:
                seat.stalled = False
                self._takeover(i, False, out)

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
            heard = self.signals.heard_by(seat_no) if self.options.signals else ()
            if heard:  # the partner's signals this AI seat read with its own key
                view = dataclasses.replace(view, partner_signals=heard)
            if self.options.chiamata and isinstance(deal, ClassicDeal | BlindDeal):
                self._ai_chiamata(deal, seat_no, view, out)
            else:
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

    def _ai_chiamata(
        self, deal: ClassicDeal | BlindDeal, seat_no: int, view: SeatView, out: list[Outgoing]
    ) -> None:
        """Five players: the seat's bot bids, calls or plays, whichever the hand waits for (a
        choice the rules refuse is noted and replaced by a pass, the first suit, the first card)."""
        bot = self._chiamata_bots.get(seat_no)
        if bot is None:
            level = self.seats[seat_no].ai or "rules"
            seed = int.from_bytes(self.game_id[:4], "big") + seat_no
            bot = self._chiamata_bots[seat_no] = chiamata_bot_factory(level, seed)
        if view.my_bid:
            bid = bot.bid(view)
            if bid is not None and bid not in view.legal_bids:
                self.internal_errors.append(f"bot for seat {seat_no} bid {bid}")
                bid = None
            deal.bid_for(seat_no, bid, out)
        elif view.my_call:
            deal.call_for(seat_no, bot.call(view), out)
        else:
            card = bot.choose(view)
            if card not in view.hand:
                self.internal_errors.append(f"bot for seat {seat_no} chose {card!r}")
                card = view.legal_plays[0]
            deal.play_for(seat_no, card, out)
