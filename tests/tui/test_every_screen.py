"""Every screen of the client, read back from a terminal (pyte), in English and Italian: usable at
60x20 (nothing "too small", the keys line always says ``?``, whole names on the trick, a mark
never broken from its card) and, in Italian, not one English word (the catalog's English words
that no Italian text uses, and "AI") on any screen, at 60x20 and 80x24, with no ``y/n`` prompt."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from briscola_lan.tui import catalog, i18n
from briscola_lan.tui.deck import Deck

from .helpers import running, wait_for
from .tour import Shots, tour

ITALIAN_DECK_WORDS = {"denari", "coppe", "spade", "bastoni"}  # the Italian deck's own names


@pytest.fixture
def italian() -> Iterator[None]:
    i18n.set_language("it")
    yield
    i18n.set_language("en")


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-zÀ-ÿ']{3,}", re.sub(r"\{[^}]*\}", " ", text))}


def english_only_words() -> set[str]:
    """Words of the client's English texts that no Italian text of the catalog uses."""
    po = catalog.read_po(catalog.po_files()[0])
    english: set[str] = set()
    italian: set[str] = set()
    for e in po.values():
        if e.msgid:
            english |= _words(e.msgid) | _words(e.plural or "")
            for text in e.msgstr:
                italian |= _words(text)
    return english - italian - ITALIAN_DECK_WORDS


def english_on(shots: Shots) -> list[str]:
    """Every line of ``shots`` with an English word, and the word(s)."""
    only = english_only_words()
    found = []
    for name, lines in shots.items():
        for shown in lines:
            line = re.sub(r"/\S+", " ", shown)  # a folder's path is the player's own words
            # whole words only: not the letters of a fingerprint ("3e0f-ace3")
            words = re.findall(r"(?<![\w-])[A-Za-zÀ-ÿ']{3,}(?![\w-])", line)
            bad = [w for w in words if w.lower() in only]
            bad += re.findall(r"\bAI\b|\(y/n\)", line)
            if bad:
                found.append(f"{name}: {bad} in {line.strip()!r}")
    return found


def test_the_english_detector_finds_english() -> None:
    only = english_only_words()
    assert {"trick", "hand", "points", "taken"} <= only
    assert not {"briscola", "punti", "mano"} & only
    shots = {"x": ["│Mano 1 finita.   │", "│You take the trick: +4 │", "│IA regole 1 │"]}
    assert [f for f in english_on(shots) if "take" in f] and len(english_on(shots)) == 1
    assert english_on({"y": ["AI rules 1", "(y/n)"]})
    assert not english_on({"z": ["│ee54-e9ed-3e0f-ace3 │"]})


def _checks_at_60x20(shots: Shots, names: list[str]) -> None:
    """The small-terminal promises, screen by screen."""
    assert len(shots) >= 55, sorted(shots)
    for name, lines in shots.items():
        text = "\n".join(lines)
        assert "Window too small" not in text, f"{name}:\n{text}"
        assert all(len(line) <= 60 for line in lines), f"{name}:\n{text}"
        last = lines[-1]
        prompt = name.endswith("prompt")  # its two keys are the only ones then, both shown
        assert prompt or "?" in last, f"{name}: the keys line lacks '?':\n{text}"
        for line in lines:  # a winning mark stays with its word: "◀ takes it", never "◀" alone
            assert not re.search(r"◀\s*│", line), f"{name}:\n{text}"
        if name.startswith(("table ", "held trick", "the stock's end")):
            players = int(name[-2])
            for who in names[1:players]:  # the other players' names, whole, on the table
                assert who in text, f"{name}: {who}\n{text}"


async def test_every_screen_at_60x20_in_english(tmp_path: Path) -> None:
    shots = await tour((60, 20), tmp_path / "games")
    _checks_at_60x20(shots, ["You", "AI random 1", "AI random 2", "AI random 3"])
    assert "◀ takes it" in "\n".join(shots["held trick 2p"])
    assert "taken by" in "\n".join(shots["the stock's end 4p"])
    assert "Match summary" in "\n".join(shots["end of match summary 3p"])
    assert "tricks" in "\n".join(shots["points hidden 4p"])
    assert "pts" not in "\n".join(shots["points hidden 4p"]).split("Won")[0]
    stats = "\n".join(shots["statistics"])
    assert "From 3 of your matches" in stats and "Matches: 3 finished" in stats, stats
    assert "AI random" in stats
    checking = "\n".join(shots["statistics, checking"])
    assert "Checking the saved games" in checking or "From 3 of your matches" in checking
    assert "VERIFIED" in "\n".join(shots["saved game checked"])
    finished = next(line for line in shots["lobby"] if "Giardino" in line)
    assert "over" in finished


def _italian_checks(shots: Shots) -> None:
    assert not english_on(shots), "\n".join(english_on(shots))
    assert "(s/n)" in "\n".join(shots["quit prompt"])
    for name, lines in shots.items():  # a card is never glued to the word before it
        for line in lines:
            assert not re.search(r"[a-zà-ù][A32RCF4-7][◉Ʊ⚔⚚]", line), f"{name}: {line}"


# The two sizes are two tests: each tour plays three matches, and the test workers run them
# side by side.
async def test_every_screen_in_italian_at_60x20_has_no_english(
    tmp_path: Path, italian: None
) -> None:
    small = await tour((60, 20), tmp_path / "partite", Deck.ITALIAN)
    _checks_at_60x20(small, ["Tu", "IA casuale 1", "IA casuale 2", "IA casuale 3"])
    _italian_checks(small)


async def test_every_screen_in_italian_at_80x24_has_no_english(
    tmp_path: Path, italian: None
) -> None:
    big = await tour((80, 24), tmp_path / "altre", Deck.ITALIAN)
    _italian_checks(big)
    stats = "\n".join(big["statistics"])
    assert "Partite finite: 3" in stats and "IA casuale" in stats, stats
    assert "Riepilogo della partita" in "\n".join(big["end of match summary 4p"])


async def test_the_italian_quit_prompt_takes_s(italian: None) -> None:
    async with running() as d:
        c = d.client
        await d.keys("a")
        await wait_for(lambda: c.model.started, what="the deal")
        await d.keys("q")
        assert c.ui.confirm_quit and "(s/n)" in "".join(f[1] for f in c._confirm_text())
        assert "s:" in "".join(f[1] for f in c._hints(80))
        await d.keys("s")
        await wait_for(d.task.done, 15, "the client to quit")
