"""Pure rendering of the partners' signals: what each says, the ones made, the choice of one."""

from __future__ import annotations

from briscola_lan.rules.signals import SignalValue
from briscola_lan.tui.i18n import _
from briscola_lan.tui.render import Frag, nl
from briscola_lan.tui.state import TableModel, UiState


def signal_text(value: SignalValue) -> str:
    """What a signal says, as the player reads it (docs/rules.md, "Signals between partners")."""
    return {
        SignalValue.ACE_OF_TRUMPS: _("the ace of trumps"),
        SignalValue.THREE_OF_TRUMPS: _("the three of trumps"),
        SignalValue.TRUMP_FIGURE: _("a trump figure (king, knight or jack)"),
        SignalValue.SMALL_TRUMP: _("a small trump (7 down to 2)"),
        SignalValue.CARICO: _("a carico (an ace or a three, not trumps)"),
        SignalValue.NOTHING: _("nothing of value"),
    }[value]


def signal_lines(
    model: TableModel, ui: UiState, width: int | None = None, short: bool = False
) -> Frag:
    """At a table that allows signals: what the partner (and I) signalled this hand, in words
    when the line has room for them, else in a word or two; ``short`` (a small terminal's
    Players pane): ``Partner: carico``. The choice of a signal, while the player makes one,
    sits under the hand (``signal_choice``)."""
    out: Frag = []
    if not model.options.signals or model.players != 4:
        return out
    me = model.my_seat
    partner = model.options.partner_of(me)
    for who, label in ((partner, _("Partner's signal")), (me, _("Your signal"))):
        last = next((x for x in reversed(model.signals) if x.seat == who), None)
        if last is None or last.value is None:
            continue
        if short:
            line = (_("Partner: {what}") if who == partner else _("You: {what}")).format(
                what=signal_word(last.value)
            )
        else:
            text = _("{what} (trick {n})").format(what=signal_text(last.value), n=last.trick)
            if width is not None and len(label) + 2 + len(text) > width:
                text = _("{what} (trick {n})").format(what=signal_word(last.value), n=last.trick)
            line = f"{label}: {text}"
        out.append(("class:partner" if who == partner else "class:dim", line))
        nl(out)
    return out


def signal_choice(width: int | None = None) -> Frag:
    """The six signals to choose from, numbered as the keys 1-6 choose them, as many on a line
    as fit, never one broken in two."""
    out: Frag = []
    col = 0
    for i, value in enumerate(SignalValue, 1):
        item = f" {i} {signal_word(value)} "
        if width and col and col + len(item) > width:
            nl(out)
            col = 0
        out.append(("class:bold", f" {i} "))
        out.append(("", signal_word(value) + " "))
        col += len(item)
    return out


def signal_word(value: SignalValue) -> str:
    """A signal in a word or two, for the choice of one."""
    return {
        SignalValue.ACE_OF_TRUMPS: _("ace of trumps"),
        SignalValue.THREE_OF_TRUMPS: _("three of trumps"),
        SignalValue.TRUMP_FIGURE: _("trump figure"),
        SignalValue.SMALL_TRUMP: _("small trump"),
        SignalValue.CARICO: _("carico"),
        SignalValue.NOTHING: _("nothing"),
    }[value]
