"""End to end in tmux, the real ``briscola-lan`` command: the table as players sit (you at the
bottom, your partner across, the opponents at the sides), whole names, who drew the face-up
briscola, the points hidden and shown, the hint under the hand, the match summary, the
statistics screen; in English at 100x30 with four players, in Italian at 60x20 with three."""

from __future__ import annotations

import re
import time
from pathlib import Path

from .test_tmux import Tmux, _start, tmux_factory

__all__ = ["tmux_factory"]  # the fixture, shared with test_tmux.py


def _play(t: Tmux, until: str, words: dict[str, str], seen: list[str], timeout: float = 120) -> str:
    """Choose a card and play it at each turn, go on after each hand, until ``until`` shows."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        screen = t.screen()
        seen.append(screen)
        if re.search(until, screen):
            return screen
        if words["turn"] in screen:
            t.keys("1", "Enter")  # the card chosen, then played: a card the player has seen
        elif words["next"] in screen:
            t.keys("n")
        time.sleep(0.05)
    raise AssertionError(f"{until!r} never appeared; the screen was:\n{t.screen()}")


def _row(screen: str, text: str) -> int:
    return next(i for i, line in enumerate(screen.splitlines()) if text in line)


def _players_pane(screen: str) -> str:
    """The Players pane's text (left of the divider)."""
    return "\n".join(ln.split("││")[0] for ln in screen.splitlines() if "││" in ln)


def _table_pane(screen: str) -> str:
    """The Table pane's text (right of the divider), a line for each of the screen's."""
    return "\n".join(ln.split("││")[1] if "││" in ln else "" for ln in screen.splitlines())


EN = {"turn": "Your turn", "next": "Press n for the next hand"}
IT = {"turn": "Tocca a te", "next": "Premi n per la mano seguente"}


def test_four_players_by_position_summary_and_statistics_in_english(
    tmux_factory: list[Tmux], tmp_path: Path
) -> None:
    t = _start(tmux_factory, tmp_path, (100, 30), "", "C.UTF-8")
    t.wait_for(r"Play against AI now")
    t.keys("h", "Down", "Right", "Right", "Down", "Down", "Left", "Enter")  # 4 players, 1 hand
    screen = t.wait_for(EN["turn"], 30)
    # by position: the partner across (above), the opponents side by side, you at the bottom
    table = _table_pane(screen)
    assert _row(table, "AI random 2 (partner)") < _row(table, "AI random 1") < _row(table, "You")
    assert _row(table, "AI random 1") == _row(table, "AI random 3"), screen
    sides = next(ln for ln in table.splitlines() if "AI random 1" in ln)
    assert sides.index("AI random 1") < sides.index("AI random 3"), screen  # seat 1 on my left
    assert screen.count("┌────┐") >= 4 and screen.count("┌─────┐") == 3, screen  # table, hand
    t.keys("p")
    hidden = t.wait_for(r"tricks +\d+ +│", 5)
    assert "pts" not in _players_pane(hidden), hidden
    t.keys("p")
    t.wait_for(r"pts +\d+", 5)
    t.keys("h")
    hint = t.wait_for(r"Hint \(h; Esc closes\)", 30)
    assert _row(hint, "Hint (h;") > _row(hint, "Your hand"), hint
    assert hint.count("┌─────┐") == 3, hint  # the hand is still in view, under the hint
    t.keys("Escape")
    seen: list[str] = []
    taken = _play(t, r"\(.. taken by [^)]+\)", EN, seen)
    assert re.search(r"Briscola: . \w+ +\(.. taken by (you|AI random \d)\)", taken), taken
    t.keys("m")
    summary = t.wait_for("Match summary", 5)
    assert "Hand 1 is being played." in summary
    t.keys("m")
    over = _play(t, r"YOU WIN THE MATCH|You lose the match", EN, seen, 180)
    over = t.wait_for(r"drew it with the last card", 10)
    assert "Match summary" in over and re.search(r"\d+ points, \d+ cards:", over), over
    assert all("Window too small" not in s for s in seen)
    t.keys("Escape")
    t.wait_for(r"r: rematch.*\?: keys", 5)
    t.keys("Escape")
    t.wait_for(r"t: stats|t Your statistics", 10)
    t.keys("t")
    stats = t.wait_for(r"From 1 of your matches", 60)
    assert re.search(r"Matches: 1 finished, [01] won, [01] lost", stats), stats
    assert "4 players" in stats and "AI random" in stats
    t.keys("Escape", "q")


def test_three_players_at_60x20_in_italian(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (60, 20), "--hide-points", "it_IT.UTF-8")
    t.wait_for(r"Gioca subito contro l'IA")
    t.keys("h", "Down", "Right", "Enter")  # 3 players: the points format, 3 hands
    screen = t.wait_for(IT["turn"], 30)
    table = _table_pane(screen)
    assert "IA casuale 1" in table and "IA casuale 2" in table, screen  # whole names
    # the opponents at my sides (on one line, or the left one first), above me
    assert _row(table, "IA casuale 1") <= _row(table, "IA casuale 2") < _row(table, "Tu  ")
    pane = _players_pane(screen)
    assert " pr" in pane and " pt" not in pane, screen  # the points hidden from the start
    t.keys("p")
    t.wait_for(r"\d+ pt", 5)
    seen: list[str] = []
    end_of_hand = _play(t, r"Mano 1 finita", IT, seen, 120)
    assert re.search(r"Tu +\d+ punti", end_of_hand) and "IA casuale 2" in end_of_hand
    t.keys("m")
    t.wait_for("Riepilogo della partita", 5)
    t.keys("m")
    _play(t, r"HAI VINTO LA PARTITA|Hai perso la partita", IT, seen, 300)
    over = t.wait_for(r"l'ha pescata|l'hai pescata", 10)
    assert "Riepilogo della partita" in over, over
    for screen in seen:
        assert "Window too small" not in screen, screen
        assert not re.search(r"\bAI\b|\(y/n\)|\btakes\b|\bpoints\b", screen), screen
    t.keys("Escape", "Escape")
    t.wait_for(r"Sala", 10)
    t.keys("t")
    stats = t.wait_for(r"Partite finite: 1", 60)
    assert "Le tue statistiche" in stats and "IA casuale" in stats, stats
    t.keys("Escape", "a")
    t.wait_for(IT["turn"], 30)
    t.keys("q")
    prompt = t.wait_for(r"\(s/n\)", 5)
    assert "(y/n)" not in prompt
    t.keys("s")
    end = time.monotonic() + 10
    while t._has_session() and time.monotonic() < end:
        time.sleep(0.05)
    assert not t._has_session(), "s answers the Italian prompt"
