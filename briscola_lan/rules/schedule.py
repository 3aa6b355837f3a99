"""One hand of Briscola seen without the deck: whose turn, who takes each trick, which deck position
each seat receives and when, the tricks and the points, from public facts only.

The initial deal, the draw order and who draws after each trick depend only on the dealer, the
trump suit and the cards played, so anyone can follow them without seeing a hidden card. This is
the one place where a trick is resolved and a round of draws made: the rules engine
(``rules.hand.Hand``) is this engine with the deck added, and the verifier, the host and every
client follow a hand's public records with it (``fairness.classic_hand``, ``fairness.blind_hand``).

At five players (Briscola chiamata) the whole pack is dealt, eight cards each, with no stock and
no upcard; the auction and the call come before the first card (both public), the called card's
suit is the briscola, and the called partner becomes known here when the called card is played.
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.rules.auction import Auction, Bid, Contract
from briscola_lan.rules.cards import Card, Suit, trick_winner_index
from briscola_lan.rules.chiamata import CallResult, score_hand
from briscola_lan.rules.errors import IllegalBid, NotYourTurn
from briscola_lan.rules.events import TrickTaken
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.signals import SignalValue


def initial_deal(players: int, dealer: int, rounds: int = 3) -> list[tuple[int, int]]:
    """(position, seat) of the initial deal in dealing order: ``rounds`` rounds (three, or eight
    at five players), one card each, starting from the seat left of the dealer; positions
    0 .. rounds*n-1."""
    return [
        (r * players + i, (dealer + 1 + i) % players) for r in range(rounds) for i in range(players)
    ]


def draw_order(players: int, deck_size: int, rounds: int = 3) -> list[int]:
    """Stock positions in the order they are drawn: 3n+1, 3n+2, ..., the upcard (3n) last; none
    when the deal takes the whole pack (five players)."""
    upcard = rounds * players
    if upcard >= deck_size:
        return []
    return [*range(upcard + 1, deck_size), upcard]


class Phase:
    """What a hand waits for: bids, the call (5 players), cards; or nothing more."""

    AUCTION = "auction"
    CALL = "call"
    PLAY = "play"
    OVER = "over"
    PASSED_OUT = "passed-out"  # 5 players: everyone passed, the hand is dealt again


@dataclass(frozen=True, slots=True)
class SeatView:
    """What one seat may know: its own cards and public facts, never another seat's hidden card.

    Built fresh from copies (``PublicSchedule.seat_view``); it holds no reference back to a hand.
    At five players there is no upcard (``upcard`` None), no trump before the call (``trump``
    None), and the view adds the auction, the contract once called, and the partner only as this
    seat may know it: itself if it holds the called card, anyone's once the card is played.
    ``partner_signals`` are the partner's signals this seat has read this hand (the play index
    each was made at, and what it says): only whoever plays the seat can fill them in (the host
    for its AI seats), since only the partners can read a signal; empty otherwise.
    """

    seat: int
    options: TableOptions
    dealer: int
    hand: tuple[Card, ...]
    trump: Suit | None
    upcard: Card | None
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
    # Five players: the auction so far ((seat, bid or None for a pass), in order), whose bid or
    # call it is, the contract once called, and the partner as this seat knows it.
    auction: tuple[tuple[int, Bid | None], ...] = ()
    to_bid: int | None = None
    to_call: int | None = None
    contract: Contract | None = None
    partner: int | None = None
    partner_signals: tuple[tuple[int, SignalValue], ...] = ()

    @property
    def players(self) -> int:
        return self.options.players

    @property
    def my_turn(self) -> bool:
        return self.to_play == self.seat

    @property
    def my_bid(self) -> bool:
        return self.to_bid == self.seat

    @property
    def my_call(self) -> bool:
        return self.to_call == self.seat

    @property
    def legal_bids(self) -> tuple[Bid, ...]:
        """Bids this seat may make now, lowest first (a pass is always allowed); empty if it is
        not its turn to bid."""
        if not self.my_bid:
            return ()
        first = (self.dealer + 1) % self.players
        auction = Auction(self.players, first, self.options.points_to_win)
        for seat, bid in self.auction:
            auction.act(seat, bid)
        return auction.legal()

    @property
    def high_bid(self) -> tuple[int, Bid] | None:
        """(seat, bid) of the highest bid so far."""
        high = None
        for seat, bid in self.auction:
            if bid is not None:
                high = (seat, bid)
        return high

    @property
    def holds_called(self) -> bool:
        """Whether this seat holds the called card now (it is the caller's partner)."""
        return self.contract is not None and self.contract.called in self.hand

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


@dataclass(frozen=True, slots=True)
class TrickOutcome:
    """A finished trick seen from outside: who took it, the points, the draws that follow."""

    winner: int
    points: int
    draws: tuple[tuple[int, int], ...]  # (seat, position) in draw order; empty once stock is out
    exchange: bool  # the 4-player partner exchange happens now (after these draws)
    last: bool  # the hand is over
    taken: TrickTaken  # the trick, as the rules report it


class PublicSchedule:
    """One hand followed from public facts only: the upcard's suit, the bids and the call at
    five players, and each card played.

    It knows whose turn it is, which positions every seat was dealt, who draws what after each
    trick, when the partner exchange comes, the tricks taken and the points; it never knows a
    hidden card. ``play`` trusts its caller to have checked the turn (``to_play``) and the card;
    ``bid`` and ``call`` check theirs (they are public) and raise without changing anything.
    """

    def __init__(self, options: TableOptions, dealer: int) -> None:
        n = options.players
        self.options, self.n, self.dealer = options, n, dealer
        rounds = options.hand_size
        self.upcard_position: int | None = None if options.chiamata else rounds * n
        self.dealt: dict[int, int] = {}  # position -> seat
        self.initial: dict[int, list[int]] = {s: [] for s in range(n)}  # seat -> positions
        for pos, seat in initial_deal(n, dealer, rounds):
            self.dealt[pos] = seat
            self.initial[seat].append(pos)
        self._draw_order = draw_order(n, options.deck_size, rounds)
        self._next_draw = 0
        self.hand_sizes = [rounds] * n
        self.played: dict[int, list[int]] = {s: [] for s in range(n)}  # seat -> card codes
        self.trump: Suit | None = None
        self.trick: list[tuple[int, Card]] = []
        self.leader = (dealer + 1) % n
        self.tricks: list[TrickTaken] = []
        self.points = [0] * options.sides
        self.upcard_taken_by: int | None = None
        self.exchange_trick: int | None = None  # tricks taken when the partners showed hands
        # Five players: the auction, the contract once called, the partner once the called card
        # is played (the seat that played it; the caller itself when alone).
        self.auction: Auction | None = None
        self.contract: Contract | None = None
        self.partner: int | None = None
        self.to_play: int | None = self.leader
        if options.chiamata:
            self.auction = Auction(n, self.leader, options.points_to_win)
            self.to_play = None

    @property
    def phase(self) -> str:
        """What the hand waits for (``Phase``)."""
        if self.auction is not None:
            if not self.auction.over:
                return Phase.AUCTION
            if self.auction.passed_out:
                return Phase.PASSED_OUT
            if self.contract is None:
                return Phase.CALL
        return Phase.PLAY if self.to_play is not None else Phase.OVER

    @property
    def to_bid(self) -> int | None:
        return self.auction.to_bid if self.auction is not None else None

    @property
    def to_call(self) -> int | None:
        """The auction's winner, until it has called."""
        if self.auction is None or self.contract is not None:
            return None
        return self.auction.winner

    @property
    def to_act(self) -> int | None:
        """The seat the hand waits for, whatever it owes (a bid, the call or a card)."""
        phase = self.phase
        if phase == Phase.AUCTION:
            return self.to_bid
        if phase == Phase.CALL:
            return self.to_call
        return self.to_play

    def bid(self, seat: int, bid: Bid | None) -> None:
        """Record a bid (None: a pass); raises NotYourTurn or IllegalBid and changes nothing."""
        if self.auction is None:
            raise IllegalBid(f"there is no auction at {self.n} players")
        self.auction.act(seat, bid)

    def call(self, seat: int, suit: Suit) -> Contract:
        """The auction's winner calls a suit: the called card is the bid's rank of that suit, and
        the suit is the briscola. Raises NotYourTurn or IllegalBid and changes nothing."""
        caller = self.to_call
        if caller is None:
            raise IllegalBid("no call is due: the auction is not won, or the call is made")
        if seat != caller:
            raise NotYourTurn(f"seat {caller} won the auction and calls, not seat {seat}")
        if not isinstance(suit, Suit):
            raise IllegalBid(f"a call names a suit, not {suit!r}")
        assert self.auction is not None and self.auction.high is not None
        bid = self.auction.high[1]
        self.contract = Contract(caller, bid, Card(suit, bid.rank))
        self.trump = suit
        self.to_play = self.leader
        return self.contract

    def result(self) -> CallResult | None:
        """Five players, the hand over: its score (the partner is known once every card is
        played)."""
        if self.contract is None or self.to_play is not None or self.partner is None:
            return None
        return score_hand(self.options, self.contract, self.partner, self.points)

    @property
    def stock_left(self) -> int:
        """Cards still to be drawn, the upcard included."""
        return len(self._draw_order) - self._next_draw

    def stock_positions(self) -> list[int]:
        """The positions still to draw, in draw order (the upcard's last)."""
        return self._draw_order[self._next_draw :]

    @property
    def plays_made(self) -> int:
        """Cards played so far this hand (the next play's number)."""
        return sum(len(t.plays) for t in self.tricks) + len(self.trick)

    def positions_of(self, seat: int) -> list[int]:
        """Every position the schedule has given ``seat`` so far."""
        return [p for p, s in self.dealt.items() if s == seat]

    def play(self, seat: int, card: Card) -> TrickOutcome | None:
        """Record a card played by the seat to move; the trick's outcome when it completes."""
        assert self.trump is not None and seat == self.to_play
        self.played[seat].append(card.code)
        if self.contract is not None and card == self.contract.called:
            self.partner = seat
        self.hand_sizes[seat] -= 1
        trick = self.trick
        trick.append((seat, card))
        n = self.n
        if len(trick) < n:
            self.to_play = (seat + 1) % n
            return None
        winner = trick[trick_winner_index([c for _, c in trick], self.trump)][0]
        points = sum(c.points for _, c in trick)
        taken = TrickTaken(winner, tuple(trick), points)
        self.tricks.append(taken)
        self.points[self.options.side_of(winner)] += points
        self.trick = []
        self.leader = winner
        draws: list[tuple[int, int]] = []
        exchange = False
        if self._next_draw < len(self._draw_order):  # stock left
            for i in range(n):
                s = (winner + i) % n
                pos = self._draw_order[self._next_draw]
                self._next_draw += 1
                self.dealt[pos] = s
                self.hand_sizes[s] += 1
                if pos == self.upcard_position:
                    self.upcard_taken_by = s
                draws.append((s, pos))
            exchange = self._next_draw == len(self._draw_order) and self.options.exchange_enabled
            if exchange:
                self.exchange_trick = len(self.tricks)
        last = not any(self.hand_sizes)
        self.to_play = None if last else winner
        return TrickOutcome(winner, points, tuple(draws), exchange, last, taken)

    def seat_view(
        self,
        seat: int,
        hand: tuple[Card, ...],
        upcard: Card | None,
        partner_shown: tuple[Card, ...] | None,
        *,
        turns: bool = True,
    ) -> SeatView:
        """The seat's observation: these public facts and the cards given for it (``upcard``
        None at five players).

        ``turns=False``: nobody is offered a turn (a hand whose next statement is not a play,
        a bid or the call)."""
        contract = self.contract
        partner = self.partner
        if partner is None and contract is not None and contract.called in hand:
            partner = seat  # it holds the called card: it knows it is the partner
        return SeatView(
            seat=seat,
            options=self.options,
            dealer=self.dealer,
            hand=hand,
            trump=upcard.suit if upcard is not None else self.trump,
            upcard=upcard,
            upcard_taken_by=self.upcard_taken_by,
            stock_left=self.stock_left,
            trick=tuple(self.trick),
            leader=self.leader,
            to_play=self.to_play if turns else None,
            tricks=tuple(self.tricks),
            hand_sizes=tuple(self.hand_sizes),
            points=tuple(self.points),
            partner_shown=partner_shown,
            partner_exchange_trick=self.exchange_trick,
            auction=tuple(self.auction.bids) if self.auction is not None else (),
            to_bid=self.to_bid if turns else None,
            to_call=self.to_call if turns else None,
            contract=contract,
            partner=partner,
        )


__all__ = [
    "Phase",
    "PublicSchedule",
    "SeatView",
    "TrickOutcome",
    "draw_order",
    "initial_deal",
]
