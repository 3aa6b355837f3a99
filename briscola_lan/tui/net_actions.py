"""What a network table's player sends (``NetBackend``'s actions): a card, a signal to the
partner, at five players a bid or the call, and AI players for the open seats of a waiting
table; each signed by the client session and refused there, or by the host, when not legal.
"""

from __future__ import annotations

from collections.abc import Callable

from briscola_lan.net.client import TableClient
from briscola_lan.rules import Bid, Card, Suit
from briscola_lan.rules.signals import SignalValue
from briscola_lan.table.client import ClientSession
from briscola_lan.tui.backend import TableBackend
from briscola_lan.tui.i18n import _
from briscola_lan.tui.net_words import signal_refusal
from briscola_lan.wire.messages import Message


class NetActions(TableBackend):
    """The actions of a network table, over its session and connection."""

    client: TableClient | None
    session: ClientSession | None
    ai_level: str
    # what was sent and not yet seen back: a card (hand, cards played), a bid or call (hand,
    # bids made, called); cleared when the connection changes or the host refuses something
    _pending_play: tuple[int, int] | None
    _pending_act: tuple[int, int, bool] | None

    def play(self, card: Card) -> None:
        self.model.error = None
        if self.client is None or self.session is None:
            self.model.error = _("not connected yet")
        elif not self.model.my_turn:
            self.model.error = _("Not your turn yet.")
        elif self._pending_play == self._plays_seen():
            self.model.error = _("Your card is on its way to the host.")
        else:
            try:
                sent = self.client.send(*self.session.play(card))
            except ValueError as exc:
                self.model.error = str(exc)
            else:
                if sent:
                    self._pending_play = self._plays_seen()
                else:
                    self.model.error = _("Not connected: the card was not sent, try again shortly.")
        self.notify()

    def bid(self, bid: Bid | None) -> None:
        self._act(
            lambda session: session.bid(bid), _("Not connected: the bid was not sent, try again.")
        )

    def call(self, suit: Suit) -> None:
        self._act(
            lambda session: session.call(suit),
            _("Not connected: the call was not sent, try again."),
        )

    def _act(self, make: Callable[[ClientSession], list[Message]], unsent: str) -> None:
        """Five players: send my bid or call (the host refuses one that is not legal now)."""
        self.model.error = None
        if self.client is None or self.session is None:
            self.model.error = _("not connected yet")
        elif self.session.state.taken_over:
            self.model.error = _("The host plays your seat until you are back.")
        elif not (self.model.my_bid or self.model.my_call):
            self.model.error = _("Not your turn yet.")
        elif self._pending_act == self._acts_seen():
            self.model.error = _("Your bid is on its way to the host.")
        else:
            try:
                msgs = make(self.session)
            except ValueError as exc:
                self.model.error = str(exc)
            else:
                if self.client.send(*msgs):
                    self._pending_act = self._acts_seen()
                else:
                    self.model.error = unsent
        self.notify()

    def _acts_seen(self) -> tuple[int, int, bool]:
        """(hand, bids so far, called): a bid or call is in flight until this moves on."""
        view = self.session.state.view if self.session is not None else None
        if view is None or self.session is None:
            return (-1, -1, False)
        return (self.session.state.hand_number, len(view.auction), view.contract is not None)

    def signal(self, value: SignalValue) -> None:
        self.model.error = None
        if self.client is None or self.session is None:
            self.model.error = _("not connected yet")
        elif self.session.state.taken_over:
            self.model.error = _("The host plays your seat: it makes no signal.")
        else:
            try:
                msgs = self.session.signal(value)
            except ValueError as exc:
                self.model.error = signal_refusal(exc)
            else:
                if not self.client.send(*msgs):
                    self.model.error = _("Not connected: the signal was not sent, try again.")
        self.notify()

    def fill_open_seats(self) -> None:
        """Ask the host to seat an AI player (``ai_level``) in every open seat; the table
        starts once every seat is taken. Only the player in seat 0 manages a table."""
        self.model.error = None
        st = self.session.state if self.session is not None else None
        if self.client is None or st is None or st.seat is None:
            self.model.error = _("Take a seat first.")
        elif st.phase != "lobby":
            self.model.error = _("The match has started: every seat is taken.")
        elif st.seat != 0:
            self.model.error = _("Only the player in seat 0 can seat AI players.")
        else:
            open_seats = [i.seat for i in st.seats if not i.occupied]
            if not open_seats:
                self.model.error = _("There are no open seats to fill.")
            else:
                session = self.session
                assert session is not None
                msgs = [msg for s in open_seats for msg in session.set_ai_seat(s, self.ai_level)]
                if not self.client.send(*msgs):
                    self.model.error = _("Not connected: try again shortly.")
        self.notify()

    def _plays_seen(self) -> tuple[int, int]:
        """(hand, cards played so far): a play is in flight until this moves on."""
        st = self.session.state if self.session is not None else None
        view = st.view if st is not None else None
        if st is None or view is None:
            return (-1, -1)
        return (st.hand_number, len(view.played_cards))
