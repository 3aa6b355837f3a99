"""Negative vectors of the classic deal at the edges of the rules (fairness.md §8): deal windows,
a seat's own file, the exchange, aborts, evidence, acknowledgements, hands, plays, the draw, and
takeovers."""

from __future__ import annotations

import dataclasses

from negative_classic import bad_reveal, host2p, host4p, seat0_2p
from negative_harness import (
    NO_CONTEXT,
    Cases,
    Edit,
    Outcome,
    aborted,
    failed,
    fixed,
    gid_of,
    honest_2p_long,
    honest_2p_points,
    honest_4p_draw,
    host_file,
    incomplete,
    seat_file,
    unacknowledged,
    withheld,
)

from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    Deal,
    DrawReveal,
    Evidence,
    Exchange,
    HostCommit,
    HostReveal,
    MatchEnd,
    MatchStart,
    Play,
    Receipt,
    SeedCommit,
    SeedReveal,
    Takeover,
    Upcard,
    decode,
)

cases = Cases()


# --- deal windows --------------------------------------------------------------------------


@cases
def deals_out_of_seat_order() -> Outcome:
    e = host2p()
    a, b = e.find(Deal, seat=0), e.find(Deal, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed("the initial deals sent seat 1 first, then seat 0", b, "host", e.records())


@cases
def deal_last_draw_swapped() -> Outcome:
    e = host2p()
    last0 = e.find(Deal, 17, seat=0)  # each seat's last deal: the upcard goes to the loser
    last1 = e.find(Deal, 17, seat=1)
    d0, d1 = e.get(last0), e.get(last1)
    e.sts[last0] = dataclasses.replace(d0, openings=d1.openings)
    e.sts[last1] = dataclasses.replace(d1, openings=d0.openings)
    return failed(
        "the last draw: the trick winner given the upcard and the loser the last stock card",
        min(last0, last1),
        "host",
        e.records(),
    )


@cases
def deal_bad_opening() -> Outcome:
    e = host2p()
    i = e.find(Deal, seat=0)
    d = e.get(i)
    bad_o = dataclasses.replace(d.openings[0], salt=fixed("another salt"))
    e.sts[i] = dataclasses.replace(d, openings=(bad_o, *d.openings[1:]))
    return failed(
        "seat 0's initial deal with a salt that does not open the commitment",
        i,
        "host",
        e.records(),
    )


@cases
def upcard_wrong_position() -> Outcome:
    e = host2p()
    i = e.find(Upcard)
    e.sts[i] = dataclasses.replace(e.get(i), opening=e.opening(7))
    return failed("the upcard opens position 7 instead of 6 (3n)", i, "host", e.records())


@cases
def play_before_upcard() -> Outcome:
    e = host2p()
    up = e.find(Upcard)
    e.sts.insert(up + 2, e.sts.pop(up))
    return failed("the first card played before the upcard is turned", up, "host", e.records())


# --- a seat's own file: R is that seat alone ------------------------------------------------


@cases
def seat_file_initial_deal_missing() -> Outcome:
    e = seat0_2p()
    i = e.find(Deal, seat=0)
    del e.sts[i]
    return failed(
        "seat 0's file without its initial deal (no seat dealt to before the upcard)",
        i,
        "host",
        e.records(),
    )


@cases
def seat_file_draw_missing() -> Outcome:
    e = seat0_2p()
    i = next(
        k
        for k, st in enumerate(e.sts[:-1])
        if isinstance(st, Deal) and isinstance(e.sts[k + 1], Receipt)
    )
    del e.sts[i]
    close = next(k for k in range(i, len(e.sts)) if not isinstance(e.sts[k], Receipt))
    return failed(
        "seat 0's file without one of its draws (the receipt that follows it in the window "
        "does not close the window)",
        close,
        "host",
        e.records(),
    )


@cases
def seat_file_deal_for_other_seat() -> Outcome:
    e = seat0_2p()
    i = e.find(Deal, 1, seat=0)
    hosted = host2p()
    e.sts.insert(i + 1, hosted.get(hosted.find(Deal, 1, seat=1)))
    return failed("seat 0's file holding seat 1's draw too", i + 1, "host", e.records())


# --- the partner exchange (4 players) ------------------------------------------------------


@cases
def exchange_out_of_seat_order() -> Outcome:
    e = host4p()
    first = e.find(Exchange)
    e.sts[first], e.sts[first + 1] = e.sts[first + 1], e.sts[first]
    return failed("4 players: seat 1's exchange before seat 0's", first + 1, "host", e.records())


@cases
def exchange_missing_one() -> Outcome:
    e = host4p()
    first = e.find(Exchange)
    del e.sts[first + 2]
    return failed("4 players: seat 2's exchange missing", first + 3, "host", e.records())


@cases
def exchange_played_card() -> Outcome:
    e = host4p()
    first = e.find(Exchange)
    ex = e.get(first)
    partner_plays = {st.card for st in e.sts if isinstance(st, Play) and st.seat == ex.partner}
    gone = next(
        o
        for st in e.sts
        if isinstance(st, Deal) and st.seat == ex.partner
        for o in st.openings
        if o.card in partner_plays
    )
    e.sts[first] = dataclasses.replace(ex, openings=(gone, *ex.openings[1:]))
    return failed(
        "4 players: seat 0 is shown a card its partner already played",
        first,
        "host",
        e.records(),
    )


@cases
def exchange_before_last_deal() -> Outcome:
    e = host4p()
    first = e.find(Exchange)
    last_deal = first - 1
    assert isinstance(e.get(last_deal), Deal)
    e.sts.insert(first + 3, e.sts.pop(last_deal))
    return failed(
        "4 players: the exchanges start before the last seat's draw",
        last_deal,
        "host",
        e.records(),
    )


# --- aborts --------------------------------------------------------------------------------


@cases
def abort_by_host() -> Outcome:
    e = host2p()
    i = e.find(SeedCommit, seat=1)
    e.sts[i + 1 :] = [Abort(gid_of(e), 0, HOST_PARTY, "the host stopped the hand")]
    return aborted("the host aborts naming itself in the reveal stage", i + 1, "host", e.records())


@cases
def abort_taken_over_seat() -> Outcome:
    e = host2p()
    gid = gid_of(e)
    hc = e.find(HostCommit)
    e.sts[hc + 1 :] = [
        Takeover(gid, 0, 1, 1, 0),
        e.get(e.find(SeedCommit, seat=0)),
        Abort(gid, 0, 1, "did not commit to its seed in time"),
    ]
    return aborted(
        "an abort naming seat 1, which the host plays (takeover)", hc + 3, "host", e.records()
    )


@cases
def commit_receipted_abort_seat0() -> Outcome:
    e = seat0_2p()
    r = e.find(Receipt)
    e.sts[r + 1 :] = [Abort(gid_of(e), 0, 0, "did not commit to its seed in time")]
    return aborted(
        "seat 0's file: the host receipted its seed commitment, then aborted naming it",
        r + 1,
        "host",
        e.records(),
    )


@cases
def reveal_receipted_bad_seed_seat1() -> Outcome:
    e = seat_file(withheld(cheat=True), 1)
    r = max(k for k, st in enumerate(e.sts) if isinstance(st, Receipt))
    rc = e.get(r)
    body, sig = e.signed_inner(
        SeedReveal(rc.game_id, 0, 1, NO_CONTEXT, fixed("not the committed seed"))
    )
    e.sts[r] = dataclasses.replace(rc, statement=body, signature=sig)
    return aborted(
        "seat 1's file: the host's receipt holds seat 1's "
        "reveal that does not open its commitment; abort naming seat 1",
        r,
        "seat 1",
        e.records(),
    )


# --- evidence ------------------------------------------------------------------------------


@cases
def evidence_at_end() -> Outcome:
    e = host2p()
    i = e.find(SeedReveal, seat=1)
    e.sts[i:] = [Evidence(gid_of(e), 0, 1, *bad_reveal(e, 1))]
    return failed("the file ends with evidence against seat 1 (no abort)", i, "host", e.records())


@cases
def evidence_after_reveals() -> Outcome:
    e = host2p()
    gid = gid_of(e)
    i = e.find(Upcard)
    e.sts[i + 1 :] = [Evidence(gid, 0, 1, *bad_reveal(e, 1)), Abort(gid, 0, 1, "bad reveal")]
    return failed(
        "evidence against seat 1 after every reveal was published", i + 1, "host", e.records()
    )


# --- acknowledgements ----------------------------------------------------------------------


@cases
def ack_other_chain() -> Outcome:
    e = host2p()
    i = e.find(Ack, seat=1)
    e.sts[i] = dataclasses.replace(e.get(i), chain_hash=fixed("another history"))
    return failed(
        "seat 1 acknowledges a different chain hash (equivocation)",
        i,
        "host",
        e.records(fix_acks=False),
    )


@cases
def acks_out_of_order() -> Outcome:
    e = host2p()
    a, b = e.find(Ack, seat=0), e.find(Ack, seat=1)
    e.sts[a], e.sts[b] = e.sts[b], e.sts[a]
    return failed("seat 1's acknowledgement relayed before seat 0's", b, "host", e.records())


@cases
def ack_twice() -> Outcome:
    e = host2p()
    b = e.find(Ack, seat=1)
    e.sts.insert(b + 1, e.get(b))
    return failed("seat 1's acknowledgement relayed twice", b + 1, "host", e.records())


# --- hands and plays -----------------------------------------------------------------------


@cases
def host_commit_wrong_dealer() -> Outcome:
    e = host_file(honest_2p_long())
    i = e.find(HostCommit, hand=1)
    e.sts[i] = dataclasses.replace(e.get(i), dealer=e.get(e.find(HostCommit, hand=0)).dealer)
    return failed("hand 1 dealt by hand 0's dealer again", i, "host", e.records())


@cases
def play_index_skipped() -> Outcome:
    e = host2p()
    i = e.find(Play, index=1)
    e.sts[i] = dataclasses.replace(e.get(i), index=2)
    return failed("the second play numbered 2", i, "host", e.records())


@cases
def play_after_last_trick() -> Outcome:
    e = host2p()
    i = e.find(HostReveal)
    e.sts.insert(i, Play(gid_of(e), 0, e.get(i - 1).seat, NO_CONTEXT, 40, e.get(i - 1).card))
    return failed("a 41st play after the last trick", i, "host", e.records())


@cases
def statement_of_another_game() -> Outcome:
    e = host2p()
    i = e.find(HostCommit)
    e.sts[i] = dataclasses.replace(e.get(i), game_id=fixed("another game", 16))
    return failed("a host-commit of another game", i, "host", e.records())


@cases
def match_start_bad_signature() -> Outcome:
    e = host2p()
    e.sigs.pop(e.records_in[0][0])
    e.run = withheld(cheat=True)  # the match-start re-signed by another host's key
    return failed(
        "the match-start signed by a key other than its host_key",
        0,
        "host",
        e.records()[:1] + list(e.records_in[1:]),
    )


@cases
def receipt_for_host_statement() -> Outcome:
    e = seat0_2p()
    i = e.find(Receipt)
    deal_rec = next(rec for rec in e.records_in if isinstance(decode(rec[0]), Deal))
    e.sts[i] = dataclasses.replace(e.get(i), statement=deal_rec[0], signature=deal_rec[1])
    return failed(
        "seat 0's file: a receipt whose inner statement is a deal (not a statement a seat sends)",
        i,
        "host",
        e.records(),
    )


@cases
def stops_mid_hand() -> Outcome:
    e = host2p()
    i = e.find(Play, index=5)
    e.sts[i + 1 :] = []
    return incomplete(
        "the host's file stops in the middle of play",
        e.records(),
        "host",  # every seed was revealed: the rest of the hand is the host's
    )


@cases
def stops_before_a_reveal() -> Outcome:
    e = host2p()
    i = e.find(SeedReveal, seat=0)
    return incomplete(
        "the host's file cut after seat 0's seed reveal, before seat 1's",
        e.records()[: i + 1],
        "seat 1",  # the first seat without a reveal (not a fault)
    )


# --- the draw ------------------------------------------------------------------------------


def host_draw() -> Edit:
    """The host's file of the 4-player match with drawn partners and dealer."""
    return host_file(honest_4p_draw())


@cases
def draw_reveal_wrong_dealer() -> Outcome:
    e = host_draw()
    i = e.find(DrawReveal)
    dr = e.get(i)
    e.sts[i] = dataclasses.replace(dr, dealer=(dr.dealer + 1) % 4)
    return failed(
        "the draw-reveal names another first dealer than the cards give", i, "host", e.records()
    )


@cases
def draw_match_start_wrong_dealer() -> Outcome:
    e = host_draw()
    i = e.find(MatchStart)
    ms = e.get(i)
    e.sts[i] = dataclasses.replace(ms, first_dealer=(ms.first_dealer + 1) % 4)
    return failed(
        "the match-start names another first dealer than the draw", i, "host", e.records()
    )


@cases
def draw_bad_reveal_published() -> Outcome:
    e = host_draw()
    i = e.find(SeedReveal, 1, hand=DRAW_HAND)
    e.sts[i] = dataclasses.replace(e.get(i), seed=fixed("a seed never committed"))
    return failed(
        "the draw: lobby seat 1's seed reveal that does not open "
        "its commitment, published as a reveal",
        i,
        "seat 1",
        e.records(),
    )


# --- cases the rules decide only by their principles ---------------------------------------


@cases
def abort_after_all_reveals() -> Outcome:
    e = host2p()
    i = e.find(SeedReveal, seat=1)  # every reveal published, no deck-commit yet
    e.sts[i + 1 :] = [Abort(gid_of(e), 0, 1, "did not reveal its seed in time")]
    return aborted(
        "an abort naming seat 1 after every seed reveal was published (seat 1 owed nothing)",
        i + 1,
        "host",
        e.records(),
    )


@cases
def ack_missing_in_first_hand() -> Outcome:
    e = host_file(honest_2p_long())
    del e.sts[e.find(Ack, hand=0, seat=0)]
    return unacknowledged(
        "a match of several hands: seat 0's acknowledgement of hand 0 removed", e.records()
    )


@cases
def seat_file_own_ack_missing() -> Outcome:
    e = seat0_2p()
    del e.sts[e.find(Ack, seat=0)]
    del e.sts[e.receipt_of(Ack)]
    return unacknowledged(
        "seat 0's file without its own acknowledgement and without its receipt", e.records()
    )


@cases
def match_end_wrong_hands_won() -> Outcome:
    e = host_file(honest_2p_points())
    i = e.find(MatchEnd)
    me = e.get(i)
    e.sts[i] = dataclasses.replace(me, hands_won=tuple(reversed(me.hands_won)))
    if me.hands_won == tuple(reversed(me.hands_won)):
        e.sts[i] = dataclasses.replace(me, hands_won=(me.hands_won[0] + 1, *me.hands_won[1:]))
    return failed("points format: match-end with wrong hands won per side", i, "host", e.records())


@cases
def play_differs_from_later_receipt() -> Outcome:
    e = seat0_2p()
    pr = e.receipt_of(Play)
    rp = e.get(pr)
    played = decode(rp.statement)
    assert isinstance(played, Play)
    other = next(c for c in range(40) if c != played.card)
    body, sig = e.signed_inner(dataclasses.replace(played, card=other))
    e.sts[pr] = dataclasses.replace(rp, statement=body, signature=sig)
    return failed(
        f"seat 0's file: the receipt after seat 0's play "
        f"number {played.index} says it sent card {other}, the host published {played.card}",
        pr,  # fairness.md §8.5: the receipt, where the two are compared
        "host",
        e.records(),
    )


# --- takeovers never over a seat's own secret, and no hand-back before play (SPEC.md §6a) --


@cases
def takeover_after_own_commit_seat0() -> Outcome:
    e = seat0_2p()
    r = e.receipt_of(SeedCommit)
    assert e.find(SeedCommit) > r  # the commitments are published once all are in
    e.sts.insert(r + 1, Takeover(gid_of(e), 0, 0, 1, 0))
    return failed(
        "seat 0's file: the host receipted seat 0's seed commitment, then took the seat over "
        "before the commitments were published (seat 0 holds its own unrevealed seed)",
        r + 1,
        "host",
        e.records(),
    )


@cases
def takeover_before_own_reveal_seat0() -> Outcome:
    e = seat0_2p()
    last_commit = e.find(SeedCommit, seat=1)
    assert e.receipt_of(SeedReveal) > last_commit
    e.sts.insert(last_commit + 1, Takeover(gid_of(e), 0, 0, 1, 0))
    return failed(
        "seat 0's file: the host took seat 0 over after the commitments, before it received "
        "seat 0's reveal (its receipt comes later)",
        last_commit + 1,
        "host",
        e.records(),
    )


@cases
def handback_in_reveal_phase() -> Outcome:
    e = host2p()
    gid = gid_of(e)
    hc = e.find(HostCommit)
    e.sts.insert(hc + 1, Takeover(gid, 0, 1, 1, 0))  # the AI commits for seat 1
    last_commit = e.find(SeedCommit, seat=1)
    e.sts.insert(last_commit + 1, Takeover(gid, 0, 1, 0, 0))
    return failed(
        "seat 1 taken over at the commit and handed back after the commitments, before the "
        "reveals (the AI holds its seed)",
        last_commit + 1,
        "host",
        e.records(),
    )
