"""Cheating at the blind deal (protocol/fairness.md §11) through the real protocol: a HostTable
and one ClientSession per human seat over the in-memory Wire, deal "blind".

Each attack is caught at once, by the host or by the client that can see it, and every file (the
host's and each seat's, ``verify_records``) names the party §11 blames, at the record it names;
the live client's check (``state.checks[-1]``) says the same. A cheating party is the honest
``BlindParty`` with one statement edited before its client (or the host) signs it; a cheating
host is ``BlindDeal`` with one step changed; a cheating relay edits host->client messages.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from nacl.bindings import crypto_core_ed25519_add

from briscola_lan.fairness.blind import SHARE, SHOW, pad, seal, shared_point
from briscola_lan.fairness.blind_hand import BlindHand
from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.group import L, base, inverse, mult, scalar_bytes
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import (
    Abort,
    BlindEnd,
    BlindPlay,
    Complaint,
    KeyReveal,
    LockPass,
    Overdue,
    Receipt,
    Shares,
    Show,
    ShufflePass,
    Statement,
    decode,
)
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.rules.schedule import initial_deal
from briscola_lan.table import blind_call, client_blind, deal_blind, lifecycle
from briscola_lan.table.client import ClientSession
from briscola_lan.table.deal import Outgoing
from briscola_lan.table.events import OwnWord
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Message, Record
from tests.table.helpers import counter_entropy, cycle_chooser

TWO = TableOptions.make(players=2, hands_to_win=1)
THREE = TableOptions.make(players=3, match_format=MatchFormat.POINTS)
FOUR = TableOptions.make(players=4, hands_to_win=1)
RECEIPT_TIME = 1_700_000_000
HOST = "host"

ClientTap = Callable[[int, Message], Message | None]
HostTap = Callable[[int, Message], Message | None]


# --- the table ------------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _one_aborted_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test here looks at one aborted hand and the files that end with its abort: the
    deal again that follows an abort naming a seat is tested in tests/table/test_replay.py."""
    monkeypatch.setattr(HostTable, "_replay_if_due", lambda self, out: None)


@dataclass
class Game:
    """A blind table: the host, one client per human seat (client i in seat i, AI seats last)."""

    host: HostTable
    clients: list[ClientSession]
    wire: Wire
    refused: list[tuple[int, m.Error]] = field(default_factory=list)  # (conn, error) sent

    def start(self) -> None:
        """Start the match and run it until it waits for a play (or stops)."""
        self.wire.send_to_host(0, self.clients[0].start())
        self.wire.pump()

    def run(self) -> None:
        """Start and play the match out (cycle choosers); deadlines pass as seats stay idle."""
        self.start()
        play_out(self.wire, [cycle_chooser(i) for i in range(len(self.clients))])

    def run_until_stuck(self) -> None:
        """As ``run``, for a match that stops where a seat no longer plays (a seat that found
        the host cheating stops answering; the hand waits for its card, which has no deadline
        while it is connected)."""
        self.start()
        try:
            play_out(self.wire, [cycle_chooser(i) for i in range(len(self.clients))])
        except RuntimeError:
            assert self.host.phase == "play", self.host.phase

    def files(self) -> dict[str, list[Record]]:
        out = {HOST: list(self.host.records)}
        for i, c in enumerate(self.clients):
            out[f"seat{i}"] = list(c.records)
        return out

    def published(self) -> list[Statement]:
        """The host's records, decoded."""
        return [decode(b) for b, _ in self.host.records]

    def index(self, body: bytes, who: str = HOST) -> int:
        return [b for b, _ in self.files()[who]].index(body)


def make_game(
    options: TableOptions,
    label: str,
    *,
    ai_seats: dict[int, str] | None = None,
    client_tap: ClientTap | None = None,
    tap: HostTap | None = None,
) -> Game:
    entropy = counter_entropy(f"blind-tamper/{label}")
    host = HostTable(
        options,
        name=label,
        identity=Identity.generate(entropy(32)),
        entropy=entropy,
        ai_seats=ai_seats,
        clock=lambda: RECEIPT_TIME,
        deal="blind",
    )
    humans = [s for s in range(options.players) if s not in (ai_seats or {})]
    assert humans == list(range(len(humans))), "AI seats come last"
    clients = [
        ClientSession(Identity.generate(entropy(32)), f"p{s}", entropy=entropy) for s in humans
    ]
    host.tick(0.0)
    wire = Wire(host, clients)
    game = Game(host, clients, wire)

    def host_tap(conn: int, msg: Message) -> Message | None:
        if isinstance(msg, m.Error):
            game.refused.append((conn, msg))
        return tap(conn, msg) if tap is not None else msg

    wire.tap = host_tap
    if client_tap is not None:
        send = wire.send_to_host

        def edited(conn: int, msgs: list[Message]) -> None:
            out = [client_tap(conn, x) for x in msgs]
            send(conn, [x for x in out if x is not None])

        wire.send_to_host = edited  # type: ignore[method-assign]
    for conn in humans:
        c = clients[conn]
        wire.deliver(host.connect(conn))
        wire.send_to_host(conn, c.hello())
        wire.pump()
        wire.send_to_host(conn, c.take_seat(conn) + c.ready())
        wire.pump()
    return game


def resigned(client: ClientSession, msg: Message, st: Statement) -> Message:
    """The same kind of message carrying ``st``, signed by the client's own key."""
    body = st.encode()
    return type(msg)(body, client.identity.sign(body))  # type: ignore[call-arg]


# --- verdicts ---------------------------------------------------------------------------------


def expect(
    game: Game,
    verdict: str,
    party: str,
    body: bytes,
    *,
    files: dict[str, str] | None = None,
) -> None:
    """Every file (or those in ``files``, name -> party) has ``verdict``, blames ``party`` and
    names the record ``body``; so does the live client of each seat whose file is checked."""
    wanted = files if files is not None else dict.fromkeys(game.files(), party)
    for name, who in wanted.items():
        recs = game.files()[name]
        rep = verify_records(recs)
        blame = rep.blame
        assert blame is not None and blame.index is not None, (name, rep.verdict)
        got = (rep.verdict, blame.party, recs[blame.index][0] == body)
        assert got == (verdict, who, True), (name, blame.describe())
        if name != HOST:
            c = game.clients[int(name.removeprefix("seat"))]
            check = c.state.checks[-1]
            assert check.fault is not None, (name, check)
            named = c.records[check.fault.index][0] if check.fault.index is not None else b""
            assert (check.status, check.fault.party, named == body) == (verdict, who, True), (
                name,
                check.fault.describe(),
            )


# --- a cheating party ----------------------------------------------------------------------------


@dataclass
class Cheat:
    """One statement a party edits: the first of ``kind`` for which ``when`` holds (``party``
    None: whichever seat's client first makes such a statement)."""

    party: int | None
    kind: str
    edit: Callable[[CheatingParty, Any], Any]
    when: Callable[[CheatingParty, Any], bool] = lambda p, st: True
    made: Statement | None = None  # the edited statement, once made
    cache: dict[bytes, Statement] = field(default_factory=dict)

    @property
    def body(self) -> bytes:
        assert self.made is not None, "the cheat never happened"
        return self.made.encode()


class CheatingParty(BlindParty):
    """The honest party, but one statement edited (the same edit every time it is asked)."""

    def __init__(
        self,
        hand: BlindHand,
        party: int,
        secret: bytes,
        context: Callable[[str], bytes],
        cheat: Cheat,
    ) -> None:
        super().__init__(hand, party, secret, context)
        self.cheat = cheat

    def _edit(self, st: Any) -> Any:
        c = self.cheat
        if st is None:
            return None
        got = c.cache.get(st.encode())
        if got is not None:
            return got
        if c.made is not None or c.kind != st.KIND or not c.when(self, st):
            return st
        bad = c.edit(self, st)
        c.made = c.cache[st.encode()] = bad
        return bad

    def shuffle(self) -> ShufflePass | None:
        return self._edit(super().shuffle())  # type: ignore[no-any-return]

    def lock(self) -> LockPass | None:
        return self._edit(super().lock())  # type: ignore[no-any-return]

    def shares(self) -> Shares | None:
        return self._edit(super().shares())  # type: ignore[no-any-return]

    def shows(self) -> list[Show]:
        return [self._edit(s) for s in super().shows()]

    def complaint(self) -> Complaint | None:
        c, h = self.cheat, self.hand
        if c.kind != Complaint.KIND:
            return super().complaint()
        if c.made is None and c.when(self, None):
            c.made = c.edit(self, None)
        if c.made is not None and not h.disputed:
            return c.made  # type: ignore[return-value]
        return super().complaint()


def install(monkeypatch: pytest.MonkeyPatch, cheat: Cheat) -> Cheat:
    """The party ``cheat.party`` cheats: a seat's client, or the host (HOST_PARTY)."""

    def party(
        hand: BlindHand, q: int, secret: bytes, context: Callable[[str], bytes]
    ) -> BlindParty:
        if q == cheat.party or (cheat.party is None and q != HOST_PARTY):
            return CheatingParty(hand, q, secret, context, cheat)
        return BlindParty(hand, q, secret, context)

    module: Any = blind_call if cheat.party == HOST_PARTY else client_blind  # the host's party
    monkeypatch.setattr(module, "BlindParty", party)
    return cheat


def first_position(h: BlindHand, seat: int) -> int:
    """The first position the initial deal gives ``seat``."""
    return next(p for p, s in initial_deal(h.n, h.dealer) if s == seat)


def positions(h: BlindHand, seat: int) -> list[int]:
    return [p for p, s in initial_deal(h.n, h.dealer) if s == seat]


FRESH = base(123456789)  # a valid group element that is no card of this deck


def with_point(st: Any, index: int, point: bytes) -> Any:
    points = list(st.points)
    points[index] = point
    return dataclasses.replace(st, points=tuple(points))


# --- 1. a wrong decryption share ---------------------------------------------------------------


def wrong_share(victim: int, window: int) -> Callable[[CheatingParty, Shares], Shares]:
    """Seal twice the right lock key for the victim's (first) position in the window."""

    def edit(p: CheatingParty, st: Shares) -> Shares:
        h = p.hand
        pos = next(
            q for q in st.positions if h.sched.dealt.get(q) == victim and q != h.upcard_position
        )
        to = h.owner(victim)
        shared = shared_point(p.keys.ecdh_key, h.ecdh[to])
        wrong = seal(p.keys.lock(pos) * 2 % L, h.pad(p.party, to, pos, SHARE, shared))
        values = list(st.values)
        values[st.positions.index(pos)] = wrong
        return dataclasses.replace(st, values=tuple(values))

    return edit


@pytest.mark.parametrize(
    ("options", "cheater", "victim", "window"),
    [
        pytest.param(TWO, 1, 0, 0, id="2p-initial-deal"),
        pytest.param(TWO, 0, 1, 4, id="2p-fourth-draw"),
        pytest.param(FOUR, 2, 1, 0, id="4p-initial-deal"),
        pytest.param(FOUR, 3, 0, 2, id="4p-second-draw"),
        pytest.param(THREE, 0, 2, 0, id="3p-to-the-hosts-ai-seat"),
    ],
)
def test_a_wrong_share_is_blamed_on_its_sender(
    monkeypatch: pytest.MonkeyPatch, options: TableOptions, cheater: int, victim: int, window: int
) -> None:
    """The receiver sees at once that the key is not the one the sender committed to and
    complains about the sender (the host, for the AI seat it plays), revealing their shared
    point with its proof: anyone can unseal the wrong key, so the sender is at fault at its
    shares, decided at once, with no key revealed and no card published (§11.9). Fails with
    the share check of ``BlindHand._decide`` disabled (the complaint looks false and the
    victim is blamed)."""
    cheat = install(
        monkeypatch,
        Cheat(cheater, Shares.KIND, wrong_share(victim, window), lambda p, st: st.window == window),
    )
    ai_seats = {2: "rules"} if options.players == 3 else None
    game = make_game(options, f"share-{options.players}-{window}", ai_seats=ai_seats)
    game.run()
    sts = game.published()
    complaint = next(st for st in sts if isinstance(st, Complaint))
    assert complaint.seat == (victim if ai_seats is None else HOST_PARTY)
    window_shares = [
        i for i, st in enumerate(sts) if isinstance(st, Shares) and st.window == window
    ]
    assert game.index(complaint.encode()) == window_shares[-1] + 1  # at once, before any play
    assert complaint.about == cheater and complaint.proof  # about the sender, proved
    assert not any(isinstance(st, KeyReveal) for st in sts)  # nobody's cards made public
    expect(game, "aborted", f"seat {cheater}", cheat.body)


def test_a_wrong_upcard_key_disputes_the_hand_and_blames_its_party(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Window 0's upcard key is public: a wrong one leaves the upcard unopened, which disputes
    the hand with no complaint (§11.5); the reveals name the party at its shares."""

    def edit(p: CheatingParty, st: Shares) -> Shares:
        wrong = scalar_bytes(p.keys.lock(p.hand.upcard_position) * 3 % L)
        return dataclasses.replace(st, values=(*st.values[:-1], wrong))

    cheat = install(monkeypatch, Cheat(1, Shares.KIND, edit, lambda p, st: st.window == 0))
    game = make_game(TWO, "upcard-key")
    game.run()
    assert not any(isinstance(st, Complaint | BlindPlay) for st in game.published())
    expect(game, "failed", "seat 1", cheat.body)


def test_a_hosts_wrong_share_is_the_hosts_fault(monkeypatch: pytest.MonkeyPatch) -> None:
    """The host is a party for the AI seat it plays: its own wrong share is its fault."""
    cheat = install(
        monkeypatch, Cheat(HOST_PARTY, Shares.KIND, wrong_share(1, 0), lambda p, st: st.window == 0)
    )
    game = make_game(THREE, "host-share", ai_seats={2: "rules"})
    game.run()
    complaint = next(st for st in game.published() if isinstance(st, Complaint))
    assert complaint.seat == 1 and complaint.about == HOST_PARTY
    expect(game, "aborted", HOST, cheat.body)


# --- 2. a false proof in a play ----------------------------------------------------------------


def _other_position(st: BlindPlay, game: Game) -> int:
    """Another position the playing seat holds (its key opens another card)."""
    party = game.clients[st.seat]._blind  # the seat's own party: which position holds what
    assert party is not None
    return next(p for p in party.hand.held_positions(st.seat) if p != st.position)


@pytest.mark.parametrize("what", ["key", "card", "position", "upcard"])
def test_a_play_whose_key_does_not_open_it_is_refused(what: str) -> None:
    """The host checks every proof before it publishes a play (§11.7): a key that does not
    open the card (another position's key, another card with the right key, the card moved to
    another position, or the upcard's public key) is refused with illegal_play; nothing is
    published, and the seat's honest play that follows verifies. Fails with the proof check
    ``opens_as`` of ``BlindHand.play_problem`` disabled (the play is published)."""
    box: dict[str, Any] = {}

    def client_tap(conn: int, msg: Message) -> Message | None:
        if not isinstance(msg, m.PlayCard) or "bad" in box:
            return msg
        st = decode(msg.body)
        assert isinstance(st, BlindPlay)
        game, party = box["game"], box["game"].clients[conn]._blind
        other = _other_position(st, game)
        if what == "key":
            bad = dataclasses.replace(st, key=scalar_bytes(party.opening_key(other)))
        elif what == "card":
            bad = dataclasses.replace(st, card=party.card_at(other))
        elif what == "position":
            bad = dataclasses.replace(st, position=other)
        else:
            up = party.opening_key(party.hand.upcard_position)
            bad = dataclasses.replace(st, key=scalar_bytes(up))
        box["bad"] = bad
        return resigned(game.clients[conn], msg, bad)

    game = make_game(TWO, f"proof-{what}", client_tap=client_tap)
    box["game"] = game
    game.run()
    bad = box["bad"].encode()
    assert [e.code for _, e in game.refused] == [ErrorCode.ILLEGAL_PLAY]
    for name, recs in game.files().items():
        assert all(bad != body for body, _ in recs), name  # never published, never receipted
        assert verify_records(recs).verdict == "verified", name
    for c in game.clients:
        assert c.state.checks[-1].status == "verified"


# --- 3. a substituted card: a pass that swaps in a point, or copies a card ------------------------


@pytest.mark.parametrize(
    ("kind", "victim"),
    [
        pytest.param(ShufflePass.KIND, 0, id="shuffle-victim-card"),
        pytest.param(ShufflePass.KIND, None, id="shuffle-upcard"),
        pytest.param(LockPass.KIND, 0, id="lock-victim-card"),
        pytest.param(LockPass.KIND, 1, id="lock-own-card"),
        pytest.param(LockPass.KIND, None, id="lock-upcard"),
    ],
)
def test_a_pass_that_swaps_in_a_point_is_blamed_on_its_party(
    monkeypatch: pytest.MonkeyPatch, kind: str, victim: int | None
) -> None:
    """Seat 1, the last party, swaps a fresh group element into its pass at a position the
    initial deal gives ``victim`` (or at the upcard). The pass is well formed, so it is
    published. A lock pass's proof fails when it arrives: seat 1 is at fault at its lock before
    any card is dealt (§11.4). A shuffle pass has no proof: the card does not open, the receiver
    complains at once (or the upcard does not open: a dispute, §11.5), every party reveals, and
    seat 1's keys do not give its pass: seat 1 is at fault at that pass (§11.8). Fails with the
    pass recomputation of ``BlindHand._recompute`` disabled (the complaint looks false, or the
    host is blamed for the upcard)."""

    def edit(p: CheatingParty, st: Any) -> Any:
        h = p.hand
        at = h.upcard_position if victim is None else first_position(h, victim)
        return with_point(st, at, FRESH)

    cheat = install(monkeypatch, Cheat(1, kind, edit))
    game = make_game(TWO, f"swap-{kind}-{victim}")
    game.run()
    sts = game.published()
    complaints = [st for st in sts if isinstance(st, Complaint)]
    if kind == LockPass.KIND:  # caught by its proof, before a single key is sent
        assert not complaints and not any(isinstance(st, Shares) for st in sts)
    elif victim is None:
        assert not complaints
    else:
        assert [c.seat for c in complaints] == [victim]
        last_shares = max(i for i, st in enumerate(sts) if isinstance(st, Shares))
        assert game.index(complaints[0].encode()) == last_shares + 1  # at once
    assert not any(isinstance(st, BlindPlay) for st in sts)
    expect(game, "failed", "seat 1", cheat.body)


def test_a_shuffle_by_the_first_party_that_swaps_in_a_point_is_caught_when_dealt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first party's fresh point is moved by the later shuffles: nobody knows where it is,
    but whoever is dealt it complains when its window's keys come (or the upcard fails)."""
    cheat = install(monkeypatch, Cheat(0, ShufflePass.KIND, lambda p, st: with_point(st, 7, FRESH)))
    game = make_game(FOUR, "swap-first-shuffle")
    game.run()
    sts = game.published()
    assert not any(isinstance(st, BlindEnd) for st in sts) and isinstance(sts[-1], Abort)
    assert _hand(game).disputed  # a complaint, or the upcard did not open
    expect(game, "failed", "seat 0", cheat.body)


def copy_in_lock(
    source: Callable[[BlindHand], int], target: Callable[[BlindHand], int]
) -> Callable[[CheatingParty, LockPass], LockPass]:
    """A lock pass that locks the card at ``source`` also at ``target`` (with target's key, so
    every point is still distinct): ``target`` opens as a copy of ``source``'s card."""

    def edit(p: CheatingParty, st: LockPass) -> LockPass:
        h = p.hand
        inputs = h.locks[-1][1].points if h.locks else h.shuffles[-1][1].points
        src, dst = source(h), target(h)
        key = p.keys.lock(dst) * inverse(p.keys.shuffle_key) % L
        return with_point(st, dst, mult(key, inputs[src]))

    return edit


@pytest.mark.parametrize(
    ("source", "target"),
    [
        # both copies in seat 0's initial hand: it sees the same card twice at once
        pytest.param(lambda h: positions(h, 0)[0], lambda h: positions(h, 0)[1], id="same-hand"),
        # the upcard's card again in seat 0's hand: everyone has seen the upcard
        pytest.param(lambda h: h.upcard_position, lambda h: positions(h, 0)[2], id="upcard"),
        # a copy of seat 0's card in the stock: drawn after the second trick
        pytest.param(lambda h: positions(h, 0)[0], lambda h: 3 * h.n + 3, id="drawn-later"),
    ],
)
def test_a_lock_pass_that_copies_a_card_is_blamed_on_its_party(
    monkeypatch: pytest.MonkeyPatch,
    source: Callable[[BlindHand], int],
    target: Callable[[BlindHand], int],
) -> None:
    """Seat 1's lock pass puts a second copy of a card in the deck (distinct points: each is
    locked under its own position's key). Its proof fails when it arrives: seat 1 is at fault
    at its lock, before any key is sent (§11.4). Fails with ``lock_verify`` disabled in
    ``BlindHand._check_lock`` (the copy is dealt)."""
    cheat = install(monkeypatch, Cheat(1, LockPass.KIND, copy_in_lock(source, target)))
    game = make_game(TWO, "copy-card")
    game.run()
    sts = game.published()
    assert not any(isinstance(st, Complaint | Shares) for st in sts)
    assert source(_hand(game)) != target(_hand(game))
    expect(game, "failed", "seat 1", cheat.body)


def _hand(game: Game) -> BlindHand:
    """The host's public state of the current blind hand."""
    deal = game.host.deal
    assert isinstance(deal, deal_blind.BlindDeal) and deal.bh is not None
    return deal.bh


# --- 4. a malformed pass: published, and its party blamed at once -------------------------------


TORSION = bytes(32)  # the point (sqrt(-1), 0), of order 4


@pytest.mark.parametrize(
    ("kind", "how"),
    [
        (ShufflePass.KIND, "duplicate"),
        (ShufflePass.KIND, "identity"),
        (ShufflePass.KIND, "non-canonical"),
        (ShufflePass.KIND, "torsion"),
        (ShufflePass.KIND, "short"),
        (ShufflePass.KIND, "ecdh"),
        (LockPass.KIND, "duplicate"),
        (LockPass.KIND, "identity"),
        (LockPass.KIND, "torsion"),
    ],
)
def test_a_malformed_pass_is_published_and_its_party_blamed_at_once(
    monkeypatch: pytest.MonkeyPatch, kind: str, how: str
) -> None:
    """A pass with a repeated point, a point that is not a valid group element (the neutral
    point, a non-canonical encoding, a point outside the prime-order subgroup), too few points,
    or an invalid key-exchange point is its party's fault (§11.4): the host publishes it and
    aborts at once naming the party; every file fails at that pass. Fails with
    ``BlindHand._check_deck`` (or the key-exchange point check) disabled."""

    def edit(p: CheatingParty, st: Any) -> Any:
        if how == "duplicate":
            return with_point(st, 5, st.points[4])
        if how == "identity":
            return with_point(st, 5, b"\x01" + bytes(31))
        if how == "non-canonical":
            return with_point(st, 5, b"\xee" + b"\xff" * 30 + b"\x7f")
        if how == "torsion":
            return with_point(st, 5, crypto_core_ed25519_add(st.points[5], TORSION))
        if how == "short":
            return dataclasses.replace(st, points=st.points[:-1])
        return dataclasses.replace(st, ecdh=TORSION)

    cheat = install(monkeypatch, Cheat(1, kind, edit))
    game = make_game(TWO, f"malformed-{kind}-{how}")
    game.start()
    at = game.index(cheat.body)
    assert len(game.host.records) == at + 2  # the pass, then the abort
    abort = decode(game.host.records[at + 1][0])
    assert isinstance(abort, Abort) and abort.seat == 1
    assert game.host.phase == "over"
    expect(game, "failed", "seat 1", cheat.body)


# --- 5. a false partner exchange ------------------------------------------------------------------


def false_show(p: CheatingParty, st: Show) -> Show:
    """The show's first position sealed with the opening key of its second: a valid key that
    opens nothing there."""
    h = p.hand
    to = h.owner(st.partner)
    first, second = st.positions[0], st.positions[1]
    key = p.opening_key(second)
    assert key is not None
    shared = shared_point(p.keys.ecdh_key, h.ecdh[to])
    value = seal(
        key,
        pad(
            h.game_id, h.hand, sender=p.party, receiver=to, position=first, what=SHOW, shared=shared
        ),
    )
    return dataclasses.replace(st, values=(value, *st.values[1:]))


@pytest.mark.parametrize(
    ("shower", "ai_seats", "blamed"),
    [
        pytest.param(1, None, "seat 1", id="seat"),
        pytest.param(HOST_PARTY, {3: "rules"}, HOST, id="host-for-its-ai-seat"),
    ],
)
def test_a_false_show_is_blamed_on_the_shower(
    monkeypatch: pytest.MonkeyPatch, shower: int, ai_seats: dict[int, str] | None, blamed: str
) -> None:
    """At the end of the stock each seat shows its partner its hand (§11.6). A show whose key
    does not open a position makes the partner complain at once; once every party revealed,
    the show is not the true opening keys: its seat's owner is at fault at the show (§11.8).
    Fails with the show check of ``BlindHand._after_reveals`` disabled (the complaint looks
    false and the partner is blamed)."""
    cheat = install(monkeypatch, Cheat(shower, Show.KIND, false_show))
    game = make_game(FOUR, f"show-{shower}", ai_seats=ai_seats)
    game.run()
    sts = game.published()
    made = cheat.made
    assert isinstance(made, Show)
    (complaint,) = [st for st in sts if isinstance(st, Complaint)]
    assert (complaint.seat, complaint.position) == (made.partner, made.positions[0])
    last_show = max(i for i, st in enumerate(sts) if isinstance(st, Show))
    assert game.index(complaint.encode()) == last_show + 1  # at once
    assert complaint.about == (HOST_PARTY if blamed == HOST else made.seat) and complaint.proof
    expect(game, "aborted", blamed, cheat.body)


def test_a_false_show_of_the_upcard_is_caught_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seat that drew the upcard last shows it with a wrong key. Everyone knows that card
    (its keys are public since window 0), yet the show must hold its true opening key: the
    partner opens the shown position with the shown key and complains at once (§11.6), and
    the shower is at fault at its show. Regression: the partner took the upcard's key from
    window 0 and never looked at the shown one, so the false show was found only after the
    last trick."""

    def holds_upcard(p: CheatingParty, st: Show) -> bool:
        return p.hand.upcard_position in st.positions

    def edit(p: CheatingParty, st: Show) -> Show:
        at = st.positions.index(p.hand.upcard_position)
        values = list(st.values)
        values[at] = bytes([values[at][0] ^ 1]) + values[at][1:]
        return dataclasses.replace(st, values=tuple(values))

    cheat = install(monkeypatch, Cheat(None, Show.KIND, edit, holds_upcard))
    game = make_game(FOUR, "show-upcard")
    game.run()
    sts = game.published()
    made = cheat.made
    assert isinstance(made, Show)
    (complaint,) = [st for st in sts if isinstance(st, Complaint)]
    assert (complaint.seat, complaint.position) == (made.partner, 3 * 4)
    last_show = max(i for i, st in enumerate(sts) if isinstance(st, Show))
    assert game.index(complaint.encode()) == last_show + 1  # at once
    expect(game, "aborted", f"seat {made.seat}", cheat.body)


# --- 6. withheld statements: abort at the deadline, blame by receipts ----------------------------


WITHHELD = {
    ShufflePass.KIND: m.ShuffleDeck,
    LockPass.KIND: m.LockDeck,
    Shares.KIND: m.SendShares,
    Show.KIND: m.ShowHand,
    KeyReveal.KIND: m.RevealKeys,
}


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        (ShufflePass.KIND, TWO),
        (LockPass.KIND, TWO),
        (Shares.KIND, TWO),
        (Show.KIND, FOUR),
    ],
)
def test_a_withheld_statement_aborts_at_the_deadline_naming_host_or_seat(
    kind: str, options: TableOptions
) -> None:
    """Seat 1 never sends what it owes: at the deadline the host aborts naming it, and no file
    can tell whether the seat did not send or the host dropped it: "host or seat 1" (§11.9
    rule 5) in every file, and in what seat 1's client says. Fails with ``also_host`` dropped
    from ``_owed_fault`` (the seat alone is blamed)."""
    cls = WITHHELD[kind]

    def client_tap(conn: int, msg: Message) -> Message | None:
        return None if conn == 1 and isinstance(msg, cls) else msg

    game = make_game(options, f"withheld-{kind}", client_tap=client_tap)
    game.run()
    sts = game.published()
    assert isinstance(sts[-1], Abort) and sts[-1].seat == 1
    assert not any(isinstance(st, BlindEnd) for st in sts)
    expect(game, "aborted", "host or seat 1", game.host.records[-1][0])
    own = game.clients[1].state.checks[-1].own_verdict
    assert own is not None and "cannot be told apart" in str(own)


@pytest.mark.parametrize("options", [TWO, FOUR], ids=["2p", "4p"])
def test_a_withheld_key_reveal_after_the_last_trick_leaves_the_result_standing(
    options: TableOptions,
) -> None:
    """The sore loser: seat 1 withholds its key reveal once the last card is played and the
    result is known. The blind-end came already, on the proved plays alone: at the deadline the
    host names the reveal overdue and the match goes on to its end. Every file keeps the
    result and names "host or seat 1" (withheld), never a void hand (§11.8)."""

    def client_tap(conn: int, msg: Message) -> Message | None:
        return None if conn == 1 and isinstance(msg, m.RevealKeys) else msg

    game = make_game(options, f"sore-loser-{options.players}", client_tap=client_tap)
    game.run()
    sts = game.published()
    ends = [i for i, st in enumerate(sts) if isinstance(st, BlindEnd)]
    overdue = [st for st in sts if isinstance(st, Overdue)]
    assert ends and overdue and all(o.parties == (1,) for o in overdue)
    assert not any(isinstance(st, Abort) for st in sts)
    for name, recs in game.files().items():
        rep = verify_records(recs)
        assert rep.verdict == "withheld" and rep.match_ended, (name, rep.verdict)
        assert rep.blame is not None and rep.blame.party == "host or seat 1", name
        assert all(h.points is not None for h in rep.hands), name  # every result stands
    for c in game.clients:
        assert c.state.match_over and not c.state.match_aborted


def test_a_withheld_key_reveal_in_a_dispute_names_the_first_missing_party(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a complaint every party owes its key reveal; seat 1 withholds it: the reveals that
    came before it in party order are published, then the abort: "host or seat 1" (§11.9 rule
    3), even though the complaint (seat 0's) was false."""
    cheat = install(monkeypatch, Cheat(0, Complaint.KIND, false_complaint(0), when_dealt))

    def client_tap(conn: int, msg: Message) -> Message | None:
        return None if conn == 1 and isinstance(msg, m.RevealKeys) else msg

    game = make_game(TWO, "withheld-dispute", client_tap=client_tap)
    game.run()
    sts = game.published()
    assert cheat.made is not None and cheat.made in sts
    assert [st.seat for st in sts if isinstance(st, KeyReveal)] == [0]
    expect(game, "aborted", "host or seat 1", game.host.records[-1][0])


# --- a host that receipts a statement, then drops it ---------------------------------------------


class DroppingDeal(deal_blind.BlindDeal):
    """The host code, but it receipts seat ``VICTIM``'s statement of ``KIND`` and then drops it;
    a dropped play is followed at once by an abort naming the seat."""

    VICTIM = 1
    KIND = ""

    def _drops(self, st: Statement) -> bool:
        return st.KIND == self.KIND and st.seat == self.VICTIM  # type: ignore[attr-defined]

    def _on_pass(self, st: ShufflePass | LockPass, rec: Record, out: list[Outgoing]) -> None:
        if self._drops(st):
            self.table.receipt(st.seat, self.number, rec, out)
            return
        super()._on_pass(st, rec, out)

    def _on_gathered(self, st: Statement, rec: Record, out: list[Outgoing]) -> None:
        if self._drops(st):
            self.table.receipt(st.seat, self.number, rec, out)  # type: ignore[attr-defined]
            return
        super()._on_gathered(st, rec, out)

    def _on_play(self, st: BlindPlay, rec: Record, out: list[Outgoing]) -> None:
        if self._drops(st):
            self.table.receipt(st.seat, self.number, rec, out)
            self.table.abort(st.seat, "did not play in time", out)
            return
        super()._on_play(st, rec, out)


@pytest.mark.parametrize(
    ("kind", "options"),
    [
        (ShufflePass.KIND, TWO),
        (LockPass.KIND, TWO),
        (Shares.KIND, TWO),
        (Show.KIND, FOUR),
        (BlindPlay.KIND, TWO),
    ],
)
def test_a_statement_the_host_receipted_and_dropped_is_the_hosts_fault_in_the_victims_file(
    monkeypatch: pytest.MonkeyPatch, kind: str, options: TableOptions
) -> None:
    """The host received seat 1's statement (its signed receipt says so), dropped it and
    aborted naming seat 1: seat 1's own file holds the receipt and names the host (§11.9 rule
    5); every other file can only say "host or seat 1". Fails with the receipt lookup of
    ``_owed_fault`` disabled."""
    monkeypatch.setattr(DroppingDeal, "KIND", kind)
    monkeypatch.setattr(lifecycle, "BlindDeal", DroppingDeal)
    game = make_game(options, f"dropped-{kind}")
    game.run()
    sts = game.published()
    assert isinstance(sts[-1], Abort) and sts[-1].seat == 1
    receipts = [decode(b) for b, _ in game.clients[1].records if isinstance(decode(b), Receipt)]
    assert any(kind == decode(r.statement).KIND for r in receipts if isinstance(r, Receipt))
    abort = game.host.records[-1][0]
    files = dict.fromkeys(game.files(), "host or seat 1")
    files["seat1"] = HOST
    expect(game, "aborted", "", abort, files=files)
    own = game.clients[1].state.checks[-1]
    assert own.own_verdict is not None and "host is at fault" in str(own.own_verdict), own


def test_a_key_reveal_the_host_receipted_and_named_overdue_is_the_hosts_fault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After the result the host receipts seat 1's key reveal, drops it and names it overdue:
    seat 1's own file holds the receipt and names the host; every other file, where the result
    stands, can only say "host or seat 1" (withheld)."""
    monkeypatch.setattr(DroppingDeal, "KIND", KeyReveal.KIND)
    monkeypatch.setattr(lifecycle, "BlindDeal", DroppingDeal)
    game = make_game(TWO, "dropped-key-reveal")
    game.run()
    overdue = [st for st in game.published() if isinstance(st, Overdue)]
    assert overdue and overdue[0].parties == (1,)
    for name, recs in game.files().items():
        rep = verify_records(recs)
        blame = rep.blame
        assert blame is not None, name
        if name == "seat1":
            assert (rep.verdict, blame.party, blame.kind) == ("failed", "host", "receipt")
        else:
            assert (rep.verdict, blame.party) == ("withheld", "host or seat 1"), name


def test_the_victim_of_a_dropped_statement_is_told_when_the_host_received_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(DroppingDeal, "KIND", Shares.KIND)
    monkeypatch.setattr(lifecycle, "BlindDeal", DroppingDeal)
    game = make_game(TWO, "dropped-told")
    game.run()
    own = game.clients[1].state.checks[-1].own_verdict
    assert own is not None and own.word is OwnWord.RECEIPT and "received at" in str(own), own


# --- 7. a false complaint ---------------------------------------------------------------------


def when_dealt(p: CheatingParty, _st: Any) -> bool:
    """Once the initial deal's keys are in."""
    h = p.hand
    return bool(h.windows) and h.windows[0].shares_done and not h.disputed


def false_complaint(
    seat: int, pick: Callable[[CheatingParty], int] | None = None
) -> Callable[[CheatingParty, Any], Complaint]:
    def edit(p: CheatingParty, _st: Any) -> Complaint:
        h = p.hand
        pos = pick(p) if pick is not None else h.held_positions(seat)[0]
        assert p.card_at(pos) is not None  # it opens: the complaint is a lie
        return Complaint(
            h.game_id, h.hand, p.party, p.context(Complaint.KIND), pos, p.party, bytes(32), ()
        )

    return edit


def _shown_to(p: CheatingParty) -> int:
    """A position of its partner's hand, shown to this party."""
    h = p.hand
    return next(
        pos
        for w in h.windows
        for _, s in w.shows.values()
        if h.owner(s.partner) == p.party
        for pos in s.positions
    )


def when_shown(p: CheatingParty, _st: Any) -> bool:
    h = p.hand
    return any(h.owner(s.partner) == p.party for w in h.windows for _, s in w.shows.values())


@pytest.mark.parametrize(
    ("options", "complainer", "when", "pick"),
    [
        pytest.param(TWO, 1, when_dealt, None, id="2p-own-card"),
        pytest.param(FOUR, 2, when_dealt, None, id="4p-own-card"),
        pytest.param(FOUR, 3, when_shown, _shown_to, id="4p-partners-shown-card"),
    ],
)
def test_a_false_complaint_is_blamed_on_the_complainer(
    monkeypatch: pytest.MonkeyPatch,
    options: TableOptions,
    complainer: int,
    when: Callable[[CheatingParty, Any], bool],
    pick: Callable[[CheatingParty], int] | None,
) -> None:
    """An honest deal, and a party that says a card of its own (or one its partner showed it)
    does not open: every party reveals, everything it sent checks, so the complaint was false
    and the complainer is at fault at its complaint (§11.9 rule 2). Fails with
    ``BlindHand.dispute_verdict`` blaming the host."""
    cheat = install(
        monkeypatch, Cheat(complainer, Complaint.KIND, false_complaint(complainer, pick), when)
    )
    game = make_game(options, f"false-complaint-{complainer}")
    game.run()
    sts = game.published()
    assert [st.seat for st in sts if isinstance(st, KeyReveal)] == list(range(options.players))
    assert isinstance(sts[-1], Abort) and sts[-1].seat == complainer
    expect(game, "aborted", f"seat {complainer}", cheat.body)


def when_exchange(p: CheatingParty, _st: Any) -> bool:
    """When the shows of the partner exchange are due (the others are making theirs)."""
    w = p.hand.window
    return w is not None and w.shows_due and w.shares_done and not p.hand.disputed


def test_a_complaint_while_the_shows_come_in_leaves_no_stale_show(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seat 3 complains (falsely) while seats 0 to 2 send their shows, which the host holds
    until all four are in; the complaint voids them. Seat 0's key reveal comes last: the host
    must wait for it, not take seat 0's held show for it. Regression: the host published
    the stale show among the key reveals and blamed itself (``BlindDeal`` kept its pending
    statements across the complaint)."""
    cheat = install(monkeypatch, Cheat(3, Complaint.KIND, false_complaint(3), when_exchange))
    box: dict[str, Any] = {}

    def client_tap(conn: int, msg: Message) -> Message | None:
        if isinstance(msg, m.RevealKeys) and conn == 0:
            box["held"] = msg  # seat 0's reveal is slow: it arrives after seat 3's
            return None
        if isinstance(msg, m.RevealKeys) and conn == 3:
            box["send"](3, [msg])
            box["send"](0, [box.pop("held")])
            return None
        return msg

    game = make_game(FOUR, "complaint-mid-exchange", client_tap=client_tap)
    box["send"] = lambda conn, msgs: Wire.send_to_host(game.wire, conn, msgs)  # untapped
    game.run()
    sts = game.published()
    assert sum(isinstance(st, Show) for st in sts) == 0  # the shows never came out
    assert [st.seat for st in sts if isinstance(st, KeyReveal)] == [0, 1, 2, 3]
    expect(game, "aborted", "seat 3", cheat.body)


# --- 8. a host that relays a tampered record ----------------------------------------------------


def _flip(b: bytes, i: int) -> bytes:
    return b[:i] + bytes([b[i] ^ 1]) + b[i + 1 :]


def relay_to(
    seat: int, cls: type[Message], edit: Callable[[Game, Any], Message]
) -> tuple[dict[str, Any], HostTap]:
    """A host tap that edits the first ``cls`` message sent to ``seat``."""
    box: dict[str, Any] = {}

    def tap(conn: int, msg: Message) -> Message | None:
        if conn != seat or not isinstance(msg, cls) or "sent" in box:
            return msg
        box["sent"] = edited = edit(box["game"], msg)
        return edited

    return box, tap


def _relayed_body(msg: Message) -> bytes:
    """The record a relay message carries that the victim sees first as wrong."""
    if isinstance(msg, m.SharesSent | m.KeysRevealed | m.HandsShown):
        return msg.records[0][0]
    return msg.body  # type: ignore[attr-defined,no-any-return]


@pytest.mark.parametrize(
    "how",
    ["bad-signature", "changed-point", "signed-by-host", "reordered-shares", "blind-end-points"],
)
def test_a_record_the_host_tampered_with_on_the_way_is_the_hosts_fault(how: str) -> None:
    """The host relays to seat 0 a party's pass with a broken signature, with a changed point
    (the party's signature no longer covers it), re-signed with the host's own key, a window's
    shares out of party order, or a blind-end with other points re-signed by itself: seat 0
    fails the record at once, naming the host (§8.7: signatures it should have checked, order).
    Fails with the signature check of blind records (``_check_signature``) or the party-order
    check of ``BlindHand.on_shares`` disabled."""

    def edit(game: Game, msg: Any) -> Message:
        if how == "bad-signature":
            return m.DeckShuffled(msg.body, _flip(msg.sig, 3))
        if how == "changed-point":
            st = decode(msg.body)
            return m.DeckShuffled(with_point(st, 0, FRESH).encode(), msg.sig)
        if how == "signed-by-host":
            body = with_point(decode(msg.body), 0, FRESH).encode()
            return m.DeckShuffled(body, game.host.identity.sign(body))
        if how == "reordered-shares":
            return m.SharesSent(tuple(reversed(msg.records)))
        st = decode(msg.body)
        assert isinstance(st, BlindEnd)
        body = dataclasses.replace(st, points=tuple(reversed(st.points))).encode()
        return m.HandEnded(body, game.host.identity.sign(body))

    cls = {
        "reordered-shares": m.SharesSent,
        "blind-end-points": m.HandEnded,
    }.get(how, m.DeckShuffled)
    box, tap = relay_to(0, cls, edit)
    game = make_game(TWO, f"relay-{how}", tap=tap)
    box["game"] = game
    if how == "reordered-shares":
        game.start()  # seat 0 stops at once; the hand then waits for its play
    else:
        game.run()
    body = _relayed_body(box["sent"])
    expect(game, "failed", HOST, body, files={"seat0": HOST})
    # the host's own file and seat 1's hold the true records: seat 0 stopped answering once it
    # saw the host cheat, which they cannot tell from a seat that stops ("host or seat 0")
    for name in (HOST, "seat1"):
        rep = verify_records(game.files()[name])
        assert rep.verdict in ("incomplete", "aborted", "withheld", "unacknowledged"), name
        if rep.verdict in ("aborted", "withheld"):
            assert rep.blame is not None and rep.blame.party == "host or seat 0"


def test_a_window_relayed_without_a_partys_shares_is_the_hosts_fault() -> None:
    """At 3 players the host leaves seat 1's shares out of the window it relays to seat 0:
    seat 2's shares come where seat 1's are due, the host's fault at once (§11.5)."""

    def edit(game: Game, msg: Any) -> Message:
        return m.SharesSent((msg.records[0], msg.records[2]))

    box, tap = relay_to(0, m.SharesSent, edit)
    game = make_game(THREE, "relay-missing-shares", tap=tap)
    box["game"] = game
    game.start()
    body = box["sent"].records[1][0]
    assert decode(body).seat == 2  # type: ignore[attr-defined]
    expect(game, "failed", HOST, body, files={"seat0": HOST})


class LaxDeal(deal_blind.BlindDeal):
    """The host code, but it publishes a play without checking its proof."""

    def _on_play(self, st: BlindPlay, rec: Record, out: list[Outgoing]) -> None:
        bh = self.bh
        assert bh is not None
        if bh.play_problem(st) is None:
            super()._on_play(st, rec, out)
            return
        self.table.append(rec, True)
        self.table.broadcast(out, m.CardPlayed(rec[0], rec[1], st.position, b""))
        self.table.receipt(st.seat, self.number, rec, out)


def test_a_play_the_host_should_have_refused_is_the_hosts_fault(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A seat plays a card with a key that does not open it and the host publishes it: every
    file fails at that play, naming the host (§11.7: the host MUST check the proof)."""
    monkeypatch.setattr(lifecycle, "BlindDeal", LaxDeal)
    game = make_game(TWO, "lax-host")
    game.start()
    seat = game.host.deal.to_play  # type: ignore[union-attr]
    assert seat is not None
    c = game.clients[seat]
    view = c.state.view
    assert view is not None and view.my_turn
    (msg,) = c.play(view.legal_plays[0])
    st = decode(msg.body)  # type: ignore[attr-defined]
    assert isinstance(st, BlindPlay)
    bad = dataclasses.replace(st, key=scalar_bytes(int.from_bytes(st.key, "little") * 2 % L))
    game.wire.send_to_host(seat, [resigned(c, msg, bad)])
    game.wire.pump()
    expect(game, "failed", HOST, bad.encode())


@pytest.mark.parametrize("what", ["shares", "show"])
def test_a_key_the_host_forged_on_the_way_is_refused_before_it_is_used(what: str) -> None:
    """The host relays to seat 0 (the receiver) a party's shares, or its partner's show, with a
    sealed key changed (the party's signature no longer covers it). Seat 0 must find the bad
    signature before it opens its cards with that key: its file fails at that record, naming
    the host, and it never signs a complaint about a card that opens (§8.10: only the
    signatures of play, deal, upcard, exchange, receipt and blind-play records may wait).
    Regression: the live checker queued the signatures of shares and shows, the client opened
    its cards with the forged key and complained."""
    index = 1 if what == "shares" else 2  # seat 1's shares; seat 2's show, to its partner 0

    def edit(game: Game, msg: Any) -> Message:
        recs = list(msg.records)
        body, sig = recs[index]
        st = decode(body)
        assert isinstance(st, Shares | Show) and st.seat == index
        k = next(k for k, p in enumerate(st.positions) if p != 3 * len(game.clients))  # not the
        values = list(st.values)  # upcard, whose key everyone has from window 0
        values[k] = bytes([values[k][0] ^ 1]) + values[k][1:]
        recs[index] = (dataclasses.replace(st, values=tuple(values)).encode(), sig)
        box["body"] = recs[index][0]
        return type(msg)(tuple(recs))  # type: ignore[call-arg]

    cls = m.SharesSent if what == "shares" else m.HandsShown
    box, tap = relay_to(0, cls, edit)
    game = make_game(TWO if what == "shares" else FOUR, f"forged-{what}", tap=tap)
    box["game"] = game
    game.run_until_stuck()
    assert not any(isinstance(st, Complaint) for st in game.published())
    expect(game, "failed", HOST, box["body"], files={"seat0": HOST})
    for name, recs in game.files().items():  # nobody else blames seat 0 ("host or seat 0",
        blame = verify_records(recs).blame  # once it stops answering, is no blame)
        assert name == "seat0" or blame is None or blame.party != "seat 0", name
