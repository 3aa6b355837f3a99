"""Adapters and rendering: what a seat may see, the partner exchange display, ASCII mode."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from briscola_lan.rules import ALL_CARDS, Card, Hand, MatchFormat, Suit, TableOptions
from briscola_lan.tui import render, render_menus, render_table
from briscola_lan.tui.adapters import apply_seat_view, partner_cards_visible
from briscola_lan.tui.command import wants_ascii
from briscola_lan.tui.learn import LEARN_TRICKS, describe
from briscola_lan.tui.state import (
    HandSummary,
    HostForm,
    LobbyEntry,
    SeatInfo,
    TableModel,
    UiState,
    Verification,
)


def _four_player_hand(exchange: bool = True) -> Hand:
    opts = TableOptions.make(players=4, partner_exchange=exchange)
    return Hand(opts, list(ALL_CARDS), dealer=3)


def _play_to_exchange(hand: Hand) -> None:
    while hand.exchange_shown is None:
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, hand.legal_plays()[0])


def _text(frags: render.Frag) -> str:
    return "".join(f[1] for f in frags)


def test_model_holds_only_my_cards_and_public_facts() -> None:
    hand = _four_player_hand()
    for _ in range(9):
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, hand.legal_plays()[-1])
    model = TableModel()
    apply_seat_view(model, hand.view(1))
    assert model.hand == tuple(hand.hands[1])
    others = {c for s in (0, 2, 3) for c in hand.hands[s]}
    assert not others & set(model.hand)
    assert model.partner_shown is None
    assert sum(model.tricks_won) == len(hand.tricks)
    assert model.points == tuple(hand.points)


def test_partner_cards_shown_after_exchange_then_hidden_after_my_play() -> None:
    hand = _four_player_hand()
    _play_to_exchange(hand)
    leader = hand.current_player
    assert leader is not None
    partner = (leader + 2) % 4
    model = TableModel()
    apply_seat_view(model, hand.view(leader))
    assert model.partner_shown == tuple(hand.hands[partner])
    ui = UiState()
    shown = _text(render_table.hand_lines(model, ui))
    assert "partner still holds" in shown
    # the partner's cards disappear once I have played my next card
    hand.play(leader, hand.legal_plays()[0])
    apply_seat_view(model, hand.view(leader))
    assert model.partner_shown is None
    assert partner_cards_visible(hand.view(leader)) == (False, 1)
    # the partner still sees mine until it plays
    assert partner_cards_visible(hand.view(partner))[0] is True


def test_partner_cards_drop_the_ones_the_partner_has_played() -> None:
    hand = _four_player_hand()
    _play_to_exchange(hand)
    leader = hand.current_player
    assert leader is not None
    partner = (leader + 2) % 4
    shown_before = tuple(hand.hands[leader])
    played = hand.legal_plays()[0]
    hand.play(leader, played)
    model = TableModel()
    apply_seat_view(model, hand.view(partner))
    # the partner has not played yet: it still sees my cards, but not the one on the table
    assert model.partner_shown == tuple(c for c in shown_before if c != played)
    assert played not in (model.partner_shown or ())
    assert len(model.partner_shown or ()) == 2
    text = _text(render_table.hand_lines(model, UiState(ascii_only=True)))
    assert played.label(True) not in text.split("holds:")[1]


def test_no_partner_cards_when_exchange_is_off() -> None:
    hand = _four_player_hand(exchange=False)
    while hand.stock_left:
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, hand.legal_plays()[0])
    model = TableModel()
    apply_seat_view(model, hand.view(0))
    assert model.partner_shown is None


def _sample_model() -> TableModel:
    hand = _four_player_hand()
    _play_to_exchange(hand)
    seat = hand.current_player
    assert seat is not None
    model = TableModel(title="Test")
    model.seats = [SeatInfo(s, f"P{s}", is_ai=s != seat, level="AI:rules") for s in range(4)]
    apply_seat_view(model, hand.view(seat))
    model.add_log("P1 joined")
    return model


def test_ascii_mode_renders_no_unicode() -> None:
    ui = UiState(ascii_only=True)
    model = _sample_model()
    texts = [
        render_table.seat_lines(model, ui),
        render_table.score_lines(model),
        render_table.table_lines(model, ui),
        render_table.hand_lines(model, ui),
        render.log_lines(model),
        render.title_text(model, ui),
        render_menus.help_lines(ui),
        render_menus.form_lines(HostForm(players=3), ui),
    ]
    model.hand_over = True
    model.hand_results.append(
        HandSummary(0, (70, 50), 0, verification=Verification(False, "position 7 mismatch", [], 2))
    )
    texts.append(render_table.table_lines(model, ui))
    joined = "".join(_text(t) for t in texts)
    assert all(ord(ch) < 128 for ch in joined), [ch for ch in joined if ord(ch) >= 128]
    assert "Deal check FAILED: position 7 mismatch" in joined
    for trick in LEARN_TRICKS:
        assert all(ord(ch) < 128 for ch in describe(trick, ui))


def test_the_keys_help_ends_with_the_version_line() -> None:
    from briscola_lan import about
    from briscola_lan.tui.state import Screen

    for screen in (Screen.LOBBY, Screen.TABLE):
        text = _text(render_menus.help_lines(UiState(screen=screen)))
        assert text.rstrip().endswith(about.describe()), screen


def test_unicode_mode_shows_suit_symbols_and_styles() -> None:
    model = _sample_model()
    frags = render_table.hand_lines(model, UiState())
    suits = [f for f in frags if "class:suit." in f[0]]
    assert suits, "cards are coloured by suit"
    assert any(sym in _text(frags) for sym in "♦♥♠♣")


def test_end_of_hand_shows_points_result_standing_and_verification() -> None:
    model = TableModel(options=TableOptions.make(players=2, match_format=MatchFormat.POINTS))
    model.seats = [SeatInfo(0, "Tess"), SeatInfo(1, "Bot 1", is_ai=True)]
    model.started = True
    model.hand_over = True
    model.total_points = (70, 50)
    model.hand_results.append(HandSummary(0, (70, 50), 0, verification=Verification(True, "ok")))
    text = _text(render_table.table_lines(model, UiState()))
    assert re.search(r"You +70 points", text), text
    assert re.search(r"Bot 1 +50 points", text), text
    assert "You win the hand!" in text
    assert "Match points 70-50 (2 hands)" in text
    assert "Deal verified  [v] details" in text


def test_ascii_is_automatic_without_utf8_or_with_no_color() -> None:
    assert wants_ascii(False, {"LANG": "C"}) is True
    assert wants_ascii(False, {"LANG": "en_US.UTF-8"}) is False
    assert wants_ascii(False, {"LC_ALL": "C.utf8", "LANG": "C"}) is False
    assert wants_ascii(False, {"LANG": "en_US.UTF-8", "NO_COLOR": "1"}) is True
    assert wants_ascii(True, {"LANG": "en_US.UTF-8"}) is True
    # Python coerced a C locale: LC_CTYPE says C.UTF-8, the UTF-8 mode came on by itself
    coerced = {"LANG": "C", "LC_CTYPE": "C.UTF-8"}
    assert wants_ascii(False, coerced, utf8_mode=True) is True
    assert wants_ascii(False, {"LC_CTYPE": "C.UTF-8"}, utf8_mode=True) is True
    assert wants_ascii(False, {"LANG": "de_DE.UTF-8", "LC_CTYPE": "C.UTF-8"}, True) is False
    # ... but not when the user asked for the UTF-8 mode
    assert wants_ascii(False, {**coerced, "PYTHONUTF8": "1"}, utf8_mode=True) is False


@pytest.mark.parametrize(
    ("env", "ascii_only"),
    [
        ({"LANG": "C", "LC_CTYPE": "C"}, True),
        ({"LANG": "POSIX"}, True),
        ({"LC_CTYPE": "C"}, True),
        ({"LANG": "C.UTF-8"}, False),
        ({"LC_ALL": "C"}, True),
    ],
)
def test_ascii_is_automatic_for_a_c_locale_in_a_real_process(
    env: dict[str, str], ascii_only: bool
) -> None:
    """``env -u LC_ALL LANG=C LC_CTYPE=C``: Python rewrites LC_CTYPE before the client runs."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHONUTF8"))}
    base.pop("NO_COLOR", None)
    code = "from briscola_lan.tui.command import wants_ascii; print(wants_ascii(False))"
    out = subprocess.run(
        [sys.executable, "-c", code],
        env={**base, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == str(ascii_only), (env, out.stdout, out.stderr)


def test_learn_descriptions_come_from_the_engine() -> None:
    got = [(t.winner_card, t.points) for t in LEARN_TRICKS]
    assert got == [
        (Card.parse("A♥"), 21),
        (Card.parse("2♣"), 4),
        (Card.parse("7♠"), 3),
        (Card.parse("3♣"), 12),
    ]
    assert describe(LEARN_TRICKS[0], UiState()) == "A♥ wins the trick. You win 11 + 10 = 21 points."


def test_form_rows_follow_the_options() -> None:
    form = HostForm()
    assert render_menus.form_rows(form) == [
        "name", "players", "format", "hands", "drawd", "seat1", "hints", "deal", "start"
    ]  # fmt: skip
    assert form.deal_mode() == "classic"  # against an AI only: the host plays it anyway
    form.fillers[0] = "open"
    assert form.deal_mode() == "blind"  # two people: nobody sees a card before it is shown
    form.deal = "classic"
    assert form.deal_mode() == "classic"  # the host's choice
    form.fillers[0], form.deal = "rules", ""
    form.players = 4
    assert {"exchange", "drawp", "drawd", "seat3"} <= set(render_menus.form_rows(form))
    form.players = 2
    form.match_format = MatchFormat.POINTS
    assert "hands" not in render_menus.form_rows(form)
    form.players = 3
    opts = form.options()
    assert opts.match_format is MatchFormat.POINTS and opts.removed_two is Suit.COINS


def test_match_end_texts() -> None:
    model = TableModel(options=TableOptions.make(players=2, hands_to_win=1))
    model.seats = [SeatInfo(0, "Tess"), SeatInfo(1, "Bot 1", is_ai=True)]
    model.started = model.hand_over = model.match_over = True
    model.hands_won = (1, 0)
    model.match_winner = 0
    model.hand_results.append(HandSummary(0, (80, 40), 0, verification=Verification(True, "ok")))
    won = _text(render_table.table_lines(model, UiState()))
    assert "YOU WIN THE MATCH!" in won and "r: rematch" in won
    model.match_winner = 1
    lost = _text(render_table.table_lines(model, UiState()))
    assert "You lose the match: Bot 1 wins it." in lost and "r: rematch" in lost
    model.seated = False  # a spectator reads who won, without "you"
    assert "Bot 1 wins the match." in _text(render_table.table_lines(model, UiState()))
    model.seated = True
    model.match_winner = None
    model.hand_results.append(HandSummary(1, (), None, verification=Verification(False, "x")))
    text = _text(render_table.table_lines(model, UiState()))
    assert "The hand was aborted." in text and "no winner (aborted)" in text


def test_long_table_lines_break_between_words_and_keep_their_styles() -> None:
    frags = [
        ("class:good", "Deal verified: all cards match the commitments"),
        ("class:dim", "  [v] details"),
        ("", "\n"),
        ("class:turn", "Press n."),
    ]
    out = render.wrap_words(frags, 30)
    text = "".join(t for _, t in out)
    assert text == "Deal verified: all cards match\nthe commitments  [v] details\nPress n."
    assert all(len(line) <= 30 for line in text.split("\n"))
    styles = {t: s for s, t in out}
    assert styles["commitments"] == "class:good" and styles["[v]"] == "class:dim"
    # a word wider than the panel (a fingerprint) is cut, not lost
    long = "f" * 70
    cut = "".join(t for _, t in render.wrap_words([("", f"pin {long} now")], 30))
    assert cut.replace("\n", "").replace(" ", "") == f"pin{long}now"
    assert all(len(line) <= 30 for line in cut.split("\n"))
    assert render.wrap_words(frags, None) == frags  # the width is not known before the first render


def test_the_deal_mode_is_shown_in_the_lobby_and_the_title() -> None:
    ui = UiState()
    ui.lobby = [
        LobbyEntry("a", "Kitchen", "192.0.2.7", "4p hands:2", 2, 4, 2, deal="blind"),
        LobbyEntry("b", "Garden", "192.0.2.8", "2p hands:2", 1, 2, 1, deal="classic"),
    ]
    rows = "".join(t for _, t in render_menus.lobby_lines(ui)).splitlines()
    assert "DEAL" in rows[0]
    assert "blind" in rows[1] and "classic" in rows[2]
    assert all(len(r) <= 80 for r in rows)
    model = TableModel(options=TableOptions.make(players=4), deal="blind", connection="connected")
    title = "".join(t for _, t in render.title_text(model, ui))
    assert "blind deal" in title
    model.deal = "classic"
    assert "classic deal" in "".join(t for _, t in render.title_text(model, ui))


def test_a_four_player_trick_shows_whole_names_at_every_size() -> None:
    """The trick by position shows whole names ("AI rules 1", never "AI rule") at every width,
    as text or as card boxes, so that a 4-player trick of AI players reads as four players."""
    hand = _four_player_hand()
    for _ in range(3):
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, hand.legal_plays()[0])
    model = TableModel(title="Test")
    model.seats = [SeatInfo(s, f"AI rules {s}", is_ai=True, level="AI:rules") for s in range(4)]
    apply_seat_view(model, hand.view(0))
    assert len(model.trick) == 3
    for big, width in ((True, 80), (True, 52), (False, 46), (False, 32), (False, 24)):
        text = _text(render_table.trick_text(model, UiState(), big, width=width))
        for seat in range(1, 4):
            assert f"AI rules {seat}" in text, (big, width, text)
        assert all(len(line) <= width for line in text.splitlines()), (big, width, text)
        assert "You" in text
