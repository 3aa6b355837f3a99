"""The ``briscola-lan verify FILE`` command: check a saved game offline and say who is at fault.

Exit status (protocol/fairness.md §9): 0 every file verifies, the whole match; 1 a check failed
or a hand was aborted; 2 a file cannot be read as a saved game; 3 a file verifies as far as it
goes but stops before the match's end record (``incomplete``); 5 a file verifies to the end,
its results stand, but a party withheld a blind hand's key reveal after the result (``withheld``,
the party named); 4 a file verifies to the end but a hand lacks a seat's acknowledgement
(``unacknowledged``). With several files the status is the worst one, in the order 1, 2, 3, 5, 4.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from briscola_lan.fairness.transcript import TranscriptFileError, load
from briscola_lan.fairness.verify import Blame, HandReport, MatchReport, verify_records
from briscola_lan.rules.cards import Card


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="saved game transcript(s)")
    parser.add_argument("--json", action="store_true", help="print a JSON report")
    parser.add_argument(
        "--tricks",
        action="store_true",
        help="also list each hand's trump and its tricks: who took each, its cards in play "
        "order, its points",
    )


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


INCOMPLETE = 3  # the exit status of a file that stops before the match's end record
UNACKNOWLEDGED = 4  # ... of a complete file in which a hand lacks a seat's acknowledgement
WITHHELD = 5  # ... of a complete file in which a party withheld a key reveal after the result
EXIT_STATUS = {
    "verified": 0,
    "failed": 1,
    "aborted": 1,
    "incomplete": INCOMPLETE,
    "withheld": WITHHELD,
    "unacknowledged": UNACKNOWLEDGED,
}
_SEVERITY = (1, 2, INCOMPLETE, WITHHELD, UNACKNOWLEDGED)  # the worst first
VERDICT_WORDS = {
    "verified": "VERIFIED",
    "failed": "NOT VERIFIED",
    "aborted": "ABORTED",
    "incomplete": "INCOMPLETE",
    "withheld": "WITHHELD",
    "unacknowledged": "UNACKNOWLEDGED",
}


def stopped_mid_hand(rep: MatchReport) -> bool:
    """Everything in the file verifies, but it stops before the match's end record."""
    return rep.verdict == "incomplete"


def worst(statuses: list[int]) -> int:
    """The exit status of several files: the worst, in the order 1, 2, 3, 5, 4; else 0."""
    return next((s for s in _SEVERITY if s in statuses), 0)


# Why a fault names whom it names, said after the party (``Fault.blame``).
_EVIDENCE = {
    Blame.HOST: "",
    Blame.SEAT: " (its own signed statement is the evidence)",
    Blame.HOST_OR_SEAT: (
        ": this file cannot tell them apart (the host says seat {n} did not answer; no evidence "
        "and no receipt show who failed)"
    ),
}


def blame_text(rep: MatchReport) -> str | None:
    """Who is at fault, in plain words, when a check failed or a hand was aborted."""
    f = rep.blame
    if f is None:
        return None
    return f"at fault: {f.who}{_EVIDENCE[f.blame].format(n=f.seat)}"


def human_report(path: str, rep: MatchReport, tricks: bool = False) -> str:
    verdict = rep.verdict
    lines = [f"{path}: {VERDICT_WORDS[verdict]}"]
    if rep.options is not None:
        lines.append(
            f"  table {rep.table_name!r} ({rep.options.summary()}"
            + (f", {rep.deal} deal" if rep.deal else "")
            + f"), host key {rep.host_fingerprint}"
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
        if d.waiting is not None:
            lines.append(f"    {d.waiting.describe()}")
    for h in rep.hands:
        pts = f" points {list(h.points)}" if h.points else ""
        missing = ""
        if h.missing_acks:
            seats = ", ".join(map(str, h.missing_acks))
            missing = f" (none from seat {seats})"
        again = ""
        if h.status == "aborted" and h is not rep.hands[-1]:
            again = " (counts for nothing: dealt again)"
        if h.passed_out:
            pts, again = "", " (everyone passed: void, the same dealer deals again)"
        lines.append(
            f"  hand {h.hand + 1} (dealer seat {h.dealer}): {h.status}{pts}, "
            f"{h.acks} acknowledgements{missing}{again}"
        )
        if h.fault is not None and h.fault is not rep.fault:
            lines.append(f"    {h.fault.describe()}")
        c = h.call
        if c is not None:
            partner = "alone" if c.alone else f"partner seat {c.partner}"
            lines.append(
                f"    seat {c.caller} called {c.called.label(ascii_only=True)} ({partner}): the "
                f"callers {'won' if c.won else 'lost'} with {c.points} of {c.target}; scores "
                f"{list(c.scores)}"
            )
        for f in h.withheld:
            lines.append(f"    key reveal withheld after the result: {f.describe()}")
        if tricks:
            lines.extend(_trick_lines(rep, h))
        if h.waiting is not None:
            lines.append(f"    {h.waiting.describe()}")
        for hand, seat, ai, at_play in rep.takeovers:
            if hand == h.hand:
                who = rep.names[seat] if seat < len(rep.names) else f"seat {seat}"
                what = "an AI played for" if ai else "the player took back"
                when = f"from play {at_play + 1}" if ai or not at_play else f"after play {at_play}"
                lines.append(f"    {when}: {what} seat {seat} ({who})")
    if rep.receipts:
        lines.append(f"  {rep.receipts} receipts from the host (this is a player's own file)")
    if rep.fault is not None:
        lines.append(f"  FAILED at {rep.fault.describe()}")
    if verdict == "aborted" and rep.blame is not None:
        lines.append(f"  ABORTED at {rep.blame.describe()}")
    blame = blame_text(rep)
    if blame is not None:
        lines.append(f"  {blame}")
    if verdict in ("verified", "withheld", "unacknowledged", "aborted") and rep.match_over:
        lines.append(f"  match over: {winner_text(rep)} won")
    if verdict == "withheld":
        lines.append(
            "  every result stands on its proved plays, but a key reveal owed after a hand's "
            "result did not come (withheld): the party named at fault withheld it, or the "
            "host dropped it"
        )
    elif verdict == "unacknowledged":
        lines.append(
            "  not every player acknowledged every hand: the cards check out, but a seat did "
            "not confirm it saw the same history (unacknowledged)"
        )
    elif verdict == "incomplete":
        last = rep.hands[-1] if rep.hands else None
        if last is not None and last.status == "incomplete":
            done = len(rep.hands) - 1
            before = f"the {done} hand(s) before it verify" if done else "nothing before it"
            lines.append(
                f"  hand {last.hand + 1} is not finished in this file (incomplete: the game "
                f"stopped during it; its records so far check out); {before}"
            )
        else:
            lines.append(
                "  the match is not finished in this file (incomplete: no match-end record)"
            )
        shown = [x.waiting for x in (last, d) if x is not None]
        if rep.waiting is not None and not any(rep.waiting is w for w in shown):
            lines.append(f"  {rep.waiting.describe()}")
    return "\n".join(lines)


def _trick_lines(rep: MatchReport, h: HandReport) -> list[str]:
    """A hand's trump and tricks, as its records prove them (``--tricks``)."""
    lines = [f"    trump {h.trump.symbol}"] if h.trump is not None else []
    for i, t in enumerate(h.tricks, 1):
        who = rep.names[t.winner] if t.winner < len(rep.names) else ""
        cards = " ".join(str(c) for _seat, c in t.plays)
        lines.append(f"    trick {i}: seat {t.winner} ({who}) took {cards} for {t.points}")
    return lines


def run(args: argparse.Namespace) -> int:
    statuses: list[int] = []
    reports = []
    for name in args.files:
        try:
            rep = verify_records(load(Path(name)))
        except TranscriptFileError as exc:
            statuses.append(2)
            if args.json:
                reports.append(
                    {"file": name, "ok": False, "verdict": "unreadable", "error": str(exc)}
                )
            else:
                print(f"{name}: cannot verify: {exc}", file=sys.stderr)
            continue
        stopped = stopped_mid_hand(rep)
        statuses.append(EXIT_STATUS[rep.verdict])
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
            print(human_report(name, rep, getattr(args, "tricks", False)))
    if args.json:
        print(json.dumps(reports if len(reports) > 1 else reports[0], indent=1))
    return worst(statuses)
