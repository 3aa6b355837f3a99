"""End to end in tmux, the real ``briscola-lan`` command at five players (Briscola chiamata):
the host form's options, the auction, the call, five seats around the table, who is with whom,
each hand's score and the match's end, the table hosted over loopback with four AI seats; in
English at 100x30 and in Italian at 60x20."""

from __future__ import annotations

import re
import time
from pathlib import Path

from .test_tmux import Tmux, _start, tmux_factory

__all__ = ["tmux_factory"]  # the fixture, shared with test_tmux.py

# what to look for on the screen (the key line, where a log line cannot say the same)
EN = {
    "bid": "x: pass  ", "call": "1-4: suit", "turn": "Your turn: choose", "next": "n: next hand",
    "over": r"YOU WIN THE MATCH|You lose the match|wins the match", "auction": "Auction",
    "called": "Called:", "lobby": "Play against AI now", "scores": "Match scores",
}  # fmt: skip
IT = {
    "bid": "x: passo  ", "call": "1-4: seme", "turn": "Invio: gioca",
    "next": "n: mano seguente",
    "over": r"HAI VINTO LA PARTITA|Hai perso la partita|vince la partita",
    "auction": "Asta", "called": "Chiamata:", "lobby": "Gioca subito contro l'IA",
    "scores": "Punteggio",
}  # fmt: skip


def _table_pane(screen: str) -> str:
    """The Table pane's text (right of the divider), a line for each of the screen's."""
    return "\n".join(ln.split("││")[1] if "││" in ln else "" for ln in screen.splitlines())


def _around_the_table(screen: str) -> tuple[int, int, int] | None:
    """The rows of the Table pane that hold the two seats across, the two at the sides and me,
    or None while one of them is not on the screen."""
    rows = _table_pane(screen).splitlines()
    # (not the line that tells who is with whom once the called card is out: "1 + 4 against")
    patterns = (r"AI random 2\b(?! \+).*\bAI random 3\b", r"AI random 1\b(?! \+).*\bAI random 4\b")
    found = [next((i for i, ln in enumerate(rows) if re.search(p, ln)), None) for p in patterns]
    found.append(next((i for i, ln in enumerate(rows) if re.match(r"\s+You\b", ln)), None))
    top, side, me = found
    if top is None or side is None or me is None:
        return None
    return top, side, me


def _play(t: Tmux, words: dict[str, str], seen: list[str], timeout: float = 240) -> str:
    """Pass at each bid after the first, call the first suit, play the first card, go on after
    each hand, until the match is over."""
    end = time.monotonic() + timeout
    bids = 0
    while time.monotonic() < end:
        screen = t.screen()
        seen.append(screen)
        if re.search(words["over"], screen):
            return screen
        if words["bid"] in screen:
            t.keys("Enter" if bids == 0 else "x")  # bid once (the lowest bid), then pass
            bids += 1
            time.sleep(0.2)
        elif words["call"] in screen:
            t.keys("Enter")
            time.sleep(0.2)
        elif words["turn"] in screen:
            t.keys("1", "Enter")
        elif words["next"] in screen:
            t.keys("n")
        time.sleep(0.05)
    raise AssertionError(f"the match never ended; the screen was:\n{t.screen()}")


def _start_five(t: Tmux, words: dict[str, str]) -> str:
    t.wait_for(re.escape(words["lobby"]))
    # the form: 5 players, then one hand in the match
    t.keys("h", "Down", "Right", "Right", "Right", "Down", "Down", "Down")
    t.keys("Left", "Left", "Left", "Left", "Enter")
    return t.wait_for(re.escape(words["auction"]), 30)


def test_five_players_at_100x30_in_english(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (100, 30), "", "C.UTF-8")
    screen = _start_five(t, EN)
    assert "5p total:1" in screen, screen
    first = t.wait_for(r"Your bid: < [^>]+ >", 30)  # I deal: the four AI seats bid first
    table = _table_pane(first)
    for n in range(1, 5):
        assert re.search(rf"AI random {n}  +(pass|\S+)", table), first
    lowest = re.search(r"Your bid: < ([^>]+) >", first)
    assert lowest, first
    t.keys("Right")
    t.wait_for(r"Your bid: < (?!" + re.escape(lowest[1]) + r" )", 15)
    t.keys("Left")
    t.wait_for(r"Your bid: < " + re.escape(lowest[1]) + " >", 15)
    seen: list[str] = []
    played, seats = None, None
    end = time.monotonic() + 120
    while played is None and time.monotonic() < end:  # to the first card of the play
        screen = t.screen()
        if EN["called"] in screen and "AI random 2" in screen:
            # a frame tmux shows half drawn lacks a row: look again until the whole table is out
            seats = _around_the_table(screen)
            if seats is not None:
                played = screen
        elif EN["bid"] in screen:
            t.keys("Enter" if "Highest bid" not in screen else "x")
        elif EN["call"] in screen:
            assert re.search(r"\[1 ..", screen), screen  # the first suit chosen
            t.keys("Enter")
        time.sleep(0.1)
    assert played is not None and seats is not None, t.screen()
    top, side, me = seats
    assert top < side < me, played
    assert re.search(r"Briscola: . \w+ +Called: ..", played), played
    assert re.search(
        r"partner holds the ..: unknown|You are AI random \d's partner|alone|against the other",
        played,
    )
    over = _play(t, EN, seen)
    assert all("Window too small" not in s for s in seen)
    assert any(re.search(r"took \d+ points, needing \d+: the callers (win|lose)", s) for s in seen)
    # each seat's score and part: the end of a hand, or the match summary over it
    assert any(re.search(r"[+-]\d +caller|\([+-]\d+, (caller|alone)\)", s) for s in seen)
    assert "Match summary" in over, over
    t.keys("Escape")
    t.wait_for(r"Match scores [+-]?\d", 15)
    t.keys("Escape")
    t.wait_for(re.escape(EN["lobby"]), 10)
    t.keys("q")


def test_five_players_at_60x20_in_italian(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (60, 20), "", "it_IT.UTF-8")
    _start_five(t, IT)
    first = t.wait_for(r"La tua offerta: < [^>]+ >", 30)
    assert "x: passo" in first, first  # the key line keeps its keys in 60 columns
    seen: list[str] = []
    over = _play(t, IT, seen)
    for screen in seen:
        assert "Window too small" not in screen, screen
    assert any(IT["called"] in s for s in seen)
    # each seat's score: the end of a hand, or the match summary over it
    assert any(re.search(r"Questa mano: [+-]?\d|\([+-]\d+, (chiamante|da solo)\)", s) for s in seen)
    assert "Riepilogo della partita" in over, over
    t.keys("Escape")
    t.wait_for(r"Punteggio [+-]?\d", 15)
