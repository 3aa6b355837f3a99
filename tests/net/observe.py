"""Run one ``briscola-lan`` command with a record of everything its process gets, holds and writes.

``python -m tests.net.observe LOG -- host ...`` (or ``-- bot ...``) runs the command as usual and
appends to ``LOG`` (a stream of msgpack lists), with ``e`` the number of messages the process's
table or session has been given so far (its own clock: a message is event ``e`` from the moment
it arrives until the next one):

- ``["raw", e, bytes]``: every frame read from a peer (decrypted), as the wire carried it, with
  the event of the message it holds (a heartbeat, which never reaches the table or session:
  the next message's);
- ``["msg", e, frame]``: every message given to the host's ``HostTable`` or the client's
  ``ClientSession``, encoded again (the same fields the wire carried);
- ``["held", e, bytes]`` / ``["int", e, bytes]`` / ``["str", e, text]``: every byte string, large
  integer (little-endian) and string found in the ``HostTable`` (its deal, hand, records, seat
  logs...) or the ``ClientSession`` after each message it handled (and after each tick that
  changed something), the first time it is there;
- ``["map", e, hand, [[k, v], ...]]``: every mapping of small integers to small integers (a
  dict, or a list by index) and to ``Card`` objects it holds, the first time, with the hand then
  under way (a mapping cannot tell a hand's cards before the hand's deck exists);
- ``["cards", e, hand, [code, ...]]``: the ``Card`` objects held together (in one list, tuple,
  dict or object), the first time that container holds them (so a finished hand's cards, kept
  for the match's record, are judged by the hand they were first held in);
- ``["write", e, path, bytes]``: every file written through ``net.files.write_private``, and
  every change the host wrote to a table's journal (``path`` ``journal/rest``: the packed
  state that the change replaced; ``journal/rows``: its new records and messages).

Nothing is changed in what the command does; only copies are taken. The record is what the
privacy tests (``tests/net/privacy.py``) search for keys that would open a card too early.
"""

from __future__ import annotations

import atexit
import enum
import sys
import types
from collections.abc import Callable
from typing import IO, Any

import msgpack

Setter = Callable[[Any, str, Any], None]
SMALL = 1 << 16  # mapping keys and values: positions, card codes, seats
BIG = 1 << 40  # integers worth a look as keys


class Recorder:
    def __init__(self, out: IO[bytes]) -> None:
        self.out = out
        self.event = 0
        self.held: set[bytes] = set()
        self.ints: set[int] = set()
        self.strs: set[str] = set()
        self.maps: set[tuple[tuple[int, int], ...]] = set()
        self.cards: set[tuple[int, tuple[int, ...]]] = set()  # (container id, codes)
        # Objects nothing can change that a walk went all through (by id, kept alive so that
        # the id is not reused): what they hold is recorded, a later walk passes them by.
        self.done: dict[int, Any] = {}
        self._frozen: dict[int, tuple[Any, bool]] = {}  # by id: (the object, whether frozen)

    def put(self, *item: Any) -> None:
        self.out.write(msgpack.packb(list(item), use_bin_type=True))

    def frames(self, frames: list[bytes], messages: list[Any]) -> None:
        from briscola_lan.wire.messages import Ping, Pong

        e = self.event
        for i, frame in enumerate(frames):
            beat = i < len(messages) and isinstance(messages[i], Ping | Pong)
            if not beat:
                e += 1
            self.put("raw", e if not beat else e + 1, frame)

    def message(self, msg: Any) -> None:
        from briscola_lan.wire.codec import encode_message

        self.event += 1
        self.put("msg", self.event, encode_message(msg))

    def write(self, path: Any, data: bytes) -> None:
        self.put("write", self.event, str(path), bytes(data))

    def walk(self, root: Any, hand: int) -> None:
        """Every byte string, large integer, small mapping and card reachable from ``root``."""
        from briscola_lan.rules.cards import Card

        e = self.event
        seen: set[int] = set()
        done = self.done
        walked: list[Any] = []  # the containers this walk went through
        stack = [root]
        while stack:
            o = stack.pop()
            t = type(o)
            if t is bytes or t is bytearray or t is memoryview:
                b = bytes(o)
                if b not in self.held:
                    self.held.add(b)
                    self.put("held", e, b)
                continue
            if t is int:
                if abs(o) >= BIG and o not in self.ints:
                    self.ints.add(o)
                    n = (o.bit_length() + 8) // 8
                    self.put("int", e, o.to_bytes(n, "little", signed=True))
                continue
            if t is str:
                if len(o) >= 16 and o not in self.strs:
                    self.strs.add(o)
                    self.put("str", e, o)
                continue
            if o is None or t in (bool, float) or isinstance(o, _SKIP):
                continue
            if id(o) in seen or id(o) in done:
                continue
            seen.add(id(o))
            if t is Card:
                continue
            walked.append(o)
            if isinstance(o, dict):
                self._mapping(list(o.items()), hand)
                children = [*o.keys(), *o.values()]
            elif isinstance(o, (list, tuple)):
                self._mapping(list(enumerate(o)), hand)
                children = list(o)
            elif isinstance(o, (set, frozenset)):
                children = list(o)
            else:
                children = _attributes(o)
            codes = tuple(sorted(c.code for c in children if type(c) is Card))
            if codes and (id(o), codes) not in self.cards:
                self.cards.add((id(o), codes))
                self.put("cards", e, hand, list(codes))
            stack.extend(children)
        for o in walked:
            if self.frozen(o):
                done[id(o)] = o

    def frozen(self, o: Any) -> bool:
        """Whether nothing ``walk`` records from ``o`` can ever change: ``o`` and everything it
        holds are values (bytes, numbers, strings, cards), tuples, frozen sets and frozen
        dataclasses of them."""
        from briscola_lan.rules.cards import Card

        t = type(o)
        if o is None or t in (bytes, int, str, bool, float, Card) or isinstance(o, _SKIP):
            return True
        if isinstance(o, (tuple, frozenset)):
            children = list(o)
        elif getattr(getattr(t, "__dataclass_params__", None), "frozen", False):
            children = _attributes(o)
        else:
            return False  # a list, a dict, a set, a mutable object: it may change
        hit = self._frozen.get(id(o))
        if hit is not None and hit[0] is o:
            return hit[1]
        self._frozen[id(o)] = (o, False)  # while its children are looked at
        answer = all(self.frozen(c) for c in children)
        self._frozen[id(o)] = (o, answer)
        return answer

    def _mapping(self, items: list[tuple[Any, Any]], hand: int) -> None:
        from briscola_lan.rules.cards import Card

        pairs = []
        for k, value in items:
            v = value.code if type(value) is Card else value
            if type(k) is not int or type(v) is not int or not (0 <= k < SMALL and 0 <= v < SMALL):
                return
            pairs.append((k, v))
        if not pairs:
            return
        key = tuple(sorted(pairs))
        if key not in self.maps:
            self.maps.add(key)
            self.put("map", self.event, hand, [list(p) for p in key])


_SKIP = (
    types.FunctionType,
    types.MethodType,
    types.BuiltinFunctionType,
    types.BuiltinMethodType,
    types.ModuleType,
    type,
    enum.Enum,
)


def _attributes(o: Any) -> list[Any]:
    out = []
    d = getattr(o, "__dict__", None)
    if isinstance(d, dict):
        out.extend(d.values())
    for cls in type(o).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if name in ("__dict__", "__weakref__"):
                continue
            try:
                out.append(getattr(o, name))
            except AttributeError:
                continue
    return out


def observe_decoder(target: Any, rec: Recorder, setattr: Setter = setattr) -> None:
    """Record the frames a ``FrameDecoder`` (the class: every one of them) is fed."""
    feed = target.feed

    def observed_feed(self: Any, data: bytes) -> list[Any]:
        buf = getattr(self, "_observed", b"") + bytes(data)  # after a frame not complete yet
        messages = feed(self, data) if isinstance(target, type) else feed(data)
        frames = []
        while len(buf) >= 4 and len(buf) >= 4 + int.from_bytes(buf[:4], "big"):
            end = 4 + int.from_bytes(buf[:4], "big")
            frames.append(buf[:end])
            buf = buf[end:]
        self._observed = buf
        rec.frames(frames, messages)
        return messages

    if isinstance(target, type):
        setattr(target, "feed", observed_feed)
    else:
        setattr(target, "feed", lambda data: observed_feed(target, data))


def observe(target: Any, rec: Recorder, setattr: Setter = setattr) -> None:
    """Record every message a ``HostTable`` or ``ClientSession`` (a class: all of them; or one
    object) is given, and what it holds after each one, after each ``settle`` (what a card
    left owed) and after each tick that sent something."""
    from briscola_lan.table.host import HostTable

    cls = target if isinstance(target, type) else type(target)
    table = issubclass(cls, HostTable)

    def hand(o: Any) -> int:
        return int(o.hand_number if table else o.state.hand_number)

    names = (
        [("receive", True), ("settle", False), ("tick", False), ("disconnect", False)]
        if table
        else [("receive", True)]
    )
    for name, arrives in names:
        inner = getattr(target, name)

        def method(*args: Any, _inner: Any = inner, _arrives: bool = arrives, **kw: Any) -> Any:
            me = args[0] if isinstance(target, type) else target
            if _arrives:
                rec.message(args[-1])
            result = _inner(*args, **kw)
            if _arrives or result:
                rec.walk(me, hand(me))
            return result

        setattr(target, name, method)


def install(rec: Recorder) -> None:
    """Record this whole process: every table, session, frame decoder and private file."""
    from briscola_lan.net import files
    from briscola_lan.table.client import ClientSession
    from briscola_lan.table.host import HostTable
    from briscola_lan.wire.codec import FrameDecoder

    observe_decoder(FrameDecoder, rec)
    write_private = files.write_private
    from briscola_lan.table.host_journal import JournalCursor

    changes = JournalCursor.changes

    def observed_changes(self: JournalCursor, table: Any, *more: Any) -> Any:
        ch = changes(self, table, *more)
        rec.write("journal/rest", ch.rest)
        rows = [[list(r) for r in ch.records], list(ch.messages)]
        rec.write("journal/rows", msgpack.packb(rows, use_bin_type=True))
        return ch

    JournalCursor.changes = observed_changes  # type: ignore[method-assign]

    def observed_write(path: Any, data: bytes, **kwargs: Any) -> None:
        rec.write(path, data)
        write_private(path, data, **kwargs)

    files.write_private = observed_write  # type: ignore[assignment]
    observe(HostTable, rec)
    observe(ClientSession, rec)


def main(argv: list[str]) -> int:
    log, sep, *command = argv
    if sep != "--":
        raise SystemExit("usage: python -m tests.net.observe LOG -- COMMAND ARGS...")
    out = open(log, "ab")  # noqa: SIM115 - closed at exit, after the command's last write
    rec = Recorder(out)

    def close() -> None:
        out.flush()
        out.close()

    atexit.register(close)
    install(rec)
    from briscola_lan.cli import main as cli_main

    return cli_main(command)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
