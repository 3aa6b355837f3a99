"""A tour of every screen of the client on a pyte terminal, for the tests that check them all
(small terminals, the Italian client): the lobby with tables, the help, the host form at 2, 3
and 4 players, learn mode page by page, a whole match at 2, 3 and 4 players through the real
protocol (the table, a held trick, the stock's end, the hint, the end of a hand, the summary,
the review, the verification, the end of the match), the quit prompt, the saved games with
one game checked, and the statistics."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.deck import Deck
from briscola_lan.tui.state import LobbyEntry, Screen

from .helpers import DOWN, ENTER, ESC, LEFT, PGDN, RIGHT, net_config, screen_of, wait_for
from .helpers import Screen as Term

Shots = dict[str, list[str]]


def tour_config(games: Path, deck: Deck) -> ClientConfig:
    """A client with the network parts on loopback, its own identity and games folder."""
    cfg = net_config(games.parent)
    cfg.games = games
    cfg.name = "Anna"
    cfg.deck = deck
    cfg.identity = Identity.generate()
    cfg.trick_pause = 60.0  # a held trick stays until a key
    return cfg


async def _shoot(t: Term, shots: Shots, name: str) -> None:
    shots[name] = await t.lines()


async def _until(t: Term, cond: Callable[[], bool], timeout: float = 60) -> None:
    """Play (Enter at my turn, n after a hand, any key on a held trick) until ``cond``."""
    c = t.d.client

    async def step() -> None:
        while not cond():
            m = c.model
            if c.ui.follow.held is not None:
                await t.d.keys(RIGHT)
            elif m.hand_over and not m.match_over:
                await t.d.keys("n")
            elif m.my_turn:
                before = m.changes
                await t.d.keys(ENTER)
                await wait_for(lambda b=before: c.model.changes > b or cond(), 15, "my play")
            else:
                await asyncio.sleep(0.01)

    await asyncio.wait_for(step(), timeout)


async def _match(t: Term, shots: Shots, players: int) -> None:
    c = t.d.client
    c.ui.form.row, c.ui.form.players, c.ui.form.hands_to_win = 0, 2, 2
    keys = ["h", DOWN, *([RIGHT] * (players - 2))]
    if players != 3:
        keys += [DOWN, DOWN, LEFT]  # the hands format, one hand to win
    await t.d.keys(*keys, ENTER)
    p = f"{players}p"
    await wait_for(lambda: c.model.my_turn, 30, "my first turn")
    await _shoot(t, shots, f"table {p}")
    await t.d.keys("1", ENTER)
    await wait_for(lambda: c.ui.follow.held is not None, 15, "the trick held")
    await _shoot(t, shots, f"held trick {p}")
    await _until(t, lambda: c.model.upcard_taken_by is not None and c.model.my_turn)
    await _shoot(t, shots, f"the stock's end {p}")
    await t.d.keys("h")
    await wait_for(lambda: c.coach.hint_card is not None, 60, "the hint")
    await _shoot(t, shots, f"hint {p}")
    await t.d.keys(ESC, "p")
    await _shoot(t, shots, f"points hidden {p}")
    await t.d.keys("p", "m")
    await _shoot(t, shots, f"summary mid-match {p}")
    await t.d.keys("m")
    await _until(t, lambda: c.model.hand_over and c.model.last_result is not None
                 and c.model.last_result.verification is not None)  # fmt: skip
    if not c.model.match_over:
        await _shoot(t, shots, f"end of hand {p}")
        await t.d.keys("v")
        await _shoot(t, shots, f"verification {p}")
        await t.d.keys("v")
        if players == 3:  # (the strong AI's review costs seconds of CPU: once is enough)
            await t.d.keys("w")
            await wait_for(lambda: c.model.hand_results[-1].number in c.coach.reviews, 120,
                           "the review")  # fmt: skip
            await _shoot(t, shots, f"review {p}")
            await t.d.keys("w")
    await _until(t, lambda: c.model.match_over, 180)
    if c.ui.follow.held is not None:
        await _shoot(t, shots, f"the last trick {p}")
        await t.d.keys(RIGHT)
    await wait_for(lambda: c.ui.show_summary, 10, "the summary")
    await _shoot(t, shots, f"end of match summary {p}")
    await t.d.keys(ESC)
    await _shoot(t, shots, f"end of match {p}")
    await t.d.keys(ESC)
    await wait_for(lambda: c.ui.screen is Screen.LOBBY, 10, "the lobby")


async def tour(
    size: tuple[int, int], games: Path, deck: Deck = Deck.FRENCH, shots: Shots | None = None
) -> Shots:
    """Every screen of the client at ``size``, by name (in the language set before), into
    ``shots`` as they are taken (what was seen stays there if the tour stops on the way)."""
    shots = {} if shots is None else shots
    async with screen_of(size, tour_config(games, deck)) as t:
        c = t.d.client
        await _shoot(t, shots, "lobby empty")
        c.set_lobby([
            LobbyEntry("k1", "Cucina", "192.0.2.7", "4p hands:2 exchange", 2, 4, 2,
                       address="192.0.2.7:4000", deal="blind"),
            LobbyEntry("k2", "Giardino", "192.0.2.8", "3p points:3 no-2d drawn-dealer", 3, 3, 0,
                       address="192.0.2.8:4000", phase="over"),
        ])  # fmt: skip
        await _shoot(t, shots, "lobby")
        await t.d.keys("?")
        for page in range(6):
            await _shoot(t, shots, f"help {page}")
            await t.d.keys(PGDN)
        await t.d.keys(ESC, "h", DOWN)
        for players in (2, 3, 4):
            await _shoot(t, shots, f"host form {players}p")
            await t.d.keys(RIGHT)
        await t.d.keys(ESC, "l")  # (the form is back at 2 players)
        from briscola_lan.tui import learn

        for step in range(learn.last_step() + 1):
            await _shoot(t, shots, f"learn {step}")
            if step < learn.last_step():
                await t.d.keys(RIGHT)
        await t.d.keys(ESC)
        for players in (2, 3, 4):
            await _match(t, shots, players)
        await t.d.keys("a")
        await wait_for(lambda: c.model.my_turn, 30, "my turn")
        await t.d.keys("q")
        await _shoot(t, shots, "quit prompt")
        await t.d.keys("n", ESC, "n")  # (the same prompt, to the lobby)
        await wait_for(lambda: not c.ui.confirm_quit, 5, "no prompt")
        if c.ui.screen is Screen.TABLE:
            await t.d.keys(ESC)
            await _shoot(t, shots, "leave prompt")
            await t.d.keys("y")
        await wait_for(lambda: c.ui.screen is Screen.LOBBY, 10, "the lobby")
        await t.d.keys("s")
        await wait_for(lambda: c.saved_games is not None and len(c.saved_games.games)
                       == len(c.ui.saved_files), 60, "the saved games")  # fmt: skip
        await _shoot(t, shots, "saved games")
        await t.d.keys(ENTER)
        await _shoot(t, shots, "saved game checked")
        await t.d.keys(ESC, "t")
        await _shoot(t, shots, "statistics, checking")
        view = c.stats_view
        await wait_for(lambda: view is not None and view.stats is not None, 60, "the stats")
        await _shoot(t, shots, "statistics")
        await t.d.keys(PGDN)
        await _shoot(t, shots, "statistics, scrolled")
        await t.d.keys(ESC)
    return shots
