"""The host's console: one line per table event (a player joined, left, came back, an AI took a
seat, a hand or the match ended), found by comparing the table's state from one look to the next.

``look`` reads what a person at the host wants to know from a table (its public seats and
results, never a card); ``events`` says what changed between two looks. ``briscola-lan host``
prints them as they happen, unless ``--quiet``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from briscola_lan.fairness.verify import BENCHED_AFTER
from briscola_lan.net.hosted import TableWrapper
from briscola_lan.wire import messages as m

LOOK_EVERY = 0.25  # seconds: how late a change no message tells of can reach the console

# The statements of a hand, which the console sees at the next tick rather than at once.
HAND_MESSAGES = frozenset(
    {
        m.PlayCard,
        m.MakeBid,
        m.CallCard,
        m.SendSignal,
        m.CommitSeed,
        m.RevealSeed,
        m.AckHand,
        m.JoinHand,
        m.ShuffleDeck,
        m.LockDeck,
        m.SendShares,
        m.ShowHand,
        m.Complain,
        m.RevealKeys,
    }
)


@dataclass(frozen=True, slots=True)
class SeatLook:
    """One seat as the console sees it."""

    occupied: bool
    name: str
    ai: str | None
    connected: bool
    taken_over: bool


@dataclass(frozen=True, slots=True)
class TableLook:
    """What the console compares from one look to the next."""

    name: str
    game: bytes
    phase: str
    seats: tuple[SeatLook, ...]
    # (hand, points, winner side, at five players what the call made of it)
    results: tuple[tuple[int, tuple[int, ...], int | None, str], ...]
    winner: int | None
    named: tuple[int, ...] = ()  # per seat, the aborted hands that named it (each dealt again)


def look(table: Any) -> TableLook:
    """The console's view of a ``HostTable`` (or a wrapper of one)."""
    seats = tuple(
        SeatLook(
            bool(s.occupied),
            str(s.name),
            s.ai,
            s.ai is not None or s.conn is not None,
            bool(getattr(s, "taken_over", False)),
        )
        for s in table.seats
    )
    match = getattr(table, "match", None)
    results: tuple[tuple[int, tuple[int, ...], int | None, str], ...] = ()
    winner = None
    if match is not None:
        results = tuple(
            (r.number, tuple(r.points), r.winner, _call_text(r.call)) for r in match.results
        )
        winner = match.winner
    counts = getattr(table, "named", None) or {}
    named = tuple(int(counts.get(i, 0)) for i in range(len(seats)))
    return TableLook(
        str(table.name), bytes(table.game_id), str(table.phase), seats, results, winner, named
    )


def glance(table: Any) -> tuple[object, ...]:
    """What ``look`` reads that can change, in one cheap tuple (a tenth of a look's cost): the
    console looks again only when this differs, after every message the table handles."""
    match = getattr(table, "match", None)
    named = getattr(table, "named", None) or {}
    seats = tuple(
        (s.occupied, s.name, s.ai, s.conn is None, getattr(s, "taken_over", False))
        for s in table.seats
    )
    results = -1 if match is None else len(match.results)
    return (id(table), table.game_id, table.phase, results, seats, tuple(sorted(named.items())))


def _side(table: TableLook, players: int, side: int) -> str:
    if players == 4:
        names = [table.seats[s].name for s in range(4) if s % 2 == side]
        return f"side {'AB'[side]} ({' + '.join(names)})"
    return table.seats[side].name if side < len(table.seats) else f"seat {side}"


def events(before: TableLook | None, after: TableLook) -> list[str]:
    """One line per event between two looks at a table (the first look: against an empty
    table, so that the AI players seated from the start are told too)."""
    if before is None:
        empty = tuple(SeatLook(False, "", None, False, False) for _ in after.seats)
        before = TableLook(after.name, b"", "lobby", empty, (), None)
    out: list[str] = []
    where = f"table {after.name!r}:"
    if before.phase == "over" and after.phase == "lobby":  # a new match's table (host_cmd says so)
        before = TableLook(after.name, b"", "lobby", (), (), None)
    if after.game and after.game != before.game:
        out.append(f"{where} the match started: {', '.join(s.name for s in after.seats)}")
    players = len(after.seats)
    old_seats = before.seats or tuple(SeatLook(False, "", None, False, False) for _ in after.seats)
    for i, (was, now) in enumerate(zip(old_seats, after.seats, strict=False)):
        seat = f"seat {i}"
        if not was.occupied and now.occupied:
            if now.ai is not None:
                out.append(f"{where} an AI ({now.ai}) took {seat}: {now.name}")
            else:
                out.append(f"{where} {now.name} joined, {seat}")
        elif was.occupied and not now.occupied:
            out.append(f"{where} {was.name} left {seat}")
        elif now.occupied and now.ai is None:
            if was.connected and not now.connected:
                out.append(f"{where} {now.name} ({seat}) lost the connection")
            elif not was.connected and now.connected:
                out.append(f"{where} {now.name} ({seat}) reconnected")
            if not was.taken_over and now.taken_over:
                out.append(f"{where} an AI plays {seat} for {now.name} until they are back")
            elif was.taken_over and not now.taken_over:
                out.append(f"{where} {now.name} plays {seat} again")
    for i, count in enumerate(after.named):
        was_named = before.named[i] if i < len(before.named) else 0
        if count > was_named and after.game == before.game:
            name = after.seats[i].name
            line = f"{where} a hand was aborted naming {name} (seat {i}): it is dealt again"
            if count >= BENCHED_AFTER > was_named:
                line += f"; the host plays seat {i} to the end of the match"
            out.append(line)
    for number, points, winner, call in after.results[len(before.results) :]:
        if call:
            out.append(f"{where} hand {number + 1} over, points {list(points)}: {call}")
            continue
        who = "nobody (a tie)" if winner is None else _side(after, players, winner)
        out.append(f"{where} hand {number + 1} over, points {list(points)}: {who} wins it")
    if after.winner is not None and before.winner is None:
        out.append(f"{where} the match is over: {_side(after, players, after.winner)} won")
    elif before.phase != "over" and after.phase == "over" and after.winner is None:
        out.append(f"{where} the match was aborted")
    return out


def _call_text(call: Any) -> str:
    """Five players: who called what, with whom, and the scores ("" for another hand)."""
    if call is None:
        return ""
    partner = "alone" if call.alone else f"with seat {call.partner}"
    outcome = "won" if call.won else "lost"
    return (
        f"seat {call.caller} called {call.called.label(ascii_only=True)} ({partner}) and "
        f"{outcome} with {call.points} of {call.target}; scores {list(call.scores)}"
    )


class Console:
    """Looks at one served table and prints what happened (``print`` by default)."""

    def __init__(self, write: Any = None) -> None:
        self.write = write or (lambda line: print(line, flush=True))
        self.table: Any = None  # set by ``WatchedTable``
        self.last: TableLook | None = None
        self.glanced: tuple[object, ...] | None = None  # ``glance`` at the last look
        self.held: list[str] | None = []  # lines kept until ``start`` (the host's "ready")

    def start(self) -> None:
        """Print from now on, beginning with what happened before."""
        held, self.held = self.held or [], None
        for line in held:
            self.write(line)

    def watch(self, table: Any) -> WatchedTable:
        """``table`` wrapped so that this console sees its changes (a new match's table too)."""
        watched = WatchedTable(table, self)
        while isinstance(table, TableWrapper):  # look at the table itself, not through wrappers
            table = table.table
        self.table = table
        self.poll()
        return watched

    def poll(self) -> None:
        if self.table is None:
            return
        glanced = glance(self.table)
        if glanced == self.glanced:
            return  # nothing a look would see has changed
        self.glanced = glanced
        now = look(self.table)
        if now == self.last:
            return
        for line in events(self.last, now):
            if self.held is not None:
                self.held.append(line)
            else:
                self.write(line)
        self.last = now


class WatchedTable(TableWrapper):
    """A served table whose changes are shown to a ``Console``: ``connect``, ``disconnect``
    and the lobby's messages go to the table, then the console looks at once (a player who
    joins and leaves between two looks is still told). The statements of a hand (cards, seeds,
    the blind deal's passes, acknowledgements: many a second at a busy host) are seen at the
    next look of a ``tick``, which looks when it wrote to someone and at least every
    ``LOOK_EVERY`` seconds. Everything else goes to the table."""

    def __init__(self, table: Any, console: Console) -> None:
        super().__init__(table)
        self.console = console
        self.next_look = float("-inf")  # the latest a tick with nothing written looks

    def _after(self, out: Any) -> list[Any]:
        self.console.poll()
        return list(out)

    def receive(self, conn: int, message: Any, **settle: bool) -> list[Any]:
        out = self.table.receive(conn, message, **settle)
        if type(message) in HAND_MESSAGES:
            self.next_look = float("-inf")  # the next tick looks
            return list(out)
        return self._after(out)

    def settle(self) -> list[Any]:
        """What a hand's message left owed: seen at the next look, as the message itself."""
        return list(self.table.settle())

    def tick(self, now: float) -> list[Any]:
        out = list(self.table.tick(now))
        if out or not (self.next_look - LOOK_EVERY <= now < self.next_look):  # or clock went back
            self.next_look = now + LOOK_EVERY
            self.console.poll()
        return out
