"""One classic hand followed from its records: the seeds' commit and reveal, the deck's commitments,
the deals the public schedule makes, the upcard, every play and the partner exchange, then the
host's reveal that opens the whole deck (protocol/fairness.md §5-§8); at five players no upcard,
but the auction's bids and the call before the play, each checked by the auction's rules
(``rules.auction``, fairness.md §13).

The verifier, the host (before it publishes its own records) and every client follow a classic
hand with this one state machine, as they follow a blind hand with ``BlindHand``. Each statement
has its ``on_<kind>``; a check that fails raises ``ClassicFault`` naming the party at fault and,
when it is not the record being checked, the earlier record that is wrong. A hand seen from one
seat's file holds that seat's deals only: the machine knows that seat's cards (``view``), and the
other seats' stay hidden, as the schedule alone says who holds which position.
"""

from __future__ import annotations

from collections.abc import Sequence

from briscola_lan.fairness.auction_checks import (
    AuctionProblem,
    bid_code,
    bid_of,
    checked_bid,
    checked_call,
)
from briscola_lan.fairness.classic_seeds import ClassicFault, SeedRound, opening_matches
from briscola_lan.fairness.encoding import HOST_PARTY, card_commitment, deck_seed
from briscola_lan.fairness.predicates import seed_opens
from briscola_lan.fairness.shuffle import deal_deck
from briscola_lan.fairness.statements import (
    BidStatement,
    CallStatement,
    Deal,
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
)
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.rules.errors import RulesError
from briscola_lan.rules.events import CardDealt
from briscola_lan.rules.hand import Hand
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.schedule import Phase, PublicSchedule, SeatView

# Every statement of a classic hand in progress (what ``ClassicHand.apply`` follows).
ClassicStatement = (
    SeedCommit
    | SeedReveal
    | DeckCommit
    | Deal
    | Upcard
    | BidStatement
    | CallStatement
    | Play
    | Exchange
)


class ClassicHand:
    """The state of one classic hand as its records arrive (§8.3, §8.4)."""

    def __init__(
        self,
        options: TableOptions,
        commit: HostCommit,
        *,
        recipients: frozenset[int] | None = None,
    ) -> None:
        """``recipients``: the seats whose private records this file holds (known after the
        match's first deal; None until then, and the first deal window fixes them)."""
        self.options, self.commit = options, commit
        self.game_id, self.number, self.dealer = commit.game_id, commit.hand, commit.dealer
        self.n = options.players
        self.sched = PublicSchedule(options, commit.dealer)
        self.seeds = SeedRound(commit.game_id, commit.hand, self.n)
        self.recipients = recipients
        self.deck_commit: DeckCommit | None = None
        self.deck_index = 0
        self.deals: list[tuple[int, Deal]] = []
        self.exchanges: list[tuple[int, Exchange]] = []
        self.upcard: tuple[int, Upcard] | None = None
        self.plays: list[tuple[int, Play]] = []
        self.played: set[int] = set()  # card codes played so far
        # Five players: the auction's bids and the call, as published (fairness.md §13).
        self.bids: list[tuple[int, BidStatement]] = []
        self.call: tuple[int, CallStatement] | None = None
        self.revealed = False  # its host-reveal came (the result is in)
        # The deals the schedule makes now (seat -> positions), from the deck-commit or a trick's
        # end until the next record of another kind; which seats got theirs, and the exchange.
        self.window: dict[int, list[int]] | None = None
        self.window_seen: list[int] = []
        self.exchange_due = False
        self.exchange_seen: list[int] = []
        # What the held deals and exchanges show (a seat's own file: its own cards).
        self.cards: dict[int, list[Card]] = {}  # seat -> the cards dealt to it, not yet played
        self.shown: dict[int, tuple[Card, ...]] = {}  # seat -> its partner's hand, shown to it

    # --- what the hand waits for ----------------------------------------------------------------

    @property
    def dealt(self) -> bool:
        """The deck is committed and the hand not revealed: cards are dealt and played now."""
        return self.deck_commit is not None and not self.revealed

    @property
    def started(self) -> bool:
        """The cards are out: the upcard is turned, or at five players (no upcard) the deck is
        committed: the auction, the call and the play follow the deal (a seat's view waits
        for its own cards; the first bid closes the deal, which must then be whole). It stays
        so after the host's reveal: the hand's last table is still a seat's view."""
        if self.options.chiamata:
            return self.deck_commit is not None
        return self.upcard is not None

    @property
    def to_play(self) -> int | None:
        """The seat to play (None before the upcard is turned, or the call made at five
        players, and after the last trick)."""
        return self.sched.to_play if self.started and self.sched.trump is not None else None

    @property
    def to_bid(self) -> int | None:
        """Five players: the seat to bid now (None outside the auction)."""
        return self.sched.to_bid if self.started else None

    @property
    def to_call(self) -> int | None:
        """Five players: the auction's winner, until it has called."""
        return self.sched.to_call if self.started else None

    @property
    def passed_out(self) -> bool:
        """Five players: everyone passed; the host-reveal comes next and the hand is void."""
        return self.sched.phase == Phase.PASSED_OUT

    def owed(self) -> tuple[str, int]:
        """The statement the hand waits for and who owes it (a seat, or HOST_PARTY): a seed-commit
        or a seed-reveal from a seat, a bid or the call at five players, else the host's records
        up to its host-reveal."""
        seed = self.seeds.owed()
        if seed is not None:
            return seed
        if self.to_bid is not None:
            return BidStatement.KIND, self.to_bid
        if self.to_call is not None:
            return CallStatement.KIND, self.to_call
        return HostReveal.KIND, HOST_PARTY

    def cards_on_their_way(self, seat: int) -> bool:
        """Whether the schedule owes the seat cards not here yet: its deal, its draw, or (4
        players) its partner's hand at the end of the stock."""
        w = self.window
        if w is not None and w.get(seat) and seat not in self.window_seen:
            return True
        return self.exchange_due and seat not in self.exchange_seen

    def can_play(self, seat: int) -> bool:
        """Whether the seat is to play now from its whole hand: what ``view(seat).my_turn``
        says, without building the view."""
        return self.to_play == seat and self._whole(seat) is not None

    def can_act(self, seat: int) -> bool:
        """Whether the hand waits for this seat now, its hand whole: to play, or at five
        players to bid or call."""
        if self._whole(seat) is None:
            return False
        return seat in (self.to_play, self.to_bid, self.to_call)

    def held(self, seat: int) -> tuple[Card, ...] | None:
        """The seat's cards in hand, if its deals are held (in the order dealt)."""
        cards = self.cards.get(seat)
        return None if cards is None else tuple(cards)

    def _whole(self, seat: int) -> list[Card] | None:
        """The seat's cards once the upcard is turned, when they are all it holds: none the
        schedule owes it is on its way (nor missing, past a fault a follower plays on from)."""
        cards = self.cards.get(seat)
        if cards is None or not self.started or self.cards_on_their_way(seat):
            return None
        return cards if len(cards) == self.sched.hand_sizes[seat] else None

    def view(self, seat: int) -> SeatView | None:
        """What the seat sees, when its cards are held: None before the upcard and while cards
        the schedule owes it are on their way (a turn is never offered from a hand missing one).
        """
        cards = self._whole(seat)
        if cards is None:
            return None
        upcard = Card.from_code(self.upcard[1].opening.card) if self.upcard is not None else None
        partner = self.options.partner_of(seat)
        shown = self.shown.get(seat) if partner is not None else None
        return self.sched.seat_view(seat, tuple(cards), upcard, shown)

    # --- the seeds ------------------------------------------------------------------------------

    def apply(self, st: ClassicStatement, record: int) -> None:
        """Follow one record of the hand, whichever kind it is."""
        if isinstance(st, Play):  # the commonest first: a hand's records are mostly plays
            self.on_play(st, record)
        elif isinstance(st, Deal):
            self.on_deal(st, record)
        elif isinstance(st, SeedCommit):
            self.on_seed_commit(st, record)
        elif isinstance(st, SeedReveal):
            self.on_seed_reveal(st, record)
        elif isinstance(st, DeckCommit):
            self.on_deck_commit(st, record)
        elif isinstance(st, Upcard):
            self.on_upcard(st, record)
        elif isinstance(st, BidStatement):
            self.on_bid(st, record)
        elif isinstance(st, CallStatement):
            self.on_call(st, record)
        else:
            self.on_exchange(st, record)

    def on_seed_commit(self, st: SeedCommit, record: int) -> None:
        self.seeds.on_commit(st)

    def on_seed_reveal(self, st: SeedReveal, record: int) -> None:
        self.seeds.on_reveal(st)

    # --- the deck and the deals -----------------------------------------------------------------

    def on_deck_commit(self, st: DeckCommit, record: int) -> None:
        if not self.seeds.done or self.deck_commit is not None:
            raise ClassicFault(
                HOST_PARTY, "deck committed before every seed was revealed, or twice"
            )
        if len(st.commitments) != self.options.deck_size:
            raise ClassicFault(HOST_PARTY, f"expected {self.options.deck_size} card commitments")
        self.deck_commit, self.deck_index = st, record
        self.window, self.window_seen = {s: list(p) for s, p in self.sched.initial.items()}, []

    def _need_dealt(self, st: Statement) -> None:
        if not self.dealt:
            raise ClassicFault(
                HOST_PARTY, f"{st.KIND} before the deck was committed or after the end"
            )

    def _check_openings(self, openings: Sequence[Opening]) -> None:
        assert self.deck_commit is not None
        for o in openings:
            if not opening_matches(self.game_id, self.number, self.deck_commit.commitments, o):
                raise ClassicFault(
                    HOST_PARTY, f"opening for position {o.position} does not match its commitment"
                )

    def close_window(self) -> None:
        """A record of another kind ends the deals the schedule made: all of them are here."""
        if self.window is None:
            return
        seen, exchanged = set(self.window_seen), set(self.exchange_seen)
        due = self.exchange_due
        # Closed whatever it held (a follower past a fault goes on with the next records).
        self.window, self.window_seen, self.exchange_due, self.exchange_seen = None, [], False, []
        if self.recipients is None:
            if not seen:
                raise ClassicFault(HOST_PARTY, "the initial deal is missing: no seat was dealt to")
            self.recipients = frozenset(seen)
        missing = sorted(self.recipients - seen)
        if missing:
            raise ClassicFault(
                HOST_PARTY, f"seat {missing[0]} was not sent the cards the schedule deals it now"
            )
        if due and exchanged != self.recipients:
            raise ClassicFault(
                HOST_PARTY, "the partner exchange is missing at the end of the stock"
            )

    def _window_seat(self, st: Deal | Exchange) -> None:
        if self.window is None:
            raise ClassicFault(
                HOST_PARTY, f"a {st.KIND} when the schedule deals nothing (early, late or twice)"
            )
        if self.recipients is not None and st.seat not in self.recipients:
            raise ClassicFault(
                HOST_PARTY, f"a {st.KIND} for seat {st.seat}, whose cards this file does not hold"
            )

    def on_deal(self, st: Deal, record: int) -> None:
        self._need_dealt(st)
        self._window_seat(st)
        assert self.window is not None
        if not 0 <= st.seat < self.n:
            raise ClassicFault(HOST_PARTY, f"seat {st.seat} does not exist")
        if self.exchange_seen or (self.window_seen and st.seat <= self.window_seen[-1]):
            raise ClassicFault(HOST_PARTY, "deals out of seat order or duplicated")
        want = self.window.get(st.seat, [])
        got = [o.position for o in st.openings]
        if got != want:
            raise ClassicFault(
                HOST_PARTY,
                f"dealt positions {got}, but the schedule gives seat {st.seat} {want} now",
            )
        self._check_openings(st.openings)
        self.window_seen.append(st.seat)
        self.deals.append((record, st))
        self.cards.setdefault(st.seat, []).extend(Card.from_code(o.card) for o in st.openings)

    def on_upcard(self, st: Upcard, record: int) -> None:
        self._need_dealt(st)
        if self.options.chiamata:
            raise ClassicFault(HOST_PARTY, "no upcard is turned at five players")
        if self.upcard is not None or self.plays:
            raise ClassicFault(HOST_PARTY, "upcard turned twice or after play began")
        if st.opening.position != 3 * self.n:
            raise ClassicFault(HOST_PARTY, f"the upcard is position {3 * self.n}")
        self._check_openings([st.opening])
        self.upcard = (record, st)
        self.sched.trump = Card.from_code(st.opening.card).suit

    def on_exchange(self, st: Exchange, record: int) -> None:
        self._need_dealt(st)
        self._window_seat(st)
        if not self.exchange_due:
            raise ClassicFault(
                HOST_PARTY, "an exchange when the schedule makes none (early or late)"
            )
        assert self.recipients is not None
        if set(self.window_seen) != self.recipients:
            raise ClassicFault(HOST_PARTY, "the exchange came before the last draw's cards")
        if self.exchange_seen and st.seat <= self.exchange_seen[-1]:
            raise ClassicFault(HOST_PARTY, "exchanges out of seat order or duplicated")
        partner = self.options.partner_of(st.seat)
        if partner is None or st.partner != partner:
            raise ClassicFault(HOST_PARTY, f"seat {st.seat}'s partner is seat {partner}")
        positions = [o.position for o in st.openings]
        dealt = set(self.sched.positions_of(partner))
        if (
            len(set(positions)) != len(positions)
            or len(positions) != self.sched.hand_sizes[partner]
            or any(p not in dealt for p in positions)
            or any(o.card in self.sched.played[partner] for o in st.openings)
        ):
            raise ClassicFault(
                HOST_PARTY, f"cards shown to seat {st.seat} are not the cards its partner holds"
            )
        self._check_openings(st.openings)
        self.exchange_seen.append(st.seat)
        self.exchanges.append((record, st))
        self.shown[st.seat] = tuple(Card.from_code(o.card) for o in st.openings)

    # --- five players: the auction and the call (fairness.md §13) -------------------------------

    def _need_auction(self, st: BidStatement | CallStatement) -> None:
        self._need_dealt(st)
        if not self.options.chiamata:
            raise ClassicFault(HOST_PARTY, f"a {st.KIND} at {self.n} players: there is no auction")
        if self.window is not None:
            raise ClassicFault(HOST_PARTY, f"a {st.KIND} before every seat was dealt its cards")

    def check_bid(self, st: BidStatement) -> Bid | None:
        """Raise the host's fault unless ``st`` is the bid due now and a legal one (the auction's
        rules, ``rules.auction``); the bid it names (None: a pass)."""
        self._need_auction(st)
        try:
            return checked_bid(self.sched, len(self.bids), st)
        except AuctionProblem as p:
            raise ClassicFault(HOST_PARTY, p.reason) from None

    def on_bid(self, st: BidStatement, record: int) -> None:
        """A published bid (``check_bid``), taken by the auction."""
        bid = self.check_bid(st)
        self.sched.bid(st.seat, bid)
        self.bids.append((record, st))

    def check_call(self, st: CallStatement) -> Suit:
        """Raise the host's fault unless ``st`` is the call due now: the auction's winner names
        a suit 0..3; the suit."""
        self._need_auction(st)
        try:
            return checked_call(self.sched, st)
        except AuctionProblem as p:
            raise ClassicFault(HOST_PARTY, p.reason) from None

    def on_call(self, st: CallStatement, record: int) -> None:
        """A published call: the contract is made, its suit the briscola, the play begins."""
        suit = self.check_call(st)
        self.sched.call(st.seat, suit)
        self.call = (record, st)

    # --- the plays ------------------------------------------------------------------------------

    def check_play(self, st: Play) -> None:
        """Raise the host's fault if ``st`` is not the play due now: in turn, a card not played
        yet (whether the seat held it is judged when the host-reveal opens the deck)."""
        self._need_dealt(st)
        if not self.started:
            raise ClassicFault(HOST_PARTY, "a card was played before the upcard was turned")
        if self.sched.trump is None:
            raise ClassicFault(HOST_PARTY, "a card was played before the auction's call")
        if st.index != len(self.plays):
            raise ClassicFault(
                HOST_PARTY, f"expected play number {len(self.plays)}, got {st.index}"
            )
        if self.sched.to_play is None:
            raise ClassicFault(HOST_PARTY, "a card was played after the last trick")
        if st.seat != self.sched.to_play:
            raise ClassicFault(
                HOST_PARTY,
                f"seat {st.seat} played out of turn (seat {self.sched.to_play} was to play)",
            )
        if not 0 <= st.card < 40 or st.card in self.played:
            raise ClassicFault(
                HOST_PARTY, f"card {st.card} cannot be played (no such card, or twice)"
            )

    def on_play(self, st: Play, record: int) -> None:
        """A published play (``check_play``), followed by the schedule."""
        self.check_play(st)
        self.plays.append((record, st))
        self.played.add(st.card)
        card = Card.from_code(st.card)
        held = self.cards.get(st.seat)
        if held is not None and card in held:
            held.remove(card)
        outcome = self.sched.play(st.seat, card)
        if outcome is not None and outcome.draws:
            self.window = {}
            for seat, pos in outcome.draws:
                self.window.setdefault(seat, []).append(pos)
            self.window_seen, self.exchange_due = [], outcome.exchange

    def play_opening_problem(self, seat: int, opening: Opening) -> str | None:
        """Why the opening a play comes with (a live message, not a record) does not show a card
        of the seat's at a position it holds, or None (fairness.md §8.10)."""
        assert self.deck_commit is not None
        if not opening_matches(self.game_id, self.number, self.deck_commit.commitments, opening):
            return f"the opening of position {opening.position} does not match"
        if self.sched.dealt.get(opening.position) != seat:
            return f"position {opening.position} is not a card seat {seat} holds"
        return None

    # --- the end: the host's reveal opens the deck ----------------------------------------------

    def on_host_reveal(self, st: HostReveal, record: int, *, played: Hand | None = None) -> Hand:
        """The host's seed and every salt: the deck the seeds shuffle must be the committed one,
        and every play, deal and exchange what the rules engine makes of it. The replayed hand.

        ``played``: the host's own engine, which shuffled the deck from these seeds and took
        every play (the host checking its own reveal before it publishes it). The committed
        deck must be its deck and the points the schedule's; each deal, exchange and play was
        checked against the schedule and the commitments as it came, so the deck is not
        shuffled and the hand not replayed again."""
        self._need_dealt(st)
        opts = self.options
        assert self.deck_commit is not None
        if not seed_opens(
            self.game_id, self.number, HOST_PARTY, st.host_seed, self.commit.commitment
        ):
            raise ClassicFault(HOST_PARTY, "host seed does not match the host's commitment")
        if len(st.salts) != opts.deck_size:
            raise ClassicFault(HOST_PARTY, f"expected {opts.deck_size} salts")
        if self.sched.phase in (Phase.AUCTION, Phase.CALL):
            raise ClassicFault(HOST_PARTY, f"the hand was closed during its {self.sched.phase}")
        if played is not None:
            self._committed(played.deck, st.salts)
            points = tuple(self.sched.points)
            if self.sched.to_play is not None:
                raise ClassicFault(HOST_PARTY, "the hand was closed before every trick was played")
            if tuple(st.points) != points:
                raise ClassicFault(
                    HOST_PARTY, f"announced points {st.points} but the plays give {points}"
                )
            self.revealed = True
            return played
        deck = deal_deck(opts, deck_seed(self.game_id, self.number, st.host_seed, self.seeds.seeds))
        self._committed(deck, st.salts)
        hand = Hand(opts, deck, self.dealer)
        for _idx, b in self.bids:  # every bid and the call were checked as they came
            hand.bid(b.seat, bid_of(b.bid))
        if self.call is not None:
            hand.call(self.call[1].seat, Suit(self.call[1].suit))
        hand = self._replayed(st, hand)
        self.revealed = True
        return hand

    def _committed(self, deck: Sequence[Card], salts: Sequence[bytes]) -> None:
        """The deck with these salts is the committed one, position by position."""
        assert self.deck_commit is not None
        for pos, card in enumerate(deck):
            c = card_commitment(self.game_id, self.number, pos, card.code, salts[pos])
            if c != self.deck_commit.commitments[pos]:
                raise ClassicFault(
                    HOST_PARTY,
                    f"position {pos}: the committed card is not the card the seeds shuffle "
                    "there (cards swapped, invented or a bad salt)",
                    self.deck_index,
                    DeckCommit.KIND,
                )

    def _replayed(self, st: HostReveal, hand: Hand) -> Hand:
        """Every play, deal and exchange of the hand against the rules engine over its deck, and
        the announced points (raises ClassicFault); the hand played to its end."""
        opts = self.options
        dealt_to: dict[int, int] = {}
        for ev in hand.deal_events:
            if isinstance(ev, CardDealt):
                dealt_to[ev.position] = ev.seat
        for idx, play in self.plays:
            if hand.current_player != play.seat:
                raise ClassicFault(
                    HOST_PARTY, f"seat {play.seat} played out of turn", idx, Play.KIND
                )
            try:
                events = hand.play(play.seat, Card.from_code(play.card))
            except (RulesError, ValueError) as exc:
                raise ClassicFault(
                    HOST_PARTY, f"illegal play accepted: {exc}", idx, Play.KIND
                ) from exc
            for ev in events:
                if isinstance(ev, CardDealt):
                    dealt_to[ev.position] = ev.seat
        if not hand.is_terminal:
            raise ClassicFault(HOST_PARTY, "the hand was closed before every trick was played")
        for idx, deal in self.deals:
            for o in deal.openings:
                if dealt_to.get(o.position) != deal.seat:
                    raise ClassicFault(
                        HOST_PARTY,
                        f"position {o.position} was not dealt to seat {deal.seat} by the "
                        "public schedule",
                        idx,
                        Deal.KIND,
                    )
        shown = hand.exchange_shown
        for idx, ex in self.exchanges:
            if shown is None or opts.partner_of(ex.seat) != ex.partner:
                raise ClassicFault(
                    HOST_PARTY, "exchange that should not happen", idx, Exchange.KIND
                )
            held = sorted(c.code for c in shown[ex.partner])
            codes = sorted(o.card for o in ex.openings)
            wrong = [o.position for o in ex.openings if dealt_to.get(o.position) != ex.partner]
            if codes != held or wrong:
                raise ClassicFault(
                    HOST_PARTY,
                    f"cards shown to seat {ex.seat} are not the cards its partner holds",
                    idx,
                    Exchange.KIND,
                )
        points = hand.returns()
        if tuple(st.points) != points:
            raise ClassicFault(
                HOST_PARTY, f"announced points {st.points} but the plays give {points}"
            )
        return hand


__all__ = [
    "ClassicFault",
    "ClassicHand",
    "ClassicStatement",
    "SeedRound",
    "bid_code",
    "bid_of",
    "opening_matches",
]
