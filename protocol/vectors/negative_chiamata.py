"""Negative vectors of five players, Briscola chiamata (fairness.md §13): the auction's bids and
the call, as a cheating host would relay them (out of turn, illegal, dropped, reordered, forged,
made over another history) or withhold them, and the hand everyone passed."""

from __future__ import annotations

import dataclasses

from negative_harness import (
    NO_CONTEXT,
    Cases,
    Edit,
    Outcome,
    failed,
    fixed,
    gid_of,
    honest_5p,
    honest_5p_redealt,
    host_file,
    incomplete,
    seat_file,
)

from briscola_lan.fairness.statements import (
    BidStatement,
    CallStatement,
    Deal,
    HostCommit,
    HostReveal,
    MatchOptions,
    MatchStart,
    Play,
    Receipt,
    Upcard,
    decode,
)

cases = Cases()


def host5p() -> Edit:
    """The host's file of the 5-player match of one hand (nine bids, then the call)."""
    return host_file(honest_5p())


def bid_at(e: Edit, index: int) -> int:
    """The record of the hand's ``index``-th bid."""
    return e.find(BidStatement, index=index)


# --- the auction ---------------------------------------------------------------------------


@cases
def chiamata_bid_out_of_turn() -> Outcome:
    e = host5p()
    i = bid_at(e, 1)  # seat 2 bids second; the host relays one signed by seat 3 instead
    e.sts[i] = dataclasses.replace(e.get(i), seat=3)
    return failed("the second bid made by seat 3, whose turn it was not", i, "host", e.records())


@cases
def chiamata_bid_not_topping() -> Outcome:
    e = host5p()
    i = bid_at(e, 5)  # seat 1 bids the 5 over a jack; here the king, which does not top it
    e.sts[i] = dataclasses.replace(e.get(i), bid=2)
    return failed(
        "a bid of the king over the jack (each bid must stand higher on the ladder)",
        i,
        "host",
        e.records(),
    )


@cases
def chiamata_bid_not_a_bid() -> Outcome:
    e = host5p()
    i = bid_at(e, 0)
    e.sts[i] = dataclasses.replace(e.get(i), bid=30)
    return failed(
        "a bid of 30: neither a rank 0-9, points 61-120 nor a pass", i, "host", e.records()
    )


@cases
def chiamata_bid_dropped() -> Outcome:
    e = host5p()
    i = bid_at(e, 3)  # seat 4's pass is dropped: seat 0's bid comes as number 4
    del e.sts[i]
    return failed("seat 4's pass left out of the auction", i, "host", e.records())


@cases
def chiamata_bids_reordered() -> Outcome:
    e = host5p()
    a, b = bid_at(e, 1), bid_at(e, 2)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed(
        "the second and third bids published in each other's place", a, "host", e.records()
    )


@cases
def chiamata_bid_forged() -> Outcome:
    e = host5p()
    i = bid_at(e, 1)  # seat 2's bid, signed by the host's key instead of seat 2's
    body = e.get(i).encode()
    e.sigs[body] = e.run.host_key.sign(body)
    return failed("seat 2's bid signed by the host's key", i, "host", e.records())


@cases
def chiamata_bid_other_history() -> Outcome:
    e = host5p()
    i = bid_at(e, 2)
    e.sts[i] = dataclasses.replace(e.get(i), context=fixed("another history"))
    return failed(
        "seat 3's bid made over another history than the file's (the host showed it another "
        "auction)",
        i,
        "host",
        e.records(keep_context=frozenset({i})),
    )


@cases
def chiamata_bid_receipted_published_other() -> Outcome:
    e = seat_file(honest_5p(), 2)
    i = e.find(BidStatement, seat=2)  # seat 2's first bid, receipted to it
    receipt = next(
        k
        for k in range(i + 1, len(e.sts))
        if isinstance(e.get(k), Receipt) and isinstance(decode(e.get(k).statement), BidStatement)
    )
    assert e.get(i).bid == 3  # the knight, over the 3: the king tops the 3 as well
    e.sts[i] = dataclasses.replace(e.get(i), bid=2)
    return failed(
        "seat 2's own file: the host received its bid (the receipt) and published another",
        receipt,
        "host",
        e.records(),
    )


@cases
def chiamata_auction_withheld() -> Outcome:
    e = host5p()
    i = bid_at(e, 3)  # the file ends before seat 4's bid: it owes it
    del e.sts[i:]
    return incomplete("the file ends in the auction, seat 4 to bid", e.records(), "seat 4")


@cases
def chiamata_closed_in_auction() -> Outcome:
    e = host5p()
    i, end = bid_at(e, 3), e.find(HostReveal)
    e.sts[i:end] = []
    return failed("the host reveals the hand in the middle of its auction", i, "host", e.records())


# --- the call --------------------------------------------------------------------------------


@cases
def chiamata_call_by_another() -> Outcome:
    e = host5p()
    i = e.find(CallStatement)  # seat 3 won the auction; seat 1 calls instead
    e.sts[i] = dataclasses.replace(e.get(i), seat=1)
    return failed("the call made by seat 1, which did not win the auction", i, "host", e.records())


@cases
def chiamata_call_not_a_suit() -> Outcome:
    e = host5p()
    i = e.find(CallStatement)
    e.sts[i] = dataclasses.replace(e.get(i), suit=4)
    return failed("a call of suit 4 (suits are 0 to 3)", i, "host", e.records())


@cases
def chiamata_call_missing() -> Outcome:
    e = host5p()
    i = e.find(CallStatement)
    del e.sts[i]
    return failed("the first card played before the call", i, "host", e.records())


@cases
def chiamata_call_before_auction_ends() -> Outcome:
    e = host5p()
    i, call = bid_at(e, 8), e.find(CallStatement)  # the last pass comes after the call
    e.sts[i], e.sts[call] = e.sts[call], e.sts[i]
    return failed("the call made before the auction's last pass", i, "host", e.records())


@cases
def chiamata_upcard_turned() -> Outcome:
    e = host5p()
    i = e.find(Deal, seat=4) + 1  # after the deal: no upcard at five players
    e.sts.insert(i, Upcard(gid_of(e), 0, e.opening(25)))
    return failed("an upcard turned at five players", i, "host", e.records())


@cases
def chiamata_play_before_auction() -> Outcome:
    e = host5p()
    i, first = bid_at(e, 0), e.find(Play, index=0)
    e.sts.insert(i, dataclasses.replace(e.get(first), context=NO_CONTEXT))
    return failed("a card played before the auction", i, "host", e.records())


# --- the hand everyone passed ----------------------------------------------------------------


@cases
def chiamata_redeal_points() -> Outcome:
    e = host_file(honest_5p_redealt())
    i = e.find(HostReveal)  # the void hand: no card played, no points
    e.sts[i] = dataclasses.replace(e.get(i), points=(120, 0, 0, 0, 0))
    return failed("the void hand's reveal announces points", i, "host", e.records())


@cases
def chiamata_redeal_other_dealer() -> Outcome:
    e = host_file(honest_5p_redealt())
    i = e.find(HostCommit, 1)  # the same dealer deals a hand everyone passed again
    e.sts[i] = dataclasses.replace(e.get(i), dealer=1)
    return failed("the hand everyone passed dealt again by the next seat", i, "host", e.records())


@cases
def chiamata_redeal_same_number() -> Outcome:
    e = host_file(honest_5p_redealt())
    i = e.find(HostCommit, 1)  # a new deal, a new hand number
    e.sts[i] = dataclasses.replace(e.get(i), hand=0)
    return failed("the hand dealt again with the void hand's number", i, "host", e.records())


# --- the table's options -------------------------------------------------------------------


@cases
def chiamata_options_signals() -> Outcome:
    e = host5p()
    i = e.find(MatchOptions)
    e.sts[i] = MatchOptions(gid_of(e), ("match_hands=1", "signals=allowed"))
    return failed(
        "signals at a table of five (there are no fixed partners)", i, "host", e.records()
    )


@cases
def chiamata_hands_format() -> Outcome:
    e = host5p()
    e.sts[0] = dataclasses.replace(e.get(0), match_format="hands")
    assert isinstance(e.get(0), MatchStart)
    return failed("a five-player match-start in the hands format", 0, "host", e.records())
