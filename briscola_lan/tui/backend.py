"""Sources of table state the client can drive: the base interface and offline practice vs bots.

A backend owns a ``TableModel``, updates it as the game moves and calls its listener after each
change; the app only calls ``play``, ``next_hand`` and ``close``. ``PracticeBackend`` runs the
rules engine in-process against bots (no network at all).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable
from typing import Protocol, cast

from briscola_lan.choices import AI_PACE
from briscola_lan.rules import (
    Bid,
    Card,
    CardDealt,
    CardPlayed,
    Hand,
    IllegalBid,
    IllegalPlay,
    Match,
    NotYourTurn,
    Rank,
    SeatView,
    Suit,
    TableOptions,
    TrickTaken,
    deck_for,
)
from briscola_lan.rules.signals import SignalValue
from briscola_lan.table import events as ev
from briscola_lan.tui import chiamata
from briscola_lan.tui import deck as dk
from briscola_lan.tui.adapters import add_hand_cards, apply_seat_view
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import HandSummary, SeatInfo, TableModel, Verification


class Chooser(Protocol):
    """Anything that picks a card from a seat's view (the ``ai`` bots have this shape)."""

    def choose(self, view: SeatView) -> Card: ...


class Bidder(Chooser, Protocol):
    """A five-player seat's bot: it also bids and calls (``ai.ChiamataBot`` has this shape)."""

    def bid(self, view: SeatView) -> Bid | None: ...

    def call(self, view: SeatView) -> Suit: ...


def make_chooser(level: str, seed: int | None = None, *, five: bool = False) -> Chooser:
    """A bot of the given level from ``briscola_lan.ai`` (a fresh random seed when None); at
    five players (``five``) one that also bids and calls (``ai.make_chiamata_bot``)."""
    from briscola_lan.ai import make_bot, make_chiamata_bot

    seed = seed if seed is not None else secrets.randbits(32)
    bot: Chooser = make_chiamata_bot(level, seed) if five else make_bot(level, seed)
    return bot


class TableBackend:
    """Base of every backend: a model, a listener and the three actions the app needs."""

    def __init__(self, model: TableModel) -> None:
        self.model = model
        self.listener: Callable[[], None] | None = None
        self._news: list[ev.Event] = []
        # My plays this client did not make itself but the table replayed to it (a hand
        # continued after a restart): (hand, the view I played from, the card), for the review.
        self._earlier_plays: list[tuple[int, SeatView, Card]] = []

    def follow(self, event: ev.Event) -> None:
        """Pass on an event of the play (a new hand, cards received or played, a trick taken)
        for the table screen to follow (``tui/follow.py``): ``take_news`` hands them over."""
        if isinstance(event, ev.HandStarted | ev.CardsReceived | ev.CardPlayed | ev.TrickTaken):
            self._news.append(event)

    def take_news(self) -> list[ev.Event]:
        """The play's events since the last call, in order."""
        news, self._news = self._news, []
        return news

    def take_earlier_plays(self) -> list[tuple[int, SeatView, Card]]:
        """My plays replayed by the table since the last call (hand, view, card), in order."""
        plays, self._earlier_plays = self._earlier_plays, []
        return plays

    @property
    def hosting(self) -> bool:
        """Whether this process hosts the table (leaving closes it for everyone)."""
        return False

    def notify(self) -> None:
        self.model.changes += 1
        if self.listener is not None:
            self.listener()

    async def start(self) -> None:
        """Begin: connect, or deal the first hand."""

    def play(self, card: Card) -> None:
        """Play one of my cards (errors go to ``model.error``)."""
        raise NotImplementedError

    def signal(self, value: SignalValue) -> None:
        """Signal ``value`` to my partner (a table that allows signals; errors go to
        ``model.error``)."""
        self.model.error = _("There are no signals at this table.")
        self.notify()

    def bid(self, bid: Bid | None) -> None:
        """Five players: make my bid in the auction (None: pass; errors go to ``model.error``)."""
        self.model.error = _("There is no auction at this table.")
        self.notify()

    def call(self, suit: Suit) -> None:
        """Five players: call the suit of the card my winning bid names (errors go to
        ``model.error``)."""
        self.model.error = _("There is no auction at this table.")
        self.notify()

    def next_hand(self) -> None:
        """Acknowledge the end of a hand and go on to the next one."""

    def fill_open_seats(self) -> None:
        """Seat AI players in the open seats of a waiting table (only where that exists)."""
        self.model.error = _("There are no open seats to fill here.")
        self.notify()

    def current_view(self) -> SeatView | None:
        """My seat's view of the hand now (what a hint or the review may look at), if any."""
        return None

    def hints_allowed(self) -> bool:
        """Whether I may ask the strong AI for hints here: always with no other person at the
        table, else only when the host allows it."""
        return True

    def record_hint(self, view: SeatView, card: Card) -> None:
        """A hint was shown for ``view``: log it (and keep it with the saved game, if any)."""
        self.model.add_log(_("you asked the strong AI for a hint (trick {n})").format(
            n=len(view.tricks) + 1))  # fmt: skip
        self.notify()

    def rematch(self) -> TableBackend | None:
        """A backend for a new match at this table, same players and AI seats (None: none)."""
        return None

    async def close(self) -> None:
        """Leave the table and release everything."""


def trick_line(name: str, mine: bool, cards: str, points: int) -> str:
    """The log's line for a trick taken: 'You took the trick (A♥ 3♥) for 21'."""
    if mine:
        return _("You took the trick ({cards}) for {n}").format(cards=cards, n=points)
    return _("{name} took the trick ({cards}) for {n}").format(name=name, cards=cards, n=points)


def removed_two_line(options: TableOptions, deck: dk.Deck, ascii_only: bool) -> str:
    """The log's announcement, at 3 players, of the 2 taken out of the deck."""
    two = dk.card_label(Card(options.removed_two, Rank.TWO), deck, ascii_only)
    return _("the {card} is out of the deck: 39 cards are dealt").format(card=two)


def shuffled_deck(options: TableOptions) -> list[Card]:
    """A uniformly shuffled pack from the OS random source (offline practice only)."""
    deck = list(deck_for(options.players, options.removed_two))
    for i in range(len(deck) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


class PracticeBackend(TableBackend):
    """Offline practice: the rules engine in this process, me at seat 0, bots in the other seats."""

    def __init__(
        self,
        options: TableOptions,
        name: str,
        bot_levels: list[str],
        *,
        delay: float = AI_PACE,
        ascii_only: bool = False,
        deck: dk.Deck = dk.Deck.FRENCH,
        title: str | None = None,
        deck_source: Callable[[TableOptions], list[Card]] = shuffled_deck,
    ) -> None:
        title = title or _("Practice vs AI")
        model = TableModel(title=title, my_seat=0, options=options, connection="local")
        super().__init__(model)
        self.options = options
        self.delay = delay
        self.ascii_only = ascii_only
        self.deck = deck
        self.deck_source = deck_source
        self.name, self.bot_levels, self.title = name, bot_levels, title
        n = options.players
        levels = [*bot_levels, *["random"] * n][: n - 1]
        five = options.chiamata
        self.bots: dict[int, Chooser] = {
            seat: make_chooser(level, five=five)
            for seat, level in zip(range(1, n), levels, strict=True)
        }
        model.seats = [SeatInfo(0, name)] + [
            SeatInfo(seat, _("Bot {n}").format(n=seat), is_ai=True, level=level)
            for seat, level in zip(range(1, n), levels, strict=True)
        ]
        # The last seat deals the first hand, so that I lead it.
        self.match = Match(options, first_dealer=n - 1)
        self.hand: Hand | None = None
        self._task: asyncio.Task[None] | None = None

    def _label(self, card: Card) -> str:
        return dk.card_label(card, self.deck, self.ascii_only)

    async def start(self) -> None:
        from briscola_lan.tui.render import rules_text

        rules = rules_text(self.options.summary(), self.deck, self.ascii_only)
        self.model.add_log(_("Practice table: {rules}").format(rules=rules))
        self._deal()

    def _deal(self) -> None:
        self.hand = self.match.new_hand(self.deck_source(self.options))
        self.model.hand_number = self.match.hand_number
        self.follow(ev.HandStarted(self.match.hand_number, self.hand.dealer, blind=False))
        number = self.match.hand_number + 1
        if self.hand.upcard is None:  # five players: an auction, no upcard
            self.model.add_log(chiamata.deal_line(self.model, number, self.hand.dealer,
                                                  self.match.next_is_tiebreak))  # fmt: skip
            self._refresh()
            self._kick()
            return
        upcard = self._label(self.hand.upcard)
        if self.hand.dealer == self.model.my_seat:
            text = _("Hand {n}: you deal; the briscola is {card}")
        else:
            text = _("Hand {n}: {name} deals; the briscola is {card}")
        if self.match.next_is_tiebreak:
            text = _("Tie-break hand {n}: {name} deals; the briscola is {card}")
        self.model.add_log(
            text.format(n=number, name=self.model.who(self.hand.dealer), card=upcard)
        )
        if self.options.players == 3:
            self.model.add_log(removed_two_line(self.options, self.deck, self.ascii_only))
        self._refresh()
        self._kick()

    def _refresh(self) -> None:
        assert self.hand is not None
        apply_seat_view(self.model, self.hand.view(self.model.my_seat), self.match)
        self.notify()

    def _kick(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        while self.hand is not None and not self.hand.is_terminal:
            seat = self.hand.current_player
            if seat is None or seat == self.model.my_seat:
                return
            if self.delay > 0:
                await asyncio.sleep(self.delay)
            if self.hand is None or self.hand.current_player != seat:
                return
            view = self.hand.view(seat)
            bot = self.bots[seat]
            if view.to_bid == seat:
                bid = await asyncio.to_thread(cast(Bidder, bot).bid, view)
                if self.hand is not None and self.hand.current_player == seat:
                    self._apply_bid(seat, bid)
                continue
            if view.to_call == seat:
                suit = await asyncio.to_thread(cast(Bidder, bot).call, view)
                if self.hand is not None and self.hand.current_player == seat:
                    self._apply_call(seat, suit)
                continue
            card = await asyncio.to_thread(bot.choose, view)
            if self.hand is None or self.hand.current_player != seat:
                return
            self._apply(seat, card)

    def _apply_bid(self, seat: int, bid: Bid | None) -> None:
        """Five players: ``seat``'s bid or pass (raises IllegalBid/NotYourTurn, changing
        nothing); everyone passing deals the hand again, by the same dealer."""
        assert self.hand is not None
        self.hand.bid(seat, bid)
        self.model.add_log(chiamata.bid_line(self.model, seat, bid, self.deck))
        if self.hand.passed_out:
            self.model.add_log(_("Everyone passed: the same dealer deals again."))
            self._deal()
            return
        winner = self.hand.public.to_call
        if winner is not None:
            auction = self.hand.public.auction
            assert auction is not None and auction.high is not None
            self.model.add_log(chiamata.won_line(self.model, winner, auction.high[1], self.deck))
        self._refresh()

    def _apply_call(self, seat: int, suit: Suit) -> None:
        """Five players: the caller names the suit (raises IllegalBid/NotYourTurn)."""
        assert self.hand is not None
        self.hand.call(seat, suit)
        contract = self.hand.contract
        assert contract is not None
        self.model.add_log(chiamata.call_line(self.model, contract, self.deck, self.ascii_only))
        self._refresh()
        mine = chiamata.my_role_line(self.model, self.deck, self.ascii_only)
        if mine:
            self.model.add_log(mine)

    def _apply(self, seat: int, card: Card) -> None:
        assert self.hand is not None
        number, me = self.match.hand_number, self.model.my_seat
        for fact in self.hand.play(seat, card):
            if isinstance(fact, CardPlayed):
                self.follow(ev.CardPlayed(number, fact.seat, fact.card, fact.seat == me))
                contract = self.hand.contract
                if contract is not None and fact.card == contract.called:
                    line = chiamata.revealed_line(self.model, contract.caller, fact.seat)
                    self.model.add_log(line)
            elif isinstance(fact, TrickTaken):
                self.follow(ev.TrickTaken(number, fact))
                cards = " ".join(self._label(c) for _seat, c in fact.plays)
                mine = fact.winner == me
                self.model.add_log(
                    trick_line(self.model.who(fact.winner), mine, cards, fact.points)
                )
            elif isinstance(fact, CardDealt) and fact.seat == me and not fact.initial:
                self.follow(ev.CardsReceived(number, (fact.card,), drawn=True))
        if self.hand.is_terminal:
            self._finish_hand()
        else:
            self._refresh()

    def _finish_hand(self) -> None:
        assert self.hand is not None
        result = self.match.record(self.hand)
        if result.call is not None:
            self.model.add_log(chiamata.result_line(self.model, result.call))
        summary = HandSummary(
            number=result.number,
            points=result.points,
            winner=result.winner,
            tiebreak=result.tiebreak,
            verification=Verification(
                ok=None,
                summary=_("not applicable (offline practice)"),
                details=[
                    _(
                        "Offline practice runs the rules engine on this machine only. Tables "
                        "hosted on the network commit to every deck position; their deals are "
                        "checked at the end of each hand."
                    ),
                ],
            ),
        )
        add_hand_cards(summary, self.hand.view(self.model.my_seat), result.call)
        self.model.hand_results.append(summary)
        self._refresh()
        if self.match.is_over:
            self.model.add_log(
                _("Match over: {name} won").format(
                    name=self.model.side_name(self.match.winner or 0)
                )
            )
        self.notify()

    def play(self, card: Card) -> None:
        self.model.error = None
        if self.hand is None or self.hand.is_terminal:
            self.model.error = _("the hand is over: press n for the next hand")
        else:
            try:
                self._apply(self.model.my_seat, card)
            except (NotYourTurn, IllegalPlay) as exc:
                self.model.error = str(exc)
            else:
                self._kick()
        self.notify()

    def bid(self, bid: Bid | None) -> None:
        self.model.error = None
        try:
            if self.hand is None or self.hand.is_terminal:
                raise IllegalBid(_("the hand is over: press n for the next hand"))
            self._apply_bid(self.model.my_seat, bid)
        except (NotYourTurn, IllegalBid) as exc:
            self.model.error = str(exc)
        else:
            self._kick()
        self.notify()

    def call(self, suit: Suit) -> None:
        self.model.error = None
        try:
            if self.hand is None or self.hand.is_terminal:
                raise IllegalBid(_("the hand is over: press n for the next hand"))
            self._apply_call(self.model.my_seat, suit)
        except (NotYourTurn, IllegalBid) as exc:
            self.model.error = str(exc)
        else:
            self._kick()
        self.notify()

    def next_hand(self) -> None:
        if self.hand is not None and self.hand.is_terminal and not self.match.is_over:
            self._deal()

    def current_view(self) -> SeatView | None:
        if self.hand is None or self.hand.is_terminal:
            return None
        return self.hand.view(self.model.my_seat)

    def rematch(self) -> TableBackend | None:
        return PracticeBackend(
            self.options, self.name, self.bot_levels, delay=self.delay,
            ascii_only=self.ascii_only, deck=self.deck, title=self.title,
            deck_source=self.deck_source,
        )  # fmt: skip

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
