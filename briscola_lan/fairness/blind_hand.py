"""One blind hand followed from its public records: whose pass, shares, show or key comes next,
the final deck, and every public check made as a record arrives (protocol/fairness.md §11); at
five players no upcard and no draws, but the auction's bids and the call after the deal, each
checked by the auction's rules (``rules.auction``, fairness.md §13.9).

The verifier, the host (before it publishes what a party sent) and every client follow a blind
hand with this one state machine. A check that fails raises ``BlindFault`` naming the party at
fault and, when it is not the record being checked, the earlier record that is wrong.
"""

from __future__ import annotations

from collections.abc import Sequence

from briscola_lan.fairness import blind_judge
from briscola_lan.fairness.blind import (
    PartyKeys,
    derive_keys,
    open_card,
    opens_as,
    pad,
    product,
)
from briscola_lan.fairness.blind_auction import BlindAuction
from briscola_lan.fairness.blind_fault import BlindFault
from briscola_lan.fairness.blind_presence import Presence
from briscola_lan.fairness.blind_window import Window
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.group import base, is_point, scalar_of
from briscola_lan.fairness.proofs import lock_verify, proof_label
from briscola_lan.fairness.shuffle import pack_codes
from briscola_lan.fairness.statements import (
    BidStatement,
    BlindPlay,
    CallStatement,
    Complaint,
    KeyReveal,
    LockPass,
    Shares,
    Show,
    ShufflePass,
)
from briscola_lan.rules.cards import Card
from briscola_lan.rules.events import TrickTaken as RulesTrickTaken
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.schedule import Phase, PublicSchedule, initial_deal

# Every statement a blind hand publishes (what ``BlindHand.apply`` follows).
BlindStatement = (
    ShufflePass
    | LockPass
    | Shares
    | Show
    | BlindPlay
    | Complaint
    | KeyReveal
    | BidStatement
    | CallStatement
)
# The statements a seat owes (made by its owner: the seat, or the host for a seat it plays);
# a party owes the rest.
SEAT_KINDS = frozenset({Show.KIND, BlindPlay.KIND, BidStatement.KIND, CallStatement.KIND})


class BlindHand(BlindAuction):
    """The public state of one blind hand (§11): passes, windows, plays, complaint, reveals."""

    def __init__(
        self,
        options: TableOptions,
        game_id: bytes,
        hand: int,
        dealer: int,
        parties: Sequence[int],
        *,
        check_proofs: bool = True,
    ) -> None:
        """``check_proofs=False`` queues every lock pass instead of checking its proof at once
        (a verifier, a client): the pass is judged by its party's keys when they are revealed,
        and by its proof if ``check_locks()`` comes first (fairness.md §11.4)."""
        self.options, self.game_id, self.hand, self.dealer = options, game_id, hand, dealer
        self.check_proofs = check_proofs
        self.unchecked_locks: list[int] = []  # indices into ``locks`` whose proof waits
        self.n = options.players
        self.parties = tuple(parties)
        self.codes = pack_codes(options)
        self.pack = frozenset(self.codes)
        self.size = len(self.codes)
        self.sched = PublicSchedule(options, dealer)
        self.upcard_position = self.sched.upcard_position
        self.shuffles: list[tuple[int, ShufflePass]] = []
        self.locks: list[tuple[int, LockPass]] = []
        self.ecdh: dict[int, bytes] = {}  # party -> its key-exchange point (shares)
        self.ecdh_show: dict[int, bytes] = {}  # party -> its key-exchange point (shows)
        self.final: tuple[bytes, ...] | None = None
        self.windows: list[Window] = []
        self.window: Window | None = None  # the open window (until its shares and shows are in)
        self.position_window: dict[int, int] = {}  # dealt position -> its window
        self.upcard: int | None = None
        self.upcard_failed = False
        self.played: dict[int, int] = {}  # position -> card code
        self.plays: list[tuple[int, BlindPlay]] = []
        # Five players: the auction's bids and the call, as published (fairness.md §13.9).
        self.bids: list[tuple[int, BidStatement]] = []
        self.call: tuple[int, CallStatement] | None = None
        self.complaint: tuple[int, Complaint] | None = None
        self.verdict: BlindFault | None = None  # a complaint decided at once (its proof)
        self.reveals: dict[int, tuple[int, PartyKeys]] = {}
        self.ended = False  # its blind-end came (the result is fixed; the key reveals follow)
        self.reveal_context = b""  # the context due for its key reveals after the blind-end
        self.overdue: tuple[int, ...] | None = None  # the parties that did not reveal in time
        self.order: tuple[int, ...] | None = None  # every position's card, once all revealed
        # position -> (opening key, card) known to open there: a checked play, or a card a party
        # opened itself (key^-1 * point is the card's point, so key * card point is the point)
        self.opened: dict[int, tuple[int, int]] = {}
        self.changes = 0  # counts the windows, shares, shows and complaints (not the plays)

    # --- who holds what -------------------------------------------------------------------------

    def owner(self, seat: int) -> int:
        """The party that holds a seat's keys: the seat itself, or the host for its seats."""
        return seat if seat in self.parties else HOST_PARTY

    @property
    def disputed(self) -> bool:
        return self.complaint is not None or self.upcard_failed

    @property
    def over(self) -> bool:
        """Every trick was played, or at five players everyone passed (the key reveals come
        next)."""
        if self.passed_out:
            return True
        return bool(self.plays) and self.sched.to_play is None and self.window is None

    @property
    def passed_out(self) -> bool:
        """Five players: everyone passed; the blind-end (no points) comes next, the hand is
        void and dealt again."""
        return self.sched.phase == Phase.PASSED_OUT

    @property
    def dealt(self) -> bool:
        """The cards are out: the upcard is turned, or at five players (no upcard) window 0's
        shares are all in (the auction, the call and the play follow)."""
        if self.options.chiamata:
            return bool(self.windows) and self.windows[0].shares_done and not self.disputed
        return self.upcard is not None

    def expected(self) -> str:
        """What the hand waits for: shuffle, lock, shares, show, bid and call (five players),
        play, end (its blind-end once every card is played, or everyone passed; in a disputed
        hand the host's abort), reveal (the key reveals, after the blind-end or in a dispute),
        or done (every reveal came, or the overdue ones were named)."""
        if len(self.shuffles) < len(self.parties):
            return "shuffle"
        if len(self.locks) < len(self.parties):
            return "lock"
        if self.verdict is not None:
            return "end"  # a complaint decided by its proof: the host's abort comes next
        if self.disputed:
            return "reveal" if len(self.reveals) < len(self.parties) else "end"
        if self.over:
            if not self.ended:
                return "end"
            if self.overdue is None and len(self.reveals) < len(self.parties):
                return "reveal"
            return "done"
        w = self.window
        if w is not None:
            return "shares" if not w.shares_done else "show"
        phase = self.sched.phase
        if phase == Phase.AUCTION:
            return "bid"
        if phase == Phase.CALL:
            return "call"
        return "play"

    def owed(self) -> tuple[str, tuple[int, ...]]:
        """The statement kind the hand waits for and who owes it (parties, or seats for a show
        and a play)."""
        what = self.expected()
        if what == "shuffle":
            return ShufflePass.KIND, (self.parties[len(self.shuffles)],)
        if what == "lock":
            return LockPass.KIND, (self.parties[len(self.locks)],)
        if what == "reveal":
            return KeyReveal.KIND, tuple(q for q in self.parties if q not in self.reveals)
        if what == "done":
            return "", ()
        if what == "shares":
            w = self.window
            assert w is not None
            return Shares.KIND, tuple(q for q in w.owing if q not in w.shares)
        if what == "show":
            w = self.window
            assert w is not None
            return Show.KIND, tuple(s for s in range(self.n) if s not in w.shows)
        if what == "play":
            to_play = self.sched.to_play
            return BlindPlay.KIND, () if to_play is None else (to_play,)
        if what == "bid":
            to_bid = self.sched.to_bid
            return BidStatement.KIND, () if to_bid is None else (to_bid,)
        if what == "call":
            to_call = self.sched.to_call
            return CallStatement.KIND, () if to_call is None else (to_call,)
        return ("abort" if self.disputed else "blind-end"), ()  # a disputed hand never ends

    def held_positions(self, seat: int) -> list[int]:
        """The positions dealt to a seat and not played yet, ascending."""
        return sorted(p for p, s in self.sched.dealt.items() if s == seat and p not in self.played)

    def shown_to_party(self, party: int, position: int) -> Show | None:
        """The show that gave ``party`` the key of ``position`` (its partner's card), if any."""
        for w in self.windows:
            for _, show in w.shows.values():
                if position in show.positions and self.owner(show.partner) == party:
                    return show
        return None

    def owed_positions(self, w: Window, party: int) -> tuple[int, ...]:
        """The positions a party's shares for a window hold, in order (the upcard last)."""
        out = [p for p, seat in w.deals if self.owner(seat) != party]
        if w.upcard is not None:
            out.append(w.upcard)
        return tuple(out)

    # --- the passes -----------------------------------------------------------------------------

    def _check_deck(
        self, points: Sequence[bytes], party: int, what: str, *, valid: bool = True
    ) -> None:
        if len(points) != self.size:
            raise BlindFault(party, f"the {what} pass has {len(points)} points, not {self.size}")
        if len(set(points)) != self.size:
            raise BlindFault(party, f"the {what} pass repeats a point")
        if valid and not all(is_point(p) for p in points):
            raise BlindFault(party, f"the {what} pass holds a point that is not a group element")

    def apply(self, st: BlindStatement, record: int) -> None:
        """Follow one published statement of the hand, whichever kind it is."""
        if isinstance(st, ShufflePass):
            self.on_shuffle(st, record)
        elif isinstance(st, LockPass):
            self.on_lock(st, record)
        elif isinstance(st, Shares):
            self.on_shares(st, record)
        elif isinstance(st, Show):
            self.on_show(st, record)
        elif isinstance(st, BlindPlay):
            self.on_play(st, record)
        elif isinstance(st, Complaint):
            self.on_complaint(st, record)
        elif isinstance(st, BidStatement):
            self.on_bid(st, record)
        elif isinstance(st, CallStatement):
            self.on_call(st, record)
        else:
            self.on_key_reveal(st, record)

    def on_shuffle(self, st: ShufflePass, record: int) -> None:
        if len(self.shuffles) >= len(self.parties) or st.seat != self.parties[len(self.shuffles)]:
            raise BlindFault(HOST_PARTY, "a shuffle pass out of party order, or one too many")
        if not is_point(st.ecdh) or not is_point(st.ecdh_show):
            raise BlindFault(st.seat, "a key-exchange point is not a group element")
        self._check_deck(st.points, st.seat, "shuffle")
        self.shuffles.append((record, st))
        self.ecdh[st.seat] = st.ecdh
        self.ecdh_show[st.seat] = st.ecdh_show

    def on_lock(self, st: LockPass, record: int) -> None:
        if len(self.shuffles) < len(self.parties):
            raise BlindFault(HOST_PARTY, "a lock pass before every party shuffled")
        if len(self.locks) >= len(self.parties) or st.seat != self.parties[len(self.locks)]:
            raise BlindFault(HOST_PARTY, "a lock pass out of party order, or one too many")
        # Queued, its points are checked valid when it is judged (its proof's multiplications,
        # or its party's keys giving exactly these points), not twice.
        self._check_deck(st.points, st.seat, "lock", valid=self.check_proofs)
        if len(st.commits) != self.size:
            raise BlindFault(st.seat, f"the lock pass commits to {len(st.commits)} keys, not "
                             f"{self.size}")  # fmt: skip
        if self.check_proofs and not (is_point(st.key) and all(is_point(y) for y in st.commits)):
            raise BlindFault(
                st.seat, "the lock pass commits to a point that is not a group element"
            )
        self.locks.append((record, st))
        if self.check_proofs:
            self._check_lock(len(self.locks) - 1)
        else:
            self.unchecked_locks.append(len(self.locks) - 1)
        if len(self.locks) == len(self.parties):
            self.final = st.points
            deal = initial_deal(self.n, self.dealer, self.options.hand_size)
            self._open_window(0, tuple(deal), self.upcard_position)

    def lock_inputs(self, i: int) -> tuple[bytes, ...]:
        """The deck the i-th lock pass (from 0) was made over: the last shuffle's, or the
        previous lock's."""
        return self.shuffles[-1][1].points if i == 0 else self.locks[i - 1][1].points

    def _check_lock(self, i: int) -> None:
        rec, st = self.locks[i]
        label = proof_label(self.game_id, self.hand, st.seat, st.context, LockPass.KIND)
        if not lock_verify(
            st.key, st.commits, self.lock_inputs(i), st.points, st.proof, label=label
        ):
            raise BlindFault(
                st.seat,
                "the lock pass is not what its committed keys give (its proof fails)",
                rec,
                st.KIND,
            )

    def check_locks(self) -> None:
        """Check the lock proofs queued so far, in order; raises BlindFault on a bad one."""
        while self.unchecked_locks:
            self._check_lock(self.unchecked_locks[0])
            self.unchecked_locks.pop(0)

    def commit_of(self, party: int, position: int) -> bytes:
        """The point a party's lock key for a position must give: ``Y_p = b_p·B``."""
        return self.locks[self.parties.index(party)][1].commits[position]

    def key_matches(self, party: int, position: int, key: int) -> bool:
        """Whether ``key`` is the lock key the party committed to for the position."""
        return base(key) == self.commit_of(party, position)

    # --- deal windows -----------------------------------------------------------------------------

    def _open_window(
        self,
        number: int,
        deals: tuple[tuple[int, int], ...],
        upcard: int | None,
        shows_due: bool = False,
    ) -> None:
        self.changes += 1
        w = Window(number, deals, upcard, (), shows_due=shows_due)
        w.owing = tuple(q for q in self.parties if self.owed_positions(w, q))
        for pos, _seat in deals:
            self.position_window[pos] = number
        self.windows.append(w)
        self.window = w
        self._maybe_close_window()

    def on_shares(self, st: Shares, record: int) -> None:
        w = self.window
        if w is None or w.shares_done or self.disputed:
            raise BlindFault(HOST_PARTY, "shares outside a deal window")
        if st.window != w.number:
            raise BlindFault(HOST_PARTY, f"shares for window {st.window} in window {w.number}")
        pending = [q for q in w.owing if q not in w.shares]
        if st.seat != pending[0]:
            raise BlindFault(
                HOST_PARTY, "shares out of party order, twice, or from a party owing none"
            )
        if st.positions != self.owed_positions(w, st.seat):
            raise BlindFault(st.seat, "the shares are not for the positions the window gives")
        if len(st.values) != len(st.positions):
            raise BlindFault(st.seat, "the shares hold one value per position")
        if w.upcard is not None:
            key = scalar_of(st.values[-1])
            if key is None or not self.key_matches(st.seat, w.upcard, key):
                raise BlindFault(st.seat, "the upcard's key is not the one its lock committed to")
        w.shares[st.seat] = (record, st)
        self.changes += 1
        if w.shares_done and w.upcard is not None:
            self._turn_upcard(w)
        self._maybe_close_window()

    def _turn_upcard(self, w: Window) -> None:
        assert self.final is not None
        keys = []
        for q in self.parties:
            k = scalar_of(w.shares[q][1].values[-1])
            assert k is not None
            keys.append(k)
        assert self.upcard_position is not None  # a window with an upcard: 2 to 4 players
        code = open_card(self.final[self.upcard_position], product(keys))
        if code is None or code not in self.pack:
            self.upcard_failed = True  # a dispute: every party must reveal its keys
            return
        self.upcard = code
        self.sched.trump = Card.from_code(code).suit

    def upcard_keys(self) -> list[int]:
        """Every party's public key for the upcard position (window 0's shares, party order)."""
        w = self.windows[0]
        return [k for q in self.parties if (k := scalar_of(w.shares[q][1].values[-1]))]

    def _maybe_close_window(self) -> None:
        w = self.window
        if w is None or not w.shares_done or self.disputed:
            return
        if w.shows_due and len(w.shows) < self.n:
            return
        self.window = None

    def on_show(self, st: Show, record: int) -> None:
        w = self.window
        if w is None or not w.shows_due or not w.shares_done or self.disputed:
            raise BlindFault(HOST_PARTY, "a show outside the partner exchange")
        if st.seat != len(w.shows):
            raise BlindFault(HOST_PARTY, "shows out of seat order or twice")
        shower = self.owner(st.seat)
        if st.partner != self.options.partner_of(st.seat):
            raise BlindFault(shower, "a show to a seat that is not the partner")
        if st.positions != tuple(self.held_positions(st.seat)):
            raise BlindFault(shower, "a show must hold the seat's whole hand, in position order")
        if len(st.values) != len(st.positions):
            raise BlindFault(shower, "a show holds one value per position")
        w.shows[st.seat] = (record, st)
        self.changes += 1
        self._maybe_close_window()

    # --- play -------------------------------------------------------------------------------------

    def on_play(self, st: BlindPlay, record: int) -> None:
        """A published play (the host must have checked it: any fault here is the host's)."""
        problem = self.play_problem(st)
        if problem is not None:
            raise BlindFault(HOST_PARTY, problem)
        self.played[st.position] = st.card
        self.plays.append((record, st))
        outcome = self.sched.play(st.seat, Card.from_code(st.card))
        if outcome is not None and outcome.draws:
            draws = tuple((pos, seat) for seat, pos in outcome.draws if pos != self.upcard_position)
            self._open_window(len(self.sched.tricks), draws, None, outcome.exchange)

    def play_problem(self, st: BlindPlay) -> str | None:
        """Why a play cannot be accepted now, or None (the checks a host makes first)."""
        if self.expected() in ("bid", "call"):
            return "a card was played before the auction's call"
        if self.expected() != "play" or self.final is None:
            return "no card can be played now"
        if st.index != len(self.plays):
            return f"this is play number {len(self.plays)}"
        if st.seat != self.sched.to_play:
            return f"it is seat {self.sched.to_play}'s turn"
        if self.sched.dealt.get(st.position) != st.seat or st.position in self.played:
            return "that position is not in the seat's hand"
        if not 0 <= st.card < 40 or st.card in self.played.values():
            return "no such card, or it was played already"
        key = scalar_of(st.key)
        if key is None:
            return "the key does not open that card at that position"
        if self.opened.get(st.position) != (key, st.card):  # one multiplication, only if unknown
            if not opens_as(self.final[st.position], key, st.card):
                return "the key does not open that card at that position"
            self.opened[st.position] = (key, st.card)
        return None

    # --- complaints and the key reveals -------------------------------------------------------

    def complaint_problem(self, st: Complaint) -> str | None:
        """Why a complaint is not valid now, or None (the host refuses such a complaint;
        published, it is the host's fault)."""
        return self.complaint_moment_problem(st) or self.complaint_proof_problem(st)

    def complaint_moment_problem(self, st: Complaint) -> str | None:
        """Why a party cannot complain about this position now, or None."""
        if self.final is None or self.disputed or self.reveals or self.over:
            return "no complaint can be made now"
        pos = st.position
        if pos in self.played:
            return "that card was played"
        if not (self.dealt_to_party(st.seat, pos) or self.shown_to_party(st.seat, pos)):
            return "that position was not dealt or shown to this party"
        return None

    def complaint_proof_problem(self, st: Complaint) -> str | None:
        """Why a complaint's ``about``, point or proof is not valid, or None."""
        return blind_judge.complaint_proof_problem(self, st)

    def dealt_to_party(self, party: int, pos: int) -> bool:
        """Whether the position was dealt to a seat the party holds, its window complete."""
        seat = self.sched.dealt.get(pos)
        number = self.position_window.get(pos)
        return (
            seat is not None
            and number is not None
            and self.owner(seat) == party
            and self.windows[number].shares_done
        )

    def on_complaint(self, st: Complaint, record: int) -> None:
        problem = self.complaint_problem(st)
        if problem is not None:
            raise BlindFault(HOST_PARTY, problem)
        self.complaint = (record, st)
        self.window = None
        self.changes += 1
        if st.about != st.seat:
            self.verdict = blind_judge.decide(self, st, record)

    def on_end(self) -> None:
        """The hand's blind-end was published (the verifier checks its points)."""
        if self.expected() != "end" or self.disputed:
            raise BlindFault(
                HOST_PARTY, "a blind-end before every card was played, or in a dispute"
            )
        self.ended = True

    @property
    def late(self) -> tuple[int, ...]:
        """The parties named overdue whose key reveal may still come."""
        return tuple(q for q in self.overdue or () if q not in self.reveals)

    def on_overdue(self, parties: Sequence[int]) -> None:
        """The host names the key reveals that did not come in time: exactly those missing."""
        if self.expected() != "reveal" or self.disputed:
            raise BlindFault(HOST_PARTY, "overdue key reveals named outside the reveals of a hand")
        missing = tuple(q for q in self.parties if q not in self.reveals)
        if tuple(parties) != missing:
            raise BlindFault(
                HOST_PARTY, "the overdue parties must be exactly those without a reveal"
            )
        self.overdue = missing

    def on_key_reveal(self, st: KeyReveal, record: int, keys: PartyKeys | None = None) -> None:
        """A party's secret: everything it sent this hand is recomputed now (its fault if not).

        ``keys`` are those ``reveal_keys`` gave for this reveal beforehand (in a worker: the host
        checks the reveals off its event loop); the order is checked here in any case."""
        self.reveal_order_problem(st)
        if keys is None:
            keys = self.reveal_keys(st)
        if st.seat in self.unchecked_parties():  # judged by the revealed keys, not by a proof
            self.unchecked_locks.remove(self.parties.index(st.seat))
        self.reveals[st.seat] = (record, keys)
        if len(self.reveals) == len(self.parties):
            blind_judge.after_reveals(self)

    def reveal_order_problem(self, st: KeyReveal) -> None:
        """Raise the host's fault if ``st`` is not the key reveal due now."""
        late = st.seat in self.late
        if self.expected() != "reveal" and not late:
            raise BlindFault(HOST_PARTY, "keys revealed before the hand is over or disputed")
        pending = [q for q in self.parties if q not in self.reveals]
        if self.disputed:
            in_order = bool(pending) and st.seat == pending[0]  # a dispute: a prefix of parties
        else:  # after the blind-end: in party order, those that came
            done = [self.parties.index(q) for q in self.reveals]
            in_order = st.seat in pending and (
                late or self.parties.index(st.seat) > max(done, default=-1)
            )
        if not in_order:
            raise BlindFault(HOST_PARTY, "key reveals out of party order or twice")

    def unchecked_parties(self) -> tuple[int, ...]:
        """The parties whose lock pass waits for their revealed keys (its proof not checked)."""
        return tuple(self.parties[i] for i in self.unchecked_locks)

    def reveal_keys(self, st: KeyReveal, unchecked: Sequence[int] | None = None) -> PartyKeys:
        """The keys ``st`` reveals, once every statement its party sent this hand is what they
        give (else that party's fault). Reads the hand and changes nothing: it may run in a
        worker thread while nothing else changes the hand; ``unchecked`` is
        ``unchecked_parties()`` as it was when the work was handed out."""
        keys = derive_keys(self.game_id, self.hand, st.seat, st.secret, self.size)
        blind_judge.recompute(
            self, keys, self.unchecked_parties() if unchecked is None else unchecked
        )
        return keys

    def pad(self, sender: int, receiver: int, position: int, what: str, shared: bytes) -> bytes:
        """The pad that seals a value of this hand from one party to another."""
        return pad(
            self.game_id,
            self.hand,
            sender=sender,
            receiver=receiver,
            position=position,
            what=what,
            shared=shared,
        )

    def dispute_verdict(self) -> BlindFault:
        """Who a dispute makes at fault: a complaint decided by its proof says; otherwise every
        party revealed and nothing it sent is wrong, so the complaint was false."""
        if self.verdict is not None:
            return self.verdict
        if self.complaint is None:
            return BlindFault(
                HOST_PARTY, "the upcard did not open, yet every party's keys are right"
            )
        rec, st = self.complaint
        return BlindFault(
            st.seat,
            f"complained that position {st.position} does not open, but it does",
            rec,
            st.KIND,
        )

    @property
    def tricks(self) -> list[RulesTrickTaken]:
        """The tricks taken so far (the public engine's)."""
        return self.sched.tricks

    @property
    def exchange_trick(self) -> int | None:
        """Tricks taken when the partners showed their hands (4 players), or None."""
        return self.sched.exchange_trick

    def points(self) -> tuple[int, ...]:
        """Card points per side from the tricks taken so far."""
        return tuple(self.sched.points)


__all__ = ["SEAT_KINDS", "BlindFault", "BlindHand", "Presence", "Window"]
