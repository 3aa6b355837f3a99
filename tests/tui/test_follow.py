"""Following the play, headless: the completed trick held on the table (time or a key), who
is winning, the partner's card, the sorted hand and the deal order, the card just drawn, the
card counts and, at 3 players, the removed 2 on the table and in the log."""

from __future__ import annotations

from briscola_lan.rules import Card, Suit, TableOptions, TrickTaken
from briscola_lan.table import events as ev
from briscola_lan.tui import render, render_table
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.follow import Follow, HandOrder, display_order, winning_seat
from briscola_lan.tui.state import SeatInfo, TableModel, UiState

from .helpers import DOWN, ENTER, RIGHT, running, wait_for


def _text(frags: render.Frag) -> str:
    return "".join(f[1] for f in frags)


def _cfg(**kw: object) -> ClientConfig:
    base: dict[str, object] = {"name": "Tess", "ai_level": "random", "ai_delay": 0.0}
    base.update(kw)
    return ClientConfig(**base)  # type: ignore[arg-type]


async def test_a_completed_trick_stays_until_a_key_then_the_key_does_nothing_else() -> None:
    async with running(_cfg(trick_pause=60.0)) as d:
        await d.keys("a")
        c = d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        card = c.shown_hand()[0]
        await d.keys("1", ENTER)  # the card chosen (seen), then played
        await wait_for(lambda: c.ui.follow.held is not None, what="the trick held")
        held = c.ui.follow.held
        assert held is not None and card in [x for _, x in held.plays]
        text = _text(c._table_text(60))
        who = "You take" if held.winner == 0 else "Bot 1 takes"
        assert f"{who} the trick: +{held.points} points" in text, text
        for seat, played in held.plays:
            line = next(ln for ln in text.splitlines() if played.label() in ln)
            assert c.model.who(seat) in line
        assert "takes it" in text  # the winning card is marked
        assert "any key: go on" in _text(c._hints(80))
        hand = c.model.hand
        await d.keys(ENTER)  # clears the trick, plays nothing
        assert c.ui.follow.held is None and c.model.hand == hand


async def test_a_held_trick_clears_by_itself_after_the_pause() -> None:
    # (a pause long enough that a loaded machine's test loop sees the trick held before the
    # pause ends: at 0.3 s a machine at load 15 could miss it between two looks)
    async with running(_cfg(trick_pause=1.5)) as d:
        await d.keys("a")
        c = d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        await d.keys("1", ENTER)
        await wait_for(lambda: c.ui.follow.held is not None, what="the trick held")
        await wait_for(lambda: c.ui.follow.held is None, 15, "the pause to end")
        assert "takes the trick" not in _text(c._table_text(60))


async def test_a_play_key_just_after_a_tricks_pause_ran_out_plays_nothing() -> None:
    """Enter pressed to clear a trick at the moment its pause runs out is not a play of the
    card now in the selected slot (the card just drawn, unseen): it plays nothing and says so;
    the next Enter plays, as does Enter after the hand has been on the screen a while."""
    async with running(_cfg(trick_pause=60.0)) as d:
        await d.keys("a")
        c = d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        await d.keys("1", ENTER)
        await wait_for(lambda: c.ui.follow.held is not None, what="the trick held")
        await wait_for(lambda: c.model.my_turn, what="my turn in the next trick")
        c._trick_time_up()  # the pause runs out...
        hand = c.model.hand
        await d.keys(ENTER)  # ...as the player presses Enter to clear the trick
        assert c.model.hand == hand and c.model.my_turn
        assert c.model.error is not None and "look at your hand" in c.model.error
        before = len(hand)
        await d.keys(ENTER)  # now the hand has been seen: this one plays
        await wait_for(lambda: len(c.model.hand) < before or c.ui.follow.held is not None,
                       what="my card played")  # fmt: skip
        await wait_for(lambda: c.ui.follow.held is not None, what="the next trick held")
        await wait_for(lambda: c.model.my_turn, what="my turn again")
        c._trick_time_up()
        c._hand_new_since -= 1.0  # type: ignore[operator]  # the hand has been there a second
        c._slot = (c._slot[0], None if c._slot[1] is None else c._slot[1] - 1.0)
        hand = c.model.hand
        await d.keys(ENTER)
        await wait_for(lambda: c.model.hand != hand or c.ui.follow.held is not None,
                       what="a play after the hand was seen")  # fmt: skip


async def test_winning_card_partner_counts_and_removed_two() -> None:
    opts = TableOptions.make(players=4)
    model = TableModel(options=opts, started=True, my_seat=0)
    model.seats = [SeatInfo(s, f"P{s}", is_ai=s != 0) for s in range(4)]
    model.trump, model.upcard = Suit.CLUBS, Card.parse("Kc")
    model.trick = ((1, Card.parse("Ah")), (2, Card.parse("3h")), (3, Card.parse("2c")))
    model.to_play = 0
    model.hand = (Card.parse("4d"), Card.parse("Ac"), Card.parse("Jd"))
    model.hand_sizes = (3, 2, 2, 2)
    model.tricks_won, model.points = (0, 0), (0, 0)
    ui = UiState()
    assert winning_seat(model.trick, model.trump) == 3  # the 2 of the briscola beats the ace
    text = _text(render_table.table_lines(model, ui, 60))
    winner = next(ln for ln in text.splitlines() if "2♣" in ln)
    assert "winning" in winner
    partner = next(ln for ln in text.splitlines() if "3♥" in ln)
    assert "partner" in partner and "winning" not in partner
    seats = _text(render_table.seat_lines(model, ui, 36)).splitlines()
    assert seats[0].rstrip().endswith("▮▮▮") and seats[1].rstrip().endswith("▮▮")
    assert "Stock:" in text
    opts3 = TableOptions.make(players=3, match_format="points", removed_two=Suit.SWORDS)
    three = TableModel(options=opts3, started=True)
    three.trump, three.upcard = Suit.CUPS, Card.parse("5h")
    assert "2♠ is out of the deck (39 cards)" in _text(render_table.table_lines(three, ui, 60))


async def test_three_players_announce_the_removed_two_in_the_log() -> None:
    async with running(_cfg(trick_pause=0.0)) as d:
        await d.keys("h", DOWN, RIGHT)  # players 3
        await d.keys(DOWN, RIGHT, RIGHT)  # removed 2: coins -> swords
        await d.keys(ENTER)
        await wait_for(lambda: d.client.model.started, what="the deal")
        log = "\n".join(d.client.model.log)
        assert "the 2♠ is out of the deck: 39 cards are dealt" in log, log


def test_the_hand_is_sorted_by_suit_with_the_briscola_apart_or_kept_as_dealt() -> None:
    dealt = tuple(Card.parse(x) for x in ("3c", "Ah", "2d", "Kh", "7c"))
    shown = display_order(dealt, Suit.CUPS, HandOrder.SORTED)
    assert [c.label(ascii_only=True) for c in shown] == ["2d", "3c", "7c", "Ah", "Kh"]
    assert display_order(dealt, Suit.CUPS, HandOrder.DEALT) == dealt


async def test_o_switches_the_order_and_numbers_follow_what_is_shown() -> None:
    async with running(_cfg(trick_pause=0.0, hand_order=HandOrder.DEALT)) as d:
        await d.keys("a")
        c = d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        assert c.shown_hand() == c.model.hand
        await d.keys("o")
        assert c.ui.hand_order is HandOrder.SORTED
        assert c.shown_hand() == display_order(c.model.hand, c.model.trump, HandOrder.SORTED)
        await d.keys("3")
        third = c.shown_hand()[2]
        await d.keys(ENTER)
        await wait_for(lambda: third not in c.model.hand, what="the third card shown, played")


def test_the_card_just_drawn_is_marked_new() -> None:
    follow = Follow()
    model = TableModel(started=True, hand_number=0)
    model.hand = tuple(Card.parse(x) for x in ("Ah", "2c", "5d"))
    dealt = ev.CardsReceived(0, model.hand, drawn=False)
    assert not follow.see([ev.HandStarted(0, 1, blind=False), dealt])
    assert follow.drawn is None  # the deal marks nothing
    model.hand = model.hand[1:]  # I played the ace
    assert not follow.see([ev.CardPlayed(0, 0, Card.parse("Ah"), mine=True)])
    trick = TrickTaken(0, ((0, Card.parse("Ah")), (1, Card.parse("4h"))), 11)
    model.hand = (*model.hand, Card.parse("Kc"))
    model.last_trick, model.tricks_won = trick, (1, 0)
    drew = ev.CardsReceived(0, (Card.parse("Kc"),), drawn=True)
    assert follow.see([ev.TrickTaken(0, trick), drew])  # a trick completed: hold it
    assert follow.held is trick and follow.drawn == Card.parse("Kc")
    ui = UiState(follow=follow)
    model.trump = Suit.CLUBS
    lines = _text(render_table.hand_lines(model, ui)).splitlines()
    assert "new" in lines[-1]
    col = lines[1].index("K♣")
    assert "new" in lines[-1][col - 2 : col + 5] and "new" not in lines[-1][: col - 2]
