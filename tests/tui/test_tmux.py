"""End to end: the real ``briscola-lan`` command in tmux, a whole hand played with keystrokes.

The screen is read back with ``capture-pane -p`` and checked as a person would read it.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

# "You  NN points" then, on the next line, "<other side>  NN points" (box characters around)
RESULT = r"You\s+(\d+) points[^\n]*\n[^\n]*?([^\s│|][^│|\n]*?)\s+(\d+) points"


class Tmux:
    """One private tmux server running one program."""

    def __init__(self, name: str) -> None:
        self.name = name

    def run(self, *args: str, check: bool = True) -> str:
        tmux = shutil.which("tmux")
        assert tmux, "tmux is needed for the end-to-end client test (apt-get install tmux)"
        out = subprocess.run(
            [tmux, "-L", self.name, *args], capture_output=True, text=True, check=False, timeout=10
        )
        if check and out.returncode != 0:
            raise AssertionError(f"tmux {' '.join(args)} failed: {out.stderr}")
        return out.stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p")

    def keys(self, *keys: str) -> None:
        self.run("send-keys", *keys)

    def _has_session(self) -> bool:
        tmux = shutil.which("tmux") or "tmux"
        r = subprocess.run([tmux, "-L", self.name, "has-session"], capture_output=True, check=False)
        return r.returncode == 0

    def wait_for(self, pattern: str, timeout: float = 15.0) -> str:
        """The screen once ``pattern`` shows on it, in two captures in a row: a capture can
        catch the terminal between two pieces of one frame (the top redrawn, the rest not yet:
        seen on a busy machine), and the second one is taken after the frame is whole."""
        end = time.monotonic() + timeout
        screen = ""
        seen = False
        while time.monotonic() < end:
            screen = self.screen()
            if re.search(pattern, screen):
                if seen:
                    return screen
                seen = True
                time.sleep(0.05)
                continue
            seen = False
            time.sleep(0.05)
        raise AssertionError(f"{pattern!r} never appeared; the screen was:\n{screen}")


def _command(tmp: Path, extra: str) -> str:
    exe = Path(sys.executable).parent / "briscola-lan"
    prog = (
        shlex.quote(str(exe)) if exe.exists() else f"{shlex.quote(sys.executable)} -m briscola_lan"
    )
    env = {
        "XDG_CONFIG_HOME": str(tmp / "config"),
        "XDG_DATA_HOME": str(tmp / "data"),
        "HOME": str(tmp),
        "TERM": "xterm-256color",
    }
    env_text = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
    return (
        f"env {env_text} {prog} --name Tess --ai-level random --ai-delay 0 --interfaces 127.0.0.1 "
        f"--trick-pause 0.2 {extra} 2> {shlex.quote(str(tmp / 'stderr.txt'))}"
    )


_TMUX_MISSING = None if shutil.which("tmux") else "tmux is not installed (apt-get install tmux)"
_REQUIRED = os.environ.get("BRISCOLA_REQUIRE_NETNS") == "1"  # set by .ci/run: no silent skips
pytestmark = pytest.mark.skipif(
    _TMUX_MISSING is not None and not _REQUIRED, reason=f"needs tmux: {_TMUX_MISSING}"
)


@pytest.fixture
def tmux_factory(tmp_path: Path) -> Iterator[list[Tmux]]:
    if _TMUX_MISSING is not None:
        pytest.fail(f"BRISCOLA_REQUIRE_NETNS=1 but {_TMUX_MISSING}")
    made: list[Tmux] = []
    yield made
    for t in made:
        t.run("kill-server", check=False)


def _start(made: list[Tmux], tmp: Path, size: tuple[int, int], extra: str, lang: str) -> Tmux:
    t = Tmux(f"briscola-tui-{os.getpid()}-{uuid.uuid4().hex[:8]}")
    made.append(t)
    cmd = f"LANG={lang} LC_ALL={lang} {_command(tmp, extra)}"
    tmux = shutil.which("tmux")
    assert tmux, "tmux is needed for the end-to-end client test (apt-get install tmux)"
    subprocess.run(
        [tmux, "-L", t.name, "-f", "/dev/null", "new-session", "-d", "-x", str(size[0]), "-y",
         str(size[1]), cmd],
        check=True, timeout=10, env={**os.environ, "LANG": lang, "LC_ALL": lang},
    )  # fmt: skip
    return t


ENGLISH = {"lobby": "Play against AI now", "hand": "Your hand", "over": "Hand 1 over",
           "turn": "Your turn"}  # fmt: skip
ITALIAN = {"lobby": "Gioca subito contro l'IA", "hand": "La tua mano", "over": "Mano 1 finita",
           "turn": "Tocca a te"}  # fmt: skip


def _play_hand(t: Tmux, words: dict[str, str] = ENGLISH, seen: list[str] | None = None) -> str:
    """Start a practice game and press Enter at each turn until the hand is over (every
    screen seen on the way goes to ``seen``)."""
    t.wait_for(re.escape(words["lobby"]))
    t.keys("a")
    t.wait_for(re.escape(words["hand"]))
    end = time.monotonic() + 90
    while time.monotonic() < end:
        screen = t.screen()
        if seen is not None:
            seen.append(screen)
        if words["over"] in screen:
            return screen
        if words["turn"] in screen:
            t.keys("Enter")
        time.sleep(0.03)
    raise AssertionError(f"the hand never ended; the screen was:\n{t.screen()}")


def _quit(t: Tmux, tmp: Path) -> None:
    t.keys("q")
    t.wait_for(r"\(y/n\)")
    t.keys("y")
    end = time.monotonic() + 10
    while t._has_session() and time.monotonic() < end:
        time.sleep(0.05)
    err = (tmp / "stderr.txt").read_text() if (tmp / "stderr.txt").exists() else ""
    assert not t._has_session(), "the client did not exit after quitting"
    assert "Traceback" not in err, err


def test_real_command_plays_a_hand_in_tmux(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (100, 30), "", "C.UTF-8")
    screen = _play_hand(t)
    m = re.search(RESULT, screen)
    assert m, screen
    mine, other, theirs = int(m.group(1)), m.group(2), int(m.group(3))
    assert mine + theirs == 120
    if mine > theirs:
        assert "You win the hand!" in screen
        assert "Hands won 1-0" in screen
    elif theirs > mine:
        assert f"{other} wins the hand." in screen
        assert "Hands won 0-1" in screen
    else:
        assert "Nobody wins the hand" in screen
    assert re.search(r"tricks\s+\d+", screen)
    assert "Deal verified" in screen, screen
    # the transcripts are saved once every seat has acknowledged the hand (just after its end)
    games = tmp_path / "data" / "briscola-lan" / "games"
    end = time.monotonic() + 10
    while len(list(games.glob("*.briscola.json"))) < 2 and time.monotonic() < end:
        time.sleep(0.05)
    saved = sorted(p.name for p in games.glob("*.briscola.json"))
    assert len(saved) == 2 and any(n.endswith("-Tess.briscola.json") for n in saved), saved
    assert "♠" in screen or "♣" in screen or "♥" in screen or "♦" in screen
    _quit(t, tmp_path)


def test_real_command_ascii_mode_in_80x24(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (80, 24), "--ascii", "C.UTF-8")
    screen = _play_hand(t)
    assert all(ord(ch) < 128 for ch in screen), screen
    m = re.search(RESULT, screen)
    assert m, screen
    assert int(m.group(1)) + int(m.group(3)) == 120
    assert "+-" in screen and "|" in screen
    _quit(t, tmp_path)


def test_follow_the_play_hint_and_review_at_100x30(
    tmux_factory: list[Tmux], tmp_path: Path
) -> None:
    t = _start(tmux_factory, tmp_path, (100, 30), "--trick-pause 30", "C.UTF-8")
    t.wait_for(r"Play against AI now")
    t.keys("a")
    screen = t.wait_for(r"Your turn")
    assert screen.count("┌─────┐") == 3 or screen.count("┌─────┐") == 4, screen  # large cards
    t.keys("h")
    hint = t.wait_for(r"Play [AKQJ2-7][♦♥♠♣]: ", 30)
    assert "Hint (h;" in hint
    t.keys("Escape")
    t.keys("1", "Enter")  # a card chosen, then played
    held = t.wait_for(r"takes? the trick: \+\d+ points", 10)
    assert "any key: go on" in held
    assert re.search(r"(takes|wins)", held)
    t.keys("Right")  # a key: the trick goes, nothing else happens
    t.wait_for(r"Your turn|Waiting for", 10)
    seen: list[str] = []
    end = time.monotonic() + 90
    while time.monotonic() < end:
        screen = t.screen()
        if "Hand 1 over" in screen:
            break
        if "any key: go on" in screen or "Your turn" in screen:
            t.keys("Enter")
        seen.append(screen)
        time.sleep(0.05)
    else:
        raise AssertionError(t.screen())
    assert any(" new " in s for s in seen)  # the card drawn after a trick, marked
    t.keys("w")
    review = t.wait_for(
        r"Biggest mistakes?[:,] |No play (cost you a point|is a clear mistake)", 120
    )
    assert "Trick  You   AI    Cost" in review, review
    t.keys("w")
    _quit(t, tmp_path)


def test_the_client_in_italian_with_the_italian_deck(
    tmux_factory: list[Tmux], tmp_path: Path
) -> None:
    t = _start(tmux_factory, tmp_path, (80, 24), "", "it_IT.UTF-8")
    lobby = t.wait_for(r"Gioca subito contro l'IA")
    assert "Tavoli in rete" in lobby and "Impara il gioco" in lobby
    t.keys("?")
    keys = t.wait_for(r"Tasti \(Esc o \? chiude")
    assert "gioca contro" in keys or "ospita un tavolo" in keys or "scegli una carta" in keys
    t.keys("Escape")
    t.keys("a")
    t.wait_for(r"Tocca a te")
    t.keys("h")
    hint = t.wait_for(r"Gioca [A32RCF4-7][◉Ʊ⚔⚚]: ", 30)
    assert "Suggerimento (h;" in hint
    t.keys("Escape")
    seen: list[str] = []
    end = time.monotonic() + 90
    screen = ""
    while time.monotonic() < end:
        screen = t.screen()
        seen.append(screen)
        if "Mano 1 finita" in screen:
            break
        if "Tocca a te" in screen:
            t.keys("Enter")
        time.sleep(0.03)
    else:
        raise AssertionError(f"the hand never ended; the screen was:\n{screen}")
    text = "\n".join(seen)
    assert "Briscola:" in text and "Mazzo:" in text and "◀ vince" in text
    assert re.search(r"[A32RCF4-7][◉Ʊ⚔⚚]", text), "the Italian deck's cards"
    assert not re.search(r"[AKQJ2-7][♦♥♠♣]", text), "no French card in the Italian deck"
    assert re.search(r"(Denari|Coppe|Spade|Bastoni)", text)
    assert re.search(r"\d+ punti", screen) and "Mani vinte" in screen, screen
    assert "Distribuzione verificata" in screen, screen
    assert "Hai vinto la mano!" in screen or "vince la mano." in screen or "patta" in screen
    t.keys("w")
    t.wait_for(
        r"Errore più grande: presa \d+|Errori più grandi, costati"
        r"|Nessuna giocata (ti è costata un punto|è un errore chiaro)",
        120,
    )
    t.keys("w")
    t.keys("q")
    confirm = t.wait_for(r"Lasciare la partita\?")
    assert "La partita non è finita." in confirm and "(s/n)" in confirm, confirm
    assert "(y/n)" not in confirm, "an Italian prompt takes s/n"
    t.keys("s")
    end = time.monotonic() + 10
    while t._has_session() and time.monotonic() < end:
        time.sleep(0.05)
    assert not t._has_session()


def test_learn_mode_and_saved_games_in_italian(tmux_factory: list[Tmux], tmp_path: Path) -> None:
    t = _start(tmux_factory, tmp_path, (80, 24), "--lang it --deck french --ascii", "C.UTF-8")
    t.wait_for(r"Gioca subito contro l'IA")
    t.keys("l")
    t.wait_for(r"Impara la Briscola")
    t.keys("Right")
    suits = t.wait_for(r"I quattro semi")
    for name in ("quadri", "cuori", "picche", "fiori"):
        assert name in suits, suits
    t.keys("Right")
    trick = t.wait_for(r"Presa 1 di 4")
    assert "Ah vince la presa" in trick and "carta di cuori" in trick, trick
    t.keys("Escape")
    t.keys("s")
    saved = t.wait_for(r"Partite salvate in ")
    assert "Nessuna partita salvata" in saved
    t.keys("Escape")
    t.keys("q")
