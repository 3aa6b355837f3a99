"""Learn mode: the whole game, page by page, every result computed by the rules engine.

The pages: the deck and its suit names (in the deck the player chose), the four example tricks
of rules text 002, drawing from the stock, the winner leading, the last draw taking the face-up
briscola, the end of a hand, then five players (``learn_five``: an auction, the call, the first
tricks, the score). The winners, points, draws and who leads come from ``rules``
(``trick_winner_index``, ``Hand``), never written down here.
"""

from __future__ import annotations

from dataclasses import dataclass

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.rules import (
    ALL_CARDS,
    Card,
    CardDealt,
    Hand,
    Rank,
    Suit,
    TableOptions,
    trick_winner_index,
)
from briscola_lan.tui import deck as dk
from briscola_lan.tui import learn_five
from briscola_lan.tui.i18n import N_, _
from briscola_lan.tui.state import UiState

LEARN_TRUMP = Suit.CLUBS
Frag = StyleAndTextTuples


@dataclass(frozen=True, slots=True)
class LearnTrick:
    """One example trick: you lead, the opponent answers, and the lesson it teaches."""

    led: Card
    answered: Card
    lesson: str  # a template: {suit} {Suit} {one} {trump} {k} {q} {j} {order}

    @property
    def cards(self) -> tuple[Card, Card]:
        return (self.led, self.answered)

    @property
    def winner_index(self) -> int:
        """0 if the card led wins, 1 if the answer wins (computed by the rules engine)."""
        return trick_winner_index(self.cards, LEARN_TRUMP)

    @property
    def winner_card(self) -> Card:
        return self.cards[self.winner_index]

    @property
    def points(self) -> int:
        return sum(c.points for c in self.cards)


LEARN_TRICKS: tuple[LearnTrick, ...] = (
    LearnTrick(
        Card.parse("Ah"),
        Card.parse("3h"),
        N_("No briscola was played, so the highest {one} wins."),
    ),
    LearnTrick(
        Card.parse("Kh"),
        Card.parse("2c"),
        N_(
            "{Trump} are the briscola: a briscola beats any card of another suit, even the "
            "lowest one."
        ),
    ),
    LearnTrick(
        Card.parse("7s"),
        Card.parse("Qd"),
        N_("Only the suit led or a briscola can win: the {q} of another suit cannot."),
    ),
    LearnTrick(
        Card.parse("Jc"),
        Card.parse("3c"),
        N_("The 3 outranks the {k}, {q} and {j}: the order is {order}."),
    ),
)

FIRST_TRICK_PAGE = 2  # page 0: the deck, page 1: the suits, then the tricks


def _demo_hand() -> Hand:
    """A fixed 2-player deal (seat 0 is you, seat 1 deals) for the pages after the tricks."""
    deck = [ALL_CARDS[(i * 7) % 40] for i in range(40)]  # 7 and 40 are coprime: a permutation
    return Hand(TableOptions.make(players=2), deck, dealer=1)


def _play_first_trick(hand: Hand) -> tuple[int, list[CardDealt]]:
    """Each seat plays its first card: (the trick's winner, the draws after it)."""
    events = []
    for _turn in range(hand.n):
        seat = hand.current_player
        assert seat is not None
        events.extend(hand.play(seat, hand.hands[seat][0]))
    winner = hand.tricks[-1].winner
    return winner, [e for e in events if isinstance(e, CardDealt)]


def last_step() -> int:
    """The number of the last page (Enter there starts a practice game)."""
    return FIRST_TRICK_PAGE + len(LEARN_TRICKS) + 4 + learn_five.PAGES


def _who(seat: int) -> str:
    return _("you") if seat == 0 else _("your opponent")


def _fill(text: str, ui: UiState, trick: LearnTrick | None = None) -> str:
    deck = ui.deck
    suit = trick.led.suit if trick is not None else LEARN_TRUMP
    return text.format(
        one=dk.suit_one(suit, deck),
        Trump=dk.suit_name(LEARN_TRUMP, deck).capitalize(),
        trump=dk.suit_name(LEARN_TRUMP, deck),
        k=dk.rank_label(Rank.KING, deck),
        q=dk.rank_name(Rank.QUEEN, deck),
        j=dk.rank_label(Rank.JACK, deck),
        order=dk.rank_order(deck),
    )


def describe(trick: LearnTrick, ui: UiState) -> str:
    """One sentence with the result, built from what the engine computed."""
    card = dk.card_label(trick.winner_card, ui.deck, ui.ascii_only)
    parts = [str(c.points) for c in trick.cards if c.points]
    pts = f"{' + '.join(parts)} = {trick.points}" if len(parts) > 1 else str(trick.points)
    if trick.winner_index == 0:
        return _("{card} wins the trick. You win {pts} points.").format(card=card, pts=pts)
    return _("{card} wins the trick. Your opponent wins {pts} points.").format(card=card, pts=pts)


def page_lines(ui: UiState) -> Frag:
    """The learn page ``ui.learn_step``."""
    step = ui.learn_step
    deck, a = ui.deck, ui.ascii_only
    out: Frag = []

    def line(text: str, style: str = "") -> None:
        out.append((style, text + "\n"))

    def card(c: Card) -> tuple[str, str]:
        return (dk.SUIT_STYLE[c.suit] + " class:bold", dk.card_label(c, deck, a))

    go_on = _("Press Right or Enter to continue.")
    if step == 0:
        line(_("Briscola is played with 40 cards, ten in each of four suits."), "class:bold")
        line(_("From high to low: {order}.").format(order=dk.rank_order(deck)))
        names = ", ".join(
            f"{dk.rank_label(r, deck)} = {dk.rank_name(r, deck)}"
            for r in (Rank.ACE, Rank.THREE, Rank.KING, Rank.QUEEN, Rank.JACK)
        )
        line(names)
        line(
            _("Points: {ace} 11, {three} 10, {king} 4, {queen} 3, {jack} 2, the rest 0 "
              "(120 in all).").format(
                ace=dk.rank_name(Rank.ACE, deck), three=dk.rank_name(Rank.THREE, deck),
                king=dk.rank_name(Rank.KING, deck), queen=dk.rank_name(Rank.QUEEN, deck),
                jack=dk.rank_name(Rank.JACK, deck),
            )
        )  # fmt: skip
        line(_("Each player gets three cards. The next card is turned face up: its suit is the "
               "briscola (trump) for the whole hand."))  # fmt: skip
        line(_("You need not follow suit: any card may be played at any time."))
        line(_("61 or more of the 120 points wins a hand; 60-60 is nobody's."))
        line("")
        line(_("Press Right or Enter to see the suits."), "class:turn")
        return out
    if step == 1:
        line(_("The four suits"), "class:bold")
        for suit in (Suit.COINS, Suit.CUPS, Suit.SWORDS, Suit.CLUBS):
            out.append(
                (dk.SUIT_STYLE[suit] + " class:bold", f"  {dk.suit_symbol(suit, deck, a)}  ")
            )
            out.append(("", dk.suit_name(suit, deck) + "\n"))
        line("")
        line(_("In the example tricks that follow, {trump} are the briscola.").format(
            trump=dk.suit_name(LEARN_TRUMP, deck)))  # fmt: skip
        line(_("(The client shows the French deck or the Italian one: --deck french|italian.)"),
             "class:dim")  # fmt: skip
        line("")
        line(_("Press Right or Enter to see the first trick."), "class:turn")
        return out
    k = step - FIRST_TRICK_PAGE
    if k < len(LEARN_TRICKS):
        trick = LEARN_TRICKS[k]
        of = _("Trick {n} of {total}").format(n=k + 1, total=len(LEARN_TRICKS))
        out.append(("class:bold", of))
        out.append(("", "   " + _("Briscola:") + " "))
        out.append((dk.SUIT_STYLE[LEARN_TRUMP], dk.suit_text(LEARN_TRUMP, deck, a) + "\n\n"))
        lead, answer = _("You lead"), _("Opponent answers")
        width = max(len(lead), len(answer)) + 2  # the cards in one column, after a space
        out.append(("", f"{lead:<{width}}"))
        out.append(card(trick.led))
        out.append(("", f"\n{answer:<{width}}"))
        out.append(card(trick.answered))
        out.append(("", "\n\n"))
        line(describe(trick, ui), "class:good")
        line(_fill(_(trick.lesson), ui, trick))
        line("")
        line(go_on, "class:turn")
        return out
    k -= len(LEARN_TRICKS)
    hand = _demo_hand()
    if k == 0:
        winner, draws = _play_first_trick(hand)
        line(_("Drawing from the stock"), "class:bold")
        t = hand.tricks[-1]
        out.append(("", _("The first trick:") + " "))
        for seat, c in t.plays:
            out.append(card(c))
            out.append(("", f" ({_who(seat)})  "))
        out.append(("", "\n"))
        if winner == 0:
            line(_("You took it, so you draw first: the top card of the stock; then the others, "
                   "in turn."))  # fmt: skip
        else:
            line(_("Your opponent took it, so your opponent draws first: the top card of the "
                   "stock; then the others, in turn."))  # fmt: skip
        mine = [d for d in draws if d.seat == 0]
        if mine:
            out.append(("", _("You drew") + " "))
            out.append(card(mine[0].card))
            out.append(("", "; " + _("your opponent drew a card you do not see.") + "\n"))
        line(_("Stock left: {n} cards.").format(n=hand.stock_left))
        line("")
        line(go_on, "class:turn")
        return out
    if k == 1:
        _play_first_trick(hand)
        line(_("The winner leads"), "class:bold")
        leader = hand.current_player
        assert leader is not None
        if leader == 0:
            line(_("Whoever takes a trick leads the next one: you took the first trick, so you "
                   "lead now."))  # fmt: skip
        else:
            line(_("Whoever takes a trick leads the next one: your opponent took the first "
                   "trick, so your opponent leads now."))  # fmt: skip
        line(_("So a trick won also decides who plays first, and who answers last (the easier "
               "seat: the last player sees every card of the trick)."))  # fmt: skip
        line("")
        line(go_on, "class:turn")
        return out
    if k == 2:
        tricks = 0
        while hand.stock_left > 0:
            _play_first_trick(hand)
            tricks += 1
        taker = hand.upcard_taken_by
        assert taker is not None
        line(_("The last draw"), "class:bold")
        out.append(("", _("The face-up card") + " "))
        assert hand.upcard is not None  # this walkthrough is of a 2-player hand
        out.append(card(hand.upcard))
        out.append(("", " " + _("stays under the stock until the very end.") + "\n"))
        if taker == 0:
            line(_("In this deal the stock ran out after trick {n}: the last card drawn was "
                   "that briscola, and you took it.").format(n=tricks))  # fmt: skip
        else:
            line(_("In this deal the stock ran out after trick {n}: the last card drawn was "
                   "that briscola, and your opponent took it.").format(n=tricks))  # fmt: skip
        line(_("Then the last three tricks are played with the cards in hand, without drawing."))
        line(_("At four players, partners now show each other their cards (an option)."))
        line("")
        line(go_on, "class:turn")
        return out
    if k == 3:
        line(_("The end of a hand"), "class:bold")
        line(_("Count the points in the tricks you took: 61 or more of the 120 wins the hand."))
        line(_("At four players, partners count their tricks together."))
        line(_("The first side to win the hands the table asks for (2 by default) takes the "
               "match; in the 'points' format the most points over the hands wins."))  # fmt: skip
        line("")
        line(go_on, "class:turn")
        return out
    if k - 4 < learn_five.PAGES:
        return learn_five.page_lines(ui, k - 4)
    line(_("That is all you need. Now play a practice game against an AI."))
    line(_("At your turn, h asks the strong AI for a hint; after a hand, w reviews your plays."))
    line("")
    line(_("Press Enter to start the practice game, Esc for the lobby."), "class:turn")
    line(_("Or press 5 for a practice game at five players (Briscola chiamata)."), "class:turn")
    return out
