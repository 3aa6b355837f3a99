"""protocol/messages.cddl against the code: a rule per message type, its fields, the vectors valid.

The small CDDL (RFC 8610) reader here handles the subset the protocol's schemas use: rules
``name = type``, choices ``/``, maps ``{...}``, arrays ``[...]``, groups with ``?``, ``*`` and
``n*m`` occurrences, text and integer literals, ranges ``a..b``, and the ``.size`` and ``.default``
controls. tests/fairness/test_statement_schema.py reads protocol/statements.cddl with it.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
import pytest

from briscola_lan.rules import TableOptions
from briscola_lan.wire.messages import MESSAGE_TYPES, SeatInfo

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
    key: str | None
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
        sample = TableOptions().to_dict()
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
    full = TableOptions.make(players=4, hands_to_win=3, partner_exchange=False).to_dict()
    required = {e.key: full[e.key] for e in rule.entries if e.low == 1}
    decoded = TableOptions.from_dict(required).to_dict()  # the optional keys left out
    for e in rule.entries:
        if e.low == 0:
            assert (
                isinstance(e.type, Ctl) and e.type.op == "default" and isinstance(e.type.arg, Lit)
            )
            assert decoded[e.key] == e.type.arg.value, e.key
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
