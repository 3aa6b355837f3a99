"""Pure rendering of a hand's and a match's result: the sides' labels, the standing, who won."""

from __future__ import annotations

from briscola_lan.rules import MatchFormat
from briscola_lan.tui import chiamata, render_chiamata
from briscola_lan.tui.i18n import _, ngettext
from briscola_lan.tui.render import Frag, nl
from briscola_lan.tui.state import TableModel, UiState


def side_label(model: TableModel, side: int) -> str:
    if model.options.players == 4 and not model.seated:
        return "AB"[side]
    if model.options.players == 4:
        us = model.options.side_of(model.my_seat) == side
        return f"{'AB'[side]} ({_('us') if us else _('them')})"
    return model.who(side)


def standing_text(model: TableModel, short: bool = False) -> str:
    opts = model.options
    sides = range(opts.sides)
    if opts.match_format is MatchFormat.TOTAL:
        tot = model.scores or (0,) * opts.sides
        score = " ".join(chiamata.score_text(tot[s]) for s in sides)
        n = opts.base_hands
        if short:
            text = _("Score {score}")
        else:
            text = ngettext(
                "Match scores {score} ({n} hand)", "Match scores {score} ({n} hands)", n
            )
        return text.format(score=score, n=n)
    if opts.match_format is MatchFormat.HANDS:
        won = model.hands_won or (0,) * opts.sides
        score = "-".join(str(won[s]) for s in sides)
        text = _("Won {score} (to {n})") if short else _("Hands won {score} (first to {n})")
        return text.format(score=score, n=opts.hands_to_win)
    tot = model.total_points or (0,) * opts.sides
    score = "-".join(str(tot[s]) for s in sides)
    text = _("Pts {score} ({n} hands)") if short else _("Match points {score} ({n} hands)")
    return text.format(score=score, n=opts.base_hands)


def hand_winner_text(model: TableModel, winner: int | None) -> tuple[str, str]:
    """(style, text) for who won a hand."""
    if winner is None:
        return "class:bold", _("Nobody wins the hand (a tie).")
    if model.seated and model.options.side_of(model.my_seat) == winner:
        return "class:good", _("You win the hand!") if model.players != 4 else _("Your side wins!")
    name = model.side_name(winner)
    if model.players == 4:
        return "class:bad", _("{names} win the hand.").format(names=name)
    return "class:bad", _("{name} wins the hand.").format(name=name)


def match_result_text(model: TableModel) -> tuple[str, str]:
    """(style, text) for the end of a match: who won, said plainly either way."""
    if model.match_winner is None:
        return "class:bad", _("The match is over, with no winner (aborted).")
    win = model.seated and model.options.side_of(model.my_seat) == model.match_winner
    name = model.side_name(model.match_winner)
    if win and model.players == 4:
        return "class:good", _("YOU WIN THE MATCH, with your partner!")
    if win:
        return "class:good", _("YOU WIN THE MATCH!")
    if model.seated and model.players == 4:
        return "class:bad", _("You lose the match: {names} win it.").format(names=name)
    if model.seated:
        return "class:bad", _("You lose the match: {name} wins it.").format(name=name)
    return "class:bold", _("{name} wins the match.").format(name=name)


def result_lines(
    model: TableModel, ui: UiState, own_verdict: str | None = None, compact: bool = False
) -> Frag:
    """End of a hand: points per side, hand result, standing and the deal verification (with
    ``own_verdict`` in its place when the host blamed my seat: my record's word on it)."""
    res = model.last_result
    assert res is not None
    out: Frag = []
    title = (_("Hand {n} (tie-break) over.") if res.tiebreak else _("Hand {n} over.")).format(
        n=res.number + 1
    )
    out.append(("class:bold", title))
    nl(out)
    label_w = max((len(side_label(model, side)) for side in range(len(res.points))), default=0)
    if res.call is not None:  # five players: the call, and each seat's score
        out.extend(render_chiamata.result_lines(model, ui, compact))
    for side, pts in enumerate(() if res.call is not None else res.points):
        out.append(("", f"  {side_label(model, side):<{label_w}} "))
        out.append(("", ngettext("{n:>3} point", "{n:>3} points", pts).format(n=pts)))
        nl(out)
    if not res.points:
        out.append(("class:bad", _("The hand was aborted.")))
        if not model.match_over:
            nl(out)
            out.append(("", _("It counts for nothing: the same dealer deals again.")))
        nl(out)
    elif res.call is None:
        out.append(hand_winner_text(model, res.winner))
        nl(out)
    if not (compact and res.call is not None):  # (at five, the Players pane has the standing)
        out.append(("", standing_text(model)))
        nl(out)
    v = res.verification
    if v is None:
        out.append(("class:dim", _("Deal check: waiting for the reveals...")))
    elif v.ok is None:
        out.append(("class:dim", _("Deal check:") + " "))
        out.append(("", v.summary))
    elif v.ok:
        out.append(("class:good", _("Deal verified")))
    else:
        out.append(("class:bad", _("Deal check FAILED:") + " "))
        out.append(("", own_verdict or v.summary))
    out.append(("class:dim", "  " + _("[v] details")))
    nl(out)
    if v is not None and v.live is not None:
        out.append(("class:bad", v.live))
        nl(out)
    if model.match_over:
        out.append(match_result_text(model))
        nl(out)
        out.append(("class:turn", _("r: rematch (same table and players)   Esc: lobby")))
    else:
        out.append(("class:turn", _("Press n for the next hand.")))
    out.append(("class:dim", "  " + _("w: review your plays")))
    nl(out)
    return out
