"""The ``briscola-lan verify FILE`` command: check a saved game offline and say who is at fault.

Exit status: 0 every file verifies; 1 a check failed (or a hand was aborted); 2 a file cannot be
read as a saved game; 3 every file verifies as far as it goes but one ends in a hand that was
not finished (``incomplete``: the host was stopped mid-hand).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from briscola_lan.fairness.transcript import TranscriptFileError, load
from briscola_lan.fairness.verify import MatchReport, verify_records
from briscola_lan.rules.cards import Card


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="saved game transcript(s)")
    parser.add_argument("--json", action="store_true", help="print a JSON report")


def winner_seats(rep: MatchReport) -> list[int]:
    """The seats of the side that won the match (none while it is not over)."""
    if rep.options is None or rep.winner is None or not rep.match_over:
        return []
    return [s for s in range(rep.options.players) if rep.options.side_of(s) == rep.winner]


def winner_names(rep: MatchReport) -> list[str]:
    """The names of the winning side's players, as saved in the game, in seat order."""
    return [rep.names[s] if s < len(rep.names) else f"seat {s}" for s in winner_seats(rep)]


def winner_text(rep: MatchReport) -> str:
    """Who won, as a person reads it: 'Bea (seat 1)', or 'side A (Ann + Cid, seats 0+2)'."""
    if rep.options is None or rep.winner is None or not rep.match_over:
        return f"side {rep.winner}"
    return rep.options.side_text(rep.winner, rep.names)


INCOMPLETE = 3  # the exit status of a file that verifies up to a hand it does not finish


def stopped_mid_hand(rep: MatchReport) -> bool:
    """Everything in the file verifies, but it ends in a hand that was not finished (a host
    stopped mid-hand saves what was played): the last hand is ``incomplete``, no fault."""
    if rep.ok or rep.fault is not None or not rep.hands:
        return False
    if rep.draw is not None and not rep.draw.verified:
        return False
    *done, last = rep.hands
    return last.status == "incomplete" and all(h.verified for h in done)


def human_report(path: str, rep: MatchReport) -> str:
    incomplete = stopped_mid_hand(rep)
    verdict = "VERIFIED" if rep.ok else "INCOMPLETE" if incomplete else "NOT VERIFIED"
    lines = [f"{path}: {verdict}"]
    if rep.options is not None:
        lines.append(
            f"  table {rep.table_name!r} ({rep.options.summary()}), host key {rep.host_fingerprint}"
        )
        lines.append(f"  players: {', '.join(rep.names)}; {rep.records} records")
    d = rep.draw
    if d is not None:
        what = " and ".join(
            w for w, on in (("partners", d.draw_partners), ("first dealer", d.draw_dealer)) if on
        )
        lines.append(f"  draw for {what}: {d.status}")
        if d.cards:
            drawn = ", ".join(
                f"{name} {Card.from_code(c)} -> seat {seat}"
                for name, c, seat in zip(d.names, d.cards, d.seating, strict=True)
            )
            lines.append(f"    {drawn}; first dealer seat {d.dealer}")
        if d.fault is not None and d.fault is not rep.fault:
            lines.append(f"    {d.fault.describe()} (lobby seat numbers)")
    for h in rep.hands:
        pts = f" points {list(h.points)}" if h.points else ""
        lines.append(
            f"  hand {h.hand + 1} (dealer seat {h.dealer}): {h.status}{pts}, "
            f"{h.acks} acknowledgements"
        )
        if h.fault is not None and h.fault is not rep.fault:
            lines.append(f"    {h.fault.describe()}")
        for hand, seat, ai, at_play in rep.takeovers:
            if hand == h.hand:
                who = rep.names[seat] if seat < len(rep.names) else f"seat {seat}"
                what = "an AI played for" if ai else "the player took back"
                when = f"from play {at_play + 1}" if ai or not at_play else f"after play {at_play}"
                lines.append(f"    {when}: {what} seat {seat} ({who})")
    if rep.fault is not None:
        lines.append(f"  FAILED at {rep.fault.describe()}")
    elif rep.match_over:
        lines.append(f"  match over: {winner_text(rep)} won")
    elif incomplete:
        done = len(rep.hands) - 1
        before = f"the {done} hand(s) before it verify" if done else "nothing before it to check"
        lines.append(
            f"  hand {rep.hands[-1].hand + 1} is not finished in this file (incomplete: the game "
            f"stopped during it; its records so far check out); {before}"
        )
    elif rep.hands and all(h.verified for h in rep.hands):
        lines.append("  match not finished in this file")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    worst = 0
    incomplete = False
    reports = []
    for name in args.files:
        try:
            rep = verify_records(load(Path(name)))
        except TranscriptFileError as exc:
            worst = max(worst, 2)
            if args.json:
                reports.append({"file": name, "ok": False, "error": str(exc)})
            else:
                print(f"{name}: cannot verify: {exc}", file=sys.stderr)
            continue
        stopped = stopped_mid_hand(rep)
        incomplete = incomplete or stopped
        if not rep.ok and not stopped:
            worst = max(worst, 1)
        if args.json:
            reports.append(
                {
                    "file": name,
                    **rep.to_dict(),
                    "incomplete": stopped,
                    "winner_names": winner_names(rep),
                }
            )
        else:
            print(human_report(name, rep))
    if args.json:
        print(json.dumps(reports if len(reports) > 1 else reports[0], indent=1))
    return worst or (INCOMPLETE if incomplete else 0)
