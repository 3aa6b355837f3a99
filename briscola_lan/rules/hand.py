"""One hand of Briscola as a mutable state machine in the OpenSpiel style; no I/O, no randomness.

Theory of operation: the deck order is an argument (position 0 is dealt first). The initial deal
gives one card at a time, three rounds, starting left of the dealer: position ``r * n + i`` goes
to seat ``(dealer + 1 + i) % n``. Position ``3n`` is the upcard; its suit is the briscola. After
each trick the winner draws first, then the others clockwise, taking positions ``3n+1, 3n+2, ...``
in order; the very last draw takes the upcard. At 4 players, once the stock is exhausted, partners
show each other their hands (an option). Seats are numbered clockwise (``seat + 1`` is a seat's
left); any held card is a legal play. ``play`` raises without changing anything on a bad move.

A ``Hand`` changes as it is played. Its attributes are public for reading (the host reads the deck,
the hands, the plays and the shown hands from them) and only ``play`` changes them; a bot or a
client gets a ``SeatView``, an immutable copy of one seat's share.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from briscola_lan.rules.cards import Card, Suit, deck_for, trick_winner_index
from briscola_lan.rules.errors import IllegalPlay, NotYourTurn, RulesError
from briscola_lan.rules.events import (
    CardDealt,
    CardPlayed,
    Event,
    HandEnded,
    HandsExchanged,
    TrickTaken,
    UpcardTurned,
)
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.schedule import draw_order, initial_deal


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know: its own cards and public facts, never another seat's hidden card.

    Built fresh from copies by ``Hand.view``; it holds no reference back to the hand.
    """

    seat: int
    options: TableOptions
    dealer: int
    hand: tuple[Card, ...]
    trump: Suit
    upcard: Card
    upcard_taken_by: int | None
    stock_left: int
    trick: tuple[tuple[int, Card], ...]
    leader: int
    to_play: int | None
    tricks: tuple[TrickTaken, ...]
    hand_sizes: tuple[int, ...]
    points: tuple[int, ...]
    partner_shown: tuple[Card, ...] | None
    partner_exchange_trick: int | None

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def my_turn(self) -> bool:
        return self.to_play == self.seat

    @property
    def legal_plays(self) -> tuple[Card, ...]:
        """Cards this seat may play now, in a stable order (code order); empty if not its turn."""
        return tuple(sorted(self.hand, key=lambda c: c.code)) if self.my_turn else ()

    @property
    def played_cards(self) -> tuple[Card, ...]:
        """Every card seen played this hand, completed tricks then the current one."""
        out = [c for t in self.tricks for _, c in t.plays]
        out.extend(c for _, c in self.trick)
        return tuple(out)


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
        self.hands: list[list[Card]] = [[] for _ in range(n)]
        self.upcard_position = 3 * n
        self.upcard = self.deck[self.upcard_position]
        self.trump = self.upcard.suit
        # Positions still to draw, in draw order: the upcard last of all.
        self._draw_order: list[int] = draw_order(n, len(self.deck))
        self._next_draw = 0
        self.upcard_taken_by: int | None = None
        self.trick: list[tuple[int, Card]] = []
        self.leader = (dealer + 1) % n
        self.to_play: int | None = self.leader
        self.tricks: list[TrickTaken] = []
        self.points = [0] * options.sides
        self.exchange_shown: tuple[tuple[Card, ...], ...] | None = None
        self.exchange_trick: int | None = None
        self.plays: list[Card] = []
        self.deal_events: list[Event] = []
        for pos, seat in initial_deal(n, dealer):
            self.hands[seat].append(self.deck[pos])
            self.deal_events.append(CardDealt(seat, self.deck[pos], pos, initial=True))
        self.deal_events.append(UpcardTurned(self.upcard, self.upcard_position))

    # --- the small fixed game API -------------------------------------------------------------

    @property
    def current_player(self) -> int | None:
        """The seat to play, or None once the hand is over."""
        return self.to_play

    @property
    def is_terminal(self) -> bool:
        return self.to_play is None

    @property
    def stock_left(self) -> int:
        """Cards still to be drawn, the upcard included."""
        return len(self._draw_order) - self._next_draw

    def legal_plays(self) -> tuple[Card, ...]:
        """Cards the current player may play, in code order (any held card is legal)."""
        if self.to_play is None:
            return ()
        return tuple(sorted(self.hands[self.to_play], key=lambda c: c.code))

    def play(self, seat: int, card: Card) -> list[Event]:
        """Play ``card`` for ``seat``. Raises NotYourTurn/IllegalPlay and changes nothing."""
        if self.to_play is None:
            raise IllegalPlay("the hand is over: no more cards can be played")
        if seat != self.to_play:
            raise NotYourTurn(f"it is seat {self.to_play}'s turn, not seat {seat}'s")
        held = self.hands[seat]
        if card not in held:
            raise IllegalPlay(f"seat {seat} does not hold {card.label(ascii_only=True)}")
        held.remove(card)
        self.plays.append(card)
        self.trick.append((seat, card))
        events: list[Event] = [CardPlayed(seat, card)]
        if len(self.trick) < self.n:
            self.to_play = (seat + 1) % self.n
            return events
        events.extend(self._finish_trick())
        return events

    def returns(self) -> tuple[int, ...]:
        """Card points per side so far (final once terminal)."""
        return tuple(self.points)

    def view(self, seat: int) -> SeatView:
        """The per-seat observation: own cards and public facts only."""
        partner = self.options.partner_of(seat)
        shown = None
        if self.exchange_shown is not None and partner is not None:
            shown = self.exchange_shown[partner]
        return SeatView(
            seat=seat,
            options=self.options,
            dealer=self.dealer,
            hand=tuple(self.hands[seat]),
            trump=self.trump,
            upcard=self.upcard,
            upcard_taken_by=self.upcard_taken_by,
            stock_left=self.stock_left,
            trick=tuple(self.trick),
            leader=self.leader,
            to_play=self.to_play,
            tricks=tuple(self.tricks),
            hand_sizes=tuple(len(h) for h in self.hands),
            points=tuple(self.points),
            partner_shown=shown,
            partner_exchange_trick=self.exchange_trick,
        )

    # --- internals -----------------------------------------------------------------------------

    def _finish_trick(self) -> list[Event]:
        cards = [c for _, c in self.trick]
        winner = self.trick[trick_winner_index(cards, self.trump)][0]
        pts = sum(c.points for c in cards)
        side = self.options.side_of(winner)
        self.points[side] += pts
        taken = TrickTaken(winner, tuple(self.trick), pts)
        self.tricks.append(taken)
        self.trick = []
        self.leader = winner
        events: list[Event] = [taken]
        if self.stock_left > 0:
            for i in range(self.n):
                s = (winner + i) % self.n
                pos = self._draw_order[self._next_draw]
                self._next_draw += 1
                card = self.deck[pos]
                self.hands[s].append(card)
                if pos == self.upcard_position:
                    self.upcard_taken_by = s
                events.append(CardDealt(s, card, pos, initial=False))
            if self.stock_left == 0 and self.options.exchange_enabled:
                self.exchange_shown = tuple(tuple(h) for h in self.hands)
                self.exchange_trick = len(self.tricks)
                events.append(HandsExchanged(self.exchange_shown))
        if any(self.hands):
            self.to_play = winner
        else:
            self.to_play = None
            events.append(HandEnded(tuple(self.points)))
        return events


def replay_hand(
    options: TableOptions, deck: Sequence[Card], dealer: int, plays: Sequence[Card]
) -> Hand:
    """Rebuild a hand from its options, deck order, dealer and the cards played in order."""
    hand = Hand(options, deck, dealer)
    for card in plays:
        seat = hand.current_player
        if seat is None:
            raise IllegalPlay("more plays than the hand has tricks")
        hand.play(seat, card)
    return hand
