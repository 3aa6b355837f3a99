"""The terminal's bell: it rings when a move falls to the player after a wait (the others took
their time), never in a practice game whose AI players answer at once, and never with
``--no-bell``."""

from __future__ import annotations

from briscola_lan import cli
from briscola_lan.tui.bell import MoveBell
from briscola_lan.tui.command import build_config
from briscola_lan.tui.config import BELL_AFTER, ClientConfig

from .helpers import ENTER, running, wait_for


async def _plays_and_bells(config: ClientConfig, plays: int) -> int:
    """Play the first card of the hand ``plays`` times in a practice game; the bells rung."""
    rung: list[int] = []
    async with running(config) as d:
        d.client.app.output.bell = lambda: rung.append(1)  # type: ignore[method-assign]
        await d.keys("a")
        m = d.client.model
        for n in range(plays):
            # the turn with the card drawn after the trick (the stock is far from empty)
            await wait_for(lambda: m.my_turn and len(m.hand) == 3, what=f"turn {n}")
            card = d.client.shown_hand()[0]
            await d.keys("1", ENTER)
            await wait_for(lambda c=card: c not in m.hand, what=f"play {n}")
    return len(rung)


def _config(**kw: object) -> ClientConfig:
    return ClientConfig(name="Tess", ai_level="random", trick_pause=0.0, settle=0.0, **kw)  # type: ignore[arg-type]


async def test_the_bell_rings_when_a_move_comes_after_a_wait() -> None:
    # Each of the AI's cards takes 0.3 s, over the 0.2 s wait that rings. The player's turn
    # comes after one at least every other play: a card led waits for the AI's answer (only
    # a trick taken by answering the AI's lead gives the next lead at once).
    bells = await _plays_and_bells(_config(ai_delay=0.3, bell_after=0.2), plays=4)
    assert bells >= 2


async def test_no_bell_when_the_moves_come_at_once_or_with_no_bell() -> None:
    assert BELL_AFTER >= 5  # longer than AI players take at any table (0.6 s a card each)
    assert await _plays_and_bells(_config(ai_delay=0.3), plays=4) == 0
    assert await _plays_and_bells(_config(ai_delay=0.3, bell_after=0.2, bell=False), plays=4) == 0


def test_no_bell_on_the_command_line_reaches_the_client() -> None:
    parser = cli.build_parser("play")
    assert build_config(parser.parse_args(["play", "--name", "Tess"])).bell
    assert not build_config(parser.parse_args(["play", "--no-bell", "--name", "Tess"])).bell
    join = cli.build_parser("join")
    assert join.parse_args(["join", "somewhere"]).bell
    assert not join.parse_args(["join", "somewhere", "--no-bell"]).bell


def test_the_bell_rings_once_a_move_is_due_after_the_wait_and_not_again() -> None:
    """The rule on a clock of its own: a move due (a card, a bid, the suit to call) after
    ``after`` seconds with none due rings once; a move due again at once does not."""
    bell = MoveBell(after=5.0)
    bell.reset(100.0)  # the table opens, the others play
    assert not bell.check(True, 104.9)  # 4.9 s later: not a wait
    assert not bell.check(False, 105.0)
    assert bell.check(True, 110.0)  # after 5 s: rings
    assert not bell.check(True, 111.0)  # still the same move
    assert not bell.check(True, 111.1)  # a trick taken by the answer: the next lead at once
    assert not bell.check(False, 112.0)
    assert bell.check(True, 120.0)
    off = MoveBell(after=5.0, on=False)
    off.reset(100.0)
    assert not off.check(True, 200.0)
