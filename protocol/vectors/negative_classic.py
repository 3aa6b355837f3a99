"""Negative vectors of the classic deal (fairness.md §8): deal windows, the partner exchange,
aborts, a hand dealt again after one, evidence, and the options of the match-start."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from functools import partial
from typing import Any

from negative_harness import (
    NO_CONTEXT,
    Cases,
    Edit,
    Outcome,
    Run,
    aborted,
    failed,
    fixed,
    gid_of,
    honest_2p,
    honest_2p_points,
    honest_3p,
    honest_4p,
    host_file,
    seat_file,
    withheld,
)

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    Abort,
    Deal,
    Evidence,
    Exchange,
    HostCommit,
    Play,
    SeedCommit,
    SeedReveal,
    Upcard,
)

cases = Cases()


def host2p() -> Edit:
    """The host's file of the 2-player match of one hand."""
    return host_file(honest_2p())


def seat0_2p() -> Edit:
    """Seat 0's own file of the 2-player match of one hand."""
    return seat_file(honest_2p(), 0)


def host4p() -> Edit:
    return host_file(honest_4p())


def bad_reveal(e: Edit, seat: int) -> tuple[bytes, bytes]:
    """A seed reveal by ``seat`` that does not open its commitment, signed by the seat."""
    return e.signed_inner(
        SeedReveal(gid_of(e), 0, seat, NO_CONTEXT, fixed("not the committed seed"))
    )


# --- deals outside their window (fairness.md §8, deal windows) ----------------------------


@cases
def deal_future_card_before_upcard() -> Outcome:
    e = host2p()
    i = e.find(Deal, seat=1)  # seat 1's initial deal; the upcard follows
    e.sts.insert(i + 1, Deal(e.get(i).game_id, 0, 0, (e.opening(7),)))
    return failed(
        "an extra deal of a stock card (position 7) to seat 0 before the upcard",
        i + 1,
        "host",
        e.records(),
    )


@cases
def deal_future_card_after_trick() -> Outcome:
    e = host2p()
    i = e.find(Deal, 1, seat=0)  # seat 0's draw after the first trick
    d = e.get(i)
    later = e.opening(e.get(e.find(Deal, 2, seat=0)).openings[0].position)
    e.sts[i] = dataclasses.replace(d, openings=(*d.openings, later))
    return failed(
        "seat 0's draw after the first trick also carries the card it draws after the second",
        i,
        "host",
        e.records(),
    )


@cases
def deal_early_mid_trick() -> Outcome:
    e = host2p()
    i = e.find(Play, index=2)  # the first card of the second trick: no deal window is open
    nxt = e.get(e.find(Deal, 2, seat=1))
    e.sts.insert(i + 1, nxt)
    return failed(
        "seat 1's draw after the second trick sent during the second trick",
        i + 1,
        "host",
        e.records(),
    )


@cases
def deal_duplicate() -> Outcome:
    e = host2p()
    i = e.find(Deal, 1, seat=0)
    e.sts.insert(i + 1, e.get(i))
    return failed("seat 0's draw after the first trick sent twice", i + 1, "host", e.records())


@cases
def upcard_before_initial_deals() -> Outcome:
    e = host2p()
    up = e.find(Upcard)
    dc = e.find(Deal, seat=0)
    e.sts.insert(dc, e.sts.pop(up))
    return failed("the upcard turned before the initial deals", dc, "host", e.records())


@cases
def deal_missing() -> Outcome:
    e = host2p()
    i = e.find(Deal, 1, seat=1)
    del e.sts[i]
    return failed(
        "seat 1's draw after the first trick removed from the host's file", i, "host", e.records()
    )


# --- the partner exchange (4 players) ------------------------------------------------------


@cases
def exchange_late() -> Outcome:
    e = host4p()
    first = e.find(Exchange)
    exchanges = [st for st in e.sts if isinstance(st, Exchange)]
    assert len(exchanges) == 4
    del e.sts[first : first + 4]
    assert isinstance(e.get(first), Play)
    e.sts[first + 1 : first + 1] = exchanges
    return failed(
        "4 players: the partner exchange sent after the next card played, not with the last draw",
        first,
        "host",
        e.records(),
    )


# --- aborts --------------------------------------------------------------------------------


@cases
def abort_mid_play_blames_seat() -> Outcome:
    e = host2p()
    i = e.find(Play, index=0)  # the first card of the first trick (no deal window open)
    seat = 1 - e.get(i).seat  # the seat to play next
    e.sts[i + 1 :] = [Abort(gid_of(e), 0, seat, "did not play in time")]
    return aborted(
        f"an abort naming seat {seat}, the seat to play, in the middle of the first trick",
        i + 1,
        "host",
        e.records(),
    )


@cases
def abort_commit_timeout_no_evidence() -> Outcome:
    e = host2p()
    i = e.find(SeedCommit, seat=0)
    e.sts[i + 1 :] = [Abort(gid_of(e), 0, 1, "did not commit to its seed in time")]
    return aborted(
        "an abort naming seat 1 in the commit stage, no evidence, no receipt",
        i + 1,
        "host or seat 1",
        e.records(),
    )


@cases
def abort_unknown_seat() -> Outcome:
    e = host2p()
    i = e.find(SeedCommit, seat=1)
    e.sts[i + 1 :] = [Abort(gid_of(e), 0, 7, "did not reveal its seed in time")]
    return failed("an abort naming seat 7 at a 2-player table", i + 1, "host", e.records())


def reveal_abort(*, cheat: bool, who: str) -> Outcome:
    """Seat 0's seed reveal lost on its way; the host's abort, in the file of ``who``."""
    run = withheld(cheat=cheat)
    blamed = 1 if cheat else 0
    e = host_file(run) if who == "host" else seat_file(run, int(who.removeprefix("seat")))
    ab = e.find(Abort)
    assert e.get(ab).seat == blamed and ab == len(e.sts) - 1
    if cheat:
        desc = "the host receipted seat 1's seed reveal, then aborted naming seat 1"
    else:
        desc = "seat 0's seed reveal never reached the host; timeout abort naming seat 0"
    party = "host" if cheat and who == "seat1" else f"host or seat {blamed}"
    return aborted(f"{desc} ({who}'s file)", ab, party, e.records())


for _cheat in (False, True):
    for _who in ("host", "seat0", "seat1"):
        _name = "reveal-receipted-abort" if _cheat else "reveal-timeout-abort"
        cases.add(f"{_name}-{_who}", partial(reveal_abort, cheat=_cheat, who=_who))


# --- after an abort (§8.7): the hand is dealt again with the next number, by the same dealer


def dealt_again(hand: int) -> tuple[Edit, int]:
    """The timeout abort naming seat 0, then a host-commit for ``hand`` by the same dealer."""
    e = host_file(withheld(cheat=False))
    ab = e.find(Abort)
    commit = e.get(e.find(HostCommit))
    e.sts[ab + 1 :] = [HostCommit(commit.game_id, hand, commit.dealer, fixed("dealt again"))]
    return e, ab


@cases
def abort_dealt_again() -> Outcome:
    e, ab = dealt_again(1)
    return aborted(
        "a timeout abort naming seat 0, then the hand dealt again as hand 1 by the same dealer "
        "(the match goes on: the verdict is the abort's)",
        ab,
        "host or seat 0",
        e.records(),
    )


@cases
def abort_dealt_again_same_number() -> Outcome:
    e, ab = dealt_again(0)
    return failed(
        "the hand dealt again after an abort under the aborted hand's number",
        ab + 1,
        "host",
        e.records(),
    )


@cases
def abort_host_then_dealt_again() -> Outcome:
    e, ab = dealt_again(1)
    e.sts[ab] = dataclasses.replace(e.get(ab), seat=HOST_PARTY, reason="the host stopped")
    return failed(
        "an abort naming the host ends the match: a hand dealt after it",
        ab + 1,
        "host",
        e.records(),
    )


# --- evidence ------------------------------------------------------------------------------


@cases
def evidence_opens_commitment() -> Outcome:
    e = host2p()
    gid = gid_of(e)
    i = e.find(SeedReveal, seat=1)
    good = e.records_in[i]
    e.sts[i:] = [Evidence(gid, 0, 1, *good), Abort(gid, 0, 1, "bad seed reveal")]
    return failed(
        "evidence whose seed reveal does opens seat 1's commitment", i, "host", e.records()
    )


@cases
def evidence_bad_reveal() -> Outcome:
    e = host2p()
    gid = gid_of(e)
    i = e.find(SeedReveal, seat=1)
    e.sts[i:] = [Evidence(gid, 0, 1, *bad_reveal(e, 1)), Abort(gid, 0, 1, "bad seed reveal")]
    return aborted(
        "seat 1's signed reveal that does not open its commitment, published, then the abort",
        i,
        "seat 1",
        e.records(),
    )


@cases
def evidence_without_abort() -> Outcome:
    e = host2p()
    i = e.find(SeedReveal, seat=1)
    e.sts[i:i] = [Evidence(gid_of(e), 0, 1, *bad_reveal(e, 1))]
    return failed(
        "evidence against seat 1 followed by seat 1's reveal instead of the abort",
        i + 1,
        "host",
        e.records(),
    )


@cases
def evidence_of_another_seat() -> Outcome:
    e = host2p()
    gid = gid_of(e)
    i = e.find(SeedReveal, seat=1)
    e.sts[i:] = [Evidence(gid, 0, 1, *bad_reveal(e, 0)), Abort(gid, 0, 1, "bad seed reveal")]
    return failed(
        "evidence naming seat 1 whose inner bad reveal is seat 0's", i, "host", e.records()
    )


@cases
def evidence_abort_other_seat() -> Outcome:
    e = host2p()
    gid = gid_of(e)
    i = e.find(SeedReveal, seat=1)
    e.sts[i:] = [Evidence(gid, 0, 1, *bad_reveal(e, 1)), Abort(gid, 0, 0, "bad seed reveal")]
    return failed(
        "evidence against seat 1 followed by an abort naming seat 0", i + 1, "host", e.records()
    )


# --- options (match-start) -----------------------------------------------------------------


def options_case(description: str, match: Callable[[], Run], changes: dict[str, Any]) -> Outcome:
    """The match-start with ``changes``: the host's fault, at record 0."""
    e = host_file(match())
    e.sts[0] = dataclasses.replace(e.get(0), **changes)
    return failed(description, 0, "host", e.records())


OPTIONS: list[tuple[str, str, Callable[[], Run], dict[str, Any]]] = [
    # name, description, the match edited, the match-start's changed fields
    (
        "options-partner-exchange-2",
        "match-start with partner_exchange = 2",
        honest_2p,
        {"partner_exchange": 2},
    ),
    *(
        (
            f"options-points-hands-to-win-{htw}",
            f"points format with hands_to_win = {htw}",
            honest_2p_points,
            {"hands_to_win": htw},
        )
        for htw in (0, 9)
    ),
    ("options-ai-level-unknown", 'an AI level "expert"', honest_2p, {"ai_levels": ("", "expert")}),
    ("options-removed-two-4", "removed_two = 4 (not a suit)", honest_2p, {"removed_two": 4}),
    ("options-first-dealer-2", "first_dealer = 2 at 2 players", honest_2p, {"first_dealer": 2}),
    (
        "options-hands-format-3p",
        "3 players in the hands format",
        honest_3p,
        {"match_format": "hands"},
    ),
]
for _name, _desc, _match, _changes in OPTIONS:
    cases.add(_name, partial(options_case, _desc, _match, _changes))
