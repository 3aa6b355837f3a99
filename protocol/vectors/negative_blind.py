"""Negative vectors of the blind deal (fairness.md §11): honest blind matches, edited and re-signed
so that one rule of §11 fails; each expected verdict, record and party is the one §11 gives. This
module: the passes, the shares, the plays, the key reveals and the disputes."""

from __future__ import annotations

import dataclasses
from functools import cache

from negative_harness import (
    FRESH,
    NO_CONTEXT,
    Cases,
    Edit,
    Outcome,
    aborted,
    failed,
    fixed,
    flipped,
    gid_of,
    honest_blind_2p,
    host_file,
    incomplete,
    proved_complaint,
    relock,
    seat_file,
    with_point,
)

from briscola_lan.fairness.blind import PartyKeys, derive_keys
from briscola_lan.fairness.group import L, scalar_bytes
from briscola_lan.fairness.statements import (
    Abort,
    BlindEnd,
    BlindPlay,
    BlindStart,
    Complaint,
    KeyReveal,
    LockPass,
    Present,
    Shares,
    ShufflePass,
)
from briscola_lan.rules.schedule import initial_deal

cases = Cases()


def host_blind() -> Edit:
    """The host's file of the blind 2-player match of one hand."""
    return host_file(honest_blind_2p())


@cache
def dealt_to(seat: int) -> list[int]:
    """The deck positions of ``seat``'s initial hand in the blind 2-player match."""
    e = host_blind()
    start = e.get(e.find(BlindStart))
    assert [type(e.get(e.find(BlindStart) + k)) for k in (1, 2)] == [Present, Present]
    return [p for p, s in initial_deal(2, start.dealer) if s == seat]


@cache
def key_reveals() -> list[KeyReveal]:
    """Both seats' key reveals at the end of the blind 2-player hand, in seat order."""
    e = host_blind()
    return [e.get(e.find(KeyReveal, seat=q)) for q in (0, 1)]


@cache
def party_keys(seat: int) -> PartyKeys:
    """The keys ``seat`` derived for the blind 2-player hand (from its revealed secret)."""
    return derive_keys(gid_of(host_blind()), 0, seat, key_reveals()[seat].secret, 40)


def led() -> int:
    """The seat that leads the first trick of the blind 2-player hand."""
    e = host_blind()
    seat: int = e.get(e.find(BlindPlay, index=0)).seat
    return seat


# --- §11.4 the passes: a malformed pass is its party's fault; order is the host's ----------


@cases
def blind_pass_invalid_point() -> Outcome:
    e = host_blind()
    i = e.find(ShufflePass, seat=1)
    e.sts[i] = with_point(e.get(i), 5, b"\x01" + bytes(31))
    return failed(
        "seat 1's shuffle pass holds the neutral element, not a valid point (§11.4)",
        i,
        "seat 1",
        e.records(),
    )


@cases
def blind_pass_duplicate_point() -> Outcome:
    e = host_blind()
    i = e.find(LockPass, seat=0)
    lock0 = e.get(i)
    e.sts[i] = with_point(lock0, 5, lock0.points[4])
    return failed("seat 0's lock pass holds one point twice (§11.4)", i, "seat 0", e.records())


@cases
def blind_shuffle_out_of_party_order() -> Outcome:
    e = host_blind()
    a, b = e.find(ShufflePass, seat=0), e.find(ShufflePass, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed(
        "seat 1's shuffle pass before seat 0's, the first party (§11.4)", a, "host", e.records()
    )


@cases
def blind_lock_before_every_shuffle() -> Outcome:
    e = host_blind()
    s1 = e.find(ShufflePass, seat=1)
    e.sts.insert(s1, e.sts.pop(e.find(LockPass, seat=0)))
    return failed("seat 0's lock pass before seat 1 shuffled (§11.4)", s1, "host", e.records())


# --- §11.5 the shares of a deal window -----------------------------------------------------


@cases
def blind_shares_wrong_positions() -> Outcome:
    e = host_blind()
    i = e.find(Shares, seat=1, window=0)
    sh = e.get(i)
    e.sts[i] = dataclasses.replace(
        sh, positions=(sh.positions[1], sh.positions[0], *sh.positions[2:])
    )
    return failed(
        "seat 1's shares of the initial deal hold its positions in another order (§11.5)",
        i,
        "seat 1",
        e.records(),
    )


@cases
def blind_shares_other_window() -> Outcome:
    e = host_blind()
    i = e.find(Shares, seat=0, window=0)
    e.sts[i] = dataclasses.replace(e.get(i), window=1)
    return failed(
        "seat 0's shares of the initial deal say window 1 (§11.5)", i, "host", e.records()
    )


@cases
def blind_shares_out_of_party_order() -> Outcome:
    e = host_blind()
    a, b = e.find(Shares, seat=0, window=0), e.find(Shares, seat=1, window=0)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed(
        "the initial deal's shares published seat 1's first (§11.5)", a, "host", e.records()
    )


@cases
def blind_shares_missing_party() -> Outcome:
    e = host_blind()
    i = e.find(Shares, seat=1, window=0)
    del e.sts[i]
    assert isinstance(e.get(i), BlindPlay)
    return failed(
        "seat 1's shares of the initial deal missing: the first play comes while the window "
        "waits for them (§11.10)",
        i,
        "host",
        e.records(),
    )


@cases
def blind_upcard_key_not_a_scalar() -> Outcome:
    e = host_blind()
    i = e.find(Shares, seat=1, window=0)
    sh = e.get(i)
    assert sh.positions[-1] == 3 * 2  # the upcard, its key in the clear
    e.sts[i] = dataclasses.replace(sh, values=(*sh.values[:-1], b"\xff" * 32))
    return failed(
        "seat 1's public key for the upcard is not below the group order (§11.5)",
        i,
        "seat 1",
        e.records(),
    )


@cases
def blind_upcard_key_not_committed() -> Outcome:
    e = host_blind()
    i = e.find(Shares, seat=1, window=0)
    sh = e.get(i)
    other = scalar_bytes(int.from_bytes(sh.values[-1], "little") * 3 % L)  # a key, not its own
    e.sts[i] = dataclasses.replace(sh, values=(*sh.values[:-1], other))
    return failed(
        "seat 1's public key for the upcard is a key, but not the one its lock pass committed "
        "to (§11.5)",
        i,
        "seat 1",
        e.records(),
    )


# --- §11.7 plays ---------------------------------------------------------------------------


@cases
def blind_play_key_does_not_open() -> Outcome:
    e = host_blind()
    i = e.find(BlindPlay, index=0)
    play = e.get(i)
    twice = scalar_bytes(int.from_bytes(play.key, "little") * 2 % L)
    e.sts[i] = dataclasses.replace(play, key=twice)
    return failed(
        f"the first play (seat {play.seat}) published with a key that does not open its card "
        "(§11.7)",
        i,
        "host",
        e.records(),
    )


@cases
def blind_play_out_of_turn() -> Outcome:
    e = host_blind()
    i, j = e.find(BlindPlay, index=0), e.find(BlindPlay, index=1)
    first, second = e.get(i), e.get(j)
    e.sts[i] = dataclasses.replace(second, index=0)
    e.sts[j] = dataclasses.replace(first, index=1)
    return failed(
        f"the first trick's cards swapped: seat {second.seat} leads out of turn (§11.7)",
        i,
        "host",
        e.records(),
    )


@cases
def blind_end_wrong_points() -> Outcome:
    e = host_blind()
    i = e.find(BlindEnd)
    end = e.get(i)
    points = tuple(reversed(end.points))
    if points == end.points:
        points = (end.points[0] + 1, *end.points[1:])
    e.sts[i] = dataclasses.replace(end, points=points)
    return failed("a blind-end with other points than the hand's (§11.8)", i, "host", e.records())


# --- §11.8 key reveals: everything a party sent is recomputed from its secret --------------


@cases
def blind_key_reveal_wrong_secret() -> Outcome:
    e = host_blind()
    i = e.find(KeyReveal, seat=0)
    e.sts[i] = dataclasses.replace(e.get(i), secret=fixed("not seat 0's secret"))
    return failed(
        "seat 0 reveals a secret whose keys do not give its shuffle pass (§11.8)",
        e.find(ShufflePass, seat=0),
        "seat 0",
        e.records(),
    )


@cases
def blind_key_reveals_out_of_party_order() -> Outcome:
    e = host_blind()
    a, b = e.find(KeyReveal, seat=0), e.find(KeyReveal, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed(
        "seat 1's key reveal before seat 0's: the reveals after the blind-end come in party "
        "order, each party once (§11.8)",
        b,
        "host",
        e.records(),
    )


@cases
def blind_key_reveal_before_the_end() -> Outcome:
    e = host_blind()
    i = e.find(Shares, seat=1, window=0) + 1
    e.sts.insert(i, e.get(e.find(KeyReveal, seat=0)))
    return failed(
        "seat 0's key reveal right after the initial deal, before the hand is over or "
        "disputed (§11.10)",
        i,
        "host",
        e.records(),
    )


# --- §11.9 disputes: a complaint after the initial deal, the key reveals, the abort --------


def disputed(e: Edit, complainer: int, position: int, revealed: int, blamed: int) -> int:
    """The hand cut after the initial deal's shares: a complaint, the first ``revealed``
    key reveals, the host's abort naming ``blamed``. Returns the complaint's record."""
    gid = gid_of(e)
    cut = e.find(Shares, seat=1, window=0) + 1
    e.sts[cut:] = [
        Complaint(gid, 0, complainer, NO_CONTEXT, position, complainer, bytes(32), ()),
        *key_reveals()[:revealed],
        Abort(gid, 0, blamed, "a card does not open"),
    ]
    return cut


def wrong_share(e: Edit, position: int) -> int:
    """Seat 1's initial shares seal a wrong key for ``position`` (dealt to seat 0)."""
    i = e.find(Shares, seat=1, window=0)
    sh = e.get(i)
    values = list(sh.values)
    values[sh.positions.index(position)] = flipped(values[sh.positions.index(position)])
    e.sts[i] = dataclasses.replace(sh, values=tuple(values))
    return i


def complained(e: Edit, position: int, about: int, *, wrong_proof: bool = False) -> int:
    """The hand cut after the initial deal's shares: seat 0's complaint about ``about``'s
    share of ``position``, with the proof of their shared point (``wrong_proof``: a proof that
    does not verify), then the host's abort naming ``about``."""
    gid = gid_of(e)
    cut = e.find(Shares, seat=1, window=0) + 1
    e.sts[cut:] = [
        Complaint(gid, 0, 0, NO_CONTEXT, position, about, bytes(32), ()),
        Abort(gid, 0, about, "a card does not open"),
    ]
    x1 = e.get(e.find(ShufflePass, seat=1)).ecdh  # seat 1's exchange point (shares)
    secret = key_reveals()[0].secret
    e.remake = {cut: proved_complaint(party_keys(0), secret, x1, wrong=wrong_proof)}
    return cut


@cases
def blind_dispute_shuffle_not_from_keys() -> Outcome:
    e = host_blind()
    position = dealt_to(0)[0]  # seat 1 shuffles last: position dealt_to(0)[0]
    i = e.find(ShufflePass, seat=1)
    e.sts[i] = with_point(e.get(i), position, FRESH)
    l0, l1 = e.find(LockPass, seat=0), e.find(LockPass, seat=1)
    reveals = key_reveals()
    e.remake = {
        l0: relock(party_keys(0), reveals[0].secret),
        l1: relock(party_keys(1), reveals[1].secret),
    }
    disputed(e, 0, position, 2, 1)
    return failed(
        f"seat 1's shuffle swaps in a point at position {position}, dealt to seat 0 (the locks "
        "made from it): seat 0 complains, both reveal, seat 1's keys do not give its shuffle "
        "(§11.8)",
        i,
        "seat 1",
        e.records(),
    )


@cases
def blind_lock_proof_fails() -> Outcome:
    e = host_blind()
    position = dealt_to(0)[0]
    i = e.find(LockPass, seat=1)
    e.sts[i] = with_point(e.get(i), position, FRESH)
    return failed(
        f"seat 1's lock swaps in a point at position {position}: its proof fails, caught when "
        "it arrives (§11.4)",
        i,
        "seat 1",
        e.records(),
    )


@cases
def blind_wrong_share_proved() -> Outcome:
    e = host_blind()
    position = dealt_to(0)[1]
    i = wrong_share(e, position)
    complained(e, position, 1)
    return aborted(
        f"seat 1 seals a wrong key for position {position}, dealt to seat 0: seat 0's complaint "
        "reveals their shared point with its proof, which shows the key is not the one seat 1 "
        "committed to; decided at once, whatever seat 1 does next (§11.9)",
        i,
        "seat 1",
        e.records(),
    )


@cases
def blind_false_share_complaint() -> Outcome:
    e = host_blind()
    position = dealt_to(0)[1]
    c = complained(e, position, 1)
    return aborted(
        f"seat 0 complains that seat 1's key for position {position} is wrong, with the proof of "
        "their shared point, which unseals the right key: the complaint is false (§11.9)",
        c,
        "seat 0",
        e.records(),
    )


@cases
def blind_complaint_bad_proof() -> Outcome:
    e = host_blind()
    wrong_share(e, dealt_to(0)[1])
    c = complained(e, dealt_to(0)[1], 1, wrong_proof=True)
    return failed(
        "seat 0's complaint about seat 1's share, with a proof that does not show the point it "
        "reveals: the host must refuse it (§11.9)",
        c,
        "host",
        e.records(),
    )


@cases
def blind_dispute_false_complaint() -> Outcome:
    e = host_blind()
    position = dealt_to(0)[0]
    c = disputed(e, 0, position, 2, 0)
    return aborted(
        f"seat 0 complains that position {position}, its own card, does not open; both reveal "
        "and all they sent checks: the complaint was false (§11.9 rule 2)",
        c,
        "seat 0",
        e.records(),
    )


@cases
def blind_dispute_stops_before_the_abort() -> Outcome:
    e = host_blind()
    disputed(e, 0, dealt_to(0)[0], 2, 0)
    del e.sts[-1]
    return incomplete(
        "a complaint and both key reveals, and the file ends: a disputed hand waits for the "
        "host's abort, never a blind-end (§11.9)",
        e.records(),
        "host",
    )


@cases
def blind_dispute_missing_reveal() -> Outcome:
    e = host_blind()
    c = disputed(e, 0, dealt_to(0)[0], 1, 1)
    return aborted(
        "a complaint, seat 0's key reveal, then the abort naming seat 1, whose reveal never "
        "came: no receipt in the host's file (§11.9 rules 3 and 5)",
        c + 2,
        "host or seat 1",
        e.records(),
    )


@cases
def blind_dispute_receipted_reveal_seat1() -> Outcome:
    e = seat_file(honest_blind_2p(), 1)
    receipt = e.get(e.receipt_of(KeyReveal))
    c = disputed(e, 0, dealt_to(0)[0], 1, 1)
    e.sts.insert(c + 1, receipt)
    return aborted(
        "seat 1's file: a complaint, the host's receipt for seat 1's key reveal, seat 0's "
        "reveal, then the abort naming seat 1 (§11.9 rules 3 and 5)",
        c + 3,
        "host",
        e.records(),
    )


@cases
def blind_complaint_not_its_card() -> Outcome:
    e = host_blind()
    position = dealt_to(1)[0]
    i = e.find(Shares, seat=1, window=0) + 1
    e.sts.insert(i, Complaint(gid_of(e), 0, 0, NO_CONTEXT, position, 0, bytes(32), ()))
    return failed(
        f"seat 0 complains about position {position}, dealt to seat 1 (§11.9)",
        i,
        "host",
        e.records(),
    )


@cases
def blind_complaint_after_a_reveal() -> Outcome:
    e = host_blind()
    i = e.find(KeyReveal, seat=0) + 1
    e.sts.insert(i, Complaint(gid_of(e), 0, 1, NO_CONTEXT, dealt_to(1)[0], 1, bytes(32), ()))
    return failed(
        "seat 1 complains after seat 0 revealed its keys at the end of the hand (§11.9)",
        i,
        "host",
        e.records(),
    )
