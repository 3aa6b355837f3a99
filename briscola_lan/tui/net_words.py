"""A network table in the player's words: the session's seats, sides and rules as the log names
them, the dealing and closing lines, and why a signal was refused."""

from __future__ import annotations

from briscola_lan.net.client import HostGone
from briscola_lan.rules import Bid, Card, Suit
from briscola_lan.table.client import ClientState, NoSignal
from briscola_lan.tui import chiamata, render
from briscola_lan.tui import deck as dk
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import TableModel, player_name
from briscola_lan.tui.verdicts import own_words, status_word, who


def plain(text: str, ascii_only: bool) -> str:
    """Messages from the network layer in ASCII mode: no ellipsis or other Unicode."""
    if not ascii_only:
        return text
    text = text.replace("\u2026", "...")
    return text.encode("ascii", "replace").decode("ascii")


class SessionNames:
    """The log's names, from the session's seats (the model's are refreshed once per batch of
    messages: after a drawn reseat they would still be the seats before the draw)."""

    def __init__(self, st: ClientState, model: TableModel, deck: dk.Deck, ascii_only: bool) -> None:
        self._st, self._model, self._deck, self._ascii = st, model, deck, ascii_only

    def seat(self, seat: int) -> str:
        """'Ann (seat 0)' for the log."""
        names = {
            i.seat: player_name(i.name, i.ai or "", i.seat) for i in self._st.seats if i.occupied
        }
        if seat in names:
            return _("{name} (seat {n})").format(name=names[seat], n=seat)
        return _("seat {n}").format(n=seat)

    def player(self, seat: int) -> str:
        """'You' or the seat's name (the model may not be filled in yet)."""
        if self._st.seat == seat:
            return _("You")
        for info in self._st.seats:
            if info.seat == seat and info.occupied:
                return player_name(info.name, info.ai or "", info.seat)
        return self._model.who(seat)

    def side(self, side: int) -> str:
        """A side that won, as a person reads it: 'Bea', or 'side A (You + Cid)'."""
        opts = self._model.options
        if side >= opts.sides:
            return _("side {n}").format(n=side)
        names = self._model.side_name(side)
        if opts.players == 4:
            return _("side {ab} ({names})").format(ab="AB"[side], names=names)
        return names

    def rules(self, summary: str) -> str:
        """A table's rules label in the player's language and deck."""
        return render.rules_text(summary, self._deck, self._ascii)

    def card(self, card: Card) -> str:
        return dk.card_label(card, self._deck, self._ascii)

    def bid(self, bid: Bid) -> str:
        return chiamata.bid_text(bid, self._deck)

    def suit(self, suit: Suit) -> str:
        return dk.suit_text(suit, self._deck, self._ascii)

    def is_me(self, seat: int) -> bool:
        return self._st.seat == seat


def dealing_text(st: ClientState) -> str:
    """What the table shows while a hand is being dealt (or the partners and dealer drawn)."""
    d = st.draw
    if d is None or st.hand_number >= 0:
        if st.deal == "blind":
            return _("Dealing (blind deal): the players shuffle and lock the deck in turn...")
        return _("Dealing: the players commit and reveal their seeds...")
    if d.own_verdict is not None:
        return _("Draw {status}: {verdict}").format(
            status=status_word(d.status).upper(), verdict=own_words(d.own_verdict)
        )
    if d.fault is not None:
        return _("Draw {status}: {reason} (at fault: {who})").format(
            status=status_word(d.status).upper(), reason=d.fault.reason, who=who(d.fault)
        )
    if d.draw_partners and d.draw_dealer:
        return _("Drawing cards for the partners and the first dealer...")
    if d.draw_partners:
        return _("Drawing cards for the partners...")
    return _("Drawing cards for the first dealer...")


def closed_why(error: object) -> str | None:
    """Why the table is closed for good, in the player's words (None: closed by the player)."""
    if isinstance(error, HostGone):
        return _(
            "The host closed the table: this game stops here, unfinished, and is not "
            "followed to the host's next table. Your saved game is kept as it was "
            "(incomplete). Esc: lobby"
        )
    if error is not None:
        return _("Disconnected: {why}. Your saved game is kept as it was. Esc: lobby").format(
            why=error
        )
    return None


def signal_refusal(exc: ValueError) -> str:
    """Why the session would not make a signal, in the player's words."""
    if isinstance(exc, NoSignal) and exc.already:
        return _("You already signalled in this trick.")
    return _("No signal now: signals are made while the cards are played.")
