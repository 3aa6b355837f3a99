"""The statistics screen: what ``briscola-lan stats`` shows, in the player's language, from the
same reader (``stats_read.collect``: every saved game verified, one file per match) run in a
thread with a progress line, so the screen answers while the files are checked."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.choices import AI_LEVELS
from briscola_lan.stats import HandLine, Stats, Tally, opponent_label
from briscola_lan.stats_read import Collected
from briscola_lan.tui.i18n import _, decimal, ngettext
from briscola_lan.tui.render import fit_name
from briscola_lan.tui.state import UiState, ai_name
from briscola_lan.tui.widgets import hang

Frag = StyleAndTextTuples
TOP = 3  # best and worst hands shown, as ``briscola-lan stats`` shows by default


@dataclass(slots=True)
class StatsView:
    """The statistics being read (``done`` of ``total`` files so far), then what they say."""

    directory: Path
    me: list[bytes]
    done: int = 0
    total: int = 0
    collected: Collected | None = None
    stats: Stats | None = None
    error: str | None = None

    async def fill(self, changed: Callable[[], None]) -> None:
        """Verify the saved games in a worker thread, telling ``changed`` as files are done."""
        from briscola_lan.stats import summarize
        from briscola_lan.stats_read import collect

        loop = asyncio.get_running_loop()

        def progress(done: int, total: int) -> None:
            self.done, self.total = done, total
            loop.call_soon_threadsafe(changed)

        if not self.me:
            changed()
            return
        try:
            collected = await asyncio.to_thread(collect, self.directory, self.me, "", progress)
        except OSError as exc:
            self.error = str(exc)
        else:
            self.collected = collected
            self.stats = summarize(collected.lines, top=TOP)
        changed()


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _avg(value: float | None) -> str:
    return "-" if value is None else decimal(value)


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


# The table's columns, in the order they give way when the screen is narrow (last first).
def _columns() -> list[tuple[str, Callable[[Tally], str]]]:
    return [
        (_("matches"), lambda t: str(t.matches)),
        (_("won"), lambda t: str(t.won)),
        (_("won%"), lambda t: _pct(t.won, t.matches)),
        (_("avg pts"), lambda t: _avg(t.average)),
        (_("lost"), lambda t: str(t.lost)),
        (_("hands"), lambda t: str(t.hands)),
        (_("against"), lambda t: _avg(t.average_against)),
    ]


def _table(title: str, rows: dict[str, Tally], width: int, ascii_only: bool) -> Frag:
    """A titled table of tallies, its columns as many as the width holds (the label first)."""
    out: Frag = [("class:bold", title + "\n")]
    cols = _columns()
    cells = [[fn(t) for _h, fn in cols] for t in rows.values()]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, (h, _fn) in enumerate(cols)]
    label_w = max(len(label) for label in rows)
    keep = len(cols)
    while keep > 2 and 2 + min(label_w, 12) + sum(w + 1 for w in widths[:keep]) > width:
        keep -= 1
    label_w = max(4, min(label_w, width - 2 - sum(w + 1 for w in widths[:keep])))
    head = "".join(f" {h:>{w}}" for (h, _fn), w in zip(cols[:keep], widths, strict=False))
    out.append(("class:dim", f"  {'':<{label_w}}{head}\n"))
    for (label, _t), row in zip(rows.items(), cells, strict=True):
        figures = "".join(f" {c:>{w}}" for c, w in zip(row[:keep], widths, strict=False))
        out.append(("", f"  {fit_name(label, label_w, ascii_only):<{label_w}}{figures}\n"))
    return out


# Statistics name an AI opponent by its level alone (``stats.opponent_label``): the player's
# words for each such label, from the levels a table seats.
_AI_LABELS = {opponent_label("", level): level for level in AI_LEVELS}


def opponent_name(label: str) -> str:
    """An opponent as statistics name it (``stats.opponent_label``), in the player's words."""
    level = _AI_LABELS.get(label)
    return label if level is None else ai_name(level)


def _hand(h: HandLine, width: int) -> Frag:
    """One of the best or worst hands: its date and score, then where and against whom."""
    against = ", ".join(opponent_name(o) for o in dict.fromkeys(h.opponents))
    what = _("hand {n} at '{table}' against {names}").format(
        n=h.number, table=h.table, names=against
    )
    return hang([("", f"  {_when(h.when)}  {h.mine:>3}-{h.theirs:<3} ")], [("", what)], width)


def stats_lines(view: StatsView | None, ui: UiState, width: int) -> Frag:
    """The statistics screen, for the player's width."""
    out: Frag = []
    if view is None:
        return out
    if not view.me:
        out.append(("", _("You have not played on this computer yet: no statistics.") + "\n"))
        return out
    if view.error is not None:
        out.append(("class:error", _("Could not read the saved games: {error}").format(
            error=view.error) + "\n"))  # fmt: skip
        return out
    st, c = view.stats, view.collected
    if st is None or c is None:
        text = _("Checking the saved games: {done} of {total}...").format(
            done=view.done, total=view.total or "?"
        )
        out.append(("class:dim", text + "\n"))
        return out
    left = []
    if c.failed:
        left.append(ngettext("{n} that does not verify", "{n} that do not verify", c.failed)
                    .format(n=c.failed))  # fmt: skip
    if c.others:
        left.append(ngettext("{n} of another player's match", "{n} of other players' matches",
                             c.others).format(n=c.others))  # fmt: skip
    head = ngettext(
        "From {n} of your matches in {files} saved files",
        "From {n} of your matches in {files} saved files",
        len(st.lines),
    ).format(n=len(st.lines), files=c.files)
    if left:
        head += " " + _("(left out: {what})").format(what=", ".join(left))
    out.append(("class:dim", head + "\n"))
    if not st.lines:
        out.append(("", _("No match of yours to count yet: play one, it is saved when it ends.")))
        return out
    t = st.total
    matches = _("Matches: {m} finished, {w} won, {l} lost ({pct})").format(
        m=t.matches, w=t.won, l=t.lost, pct=_pct(t.won, t.matches)
    )
    if st.unfinished:
        matches += "; " + _("{n} unfinished").format(n=st.unfinished)
    out.append(("class:bold", matches + "\n"))
    tied = sum(1 for h in st.hands if h.result == "tied")
    hands = _("Hands: {h} played, {w} won, {l} lost").format(
        h=t.hands, w=t.hands_won, l=t.hands - t.hands_won - tied
    )
    if tied:
        hands += ", " + _("{n} tied").format(n=tied)
    hands += "; " + _("{avg} points a hand (the other side {against})").format(
        avg=_avg(t.average), against=_avg(t.average_against)
    )
    out.append(("", hands + "\n"))
    a = ui.ascii_only
    for title, table in (
        (_("By opponent"), {opponent_name(k): v for k, v in sorted(st.by_opponent.items())}),
        (_("By AI level"), {ai_name(lv): v for lv, v in sorted(st.by_level.items()) if lv}),
        (
            _("By table size"),
            {_("{n} players").format(n=n): v for n, v in sorted(st.by_players.items())},
        ),
    ):
        if table:
            out.append(("", "\n"))
            out.extend(_table(title, table, width, a))
    for title, lines in ((_("Your best hands"), st.best), (_("Your worst hands"), st.worst)):
        if lines:
            out.append(("class:bold", "\n" + title + "\n"))
            for h in lines:
                out.extend(_hand(h, width))
    return out
