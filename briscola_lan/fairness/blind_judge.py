"""What a blind hand's complaints and key reveals prove (protocol/fairness.md §11): a complaint
decided from the point it reveals, every statement a party sent recomputed from its revealed keys,
and once all are revealed the deck order, every show and every play checked."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from briscola_lan.fairness.blind import (
    SHARE,
    SHOW,
    PartyKeys,
    deck_order,
    lock_pass,
    open_card,
    pack_points,
    product,
    seal,
    shared_point,
    shuffle_pass,
    unseal,
)
from briscola_lan.fairness.blind_fault import BlindFault, party_name
from briscola_lan.fairness.blind_window import Window
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.group import base, is_point
from briscola_lan.fairness.proofs import dleq_verify, proof_label
from briscola_lan.fairness.statements import (
    BlindPlay,
    Complaint,
    LockPass,
    Shares,
    Show,
    ShufflePass,
)
from briscola_lan.rules.schedule import PublicSchedule


class JudgedHand(Protocol):
    """What of a blind hand the judgement reads (``BlindHand``); nothing here changes it."""

    game_id: bytes
    hand: int
    parties: tuple[int, ...]
    codes: list[int]
    pack: frozenset[int]
    sched: PublicSchedule
    upcard_position: int | None
    upcard: int | None
    shuffles: list[tuple[int, ShufflePass]]
    locks: list[tuple[int, LockPass]]
    ecdh: dict[int, bytes]
    ecdh_show: dict[int, bytes]
    final: tuple[bytes, ...] | None
    windows: list[Window]
    position_window: dict[int, int]
    plays: list[tuple[int, BlindPlay]]
    reveals: dict[int, tuple[int, PartyKeys]]
    order: tuple[int, ...] | None

    def owner(self, seat: int) -> int: ...
    def dealt_to_party(self, party: int, pos: int) -> bool: ...
    def shown_to_party(self, party: int, position: int) -> Show | None: ...
    def key_matches(self, party: int, position: int, key: int) -> bool: ...
    def lock_inputs(self, i: int) -> tuple[bytes, ...]: ...
    def pad(self, sender: int, receiver: int, position: int, what: str, shared: bytes) -> bytes: ...


def complaint_proof_problem(hand: JudgedHand, st: Complaint) -> str | None:
    """Why a complaint's ``about``, point or proof is not valid, or None."""
    if st.about == st.seat:
        if st.shared != bytes(32) or st.proof:
            return "a complaint about no one's value reveals no point"
        return None
    source = complained_value(hand, st)
    if source is None:
        return "that party sent this party no value for that position"
    what, _rec, _value, points = source
    label = proof_label(hand.game_id, hand.hand, st.seat, st.context, Complaint.KIND)
    mine, theirs = points[st.seat], points[st.about]
    if not is_point(st.shared) or not dleq_verify(
        base(1), mine, theirs, st.shared, st.proof, label=label
    ):
        return f"the complaint's proof does not show the point of its {what} pad"
    return None


def complained_value(
    hand: JudgedHand, st: Complaint
) -> tuple[str, tuple[int, Shares | Show], bytes, dict[int, bytes]] | None:
    """The value a complaint names: ``about``'s share of the position (dealt to the
    complainer) or the show that gave it to the complainer; with the exchange points the pad
    was made from."""
    pos, me, about = st.position, st.seat, st.about
    if hand.dealt_to_party(me, pos):
        w = hand.windows[hand.position_window[pos]]
        got = w.shares.get(about)
        if got is None or pos not in got[1].positions:
            return None
        rec, shares = got
        return SHARE, (rec, shares), shares.values[shares.positions.index(pos)], hand.ecdh
    show = hand.shown_to_party(me, pos)
    if show is None or hand.owner(show.seat) != about:
        return None
    for w in hand.windows:
        for rec, s in w.shows.values():
            if s is show:
                return SHOW, (rec, s), s.values[s.positions.index(pos)], hand.ecdh_show
    return None


def decide(hand: JudgedHand, st: Complaint, record: int) -> BlindFault:
    """A complaint about another party's value, decided from the point it reveals: the
    value is wrong (that party's fault, its statement the evidence) or right (a false
    complaint, the complainer's fault)."""
    source = complained_value(hand, st)
    assert source is not None and hand.final is not None
    what, (rec, sent), value, _points = source
    pos, me, about = st.position, st.seat, st.about
    key = unseal(value, hand.pad(about, me, pos, what, st.shared))
    if what == SHARE:
        wrong = key is None or not hand.key_matches(about, pos, key)
        told = "its key for that position is not the one its lock pass committed to"
    else:
        code = None if key is None else open_card(hand.final[pos], key)
        wrong = (
            code is None
            or code not in hand.pack
            or (pos == hand.upcard_position and code != hand.upcard)
        )
        told = "the key it showed for that position does not open it to a card of the pack"
    if wrong:
        return BlindFault(
            about,
            f"{told} (position {pos}, sent to {party_name(me)}: the point the complaint reveals "
            "unseals it)",
            rec,
            sent.KIND,
        )
    return BlindFault(
        me,
        f"complained that {party_name(about)}'s {what} for position {pos} is wrong, but the "
        "point it reveals unseals the right one",
        record,
        Complaint.KIND,
    )


def recompute(hand: JudgedHand, keys: PartyKeys, unchecked: Sequence[int]) -> None:
    q = keys.party
    i = hand.parties.index(q)
    s_rec, shuffle = hand.shuffles[i]
    inputs = pack_points(hand.codes) if i == 0 else hand.shuffles[i - 1][1].points
    if (
        shuffle.ecdh != keys.ecdh_point
        or shuffle.ecdh_show != keys.show_point
        or shuffle_pass(keys, inputs) != shuffle.points
    ):
        raise BlindFault(
            q, "the shuffle pass is not what the revealed keys give", s_rec, shuffle.KIND
        )
    if i < len(hand.locks):
        l_rec, lock = hand.locks[i]
        right = True  # its proof, checked on arrival, showed the points are what the keys give
        if q in unchecked:  # judged by the revealed keys, not by its proof
            right = lock_pass(keys, hand.lock_inputs(i)) == lock.points
        if (
            not right
            or lock.key != base(keys.shuffle_key)
            or lock.commits != tuple(base(b) for b in keys.locks)
        ):
            raise BlindFault(
                q, "the lock pass is not what the revealed keys give", l_rec, lock.KIND
            )
    shared: dict[int, bytes] = {}
    for w in hand.windows:
        got = w.shares.get(q)
        if got is None:
            continue
        rec, st = got
        for pos, value in zip(st.positions, st.values, strict=True):
            want = share_value(hand, keys, pos, shared, public=pos == w.upcard)
            if value != want:
                raise BlindFault(q, f"the key for position {pos} is not the party's", rec, st.KIND)


def share_value(
    hand: JudgedHand, keys: PartyKeys, pos: int, shared: dict[int, bytes], *, public: bool
) -> bytes:
    b = keys.lock(pos)
    if public:
        return b.to_bytes(32, "little")
    to = hand.owner(hand.sched.dealt[pos])
    if to not in shared:
        shared[to] = shared_point(keys.ecdh_key, hand.ecdh[to])
    return seal(b, hand.pad(keys.party, to, pos, SHARE, shared[to]))


def after_reveals(hand: JudgedHand) -> None:
    """Every party revealed: the deck order, every show and every play checked."""
    keys = [hand.reveals[q][1] for q in hand.parties]
    hand.order = deck_order(hand.codes, [k.perm for k in keys])
    shared: dict[tuple[int, int], bytes] = {}
    by_party = {k.party: k for k in keys}
    for w in hand.windows:
        for rec, show in w.shows.values():
            sender, to = hand.owner(show.seat), hand.owner(show.partner)
            if (sender, to) not in shared:
                key = by_party[sender].show_key
                shared[(sender, to)] = shared_point(key, hand.ecdh_show[to])
            for pos, value in zip(show.positions, show.values, strict=True):
                beta = product([k.lock(pos) for k in keys])
                pads = hand.pad(sender, to, pos, SHOW, shared[(sender, to)])
                if value != seal(beta, pads):
                    raise BlindFault(sender, f"the show of position {pos} is false", rec, show.KIND)
    for rec, play in hand.plays:
        if hand.order[play.position] != play.card:
            raise BlindFault(
                HOST_PARTY, "a played card is not the card at its position", rec, play.KIND
            )


__all__ = [
    "JudgedHand",
    "after_reveals",
    "complained_value",
    "complaint_proof_problem",
    "decide",
    "recompute",
    "share_value",
]
