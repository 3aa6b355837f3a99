"""Negative vectors of the classic deal (fairness.md §8), continued: plays, the end of the match,
the receipts in a seat's own file, and the draw of partners and dealer (§7a)."""

from __future__ import annotations

import dataclasses

from negative_classic import host2p, seat0_2p
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
    honest_3p,
    honest_4p_draw,
    host_file,
    incomplete,
    unacknowledged,
)

from briscola_lan.fairness.encoding import DRAW_HAND
from briscola_lan.fairness.statements import (
    Abort,
    Ack,
    DrawStart,
    Evidence,
    HostCommit,
    MatchEnd,
    MatchStart,
    Play,
    Receipt,
    SeedCommit,
    SeedReveal,
    Upcard,
    decode,
)
from briscola_lan.rules import TableOptions
from briscola_lan.rules.cards import Card
from briscola_lan.rules.schedule import PublicSchedule

cases = Cases()


# --- plays ---------------------------------------------------------------------------------


def illegal_play(e: Edit) -> tuple[int, int]:
    """A play of the first hand that can become the removed two (a card nobody holds) without
    changing who takes the trick, so every later record stays in order."""
    ms = e.get(0)
    assert isinstance(ms, MatchStart) and ms.players == 3
    two = ms.removed_two * 10 + 9
    opts = TableOptions.make(players=3, match_format="points", removed_two=ms.removed_two)
    hc = e.get(e.find(HostCommit, hand=0))
    trump = Card.from_code(e.get(e.find(Upcard, hand=0)).opening.card).suit
    plays = [(k, st) for k, st in enumerate(e.sts) if isinstance(st, Play) and st.hand == 0]

    def winners(swap: int | None) -> list[tuple[int, tuple[tuple[int, int], ...]]] | None:
        sched = PublicSchedule(opts, hc.dealer)
        sched.trump = trump
        got = []
        for k, st in plays:
            if sched.to_play != st.seat:
                return None
            o = sched.play(st.seat, Card.from_code(two if k == swap else st.card))
            if o is not None:
                got.append((o.winner, o.draws))
        return got

    want = winners(None)
    for k, st in plays[3:]:
        if winners(k) == want and st.index % 3 != 0:
            return k, two
    raise AssertionError("no play can become the removed two")


@cases
def play_card_not_held() -> Outcome:
    e = host_file(honest_3p())
    i, card = illegal_play(e)
    e.sts[i] = dataclasses.replace(e.get(i), card=card)
    return failed(
        f"3 players: a play of card {card}, the two left out of the pack (nobody holds it)",
        i,
        "host",
        e.records(),
    )


@cases
def play_out_of_turn() -> Outcome:
    e = host2p()
    a, b = e.find(Play, index=0), e.find(Play, index=1)
    pa, pb = e.get(a), e.get(b)
    e.sts[a], e.sts[b] = dataclasses.replace(pb, index=0), dataclasses.replace(pa, index=1)
    return failed("the second player of the first trick plays first", a, "host", e.records())


@cases
def play_card_twice() -> Outcome:
    e = host2p()
    p1 = e.get(e.find(Play, index=1))
    i = next(k for k in (e.find(Play, index=2), e.find(Play, index=3)) if e.get(k).seat == p1.seat)
    e.sts[i] = dataclasses.replace(e.get(i), card=p1.card)
    return failed(
        "a seat plays again the card it played in the first trick", i, "host", e.records()
    )


# --- the end of the match ------------------------------------------------------------------


@cases
def ack_removed() -> Outcome:
    e = host2p()
    del e.sts[e.find(Ack, seat=1)]
    return unacknowledged("seat 1's acknowledgement removed", e.records())


@cases
def only_match_start() -> Outcome:
    return incomplete(
        "a file holding only the match-start",
        host2p().records()[:1],
        "host",  # its first host-commit
    )


@cases
def ends_at_deciding_reveal() -> Outcome:
    e = host2p()
    return incomplete(
        "the file stops at the host-reveal that decides the match",
        e.records()[: e.find(MatchEnd)],
        "host",  # its match-end
    )


@cases
def match_end_wrong_points() -> Outcome:
    e = host2p()
    i = e.find(MatchEnd)
    me = e.get(i)
    e.sts[i] = dataclasses.replace(me, points=(me.points[0] + 1, me.points[1] - 1))
    return failed("match-end with one card point moved between the sides", i, "host", e.records())


@cases
def match_end_missing() -> Outcome:
    e = host2p()
    i = e.find(MatchEnd)
    del e.sts[i]
    return failed(
        "no match-end after the deciding host-reveal (the acks follow)", i, "host", e.records()
    )


@cases
def hand_after_match_end() -> Outcome:
    e = host2p()
    e.sts.append(HostCommit(gid_of(e), 1, 1, fixed("a commitment")))
    return failed(
        "a host-commit for another hand after the match-end",
        len(e.sts) - 1,
        "host",
        e.records(),
    )


@cases
def last_hand_removed() -> Outcome:
    e = host_file(honest_2p_long())
    last = max(i for i, st in enumerate(e.sts) if isinstance(st, HostCommit))
    assert last > 1
    return incomplete(
        "a match of several hands with its whole last hand removed",
        e.records()[:last],
        "host",  # the next hand's host-commit
    )


# --- receipts (a seat's own file) ----------------------------------------------------------


def first_receipt(e: Edit) -> tuple[int, Receipt, SeedCommit]:
    """Seat 0's first receipt, and the seed commitment it holds."""
    i = e.find(Receipt)
    r = e.get(i)
    inner = decode(r.statement)
    assert isinstance(inner, SeedCommit)
    return i, r, inner


@cases
def receipt_inner_wrong_key() -> Outcome:
    e = seat0_2p()
    i, r, inner = first_receipt(e)
    e.sts[i] = dataclasses.replace(r, signature=e.seat_key(1).sign(r.statement))
    return failed(
        f"seat 0's file: a receipt for its {inner.KIND} whose inner "
        "statement is signed by seat 1's key",
        i,
        "host",
        e.records(),
    )


@cases
def receipt_other_hand() -> Outcome:
    e = seat0_2p()
    i, r, inner = first_receipt(e)
    body, sig = e.signed_inner(dataclasses.replace(inner, hand=1))
    e.sts[i] = dataclasses.replace(r, hand=1, statement=body, signature=sig)
    return failed(
        "seat 0's file: a receipt for a statement of hand 1 during hand 0", i, "host", e.records()
    )


@cases
def ack_receipted_not_relayed() -> Outcome:
    e = seat0_2p()
    del e.sts[e.find(Ack, seat=0)]
    return failed(
        "seat 0's file: its acknowledgement receipted by the host "
        "but missing from the relayed acks",
        e.receipt_of(Ack),
        "host",
        e.records(),
    )


@cases
def play_differs_from_receipt() -> Outcome:
    e = seat0_2p()
    pr = e.receipt_of(Play)
    rp = e.get(pr)
    played = decode(rp.statement)
    assert isinstance(played, Play)
    pi = e.find(Play, index=played.index)
    assert pi < pr
    other = next(c for c in range(40) if c != played.card)
    body, sig = e.signed_inner(dataclasses.replace(played, card=other))
    e.sts.pop(pr)
    e.sts.insert(pi, dataclasses.replace(rp, statement=body, signature=sig))
    return failed(
        f"seat 0's file: the host receipted seat 0's play number "
        f"{played.index} as card {other} and published card {played.card}",
        pi + 1,
        "host",
        e.records(),
    )


# --- the draw (fairness.md §7a) -------------------------------------------------------------


def draw_commits() -> tuple[Edit, DrawStart, int]:
    """The 4-player draw's host file, its draw-start and the index of its last seed-commit."""
    e = host_file(honest_4p_draw())
    ds = e.get(0)
    assert isinstance(ds, DrawStart)
    return e, ds, e.find(SeedCommit, 3, hand=DRAW_HAND)


@cases
def draw_abort_no_evidence() -> Outcome:
    e, ds, commits = draw_commits()
    e.sts[commits + 1 :] = [Abort(ds.game_id, DRAW_HAND, 2, "did not reveal its seed in time")]
    return aborted(
        "the draw aborted naming lobby seat 2 after the commitments, no evidence",
        commits + 1,
        "host or seat 2",
        e.records(),
    )


@cases
def record_after_draw_abort() -> Outcome:
    e, ds, commits = draw_commits()
    reveal = e.get(commits + 1)
    assert isinstance(reveal, SeedReveal) and reveal.hand == DRAW_HAND
    e.sts[commits + 1 :] = [
        Abort(ds.game_id, DRAW_HAND, 2, "did not reveal its seed in time"),
        reveal,
    ]
    return failed(
        "a draw seed reveal published after the draw's abort (nothing may follow an abort)",
        commits + 2,
        "host",
        e.records(),
    )


@cases
def draw_bad_reveal_evidence() -> Outcome:
    e, ds, commits = draw_commits()
    bad = e.signed_inner(
        SeedReveal(ds.game_id, DRAW_HAND, 1, NO_CONTEXT, fixed("not the draw seed"))
    )
    e.sts[commits + 1 :] = [
        Evidence(ds.game_id, DRAW_HAND, 1, *bad),
        Abort(ds.game_id, DRAW_HAND, 1, "revealed a seed that does not match its commitment"),
    ]
    return aborted(
        "the draw: lobby seat 1's bad seed reveal published as evidence, then the abort",
        commits + 1,
        "seat 1",
        e.records(),
    )
