"""One party's side of a blind hand: the statements it owes and the cards it may open.

A party is a human seat's client, or the host for the seats it plays. Everything it sends is a
function of its 32-byte hand secret and the hand's public records (``BlindHand``, and the chain
each statement binds as its context: ``context(kind)``), so a client restarted mid-hand that
kept its secret sends the very same bytes again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from briscola_lan.fairness.blind import (
    SHARE,
    SHOW,
    derive_keys,
    lock_pass,
    open_card,
    pack_points,
    product,
    seal,
    shared_point,
    shuffle_pass,
    unseal,
)
from briscola_lan.fairness.blind_hand import BlindHand
from briscola_lan.fairness.group import base
from briscola_lan.fairness.proofs import dleq_prove, lock_commitments, lock_prove, proof_label
from briscola_lan.fairness.statements import (
    BlindPlay,
    Complaint,
    KeyReveal,
    LockPass,
    Shares,
    Show,
    ShufflePass,
)
from briscola_lan.rules.cards import Card
from briscola_lan.rules.hand import SeatView


class BlindParty:
    """A party's keys for one hand and what they let it do, over the hand's public state."""

    def __init__(
        self, hand: BlindHand, party: int, secret: bytes, context: Callable[[str], bytes]
    ) -> None:
        """``context(kind)`` is the chain hash a statement of that kind must carry now."""
        self.hand, self.party, self.secret = hand, party, secret
        self.context = context
        self.keys = derive_keys(hand.game_id, hand.hand, party, secret, hand.size)
        self._shared: dict[int, bytes] = {}
        self._shared_show: dict[int, bytes] = {}
        self._bad: dict[int, int] = {}  # position -> the party whose share for it is wrong
        self._keys: dict[int, int | None] = {}  # position -> opening key (None: does not open)
        self._cards: dict[int, int | None] = {}  # position -> the card its key opens
        self._clean: tuple[int, int] | None = None  # (hand.changes, plays) at the last clean scan

    # --- what the party owes --------------------------------------------------------------------

    def owes(self, kind: str) -> bool:
        what, who = self.hand.owed()
        return what == kind and self.party in who

    def shuffle(self) -> ShufflePass | None:
        """Its shuffle pass, when the hand waits for it."""
        h = self.hand
        if not self.owes(ShufflePass.KIND):
            return None
        inputs = h.shuffles[-1][1].points if h.shuffles else pack_points(h.codes)
        points = shuffle_pass(self.keys, inputs)
        ctx = self.context(ShufflePass.KIND)
        k = self.keys
        return ShufflePass(h.game_id, h.hand, self.party, ctx, k.ecdh_point, k.show_point, points)

    def lock(self) -> LockPass | None:
        """Its lock pass, when the hand waits for it."""
        h = self.hand
        if not self.owes(LockPass.KIND):
            return None
        inputs = h.locks[-1][1].points if h.locks else h.shuffles[-1][1].points
        ctx = self.context(LockPass.KIND)
        k = self.keys
        points = lock_pass(k, inputs)
        key, commits = lock_commitments(k.shuffle_key, k.locks)
        label = proof_label(h.game_id, h.hand, self.party, ctx, LockPass.KIND)
        proof = lock_prove(k.shuffle_key, k.locks, inputs, points, label=label, secret=self.secret)
        return LockPass(h.game_id, h.hand, self.party, ctx, points, commits, key, proof)

    def shares(self) -> Shares | None:
        """Its keys for the open window's positions, sealed for their receivers."""
        h, w = self.hand, self.hand.window
        if w is None or not self.owes(Shares.KIND):
            return None
        positions = h.owed_positions(w, self.party)
        values = []
        for pos in positions:
            b = self.keys.lock(pos)
            if pos == w.upcard:
                values.append(b.to_bytes(32, "little"))
                continue
            to = h.owner(h.sched.dealt[pos])
            values.append(seal(b, h.pad(self.party, to, pos, SHARE, self._shared_with(to))))
        ctx = self.context(Shares.KIND)
        return Shares(h.game_id, h.hand, self.party, ctx, w.number, positions, tuple(values))

    def shows(self) -> list[Show]:
        """The partner exchange: a show for every seat this party holds whose show is due."""
        h = self.hand
        what, seats = h.owed()
        if what != Show.KIND:
            return []
        out = []
        for seat in seats:
            if h.owner(seat) != self.party:
                continue
            partner = h.options.partner_of(seat)
            assert partner is not None
            to = h.owner(partner)
            positions = tuple(h.held_positions(seat))
            values = []
            for pos in positions:
                key = self.opening_key(pos)
                if key is None:
                    return []  # a card of its own does not open: it complains instead
                pads = h.pad(self.party, to, pos, SHOW, self._shared_show_with(to))
                values.append(seal(key, pads))
            ctx = self.context(Show.KIND)
            out.append(Show(h.game_id, h.hand, seat, ctx, partner, positions, tuple(values)))
        return out

    def key_reveal(self) -> KeyReveal | None:
        """Its secret, once every trick was played or the hand is disputed."""
        h = self.hand
        if not self.owes(KeyReveal.KIND):
            return None
        return KeyReveal(h.game_id, h.hand, self.party, self.context(KeyReveal.KIND), self.secret)

    def complaint(self) -> Complaint | None:
        """A complaint about the first of its positions (dealt or shown) that does not open, or
        opens to a card already seen this hand (played, the upcard, or another it may open) or
        to none of the pack. When another party's value for it is wrong (a share that is not the
        committed key, a show that does not open), the complaint is about that party and proves
        it: it reveals the point their pad came from, with its proof."""
        h = self.hand
        if h.final is None or h.disputed or h.reveals or h.over:
            return None
        if self._clean is not None and self._clean[0] == h.changes:
            # Only plays came since a clean scan: a complaint needs one to be a card I hold.
            mine = {c for pos, c in self._cards.items() if pos not in h.played}
            if not any(st.card in mine for _, st in h.plays[self._clean[1] :]):
                self._clean = (h.changes, len(h.plays))
                return None
        seen = set(h.played.values())
        if h.upcard is not None:
            seen.add(h.upcard)
        for pos in self.openable_positions():
            if pos in h.played:
                continue
            if pos == h.upcard_position:  # its card is known; a show of it must still be true
                if not self._shown_upcard_opens(pos):
                    return self._complain(pos)
                continue
            code = self.card_at(pos)
            if code is None or code in seen or code not in h.pack:
                return self._complain(pos)
            seen.add(code)
        self._clean = (h.changes, len(h.plays))
        return None

    def _complain(self, pos: int) -> Complaint | None:
        """The complaint about a position: about the party whose value is wrong, if one is."""
        h = self.hand
        ctx = self.context(Complaint.KIND)
        about, shared, proof = self.party, bytes(32), cast(tuple[bytes, ...], ())
        wrong = self._wrong_value(pos)
        if wrong is not None:
            about, what = wrong
            if what == SHARE:
                shared = self._shared_with(about)
                x, mine, theirs = self.keys.ecdh_key, self.keys.ecdh_point, h.ecdh[about]
            else:
                shared = self._shared_show_with(about)
                x, mine, theirs = self.keys.show_key, self.keys.show_point, h.ecdh_show[about]
            assert base(x) == mine
            label = proof_label(h.game_id, h.hand, self.party, ctx, Complaint.KIND)
            proof = dleq_prove(x, base(1), theirs, label=label, secret=self.secret)
        st = Complaint(h.game_id, h.hand, self.party, ctx, pos, about, shared, proof)
        return st if h.complaint_problem(st) is None else None

    def _wrong_value(self, pos: int) -> tuple[int, str] | None:
        """The party whose value for a position is wrong, and which value (share or show)."""
        h = self.hand
        if pos in self._bad:
            return self._bad[pos], SHARE
        show = h.shown_to_party(self.party, pos)
        if show is None or self._dealt_to_me(pos) or h.final is None:
            return None
        key = self._shown_key(pos)
        code = None if key is None else open_card(h.final[pos], key)
        if code is None or code not in h.pack or (pos == h.upcard_position and code != h.upcard):
            return h.owner(show.seat), SHOW
        return None  # the key opens a card of the pack: no value is wrong, the deck is

    def _dealt_to_me(self, pos: int) -> bool:
        h = self.hand
        seat = h.sched.dealt.get(pos)
        return seat is not None and h.owner(seat) == self.party

    def play(self, seat: int, card: int) -> BlindPlay:
        """A play of ``card`` from the seat's hand; raises ValueError if the seat lacks it."""
        h = self.hand
        for pos in h.held_positions(seat):
            if self.card_at(pos) == card:
                key = self.opening_key(pos)
                assert key is not None
                return BlindPlay(
                    h.game_id,
                    h.hand,
                    seat,
                    self.context(BlindPlay.KIND),
                    len(h.plays),
                    card,
                    pos,
                    key.to_bytes(32, "little"),
                )
        raise ValueError(f"seat {seat} does not hold card {card}")

    def _ctx_complaint(self) -> bytes:
        return self.context(Complaint.KIND)

    # --- the cards it may open --------------------------------------------------------------------

    def openable_positions(self) -> list[int]:
        """Positions whose keys it holds: dealt to its seats (window complete), the upcard, and
        its partner's hand once shown."""
        h = self.hand
        out = []
        for pos, seat in h.sched.dealt.items():
            number = h.position_window.get(pos)
            if h.owner(seat) == self.party and number is not None and h.windows[number].shares_done:
                out.append(pos)
        for w in h.windows:
            for _, show in w.shows.values():
                if h.owner(show.partner) == self.party and show.seat != show.partner:
                    out.extend(p for p in show.positions if h.owner(show.seat) != self.party)
        return sorted(set(out))

    def opening_key(self, pos: int) -> int | None:
        """The whole opening key of a position it may open, or None (not yet, or a bad key)."""
        if pos in self._keys:
            return self._keys[pos]
        h = self.hand
        key: int | None
        if pos == h.upcard_position and h.windows and h.windows[0].shares_done:
            keys = h.upcard_keys()
            key = product(keys) if len(keys) == len(h.parties) else None
        else:
            key = self._dealt_key(pos)
            if key is None:
                key = self._shown_key(pos)
        if key is not None or self._settled(pos):
            self._keys[pos] = key
        return key

    def card_at(self, pos: int) -> int | None:
        """The card at a position it may open (None when it does not open, or not yet)."""
        h = self.hand
        if h.final is None:
            return None
        if pos in h.played:
            return h.played[pos]
        if pos in self._cards:
            return self._cards[pos]
        key = self.opening_key(pos)
        if key is None:
            return None
        code = self._cards[pos] = open_card(h.final[pos], key)
        if code is not None:
            h.opened[pos] = (key, code)  # its play then needs no second multiplication
        return code

    def seat_cards(self, seat: int) -> dict[int, int]:
        """Position -> card for the cards a seat it holds has in hand now (those that open)."""
        out = {}
        for pos in self.hand.held_positions(seat):
            code = self.card_at(pos)
            if code is not None:
                out[pos] = code
        return out

    def view(self, seat: int) -> SeatView | None:
        """What a seat this party holds sees: None until its whole hand opens (a card on its way,
        or one that does not open)."""
        h = self.hand
        if not h.dealt or h.owner(seat) != self.party:
            return None
        held = h.held_positions(seat)
        cards = self.seat_cards(seat)
        if len(cards) != len(held):
            return None
        hand = tuple(Card.from_code(cards[p]) for p in held)
        shown = self._partner_shown(seat)
        upcard = None if h.upcard is None else Card.from_code(h.upcard)
        turns = h.expected() in ("play", "bid", "call")
        return h.sched.seat_view(seat, hand, upcard, shown, turns=turns)

    def _partner_shown(self, seat: int) -> tuple[Card, ...] | None:
        """The partner's hand as the exchange showed it to ``seat`` (None before it)."""
        h = self.hand
        partner = h.options.partner_of(seat)
        if partner is None:
            return None
        for w in h.windows:
            got = w.shows.get(partner)
            if got is not None:
                codes = [self.card_at(p) for p in got[1].positions]
                if any(c is None for c in codes):
                    return None
                return tuple(Card.from_code(c) for c in codes if c is not None)
        return None

    def _settled(self, pos: int) -> bool:
        """Whether every key it needs for the position has come (so a None is final)."""
        h = self.hand
        seat = h.sched.dealt.get(pos)
        number = h.position_window.get(pos)
        if seat is not None and number is not None and h.owner(seat) == self.party:
            return h.windows[number].shares_done
        return h.shown_to_party(self.party, pos) is not None

    def _dealt_key(self, pos: int) -> int | None:
        h = self.hand
        seat = h.sched.dealt.get(pos)
        number = h.position_window.get(pos)
        if seat is None or number is None or h.owner(seat) != self.party:
            return None
        w = h.windows[number]
        if not w.shares_done:
            return None
        keys = [self.keys.lock(pos)]
        for q, (_rec, st) in w.shares.items():
            if q == self.party or pos not in st.positions:
                continue
            sealed = st.values[st.positions.index(pos)]
            k = unseal(sealed, h.pad(q, self.party, pos, SHARE, self._shared_with(q)))
            if k is None or not h.key_matches(q, pos, k):  # not the key q committed to
                self._bad.setdefault(pos, q)
                return None
            keys.append(k)
        if len(keys) != len(h.parties):
            return None
        return product(keys)

    def _shown_upcard_opens(self, pos: int) -> bool:
        """Whether a show of the upcard's position (the partner drew it last) holds the key that
        opens it: everyone has that card from window 0, but the show must hold its true key."""
        h = self.hand
        if h.final is None or h.shown_to_party(self.party, pos) is None:
            return True
        key = self._shown_key(pos)
        return key is not None and open_card(h.final[pos], key) == h.upcard

    def _shown_key(self, pos: int) -> int | None:
        h = self.hand
        show = h.shown_to_party(self.party, pos)
        if show is None:
            return None
        sender = h.owner(show.seat)
        sealed = show.values[show.positions.index(pos)]
        pads = h.pad(sender, self.party, pos, SHOW, self._shared_show_with(sender))
        return unseal(sealed, pads)

    def _shared_with(self, other: int) -> bytes:
        """The point the shares' pads between this party and another come from."""
        point = self._shared.get(other)
        if point is None:
            point = self._shared[other] = shared_point(self.keys.ecdh_key, self.hand.ecdh[other])
        return point

    def _shared_show_with(self, other: int) -> bytes:
        """The point the shows' pads between this party and another come from."""
        point = self._shared_show.get(other)
        if point is None:
            point = shared_point(self.keys.show_key, self.hand.ecdh_show[other])
            self._shared_show[other] = point
        return point


__all__ = ["BlindParty"]
