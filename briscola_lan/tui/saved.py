"""Saved games: where transcripts are kept, the browser's list (date and time, table, players,
result, check status, newest first) and the deal-check report of one file, in the player's
language, from the same verifier ``briscola-lan verify`` uses (``fairness.verify``).

A client also keeps, beside its transcript, which hints it asked for (``*.hints.json``, written
with ``net.files.write_private``): the transcript itself is the signed protocol record.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from prompt_toolkit.formatted_text import StyleAndTextTuples

from briscola_lan.fairness.statements import MatchStart, StatementError, decode
from briscola_lan.fairness.transcript import SUFFIX, TranscriptFileError, load
from briscola_lan.fairness.verify import MatchReport, verify_records
from briscola_lan.net import files
from briscola_lan.net.games import data_dir, game_path, games_dir
from briscola_lan.rules import Card, MatchFormat
from briscola_lan.rules.match import hand_winner
from briscola_lan.tui import deck as dk
from briscola_lan.tui.i18n import _, ngettext
from briscola_lan.tui.render import rules_text
from briscola_lan.tui.state import UiState, player_name
from briscola_lan.tui.verdicts import fault_text, status_word

__all__ = [
    "SavedGame",
    "SavedList",
    "browser_lines",
    "data_dir",
    "games_dir",
    "hints_path",
    "list_saved",
    "read_hints",
    "record_hint",
    "report_lines",
    "verify_saved",
]

HINTS_SUFFIX = ".hints.json"

Frag = StyleAndTextTuples


_GAME_FILE = re.compile(r"^([0-9a-f]{12})-(.+)" + re.escape(SUFFIX) + "$")


def list_saved(directory: Path | None = None) -> list[Path]:
    """Saved transcripts (``*.briscola.json``), one per match, newest first: of the files one
    match left (the player's own and, for a table it hosted, the host's; ``net.games.game_path``
    names them by the game id), the player's own."""
    d = directory or games_dir()
    if not d.is_dir():
        return []
    found = sorted(
        (p for p in d.glob(f"*{SUFFIX}") if p.is_file()),
        key=lambda p: (p.stat().st_mtime, p.name),
        reverse=True,
    )
    chosen: dict[str, Path] = {}
    for p in found:
        m = _GAME_FILE.match(p.name)
        key = m.group(1) if m else p.name
        if key not in chosen or (_host_file(chosen[key]) and not _host_file(p)):
            chosen[key] = p
    keep = set(chosen.values())
    return [p for p in found if p in keep]


def _host_file(path: Path) -> bool:
    m = _GAME_FILE.match(path.name)
    return m is not None and m.group(2) == "host"


# --- hints kept beside a transcript ------------------------------------------------------------


def hints_path(transcript: Path) -> Path:
    return transcript.with_name(transcript.name.removesuffix(SUFFIX) + HINTS_SUFFIX)


def record_hint(
    directory: Path, game_id: str, label: str, *, hand: int, trick: int, card: Card
) -> Path:
    """Add one hint to the record kept beside ``label``'s transcript of ``game_id``."""
    path = hints_path(game_path(directory, game_id, label))
    hints = read_hints(path)
    hints.append({"hand": hand + 1, "trick": trick, "card": card.label(ascii_only=True)})
    files.private_dir(directory)
    files.write_private(path, json.dumps({"game": game_id, "hints": hints}).encode("utf-8"))
    return path


def read_hints(path: Path) -> list[dict[str, object]]:
    """The hints recorded in ``path`` (a ``*.hints.json``, or the transcript it is beside)."""
    if path.name.endswith(SUFFIX):
        path = hints_path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    hints = data.get("hints") if isinstance(data, dict) else None
    return [h for h in hints if isinstance(h, dict)] if isinstance(hints, list) else []


# --- the report of one file ---------------------------------------------------------------------


def _verdict_word(verdict: str) -> str:
    return {
        "verified": _("VERIFIED"),
        "failed": _("NOT VERIFIED"),
        "aborted": _("ABORTED"),
        "incomplete": _("INCOMPLETE"),
        "withheld": _("WITHHELD"),
        "unacknowledged": _("UNACKNOWLEDGED"),
    }.get(verdict, verdict.upper())


def ai_levels(records: Sequence[tuple[bytes, bytes]]) -> tuple[str, ...]:
    """Each match seat's AI level ("" for a person), as the file's signed match-start says."""
    for body, _sig in records:
        try:
            st = decode(body)
        except StatementError:
            return ()
        if isinstance(st, MatchStart):
            return tuple(st.ai_levels)
    return ()


def _name(rep: MatchReport, levels: Sequence[str], seat: int) -> str:
    """A match seat's player in the report: an AI seat by its level, a person by name."""
    if seat >= len(rep.names):
        return _("seat {n}").format(n=seat)
    return player_name(rep.names[seat], levels[seat] if seat < len(levels) else "", seat)


def _winner_text(rep: MatchReport, levels: Sequence[str] = ()) -> str:
    if rep.options is None or rep.winner is None:
        return "?"
    seats = [s for s in range(rep.options.players) if rep.options.side_of(s) == rep.winner]
    return " + ".join(_name(rep, levels, s) for s in seats)


def report_lines(
    rep: MatchReport, deck: dk.Deck = dk.Deck.FRENCH, levels: Sequence[str] = ()
) -> list[str]:
    """The deal-check report of a saved game (what ``briscola-lan verify`` prints, translated);
    ``levels``: each seat's AI level, from the file's match-start (``ai_levels``)."""
    lines: list[str] = []
    if rep.options is not None:
        lines.append(
            _("table '{table}' ({rules}), host key {key}").format(
                table=rep.table_name,
                rules=rules_text(rep.options.summary(), deck),
                key=rep.host_fingerprint,
            )
        )
        lines.append(
            ngettext("players: {names}; {n} record", "players: {names}; {n} records", rep.records)
            .format(names=", ".join(_name(rep, levels, s) for s in range(len(rep.names))),
                    n=rep.records)
        )  # fmt: skip
    d = rep.draw
    if d is not None:
        lines.append(_("the draw: {status}").format(status=status_word(d.status)))
        if d.cards:
            drawn = ", ".join(
                _("{name} {card} to seat {seat}").format(
                    name=name, card=dk.card_label(Card.from_code(c), deck, False), seat=seat
                )
                for name, c, seat in zip(d.names, d.cards, d.seating, strict=True)
            )
            lines.append(f"  {drawn}")
    for h in rep.hands:
        pts = " " + _("points {p}").format(p=list(h.points)) if h.points else ""
        missing = ""
        if h.missing_acks:
            missing = " " + _("(none from seat {seats})").format(
                seats=", ".join(map(str, h.missing_acks))
            )
        acks = ngettext("{n} acknowledgement", "{n} acknowledgements", h.acks).format(n=h.acks)
        lines.append(
            _("hand {n} (dealer seat {d}): {status}{points}, {acks}{missing}").format(
                n=h.hand + 1, d=h.dealer, status=status_word(h.status), points=pts, acks=acks,
                missing=missing,
            )
        )  # fmt: skip
        if h.fault is not None and h.fault is not rep.fault:
            lines.append("  " + fault_text(h.fault))
        if h.trump is not None:
            lines.append("  " + _("trump {suit}").format(suit=dk.suit_text(h.trump, deck, False)))
        for i, trick in enumerate(h.tricks, 1):
            cards = " ".join(dk.card_label(c, deck, False) for _seat, c in trick.plays)
            lines.append(
                f"  {i}. "
                + _("{name} took the trick ({cards}) for {n}").format(
                    name=_name(rep, levels, trick.winner), cards=cards, n=trick.points
                )
            )
        for hand, seat, ai, _at in rep.takeovers:
            if hand == h.hand:
                who = _name(rep, levels, seat)
                lines.append(
                    "  "
                    + (
                        _("an AI played for seat {n} ({who})") if ai
                        else _("the player took seat {n} back ({who})")
                    ).format(n=seat, who=who)
                )  # fmt: skip
    if rep.receipts:
        lines.append(
            ngettext(
                "{n} receipt from the host (this is a player's own file)",
                "{n} receipts from the host (this is a player's own file)",
                rep.receipts,
            ).format(n=rep.receipts)
        )
    blame = rep.blame
    if blame is not None:
        lines.append(_("FAILED at {fault}").format(fault=fault_text(blame)))
    verdict = rep.verdict
    if verdict in ("verified", "unacknowledged") and rep.match_over:
        lines.append(_("match over: {who} won").format(who=_winner_text(rep, levels)))
    if verdict == "unacknowledged":
        lines.append(_("not every player acknowledged every hand: the cards check out, but a "
                       "seat did not confirm it saw the same history"))  # fmt: skip
    elif verdict == "incomplete":
        last = rep.hands[-1] if rep.hands else None
        if last is not None and last.status == "incomplete":
            lines.append(_("hand {n} is not finished in this file (the game stopped during it; "
                           "its records so far check out)").format(n=last.hand + 1))  # fmt: skip
        else:
            lines.append(_("the match is not finished in this file (no match-end record)"))
    return lines


def verify_saved(path: Path, deck: dk.Deck = dk.Deck.FRENCH) -> tuple[bool, str, list[str]]:
    """Check a saved game exactly as ``briscola-lan verify`` does: (verified, the verdict word,
    the report lines), in the player's language."""
    try:
        records = load(path)
        report = verify_records(records)
    except TranscriptFileError as exc:
        return False, _("CANNOT VERIFY"), [_("cannot verify: {reason}").format(reason=exc)]
    lines = report_lines(report, deck, ai_levels(records))
    hints = read_hints(path)
    if hints:
        lines.append(
            ngettext(
                "hints: this player asked the strong AI once",
                "hints: this player asked the strong AI {n} times",
                len(hints),
            ).format(n=len(hints))
        )
    return report.ok, _verdict_word(report.verdict), lines


# --- the browser ---------------------------------------------------------------------------------


@dataclass(slots=True)
class SavedGame:
    """One line of the browser."""

    path: Path
    when: str
    table: str = ""
    players: str = ""
    result: str = ""
    status: str = ""
    hints: int = 0
    score: str = ""  # hands won per side (first to N), or card points per side (points match)


def summarize(path: Path) -> SavedGame:
    """The browser's line for one file (verifies it: run in a thread)."""
    try:
        when = datetime.fromtimestamp(path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
    except OSError:
        when = "?"
    game = SavedGame(path, when, hints=len(read_hints(path)))
    try:
        records = load(path)
        rep = verify_records(records)
    except TranscriptFileError:
        game.status = _("CANNOT VERIFY")
        game.table = path.name
        return game
    game.table = rep.table_name
    levels = ai_levels(records)
    game.players = ", ".join(_name(rep, levels, s) for s in range(len(rep.names)))
    game.status = _verdict_word(rep.verdict)
    game.score = score_text(rep)
    if rep.match_over and rep.winner is not None:
        game.result = _("{who} won").format(who=_winner_text(rep, levels))
    else:
        done = sum(1 for h in rep.hands if h.points)
        game.result = ngettext("{n} hand played", "{n} hands played", done).format(n=done)
    return game


def score_text(rep: MatchReport) -> str:
    """The match's score so far, side by side: hands won in a match to N hands ("hands 2-1"),
    card points in a points match ("points 130-110")."""
    played = [h.points for h in rep.hands if h.points]
    if rep.options is None or not played:
        return ""
    sides = rep.options.sides
    if rep.options.match_format is MatchFormat.HANDS:
        won = [0] * sides
        for points in played:
            winner = hand_winner(points)
            if winner is not None:
                won[winner] += 1
        return _("hands {score}").format(score="-".join(map(str, won)))
    totals = [sum(p[i] for p in played) for i in range(sides)]
    return _("points {score}").format(score="-".join(map(str, totals)))


class SavedList:
    """The saved games of the browser, summarized one by one in a thread."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths = paths
        self.games: dict[Path, SavedGame] = {}

    async def fill(self, changed: Callable[[], None]) -> None:
        for path in self.paths:
            self.games[path] = await asyncio.to_thread(summarize, path)
            changed()


def browser_lines(ui: UiState, games: SavedList | None, width: int) -> Frag:
    """The saved-games screen: one line per game, newest first, then the chosen one's report."""
    out: Frag = []
    wide = width >= 100
    for i, name in enumerate(ui.saved_files):
        path = Path(name)
        sel = i == ui.saved_index
        mark = ">" if sel else " "
        g = games.games.get(path) if games is not None else None
        if g is None:
            text = f"{mark} {path.name}  " + _("(checking...)")
        else:
            hints = "  " + _("hints: {n}").format(n=g.hints) if g.hints else ""
            who = f"  {g.players}" if wide else ""
            score = f", {g.score}" if g.score else ""
            text = (
                f"{mark} {g.when}  {g.table[:18]:<18}{who}  {g.result}{score}  [{g.status}]{hints}"
            )
            if len(text) > width:  # a narrow screen: the result on a line of its own
                text = f"{mark} {g.when}  [{g.status}]  {g.table}\n    {g.result}{score}{hints}"
        for line in text.split("\n"):
            out.append(("class:selected" if sel else "", line[:width]))
            out.append(("", "\n"))
    if ui.saved_files and games is not None:
        sel_path = Path(ui.saved_files[ui.saved_index])
        g = games.games.get(sel_path)
        if g is not None and not wide:
            out.append(("class:dim", _("players: {names}").format(names=g.players) + "\n"))
        out.append(("class:dim", sel_path.name + "\n"))
    if ui.saved_report:
        out.append(("", "\n"))
        for line in ui.saved_report:
            out.append(("", line + "\n"))
    elif ui.saved_files:
        out.append(("class:dim", "\n" + _("Enter: the full deal-check report of this game.")))
    return out
