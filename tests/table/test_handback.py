"""AI takeover and hand-back: a player who drops and comes back at any moment is never blamed.

A player drops, the host's AI takes the seat after the grace period, and the player comes back:
mid-play, during the acknowledgements, between two hands, during the seed commit or reveal. The
match must finish with every hand verified, no abort, nobody named at fault and no error sent to
the returning player (protocol/SPEC.md §6, "AI takeover and hand-back").
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Receipt, SeedCommit, SeedReveal, Takeover, decode
from briscola_lan.fairness.verify_cmd import human_report
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable, Outgoing, Phase
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import FrameDecoder, encode_frame
from tests.table.helpers import counter_entropy

from .helpers import aborts, classic, hand_of

GRACE, TIMEOUT = 30.0, 60.0
SEAT = 1  # the seat that drops and comes back


@dataclass
class Net:
    """A host and one client per seat over in-memory connections, one message at a time.

    Each connection is a pair of FIFO queues of frames through the codec; a reconnect is a new
    connection. ``step`` moves one message on a connection chosen by ``rng`` (the order within a
    connection is kept, as TCP keeps it). The host is ticked after every message it handles, as
    the network layer does.
    """

    host: HostTable
    clients: list[ClientSession]
    rng: random.Random
    conn_of: dict[int, int | None] = field(default_factory=dict)  # seat -> its connection
    queues: dict[tuple[str, int], deque[bytes]] = field(default_factory=dict)
    decoders: dict[tuple[str, int], FrameDecoder] = field(default_factory=dict)
    seen: dict[int, list[m.Message]] = field(default_factory=dict)  # what each seat received
    next_conn: int = 100

    def _seat_of(self, conn: int) -> int | None:
        return next((s for s, c in self.conn_of.items() if c == conn), None)

    def send(self, way: str, conn: int, msg: m.Message) -> None:
        key = (way, conn)
        self.queues.setdefault(key, deque()).append(encode_frame(msg))
        self.decoders.setdefault(key, FrameDecoder())

    def deliver(self, outs: list[Outgoing]) -> None:
        for o in outs:
            if self._seat_of(o.conn) is not None:
                self.send("c", o.conn, o.message)

    def to_host(self, seat: int, msgs: list[m.Message]) -> None:
        conn = self.conn_of[seat]
        assert conn is not None
        for msg in msgs:
            self.send("h", conn, msg)

    def connect(self, seat: int) -> None:
        conn = self.next_conn
        self.next_conn += 1
        self.conn_of[seat] = conn
        self.deliver(self.host.connect(conn))
        self.to_host(seat, self.clients[seat].hello())  # or, later, the answer to a challenge

    def drop(self, seat: int) -> None:
        conn = self.conn_of[seat]
        assert conn is not None
        self.conn_of[seat] = None
        for key in [k for k in self.queues if k[1] == conn]:
            del self.queues[key]  # what was in flight is lost with the connection
        self.deliver(self.host.disconnect(conn))
        self.clients[seat].connection_lost()

    def tick(self, now: float) -> None:
        self.deliver(self.host.tick(now))

    def busy(self) -> bool:
        return any(self.queues.values())

    def step(self) -> None:
        key = self.rng.choice(sorted(k for k, q in self.queues.items() if q))
        way, conn = key
        seat = self._seat_of(conn)
        assert seat is not None
        for msg in self.decoders[key].feed(self.queues[key].popleft()):
            if way == "c":
                self.seen.setdefault(seat, []).append(msg)
                self.to_host(seat, self.clients[seat].receive(msg))
            else:
                self.deliver(self.host.receive(conn, msg))
                self.tick(self.host.now)

    def play_one(self) -> bool:
        """A connected seat whose turn it is (by its own view) plays a card; False if none."""
        for seat, conn in self.conn_of.items():
            st = self.clients[seat].state
            v = st.view
            if conn is None or v is None or not v.my_turn or st.taken_over or st.match_over:
                continue
            self.to_host(seat, self.clients[seat].play(self.rng.choice(v.legal_plays)))
            return True
        return False

    def advance(self) -> None:
        """One move: a message, else a card played, else one second of the clock."""
        if self.busy():
            self.step()
        elif not self.play_one():
            self.tick(self.host.now + 1.0)

    def errors(self, seat: int) -> list[m.Error]:
        return [x for x in self.seen.get(seat, []) if isinstance(x, m.Error)]


def _table(players: int, seed: int, hands_to_win: int = 2, grace: float = GRACE) -> Net:
    """Every seat joined, seated and ready, and the match just started (its first hand's
    seeds to commit); the clock at 0."""
    opts = TableOptions.make(players=players, hands_to_win=hands_to_win)
    entropy = counter_entropy(f"handback/{players}/{seed}")
    host = HostTable(
        opts, name="t", identity=Identity.generate(entropy(32)), entropy=entropy,
        grace=grace, timeout=TIMEOUT, deal="classic",
)  # fmt: skip
    clients = [
        ClientSession(Identity.generate(entropy(32)), f"p{i}", entropy=entropy)
        for i in range(players)
    ]
    net = Net(host, clients, random.Random(seed))
    net.tick(0.0)
    for i, c in enumerate(clients):
        net.connect(i)
        while net.busy():
            net.step()
        net.to_host(i, c.take_seat(i) + c.ready())
        while net.busy():
            net.step()
    net.to_host(0, clients[0].start())
    while host.phase is Phase.LOBBY:
        net.step()
    return net


def _finish(net: Net) -> None:
    for _ in range(50_000):
        if net.host.phase is Phase.OVER and not net.busy():
            return
        net.advance()
    raise AssertionError(f"the match did not end (phase {net.host.phase})")


def _advance_until(net: Net, done: Callable[[], bool]) -> None:
    for _ in range(20_000):
        if done():
            return
        if net.host.phase is Phase.OVER:
            break
        net.advance()
    raise AssertionError(f"never reached (the host is in the {net.host.phase} phase)")


def _run(players: int, seed: int, drop_at: int, back_at: int) -> tuple[Net, Phase]:
    """Seat 1 drops after ``drop_at`` moves, the AI takes it after the grace period, and the
    player reconnects ``back_at`` moves later; the match is then played to its end. Returns the
    table and the host's phase at the moment the player came back."""
    net = _table(players, seed)
    for _ in range(drop_at):
        net.advance()
    net.drop(SEAT)
    net.tick(net.host.now + GRACE)  # the grace period is over
    for _ in range(back_at):
        net.advance()
    phase = net.host.phase
    if not net.host.seats[SEAT].taken_over:
        phase = Phase.LOBBY  # not a return from an AI takeover (the match is over, or a
        # commitment of the seat's own was still to be revealed by it)
    net.connect(SEAT)
    _finish(net)
    return net, phase


def _assert_nobody_blamed(net: Net) -> None:
    host = net.host
    assert host.phase is Phase.OVER and not host.internal_errors
    report = verify_records(host.records)
    assert report.ok, report.fault
    assert [h.status for h in report.hands] == ["verified"] * len(report.hands)
    for i, c in enumerate(net.clients):
        assert c.state.match_over and not c.state.match_aborted, i
        assert [ch.status for ch in c.state.checks] == ["verified"] * len(c.state.checks), i
        assert all(ch.acks_match for ch in c.state.checks), (
            i,
            [ch.summary for ch in c.state.checks],
        )
        assert verify_records(c.records).ok, i
    assert net.errors(SEAT) == []  # nothing refused: it never sent what was not its to send


def _moments_around_the_end_of_a_hand(players: int, seed: int) -> list[int]:
    """Every distinct moment (as a move count after the takeover) from the last card of the
    first hand to the first card of the second: each state of the acknowledgements, of the
    next hand's commit and reveal, and the deal. Moves that leave the host as it was (messages
    still on their way to the other players) are the same moment for the returning player."""
    net = _table(players, seed)
    net.drop(SEAT)
    net.tick(net.host.now + GRACE)
    moments: dict[tuple[object, ...], int] = {}
    for move in range(1, 20_000):
        net.advance()
        h = net.host
        if not moments and h.phase is not Phase.ACK:
            continue  # the first hand is still being played
        seeds = classic(h).seeds
        state = (h.phase, h.hand_number, len(h.records), *(x is None for x in seeds.commits),
                 *(x is None for x in seeds.reveals), *(x is None for x in h.acks))  # fmt: skip
        moments.setdefault(state, move)
        if h.hand_number == 1 and h.phase is Phase.PLAY and hand_of(h) and hand_of(h).plays:
            return sorted(moments.values())
    raise AssertionError("the second hand never started")


@pytest.mark.parametrize("players", [2, 4])
def test_coming_back_at_every_moment_around_the_end_of_a_hand(players: int) -> None:
    moments = _moments_around_the_end_of_a_hand(players, seed=3)
    phases = set()
    for back_at in [moments[0] - 1, *moments]:
        net, phase = _run(players, seed=3, drop_at=0, back_at=back_at)
        _assert_nobody_blamed(net)
        phases.add(phase)
    assert {Phase.ACK, Phase.COMMIT, Phase.REVEAL, Phase.PLAY} <= phases


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("seed", range(6))
def test_dropping_and_coming_back_at_random_moments(players: int, seed: int) -> None:
    rng = random.Random(f"{players}/{seed}")
    drop_at, back_at = rng.randrange(0, 150), rng.randrange(0, 40)
    net, _phase = _run(players, seed, drop_at, back_at)
    _assert_nobody_blamed(net)


def _state(net: Net) -> tuple[object, ...]:
    """What the host and the seat that drops hold now, and what is on its way to or from it."""
    h, conn = net.host, net.conn_of[SEAT]
    flight = tuple(len(q) for (_way, c), q in sorted(net.queues.items()) if c == conn)
    seeds = classic(h).seeds
    held = len(net.clients[SEAT].records)
    return (h.phase, h.hand_number, len(h.records), *(x is None for x in seeds.commits),
            *(x is None for x in seeds.reveals), held, flight)  # fmt: skip


@pytest.mark.parametrize("players", [2, 4])
def test_dropping_at_every_moment_of_the_commit_and_reveal(players: int) -> None:
    """The player drops at each moment of the first hand's commit and reveal (its own
    commitment not sent, on its way, in, revealed, ...) and comes back a little later."""
    phases: set[Phase] = set()
    seen: set[tuple[object, ...]] = set()
    for drop_at in range(200):
        net = _table(players, seed=11, hands_to_win=1)
        for _ in range(drop_at):
            net.advance()
        if net.host.phase is Phase.PLAY:
            break
        if _state(net) in seen:
            continue
        seen.add(_state(net))
        phases.add(net.host.phase)
        net.drop(SEAT)
        net.tick(net.host.now + GRACE)
        for _ in range(3):
            net.advance()
        net.connect(SEAT)
        _finish(net)
        _assert_nobody_blamed(net)
    assert {Phase.COMMIT, Phase.REVEAL} <= phases


def test_a_player_gone_before_revealing_its_own_seed_is_named_at_the_deadline() -> None:
    """Only the player can reveal a seed it committed to: the AI does not take such a seat
    (it could not reveal for it), the player has until the deadline to come back, and a hand
    whose seed is withheld is aborted with that seat named (fairness.md: withheld reveals)."""
    net = _table(4, seed=2, hands_to_win=1)
    host = net.host
    _advance_until(net, lambda: classic(host).seeds.commits[SEAT] is not None)
    net.drop(SEAT)
    net.tick(host.now + GRACE)
    for _ in range(300):
        if aborts(host.records):
            break
        net.advance()
    assert not any(t[1] == SEAT for t in verify_records(host.records).takeovers)
    report = verify_records(host.records)
    hand = report.hands[0]
    assert hand.status == "aborted" and hand.fault is not None and hand.fault.seat == SEAT
    assert "did not reveal" in hand.fault.reason and host.now >= TIMEOUT


def test_a_player_away_at_the_commit_deadline_is_played_by_the_ai_even_with_a_long_grace() -> None:
    """With a grace period longer than the commit deadline, a player who dropped before it could
    commit is not named for it: at the deadline the AI commits for the seat and plays it, and the
    others still get the whole time to reveal."""
    net = _table(2, seed=7, hands_to_win=1, grace=2 * TIMEOUT)
    net.drop(SEAT)  # before its hand_started arrived
    _finish(net)
    net.connect(SEAT)  # back after the match: it sees how it went
    _finish(net)
    _assert_nobody_blamed(net)
    takeovers = verify_records(net.host.records).takeovers
    assert takeovers[0][:3] == (0, SEAT, True) and net.host.now >= TIMEOUT


def test_the_seat_is_handed_back_before_the_next_hand_starts() -> None:
    """A player back during the acknowledgements gets its seat back (ai=0) before hand 2's
    hand_started, and commits to hand 2 itself: the host waits for nobody who could not know."""
    net = _table(2, seed=5)
    host = net.host
    net.drop(SEAT)
    net.tick(host.now + GRACE)
    _advance_until(net, lambda: host.phase is Phase.ACK)
    net.connect(SEAT)
    _advance_until(net, lambda: host.hand_number == 1 and host.phase is Phase.PLAY)
    got = net.seen[SEAT]
    handed_back = [
        i
        for i, x in enumerate(got)
        if isinstance(x, m.SeatTakenOver)
        and isinstance(t := decode(x.body), Takeover)
        and (t.seat, t.ai) == (SEAT, 0)
    ]
    started = [
        i for i, x in enumerate(got) if isinstance(x, m.HandStarted) and decode(x.body).hand == 1
    ]
    assert len(handed_back) == 1 and len(started) == 1 and handed_back[0] < started[0]
    assert SEAT not in classic(host).seeds.host_seat_seeds  # the player's own seed, not the AI's
    assert not net.clients[SEAT].state.taken_over
    _finish(net)
    _assert_nobody_blamed(net)
    report = verify_records(host.records)
    assert report.takeovers[-1] == (0, SEAT, False, 40)  # recorded at the end of hand 1
    text = human_report("game", report)
    assert "from play 1: an AI played for seat 1" in text
    assert "after play 40: the player took back seat 1" in text


def test_a_seat_that_revealed_and_dropped_is_taken_over_and_nobody_is_blamed() -> None:
    """A seat that revealed its seed (to the host) may be taken over in the reveal phase: its
    secret is out (SPEC.md §6a). The host publishes the reveals once all are in, so in every
    file the takeover comes before them; the verifier must not read it as a takeover over the
    seat's own unrevealed seed, which only a seat's own file can show (its receipts: fairness.md
    §8.3, takeover)."""
    net = _table(4, seed=2, hands_to_win=1)
    host = net.host
    _advance_until(
        net,
        lambda: (r := classic(host).seeds.reveals)[SEAT] is not None and any(x is None for x in r),
    )
    net.drop(SEAT)
    net.tick(host.now + GRACE)
    assert host.phase is Phase.REVEAL and host.seats[SEAT].taken_over
    kinds = [decode(body) for body, _sig in host.records]
    takeover = next(i for i, st in enumerate(kinds) if isinstance(st, Takeover))
    assert not any(isinstance(st, SeedReveal) for st in kinds[:takeover])
    assert any(isinstance(st, SeedCommit) for st in kinds[:takeover])
    net.connect(SEAT)
    _finish(net)
    _assert_nobody_blamed(net)  # every file verifies, the seat's own (with its receipts) too
    mine = [decode(body) for body, _sig in net.clients[SEAT].records]
    at = next(i for i, st in enumerate(mine) if isinstance(st, Takeover))
    receipts = [decode(st.statement) for st in mine[:at] if isinstance(st, Receipt)]
    assert any(isinstance(st, SeedReveal) for st in receipts)  # its reveal, receipted before


@pytest.mark.parametrize("players", [2, 4])
def test_a_returning_seat_is_offered_no_turn_until_the_hand_back_arrives(players: int) -> None:
    """Between the reconnect and the host's hand-back the AI still plays the seat: the replay
    may show the seat to play, but the session offers no turn (a card sent then would be
    refused with not_allowed)."""
    seen_turn_while_taken = 0
    for seed in range(8):
        net = _table(players, seed)
        for _ in range(40):
            net.advance()
        net.drop(SEAT)
        net.tick(net.host.now + GRACE)
        _advance_until(net, lambda n=net: n.host.seats[SEAT].taken_over)
        net.connect(SEAT)
        client = net.clients[SEAT]
        for _ in range(5_000):
            st = client.state
            if st.taken_over:
                assert not client.my_turn, "a turn offered while the host's AI plays the seat"
                seen_turn_while_taken += bool(st.view is not None and st.view.my_turn)
            if net.host.phase is Phase.OVER and not net.busy():
                break
            if net.busy():
                net.step()
            elif not net.play_one():
                net.tick(net.host.now + 1.0)
        _assert_nobody_blamed(net)
    assert seen_turn_while_taken, "no returning seat's view showed its turn: nothing was tested"
