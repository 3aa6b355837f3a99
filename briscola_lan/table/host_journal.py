"""The host's journal, its pure half: what a table's snapshot gained since the journal last
wrote it, and the snapshot's map made again from what the journal holds.

Theory of operation. A table's snapshot (``table.host_snapshot``, protocol/SPEC.md §10) is a few
KB of state that each change replaces (``dump_rest``) and three lists that only grow while a
match is played: the transcript's records, the messages the seats' logs name (each encoded once)
and each seat's log of them. Written whole at every change, a match writes the square of its
length; the journal (``net/journal.py``) appends what is new of the lists and, of the rest, the
values that changed (``rest_changes``: a card changes the hand's plays and the clock, not the
deck, the seeds or the seats), which is linear and small. ``JournalCursor`` remembers what has
been written: ``changes(table)`` is what is new since, ``advance(changes)`` once the journal
holds it (a write the disk refused is not advanced: the next change writes it too). When every
step since the last write moved only the few values a classic card moves (the table keeps its
``rest_mark`` then), the rest is not looked over: those values (``hot_rest``) are compared with
what the journal holds and the ones that differ written, the same changes the whole comparison
would find (``CHECK_HOT``, on in the tests, makes both and compares them). The seats' new
messages come from what the table says it appended since (``TableCore.appended``: each message
once, with the seats it went to), checked against the logs' lengths; only when a log is another
list, or grew otherwise, are the logs looked over (``CHECK_HOT`` compares the two too). A seat
whose log is no longer the list written (the draw moves the players to their seats; a seat freed
and taken again) starts a new *epoch*: its log is written again, whole, under the next number.
``rebuild`` makes the snapshot's map from the journal's parts, and ``HostTable.restore_map``
reads it as it reads a snapshot file, with every check that makes (the records against their
hash chain, the plays through the rules).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple

from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host_snapshot import dump_rest, hot_rest, wrap
from briscola_lan.table.snapshot import SnapshotError
from briscola_lan.wire.codec import encode_message, pack_state
from briscola_lan.wire.messages import Message, Record

if TYPE_CHECKING:
    from briscola_lan.table.host import HostTable


class SeatLog(NamedTuple):
    """What the journal holds of one seat's log: its epoch and how many messages."""

    epoch: int
    length: int


class LogRows(NamedTuple):
    """Messages appended to a seat's log: ``start`` is the first one's place in the epoch."""

    seat: int
    epoch: int
    start: int
    messages: tuple[int, ...]  # places in the message table


RestChange = tuple[tuple[str, ...], object]  # a path of map keys from the rest's root, a value

# Look the whole rest over after a change written from ``hot_rest`` alone too, and raise if the
# two differ (a step that keeps ``rest_mark`` moved something else): for the tests.
CHECK_HOT = False


def rest_changes(old: dict[str, object], new: dict[str, object]) -> list[RestChange] | None:
    """What makes ``old`` (a rest the journal holds) into ``new``: each value that differs, at
    the deepest map whose keys are the same in both (a list or a value is replaced whole);
    None when the maps' own keys differ (``new`` is written whole)."""
    if old.keys() != new.keys():
        return None
    out: list[RestChange] = []
    _diff(old, new, (), out)
    return out


def _diff(
    old: dict[str, object], new: dict[str, object], path: tuple[str, ...], out: list[RestChange]
) -> None:
    for key, value in new.items():
        was = old[key]
        if was == value and type(was) is type(value):
            continue
        if type(was) is dict and type(value) is dict and was.keys() == value.keys():
            _diff(was, value, (*path, key), out)
        else:
            out.append(((*path, key), value))


def apply_rest_changes(rest: dict[str, object], changes: object) -> None:
    """Make ``changes`` (``rest_changes``, as read back from a journal) to ``rest`` in place;
    ``ValueError`` names what does not fit it."""
    if not isinstance(changes, list):
        raise ValueError("the table's state changes are not a list")
    for change in changes:
        if not (isinstance(change, list) and len(change) == 2 and isinstance(change[0], list)):
            raise ValueError("a change of the table's state is not [path, value]")
        path, value = change
        if not path or not all(isinstance(k, str) for k in path):
            raise ValueError("a change of the table's state has no path of keys")
        node: object = rest
        for key in path[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if not isinstance(node, dict) or path[-1] not in node:
            raise ValueError(f"a change of the table's state names {'.'.join(path)}, not there")
        node[path[-1]] = value


@dataclass(slots=True)
class Changes:
    """What a table's snapshot gained since the journal's last write, and its new rest."""

    records_start: int
    records: list[Record]
    messages_start: int
    messages: list[bytes]  # encoded, each once: the message table from ``messages_start`` on
    logs: list[LogRows]
    heads: list[SeatLog]  # every seat's log once these changes are written
    # Packed: the rest whole (a map: the snapshot without its growing lists), or what changed
    # in it since the journal's last rest (a list of ``rest_changes``); empty when nothing did.
    rest: bytes
    rest_changed: bool
    _rest: dict[str, object] = field(default_factory=dict)  # the new rest, unpacked
    _hot: list[RestChange] | None = None  # or, when written from ``hot_rest``: its changes
    _mark: object = None  # the table's ``rest_mark`` when these changes were taken
    _lists: list[list[Message]] | None = None  # each seat's log (None: the same lists)
    _placed: dict[int, tuple[Message, int]] = field(default_factory=dict)
    _table: HostTable | None = None  # the table these changes were taken from
    _taken: int = 0  # how many of its ``appended`` they hold

    @property
    def empty(self) -> bool:
        """Nothing to write: no record, message or log entry, and the same rest."""
        return not (self.records or self.messages or self.logs or self.rest_changed)

    def encoded(self) -> dict[int, bytes]:
        """The messages these changes encoded, by the ``id`` of each message object."""
        start, bodies = self.messages_start, self.messages
        return {key: bodies[at - start] for key, (_msg, at) in self._placed.items()}


class JournalCursor:
    """How much of one table's snapshot the journal holds."""

    def __init__(self, seats: int) -> None:
        self.records = 0
        self.messages = 0
        self.heads = [SeatLog(-1, 0)] * seats
        self.rest: dict[str, object] | None = None  # the rest the journal holds (None: unknown)
        self.mark: object = None  # the table's ``rest_mark`` when the rest was last written
        self._lists: list[list[Message] | None] = [None] * seats
        # id of a message object -> (the object, kept alive so its id is not reused; its place)
        self._placed: dict[int, tuple[Message, int]] = {}
        # A ``hot_rest`` path -> the map of ``rest`` that holds its value (found once; forgotten
        # when the rest is written otherwise than from ``hot_rest``).
        self._nodes: dict[tuple[str, ...], dict[str, object]] = {}

    def changes(
        self, t: HostTable, encoded: dict[int, tuple[object, bytes]] | None = None
    ) -> Changes:
        """What ``t`` gained since the last ``advance`` (O(what is new), plus the rest);
        ``encoded``: messages whose ``encode_message`` bytes are known, by ``id``."""
        if len(t.seats) != len(self.heads):
            raise ValueError("the journal's cursor belongs to a table with another seat count")
        first = self.messages
        followed = self._appended(t, first, encoded)
        if followed is not None:
            logs, heads, bodies, placed = followed
            lists: list[list[Message]] | None = None
            if CHECK_HOT:
                self._check_appended(t, followed, encoded)
        else:
            logs, heads, bodies, placed, lists = self._scanned(t, first, encoded)
        mark = t.rest_mark
        hot = self._hot_changes(t) if mark is self.mark else None
        if hot is not None:
            state: dict[str, object] = {}
            changed, rest = bool(hot), pack_state(hot) if hot else b""
        else:
            state = dump_rest(t)
            diff = None if self.rest is None else rest_changes(self.rest, state)
            if diff is None:
                rest, changed = pack_state(state), True
            else:
                changed = bool(diff)
                rest = pack_state(diff) if changed else b""
        appended = t.appended
        return Changes(
            records_start=self.records,
            records=t.records[self.records :],
            messages_start=first,
            messages=bodies,
            logs=logs,
            heads=heads,
            rest=rest,
            rest_changed=changed,
            _rest=state,
            _hot=hot,
            _mark=mark,
            _lists=lists,
            _placed=placed,
            _table=t,
            _taken=0 if appended is None else len(appended),
        )

    def _appended(
        self, t: HostTable, first: int, encoded: dict[int, tuple[object, bytes]] | None
    ) -> tuple[list[LogRows], list[SeatLog], list[bytes], dict[int, tuple[Message, int]]] | None:
        """The seats' new messages from what the table says it appended (``appended``), when
        that is all that changed in their logs (the same lists, each longer by what it says);
        None otherwise: the logs are looked over (``_scanned``)."""
        appended = t.appended
        if appended is None:
            return None
        known = self._placed
        placed: dict[int, tuple[Message, int]] = {}
        bodies: list[bytes] = []
        heads = self.heads
        new: list[list[int]] = [[] for _ in heads]  # each seat's new messages' places
        for msg, seats in appended:
            key = id(msg)
            hit = known.get(key) or placed.get(key)
            if hit is not None and hit[0] is msg:
                at = hit[1]
            else:
                at = first + len(bodies)
                placed[key] = (msg, at)
                pre = encoded.get(key) if encoded else None
                bodies.append(pre[1] if pre is not None and pre[0] is msg else encode_message(msg))
            if len(seats) == 1:
                new[seats[0]].append(at)
            else:
                for i in seats:
                    new[i].append(at)
        lists = self._lists
        for i, seat in enumerate(t.seats):  # the same lists, each longer by what it says
            log = seat.log
            if log is not lists[i] or len(log) != heads[i].length + len(new[i]):
                return None  # another list, or appended to otherwise: look it over
        logs: list[LogRows] = []
        if appended:
            heads = list(heads)
            for i, places in enumerate(new):
                if places:
                    epoch, start = heads[i]
                    logs.append(LogRows(i, epoch, start, tuple(places)))
                    heads[i] = SeatLog(epoch, start + len(places))
        return logs, heads, bodies, placed

    def _scanned(
        self, t: HostTable, first: int, encoded: dict[int, tuple[object, bytes]] | None
    ) -> tuple[
        list[LogRows],
        list[SeatLog],
        list[bytes],
        dict[int, tuple[Message, int]],
        list[list[Message]],
    ]:
        """The seats' new messages, each seat's log looked over from where the journal is."""
        known = self._placed
        placed: dict[int, tuple[Message, int]] = {}
        bodies: list[bytes] = []
        logs: list[LogRows] = []
        heads: list[SeatLog] = []
        lists: list[list[Message]] = []
        for i, seat in enumerate(t.seats):
            log, head = seat.log, self.heads[i]
            if log is self._lists[i] and len(log) >= head.length:
                epoch, start = head.epoch, head.length
            else:  # another list (or a shorter one): the seat's log is written again, whole
                epoch, start = head.epoch + 1, 0
            if epoch != head.epoch or len(log) > start:
                places: list[int] = []
                for msg in log[start:]:
                    hit = known.get(id(msg)) or placed.get(id(msg))
                    if hit is not None and hit[0] is msg:
                        places.append(hit[1])
                        continue
                    at = first + len(bodies)
                    placed[id(msg)] = (msg, at)
                    pre = encoded.get(id(msg)) if encoded else None
                    known_body = pre is not None and pre[0] is msg
                    bodies.append(pre[1] if known_body else encode_message(msg))  # type: ignore[index]
                    places.append(at)
                logs.append(LogRows(i, epoch, start, tuple(places)))
            heads.append(SeatLog(epoch, len(log)))
            lists.append(log)
        return logs, heads, bodies, placed, lists

    def _check_appended(
        self,
        t: HostTable,
        followed: tuple[list[LogRows], list[SeatLog], list[bytes], dict[int, tuple[Message, int]]],
        encoded: dict[int, tuple[object, bytes]] | None,
    ) -> None:
        """For the tests (``CHECK_HOT``): the logs' changes from what the table appended are
        the ones looking the logs over finds (the same messages at the same places of each)."""
        logs, heads, bodies, placed = followed
        s_logs, s_heads, s_bodies, s_placed, _ = self._scanned(t, self.messages, encoded)

        def named(
            rows: list[LogRows], table: dict[int, tuple[Message, int]]
        ) -> list[tuple[int, int, int, list[object]]]:
            by_place = {at: msg for msg, at in table.values()}
            by_place.update({at: msg for msg, at in self._placed.values()})
            return [(r.seat, r.epoch, r.start, [id(by_place[a]) for a in r.messages]) for r in rows]

        if heads != s_heads or named(logs, placed) != named(s_logs, s_placed):
            raise AssertionError("what the table appended is not what its seats' logs gained")
        if sorted(bodies) != sorted(s_bodies):
            raise AssertionError("the messages the table appended are not the logs' new ones")

    def _hot_changes(self, t: HostTable) -> list[RestChange] | None:
        """The values of ``hot_rest`` that differ from the rest the journal holds (None when
        the rest the journal holds has no place for one of them: look it all over)."""
        held = self.rest
        if held is None:
            return None
        nodes = self._nodes
        out: list[RestChange] = []
        for path, value in hot_rest(t):
            node = nodes.get(path)
            if node is None:
                found: object = held
                for key in path[:-1]:
                    found = found.get(key) if type(found) is dict else None
                if type(found) is not dict or path[-1] not in found:
                    return None
                node = nodes[path] = found
            was = node[path[-1]]
            if not (was == value and type(was) is type(value)):
                out.append((path, value))
        if CHECK_HOT:
            import copy

            patched = copy.deepcopy(held)
            apply_rest_changes(patched, [[list(p), v] for p, v in out])
            whole = rest_changes(patched, dump_rest(t))
            if whole is None or whole:
                raise AssertionError(f"a step that kept rest_mark moved {whole}")
        return out

    def advance(self, ch: Changes) -> None:
        """The journal holds ``ch`` now."""
        self.records = ch.records_start + len(ch.records)
        self.messages = ch.messages_start + len(ch.messages)
        self.heads = ch.heads
        if ch._hot is None:
            self.rest = ch._rest
            self._nodes.clear()
        else:
            nodes = self._nodes
            for path, value in ch._hot:  # every path's map was found by ``_hot_changes``
                nodes[path][path[-1]] = value
        self.mark = ch._mark
        if ch._lists is not None:
            self._lists = list(ch._lists)
        if ch._placed:
            self._placed.update(ch._placed)
        t = ch._table
        if t is not None:  # the table says what it appends from now on (``_appended``)
            if t.appended is None:
                t.appended = []
            else:
                del t.appended[: ch._taken]

    @classmethod
    def restored(
        cls,
        t: HostTable,
        records: int,
        messages: int,
        heads: list[SeatLog],
        logs: list[list[int]],
    ) -> JournalCursor:
        """The cursor of a table just restored from a journal holding ``records`` records,
        ``messages`` messages and each seat's log (``heads``, with the messages' places)."""
        cursor = cls(len(t.seats))
        cursor.records, cursor.messages, cursor.heads = records, messages, list(heads)
        for i, (seat, places) in enumerate(zip(t.seats, logs, strict=True)):
            cursor._lists[i] = seat.log
            for msg, at in zip(seat.log, places, strict=True):
                cursor._placed[id(msg)] = (msg, at)
        return cursor  # its rest is unknown: the first change writes it whole


def rebuild(
    rest: dict[str, object], records: list[Record], messages: list[bytes], logs: list[list[int]]
) -> dict[str, object]:
    """The snapshot's map from a journal's parts (read by ``HostTable.restore_map``); ``rest``
    is left as it is (the journal goes on from it)."""
    state = dict(rest)
    seats = state.get("seats")
    if not isinstance(seats, list) or len(seats) != len(logs):
        raise SnapshotError("damaged table journal: its seats do not match their logs")
    copies: list[object] = []
    for i, (seat, log) in enumerate(zip(seats, logs, strict=True)):
        if not isinstance(seat, dict):
            raise SnapshotError(f"damaged table journal: seat {i} is not a map")
        copies.append({**seat, "log": log})
    state["seats"] = copies
    state["records"] = [list(r) for r in records]
    state["messages"] = list(messages)
    return wrap(state)


@dataclass(frozen=True, slots=True)
class Summary:
    """What the lobby says of a journaled table, read from its rest alone."""

    name: str
    options: TableOptions
    phase: str
    deal: str
    seats: tuple[str, ...]  # the players' names ("" for an empty seat)
    ai: tuple[bool, ...]  # which seats an AI plays
    hands: tuple[tuple[int, ...], ...]  # the points of each hand played to its end

    @property
    def started(self) -> bool:
        """A match was started (a table still in its lobby is not worth continuing)."""
        return self.phase != "lobby"

    @property
    def over(self) -> bool:
        return self.phase == "over"


def summary(state: dict[str, object]) -> Summary:
    """The lobby's view of a journaled table from its rest; ``SnapshotError`` when the rest
    cannot tell it."""
    try:
        options = TableOptions.from_dict(dict(state["options"]))  # type: ignore[call-overload]
        seats = [s for s in state["seats"] if isinstance(s, dict)]  # type: ignore[attr-defined]
        match = state.get("match")
        results = match.get("results", []) if isinstance(match, dict) else []
        return Summary(
            name=str(state["name"]),
            options=options,
            phase=str(state["phase"]),
            deal=str(state["deal_mode"]),
            seats=tuple(str(s.get("name", "")) if s.get("occupied") else "" for s in seats),
            ai=tuple(s.get("ai") is not None for s in seats),
            hands=tuple(tuple(int(p) for p in r[1]) for r in results),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise SnapshotError(f"damaged table journal: {exc}") from exc


__all__ = [
    "Changes",
    "JournalCursor",
    "LogRows",
    "RestChange",
    "SeatLog",
    "Summary",
    "apply_rest_changes",
    "rebuild",
    "rest_changes",
    "summary",
]
