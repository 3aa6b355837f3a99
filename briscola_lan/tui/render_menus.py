"""Pure rendering of the screens around the table: the lobby, the host form and the help."""

from __future__ import annotations

from typing import Any

from briscola_lan.about import describe
from briscola_lan.rules import Card, MatchFormat, Rank
from briscola_lan.tui.i18n import _
from briscola_lan.tui.render import Frag, card_label, fit_name, nl, rules_text
from briscola_lan.tui.state import HostForm, UiState, level_word
from briscola_lan.tui.widgets import hang, split_lines, wrap_words


def kept_line(kept: Any) -> str:
    """The lobby's offer to continue an unfinished match hosted here (``net.kept.KeptTable``)."""
    if kept.kind == "practice":
        text = _("Continue {table}: practice, hand {hand}")
    else:
        text = _("Continue {table}: hosted on the network, hand {hand}")
    return text.format(table=kept.name, hand=kept.hand)


def lobby_lines(ui: UiState, width: int | None = None) -> Frag:
    """The tables found: name, host, rules, deal and seats, in columns fitted to the width (the
    host's address goes first when room is short); a finished table is dim, its match over."""
    out: Frag = []
    if not ui.lobby:
        out.append(("class:dim", _("No tables found yet. They appear here as they are announced.")))
        nl(out)
        return wrap_words(out, width)
    w = width or 78
    rows = []
    for entry in ui.lobby:
        state = ""
        if entry.phase == "over":
            state = _("over")
        elif entry.phase not in ("", "lobby"):
            state = _("playing")
        elif entry.open_seats <= 0:
            state = _("FULL")
        seats = f"{entry.seated}/{entry.players}" + (f" {state}" if state else "")
        deal = _("blind") if entry.deal == "blind" else _("classic")
        rows.append((entry, rules_text(entry.summary, ui.deck, ui.ascii_only), deal, seats))
    heads = (_("TABLE"), _("HOST"), _("RULES"), _("DEAL"), _("SEATS"))
    rules_w = max(len(heads[2]), *(len(r[1]) for r in rows))
    deal_w = max(len(heads[3]), *(len(r[2]) for r in rows))
    seats_w = max(len(heads[4]), *(len(r[3]) for r in rows))
    host_w = max(len(heads[1]), *(len(r[0].host) for r in rows))
    fixed = 2 + 1 + rules_w + 1 + deal_w + 1 + seats_w
    with_host = w - fixed - host_w - 1 >= 12
    if not with_host:
        host_w = 0
    name_w = max(8, w - fixed - (host_w + 1 if host_w else 0))
    name_w = min(name_w, max(len(heads[0]), *(len(r[0].name) for r in rows)))
    if name_w + fixed > w:  # still too narrow: the rules give way, cut
        rules_w = max(len(heads[2]), w - 2 - name_w - 1 - deal_w - 1 - seats_w - 1)

    def line(mark: str, cells: tuple[str, str, str, str, str]) -> str:
        name, host, rules, deal, seats = cells
        host_part = f" {host[:host_w]:<{host_w}}" if host_w else ""
        return (
            f"{mark} {fit_name(name, name_w, ui.ascii_only):<{name_w}}{host_part} "
            f"{rules[:rules_w]:<{rules_w}} {deal[:deal_w]:<{deal_w}} {seats}"
        )

    out.append(("class:dim", line(" ", heads)[:w]))
    nl(out)
    for i, (entry, rules, deal, seats) in enumerate(rows):
        sel = i == ui.lobby_index
        style = "class:selected" if sel else ("class:dim" if entry.phase == "over" else "")
        text = line(">" if sel else " ", (entry.name, entry.host, rules, deal, seats))
        out.append((style, text[:w]))
        nl(out)
    return out


def form_rows(form: HostForm) -> list[str]:
    """The row ids the host form shows for its current option values."""
    rows = ["name", "players"]
    if form.players == 5:  # Briscola chiamata: its own options, the seats and the deal
        seats = [f"seat{i}" for i in range(1, 5)]
        return [*rows, "target", "double", "length", *seats, "deal", "start"]
    if form.players != 3:
        rows.append("format")
    if form.players != 3 and form.match_format is MatchFormat.HANDS:
        rows.append("hands")
    if form.players == 4:
        rows.append("exchange")
        rows.append("signals")
    if form.players == 3:
        rows.append("two")
    if form.players == 4:
        rows.append("drawp")
    rows.append("drawd")
    rows.extend(f"seat{i}" for i in range(1, form.players))
    rows.append("hints")
    rows.append("deal")
    rows.append("start")
    return rows


def _on_off(value: bool) -> str:
    return _("on") if value else _("off")


def form_lines(form: HostForm, ui: UiState, width: int | None = None) -> Frag:
    out: Frag = []
    rows = form_rows(form)
    form.row = min(form.row, len(rows) - 1)
    lt, gt = "<", ">"
    w = width or 80
    lines: list[tuple[bool, str, str]] = []
    for i, row in enumerate(rows):
        sel = i == form.row
        if row == "name":
            label, value = _("Table name"), form.table_name + ("_" if sel else "")
        elif row == "players":
            label, value = _("Players"), f"{lt} {form.players} {gt}"
        elif row == "format":
            value = (
                _("hands: first to N hands (61+ wins a hand)")
                if form.match_format is MatchFormat.HANDS
                else _("points: 2 hands, most points wins")
            )
            label, value = _("Match format"), f"{lt} {value} {gt}"
        elif row == "target":
            label, value = _("Points to win"), f"{lt} {form.points_to_win} {gt}"
        elif row == "double":
            label, value = _("All 120 points: double"), f"{lt} {_on_off(form.double_all)} {gt}"
        elif row == "length":
            label, value = _("Hands in the match"), f"{lt} {form.match_hands} {gt}"
        elif row == "hands":
            label, value = _("Hands to win"), f"{lt} {form.hands_to_win} {gt}"
        elif row == "exchange":
            label, value = _("Partner exchange"), f"{lt} {_on_off(form.partner_exchange)} {gt}"
        elif row == "signals":
            label, value = _("Partners' signals"), f"{lt} {_on_off(form.signals)} {gt}"
        elif row == "two":
            two = card_label(Card(form.removed_two, Rank.TWO), ui)
            label, value = _("2 removed (39 cards)"), f"{lt} {two} {gt}"
        elif row == "drawp":
            label, value = _("Draw partners"), f"{lt} {_on_off(form.draw_partners)} {gt}"
        elif row == "drawd":
            label, value = _("Draw first dealer"), f"{lt} {_on_off(form.draw_dealer)} {gt}"
        elif row == "hints":
            label, value = _("Hints for players"), f"{lt} {_on_off(form.hints)} {gt}"
        elif row == "deal":
            text = (
                _("blind: nobody sees a card before it is shown")
                if form.deal_mode() == "blind"
                else _("classic: the host's engine knows the deck")
            )
            label, value = _("Deal"), f"{lt} {text} {gt}"
        elif row.startswith("seat"):
            idx = int(row[4:])
            filler = form.fillers[idx - 1]
            text = (
                _("open for a person")
                if filler == "open"
                else _("AI ({level})").format(level=level_word(filler))
            )
            label, value = _("Seat {n}").format(n=idx), f"{lt} {text} {gt}"
        else:
            label, value = "", _("[ Start the table ]")
        lines.append((sel, label, value))
    # the labels in a column as wide as the longest (at most half the width); a value too long
    # for its line goes on under itself, never under the labels
    label_w = min(max(len(label) for _s, label, _v in lines), max(8, (w - 4) // 2))
    indent = 2 + label_w + 1
    for sel, name, value in lines:
        style = "class:selected" if sel else ""
        mark = ">" if sel else " "
        label = name
        if len(name) > label_w:  # a label wider than its column: on a line of its own
            out.append((style, f"{mark} {name}"))
            nl(out)
            label = ""
        parts = split_lines(wrap_words([(style, value)], max(8, w - indent)))
        for n, part in enumerate(parts):
            head = f"{mark} {label:<{label_w}} " if n == 0 else " " * indent
            out.append((style if n == 0 else "", head))
            out.extend(part)
            nl(out)
    if form.players == 3:
        out.append(
            (
                "class:dim",
                "  " + _("3 players play the 'points' format: 3 hands, most points wins."),
            )
        )
        nl(out)
    if form.players == 5:
        out.append(("class:dim", "  " + _(
            "5 players play Briscola chiamata: an auction, a called card, a secret partner. "
            "Points to win: what a rank bid needs. Each hand is scored by the table of weights."
        )))  # fmt: skip
        nl(out)
    if form.error:
        out.append(("class:error", form.error))
        nl(out)
    return wrap_words(out, width)


def help_table() -> list[tuple[str, str]]:
    return [
        (_("Left/Right"), _("choose a card")),
        ("1-9", _("choose card by number")),
        (_("Enter"), _("play the chosen card")),
        (_("mouse click"), _("play that card")),
        ("h", _("a hint from the strong AI")),
        ("g", _("a signal to your partner (4 players, where the table allows them)")),
        ("w", _("review your plays (after a hand)")),
        ("m", _("the match summary: every hand, the cards taken")),
        ("p", _("hide/show the running point count")),
        ("o", _("hand sorted / as dealt")),
        ("l", _("show/hide the last trick")),
        (_("PgUp/PgDn"), _("scroll the log (or the wheel)")),
        ("n", _("next hand (after a hand)")),
        ("r", _("rematch (after the match)")),
        ("f", _("seat AI in the open seats")),
        ("v", _("deal verification details")),
        ("?", _("this help")),
        (_("Esc"), _("close a panel / leave")),
        ("q", _("quit (asks first mid-match)")),
    ]


def help_auction() -> list[tuple[str, str]]:
    """Five players: the keys of the auction (my bid) and of the call (my suit)."""
    return [
        (_("Left/Right"), _("your bid: a step down or up the ladder")),
        (_("Up/Down"), _("your bid: five steps up or down")),
        (_("Enter"), _("bid it")),
        (_("x or 0"), _("pass (a pass is final)")),
        (_("Left/Right/1-4"), _("the call: choose the suit")),
        (_("Enter"), _("call that suit's card of your bid's rank")),
    ]


def help_lobby() -> list[tuple[str, str]]:
    return [
        (_("Up/Down"), _("choose a table")),
        (_("Enter"), _("join the chosen table")),
        ("a", _("play against AI now")),
        ("c", _("continue an unfinished match")),
        ("h", _("host a table")),
        ("l", _("learn the game, then practice")),
        ("s", _("saved games")),
        ("t", _("your statistics")),
        ("q", _("quit")),
    ]


def help_form() -> list[tuple[str, str]]:
    return [
        (_("Up/Down/Tab"), _("choose a field")),
        (_("Left/Right/Space"), _("change its value")),
        (_("type"), _("the table's name (on its row)")),
        (_("Enter"), _("start the table")),
        (_("Esc"), _("back to the lobby")),
    ]


def help_pages() -> list[tuple[str, str]]:
    return [
        (_("Right/Enter"), _("learn: the next page (the last starts a game)")),
        (_("Left"), _("learn: the page before")),
        (_("Up/Down"), _("saved games: choose a game; elsewhere: scroll")),
        (_("Enter"), _("saved games: check the chosen game")),
        (_("PgUp/PgDn"), _("scroll")),
        (_("Esc"), _("back to the lobby")),
    ]


def help_lines(ui: UiState, width: int | None = None, *, auction: bool = False) -> Frag:
    """Every key of the client, the current screen's first (``auction``: a five-player hand's
    auction or call is on: its keys come first of all); last, the version line of
    ``briscola-lan --version``, for a bug report."""
    sections = [
        ("table", _("Table keys"), help_table()),
        ("table", _("Auction keys (5 players)"), help_auction()),
        ("lobby", _("Lobby keys"), help_lobby()),
        ("host", _("Host form keys"), help_form()),
        ("pages", _("Learn mode, saved games and statistics"), help_pages()),
    ]
    first = {"lobby": "lobby", "host": "host", "table": "table"}.get(str(ui.screen), "pages")
    sections.sort(key=lambda sec: sec[0] != first)  # (a stable sort: the auction after the table)
    if auction:
        sections.insert(0, sections.pop(1))
    out: Frag = []
    for _id, title, keys in sections:
        out.append(("class:bold", title))
        nl(out)
        key_w = max(12, *(len(k) for k, _w in keys))
        for key, what in keys:
            out.extend(hang([("", f"  {key:<{key_w}} ")], [("", what)], width))
    nl(out)
    line = _(
        "briscola-lan {version} (wire protocol {wire}, "
        "fairness protocol and saved games {fairness})"
    )
    out.append(("class:dim", describe(line)))
    return out


def help_title() -> str:
    return _("Keys (Esc or ? closes, Up/Down scrolls)")
