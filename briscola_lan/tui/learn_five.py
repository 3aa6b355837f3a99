"""Learn mode's pages on five players (Briscola chiamata): an auction, the call and its secret
partner, the first tricks of a hand, and the table of weights; every bid is checked, every
winner, point and partner computed by the rules engine (``Hand``, ``rules.chiamata``).

The walkthrough's deal is fixed: seat 4 deals, so you (seat 0) bid first; player 1 wins the
auction and calls a card you hold, so you are its secret partner until you play it.
"""

from __future__ import annotations

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.rules import Bid, Card, Hand, Rank, Suit, TableOptions, deck_for
from briscola_lan.rules.chiamata import weights
from briscola_lan.tui import chiamata
from briscola_lan.tui import deck as dk
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import UiState

Frag = StyleAndTextTuples

PAGES = 4  # the auction, the call, the first tricks, the score
OPTIONS = TableOptions.make(players=5, match_format="total")
DEALER = 4
CALLER = 1
# Each seat's first cards in the order they are dealt (the rest of the pack follows in order).
FIRST: dict[int, tuple[str, ...]] = {
    0: ("As", "7h", "Kd", "4c"),  # you: the 7 of hearts, which player 1 will call
    1: ("Ah", "3h", "Kh", "Qh"),  # player 1: strong hearts
    2: ("2s", "Js"),
    3: ("3s", "5s"),
    4: ("Qs", "6s"),
}
# The auction, seat by seat from your turn (None: a pass); the rules engine checks each bid.
BIDS: tuple[Bid | None, ...] = (
    Bid.of_rank(Rank.ACE),  # you
    Bid.of_rank(Rank.KING),  # player 1
    None,  # player 2
    Bid.of_rank(Rank.JACK),  # player 3
    None,  # player 4
    None,  # you
    Bid.of_rank(Rank.SEVEN),  # player 1
    None,  # player 3
)
CALL = Suit.CUPS  # player 1 calls the 7 of hearts (cups)
TRICKS = 2  # the first tricks shown


def demo_deck() -> list[Card]:
    """The walkthrough's deck: each seat's first cards, then the rest of the pack in order."""
    hands: dict[int, list[Card]] = {s: [Card.parse(x) for x in FIRST[s]] for s in range(5)}
    dealt = {c for cards in hands.values() for c in cards}
    rest = [c for c in deck_for(5, Suit.COINS) if c not in dealt]
    for seat in range(5):
        while len(hands[seat]) < OPTIONS.hand_size:
            hands[seat].append(rest.pop(0))
    deck: list[Card] = []
    for rnd in range(OPTIONS.hand_size):  # seat (dealer + 1 + i) gets position rnd * 5 + i
        deck.extend(hands[(DEALER + 1 + i) % 5][rnd] for i in range(5))
    return deck


def demo_hand(tricks: int = 0) -> Hand:
    """The walkthrough's hand after the auction and the call, with ``tricks`` tricks played
    (each seat plays the first card it was dealt that it still holds)."""
    hand = Hand(OPTIONS, demo_deck(), DEALER)
    for bid in BIDS:
        seat = hand.current_player
        assert seat is not None
        hand.bid(seat, bid)
    hand.call(CALLER, CALL)
    for _n in range(tricks * 5):
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, hand.hands[seat][0])
    return hand


def _who(seat: int) -> str:
    return _("you") if seat == 0 else _("player {n}").format(n=seat)


def page_lines(ui: UiState, k: int) -> Frag:
    """Page ``k`` (0 to ``PAGES - 1``) of the five-player walkthrough."""
    deck, a = ui.deck, ui.ascii_only
    out: Frag = []

    def line(text: str, style: str = "") -> None:
        out.append((style, text + "\n"))

    def card(c: Card) -> tuple[str, str]:
        return (dk.SUIT_STYLE[c.suit] + " class:bold", dk.card_label(c, deck, a))

    def cards(cs: list[Card] | tuple[Card, ...]) -> None:
        for c in cs:
            out.append(card(c))
            out.append(("", " "))
        out.append(("", "\n"))

    go_on = _("Press Right or Enter to continue.")
    hand = demo_hand()
    contract = hand.contract
    assert contract is not None
    called = dk.card_label(contract.called, deck, a)
    if k == 0:
        line(_("Five players: Briscola chiamata"), "class:bold")
        line(_("Eight cards each, no stock and no face-up card. Before the play, an auction: "
               "from the dealer's left each player names a rank, each bid lower in the order "
               "{order}; past the 2, points from 61 to 120. A player who passes is out."
               ).format(order=dk.rank_order(deck)))  # fmt: skip
        out.append(("", _("Your cards:") + " "))
        cards(Hand(OPTIONS, demo_deck(), DEALER).hands[0])
        line(_("The auction of this deal:"))
        for seat, bid in hand.view(0).auction:
            line(f"  {_who(seat):<12} {chiamata.bid_text(bid, deck)}")
        line(_("{name} wins with the {bid}: the lowest rank named, the highest bid.").format(
            name=_who(contract.caller).capitalize(),
            bid=chiamata.bid_text(contract.bid, deck)))  # fmt: skip
        line("")
        line(go_on, "class:turn")
        return out
    if k == 1:
        line(_("The call"), "class:bold")
        line(_("{Name} calls the {card}: its suit, {suit}, is the briscola. Whoever holds the "
               "{card} is {name}'s partner.").format(
                   Name=_who(contract.caller).capitalize(), name=_who(contract.caller),
                   card=called, suit=dk.suit_name(contract.trump, deck)))  # fmt: skip
        holder = hand.called_holder
        if holder == 0:
            line(_("You hold the {card}: you are the partner, and only you know it. Not even "
                   "{name} knows until you play it.").format(
                       card=called, name=_who(contract.caller)))  # fmt: skip
        line(_("Had the caller held the card itself, it would play alone against four."))
        line(_("The callers need 61 points (a points bid names its own target)."))
        line("")
        line(go_on, "class:turn")
        return out
    if k == 2:
        played = demo_hand(TRICKS)
        line(_("The first tricks"), "class:bold")
        line(_("Play as in Briscola: the highest briscola, or else the highest card of the suit "
               "led, takes the trick; its taker leads the next."))  # fmt: skip
        for n, t in enumerate(played.tricks, 1):
            out.append(("", _("Trick {n}:").format(n=n) + " "))
            for i, (seat, c) in enumerate(t.plays):
                out.append(("", "  " if i else ""))
                out.append(card(c))
                out.append(("", f" ({_who(seat)})"))
            out.append(("", "\n"))
            line("  " + _("{name} takes it: {n} points.").format(
                name=_who(t.winner).capitalize(), n=t.points), "class:good")  # fmt: skip
            shown = next((s for s, c in t.plays if c == contract.called), None)
            if shown == 0:
                text = _("The {card} is on the table: now everyone knows you are {caller}'s "
                         "partner.")  # fmt: skip
            else:
                text = _("The {card} is on the table: now everyone knows {name} is {caller}'s "
                         "partner.")  # fmt: skip
            if shown is not None:
                line("  " + text.format(card=called, name=_who(shown),
                                        caller=_who(contract.caller)), "class:partner")  # fmt: skip
        line("")
        line(go_on, "class:turn")
        return out
    line(_("The score of a hand"), "class:bold")
    line(_("The callers win with at least their target. Each player's score (the table of "
           "weights):"))  # fmt: skip
    won = weights(5, CALLER, 0, True, False)
    alone = weights(5, CALLER, CALLER, True, False)
    line("  " + _("caller {c}, partner {p}, each other player {o}").format(
        c=chiamata.score_text(won[CALLER]), p=chiamata.score_text(won[0]),
        o=chiamata.score_text(won[2])))  # fmt: skip
    line("  " + _("alone: caller {c}, each other player {o}").format(
        c=chiamata.score_text(alone[CALLER]), o=chiamata.score_text(alone[2])))  # fmt: skip
    line(_("When the callers lose, every score is turned round; taking all 120 points doubles "
           "it. The scores add up over the match's hands: the highest total wins."))  # fmt: skip
    line("")
    line(go_on, "class:turn")
    return out
