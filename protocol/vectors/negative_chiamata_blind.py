"""Negative vectors of five players dealt blind (fairness.md §13.9): the auction's bids and the
call in a blind hand as a cheating host would relay them (out of turn, forged, reordered, before
the cards were delivered, over another history), a call naming no card, a card played before
the call, a withheld bid, and the hand everyone passed (with plays, with points, dealt again by
another seat); and a blind hand in a classic five-player match."""

from __future__ import annotations

import dataclasses

from negative_harness import (
    Cases,
    Edit,
    Outcome,
    aborted,
    failed,
    fixed,
    gid_of,
    honest_5p_redealt,
    honest_blind_5p,
    honest_blind_5p_redealt,
    host_file,
    incomplete,
)

from briscola_lan.fairness.statements import (
    Abort,
    BidStatement,
    BlindEnd,
    BlindPlay,
    BlindStart,
    CallStatement,
    HostCommit,
    Shares,
)

cases = Cases()


def host5b() -> Edit:
    """The host's file of the blind 5-player match of one hand: seats 1 and 2 pass, seat 3 bids
    the king, seat 4 the knight, seat 0 passes, seat 3 the jack, seat 4 the 7, seat 3 passes;
    seat 4 calls coins."""
    return host_file(honest_blind_5p())


def redealt5b() -> Edit:
    """The host's file of the blind 5-player match whose first deal everyone passed."""
    return host_file(honest_blind_5p_redealt())


def bid_at(e: Edit, index: int, n: int = 0) -> int:
    """The record of the ``index``-th bid of the ``n``-th hand that has one."""
    return e.find(BidStatement, n, index=index)


# --- the auction in a blind hand -------------------------------------------------------------


@cases
def blind5_bid_out_of_turn() -> Outcome:
    e = host5b()
    i = bid_at(e, 1)  # seat 2 bids second; the host relays one signed by seat 3 instead
    e.sts[i] = dataclasses.replace(e.get(i), seat=3)
    return failed(
        "blind deal: the second bid made by seat 3, whose turn it was not", i, "host", e.records()
    )


@cases
def blind5_bid_forged() -> Outcome:
    e = host5b()
    i = bid_at(e, 2)  # seat 3's bid, signed by the host's key instead of seat 3's
    body = e.get(i).encode()
    e.sigs[body] = e.run.host_key.sign(body)
    return failed("blind deal: seat 3's bid signed by the host's key", i, "host", e.records())


@cases
def blind5_bids_reordered() -> Outcome:
    e = host5b()
    a, b = bid_at(e, 2), bid_at(e, 3)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed(
        "blind deal: the third and fourth bids published in each other's place",
        a,
        "host",
        e.records(),
    )


@cases
def blind5_bid_two_histories() -> Outcome:
    e = host5b()
    i = bid_at(e, 3)
    e.sts[i] = dataclasses.replace(e.get(i), context=fixed("another auction"))
    return failed(
        "blind deal: seat 4's bid made over another history than the file's (the host showed "
        "it another auction)",
        i,
        "host",
        e.records(keep_context=frozenset({i})),
    )


@cases
def blind5_bid_before_cards() -> Outcome:
    e = host5b()
    first, last_shares = bid_at(e, 0), e.find(Shares, seat=4)
    e.sts.insert(last_shares, e.sts.pop(first))  # before seat 4's keys for window 0
    return failed(
        "blind deal: the first bid published before every seat's cards were delivered (window "
        "0's shares not all in)",
        last_shares,
        "host",
        e.records(),
    )


@cases
def blind5_auction_withheld() -> Outcome:
    e = host5b()
    del e.sts[bid_at(e, 3) :]  # the file ends before seat 4's bid: it owes it
    return incomplete(
        "blind deal: the file ends in the auction, seat 4 to bid", e.records(), "seat 4"
    )


@cases
def blind5_abort_seat_to_bid() -> Outcome:
    e = host5b()
    i = bid_at(e, 3)
    e.sts[i:] = [Abort(gid_of(e), 0, 4, "did not bid in time")]
    return aborted(
        "blind deal: an abort naming seat 4, the seat to bid, with no receipt for its bid",
        i,
        "host or seat 4",
        e.records(),
    )


@cases
def blind5_abort_seat_not_to_bid() -> Outcome:
    e = host5b()
    i = bid_at(e, 3)
    e.sts[i:] = [Abort(gid_of(e), 0, 1, "did not bid in time")]
    return aborted(
        "blind deal: an abort naming seat 1, which passed and owes nothing (seat 4 is to bid)",
        i,
        "host",
        e.records(),
    )


# --- the call in a blind hand ----------------------------------------------------------------


@cases
def blind5_call_by_another() -> Outcome:
    e = host5b()
    i = e.find(CallStatement)  # seat 4 won the auction; seat 3 calls instead
    e.sts[i] = dataclasses.replace(e.get(i), seat=3)
    return failed(
        "blind deal: the call made by seat 3, which did not win the auction", i, "host", e.records()
    )


@cases
def blind5_call_names_no_card() -> Outcome:
    e = host5b()
    i = e.find(CallStatement)
    e.sts[i] = dataclasses.replace(e.get(i), suit=4)
    return failed(
        "blind deal: a call of suit 4, which names no card of the bid's rank (suits are 0 to 3)",
        i,
        "host",
        e.records(),
    )


@cases
def blind5_play_before_call() -> Outcome:
    e = host5b()
    i = e.find(CallStatement)
    del e.sts[i]
    return failed(
        "blind deal: the first card played before the call (no briscola yet)",
        i,
        "host",
        e.records(),
    )


# --- the hand everyone passed, dealt blind ---------------------------------------------------


@cases
def blind5_void_hand_with_plays() -> Outcome:
    e = redealt5b()
    end = e.find(BlindEnd)  # right after the fifth pass
    play = e.get(e.find(BlindPlay, index=0))  # the next hand's first card, made for this one
    e.sts.insert(end, dataclasses.replace(play, hand=0))
    return failed("blind deal: a card played in the hand everyone passed", end, "host", e.records())


@cases
def blind5_void_hand_points() -> Outcome:
    e = redealt5b()
    i = e.find(BlindEnd)
    e.sts[i] = dataclasses.replace(e.get(i), points=(120, 0, 0, 0, 0))
    return failed(
        "blind deal: the end of the hand everyone passed announces points", i, "host", e.records()
    )


@cases
def blind5_void_redealt_other_dealer() -> Outcome:
    e = redealt5b()
    i = e.find(BlindStart, 1)  # the same dealer deals a hand everyone passed again
    e.sts[i] = dataclasses.replace(e.get(i), dealer=1)
    return failed(
        "blind deal: the hand everyone passed dealt again by the next seat", i, "host", e.records()
    )


@cases
def blind5_void_redealt_same_number() -> Outcome:
    e = redealt5b()
    i = e.find(BlindStart, 1)  # a new deal, a new hand number
    e.sts[i] = dataclasses.replace(e.get(i), hand=0)
    return failed(
        "blind deal: the hand dealt again with the void hand's number", i, "host", e.records()
    )


# --- the deal mode never changes ----------------------------------------------------------


@cases
def chiamata_blind_start_in_classic_match() -> Outcome:
    e = host_file(honest_5p_redealt())
    i = e.find(HostCommit, 1)  # the redeal of a classic match, opened as a blind hand
    hc = e.get(i)
    e.sts[i] = BlindStart(hc.game_id, hc.hand, hc.dealer, 10)
    return failed(
        "a blind hand in a classic five-player match (the mode never changes)",
        i,
        "host",
        e.records(),
    )
