"""Negative vectors of the table options beyond match-start and the partners' signals
(fairness.md §12): a match-options record out of place or not valid, a signal at a table that
does not allow them, at another moment than the hand's, twice in a trick, before the deal or after
the last card, and a signal the host receipted and never published."""

from __future__ import annotations

import dataclasses

from negative_harness import (
    NO_CONTEXT,
    Cases,
    Edit,
    Outcome,
    failed,
    gid_of,
    honest_2p,
    honest_4p,
    honest_4p_signals,
    honest_blind_4p_signals,
    host_file,
    seat_file,
)

from briscola_lan.fairness.statements import (
    BlindPlay,
    BlindStart,
    HostCommit,
    HostReveal,
    MatchOptions,
    MatchStart,
    Play,
    Receipt,
    Signal,
    Upcard,
    decode,
)

cases = Cases()


def host_signals() -> Edit:
    """The host's file of the classic 4-player hand with signals."""
    return host_file(honest_4p_signals())


# --- match-options (fairness.md §12.1) ------------------------------------------------------


@cases
def match_options_late() -> Outcome:
    e = host_signals()
    i = e.find(MatchOptions)
    st = e.sts.pop(i)
    j = e.find(HostCommit)
    e.sts.insert(j + 1, st)
    return failed(
        "the match-options record comes after the hand's host-commit, not right after match-start",
        j + 1,
        "host",
        e.records(),
    )


@cases
def match_options_unknown() -> Outcome:
    e = host_signals()
    i = e.find(MatchOptions)
    e.sts[i] = dataclasses.replace(e.get(i), options=("signals=allowed", "tempo=fast"))
    return failed(
        "match-options names an option this revision does not define", i, "host", e.records()
    )


@cases
def match_options_two_players() -> Outcome:
    e = host_file(honest_2p())
    i = e.find(MatchStart)
    e.sts.insert(i + 1, MatchOptions(gid_of(e), ("signals=allowed",)))
    return failed(
        "signals allowed at a table of 2 players (an option only 4 players have)",
        i + 1,
        "host",
        e.records(),
    )


# --- signals (fairness.md §12.4) ------------------------------------------------------------


@cases
def signal_not_allowed() -> Outcome:
    e = host_file(honest_4p())
    i = e.find(Upcard)
    e.sts.insert(i + 1, Signal(gid_of(e), 0, 1, NO_CONTEXT, 0, 0x5EA1ED))
    return failed(
        "seat 1 signals at a table that does not allow signals", i + 1, "host", e.records()
    )


@cases
def signal_twice_in_a_trick() -> Outcome:
    e = host_signals()
    i = e.find(Signal, seat=0, index=0)
    e.sts.insert(i + 1, dataclasses.replace(e.get(i), sealed=e.get(i).sealed ^ 1))
    return failed("seat 0 signals a second time in the first trick", i + 1, "host", e.records())


@cases
def signal_at_another_moment() -> Outcome:
    e = host_signals()
    i = e.find(Signal, seat=0, index=4)  # made when 4 cards were played
    e.sts[i] = dataclasses.replace(e.get(i), index=5)
    return failed(
        "seat 0's signal of the second trick says it was made after 5 cards, when 4 were played",
        i,
        "host",
        e.records(),
    )


@cases
def signal_before_the_upcard() -> Outcome:
    e = host_signals()
    i = e.find(Signal, seat=0, index=0)
    st = e.sts.pop(i)
    j = e.find(Upcard)
    e.sts.insert(j, st)
    return failed("seat 0 signals before the upcard is turned", j, "host", e.records())


@cases
def signal_after_the_last_card() -> Outcome:
    e = host_signals()
    j = e.find(HostReveal)
    e.sts.insert(j, Signal(gid_of(e), 0, 0, NO_CONTEXT, 40, 0x5EA1ED))
    return failed("seat 0 signals once every card is played", j, "host", e.records())


@cases
def signal_receipted_not_published() -> Outcome:
    e = seat_file(honest_4p_signals(), 0)
    i = e.find(Signal, seat=0, index=8)
    receipted = next(
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt) and decode(st.statement) == e.get(i)
    )
    assert receipted > i
    del e.sts[i]
    return failed(
        "seat 0's own file: the host receipted its signal of the third trick and never "
        "published it (the hand's result is where the file says so)",
        e.find(HostReveal),
        "host",
        e.records(),
    )


@cases
def blind_signal_at_another_moment() -> Outcome:
    e = host_file(honest_blind_4p_signals())
    assert isinstance(e.get(0), MatchStart) and any(isinstance(s, BlindStart) for s in e.sts)
    i = e.find(Signal, seat=0, index=4)
    e.sts[i] = dataclasses.replace(e.get(i), index=3)
    return failed(
        "a blind hand: seat 0's signal of the second trick says it was made after 3 cards",
        i,
        "host",
        e.records(),
    )


@cases
def blind_signal_after_the_last_card() -> Outcome:
    e = host_file(honest_blind_4p_signals())
    last = max(k for k, st in enumerate(e.sts) if isinstance(st, BlindPlay | Play))
    e.sts.insert(last + 1, Signal(gid_of(e), 0, 0, NO_CONTEXT, 40, 0x5EA1ED))
    return failed(
        "a blind hand: seat 0 signals once every card is played", last + 1, "host", e.records()
    )
