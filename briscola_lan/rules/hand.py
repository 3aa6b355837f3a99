"""One hand of Briscola as a mutable state machine in the OpenSpiel style; no I/O, no randomness.

Theory of operation: the deck order is an argument (position 0 is dealt first). The initial deal
gives one card at a time, three rounds, starting left of the dealer: position ``r * n + i`` goes
to seat ``(dealer + 1 + i) % n``. Position ``3n`` is the upcard; its suit is the briscola. After
each trick the winner draws first, then the others clockwise, taking positions ``3n+1, 3n+2, ...``
in order; the very last draw takes the upcard. At 4 players, once the stock is exhausted, partners
show each other their hands (an option). Seats are numbered clockwise (``seat + 1`` is a seat's
left); any held card is a legal play. ``play`` raises without changing anything on a bad move.

At five players (Briscola chiamata) eight rounds deal the whole pack and nothing is turned up;
the seats bid (``bid``) from the left of the dealer, the winner calls a suit (``call``), and the
play follows as above with no draws. The engine knows from the deck who holds the called card
(``called_holder``); the public engine learns it when the card is played.

A ``Hand`` is the public engine (``rules.schedule.PublicSchedule``: turns, tricks, draws, points)
with the deck added: it knows every seat's cards, so it refuses a card a seat does not hold and
reports each card dealt. It changes as it is played; its attributes are public for reading (the
host reads the deck, the hands, the plays and the shown hands from them) and only ``play`` changes
them; a bot or a client gets a ``SeatView``, an immutable copy of one seat's share.
"""

from __future__ import annotations

from collections.abc import Sequence

from briscola_lan.rules.auction import Bid, Contract
from briscola_lan.rules.cards import Card, Suit, deck_for
from briscola_lan.rules.chiamata import CallResult
from briscola_lan.rules.errors import IllegalBid, IllegalPlay, NotYourTurn, RulesError
from briscola_lan.rules.events import (
    BidMade,
    CardCalled,
    CardDealt,
    CardPlayed,
    Event,
    HandEnded,
    HandPassedOut,
    HandsExchanged,
    TrickTaken,
    UpcardTurned,
)
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.schedule import Phase, PublicSchedule, SeatView, initial_deal


class Hand:
    """A hand from deal to scoring, changed in place by ``play``; the deck order is given."""

    def __init__(self, options: TableOptions, deck: Sequence[Card], dealer: int) -> None:
        n = options.players
        if not 0 <= dealer < n:
            raise RulesError(f"dealer must be a seat 0..{n - 1}, not {dealer}")
        if sorted(c.code for c in deck) != sorted(c.code for c in deck_for(n, options.removed_two)):
            raise RulesError(
                f"the deck must be a permutation of the {options.deck_size}-card pack for "
                f"{n} players"
            )
        self.options = options
        self.deck: tuple[Card, ...] = tuple(deck)
        self.dealer = dealer
        self.n = n
        self.public = PublicSchedule(options, dealer)  # the engine without the deck
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.upcard_position = self.public.upcard_position
        self.upcard: Card | None = None
        self.exchange_shown: tuple[tuple[Card, ...], ...] | None = None
        self.plays: list[Card] = []
        self.deal_events: list[Event] = []
        for pos, seat in initial_deal(n, dealer, options.hand_size):
            self.hands[seat].append(self.deck[pos])
            self.deal_events.append(CardDealt(seat, self.deck[pos], pos, initial=True))
        if self.upcard_position is not None:
            self.upcard = self.deck[self.upcard_position]
            self.public.trump = self.upcard.suit
            self.deal_events.append(UpcardTurned(self.upcard, self.upcard_position))

    # --- the public state, read from the engine without the deck ----------------------------

    @property
    def trump(self) -> Suit | None:
        """The briscola: the upcard's suit, or at five players the called suit (None before)."""
        return self.public.trump

    @property
    def phase(self) -> str:
        return self.public.phase

    @property
    def contract(self) -> Contract | None:
        return self.public.contract

    @property
    def called_holder(self) -> int | None:
        """Five players, once called: the seat dealt the called card (the partner; the caller
        itself when alone). Known to the engine from the deck, to the table only when played."""
        contract = self.public.contract
        if contract is None:
            return None
        pos = self.deck.index(contract.called)
        return self.public.dealt[pos]

    @property
    def to_play(self) -> int | None:
        return self.public.to_play

    @property
    def leader(self) -> int:
        return self.public.leader

    @property
    def trick(self) -> list[tuple[int, Card]]:
        return self.public.trick

    @property
    def tricks(self) -> list[TrickTaken]:
        return self.public.tricks

    @property
    def points(self) -> list[int]:
        return self.public.points

    @property
    def upcard_taken_by(self) -> int | None:
        return self.public.upcard_taken_by

    @property
    def exchange_trick(self) -> int | None:
        return self.public.exchange_trick

    # --- the small fixed game API -------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat to act (to bid, call or play), or None once the hand is over."""
        return self.public.to_act

    @property
    def is_terminal(self) -> bool:
        public = self.public
        return public.to_play is None and public.phase in (Phase.OVER, Phase.PASSED_OUT)

    @property
    def passed_out(self) -> bool:
        """Five players: everyone passed before a first bid; the hand is void, dealt again."""
        return self.public.phase == Phase.PASSED_OUT

    @property
    def stock_left(self) -> int:
        """Cards still to be drawn, the upcard included."""
        return self.public.stock_left

    def legal_plays(self) -> tuple[Card, ...]:
        """Cards the current player may play, in code order (any held card is legal)."""
        to_play = self.public.to_play
        if to_play is None:
            return ()
        return tuple(sorted(self.hands[to_play], key=lambda c: c.code))

    def legal_bids(self) -> tuple[Bid, ...]:
        """Five players, in the auction: the bids the seat to bid may make (or it passes)."""
        auction = self.public.auction
        return auction.legal() if auction is not None else ()

    def bid(self, seat: int, bid: Bid | None) -> list[Event]:
        """Five players: ``seat`` bids (None: passes). Raises NotYourTurn/IllegalBid and
        changes nothing."""
        self.public.bid(seat, bid)
        events: list[Event] = [BidMade(seat, bid)]
        if self.passed_out:
            events.append(HandPassedOut())
        return events

    def call(self, seat: int, suit: Suit) -> list[Event]:
        """Five players: the auction's winner calls a suit. Raises NotYourTurn/IllegalBid and
        changes nothing."""
        contract = self.public.call(seat, suit)
        return [CardCalled(seat, contract.called)]

    def play(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` for ``seat``. Raises NotYourTurn/IllegalPlay and changes nothing."""
        public = self.public
        to_play = public.to_play
        if to_play is None:  # a card is owed exactly when to_play is set
            if public.phase in (Phase.AUCTION, Phase.CALL):
                raise IllegalPlay(f"no card is played before the {public.phase} is over")
            raise IllegalPlay("the hand is over: no more cards can be played")
        if seat != to_play:
            raise NotYourTurn(f"it is seat {to_play}'s turn, not seat {seat}'s")
        held = self.hands[seat]
        if card not in held:
            raise IllegalPlay(f"seat {seat} does not hold {card.label(ascii_only=True)}")
        held.remove(card)
        self.plays.append(card)
        events: list[Event] = [CardPlayed(seat, card)]
        outcome = public.play(seat, card)
        if outcome is None:
            return events
        events.append(outcome.taken)
        for s, pos in outcome.draws:
            drawn = self.deck[pos]
            self.hands[s].append(drawn)
            events.append(CardDealt(s, drawn, pos, initial=False))
        if outcome.exchange:
            self.exchange_shown = tuple(tuple(h) for h in self.hands)
            events.append(HandsExchanged(self.exchange_shown))
        if outcome.last:
            events.append(HandEnded(tuple(public.points)))
        return events

    def returns(self) -> tuple[int, ...]:
        """Card points per side so far (final once terminal); per seat at five players."""
        return tuple(self.public.points)

    def result(self) -> CallResult | None:
        """Five players, once over: the callers, their points and each seat's score."""
        return self.public.result()

    def view(self, seat: int) -> SeatView:
        """The per-seat observation: own cards and public facts only."""
        partner = self.options.partner_of(seat)
        shown = None
        if self.exchange_shown is not None and partner is not None:
            shown = self.exchange_shown[partner]
        return self.public.seat_view(seat, tuple(self.hands[seat]), self.upcard, shown)


def replay_hand(
    options: TableOptions,
    deck: Sequence[Card],
    dealer: int,
    plays: Sequence[Card],
    *,
    bids: Sequence[Bid | None] = (),
    call: Suit | None = None,
) -> Hand:
    """Rebuild a hand from its options, deck order, dealer and the cards played in order (at
    five players, after its bids in order, None for a pass, and the called suit)."""
    hand = Hand(options, deck, dealer)
    for bid in bids:
        seat = hand.public.to_bid
        if seat is None:
            raise IllegalBid("more bids than the auction took")
        hand.bid(seat, bid)
    if call is not None:
        seat = hand.public.to_call
        if seat is None:
            raise IllegalBid("a call with no auction won")
        hand.call(seat, call)
    for card in plays:
        seat = hand.current_player
        if seat is None:
            raise IllegalPlay("more plays than the hand has tricks")
        hand.play(seat, card)
    return hand


__all__ = ["Hand", "SeatView", "replay_hand"]
