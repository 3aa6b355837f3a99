"""``briscola-lan simulate``: play N matches between bots, one level per seat, and print totals.

Deck orders come from the seed through ``random.Random`` (simulation only: never the fairness
path), so the same seed gives the same result. ``--save DIR`` instead plays every match through
the whole verifiable protocol (``table.selfplay``) and saves the transcripts. At five players
(Briscola chiamata) the bots bid and call too, a hand everyone passes is dealt again from the next
deck of the seed, and the totals are each seat's score by the table of weights.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import random
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from briscola_lan.ai import LEVELS, Bot, ChiamataBot, UnknownLevel, make_bot, make_chiamata_bot
from briscola_lan.choices import CLASSIC, DEAL_MODES
from briscola_lan.progress import progress, wanted
from briscola_lan.rules import (
    Card,
    Hand,
    HandResult,
    Match,
    MatchFormat,
    OptionsError,
    Phase,
    Suit,
    TableOptions,
)
from briscola_lan.rules import deck_for as rules_deck_for
from briscola_lan.rules.signals import SignalValue, truthful


class SimulationError(ValueError):
    """Bad simulate/arena arguments, explained so the user can fix the command line."""


def shuffled_deck(options: TableOptions, seed: int, *tags: int) -> list[Card]:
    """The deck order of one simulated hand, fixed by the seed and the hand's tags."""
    deck = list(rules_deck_for(options.players, options.removed_two))
    random.Random(":".join(str(x) for x in (seed, *tags))).shuffle(deck)
    return deck


# A hand everyone passes (five players) is dealt again; a seed whose decks all pass this many
# times over is a bug of the bots (nobody ever bids), not a game.
MAX_REDEALS = 50


def make_seat_bot(options: TableOptions, level: str, seed: int) -> Bot:
    """A bot of ``level`` for a seat at this table: at five players one that bids and calls."""
    return make_chiamata_bot(level, seed) if options.chiamata else make_bot(level, seed)


def play_hand(
    options: TableOptions,
    deck: list[Card],
    dealer: int,
    bots: list[Bot],
    deaf: frozenset[int] = frozenset(),
) -> Hand:
    """Play one hand to its end, each seat's bot choosing from that seat's view only (and, at a
    table with signals, the signal its partner made, ``opening_signals``, unless the seat is
    one of ``deaf``: it plays as if it had not read it). At five players the bots bid and call
    too; a hand everyone passed ends there (``passed_out``)."""
    hand = Hand(options, deck, dealer)
    heard = opening_signals(hand) if options.signals else {}
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        bot = bots[seat]
        view = hand.view(seat)
        if hand.phase in (Phase.AUCTION, Phase.CALL):
            if not isinstance(bot, ChiamataBot):
                raise SimulationError(f"the {bot.level} bot at seat {seat} cannot bid")
            if hand.phase == Phase.AUCTION:
                hand.bid(seat, bot.bid(view))
            else:
                hand.call(seat, bot.call(view))
            continue
        if seat in heard and seat not in deaf:
            view = dataclasses.replace(view, partner_signals=heard[seat])
        hand.play(seat, bot.choose(view))
    return hand


def play_dealt_hand(
    options: TableOptions,
    seed: int,
    tags: tuple[int, ...],
    dealer: int,
    bots: list[Bot],
    *,
    deaf: frozenset[int] = frozenset(),
) -> tuple[Hand, int]:
    """Play the hand of deck ``shuffled_deck(seed, *tags)`` and, while everyone passes (five
    players), the same dealer's next deck ``(*tags, k)``; the hand and how many were redealt
    (``deaf``: as ``play_hand``)."""
    for redeal in range(MAX_REDEALS + 1):
        deck = shuffled_deck(options, seed, *tags, *((redeal,) if redeal else ()))
        hand = play_hand(options, deck, dealer, bots, deaf)
        if not hand.passed_out:
            return hand, redeal
    raise SimulationError(f"every seat passed {MAX_REDEALS + 1} deals in a row")


def hand_record(res: HandResult, redeals: int = 0) -> dict[str, Any]:
    """One recorded hand as simulate's JSON gives it (at five players with its call)."""
    out: dict[str, Any] = {
        "dealer": res.dealer,
        "points": list(res.points),
        "winner": res.winner,
        "tiebreak": res.tiebreak,
    }
    if res.call is not None:
        c = res.call
        out["call"] = {
            "caller": c.caller,
            "partner": c.partner,
            "bid": c.bid,
            "called": c.called.label(ascii_only=True),
            "target": c.target,
            "points": c.points,
            "won": c.won,
            "scores": list(c.scores),
            "redeals": redeals,
        }
    return out


def opening_signals(hand: Hand) -> dict[int, tuple[tuple[int, SignalValue], ...]]:
    """What each seat reads of its partner's signal, as at a table of AI players: before the
    first card, each tells its partner the best thing its hand holds (``truthful``)."""
    heard: dict[int, tuple[tuple[int, SignalValue], ...]] = {}
    for seat in range(hand.options.players):
        partner = hand.options.partner_of(seat)
        view = hand.view(partner) if partner is not None else None
        if view is not None and view.trump is not None:
            heard[seat] = ((0, truthful(view.hand, view.trump)),)
    return heard


@dataclass(slots=True)
class MatchRecord:
    """One simulated match: per-hand points per side, hands won and the winning side."""

    index: int
    first_dealer: int
    hands: list[dict[str, Any]] = field(default_factory=list)
    hands_won: list[int] = field(default_factory=list)
    winner: int = -1

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "first_dealer": self.first_dealer,
            "hands": self.hands,
            "hands_won": self.hands_won,
            "winner": self.winner,
        }


def play_match(
    options: TableOptions,
    bots: list[Bot],
    seed: int,
    index: int,
    first_dealer: int = 0,
    *,
    deaf: frozenset[int] = frozenset(),
) -> MatchRecord:
    """Play a whole match; hand ``k`` of match ``index`` uses ``shuffled_deck(seed, index, k)``
    (``deaf``: as ``play_hand``)."""
    match = Match(options, first_dealer)
    rec = MatchRecord(index, first_dealer)
    while not match.is_over:
        if match.hand_number >= 50:  # only endless points ties could get here
            raise SimulationError("a match did not end after 50 hands")
        tags = (index, match.hand_number)
        hand, redeals = play_dealt_hand(options, seed, tags, match.next_dealer, bots, deaf=deaf)
        rec.hands.append(hand_record(match.record(hand), redeals))
    rec.hands_won = list(match.hands_won())
    rec.winner = match.winner if match.winner is not None else -1
    return rec


def options_from_args(args: argparse.Namespace) -> TableOptions:
    """Table options from the shared command-line flags, with an actionable error if invalid."""
    if args.signals and args.players != 4:
        raise SimulationError("--signals is a 4-player option (partners signal to each other)")
    default = {3: "points", 5: "total"}.get(args.players, "hands")
    try:
        fmt = MatchFormat(args.format or default)
        two = Suit.parse(args.removed_two)
        return TableOptions.make(
            players=args.players,
            match_format=fmt,
            hands_to_win=args.hands_to_win,
            partner_exchange=not args.no_exchange,
            removed_two=two,
            signals=args.signals,
            points_to_win=args.points_to_win,
            double_all=not args.no_double,
            match_hands=args.match_hands,
        )
    except (OptionsError, ValueError) as exc:
        raise SimulationError(str(exc)) from exc


def add_table_arguments(parser: argparse.ArgumentParser) -> None:
    """The table option flags shared by simulate and arena."""
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4, 5))
    parser.add_argument(
        "--format",
        choices=[str(f) for f in MatchFormat],
        default=None,
        help="hands: first to N hands of 61+; points: most points over 2 hands (3 at 3 players); "
        "total: 5 players, each hand's score summed",
    )
    parser.add_argument("--hands-to-win", type=int, default=2, help="1..5 (hands format)")
    parser.add_argument(
        "--no-exchange", action="store_true", help="4 players: no partner hand exchange"
    )
    parser.add_argument(
        "--removed-two", default="d", help="3 players: suit of the removed 2 (d h s c)"
    )
    parser.add_argument(
        "--points-to-win", type=int, default=61, help="5 players: what a rank bid needs (61-120)"
    )
    parser.add_argument(
        "--no-double", action="store_true", help="5 players: no double score for all 120 points"
    )
    parser.add_argument(
        "--match-hands", type=int, default=5, help="5 players: hands in a match (1-20)"
    )
    parser.add_argument(
        "--signals",
        action="store_true",
        help="4 players: partners signal what they hold (each bot once a hand, truthfully)",
    )


def parse_levels(text: str, players: int) -> list[str]:
    """One level per seat from ``a,b,...``.

    One name fills every seat; two names alternate at 4 players (partners share a level) and at 3
    and 5 players give the first to seat 0 and the second to the others (one against the rest).
    """
    levels = [x.strip() for x in text.split(",") if x.strip()]
    if not levels:
        raise SimulationError("--bots needs at least one level")
    for lv in levels:
        try:
            make_chiamata_bot(lv, 0) if players == 5 else make_bot(lv, 0)
        except UnknownLevel as exc:
            raise SimulationError(str(exc)) from exc
    if len(levels) == 1:
        return levels * players
    if len(levels) == 2 and players == 4:
        return [levels[0], levels[1], levels[0], levels[1]]
    if len(levels) == 2 and players in (3, 5):
        return [levels[0], *[levels[1]] * (players - 1)]
    if len(levels) != players:
        raise SimulationError(
            f"--bots gave {len(levels)} levels for {players} seats: give 1, or one per seat"
        )
    return levels


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bots",
        default="strong,random",
        help=f"level per seat, comma separated (levels: {', '.join(LEVELS)})",
    )
    parser.add_argument("--matches", "-n", type=int, default=10, help="number of matches")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same result")
    add_table_arguments(parser)
    parser.add_argument("--json", action="store_true", help="print machine-readable results")
    parser.add_argument(
        "--no-progress", action="store_true", help="no progress bar (shown on a terminal)"
    )
    parser.add_argument(
        "--save",
        metavar="DIR",
        default=None,
        help="play through the full verifiable protocol and save each match's transcripts",
    )
    parser.add_argument(
        "--deal",
        choices=DEAL_MODES,
        default=CLASSIC,
        help="with --save: the deal the protocol uses; blind makes every seat a party that "
        "shuffles and locks the deck (protocol/fairness.md §11; default classic: the seats are "
        "all AI players)",
    )


def simulate(
    options: TableOptions,
    levels: list[str],
    matches: int,
    seed: int,
    *,
    show_progress: bool = False,
) -> dict[str, Any]:
    """Play the matches and return the JSON-ready report (see docs/ai.md for its shape);
    ``show_progress`` draws a bar with the time left on stderr."""
    bots = [make_seat_bot(options, lv, seed * 1000 + s) for s, lv in enumerate(levels)]
    records = [
        play_match(options, bots, seed, i, first_dealer=i % options.players)
        for i in progress(range(matches), matches, "matches", enabled=show_progress)
    ]
    return report(options, levels, seed, records)


def report(
    options: TableOptions, levels: list[str], seed: int, records: list[MatchRecord]
) -> dict[str, Any]:
    sides = options.sides
    matches_won = [0] * sides
    hands_won = [0] * sides
    points = [0] * sides
    hands = drawn = 0
    for r in records:
        if r.winner >= 0:
            matches_won[r.winner] += 1
        for h in r.hands:
            hands += 1
            if "call" in h:  # five players: a seat won the hand if it scored
                for seat, score in enumerate(h["call"]["scores"]):
                    hands_won[seat] += score > 0
            elif h["winner"] is None:
                drawn += 1
            else:
                hands_won[h["winner"]] += 1
            for i, p in enumerate(h["points"]):
                points[i] += p
    totals: dict[str, Any] = {
        "matches": len(records),
        "hands": hands,
        "matches_won": matches_won,
        "hands_won": hands_won,
        "hands_drawn": drawn,
        "points": points,
        "mean_points_per_hand": [round(p / hands, 3) if hands else 0.0 for p in points],
    }
    if options.chiamata:
        totals.update(calls_totals([h["call"] for r in records for h in r.hands], sides))
    return {
        "options": options.to_dict(),
        "seed": seed,
        "bots": levels,
        "sides": [
            [s for s in range(options.players) if options.side_of(s) == i] for i in range(sides)
        ],
        "matches": [r.to_json() for r in records],
        "totals": totals,
    }


def calls_totals(calls: list[dict[str, Any]], seats: int) -> dict[str, Any]:
    """Five players: each seat's score, mean score a hand, calls and calls won, hands as the
    called partner and won, hands played alone, and the deals everyone passed."""
    scores, called, called_won = [0] * seats, [0] * seats, [0] * seats
    partner, partner_won, alone = [0] * seats, [0] * seats, [0] * seats
    for c in calls:
        for seat, score in enumerate(c["scores"]):
            scores[seat] += score
        called[c["caller"]] += 1
        called_won[c["caller"]] += c["won"]
        if c["partner"] == c["caller"]:
            alone[c["caller"]] += 1
        else:
            partner[c["partner"]] += 1
            partner_won[c["partner"]] += c["won"]
    hands = len(calls)
    return {
        "scores": scores,
        "mean_score_per_hand": [round(x / hands, 3) if hands else 0.0 for x in scores],
        "calls": called,
        "calls_won": called_won,
        "partners": partner,
        "partners_won": partner_won,
        "alone": alone,
        "redeals": sum(c["redeals"] for c in calls),
    }


def _save_matches(
    options: TableOptions,
    levels: list[str],
    matches: int,
    seed: int,
    out: Path,
    *,
    deal: str = "classic",
    show_progress: bool = False,
) -> list[MatchRecord]:
    """Play each match through the whole protocol and save its transcripts under ``out``."""
    from briscola_lan.net.games import save_transcripts
    from briscola_lan.table.selfplay import run_selfplay

    records = []
    for i in progress(range(matches), matches, "matches", enabled=show_progress):
        result = run_selfplay(
            options, levels=levels, seed=seed * 1000 + i, entropy=_entropy(seed, i), deal=deal
        )
        save_transcripts(out, result.host.game_id, result.transcripts())
        match = result.host.match
        if match is None:
            raise SimulationError("the protocol self-play ended without a match")
        rec = MatchRecord(i, match.first_dealer)
        redeals = _redeals(result.host.records) if options.chiamata else []
        for k, res in enumerate(match.results):
            rec.hands.append(hand_record(res, redeals[k] if k < len(redeals) else 0))
        rec.hands_won = list(match.hands_won())
        rec.winner = match.winner if match.winner is not None else -1
        records.append(rec)
    return records


def _redeals(records: list[tuple[bytes, bytes]]) -> list[int]:
    """Five players: for each recorded hand of a transcript, the deals everyone passed before
    it (each a host-reveal of no points, fairness.md §13.6)."""
    from briscola_lan.fairness.statements import HostReveal, decode

    out, void = [], 0
    for body, _sig in records:
        st = decode(body)
        if isinstance(st, HostReveal):
            if any(st.points):
                out.append(void)
                void = 0
            else:
                void += 1
    return out


def _entropy(seed: int, index: int) -> Callable[[int], bytes]:
    """Seeded bytes for the protocol's seeds and keys, so a saved run is reproducible.

    Only for simulation: real tables take their entropy from ``secrets``.
    """
    counter = [0]

    def entropy(n: int) -> bytes:
        counter[0] += 1
        return hashlib.shake_256(f"simulate:{seed}:{index}:{counter[0]}".encode()).digest(n)

    return entropy


def format_report(rep: dict[str, Any]) -> str:
    t = rep["totals"]
    opts = TableOptions.from_dict(rep["options"])
    lines = [f"{opts.summary()}  seed {rep['seed']}  {t['matches']} matches, {t['hands']} hands"]
    if opts.chiamata:
        for s, level in enumerate(rep["bots"]):
            lines.append(
                f"seat {s} ({level}): score {t['scores'][s]:+d} "
                f"(mean {t['mean_score_per_hand'][s]:+.2f} a hand), matches won "
                f"{t['matches_won'][s]}, called {t['calls'][s]} (won {t['calls_won'][s]}, alone "
                f"{t['alone'][s]}), partner {t['partners'][s]} (won {t['partners_won'][s]})"
            )
        lines.append(f"deals everyone passed (dealt again): {t['redeals']}")
        return "\n".join(lines)
    for i, seats in enumerate(rep["sides"]):
        who = "+".join(f"{rep['bots'][s]}@{s}" for s in seats)
        lines.append(
            f"side {i} ({who}): matches won {t['matches_won'][i]}, hands won {t['hands_won'][i]}, "
            f"mean points per hand {t['mean_points_per_hand'][i]:.2f}"
        )
    lines.append(f"hands nobody won: {t['hands_drawn']}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    try:
        options = options_from_args(args)
        levels = parse_levels(args.bots, options.players)
        if args.matches < 1:
            raise SimulationError("--matches must be at least 1")
        bar = wanted(args.no_progress)
        if args.save and options.signals:
            raise SimulationError(
                "--signals is not played through the protocol: leave out --save or --signals"
            )
        if args.save:
            records = _save_matches(
                options,
                levels,
                args.matches,
                args.seed,
                Path(args.save),
                deal=args.deal,
                show_progress=bar,
            )
            rep = report(options, levels, args.seed, records)
        else:
            rep = simulate(options, levels, args.matches, args.seed, show_progress=bar)
    except SimulationError as exc:
        print(f"briscola-lan simulate: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(rep, indent=1) if args.json else format_report(rep))
    if args.save:
        print(f"transcripts saved under {args.save}", file=sys.stderr)
    return 0
