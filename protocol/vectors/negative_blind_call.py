"""Negative vectors of the blind deal (fairness.md §11), continued: aborts without a dispute, the
partner exchange's shows, the call and the deal modes, incomplete files and overdue key reveals."""

from __future__ import annotations

import dataclasses
from functools import partial

from negative_blind import host_blind, led
from negative_harness import (
    NO_CONTEXT,
    Cases,
    Edit,
    Outcome,
    aborted,
    failed,
    fixed,
    flipped,
    gid_of,
    honest_2p_long,
    honest_blind_2p,
    honest_blind_2p_ai,
    honest_blind_2p_long,
    honest_blind_4p,
    host_file,
    incomplete,
    seat_file,
    with_point,
    withheld_reveal,
)

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    BlindEnd,
    BlindPlay,
    BlindStart,
    HostCommit,
    KeyReveal,
    Overdue,
    Present,
    Receipt,
    SeedCommit,
    Shares,
    Show,
    ShufflePass,
    Takeover,
    decode,
)

cases = Cases()


# --- §11.9 aborts without a dispute --------------------------------------------------------


def abort_after_first_card(blamed: int) -> tuple[Edit, int]:
    """The blind hand cut after its first card: the host's abort naming ``blamed``."""
    e = host_blind()
    i = e.find(BlindPlay, index=0)
    e.sts[i + 1 :] = [Abort(gid_of(e), 0, blamed, "did not play in time")]
    return e, i


@cases
def blind_abort_seat_owes_nothing() -> Outcome:
    e, i = abort_after_first_card(led())
    return aborted(
        f"an abort naming seat {led()}, which just led, while seat {1 - led()} is to play "
        "(§11.9 rule 4)",
        i + 1,
        "host",
        e.records(),
    )


@cases
def blind_abort_seat_to_play() -> Outcome:
    e, i = abort_after_first_card(1 - led())
    return aborted(
        f"an abort naming seat {1 - led()}, the seat to play (the host cannot play a party's "
        "cards): no receipt (§11.9 rule 5)",
        i + 1,
        f"host or seat {1 - led()}",
        e.records(),
    )


@cases
def blind_abort_by_host() -> Outcome:
    e = host_blind()
    i = e.find(ShufflePass, seat=1)
    e.sts[i:] = [Abort(gid_of(e), 0, HOST_PARTY, "the host stopped the hand")]
    return aborted(
        "the host aborts naming itself before seat 1 shuffled (§11.9 rule 1)",
        i,
        "host",
        e.records(),
    )


def abort_shares_receipted(who: str) -> Outcome:
    """The host aborts naming seat 1 at the first draw's shares, in the file of ``who``."""
    run = honest_blind_2p()
    e = host_file(run) if who == "host" else seat_file(run, 1)
    w1 = e.find(Shares, window=1)
    got = [
        k
        for k, st in enumerate(e.sts)
        if isinstance(st, Receipt)
        and isinstance(decode(st.statement), Shares)
        and decode(st.statement).window == 1  # type: ignore[attr-defined]
    ]
    assert (got and got[0] < w1) if who == "seat1" else not got
    e.sts[w1:] = [Abort(gid_of(e), 0, 1, "did not send its shares in time")]
    return aborted(
        f"{who}'s file: the host receipted seat 1's shares for the first draw, then aborted "
        "naming seat 1 (§11.9 rule 5)",
        w1,
        "host" if who == "seat1" else "host or seat 1",
        e.records(),
    )


for _who in ("host", "seat1"):
    cases.add(f"blind-abort-shares-receipted-{_who}", partial(abort_shares_receipted, _who))


def first_play_receipt(e: Edit) -> tuple[int, int]:
    """In seat 0's file: its first play, and the receipt the host gave for it later."""
    p = e.find(BlindPlay, seat=0)
    r = next(
        k
        for k, st in enumerate(e.sts)
        if k > p and isinstance(st, Receipt) and decode(st.statement) == e.get(p)
    )
    return p, r


@cases
def blind_abort_play_receipted_seat0() -> Outcome:
    e = seat_file(honest_blind_2p(), 0)
    p, r = first_play_receipt(e)
    e.sts[p:] = [e.get(r), Abort(gid_of(e), 0, 0, "did not play in time")]
    return aborted(
        "seat 0's file: the host receipted seat 0's play and did not publish it, then aborted "
        "naming seat 0 (§11.9 rule 5)",
        p + 1,
        "host",
        e.records(),
    )


@cases
def blind_receipt_play_differs() -> Outcome:
    e = seat_file(honest_blind_2p(), 0)
    p, r = first_play_receipt(e)
    rp = e.get(r)
    other = dataclasses.replace(decode(rp.statement), card=(e.get(p).card + 1) % 40)
    body, sig = e.signed_inner(other)
    e.sts[r] = dataclasses.replace(rp, statement=body, signature=sig)
    return failed(
        "seat 0's file: the receipt for seat 0's first play holds another card than the play "
        "published (§11.10)",
        r,
        "host",
        e.records(),
    )


# --- §11.6 the partner exchange (4 players) ------------------------------------------------


def host_blind4p() -> Edit:
    return host_file(honest_blind_4p())


@cases
def blind_show_false() -> Outcome:
    e = host_blind4p()
    i = e.find(Show, seat=1)
    show = e.get(i)
    e.sts[i] = dataclasses.replace(show, values=(flipped(show.values[0]), *show.values[1:]))
    return failed(
        "4 players: seat 1's show holds a wrong key for its first position; found once every "
        "party revealed (§11.8)",
        i,
        "seat 1",
        e.records(),
    )


@cases
def blind_show_not_the_whole_hand() -> Outcome:
    e = host_blind4p()
    i = e.find(Show, seat=2)
    show = e.get(i)
    e.sts[i] = dataclasses.replace(show, positions=show.positions[1:], values=show.values[1:])
    return failed(
        "4 players: seat 2 shows its partner two of its three cards (§11.6)",
        i,
        "seat 2",
        e.records(),
    )


@cases
def blind_shows_out_of_seat_order() -> Outcome:
    e = host_blind4p()
    a, b = e.find(Show, seat=0), e.find(Show, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed(
        "4 players: seat 1's show published before seat 0's (§11.6)", a, "host", e.records()
    )


# --- §11.3 the call, the parties and modes -------------------------------------------------


@cases
def blind_presents_out_of_order() -> Outcome:
    e = host_blind()
    a, b = e.find(Present, seat=0), e.find(Present, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed(
        "seat 1's present published before seat 0's (§11.3: seat order)", b, "host", e.records()
    )


@cases
def blind_present_twice() -> Outcome:
    e = host_blind()
    i = e.find(Present, seat=1)
    e.sts.insert(i + 1, e.get(i))
    return failed("seat 1's present published twice (§11.3)", i + 1, "host", e.records())


@cases
def blind_present_of_ai_seat() -> Outcome:
    e = host_file(honest_blind_2p_ai())
    i = e.find(Present, seat=0)
    e.sts.insert(i + 1, dataclasses.replace(e.get(i), seat=1))
    return failed(
        "AI in seat 1: a present for the AI seat, signed with its key (§11.3: only a person's "
        "seat answers the call)",
        i + 1,
        "host",
        e.records(),
    )


@cases
def blind_present_after_call() -> Outcome:
    e = host_blind()
    i = e.find(ShufflePass, seat=0)
    e.sts.insert(i + 1, e.get(e.find(Present, seat=1)))
    return failed(
        "seat 1's present again after the first shuffle pass (§11.3: the call is over)",
        i + 1,
        "host",
        e.records(),
    )


@cases
def blind_left_out_with_receipt() -> Outcome:
    e = seat_file(honest_blind_2p(), 1)
    i = e.find(Present, seat=1)
    receipt = e.receipt_of(Present)
    del e.sts[i]
    return failed(
        "seat 1's own file: the host receipted seat 1's present, then published the call's "
        "answers without it and played the seat itself (§11.3: a fake 'away')",
        receipt,
        "host",
        e.records(),
    )


@cases
def blind_abort_during_call() -> Outcome:
    e = host_blind()
    e.sts[e.find(Present, seat=1) + 1 :] = [Abort(gid_of(e), 0, 1, "did not answer the call")]
    return aborted(
        "an abort naming seat 1 while the call's answers come in: a seat that does not answer "
        "is played by the host, never a reason to abort (§11.3)",
        e.find(Abort),
        "host",
        e.records(),
    )


@cases
def blind_host_party_pass_duplicate_point() -> Outcome:
    e = host_file(honest_blind_2p_ai())
    i = e.find(ShufflePass, seat=HOST_PARTY)
    e.sts[i] = with_point(e.get(i), 3, e.get(i).points[2])
    return failed(
        "AI in seat 1: the host's own shuffle pass, as the party of the seat it plays, holds "
        "one point twice (§11.4: its party's fault)",
        i,
        "host",
        e.records(),
    )


@cases
def blind_takeover() -> Outcome:
    e = host_blind()
    i = e.find(BlindStart) + 1
    e.sts.insert(i, Takeover(gid_of(e), 0, 1, 1, 0))
    return failed("a takeover in a blind match (§11.3)", i, "host", e.records())


@cases
def blind_classic_record_in_blind_hand() -> Outcome:
    e = host_blind()
    i = e.find(ShufflePass, seat=0)
    e.sts.insert(i, SeedCommit(gid_of(e), 0, 0, NO_CONTEXT, fixed("a seed commitment")))
    return failed("seat 0's seed-commit in a blind hand (§11.3)", i, "host", e.records())


@cases
def blind_classic_record_after_blind_hand() -> Outcome:
    e = host_file(honest_blind_2p_long())
    i = e.find(BlindStart, hand=1)
    assert isinstance(e.get(i - 1), Ack)
    e.sts.insert(i, SeedCommit(gid_of(e), 0, 0, NO_CONTEXT, fixed("a seed commitment")))
    return failed(
        "seat 0's seed-commit for the first hand after its blind-end and acks (§11.3)",
        i,
        "host",
        e.records(),
    )


@cases
def blind_host_commit_after_blind_hand() -> Outcome:
    e = host_file(honest_blind_2p_long())
    i = e.find(BlindStart, hand=1)
    second = e.get(i)
    e.sts[i] = HostCommit(second.game_id, 1, second.dealer, fixed("a host commitment"))
    return failed(
        "the second hand of a blind match opened with a host-commit (§11.3)",
        i,
        "host",
        e.records(),
    )


@cases
def blind_start_in_classic_match() -> Outcome:
    e = host_file(honest_2p_long())
    i = e.find(HostCommit, hand=1)
    hc = e.get(i)
    e.sts[i] = BlindStart(hc.game_id, 1, hc.dealer, 10)
    return failed(
        "the second hand of a classic match opened with a blind-start (§11.3)",
        i,
        "host",
        e.records(),
    )


# --- §11.10 incomplete files: who the hand waits for ---------------------------------------


@cases
def blind_stops_before_the_locks() -> Outcome:
    e = host_blind()
    e.sts[e.find(ShufflePass, seat=1) + 1 :] = []
    return incomplete(
        "the file ends after the shuffles: the hand waits for seat 0's lock (§11.10)",
        e.records(),
        "seat 0",
    )


@cases
def blind_stops_mid_trick() -> Outcome:
    e = host_blind()
    e.sts[e.find(BlindPlay, index=0) + 1 :] = []
    return incomplete(
        f"the file ends after the first card: the hand waits for seat {1 - led()}'s play (§11.10)",
        e.records(),
        f"seat {1 - led()}",
    )


@cases
def blind_stops_before_blind_end() -> Outcome:
    e = host_blind()
    e.sts[e.find(BlindEnd) :] = []
    return incomplete(
        "the file ends after the last card: the hand waits for the host's blind-end (§11.10)",
        e.records(),
        "host",
    )


@cases
def blind_stops_in_the_key_reveals() -> Outcome:
    e = host_blind()
    e.sts[e.find(KeyReveal, seat=0) + 1 :] = []
    return incomplete(
        "the file ends after the blind-end, the match-end and seat 0's key reveal: the result "
        "is in, the hand waits for seat 1's reveal (§11.8)",
        e.records(),
        "seat 1",
    )


# --- §11.8 the result stands on the plays: reveals that do not come are named, never a void -


@cases
def blind_reveal_overdue_no_receipt() -> Outcome:
    e = host_blind()
    k1 = e.find(KeyReveal, seat=1)
    e.sts[k1] = Overdue(gid_of(e), 0, (1,))
    return withheld_reveal(
        "seat 1's key reveal did not come in time after the result: named overdue; no receipt "
        "in the host's file: the result stands, the verdict names the host or seat 1 (§11.8)",
        k1,
        "host or seat 1",
        e.records(),
    )


@cases
def blind_reveal_overdue_receipted() -> Outcome:
    e = seat_file(honest_blind_2p(), 1)
    k1 = e.find(KeyReveal, seat=1)
    e.sts[k1] = Overdue(gid_of(e), 0, (1,))
    return failed(
        "seat 1's own file: the host names seat 1's key reveal overdue, but holds its receipt "
        "(§11.8)",
        e.receipt_of(KeyReveal),
        "host",
        e.records(),
    )


@cases
def blind_reveal_overdue_wrong_parties() -> Outcome:
    e = host_blind()
    k0 = e.find(KeyReveal, seat=0)
    e.sts[k0 : k0 + 2] = [Overdue(gid_of(e), 0, (1,))]
    return failed(
        "the overdue record names seat 1 alone while seat 0's reveal did not come either (§11.8)",
        k0,
        "host",
        e.records(),
    )
