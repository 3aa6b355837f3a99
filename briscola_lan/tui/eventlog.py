"""The client session's events (``table/events.py``) as the table's log shows them: one line each,
in the player's language, with names for seats and sides and the player's deck for cards.

``render`` reads an event's fields, never English text: each kind of event has one function here
(``RENDERERS``). An event of a kind this client does not know, or one whose fields cannot be
shown, gets a line that says so; nothing raises.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.table import events as ev
from briscola_lan.tui.i18n import N_, _
from briscola_lan.tui.state import level_word, player_name
from briscola_lan.tui.verdicts import fault_text, own_words, status_word, who


class Names(Protocol):
    """How the log names what an event numbers: seats, sides, a table's rules, cards."""

    def seat(self, seat: int) -> str:
        """A seat in a sentence: "Ann (seat 0)", "You"."""

    def player(self, seat: int) -> str:
        """A seat's player alone: "Ann", "You"."""

    def side(self, side: int) -> str:
        """A side: "Bea", "side A (You + Cid)"."""

    def rules(self, summary: str) -> str:
        """A table's rules label (``TableOptions.summary``) in the player's words."""

    def card(self, card: Card) -> str:
        """A card in the player's deck."""

    def bid(self, bid: Bid) -> str:
        """Five players: a bid in the player's deck ('A', 'K', '75 pts')."""

    def suit(self, suit: Suit) -> str:
        """A suit in the player's deck ('♥ hearts')."""

    def is_me(self, seat: int) -> bool:
        """Whether ``seat`` is this player's."""


class PlainNames:
    """Names with nothing known of the table: "seat 2", "side 1", the rules and cards as written."""

    def seat(self, seat: int) -> str:
        return _("seat {n}").format(n=seat)

    def player(self, seat: int) -> str:
        return self.seat(seat)

    def side(self, side: int) -> str:
        return _("side {n}").format(n=side)

    def rules(self, summary: str) -> str:
        return summary

    def card(self, card: Card) -> str:
        return str(card)

    def bid(self, bid: Bid) -> str:
        return str(bid)

    def suit(self, suit: Suit) -> str:
        return suit.name.lower()

    def is_me(self, seat: int) -> bool:
        return False


def render(event: object, names: Names | None = None) -> str | None:
    """``event``'s line in the player's language; None for what the table itself shows (a card
    played, cards received). A kind this client does not know, or fields it cannot show, get a
    line saying so."""
    names = names if names is not None else PlainNames()
    kind = type(event).__name__
    show = RENDERERS.get(type(event))
    if show is None:
        return _("(something happened that this client cannot show: {kind})").format(kind=kind)
    try:
        return show(event, names)
    except (AttributeError, KeyError, IndexError, TypeError, ValueError, OverflowError):
        return _("(something happened that this client could not read: {kind})").format(kind=kind)


# --- one function per kind -------------------------------------------------------------------

_SEAT_CHANGES = {
    ev.SeatChange.TAKEN: N_("{name} took seat {n}"),
    ev.SeatChange.MOVED: N_("{name} moved from seat {old} to seat {n}"),
    ev.SeatChange.LEFT: N_("{name} left seat {n}"),
    ev.SeatChange.FREED: N_("{name} did not come back: seat {n} is free"),
    ev.SeatChange.AWAY: N_("{name} left the table (seat {n} kept for a while)"),
    ev.SeatChange.BACK: N_("{name} is back"),
    ev.SeatChange.READY: N_("{name} is ready"),
    ev.SeatChange.NOT_READY: N_("{name} is not ready"),
    ev.SeatChange.AI_SEATED: N_("AI ({level}) sits in seat {n}"),
    ev.SeatChange.AI_REMOVED: N_("AI removed from seat {n}"),
    ev.SeatChange.RESEATED: N_("players moved to the seats the draw gave them"),
}


def _seats_changed(e: ev.SeatsChanged, names: Names) -> str:
    if not e.changes:  # nothing the seat list shows: the host's own words
        return _("host: {text}").format(text=e.said)
    lines = []
    for c in e.changes:
        template = _(_SEAT_CHANGES[c.change])
        lines.append(
            template.format(
                name=player_name(c.name, c.level, c.seat),
                n=c.seat,
                old=c.other,
                level=level_word(c.level),
            )
        )
    return "; ".join(lines)


def _draw_started(e: ev.DrawStarted, names: Names) -> str:
    if e.partners and e.dealer:
        what = _("the partners and the first dealer")
    elif e.partners:
        what = _("the partners")
    else:
        what = _("the first dealer")
    return _("drawing cards for {what}").format(what=what)


def _draw_revealed(e: ev.DrawRevealed, names: Names) -> str:
    levels = (*e.levels, *[""] * len(e.drawn))
    drawn = ", ".join(
        _("{name} drew {card}").format(name=player_name(n, levels[i], i), card=names.card(c))
        for i, (n, c) in enumerate(e.drawn)
    )
    return _("draw {status}: {drawn}").format(status=status_word(e.status), drawn=drawn)


def _match_started(e: ev.MatchStarted, names: Names) -> str:
    levels = (*e.levels, *[""] * len(e.names))
    shown = (player_name(name, levels[seat], seat) for seat, name in enumerate(e.names))
    return _("the match started: {names}").format(names=", ".join(shown))


def _hand_started(e: ev.HandStarted, names: Names) -> str:
    if e.blind:
        return _("hand {n} started (blind deal), {seat} deals").format(
            n=e.hand + 1, seat=names.seat(e.dealer)
        )
    return _("hand {n} started, {seat} deals").format(n=e.hand + 1, seat=names.seat(e.dealer))


def _left_out(e: ev.LeftOut, names: Names) -> str:
    if e.receipted:
        return _(
            "the host left you out of this hand and plays your seat, although it received your "
            "answer to its call (its receipt is in your record): the host is at fault"
        )
    return _(
        "the host plays your seat this hand: you were not at the table when it began (or your "
        "answer to its call came too late)"
    )


def _trick_taken(e: ev.TrickTaken, names: Names) -> str:
    t = e.trick
    cards = " ".join(names.card(c) for _seat, c in t.plays)
    if names.is_me(t.winner):
        return _("You took the trick ({cards}) for {n}").format(cards=cards, n=t.points)
    return _("{name} took the trick ({cards}) for {n}").format(
        name=names.player(t.winner), cards=cards, n=t.points
    )


def _complained(e: ev.Complained, names: Names) -> str:
    if e.party == HOST_PARTY:
        return _("the host says a card does not open: every party reveals its keys")
    return _("{seat} says a card does not open: every party reveals its keys").format(
        seat=names.seat(e.party)
    )


def _keys_overdue(e: ev.KeysOverdue, names: Names) -> str:
    late = ", ".join(who(f, names.seat) for f in e.withheld)
    return _(
        "key reveals did not come in time: {who}; the hand's result stands on its proved plays"
    ).format(who=late)


def _taken_over(e: ev.TakenOver, names: Names) -> str:
    if e.mine and e.ai:
        return _("an AI plays your seat until you are back")
    if e.mine:
        return _("you play your seat again")
    if e.ai:
        return _("an AI now plays for {seat}").format(seat=names.seat(e.seat))
    return _("{seat} plays again").format(seat=names.seat(e.seat))


def _match_ended(e: ev.MatchEnded, names: Names) -> str:
    if e.aborted or e.winner is None:
        return _("the match was aborted")
    return _("{winner} won the match").format(winner=names.side(e.winner))


def _bid_made(e: ev.BidMade, names: Names) -> str:
    mine = names.is_me(e.seat)
    if e.bid is None:
        return _("You pass") if mine else _("{name} passes").format(name=names.player(e.seat))
    text = _("You bid {bid}") if mine else _("{name} bids {bid}")
    return text.format(name=names.player(e.seat), bid=names.bid(e.bid))


def _card_called(e: ev.CardCalled, names: Names) -> str:
    card, suit = names.card(e.card), names.suit(e.card.suit)
    if names.is_me(e.seat):
        said = _("You call the {card}: the briscola is {suit}").format(card=card, suit=suit)
    else:
        said = _("{name} calls the {card}: the briscola is {suit}").format(
            name=names.player(e.seat), card=card, suit=suit
        )
    if e.partner and e.mine:
        said += ". " + _("You hold the {card} yourself: you play alone against four").format(
            card=card
        )
    elif e.partner:
        said += ". " + _(
            "You hold the {card}: you are {name}'s partner, a secret until you play it"
        ).format(card=card, name=names.player(e.seat))
    return said


def _hand_ended(e: ev.HandEnded, names: Names) -> str:
    if e.passed_out:
        return _("Everyone passed: the same dealer deals again.")
    return _("hand {n} ended: points [{p}]").format(
        n=e.hand + 1, p=", ".join(str(int(x)) for x in e.points)
    )


def _nothing(e: object, names: Names) -> None:
    """What the table itself shows (a card played, cards received): no line."""


RENDERERS: dict[type, Callable[[Any, Names], str | None]] = {
    ev.Joined: lambda e, n: _("joined table '{table}' ({rules})").format(
        table=e.table, rules=n.rules(e.rules)
    ),
    ev.ChallengeMalformed: lambda e, n: _("the host's challenge is malformed: {what}").format(
        what=e.reason
    ),
    ev.ConnectionLost: lambda e, n: _("connection lost"),
    ev.Ignored: lambda e, n: _("ignored unexpected {what}").format(what=e.message),
    ev.HostRefused: lambda e, n: _("error ({code}): {text}").format(code=e.code, text=e.text),
    ev.HostNotice: lambda e, n: _("host: {text}").format(text=e.text),
    ev.SeatsChanged: _seats_changed,
    ev.PlayerConnection: lambda e, n: (
        _("{seat} reconnected") if e.connected else _("{seat} lost its connection")
    ).format(seat=n.seat(e.seat)),
    ev.DrawStarted: _draw_started,
    ev.DrawRevealed: _draw_revealed,
    ev.DrawAborted: lambda e, n: _("draw aborted: {reason}").format(reason=e.reason),
    ev.MatchStarted: _match_started,
    ev.SignalsAllowed: lambda e, n: _("partners may signal to each other at this table"),
    ev.SignalMade: lambda e, n: _("{seat} signalled").format(seat=n.seat(e.seat)),
    ev.MatchEnded: _match_ended,
    ev.HandStarted: _hand_started,
    ev.LeftOut: _left_out,
    ev.SittingOut: lambda e, n: _(
        "your client found the host at fault earlier in this match and takes no part in its "
        "later hands: the host plays your seat (leave the table to stop)"
    ),
    ev.CardsReceived: _nothing,
    ev.CardPlayed: _nothing,
    ev.TrickTaken: _trick_taken,
    ev.BidMade: _bid_made,
    ev.CardCalled: _card_called,
    ev.Complained: _complained,
    ev.KeysOverdue: _keys_overdue,
    ev.HandEnded: _hand_ended,
    ev.HandAborted: lambda e, n: _("hand aborted: {reason}").format(reason=e.reason),
    ev.DealtAgain: lambda e, n: _("the hand counts for nothing: the same dealer deals again"),
    ev.Benched: lambda e, n: _(
        "two aborted hands named your seat: the host plays it to the end of the match"
    ),
    ev.TakenOver: _taken_over,
    ev.AckNotRelayed: lambda e, n: _(
        "your acknowledgement is not among the relayed ones: the host refused it or did not "
        "relay it"
    ),
    ev.FaultFound: lambda e, n: (
        _("draw verification failed: {what}") if e.draw else _("verification failed: {what}")
    ).format(what=fault_text(e.fault, n.seat)),
    ev.LiveFault: lambda e, n: _(
        "live check failed (the saved file cannot show it): {what}"
    ).format(what=fault_text(e.fault, n.seat)),
    ev.OwnRecord: lambda e, n: own_words(e),
}
