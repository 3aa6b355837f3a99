"""Five players (Briscola chiamata) in the terminal client: the form, the auction and the call
by keys, who is known to be with whom as the play reveals it, a hand's score, the match; the
hint and review say they do not coach it; the panels fit their width."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable

import pytest

from briscola_lan.rules import Bid, Card, MatchFormat, Rank, SeatView, Suit, TableOptions, deck_for
from briscola_lan.tui import chiamata, render_chiamata, render_menus, render_table, seating
from briscola_lan.tui.backend import PracticeBackend
from briscola_lan.tui.keys import change_form
from briscola_lan.tui.state import HostForm, Screen, SeatInfo, UiState

from .helpers import DOWN, ENTER, LEFT, RIGHT, running, wait_for

FIVE = TableOptions.make(players=5, match_format="total", match_hands=1)


def _text(frags: object) -> str:
    return "".join(f[1] for f in frags)  # type: ignore[attr-defined]


class Stub:
    """A seat that bids what it is given (then passes), calls ``suit``, plays its lowest card."""

    level = "stub"

    def __init__(self, bids: tuple[Bid | None, ...] = (), suit: Suit = Suit.CUPS) -> None:
        self.bids = list(bids)
        self.suit = suit

    def bid(self, view: SeatView) -> Bid | None:
        return self.bids.pop(0) if self.bids else None

    def call(self, view: SeatView) -> Suit:
        return self.suit

    def choose(self, view: SeatView) -> Card:
        return min(view.hand, key=lambda c: c.code)


def _deck_with(mine: list[Card]) -> Callable[[TableOptions], list[Card]]:
    """A deck that deals ``mine`` to seat 0 (seat 4 deals: seat 0 gets positions 0, 5, 10...)."""
    rest = [c for c in deck_for(5, Suit.COINS) if c not in mine]
    deck: list[Card] = []
    for pos in range(40):
        deck.append(mine[pos // 5] if pos % 5 == 0 else rest.pop(0))
    return lambda options: list(deck)


MY_CARDS = [Card(Suit.COINS, r) for r in (Rank.ACE, Rank.THREE, Rank.KING)] + [
    Card(Suit.SWORDS, r) for r in (Rank.ACE, Rank.SEVEN, Rank.SIX, Rank.FIVE, Rank.FOUR)
]


async def _settle(backend: PracticeBackend, cond: Callable[[], bool]) -> None:
    await wait_for(cond, 10, "the bots to move")


async def test_i_call_and_the_partner_is_known_when_the_called_card_is_played() -> None:
    b = PracticeBackend(FIVE, "Tess", ["rules"] * 4, delay=0, deck_source=_deck_with(MY_CARDS))
    b.bots = {seat: Stub() for seat in range(1, 5)}  # they pass and play their lowest card
    await b.start()
    m = b.model
    assert m.my_bid and m.in_auction and m.trump is None and m.upcard is None
    assert m.legal_bids[0] == Bid.of_rank(Rank.ACE)
    b.bid(Bid.of_rank(Rank.ACE))
    await _settle(b, lambda: m.my_call)
    assert [x for _s, x in m.auction] == [Bid(0), None, None, None, None]
    ui = UiState()
    choice = _text(render_chiamata.auction_lines(m, ui, 60))
    assert "You won the auction with A: call a suit" in choice
    assert choice.count("(yours: alone)") == 2  # the aces of coins and swords are mine
    b.call(Suit.CUPS)  # the ace of cups: someone else's
    called = Card(Suit.CUPS, Rank.ACE)
    assert m.contract is not None and m.contract.called == called and m.trump is Suit.CUPS
    assert m.partner is None and m.callers == (0,)
    assert "Your partner holds the A♥: unknown until it is played" in _text(
        render_chiamata.contract_lines(m, ui)
    )
    holder = next(s for s in range(1, 5) if called in b.hand.hands[s])  # type: ignore[union-attr]
    while m.partner is None:  # I play my lowest card each turn until the ace of cups shows
        if m.my_turn:
            b.play(min(m.hand, key=lambda c: c.code))
        await asyncio.sleep(0.005)
        if m.hand_over:
            break
    assert m.partner == holder and m.callers == (0, holder)
    assert any("played the called card" in line and "is your partner" in line for line in m.log)
    table = _text(render_chiamata.contract_lines(m, ui))
    assert f"You + Bot {holder} against the other three" in table
    assert "partner" in _text(render_table.seat_lines(m, ui, 40))


async def test_the_secret_partner_knows_it_from_its_cards_and_a_match_is_scored() -> None:
    b = PracticeBackend(FIVE, "Tess", ["rules"] * 4, delay=0, deck_source=_deck_with(MY_CARDS))
    b.bots = {1: Stub((Bid.of_rank(Rank.THREE),), Suit.COINS), 2: Stub(), 3: Stub(), 4: Stub()}
    await b.start()
    m = b.model
    b.bid(None)  # I pass; Bot 1 bids the three, the others pass; it calls the 3 of coins: mine
    await _settle(b, lambda: m.contract is not None and not m.in_auction)
    assert m.contract is not None and m.contract.caller == 1
    assert m.partner == 0 and m.callers == (1, 0)
    ui = UiState()
    assert "You are Bot 1's partner: only you know it until you play the 3♦" in _text(
        render_chiamata.contract_lines(m, ui)
    )
    assert any("you are Bot 1's partner, a secret until you play it" in x for x in m.log)
    assert b.hand is not None and b.hand.view(2).partner is None  # the others do not know

    async def play_out() -> None:
        while not m.hand_over:
            if m.my_turn:
                b.play(min(m.hand, key=lambda c: c.code))
            await asyncio.sleep(0.002)

    await asyncio.wait_for(play_out(), 20)
    res = m.last_result
    assert res is not None and res.call is not None and res.winner is None
    assert sum(res.call.scores) == 0 and m.scores == res.call.scores
    assert m.match_over  # a match of one hand
    text = _text(render_table.table_lines(m, ui, 60))
    assert "Bot 1 called the 3♦; You held it." in text
    assert ("the callers win" in text) == res.call.won
    for seat in range(5):
        assert chiamata.score_text(res.call.scores[seat]) in text


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_a_short_terminal_keeps_the_trick_and_your_turn_in_the_table_pane(lang: str) -> None:
    """At 60x20 (the smallest table screen) the secret partner, the longest case, still sees
    the called card, every seat's card and "your turn" in the Table pane, in either language;
    the Players pane says who is the caller and the partner."""
    from briscola_lan.tui import i18n, panes

    i18n.set_language(lang)
    try:
        mine = [Card(Suit.COINS, Rank.TWO), *MY_CARDS[1:]]
        b = PracticeBackend(FIVE, "Tess", ["rules"] * 4, delay=0, deck_source=_deck_with(mine))
        b.bots = {1: Stub((Bid(88),), Suit.COINS), 2: Stub(), 3: Stub(), 4: Stub()}
        await b.start()
        m, ui = b.model, UiState()
        ai = "AI random {n}" if lang == "en" else "IA casuale {n}"  # the names a host gives
        m.seats = [m.seats[0]] + [
            SeatInfo(s, ai.format(n=s), is_ai=True, level="random") for s in range(1, 5)
        ]
        b.bid(None)  # Bot 1 bids 88 points and calls the 2 of coins: mine, a secret partner
        await _settle(b, lambda: m.my_turn and m.contract is not None)
        assert m.partner == 0
        # the longest case: I play last, the four others' cards on the table
        others = [c for c in deck_for(5, Suit.COINS) if c not in m.hand][:4]
        m = dataclasses.replace(m, trick=tuple(zip(range(1, 5), others, strict=True)))
        assert m.my_turn
        sizes = panes.sizes(60, 20, m, ui)
        inner = 60 - sizes.players_width - 2
        assert sizes.compact
        table = _text(render_table.table_lines(m, ui, inner, compact=True))
        rows = table.removesuffix("\n").split("\n")
        assert len(rows) <= sizes.top - 2, rows
        turn = "Your turn" if lang == "en" else "Tocca a te"
        assert turn in table and "2♦" in table, rows
        for seat, _card in m.trick:
            assert m.who(seat) in table, rows
        players = _text(render_table.players_lines(m, ui, sizes.players_width - 2, True))
        partner = "partner" if lang == "en" else "compagno"
        caller = "caller" if lang == "en" else "chiamante"
        assert partner in players and caller in players, players
    finally:
        i18n.set_language("en")


async def test_everyone_passing_deals_again_by_the_same_dealer() -> None:
    b = PracticeBackend(FIVE, "Tess", ["rules"] * 4, delay=0)
    b.bots = {seat: Stub() for seat in range(1, 5)}
    await b.start()
    m = b.model
    b.bid(None)
    await _settle(b, lambda: any("Everyone passed" in x for x in m.log))
    assert m.my_bid and m.auction == () and m.dealer == 4 and m.hand_number == 0
    assert m.hand_results == []


async def test_a_bad_bid_is_refused_with_a_message_and_changes_nothing() -> None:
    b = PracticeBackend(FIVE, "Tess", ["rules"] * 4, delay=0)
    b.bots = {1: Stub((Bid.of_rank(Rank.KING),)), 2: Stub(), 3: Stub(), 4: Stub()}
    await b.start()
    m = b.model
    b.bid(Bid.of_rank(Rank.ACE))
    await _settle(b, lambda: m.my_bid)  # Bot 1 bid the king; the others passed
    b.bid(Bid.of_rank(Rank.THREE))  # lower than the king on the ladder
    assert m.error and "does not top" in m.error and m.my_bid
    b.call(Suit.CUPS)
    assert m.error and m.contract is None


async def test_five_players_from_the_form_by_keys_to_the_end_of_a_hand() -> None:
    async with running() as d:
        c = d.client
        await d.keys("h", DOWN, RIGHT, RIGHT, RIGHT)
        assert c.ui.form.players == 5
        assert render_menus.form_rows(c.ui.form)[2:5] == ["target", "double", "length"]
        await d.keys(DOWN, DOWN, DOWN, LEFT, LEFT, LEFT, LEFT)  # 5 hands -> 1
        assert c.ui.form.match_hands == 1
        await d.keys(ENTER)
        await wait_for(lambda: c.model.started, what="the deal")
        m = c.model
        assert c.ui.screen is Screen.TABLE and m.players == 5 and len(m.hand) == 8

        async def play() -> None:
            while not m.hand_over:
                if m.my_bid:
                    said = m.auction
                    await d.keys(RIGHT, LEFT, ENTER if not m.auction else "x")
                    await wait_for(lambda s=said: m.auction != s or not m.my_bid)
                elif m.my_call:
                    await d.keys("2", ENTER)
                    assert m.contract is not None and m.contract.trump is Suit.CUPS
                elif m.my_turn:
                    before = m.changes
                    await d.keys(ENTER)
                    await wait_for(lambda b=before: m.changes > b)
                else:
                    await asyncio.sleep(0.005)

        await asyncio.wait_for(play(), 120)
        res = m.last_result
        assert res is not None and res.call is not None and sum(res.points) == 120
        assert m.scores == res.call.scores and sum(m.scores) == 0
        assert any("wins the auction" in x or "You win the auction" in x for x in m.log)
        await wait_for(lambda: not m.match_over or c.ui.show_summary)
        if c.ui.show_summary:  # (a match that ended with this hand shows its summary)
            await d.keys("\x1b")
        await d.keys("h")  # no hint at five: said in words, nothing computed
        assert "does not coach Briscola chiamata" in c.coach.hint_text
        await d.keys("\x1b", "w")
        assert c.ui.show_review
        assert "does not coach Briscola chiamata" in _text(c.coach.review_lines(c.ui))


def test_the_form_offers_the_chiamata_options_the_seats_and_the_deal() -> None:
    form = HostForm(players=4)
    form.row = 1
    change_form(form, +1)
    assert form.players == 5
    assert render_menus.form_rows(form) == [
        "name", "players", "target", "double", "length",
        "seat1", "seat2", "seat3", "seat4", "deal", "start",
    ]  # fmt: skip
    for row in ("target", "length"):
        form.row = render_menus.form_rows(form).index(row)
        change_form(form, +1)
    form.row = render_menus.form_rows(form).index("double")
    change_form(form, +1)
    opts = form.options()
    assert opts.match_format is MatchFormat.TOTAL and opts.players == 5
    assert (opts.points_to_win, opts.double_all, opts.match_hands) == (65, False, 6)
    assert len(form.seat_fillers()) == 4
    text = _text(render_menus.form_lines(form, UiState(), 60))
    assert "Points to win" in text and "< 65 >" in text and "Hands in the match" in text
    form.players, form.fillers, form.row = 2, ["open"], 1
    change_form(form, -1)  # 2 -> 5, the fillers grow to four seats
    assert form.players == 5 and form.seat_fillers() == ["open"] * 4


async def test_open_seats_at_five_without_the_network_parts_are_refused_in_words() -> None:
    """A client without its network parts plays five players against AI on this machine;
    open seats need a hosted table (tests/tui/test_netplay_five.py plays one)."""
    async with running() as d:
        c = d.client
        form = HostForm(players=5, fillers=["open", "rules", "rules", "rules"])
        c.start_form_table(form)
        assert form.error is not None and "network table" in form.error
        assert c.ui.screen is Screen.LOBBY


@pytest.mark.parametrize("width", [22, 30, 40, 58])
async def test_the_five_player_panels_fit_their_width(width: int) -> None:
    b = PracticeBackend(FIVE, "Tess", ["rules"] * 4, delay=0, deck_source=_deck_with(MY_CARDS))
    b.bots = {seat: Stub() for seat in range(1, 5)}
    await b.start()
    m, ui = b.model, UiState()
    for compact in (True, False):
        frags = render_table.table_lines(m, ui, width, compact=compact)
        frags += render_table.players_lines(m, ui, width, compact)
        rows = _text(frags).splitlines()
        assert all(len(r) <= width for r in rows), (width, rows)
    b.bid(Bid.of_rank(Rank.ACE))
    await _settle(b, lambda: m.my_call)
    b.call(Suit.CUPS)
    for compact in (True, False):
        for big in (True, False):
            text = _text(render_table.table_lines(m, ui, width, big=big, compact=compact))
            assert all(len(r) <= max(width, 22) for r in text.splitlines()), (width, text)
            for n in range(1, 5):
                assert f"Bot {n}" in text


def test_five_seats_sit_around_me() -> None:
    assert [seating.place_of(s, 0, 5) for s in range(5)] == [
        "bottom", "left", "top-left", "top-right", "right",
    ]  # fmt: skip
    assert seating.place_of(2, 2, 5) == "bottom" and seating.place_of(1, 2, 5) == "right"


async def test_learn_mode_walks_through_an_auction_and_the_first_tricks_then_five_play() -> None:
    from briscola_lan.tui import learn, learn_five

    async with running() as d:
        ui = d.client.ui
        await d.keys("l")
        first = learn.last_step() - learn_five.PAGES
        while ui.learn_step < first:
            await d.keys(RIGHT)
        pages = []
        for _n in range(learn_five.PAGES):
            pages.append(_text(learn.page_lines(ui)))
            await d.keys(RIGHT)
        auction, call, tricks, score = pages
        assert "Five players: Briscola chiamata" in auction
        assert "Player 1 wins with the 7" in auction  # the auction's winner, by the engine
        assert auction.count("pass") >= 4
        assert "Player 1 calls the 7♥" in call and "You hold the 7♥" in call
        hand = learn_five.demo_hand(learn_five.TRICKS)
        for t in hand.tricks:  # every trick's taker and points as the engine counted them
            who = "You" if t.winner == 0 else f"Player {t.winner}"
            assert f"{who} takes it: {t.points} points." in tricks
        assert "now everyone knows you are player 1's partner" in tricks
        assert "caller +2, partner +1, each other player -1" in score
        assert "alone: caller +4, each other player -1" in score
        assert ui.learn_step == learn.last_step()
        assert "press 5 for a practice game at five players" in _text(learn.page_lines(ui))
        await d.keys("5")
        await wait_for(lambda: d.client.model.started, what="the five-player practice")
        assert ui.screen is Screen.TABLE and d.client.model.players == 5


@pytest.mark.parametrize("lang", ["en", "it"])
async def test_the_help_lists_the_auction_keys_and_they_bid_and_call(lang: str) -> None:
    """The ? screen at the table lists the auction's and the call's keys, in the player's
    language; the keys it lists move the bid, bid, pass and call as it says."""
    from briscola_lan.tui import i18n

    i18n.set_language(lang)
    try:
        ui = UiState(screen=Screen.TABLE)
        text = _text(render_menus.help_lines(ui))
        title = "Auction keys (5 players)" if lang == "en" else "Tasti dell'asta (5 giocatori)"
        assert title in text, text
        assert text.index(title) < text.index("Lobby keys" if lang == "en" else "Tasti nella sala")
        keys = dict(render_menus.help_auction())
        assert len(keys) == 5  # Left/Right, Up/Down, Enter (bid and call), x or 0, the suits
        for key in ("x or 0" if lang == "en" else "x o 0", "Left/Right/1-4" if lang == "en" else
                    "Sinistra/Destra/1-4"):  # fmt: skip
            assert key in keys, keys
        if lang == "it":
            assert all(what not in text for what in ("bid it", "pass (a pass is final)"))
        # during an auction (or the call) its keys come first
        bidding = _text(render_menus.help_lines(ui, auction=True))
        assert bidding.index(title) < bidding.index(
            "Table keys" if lang == "en" else "Tasti al tavolo"
        )
    finally:
        i18n.set_language("en")
