"""The Italian deck everywhere a card or a suit is named (table, hand, log, ASCII letters), one
set of suit names per deck; and the saved-games browser: date and time, table, players, result
and check status, newest first, and the translated deal-check report."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from briscola_lan.rules import Card, Rank, Suit, TableOptions
from briscola_lan.tui import deck as dk
from briscola_lan.tui import render, render_table
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.state import Screen, SeatInfo, TableModel, UiState

from .helpers import ENTER, net_config, running, wait_for


def _text(frags: render.Frag) -> str:
    return "".join(f[1] for f in frags)


def test_each_deck_names_its_suits_one_way() -> None:
    french = [dk.suit_text(s, dk.Deck.FRENCH, False) for s in Suit]
    assert french == ["♦ diamonds", "♥ hearts", "♠ spades", "♣ clubs"]
    assert [dk.suit_symbol(s, dk.Deck.FRENCH, True) for s in Suit] == ["d", "h", "s", "c"]
    italian = [dk.suit_name(s, dk.Deck.ITALIAN) for s in Suit]
    assert italian == ["Denari", "Coppe", "Spade", "Bastoni"]
    assert [dk.suit_symbol(s, dk.Deck.ITALIAN, True) for s in Suit] == ["d", "c", "s", "b"]
    assert dk.card_label(Card(Suit.CUPS, Rank.KING), dk.Deck.ITALIAN, True) == "Rc"
    assert dk.card_label(Card(Suit.CLUBS, Rank.QUEEN), dk.Deck.ITALIAN, False) == "C⚚"
    assert dk.card_label(Card(Suit.COINS, Rank.JACK), dk.Deck.ITALIAN, False) == "F◉"
    assert [dk.rank_name(r, dk.Deck.ITALIAN) for r in (Rank.KING, Rank.QUEEN, Rank.JACK)] == [
        "Re", "Cavallo", "Fante",
    ]  # fmt: skip


def test_the_table_in_the_italian_deck_ascii_mode() -> None:
    model = TableModel(options=TableOptions.make(players=2), started=True, my_seat=0)
    model.seats = [SeatInfo(0, "Tess"), SeatInfo(1, "Bot 1", is_ai=True)]
    model.trump, model.upcard = Suit.COINS, Card(Suit.COINS, Rank.KING)
    model.trick = ((1, Card(Suit.CUPS, Rank.ACE)),)
    model.hand = (Card(Suit.CLUBS, Rank.JACK),)
    model.to_play = 0
    ui = UiState(ascii_only=True, deck=dk.Deck.ITALIAN)
    text = _text(render_table.table_lines(model, ui, 70))
    assert "Briscola: Rd  trump Denari" in text, text
    assert "Ac" in text and "diamonds" not in text and "coins" not in text
    assert "Fb" in _text(render_table.hand_lines(model, ui))


async def test_a_game_in_the_italian_deck_logs_italian_cards() -> None:
    cfg = ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0,
                       deck=dk.Deck.ITALIAN, ascii_only=True)  # fmt: skip
    async with running(cfg) as d:
        await d.keys("a")
        c = d.client
        await wait_for(lambda: c.model.my_turn, what="my turn")
        await d.keys(ENTER)
        await wait_for(lambda: c.model.last_trick is not None, what="a trick")
        log = "\n".join(c.model.log)
        assert re.search(r"took the trick \([A32RCF4-7][dcsb] [A32RCF4-7][dcsb]\)", log), log


@pytest.mark.usefixtures("private_dirs")
async def test_the_saved_games_browser_lists_date_table_players_result_status(
    tmp_path: Path,
) -> None:
    async with running(net_config(tmp_path)) as d:
        await d.keys("a")
        c = d.client
        while not c.model.hand_over:
            if c.model.my_turn:
                before = c.model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: c.model.changes > b, what="my play")
            else:
                await wait_for(lambda: c.model.my_turn or c.model.hand_over, 15, "a turn")
        games = tmp_path / "games"
        await wait_for(lambda: len(list(games.glob("*.briscola.json"))) == 2, 10, "the saves")
        older = games / "000000000000-old.briscola.json"
        older.write_bytes(b"not a transcript")
        os.utime(older, (1_000_000_000, 1_000_000_000))  # 2001: the oldest
        await d.keys("\x1b", "y")
        await wait_for(lambda: c.ui.screen is Screen.LOBBY, 5, "the lobby")
        await d.keys("s")
        # one row per match (the player's own file, not also the practice host's), then the
        # file that is not a saved game
        await wait_for(lambda: len(c.saved_games.games) == 2, 30, "the list checked")
        assert len(c.ui.saved_files) == 2 and "-host" not in c.ui.saved_files[0]
        lines = _text(c._saved_text(100)).splitlines()[:2]
        assert lines[1].startswith("  2001-09-09") and "CANNOT VERIFY" in lines[1], lines
        line = lines[0]
        assert re.match(r"> \d{4}-\d\d-\d\d \d\d:\d\d  Practice vs AI", line), line
        assert "Tess, AI random 1" in line and "1 hand played" in line, line
        assert re.search(r"hands [01]-[01]", line) and "[INCOMPLETE]" in line, line
        await d.keys(ENTER)
        report = "\n".join(c.ui.saved_report)
        assert "hand 1 (dealer seat 0): verified points [" in report, report
