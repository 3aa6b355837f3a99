"""Pure rendering of the five-player game's panels (Briscola chiamata): the auction with
everyone's bids and my choice of a bid, the call with my choice of a suit, the contract and who
is known to be with whom, and a hand's score by the table of weights."""

from __future__ import annotations

from typing import TYPE_CHECKING

from briscola_lan.rules import Card, Suit
from briscola_lan.tui import chiamata
from briscola_lan.tui.i18n import _
from briscola_lan.tui.render import (
    SUIT_STYLE,
    Frag,
    card_frag,
    card_label,
    fit_name,
    nl,
    suit_text,
)
from briscola_lan.tui.state import TableModel, UiState

if TYPE_CHECKING:
    from briscola_lan.rules import Bid

SUITS = tuple(Suit)  # the call's choices, numbered 1-4 in this order


def chosen_bid(model: TableModel, ui: UiState) -> Bid | None:
    """The bid under the cursor among those I may make (None: I have none to make)."""
    if not model.legal_bids:
        return None
    return model.legal_bids[max(0, min(ui.bid_index, len(model.legal_bids) - 1))]


def chosen_suit(ui: UiState) -> Suit:
    """The suit under the cursor of the call."""
    return SUITS[ui.call_index % len(SUITS)]


def _bidding_order(model: TableModel) -> list[int]:
    """The seats in the order they bid: from the left of the dealer."""
    n = model.players
    return [(model.dealer + 1 + i) % n for i in range(n)]


def auction_lines(
    model: TableModel, ui: UiState, width: int | None = None, compact: bool = False
) -> Frag:
    """The auction: each seat's bids in order (a pass is final), the highest so far, and my
    choice when it is my turn; then, once won, the call (``compact``: no words to spare)."""
    out: Frag = []
    w = width or 40
    deck = ui.deck
    bids: dict[int, list[str]] = {s: [] for s in range(model.players)}
    for seat, bid in model.auction:
        bids[seat].append(chiamata.bid_text(bid, deck))
    high = next(((s, b) for s, b in reversed(model.auction) if b is not None), None)
    if model.my_call:  # (each seat's last bid stays in the Players pane)
        return call_choice(model, ui, compact)
    out.append(("class:bold", _("Auction")))
    rule = " " + _("(ace down to 2, then points; a pass is final)")
    if not compact and len(_("Auction")) + len(rule) <= w:
        out.append(("class:dim", rule))
    nl(out)
    order = _bidding_order(model)
    name_w = min(max(len(model.who(s)) for s in order), max(6, w // 3))
    for seat in order:
        turn = seat in (model.to_bid, model.to_call)
        style = "class:turn" if turn else ("class:me" if model.seated and seat == model.my_seat
                                           else "")  # fmt: skip
        name = fit_name(model.who(seat), name_w, ui.ascii_only)
        out.append((style, (">" if turn else " ") + name.ljust(name_w)))
        said = " ".join(bids[seat]) if bids[seat] else "."
        out.append(("class:dim" if not bids[seat] else "", "  " + said))
        nl(out)
    if high is not None:
        out.append(("", _("Highest bid: {bid} ({name})").format(
            bid=chiamata.bid_text(high[1], deck), name=model.who(high[0]))))  # fmt: skip
        nl(out)
    if model.my_bid:
        out.extend(_my_bid(model, ui))
    elif model.to_bid is not None:
        out.append(("", _("Waiting for {name} to bid...").format(name=model.who(model.to_bid))))
        nl(out)
    elif model.to_call is not None:
        out.append(("", _("{name} is calling a suit...").format(name=model.who(model.to_call))))
        nl(out)
    return out


def _my_bid(model: TableModel, ui: UiState) -> Frag:
    out: Frag = []
    bid = chosen_bid(model, ui)
    lt, gt = ("<", ">")
    out.append(("class:turn", _("Your bid:") + " "))
    if bid is not None:
        out.append(("class:card.selected", f"{lt} {chiamata.bid_text(bid, ui.deck)} {gt}"))
        out.append(("class:dim", "  " + _("needs {n} points").format(
            n=bid.target(model.options.points_to_win))))  # fmt: skip
    out.append(("class:dim", "  " + _("(x: pass)")))
    nl(out)
    return out


def call_choice(model: TableModel, ui: UiState, compact: bool = False) -> Frag:
    """My call: the four cards of my bid's rank, one per suit, numbered 1-4; the one I hold is
    marked (calling it, I play alone)."""
    out: Frag = []
    high = next((b for _s, b in reversed(model.auction) if b is not None), None)
    if high is None:
        return out
    out.append(("class:turn", _("You won the auction with {bid}: call a suit").format(
        bid=chiamata.bid_text(high, ui.deck))))  # fmt: skip
    nl(out)
    chosen = chosen_suit(ui)
    for i, suit in enumerate(SUITS, 1):
        card = Card(suit, high.rank)
        sel = suit is chosen
        style = "class:card.selected" if sel else ""
        out.append((style, "[" if sel else " "))
        out.append((style, f"{i} "))
        out.append(card_frag(card, ui, ("class:card.selected " if sel else "") + "class:bold"))
        if card in model.hand:
            out.append(("class:dim", " " + _("(yours: alone)")))
        out.append((style, "]" if sel else " "))
        out.append(("", " "))
    nl(out)
    if not compact:
        out.append(("class:dim", _("Whoever holds the card you call is your secret partner.")))
        nl(out)
    return out


def contract_lines(model: TableModel, ui: UiState, compact: bool = False) -> Frag:
    """Once called: the briscola, the called card and the bid, and who is known to be with
    whom (the partner known to itself from its cards, to the others when the card is played).
    ``compact`` (a short terminal): the points needed only, and no line on who is with whom,
    which the Players pane tags, so that the trick and "your turn" keep their rows."""
    out: Frag = []
    contract = model.contract
    if contract is None:
        return out
    suit = contract.trump
    out.append(("", _("Briscola:") + " "))
    out.append((SUIT_STYLE[suit], suit_text(suit, ui)))
    out.append(("", "   " + _("Called:") + " "))
    out.append(card_frag(contract.called, ui, "class:bold"))
    target = contract.target(model.options.points_to_win)
    if compact:
        out.append(("class:dim", " " + _("needs {n} points").format(n=target)))
        nl(out)
        return out
    mine = model.seated and contract.caller == model.my_seat
    said = _("(You bid {bid}, needs {n})") if mine else _("({name} bid {bid}, needs {n})")
    out.append(("class:dim", " " + said.format(
        name=model.who(contract.caller), bid=chiamata.bid_text(contract.bid, ui.deck),
        n=target)))  # fmt: skip
    nl(out)
    text = chiamata.partnership_text(model, ui.deck, ui.ascii_only)
    known = model.partner is not None
    out.append(("class:partner" if known else "class:dim", text))
    nl(out)
    return out


def result_lines(model: TableModel, ui: UiState, compact: bool = False) -> Frag:
    """A finished hand at five: the contract, the callers' points against their target, and each
    seat's card points and score by the table of weights (``compact``: the scores on a line)."""
    res = model.last_result
    out: Frag = []
    if res is None or res.call is None:
        return out
    call = res.call
    caller = model.who(call.caller)
    card = card_label(call.called, ui)
    if call.alone:
        text = _("{name} called the {card} and held it: alone against four.")
    else:
        text = _("{name} called the {card}; {partner} held it.")
    if not compact:  # (a short terminal's Players pane tags the caller and the partner)
        out.append(("", text.format(name=caller, card=card, partner=model.who(call.partner))))
        nl(out)
    out.append(chiamata.verdict_text(model, call))
    nl(out)
    if compact:  # (the Players pane names each seat's part)
        scores = " ".join(chiamata.score_text(s) for s in call.scores)
        out.append(("", _("This hand: {scores}").format(scores=scores)))
        nl(out)
        return out
    name_w = max(len(model.who(s)) for s in range(model.players))
    for seat in range(model.players):
        pts = res.points[seat] if seat < len(res.points) else 0
        role = chiamata.role_word_of(call, seat)
        score = chiamata.score_text(call.scores[seat])
        mine = model.seated and seat == model.my_seat
        out.append(("class:me" if mine else "", f"  {model.who(seat):<{name_w}} "))
        out.append(("", _("{n:>3} pts").format(n=pts) + f"  {score:>3}"))
        if role:
            out.append(("class:dim", f"  {role}"))
        nl(out)
    return out


def score_rows(model: TableModel, ui: UiState, width: int) -> Frag:
    """The Players pane at five: each seat's card points this hand and match score."""
    out: Frag = []
    n = model.players
    label_w = max(4, min(max(len(model.who(s)) for s in range(n)), width - 12))
    for seat in range(n):
        pts = model.points[seat] if seat < len(model.points) else 0
        total = model.scores[seat] if seat < len(model.scores) else 0
        figures = "" if ui.hide_points else _("{n:>3} pts").format(n=pts)
        name = fit_name(model.who(seat), label_w, ui.ascii_only)
        out.append(("", f"{name:<{label_w}} {figures} {chiamata.score_text(total):>3}"))
        nl(out)
    return out
