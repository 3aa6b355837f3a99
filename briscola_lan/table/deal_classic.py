"""The classic deal (a host option): seeds committed and revealed, the host's engine shuffles and
knows the deck, every card committed with a salt and opened as it is dealt, played or shown
(protocol/fairness.md §3-§7).

Every record of the hand is taken by the classic hand's machine (``ClassicHand``, the one the
verifier and every client follow) before it is published: a record the machine refuses is a
fault of this host's own code (``OwnRecordRefused``), and is never published.
"""

from __future__ import annotations

from typing import Any

from briscola_lan.fairness.classic_hand import (
    ClassicFault,
    ClassicHand,
    ClassicStatement,
    bid_code,
    bid_of,
)
from briscola_lan.fairness.encoding import HOST_PARTY, card_commitment, deck_seed, seed_commitment
from briscola_lan.fairness.shuffle import deal_deck
from briscola_lan.fairness.statements import (
    BidStatement,
    CallStatement,
    DeckCommit,
    Exchange,
    HostCommit,
    HostReveal,
    Opening,
    Play,
    SeedCommit,
    SeedReveal,
    Statement,
    Upcard,
    decode,
)
from briscola_lan.fairness.statements import (
    Deal as DealStatement,
)
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.rules.errors import IllegalBid, IllegalPlay, NotYourTurn
from briscola_lan.rules.events import CardDealt, HandEnded, HandsExchanged
from briscola_lan.rules.events import TrickTaken as RulesTrickTaken
from briscola_lan.rules.hand import Hand, SeatView
from briscola_lan.rules.schedule import PublicSchedule
from briscola_lan.table.deal import (
    CLASSIC,
    Deal,
    Outgoing,
    Phase,
    Refused,
    TableSide,
    refuse_foreign,
)
from briscola_lan.table.snapshot import Fields, SnapshotError
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Message, Record


class OwnRecordRefused(RuntimeError):
    """The classic hand's machine refused a record this host was about to publish: a bug of the
    host's own code (the record is not published)."""


class ClassicDeal(Deal):
    """One classic hand: commit-reveal seeds, the host's shuffle, salted card commitments."""

    MODE = CLASSIC

    def __init__(self, table: TableSide, hand_number: int, dealer: int) -> None:
        super().__init__(table, hand_number, dealer)
        self.host_seed = b""
        self.seeds = table.seed_round(hand_number, self._deal)
        self.seeds.before_publish = self._follow_records
        self.salts: list[bytes] = []
        self.position_of: dict[int, int] = {}
        self.hand: Hand | None = None
        self.machine: ClassicHand | None = None  # the hand as every follower sees it
        # The hand's card codes as the snapshot writes them (the host writes it at every
        # change): the deck's once a hand, the plays' extended as they come.
        self._codes: tuple[Hand, list[int], list[int]] | None = None
        # What the host owes after the statement just taken, signed once its relay has left
        # (``settle``): ("trick", winner, points), ("draw", seat, position), ("exchange", 0, 0),
        # ("end", 0, 0), in order. In the snapshot: a restored host does what a stop cut off.
        self.owed: list[tuple[str, int, int]] = []

    # --- the interface --------------------------------------------------------------------------

    def start(self, out: list[Outgoing]) -> None:
        t = self.table
        self.host_seed = t.entropy(32)
        commitment = seed_commitment(t.game_id, self.number, HOST_PARTY, self.host_seed)
        hc = HostCommit(t.game_id, self.number, self.dealer, commitment)
        self.machine = ClassicHand(t.options, hc)
        t.broadcast(out, m.HandStarted(*t.sign(hc)))
        self.seeds.start(out)

    # --- the machine every follower follows -----------------------------------------------------

    def _follow(self, st: ClassicStatement | HostReveal) -> None:
        """The machine takes ``st`` before it is published (raises ``OwnRecordRefused``)."""
        c = self.machine
        assert c is not None
        try:
            if not isinstance(st, DealStatement | Exchange):
                c.close_window()  # a record of another kind: the schedule's deals are all out
            if isinstance(st, HostReveal):
                assert self.hand is not None
                c.on_host_reveal(st, len(self.table.records), played=self.hand)
            else:
                c.apply(st, len(self.table.records))
        except ClassicFault as f:
            raise OwnRecordRefused(f"the host's own {st.KIND} fails its check: {f.reason}") from f

    def _follow_records(self, recs: tuple[Record, ...]) -> None:
        for body, _sig in recs:
            st = decode(body)
            assert isinstance(st, SeedCommit | SeedReveal)
            self._follow(st)

    def _publish(self, st: ClassicStatement | HostReveal) -> Record:
        """Check the host's own statement with the machine, then sign it into the transcript."""
        self._follow(st)
        return self.table.sign(st)

    def receive(self, seat_no: int, msg: Message, out: list[Outgoing]) -> bool:
        if isinstance(msg, m.CommitSeed):
            self.seeds.on_commit(seat_no, msg.body, msg.sig, out)
        elif isinstance(msg, m.RevealSeed):
            self.seeds.on_reveal(seat_no, msg.body, msg.sig, out)
        elif isinstance(msg, m.PlayCard):
            self._on_play(seat_no, msg.body, msg.sig, out)
        elif isinstance(msg, m.MakeBid | m.CallCard):
            self._on_auction(seat_no, msg, out)
        else:
            return False
        return True

    def tick(self, out: list[Outgoing]) -> None:
        self.seeds.tick(out)

    @property
    def to_play(self) -> int | None:
        """The seat the hand waits for: to play, or at five players to bid or call."""
        if self.table.phase is not Phase.PLAY or self.hand is None:
            return None
        return self.hand.current_player

    @property
    def acts_so_far(self) -> int:
        """Bids, the call and plays made in this hand: each is a new turn for the clock."""
        hand = self.hand
        if hand is None or self.table.phase is Phase.COMMIT:
            return 0
        auction = hand.public.auction
        bids = len(auction.bids) if auction is not None else 0
        return bids + (hand.contract is not None) + len(hand.plays)

    @property
    def plays_so_far(self) -> int:
        if self.hand is None or self.table.phase is Phase.COMMIT:
            return 0
        return len(self.hand.plays)

    def signal_schedule(self) -> PublicSchedule | None:
        hand = self.hand
        if hand is None or self.table.phase is not Phase.PLAY or hand.is_terminal:
            return None
        return hand.public

    def view(self, seat_no: int) -> SeatView | None:
        if self.hand is None or self.table.phase is not Phase.PLAY:
            return None
        return self.hand.view(seat_no)

    def bid_for(self, seat_no: int, bid: Bid | None, out: list[Outgoing]) -> None:
        """Five players: the host bids (None: passes) for a seat it plays."""
        hand, t = self.hand, self.table
        assert hand is not None and hand.public.auction is not None
        index = len(hand.public.auction.bids)
        ctx = t.context_for(BidStatement.KIND)
        st = BidStatement(t.game_id, self.number, seat_no, ctx, index, bid_code(bid))
        body = st.encode()
        self._apply_auction(st, (body, t.seat_signer(seat_no).sign(body)), out)
        self.settle(out)

    def call_for(self, seat_no: int, suit: Suit, out: list[Outgoing]) -> None:
        """Five players: the host calls a suit for a seat it plays, the auction's winner."""
        t = self.table
        ctx = t.context_for(CallStatement.KIND)
        st = CallStatement(t.game_id, self.number, seat_no, ctx, int(suit))
        body = st.encode()
        self._apply_auction(st, (body, t.seat_signer(seat_no).sign(body)), out)
        self.settle(out)

    def play_for(self, seat_no: int, card: Card, out: list[Outgoing]) -> None:
        hand, t = self.hand, self.table
        assert hand is not None
        st = Play(
            t.game_id, self.number, seat_no, t.context_for(Play.KIND), len(hand.plays), card.code
        )
        body = st.encode()
        self._apply_play(st, (body, t.seat_signer(seat_no).sign(body)), out)
        self.settle(out)

    def may_take_over(self, seat_no: int) -> bool:
        """Not between the seat's own commitment and its reveal: only it can reveal its seed."""
        return not self.seeds.own_seed_unrevealed(seat_no)

    def commit_due(self, seat_no: int) -> bool:
        return self.seeds.commit_due(seat_no)

    def after_takeover(self, seat_no: int, out: list[Outgoing]) -> None:
        self.seeds.after_takeover(seat_no, out)

    def made_by_host(self, seat_no: int, st: Statement, body: bytes) -> bool:
        if isinstance(st, SeedCommit | SeedReveal):
            return self.seeds.made_by_host(seat_no, st, body)
        return False

    # --- the deal -------------------------------------------------------------------------------

    def _deal(self, seeds: list[bytes], out: list[Outgoing]) -> None:
        t = self.table
        assert t.match is not None
        deck = deal_deck(t.options, deck_seed(t.game_id, self.number, self.host_seed, seeds))
        self.salts = [t.entropy(32) for _ in deck]
        self.position_of = {card.code: pos for pos, card in enumerate(deck)}
        commitments = tuple(
            card_commitment(t.game_id, self.number, p, c.code, self.salts[p])
            for p, c in enumerate(deck)
        )
        dc = DeckCommit(t.game_id, self.number, commitments)
        t.broadcast(out, m.DeckCommitted(*self._publish(dc)))
        self.hand = t.match.new_hand(deck)
        self._send_deals(
            [(e.seat, e.position) for e in self.hand.deal_events if isinstance(e, CardDealt)], out
        )
        up = self.hand.upcard_position
        if up is not None:  # 2 to 4 players: the upcard is turned; at 5 the auction begins
            upcard = Upcard(t.game_id, self.number, self._opening(up))
            t.broadcast(out, m.UpcardTurned(*self._publish(upcard)))
        else:
            assert self.machine is not None
            self.machine.close_window()  # every seat has its eight cards: the auction is due
        t.phase = Phase.PLAY

    def _opening(self, pos: int) -> Opening:
        assert self.hand is not None
        return Opening(pos, self.hand.deck[pos].code, self.salts[pos])

    def _send_deals(self, dealt: list[tuple[int, int]], out: list[Outgoing]) -> None:
        """Each seat's cards (seat, deck position), one signed deal record a seat."""
        t = self.table
        per_seat: dict[int, list[Opening]] = {}
        for seat, position in dealt:
            per_seat.setdefault(seat, []).append(self._opening(position))
        for seat_no, openings in sorted(per_seat.items()):
            rec = self._publish(DealStatement(t.game_id, self.number, seat_no, tuple(openings)))
            t.to_seat(out, seat_no, m.CardsDealt(*rec))

    def _on_play(self, seat_no: int, body: bytes, sig: bytes, out: list[Outgoing]) -> None:
        t = self.table
        st = decode(body)
        if not isinstance(st, Play):
            raise Refused(ErrorCode.BAD_STATEMENT, "PlayCard must carry a play statement")
        if t.phase is not Phase.PLAY:
            raise Refused(ErrorCode.WRONG_PHASE, f"not now: the table is in the {t.phase} phase")
        refuse_foreign(st, t.game_id, self.number, seat_no)
        if t.seats[seat_no].taken_over:
            raise Refused(
                ErrorCode.NOT_ALLOWED, "an AI plays your seat until it hands it back to you"
            )
        t.check_sig(seat_no, body, sig)
        t.check_context(st)
        self._apply_play(st, (body, sig), out)
        t.receipt_due(seat_no, st.hand, (body, sig))

    def _on_auction(self, seat_no: int, msg: m.MakeBid | m.CallCard, out: list[Outgoing]) -> None:
        """Five players: a seat's bid or call, checked as every follower checks it, relayed."""
        t = self.table
        st = decode(msg.body)
        want = BidStatement if isinstance(msg, m.MakeBid) else CallStatement
        if not isinstance(st, want):
            name = type(msg).__name__
            raise Refused(ErrorCode.BAD_STATEMENT, f"{name} must carry a {want.KIND} statement")
        if t.phase is not Phase.PLAY or self.hand is None or not t.options.chiamata:
            raise Refused(ErrorCode.WRONG_PHASE, f"not now: there is no {want.KIND} due")
        refuse_foreign(st, t.game_id, self.number, seat_no)
        if t.seats[seat_no].taken_over:
            raise Refused(
                ErrorCode.NOT_ALLOWED, "an AI plays your seat until it hands it back to you"
            )
        t.check_sig(seat_no, msg.body, msg.sig)
        t.check_context(st)
        self._apply_auction(st, (msg.body, msg.sig), out)
        t.receipt_due(seat_no, st.hand, (msg.body, msg.sig))

    def _apply_auction(
        self, st: BidStatement | CallStatement, rec: Record, out: list[Outgoing]
    ) -> None:
        """A bid or call the rules engine takes (``rules.auction`` says what is legal), then
        every follower's machine; published and relayed. After the fifth pass in a row the hand
        is void: the host reveals it at once, and the same dealer deals again."""
        hand, t, machine = self.hand, self.table, self.machine
        assert hand is not None and machine is not None
        try:
            if isinstance(st, BidStatement):
                machine.check_bid(st)  # its number, turn and ladder: refused if wrong
                hand.bid(st.seat, bid_of(st.bid))
            else:
                machine.check_call(st)
                hand.call(st.seat, Suit(st.suit))
        except ClassicFault as f:
            code = ErrorCode.NOT_YOUR_TURN if "turn" in f.reason else ErrorCode.ILLEGAL_PLAY
            if (isinstance(st, BidStatement) and hand.public.to_bid != st.seat) or (
                isinstance(st, CallStatement) and hand.public.to_call != st.seat
            ):
                code = ErrorCode.NOT_YOUR_TURN
            raise Refused(code, f.reason) from None
        except NotYourTurn as exc:
            raise Refused(ErrorCode.NOT_YOUR_TURN, str(exc)) from exc
        except (IllegalBid, ValueError) as exc:
            raise Refused(ErrorCode.ILLEGAL_PLAY, str(exc)) from exc
        self._follow(st)
        t.append(rec, True)
        msg = m.BidMade(*rec) if isinstance(st, BidStatement) else m.CardCalled(*rec)
        t.broadcast(out, msg)
        if hand.passed_out:
            self.owed.append(("end", 0, 0))

    def _apply_play(self, st: Play, rec: Record, out: list[Outgoing]) -> None:
        hand, t = self.hand, self.table
        assert hand is not None
        if st.index != len(hand.plays):
            raise Refused(ErrorCode.BAD_STATEMENT, f"this is play number {len(hand.plays)}")
        if not 0 <= st.card < 40:
            raise Refused(ErrorCode.ILLEGAL_PLAY, "no such card")
        try:
            events = hand.play(st.seat, Card.from_code(st.card))
        except NotYourTurn as exc:
            raise Refused(ErrorCode.NOT_YOUR_TURN, str(exc)) from exc
        except IllegalPlay as exc:
            raise Refused(ErrorCode.ILLEGAL_PLAY, str(exc)) from exc
        self._follow(st)  # the engine took it: so must every follower
        t.append(rec, True, kind=Play.KIND)
        pos = self.position_of[st.card]
        t.broadcast(out, m.CardPlayed(rec[0], rec[1], pos, self.salts[pos]))
        owed = self.owed
        for ev in events:  # what is signed is owed: the card leaves first (``settle``)
            if isinstance(ev, RulesTrickTaken):
                if not owed:
                    t.broadcast(out, m.TrickTaken(ev.winner, ev.points))
                else:
                    owed.append(("trick", ev.winner, ev.points))
            elif isinstance(ev, CardDealt):
                owed.append(("draw", ev.seat, ev.position))
            elif isinstance(ev, HandsExchanged):
                owed.append(("exchange", 0, 0))
            elif isinstance(ev, HandEnded):
                owed.append(("end", 0, 0))

    @property
    def due(self) -> bool:
        return bool(self.owed)

    def settle(self, out: list[Outgoing]) -> None:
        """Sign what the last statement made due, in order: the draws, the partners' exchange,
        the end of the hand."""
        owed, self.owed = self.owed, []
        draws: list[tuple[int, int]] = []
        for kind, a, b in owed:
            if kind == "trick":
                self.table.broadcast(out, m.TrickTaken(a, b))
            elif kind == "draw":
                draws.append((a, b))
            elif kind == "exchange":
                self._send_deals(draws, out)
                draws = []
                self._send_exchange(out)
            elif kind == "end":
                self._end_hand(out)
        self._send_deals(draws, out)

    def _send_exchange(self, out: list[Outgoing]) -> None:
        hand, t = self.hand, self.table
        assert hand is not None and hand.exchange_shown is not None
        for seat_no in range(len(t.seats)):
            partner = t.options.partner_of(seat_no)
            assert partner is not None
            openings = tuple(
                self._opening(self.position_of[c.code]) for c in hand.exchange_shown[partner]
            )
            rec = self._publish(Exchange(t.game_id, self.number, seat_no, partner, openings))
            t.to_seat(out, seat_no, m.PartnerShown(*rec))

    def _end_hand(self, out: list[Outgoing]) -> None:
        hand, t = self.hand, self.table
        assert hand is not None
        st = HostReveal(t.game_id, self.number, self.host_seed, tuple(self.salts), hand.returns())
        t.broadcast(out, m.HandEnded(*self._publish(st)))
        t.hand_over(hand.returns(), out, call=hand.result(), void=hand.passed_out)

    # --- the snapshot ---------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        hand = self.hand
        return {
            "mode": CLASSIC,
            "hand_number": self.number,
            "dealer": self.dealer,
            "host_seed": self.host_seed,
            "seeds": self.seeds.dump(),
            "salts": list(self.salts),
            "hand": None if hand is None else self._hand_codes(hand),
            "owed": self.owed_codes(),
        }

    def owed_codes(self) -> list[list[object]]:
        """What the hand owes, as the snapshot writes it."""
        return [list(o) for o in self.owed]

    def play_codes(self, hand: Hand) -> list[int]:
        """The hand's plays as card codes, as the snapshot writes them."""
        codes = self._codes
        if codes is None or codes[0] is not hand or len(codes[2]) > len(hand.plays):
            codes = self._codes = (hand, [c.code for c in hand.deck], [])
        plays = codes[2]
        plays.extend(c.code for c in hand.plays[len(plays) :])
        return list(plays)

    @property
    def hot_only(self) -> bool:
        """Whether what is owed moves only the transcript, the logs and what it owes (trick
        results and draws: no end of hand, no exchange)."""
        return all(kind in ("trick", "draw") for kind, _a, _b in self.owed)

    def _hand_codes(self, hand: Hand) -> dict[str, list[int]]:
        plays = self.play_codes(hand)
        codes = self._codes
        assert codes is not None
        out: dict[str, list[int]] = {"deck": codes[1], "plays": plays}
        auction = hand.public.auction
        if auction is not None:  # five players: the bids in order, then the called suit
            out["bids"] = [bid_code(b) for _s, b in auction.bids]
            out["call"] = [int(hand.contract.trump)] if hand.contract is not None else []
        return out

    @classmethod
    def load(cls, table: TableSide, f: Fields) -> ClassicDeal:
        """A classic hand from its snapshot (raises SnapshotError on a damaged one)."""
        deal = cls(table, f.get_int("hand_number"), f.get_int("dealer"))
        deal.host_seed = f.get_bytes("host_seed")
        deal.seeds.load(f.map("seeds"))
        deal.salts = f.bytes_list("salts")
        deal.owed = _owed(f)
        hf = f.opt_map("hand")
        if hf is not None:
            opts = table.options
            deal.hand = Hand(opts, [Card.from_code(c) for c in hf.ints("deck")], deal.dealer)
            try:
                for code in hf.ints("bids") if opts.chiamata else ():
                    bidder = deal.hand.public.to_bid
                    if bidder is None:
                        raise SnapshotError("damaged table snapshot: more bids than the auction")
                    deal.hand.bid(bidder, bid_of(code))
                for suit in hf.ints("call") if opts.chiamata else ():
                    caller = deal.hand.public.to_call
                    if caller is None or not 0 <= suit <= 3:
                        raise SnapshotError("damaged table snapshot: a call not due")
                    deal.hand.call(caller, Suit(suit))
            except (IllegalBid, NotYourTurn, ValueError) as exc:
                raise SnapshotError(f"damaged table snapshot: {exc}") from exc
            for code in hf.ints("plays"):
                seat = deal.hand.current_player
                if seat is None:
                    raise SnapshotError("damaged table snapshot: more plays than the hand has")
                deal.hand.play(seat, Card.from_code(code))
            deal.position_of = {c.code: p for p, c in enumerate(deal.hand.deck)}
        deal._follow_transcript()
        return deal

    def _follow_transcript(self) -> None:
        """The machine, rebuilt from the hand's records in the transcript (a restored host)."""
        t, start = self.table, None
        for i, (body, _sig) in enumerate(t.records):
            st = decode(body)
            if isinstance(st, HostCommit) and st.hand == self.number:
                start, self.machine = i, ClassicHand(t.options, st)
        if start is None:
            raise SnapshotError("damaged table snapshot: the classic hand's host-commit is missing")
        try:
            for body, _sig in t.records[start + 1 :]:
                st = decode(body)
                if isinstance(st, _FOLLOWED) and st.hand == self.number:
                    self._follow(st)
        except OwnRecordRefused as exc:
            raise SnapshotError(f"damaged table snapshot: {exc}") from exc
        machine = self.machine
        if t.options.chiamata and self.hand is not None and machine and machine.window:
            machine.close_window()  # five players: the deals were all out, the auction is due


_OWED = ("trick", "draw", "exchange", "end")


def _owed(f: Fields) -> list[tuple[str, int, int]]:
    """The work a snapshot's classic hand owes (absent in older snapshots: none)."""
    owed: list[tuple[str, int, int]] = []
    items = f.obj.get("owed", [])
    for item in items if isinstance(items, list) else [None]:
        if not (
            isinstance(item, list)
            and len(item) == 3
            and item[0] in _OWED
            and all(type(x) is int for x in item[1:])
        ):
            raise SnapshotError("damaged table snapshot: the classic hand's owed work")
        owed.append((item[0], item[1], item[2]))
    return owed


# The records of a classic hand its machine follows (the rest: takeovers, evidence, aborts).
_FOLLOWED = (
    SeedCommit,
    SeedReveal,
    DeckCommit,
    DealStatement,
    Upcard,
    BidStatement,
    CallStatement,
    Play,
    Exchange,
    HostReveal,
)

__all__ = ["ClassicDeal", "OwnRecordRefused"]
