"""The five-player game (Briscola chiamata) in the client's words: the bids, the call, who is
known to be with whom, a hand's score; the log's lines and the phrases the table's panels use
(``render_chiamata``). Only what the seat may know: the partner as ``TableModel.partner`` has it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from briscola_lan.tui import deck as dk
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import TableModel

if TYPE_CHECKING:
    from briscola_lan.rules import Bid, CallResult, Contract


def bid_text(bid: Bid | None, deck: dk.Deck) -> str:
    """A bid as the table says it: a rank ('A', '3', 'K'...), points past the 2 ('75 pts'), or
    'pass'."""
    if bid is None:
        return _("pass")
    if bid.is_points:
        return _("{n} pts").format(n=bid.code)
    return dk.rank_label(bid.rank, deck)


def deal_line(model: TableModel, number: int, dealer: int, extra: bool) -> str:
    """The log's line for a new hand at five: who deals; the auction comes next."""
    if extra:
        return _("Extra hand {n} (the top score is shared): {name} deals").format(
            n=number, name=model.who(dealer)
        )
    if model.seated and dealer == model.my_seat:
        return _("Hand {n}: you deal; the auction opens on your left").format(n=number)
    return _("Hand {n}: {name} deals; the auction opens on their left").format(
        n=number, name=model.who(dealer)
    )


def bid_line(model: TableModel, seat: int, bid: Bid | None, deck: dk.Deck) -> str:
    """The log's line for a bid or a pass."""
    mine = model.seated and seat == model.my_seat
    if bid is None:
        return _("You pass") if mine else _("{name} passes").format(name=model.who(seat))
    text = _("You bid {bid}") if mine else _("{name} bids {bid}")
    return text.format(name=model.who(seat), bid=bid_text(bid, deck))


def won_line(model: TableModel, seat: int, bid: Bid, deck: dk.Deck) -> str:
    """The log's line for the end of the auction."""
    if model.seated and seat == model.my_seat:
        return _("You win the auction with {bid}: call a suit").format(bid=bid_text(bid, deck))
    return _("{name} wins the auction with {bid}").format(
        name=model.who(seat), bid=bid_text(bid, deck)
    )


def call_line(model: TableModel, contract: Contract, deck: dk.Deck, ascii_only: bool) -> str:
    """The log's line for the call: the called card, and its suit the briscola."""
    card = dk.card_label(contract.called, deck, ascii_only)
    suit = dk.suit_text(contract.trump, deck, ascii_only)
    if model.seated and contract.caller == model.my_seat:
        return _("You call the {card}: the briscola is {suit}").format(card=card, suit=suit)
    return _("{name} calls the {card}: the briscola is {suit}").format(
        name=model.who(contract.caller), card=card, suit=suit
    )


def my_role_line(model: TableModel, deck: dk.Deck, ascii_only: bool) -> str:
    """What my own cards tell me once the card is called: that I am the secret partner, or
    that I called a card I hold myself ("" when I do not hold it)."""
    contract = model.contract
    if contract is None or not model.seated or contract.called not in model.hand:
        return ""
    card = dk.card_label(contract.called, deck, ascii_only)
    if contract.caller == model.my_seat:
        return _("You hold the {card} yourself: you play alone against four").format(card=card)
    return _("You hold the {card}: you are {name}'s partner, a secret until you play it").format(
        card=card, name=model.name_of(contract.caller)
    )


def revealed_line(model: TableModel, caller: int, seat: int) -> str:
    """The log's line when ``seat`` plays the card ``caller`` called: now everyone knows the
    partnership."""
    me = model.my_seat if model.seated else -1
    if seat == caller:
        if seat == me:
            return _("You played the called card: you play alone against four")
        return _("{name} played the called card: alone against four").format(
            name=model.name_of(seat)
        )
    if seat == me:
        return _("You played the called card: everyone knows you are {name}'s partner").format(
            name=model.name_of(caller)
        )
    if caller == me:
        return _("{name} played the called card: {name} is your partner").format(
            name=model.name_of(seat)
        )
    return _("{name} played the called card: {name} is {caller}'s partner").format(
        name=model.name_of(seat), caller=model.name_of(caller)
    )


def callers_text(model: TableModel, seats: tuple[int, ...]) -> str:
    """The callers by name: 'Bea + Cid', 'You + Bea', or 'Bea' alone."""
    return " + ".join(model.who(s) for s in seats)


def verdict_text(model: TableModel, call: CallResult) -> tuple[str, str]:
    """(style, text) for a finished hand's call: the callers' points against their target, and
    whether I am on the side that won."""
    names = callers_text(model, call.callers)
    if call.won:
        text = _("{names} took {points} points, needing {target}: the callers win.")
    else:
        text = _("{names} took {points} points, needing {target}: the callers lose.")
    text = text.format(names=names, points=call.points, target=call.target)
    if call.all_points and model.options.double_all:
        text += " " + _("All 120 points to one side: double score.")
    if not model.seated:
        return "class:bold", text
    mine = model.my_seat in call.callers
    return ("class:good" if mine == call.won else "class:bad"), text


def result_line(model: TableModel, call: CallResult) -> str:
    """The log's line for a finished hand at five."""
    return verdict_text(model, call)[1]


def role_word(model: TableModel, seat: int) -> str:
    """A seat's part in the hand as far as I know it: 'caller', 'partner', or ''."""
    contract = model.contract
    if contract is None:
        return ""
    if seat == contract.caller:
        return _("alone") if model.partner == seat else _("caller")
    if seat == model.partner:
        return _("partner")
    return ""


def role_word_of(call: CallResult, seat: int) -> str:
    """A seat's part in a finished hand: 'caller', 'alone', 'partner', or ''."""
    if seat == call.caller:
        return _("alone") if call.alone else _("caller")
    return _("partner") if seat == call.partner else ""


def partnership_text(model: TableModel, deck: dk.Deck, ascii_only: bool) -> str:
    """Who is known to be with whom, as this seat knows it now."""
    contract = model.contract
    if contract is None:
        return ""
    me = model.my_seat if model.seated else -1
    caller, partner = contract.caller, model.partner
    card = dk.card_label(contract.called, deck, ascii_only)
    if partner is None:
        if caller == me:
            return _("Your partner holds the {card}: unknown until it is played").format(card=card)
        return _("{name}'s partner holds the {card}: unknown until it is played").format(
            name=model.name_of(caller), card=card
        )
    if partner == caller:
        if caller == me:
            return _("You play alone against four (you hold the {card})").format(card=card)
        return _("{name} plays alone against four").format(name=model.name_of(caller))
    if partner == me and contract.called in model.hand:
        return _("You are {name}'s partner: only you know it until you play the {card}").format(
            name=model.name_of(caller), card=card
        )
    return _("{names} against the other three").format(names=callers_text(model, (caller, partner)))


def score_text(score: int) -> str:
    """A hand's or a match's score with its sign: '+2', '-1', '0'."""
    return f"{score:+d}" if score else "0"
