"""End to end in tmux: a practice game survives its client — killed (SIGKILL) in the middle of
the hand, or quit there — and the real ``briscola-lan`` command started again offers it in the
lobby; ``c`` brings it back and the hand plays on to a verified end (English and Italian)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time
from pathlib import Path

from .test_tmux import ENGLISH, ITALIAN, Tmux, _quit, _start, pytestmark, tmux_factory

__all__ = ["pytestmark", "tmux_factory"]  # the fixture and the skip rule of the tmux tests


def _descendants(pid: int) -> list[int]:
    """The processes under ``pid`` (from /proc), children first."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        kids = [c for c, parent in parents.items() if parent == p]
        out.extend(kids)
        todo.extend(kids)
    return out


def _kill_client(t: Tmux) -> None:
    """SIGKILL the client's process (and whatever runs under the pane), as a crash would."""
    pane = int(t.run("display-message", "-p", "#{pane_pid}").strip())
    for pid in [*_descendants(pane), pane]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    end = time.monotonic() + 10
    while t._has_session() and time.monotonic() < end:
        time.sleep(0.05)
    t.run("kill-server", check=False)


def _one_card(t: Tmux, words: dict[str, str]) -> None:
    """Start a practice game and play one card (then wait for the AI's answer)."""
    t.wait_for(re.escape(words["lobby"]))
    t.keys("a")
    t.wait_for(re.escape(words["turn"]), 30)
    t.keys("Enter")
    t.wait_for(r"Deck: 3[0-3]|Mazzo: 3[0-3]|" + re.escape(words["turn"]), 30)
    time.sleep(0.5)  # the AI's card, the trick taken, the cards drawn


def _finish_hand(t: Tmux, words: dict[str, str]) -> str:
    end = time.monotonic() + 90
    while time.monotonic() < end:
        screen = t.screen()
        if words["over"] in screen:
            return screen
        if words["turn"] in screen:
            t.keys("Enter")
        time.sleep(0.03)
    raise AssertionError(f"the hand never ended; the screen was:\n{t.screen()}")


def _no_traceback(tmp: Path) -> None:
    err = (tmp / "stderr.txt").read_text() if (tmp / "stderr.txt").exists() else ""
    assert "Traceback" not in err, err


def test_a_practice_game_killed_mid_hand_is_continued(
    tmux_factory: list[Tmux], tmp_path: Path
) -> None:
    t = _start(tmux_factory, tmp_path, (100, 30), "", "C.UTF-8")
    _one_card(t, ENGLISH)
    _kill_client(t)
    t = _start(tmux_factory, tmp_path, (100, 30), "", "C.UTF-8")
    lobby = t.wait_for(r"Continue Practice vs AI: practice, hand 1", 15)
    assert re.search(r"\bc\s+Continue", lobby), lobby
    t.keys("c")
    t.wait_for(re.escape(ENGLISH["hand"]), 30)
    screen = _finish_hand(t, ENGLISH)
    assert "Deal verified" in screen, screen
    _quit(t, tmp_path)
    _no_traceback(tmp_path)


def test_a_practice_game_quit_mid_hand_is_continued_in_italian(
    tmux_factory: list[Tmux], tmp_path: Path
) -> None:
    t = _start(tmux_factory, tmp_path, (80, 24), "", "it_IT.UTF-8")
    _one_card(t, ITALIAN)
    t.keys("q")
    t.wait_for(r"\(s/n\)")
    t.keys("s")
    end = time.monotonic() + 10
    while t._has_session() and time.monotonic() < end:
        time.sleep(0.05)
    assert not t._has_session(), "the client did not exit after quitting"
    t = _start(tmux_factory, tmp_path, (80, 24), "", "it_IT.UTF-8")
    t.wait_for(r"Riprendi Allenamento contro l'IA: allenamento, mano 1", 15)
    t.keys("?")
    t.wait_for(r"c\s+riprendi una partita in sospeso")
    t.keys("Escape")
    t.keys("c")
    t.wait_for(re.escape(ITALIAN["hand"]), 30)
    screen = _finish_hand(t, ITALIAN)
    assert "Mano 1 finita" in screen
    t.keys("q")
    t.wait_for(r"\(s/n\)")
    t.keys("s")
    _no_traceback(tmp_path)
