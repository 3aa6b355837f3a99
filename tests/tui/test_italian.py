"""The client in Italian, headless (the language chosen as ``--lang it`` does): the table, the
held trick, the hint, the review, the end of a match with its rematch, learn mode and the
saved-games screen all speak Italian, with the Italian deck."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from briscola_lan.tui import i18n, learn
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.deck import Deck

from .helpers import DOWN, ENTER, LEFT, RIGHT, running, wait_for


@pytest.fixture(autouse=True)
def italian() -> Iterator[None]:
    i18n.set_language("it")
    yield
    i18n.set_language("en")


def _cfg(**kw: object) -> ClientConfig:
    base: dict[str, object] = {"name": "Anna", "ai_level": "random", "ai_delay": 0.0,
                               "deck": Deck.ITALIAN, "trick_pause": 0.0,
                               "settle": 0.0}  # fmt: skip
    base.update(kw)
    return ClientConfig(**base)  # type: ignore[arg-type]


def _text(frags: object) -> str:
    return "".join(f[1] for f in frags)  # type: ignore[attr-defined]


@pytest.mark.review_worker
async def test_a_hand_in_italian_held_trick_hint_and_review() -> None:
    async with running(_cfg(trick_pause=60.0)) as d:
        c = d.client
        assert "Gioca subito contro l'IA" in _text(c._lobby_menu(80))
        await d.keys("a")
        await wait_for(lambda: c.model.my_turn, what="my turn")
        table = _text(c._table_text(60))
        assert "Tocca a te: scegli una carta, Invio la gioca" in table, table
        assert "Mazzo:" in table and any(
            s in table for s in ("Denari", "Coppe", "Spade", "Bastoni")
        )
        await d.keys("h")
        await wait_for(lambda: c.coach.hint_card is not None, 30, "the hint")
        assert c.coach.hint_text.startswith("Gioca "), c.coach.hint_text
        await d.keys("\x1b", ENTER)
        await wait_for(lambda: c.ui.follow.held is not None, what="the trick held")
        held = _text(c._table_text(60))
        assert "Prendi tu: +" in held or "Prende Bot 1: +" in held, held
        assert "un tasto qualsiasi: avanti" in _text(c._hints(100))
        await d.keys(RIGHT)
        assert c.ui.follow.held is None
        c.config.trick_pause = 0.0
        while not c.model.hand_over:
            if c.model.my_turn:
                before = c.model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: c.model.changes > b, what="my play")
            else:
                await wait_for(lambda: c.model.my_turn or c.model.hand_over, what="a turn")
        over = _text(c._table_text(60))
        assert "Mano 1 finita." in over and "Premi n per la mano seguente." in over, over
        await d.keys("w")
        await wait_for(lambda: 0 in c.coach.reviews, 120, "the review")
        review = _text(c.coach.review_lines(c.ui))
        assert any(
            head in review for head in ("Errore più grande: presa", "Errori più grandi, costati",
                                        "Nessuna giocata")
        ), review  # fmt: skip
        assert "Presa  Tu    IA    Costo" in review
        # Italian writes a decimal comma: "circa 18,5 punti", never "18.5"
        assert re.search(r"circa \d+,\d punti rispetto", review), review
        assert not re.search(r"\d\.\d", review), review
        assert any("ha preso" in line or "Hai preso" in line for line in c.model.log)


async def test_the_end_of_a_match_and_the_rematch_in_italian() -> None:
    async with running(_cfg()) as d:
        c = d.client
        await d.keys("h", DOWN, DOWN, DOWN, LEFT, ENTER)  # one hand wins the match
        while not c.model.match_over:
            if c.model.hand_over and c.model.last_result is not None:
                await d.keys("n")  # a 60-60 tie: another hand
            elif c.model.my_turn:
                before = c.model.changes
                await d.keys(ENTER)
                await wait_for(lambda b=before: c.model.changes > b, what="my play")
            await wait_for(lambda: c.model.my_turn or c.model.hand_over, 15, "a turn")
        text = _text(c._table_text(70))
        assert "HAI VINTO LA PARTITA!" in text or "Hai perso la partita: l'ha vinta" in text
        assert "r: rivincita (stesso tavolo e giocatori)" in text, text
        old = c.backend
        await d.keys("r")
        await wait_for(lambda: c.backend is not old and c.model.started, 10, "the rivincita")
        assert not c.model.match_over


async def test_learn_mode_and_saved_games_in_italian() -> None:
    async with running(_cfg()) as d:
        c = d.client
        await d.keys("l", RIGHT)
        suits = "".join(f[1] for f in learn.page_lines(c.ui))
        assert "I quattro semi" in suits and "Bastoni" in suits
        await d.keys(RIGHT, RIGHT)
        trick = "".join(f[1] for f in learn.page_lines(c.ui))
        assert "Bastoni sono la briscola" in trick, trick
        await d.keys("\x1b", "s")
        assert "Nessuna partita salvata" in "\n".join(c.ui.saved_report)


def test_ai_players_and_why_discovery_is_off_speak_italian() -> None:
    from briscola_lan.net.discovery import DiscoveryError
    from briscola_lan.table import events as ev
    from briscola_lan.tui import eventlog
    from briscola_lan.tui.discovery_off import discovery_reason
    from briscola_lan.tui.state import SeatInfo, TableModel, player_name

    # an AI seat is named from its level and seat (structured data), never from the host's text
    assert player_name("AI rules 1", "rules", 1) == "IA regole 1"
    assert player_name("AI strong 3", "strong", 3) == "IA forte 3"
    assert player_name("AI rules 1") == "AI rules 1"  # a person who calls themselves so
    assert player_name("anything", "random", 2) == "IA casuale 2"
    model = TableModel(seats=[SeatInfo(0, "Anna"), SeatInfo(1, "IA casuale 1", is_ai=True)])
    assert model.name_of(1) == "IA casuale 1" and model.name_of(0) == "Anna"
    said = eventlog.render(ev.MatchStarted(("Anna", "AI rules 1"), ("", "rules")))
    assert said == "la partita è iniziata: Anna, IA regole 1", said
    person = eventlog.render(ev.MatchStarted(("Anna", "AI rules 1"), ("", "")))
    assert person == "la partita è iniziata: Anna, AI rules 1", person
    # statistics name an AI opponent by its level alone (stats.opponent_label)
    from briscola_lan.stats import opponent_label
    from briscola_lan.tui.statsview import opponent_name

    assert opponent_name(opponent_label("", "strong")) == "IA forte"
    assert opponent_name(opponent_label("Bea", "")) == "Bea"
    off = DiscoveryError("x", "cannot-start", where="['10.9.9.9']", why="[Errno 19] No such device")
    reason = discovery_reason(off)
    assert reason.startswith("impossibile avviare mDNS su ['10.9.9.9']: [Errno 19]"), reason
    assert "Scegli indirizzi di questo computer" in reason


def test_every_reason_discovery_is_off_is_italian() -> None:
    """Why discovery is off comes from the error's kind and parts, never from its English."""
    from briscola_lan.net.discovery import DiscoveryError, resolve_interfaces
    from briscola_lan.tui.discovery_off import discovery_reason

    def raised(given: list[str], env: dict[str, str]) -> DiscoveryError:
        with pytest.raises(DiscoveryError) as info:
            resolve_interfaces(given, env)
        return info.value

    errors = [
        DiscoveryError("no LAN interface with an IPv4 address was found", "no-lan"),
        raised(["lan"], {}),
        raised(["224.0.0.1"], {}),
        raised([], {"BRISCOLA_LAN_INTERFACES": "x"}),
    ]
    said = [discovery_reason(e) for e in errors]
    assert said[0].startswith("nessuna interfaccia"), said
    assert "'lan'" in said[1] and "'224.0.0.1'" in said[2] and "BRISCOLA_LAN_INTERFACES" in said[3]
    for text, error in zip(said, errors, strict=True):
        assert text != str(error) and "addresses" not in text, text
    assert discovery_reason(OSError("disk full")) == "disk full"  # the system's own words
