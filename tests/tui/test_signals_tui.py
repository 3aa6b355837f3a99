"""Signals between partners in the terminal client: the host form's option, g then 1-6 to signal,
the partner's signal shown at the table, a second signal in a trick refused, Esc to give none."""

from __future__ import annotations

from pathlib import Path

from briscola_lan.rules.signals import SignalValue
from briscola_lan.tui import render, render_menus, render_signals, render_table
from briscola_lan.tui.state import UiState

from .helpers import DOWN, ENTER, ESC, RIGHT, net_config, running, wait_for


def _text(frags: render.Frag) -> str:
    return "".join(f[1] for f in frags)


async def test_a_signal_to_the_partner_from_the_table(tmp_path: Path) -> None:
    async with running(net_config(tmp_path)) as d:
        ui, client = d.client.ui, d.client
        await d.keys("h", DOWN, RIGHT, RIGHT)  # 4 players
        assert ui.form.players == 4
        assert "signals" in render_menus.form_rows(ui.form)
        await d.keys(DOWN, DOWN, DOWN, DOWN, " ")  # the signals row: on
        assert ui.form.signals is True
        await d.keys(ENTER)
        model = client.model
        await wait_for(lambda: model.started and model.trump is not None, 20, "the deal")
        assert model.options.signals
        # the AI partner (seat 2) tells what it holds, at its first chance
        await wait_for(lambda: any(x.seat == 2 for x in model.signals), 20, "its signal")
        partner = next(x for x in model.signals if x.seat == 2)
        assert partner.value is not None  # the partner's signal is readable
        table = _text(render_table.table_lines(model, ui, 80))
        assert "Partner's signal: " + render_signals.signal_text(partner.value) in table, table
        # on my turn (the trick waits for me): g opens the choice, Esc closes it
        await wait_for(lambda: model.my_turn, 20, "my turn")
        await d.keys("g")
        assert ui.signalling
        assert "1 ace of trumps" in _text(render_signals.signal_choice())  # under the hand
        assert client._aside() == "signal"
        assert "1-6: the signal" in _text(client._hints(100))
        hand = model.hand
        await d.keys(ESC)
        assert not ui.signalling and model.hand == hand  # no card played, no signal
        assert not any(x.seat == model.my_seat for x in model.signals)
        # g, 2: the three of trumps (a bluff is allowed)
        await d.keys("g", "2")
        await wait_for(lambda: any(x.seat == model.my_seat for x in model.signals), 10, "mine")
        mine = next(x for x in model.signals if x.seat == model.my_seat)
        assert mine.value is SignalValue.THREE_OF_TRUMPS and model.hand == hand
        assert "Your signal: " + render_signals.signal_text(SignalValue.THREE_OF_TRUMPS) in _text(
            render_table.table_lines(model, ui, 80)
        )
        # a second signal in the same trick (still my turn) is refused, and says so
        await d.keys("g", "6")
        await wait_for(lambda: model.error is not None, 5, "the refusal")
        assert "already signalled" in (model.error or "")
        assert len([x for x in model.signals if x.seat == model.my_seat]) == 1
        # the card keys play again
        await d.keys(ENTER)
        await wait_for(lambda: model.hand != hand, 10, "my card played (and the draw)")


def test_the_signal_texts_and_the_help() -> None:
    assert len({render_signals.signal_text(v) for v in SignalValue}) == len(SignalValue)
    keys = dict(render_menus.help_table())
    assert "g" in keys and "partner" in keys["g"]
    assert _text(render_signals.signal_lines(_no_signals(), UiState())) == ""


def _no_signals():  # type: ignore[no-untyped-def]
    from briscola_lan.tui.state import TableModel

    return TableModel()
