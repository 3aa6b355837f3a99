"""protocol/messages.cddl against the code: a rule per message type, its fields, the vectors valid.

The small CDDL (RFC 8610) reader here handles the subset the protocol's schemas use: rules
``name = type``, choices ``/``, maps ``{...}``, arrays ``[...]``, groups with ``?``, ``*`` and
``n*m`` occurrences, text and integer literals, ranges ``a..b``, and the ``.size`` and ``.default``
controls. tests/fairness/test_statement_schema.py reads protocol/statements.cddl with it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import itertools
import json
import re
import types
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import pytest

from briscola_lan.fairness.statements import Evidence, Play, SeedReveal, Takeover, decode_as
from briscola_lan.rules import TableOptions
from briscola_lan.table.selfplay import play_out, seat_clients
from briscola_lan.wire.codec import FrameDecoder
from briscola_lan.wire.messages import (
    MESSAGE_TYPES,
    TYPE_NAMES,
    CardPlayed,
    EvidenceShown,
    MatchStarted,
    PlayerConnection,
    ReplayDone,
    RevealSeed,
    SeatInfo,
    SeatsChanged,
    SeatTakenOver,
)
from tests.table.helpers import hand_of

PROTOCOL = Path(__file__).resolve().parents[2] / "protocol"

# --- the CDDL subset -----------------------------------------------------------------------------

PRIMS = frozenset({"int", "uint", "bool", "tstr", "bstr", "nil", "any"})


@dataclass(frozen=True)
class Prim:
    name: str


@dataclass(frozen=True)
class Lit:
    value: Any


@dataclass(frozen=True)
class Range:
    low: int
    high: int


@dataclass(frozen=True)
class Ref:
    name: str


@dataclass(frozen=True)
class Choice:
    options: tuple[Any, ...]


@dataclass(frozen=True)
class Ctl:
    base: Any
    op: str
    arg: Any


@dataclass(frozen=True)
class Entry:
    low: int
    high: int | None  # None: no upper bound
    key: Any  # the member key (a str), None in an array without names
    type: Any


@dataclass(frozen=True)
class MapT:
    entries: tuple[Entry, ...]


@dataclass(frozen=True)
class ArrayT:
    entries: tuple[Entry, ...]


class CddlError(ValueError):
    """Text outside the CDDL subset this reader knows."""


_TOKEN = re.compile(
    r"""\s*(?:
      (?P<str>"[^"]*")
    | (?P<range>\.\.\.?)
    | (?P<ctl>\.[a-z]+)
    | (?P<num>-?\d+)
    | (?P<id>[A-Za-z@_$][A-Za-z0-9@_$.-]*[A-Za-z0-9@_$]|[A-Za-z@_$])
    | (?P<punct>[{}\[\]()=,:/?*+])
    )""",
    re.VERBOSE,
)


def _tokens(text: str) -> list[tuple[str, str]]:
    text = re.sub(r";[^\n]*", "", text)
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if match is None or match.lastgroup is None:
            raise CddlError(f"cannot read {text[pos : pos + 30]!r}")
        out.append((match.lastgroup, match.group(match.lastgroup)))
        pos = match.end()
    return out


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self, ahead: int = 0) -> tuple[str, str]:
        j = self.i + ahead
        return self.toks[j] if j < len(self.toks) else ("end", "")

    def take(self, want: str | None = None) -> tuple[str, str]:
        tok = self.peek()
        if want is not None and tok[1] != want:
            raise CddlError(f"expected {want!r}, got {tok[1]!r}")
        self.i += 1
        return tok

    def rules(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        while self.peek()[0] != "end":
            kind, name = self.take()
            if kind != "id":
                raise CddlError(f"a rule name, not {name!r}")
            self.take("=")
            if name in out:
                raise CddlError(f"rule {name} defined twice")
            out[name] = self.type()
        return out

    def type(self) -> Any:
        options = [self.type1()]
        while self.peek()[1] == "/":
            self.take()
            options.append(self.type1())
        return options[0] if len(options) == 1 else Choice(tuple(options))

    def type1(self) -> Any:
        base = self.type2()
        kind, value = self.peek()
        if kind == "range":
            self.take()
            high = self.type2()
            if not (isinstance(base, Lit) and isinstance(high, Lit)):
                raise CddlError("ranges are between integer literals")
            end = int(high.value) - (1 if value == "..." else 0)
            return Range(int(base.value), end)
        if kind == "ctl":
            self.take()
            return Ctl(base, value[1:], self.type2())
        return base

    def type2(self) -> Any:
        kind, value = self.take()
        if kind == "str":
            return Lit(value[1:-1])
        if kind == "num":
            return Lit(int(value))
        if kind == "id":
            if value in ("true", "false"):
                return Lit(value == "true")
            return Prim(value) if value in PRIMS else Ref(value)
        if value == "(":
            inner = self.type()
            self.take(")")
            return inner
        if value == "{":
            return MapT(self.group("}"))
        if value == "[":
            return ArrayT(self.group("]"))
        raise CddlError(f"unexpected {value!r}")

    def group(self, close: str) -> tuple[Entry, ...]:
        entries: list[Entry] = []
        while self.peek()[1] != close:
            low, high = self.occurrence()
            key = None
            if self.peek()[0] in ("id", "str") and self.peek(1)[1] == ":":
                key = self.take()[1].strip('"')
                self.take(":")
            entries.append(Entry(low, high, key, self.type()))
            if self.peek()[1] == ",":
                self.take()
        self.take(close)
        return tuple(entries)

    def occurrence(self) -> tuple[int, int | None]:
        kind, value = self.peek()
        if value == "?":
            self.take()
            return 0, 1
        if value == "+":
            self.take()
            return 1, None
        if value == "*":
            self.take()
            if self.peek()[0] == "num":
                return 0, int(self.take()[1])
            return 0, None
        if kind == "num" and self.peek(1)[1] == "*":
            low = int(self.take()[1])
            self.take("*")
            if self.peek()[0] == "num" and self.peek(1)[1] not in ("..", "..."):
                return low, int(self.take()[1])
            return low, None
        return 1, 1


def parse_cddl(text: str) -> dict[str, Any]:
    """The rules of a CDDL text, by name (every reference must resolve)."""
    rules = _Parser(_tokens(text)).rules()

    def check(t: Any) -> None:
        if isinstance(t, Ref) and t.name not in rules:
            raise CddlError(f"undefined rule {t.name}")
        for child in _children(t):
            check(child)

    for t in rules.values():
        check(t)
    return rules


def _children(t: Any) -> list[Any]:
    if isinstance(t, Choice):
        return list(t.options)
    if isinstance(t, Ctl):
        return [t.base, t.arg]
    if isinstance(t, MapT | ArrayT):
        return [e.type for e in t.entries]
    return []


def resolve(t: Any, rules: dict[str, Any]) -> Any:
    """Follow rule names to the type they stand for."""
    while isinstance(t, Ref):
        t = rules[t.name]
    return t


def _size(value: Any) -> int | None:
    if isinstance(value, bytes):
        return len(value)
    if isinstance(value, str):
        return len(value.encode("utf-8"))
    return None


def matches(t: Any, value: Any, rules: dict[str, Any]) -> bool:
    """Whether ``value`` (as msgpack decodes it) matches type ``t``; a map's keys in rule order."""
    t = resolve(t, rules)
    if isinstance(t, Prim):
        is_int = isinstance(value, int) and not isinstance(value, bool)
        return {
            "int": is_int,
            "uint": is_int and value >= 0,
            "bool": isinstance(value, bool),
            "tstr": isinstance(value, str),
            "bstr": isinstance(value, bytes),
            "nil": value is None,
            "any": True,
        }[t.name]
    if isinstance(t, Lit):
        return type(value) is type(t.value) and value == t.value
    if isinstance(t, Range):
        return isinstance(value, int) and not isinstance(value, bool) and t.low <= value <= t.high
    if isinstance(t, Choice):
        return any(matches(o, value, rules) for o in t.options)
    if isinstance(t, Ctl):
        if not matches(t.base, value, rules):
            return False
        if t.op == "default":
            return True
        if t.op == "size":
            arg = resolve(t.arg, rules)
            size = _size(value)
            return size is not None and matches(arg, size, rules)
        raise CddlError(f"control .{t.op} is not in the subset")
    if isinstance(t, MapT):
        if not isinstance(value, dict):
            return False
        keys = [e.key for e in t.entries]
        if any(k is None for k in keys) or set(value) - set(keys):
            return False
        if list(value) != [k for k in keys if k in value]:
            return False  # not in the order of the rule
        return all(
            (e.key in value and matches(e.type, value[e.key], rules))
            or (e.key not in value and e.low == 0)
            for e in t.entries
        )
    if isinstance(t, ArrayT):
        return isinstance(value, list) and _match_array(t.entries, value, rules)
    raise CddlError(f"cannot match {t!r}")


def _match_array(entries: tuple[Entry, ...], items: list[Any], rules: dict[str, Any]) -> bool:
    pos = 0
    for e in entries:
        count = 0
        while (e.high is None or count < e.high) and pos < len(items):
            if not matches(e.type, items[pos], rules):
                break
            pos += 1
            count += 1
        if count < e.low:
            return False
    return pos == len(items)


# --- comparing a rule with a Python type ---------------------------------------------------------

Shape = frozenset[Any]


def shape_of_cddl(t: Any, rules: dict[str, Any]) -> Shape:
    """What kind of value a CDDL type holds, coarsely: int, bool, str, bytes, nil, lists, maps."""
    t = resolve(t, rules)
    if isinstance(t, Prim):
        return frozenset({{"uint": "int", "tstr": "str", "bstr": "bytes"}.get(t.name, t.name)})
    if isinstance(t, Lit):
        return frozenset({type(t.value).__name__})
    if isinstance(t, Range):
        return frozenset({"int"})
    if isinstance(t, Choice):
        return frozenset().union(*(shape_of_cddl(o, rules) for o in t.options))
    if isinstance(t, Ctl):
        return shape_of_cddl(t.base, rules)
    if isinstance(t, ArrayT):
        if len(t.entries) == 1 and t.entries[0].high != 1:
            return frozenset({("list", shape_of_cddl(t.entries[0].type, rules))})
        return frozenset({("tuple", tuple(shape_of_cddl(e.type, rules) for e in t.entries))})
    if isinstance(t, MapT):
        members = tuple((e.key, shape_of_cddl(e.type, rules)) for e in t.entries)
        return frozenset({("map", members)})
    raise CddlError(f"no shape for {t!r}")


def shape_of_python(tp: Any) -> Shape:
    """The same coarse shape for a field's annotation in the message dataclasses."""
    simple = {int: "int", bool: "bool", str: "str", bytes: "bytes", type(None): "nil"}
    if tp in simple:
        return frozenset({simple[tp]})
    if tp is TableOptions:
        five = TableOptions.make(
            players=5, match_format="total", points_to_win=71, double_all=False, match_hands=3
        )
        sample = {**TableOptions.make(players=4, signals=True).to_dict(), **five.to_dict()}
        # every key written (the options of four players' and of five's)
        members = tuple((k, shape_of_python(type(v))) for k, v in sample.items())
        return frozenset({("map", members)})
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = typing.get_type_hints(tp)
        fields = dataclasses.fields(tp)
        return frozenset({("map", tuple((f.name, shape_of_python(hints[f.name])) for f in fields))})
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (types.UnionType, typing.Union):
        return frozenset().union(*(shape_of_python(a) for a in args))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return frozenset({("list", shape_of_python(args[0]))})
    if origin is tuple:
        return frozenset({("tuple", tuple(shape_of_python(a) for a in args))})
    raise TypeError(f"no shape for {tp!r}")


# --- the tests -----------------------------------------------------------------------------------

RULES = parse_cddl((PROTOCOL / "messages.cddl").read_text())


def _message_rules() -> dict[str, MapT]:
    """Wire name -> rule, for every map rule with a literal "type" key."""
    out: dict[str, MapT] = {}
    for t in RULES.values():
        if isinstance(t, MapT) and t.entries and t.entries[0].key == "type":
            tag = t.entries[0].type
            assert isinstance(tag, Lit) and isinstance(tag.value, str)
            assert tag.value not in out, f"two rules for {tag.value}"
            out[tag.value] = t
    return out


MESSAGE_RULES = _message_rules()


def _choices(name: str) -> set[str]:
    """Rule names reachable through choices from ``name`` (the `message` tree)."""
    t = RULES[name]
    options = t.options if isinstance(t, Choice) else (t,)
    out: set[str] = set()
    for o in options:
        assert isinstance(o, Ref), f"{name}: a choice of rule names"
        if isinstance(RULES[o.name], Choice):
            out |= _choices(o.name)
        else:
            out.add(o.name)
    return out


@pytest.mark.parametrize("name", list(MESSAGE_TYPES))
def test_every_message_type_has_a_rule_with_its_fields(name: str) -> None:
    assert name in MESSAGE_RULES, f"messages.cddl has no rule for {name!r}"
    rule = MESSAGE_RULES[name]
    cls = MESSAGE_TYPES[name]
    fields = dataclasses.fields(cls)
    hints = typing.get_type_hints(cls)
    entries = rule.entries[1:]
    assert rule.entries[0].low == 1, "the type key is required"
    assert [e.key for e in entries] == [f.name for f in fields], f"{name}: fields or their order"
    for e, f in zip(entries, fields, strict=True):
        has_default = not (
            f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        )
        assert (e.low, e.high) == ((0, 1) if has_default else (1, 1)), f"{name}.{f.name}: `?`"
        if has_default:  # `? key: T .default D`, D the field's default
            assert isinstance(e.type, Ctl) and e.type.op == "default", f"{name}.{f.name}"
            assert isinstance(e.type.arg, Lit) or e.type.arg == Prim("nil")
            default = None if e.type.arg == Prim("nil") else e.type.arg.value
            assert default == f.default, f"{name}.{f.name}: default"
        want, got = shape_of_python(hints[f.name]), shape_of_cddl(e.type, RULES)
        assert got == want, f"{name}.{f.name}: the rule says {got}, the code {want}"


def test_every_rule_is_a_message_type_and_in_the_message_choice() -> None:
    assert set(MESSAGE_RULES) == set(MESSAGE_TYPES), "rules without a message type in the code"
    assert _choices("message") == set(MESSAGE_RULES)


def test_nested_maps_match_the_code() -> None:
    assert shape_of_cddl(Ref("seat_info"), RULES) == shape_of_python(SeatInfo)
    assert shape_of_cddl(Ref("table_options"), RULES) == shape_of_python(TableOptions)


def test_table_options_defaults_are_the_decoders() -> None:
    rule = resolve(Ref("table_options"), RULES)
    assert isinstance(rule, MapT)
    full = TableOptions.make(
        players=4, hands_to_win=3, partner_exchange=False, signals=True
    ).to_dict()
    required = {e.key: full[e.key] for e in rule.entries if e.low == 1}
    decoded = TableOptions.from_dict(required)  # the optional keys left out
    for e in rule.entries:
        if e.low == 0:
            assert (
                isinstance(e.type, Ctl) and e.type.op == "default" and isinstance(e.type.arg, Lit)
            )
            assert getattr(decoded, e.key) == e.type.arg.value, e.key
        else:  # a required key really is required
            with pytest.raises(ValueError):
                TableOptions.from_dict({k: v for k, v in required.items() if k != e.key})


def _codec_vectors() -> list[dict[str, Any]]:
    return list(json.loads((PROTOCOL / "vectors" / "codec.json").read_text())["vectors"])


@pytest.mark.parametrize("vec", _codec_vectors(), ids=lambda v: str(v["name"]))
def test_codec_vectors_match_their_rule_in_key_order(vec: dict[str, Any]) -> None:
    obj = msgpack.unpackb(bytes.fromhex(vec["frame_hex"])[4:], raw=False)
    assert next(iter(obj)) == "type"
    assert matches(MESSAGE_RULES[obj["type"]], obj, RULES), vec
    assert matches(Ref("message"), obj, RULES)


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "take_seat"},  # missing key
        {"seat": 1, "type": "take_seat"},  # not in rule order
        {"type": "take_seat", "seat": 2**31},  # over the integer limit
        {"type": "take_seat", "seat": 1, "extra": 1},  # unknown key
        {"type": "challenge", "nonce": bytes(31), "host_key": bytes(32)},  # short nonce
        {"type": "challenge", "nonce": "x" * 32, "host_key": bytes(32)},  # str, not bin
        {"type": "set_ai_seat", "seat": 1, "level": "hard"},  # not an AI level
        {"type": "hand_acked", "records": [[b"body", bytes(63)]]},  # short signature
        {"type": "hand_acked", "records": [[b"body", bytes(64)]] * 65},  # too many items
    ],
)
def test_the_reader_refuses_what_the_rules_refuse(obj: dict[str, Any]) -> None:
    assert not matches(Ref("message"), obj, RULES)


def test_the_reader_takes_omitted_defaults() -> None:
    hello = {"type": "hello", "version": 2, "name": "a", "public_key": bytes(32)}
    assert matches(Ref("message"), hello, RULES)
    assert matches(Ref("message"), {"type": "set_ready"}, RULES)


def test_sequence_diagrams_use_wire_names() -> None:
    """protocol/sequences.md: each arrow is labelled with a message type, and each type is named."""
    text = (PROTOCOL / "sequences.md").read_text()
    diagrams = re.findall(r"```\n(.*?)```", text, re.DOTALL)
    labels = set(re.findall(r"(?:<[-=]{2,}|[-=]{3,}) ([a-z_]+)\b", "".join(diagrams)))
    assert labels, "no diagrams"
    assert labels <= set(MESSAGE_TYPES), labels - set(MESSAGE_TYPES)
    named = set(re.findall(r"`([a-z_]+)`", text)) | labels
    assert set(MESSAGE_TYPES) <= named, set(MESSAGE_TYPES) - named


# --- the sequences of protocol/sequences.md, as the reference host and client produce them ------
# Each diagram as a regular expression over the message names one connection receives (each name
# followed by a space). A hand (section 2; the exchange, section 3, inside the plays):

_PLAY = r"card_played (trick_taken (cards_dealt (partner_shown )?)?)?(receipt_issued )?"
_HAND = (
    r"hand_started (receipt_issued )?seeds_committed (receipt_issued )?seeds_revealed "
    rf"deck_committed cards_dealt upcard_turned ({_PLAY})*"
    r"card_played trick_taken hand_ended (match_decided )?(receipt_issued ){0,2}hand_acked "
)
_JOIN = r"challenge welcome (seat_assigned |seats_changed )+"  # section 1: no replay_done
_DRAW = (  # section 1a
    r"draw_started (receipt_issued )?seeds_committed (receipt_issued )?seeds_revealed "
    r"draw_revealed seat_assigned (seats_changed )?"
)


def _names(msgs: list[Any]) -> str:
    return "".join(f"{TYPE_NAMES[type(msg)]} " for msg in msgs)


def _first_legal(view: Any) -> Any:
    return view.legal_plays[0]


def _entropy(label: str) -> Callable[[int], bytes]:
    """Fixed entropy: the same match every run."""
    count = itertools.count(1)

    def entropy(n: int) -> bytes:
        block = hashlib.sha256(f"{label}/{next(count)}".encode()).digest()
        return (block * (n // 32 + 1))[:n]

    return entropy


@pytest.mark.parametrize(
    ("players", "draw"), [(2, False), (3, False), (4, False), (4, True)], ids=str
)
def test_a_match_follows_the_sequences(players: int, draw: bool) -> None:
    opts = TableOptions.make(
        players=players, match_format="points" if players == 3 else "hands", hands_to_win=2
    )
    _host, clients, wire = seat_clients(
        opts,
        entropy=_entropy(f"seq{players}{draw}"),
        draw_partners=draw,
        draw_dealer=draw,
        deal="classic",
    )
    wire.send_to_host(0, clients[0].start())
    play_out(wire, [_first_legal] * players)
    exchange = opts.exchange_enabled
    for conn in range(players):
        got = _names(wire.received[conn])
        start = _DRAW + "match_started " if draw else "match_started "
        assert re.fullmatch(f"{_JOIN}{start}({_HAND})+match_ended ", got), got
        hands = got.count("hand_started ")
        assert got.count("match_decided ") == 1 and hands >= 2
        assert got.count("partner_shown ") == (hands if exchange else 0)
        # a receipt for every statement the seat sent: commit, reveal and ack, and its plays
        seat = clients[conn].state.seat
        plays = [m for m in wire.received[conn] if isinstance(m, CardPlayed)]
        mine = sum(1 for m in plays if decode_as(m.body, Play).seat == seat)
        assert got.count("receipt_issued ") == (2 if draw else 0) + 3 * hands + mine


def test_resume_and_hand_back_follow_the_sequences() -> None:
    """Sections 4 and 5: takeover, the replay up to replay_done, player_connection, hand-back."""
    host, clients, wire = seat_clients(
        TableOptions.make(players=2), entropy=_entropy("resume"), deal="classic"
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    while hand_of(host) is None or len(hand_of(host).plays) < 2:  # two cards down
        turn = next(i for i, c in enumerate(clients) if c.state.view and c.state.view.my_turn)
        wire.send_to_host(turn, clients[turn].play(_first_legal(clients[turn].state.view)))
        wire.pump()
    seen = wire.received[1][:]
    wire.deliver(host.disconnect(1))
    clients[1].connection_lost()
    wire.deliver(host.tick(host.now + host.grace + 1))  # the AI takes seat 1
    wire.pump()
    assert "player_connection seat_taken_over " in _names(wire.received[0])  # then the AI plays
    wire.client_dec[1], wire.host_dec[1] = FrameDecoder(), FrameDecoder()
    wire.deliver(host.connect(1))
    wire.send_to_host(1, clients[1].hello())
    wire.pump()
    wire.deliver(host.tick(host.now + 0.1))  # during play: handed back at the next tick
    wire.pump()
    after = wire.received[1][len(seen) :]
    got = _names(after)
    assert re.match(r"challenge welcome match_started .*?replay_done player_connection ", got), got
    replay = after[2 : [type(m) for m in after].index(ReplayDone)]
    match_part = seen[[type(m) for m in seen].index(MatchStarted) :]
    live_only = (SeatsChanged, PlayerConnection)
    assert replay[: len(match_part)] == [m for m in match_part if not isinstance(m, live_only)]
    assert not any(isinstance(m, live_only) for m in replay)
    takeovers = [decode_as(m.body, Takeover) for m in after if isinstance(m, SeatTakenOver)]
    assert [t.ai for t in takeovers] == [1, 0]  # the replayed takeover, then the hand-back
    back = [type(m) for m in after].index(PlayerConnection)
    assert after[back] == PlayerConnection(1, True)
    assert [type(m) for m in after].index(SeatTakenOver, back) > back  # the hand-back comes after


def test_an_aborted_hand_follows_the_sequence() -> None:
    """Section 2a: a reveal that does not open its commitment: error, evidence, abort, and the
    hand dealt again; the seat named a second time is taken over before the next deal."""
    _host, clients, wire = seat_clients(
        TableOptions.make(players=2), entropy=_entropy("abort"), deal="classic"
    )
    honest = clients[1].receive

    def lying(msg: Any) -> list[Any]:  # seat 1 reveals another seed than it committed to
        out = honest(msg)
        for i, sent in enumerate(out):
            if isinstance(sent, RevealSeed):
                st = decode_as(sent.body, SeedReveal)
                bad = SeedReveal(st.game_id, st.hand, st.seat, st.context, bytes(32)).encode()
                out[i] = RevealSeed(bad, clients[1].identity.sign(bad))
        return out

    clients[1].receive = lying  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    for conn in (0, 1):
        got = _names(wire.received[conn])
        want = "seeds_committed " + ("receipt_issued " if conn == 0 else "error ")
        first = want + "evidence_shown hand_aborted hand_started "
        second = want + "evidence_shown hand_aborted seat_taken_over hand_started "  # benched
        assert got.count(first) == 1 and got.count(second) == 1, got
        assert got.index(first) < got.index(second) and "match_ended" not in got
    evidence = next(m for m in wire.received[0] if isinstance(m, EvidenceShown))
    assert decode_as(evidence.body, Evidence).seat == 1
