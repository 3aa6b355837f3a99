"""``briscola-lan stats``: your wins, losses and points over time, from the saved games that verify.

Every file in the games directory is checked by the same verifier as ``briscola-lan verify``; a
file with a failed check counts for nothing, and of the files that hold one match (yours and the
host's) the one that verifies best is read. You are found in each match by your identity key (the
one your client signs with), or by ``--player NAME``.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime
from pathlib import Path

from briscola_lan.stats import HandLine, Stats, Tally
from briscola_lan.stats_read import Collected, collect, my_keys

__all__ = ["Collected", "collect", "configure", "json_report", "my_keys", "run", "text_report"]


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--games", type=Path, default=None, help="directory of saved games (default: yours)"
    )
    parser.add_argument(
        "--player",
        metavar="NAME",
        default="",
        help="the player whose statistics to show, by name (default: you, by your identity key)",
    )
    parser.add_argument("--top", type=int, default=3, help="best and worst hands shown (3)")
    parser.add_argument("--json", action="store_true", help="print the statistics as JSON")


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:.0f}%" if whole else "-"


def _avg(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _row(label: str, t: Tally) -> str:
    return (
        f"  {label[:22]:<22} {t.matches:>7} {t.won:>4} {t.lost:>5} {_pct(t.won, t.matches):>5}"
        f" {t.hands:>6} {_avg(t.average):>8} {_avg(t.average_against):>8}"
    )


def _when(ts: float) -> str:
    return datetime.fromtimestamp(ts).strftime("%Y-%m-%d %H:%M")


def _hand(h: HandLine) -> str:
    against = ", ".join(dict.fromkeys(h.opponents))
    return (
        f"  {_when(h.when)}  {h.mine:>3}-{h.theirs:<3} hand {h.number} at {h.table!r}"
        f" against {against}"
    )


def text_report(st: Stats, c: Collected) -> str:
    """The statistics as a person reads them."""
    t = st.total
    left = []
    if c.failed:
        left.append(f"{c.failed} that do not verify")
    if c.others:
        left.append(f"{c.others} of other players' matches")
    out = [
        f"Statistics from {len(st.lines)} of your matches in {c.files} saved files"
        + (f" (left out: {', '.join(left)})" if left else "")
    ]
    if not st.lines:
        out.append("No match of yours to count yet: play one, it is saved when it ends.")
        return "\n".join(out)
    out.append(
        f"Matches: {t.matches} finished, {t.won} won, {t.lost} lost ({_pct(t.won, t.matches)})"
        + (f"; {st.unfinished} unfinished" if st.unfinished else "")
    )
    tied = sum(1 for h in st.hands if h.result == "tied")
    out.append(
        f"Hands: {t.hands} played, {t.hands_won} won, {t.hands - t.hands_won - tied} lost"
        + (f", {tied} tied" if tied else "")
        + f"; {_avg(t.average)} points a hand (the other side {_avg(t.average_against)})"
    )
    head = f"  {'':<22} {'matches':>7} {'won':>4} {'lost':>5} {'won%':>5} {'hands':>6}"
    head += f" {'avg pts':>8} {'against':>8}"
    for title, table in (
        ("By opponent", st.by_opponent),
        ("By AI level", {f"AI {lv}": v for lv, v in st.by_level.items() if lv}),
        ("By table", {f"{n} players": v for n, v in sorted(st.by_players.items())}),
    ):
        if table:
            out += ["", title, head]
            out += [_row(label, tally) for label, tally in sorted(table.items())]
    if st.best:
        out += ["", "Your best hands"] + [_hand(h) for h in st.best]
    if st.worst:
        out += ["", "Your worst hands"] + [_hand(h) for h in st.worst]
    return "\n".join(out)


def _tally_json(t: Tally) -> dict[str, object]:
    return {
        "matches": t.matches,
        "won": t.won,
        "lost": t.lost,
        "hands": t.hands,
        "hands_won": t.hands_won,
        "average_points": t.average,
        "average_points_against": t.average_against,
    }


def _hand_json(h: HandLine) -> dict[str, object]:
    return {
        "game_id": h.game_id,
        "table": h.table,
        "when": h.when,
        "hand": h.number,
        "points": h.mine,
        "points_against": h.theirs,
        "opponents": list(h.opponents),
    }


def json_report(st: Stats, c: Collected) -> dict[str, object]:
    return {
        "files": c.files,
        "files_failed": c.failed,
        "files_of_others": c.others,
        "matches": len(st.lines),
        "unfinished": st.unfinished,
        "total": _tally_json(st.total),
        "by_opponent": {k: _tally_json(v) for k, v in sorted(st.by_opponent.items())},
        "by_ai_level": {k: _tally_json(v) for k, v in sorted(st.by_level.items()) if k},
        "by_players": {str(k): _tally_json(v) for k, v in sorted(st.by_players.items())},
        "best_hands": [_hand_json(h) for h in st.best],
        "worst_hands": [_hand_json(h) for h in st.worst],
    }


def run(args: argparse.Namespace) -> int:
    from briscola_lan.net.files import games_dir
    from briscola_lan.stats import summarize

    directory = args.games if args.games is not None else games_dir()
    if args.top < 0:
        print("briscola-lan stats: --top must be 0 or more", file=sys.stderr)
        return 2
    if args.games is not None and not directory.is_dir():
        print(f"briscola-lan stats: {directory} is not a directory", file=sys.stderr)
        return 2
    me = [] if args.player else my_keys()
    if not me and not args.player:
        print("You have not played on this computer yet: no statistics (--player NAME shows")
        print("another player's, from the saved games here).")
        return 0
    collected = collect(directory, me, args.player)
    st = summarize(collected.lines, top=args.top)
    if args.json:
        print(json.dumps(json_report(st, collected), indent=2))
    else:
        print(text_report(st, collected))
    return 0
