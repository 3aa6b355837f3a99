"""protocol/statements.cddl against the code: one rule per statement kind, its fields and types, and
the bytes of every vector rebuilt from the schema alone (its header's layout)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness import statements
from briscola_lan.fairness.encoding import DOMAIN
from briscola_lan.fairness.statements import KINDS, MAX_BIN, MAX_LIST, Opening
from tests.wire.test_schema import (
    ArrayT,
    Choice,
    Ctl,
    Entry,
    Lit,
    Prim,
    Range,
    Ref,
    matches,
    parse_cddl,
    resolve,
)

PROTOCOL = Path(__file__).resolve().parents[2] / "protocol"
RULES = parse_cddl((PROTOCOL / "statements.cddl").read_text())
FIELD_TYPES = ("u32", "b16", "b32", "b64", "bin", "str", "opening")


def _statement_rules() -> dict[bytes, ArrayT]:
    """Tag bytes -> rule, for every array rule whose first element is a text literal."""
    out: dict[bytes, ArrayT] = {}
    for t in RULES.values():
        if isinstance(t, ArrayT) and t.entries and isinstance(t.entries[0].type, Lit):
            assert t.entries[0].key == "tag"
            tag = str(t.entries[0].type.value).encode("ascii")
            assert tag not in out, f"two rules for {tag!r}"
            out[tag] = t
    return out


STATEMENT_RULES = _statement_rules()


def schema_kind(t: Any) -> str:
    """The statements.py field kind a rule element stands for: u32, b32, ..., u32s, openings."""
    if isinstance(t, Ref) and t.name in FIELD_TYPES:
        return t.name
    if isinstance(t, ArrayT) and len(t.entries) == 1:
        (e,) = t.entries
        assert (e.low, e.high) == (0, MAX_LIST), "a list is [0*64 T]"
        return schema_kind(e.type) + "s"
    raise AssertionError(f"not a statement field type: {t!r}")


def test_field_types_are_the_codes() -> None:
    assert RULES["u32"] == Range(0, 2**32 - 1)
    for name, size in (("b16", 16), ("b32", 32), ("b64", 64)):
        assert RULES[name] == Ctl(Prim("bstr"), "size", Lit(size)), name
    assert RULES["bin"] == Ctl(Prim("bstr"), "size", Range(0, MAX_BIN))
    assert RULES["str"] == Prim("tstr")
    opening = RULES["opening"]
    assert isinstance(opening, ArrayT)
    assert [e.key for e in opening.entries] == [f.name for f in dataclasses.fields(Opening)]
    assert [e.type for e in opening.entries] == [Ref("u32"), Ref("u32"), Ref("b32")]


@pytest.mark.parametrize("cls", list(KINDS.values()), ids=lambda c: c.KIND)
def test_every_kind_has_a_rule_with_its_fields(cls: type[statements.Statement]) -> None:
    tag = DOMAIN + b"st/" + cls.KIND.encode("ascii")
    assert tag in STATEMENT_RULES, f"statements.cddl has no rule for {cls.KIND!r}"
    rule = STATEMENT_RULES[tag]
    assert RULES[cls.KIND] is rule, "the rule is named after the kind"
    entries = rule.entries[1:]
    assert all((e.low, e.high) == (1, 1) for e in rule.entries), "every field is required"
    assert [e.key for e in entries] == [f.name for f in dataclasses.fields(cls)], cls.KIND
    assert tuple(schema_kind(e.type) for e in entries) == cls.SCHEMA, cls.KIND


def test_every_rule_is_a_kind_and_in_the_statement_choice() -> None:
    assert set(STATEMENT_RULES) == set(KINDS), "rules without a statement kind in the code"
    top = RULES["statement"]
    assert isinstance(top, Choice)
    assert {resolve(o, RULES) for o in top.options} == set(STATEMENT_RULES.values())


# --- the bytes, from the schema alone --------------------------------------------------------


def _lp(raw: bytes) -> bytes:
    return len(raw).to_bytes(4, "big") + raw


def cddl_encode(t: Any, value: Any) -> bytes:
    """One element's bytes (before its own length prefix), by the header of statements.cddl."""
    assert matches(t, value, RULES), (t, value)
    if isinstance(t, Lit):
        return str(t.value).encode("ascii")
    if isinstance(t, Ref) and t.name == "u32":
        return int(value).to_bytes(4, "big")
    if isinstance(t, Ref) and t.name == "str":
        return str(value).encode("utf-8")
    if isinstance(t, Ref) and t.name in ("b16", "b32", "b64", "bin"):
        return bytes(value)
    if isinstance(t, Ref):  # a fixed group (opening): its elements, no count
        return _group(resolve(t, RULES).entries, value)
    assert isinstance(t, ArrayT) and len(t.entries) == 1  # a list: the count, then the items
    return len(value).to_bytes(4, "big") + b"".join(
        _lp(cddl_encode(t.entries[0].type, v)) for v in value
    )


def _group(entries: tuple[Entry, ...], values: list[Any]) -> bytes:
    assert len(entries) == len(values)
    return b"".join(_lp(cddl_encode(e.type, v)) for e, v in zip(entries, values, strict=True))


def _from_json(t: Any, value: Any) -> Any:
    """A vector's JSON field as the schema's value: hex strings to bytes, openings to arrays."""
    t = t if isinstance(t, ArrayT) and len(t.entries) == 1 else resolve(t, RULES)
    if isinstance(t, Ctl):  # b16 b32 b64 bin
        return bytes.fromhex(value)
    if isinstance(t, ArrayT) and len(t.entries) == 1:
        return [_from_json(t.entries[0].type, v) for v in value]
    if isinstance(t, ArrayT):  # opening
        return [_from_json(e.type, value[e.key]) for e in t.entries]
    return value


def _vectors() -> list[dict[str, Any]]:
    data = json.loads((PROTOCOL / "vectors" / "fairness.json").read_text())
    return [v for v in data["vectors"] if v["kind"] == "signed_statement"]


@pytest.mark.parametrize("vec", _vectors(), ids=lambda v: str(v["statement"]))
def test_vector_bytes_follow_from_the_schema(vec: dict[str, Any]) -> None:
    tag = DOMAIN + b"st/" + vec["statement"].encode("ascii")
    rule = STATEMENT_RULES[tag]
    fields = vec["fields"]
    assert list(fields) == [e.key for e in rule.entries[1:]]
    elements = [tag.decode("ascii")] + [_from_json(e.type, fields[e.key]) for e in rule.entries[1:]]
    assert matches(rule, elements, RULES)
    assert _group(rule.entries, elements).hex() == vec["body"]


def test_the_reader_refuses_what_the_rules_refuse() -> None:
    rule = STATEMENT_RULES[DOMAIN + b"st/seed-commit"]
    good = ["briscola-lan/v2/st/seed-commit", bytes(16), 0, 1, bytes(32), bytes(32)]
    assert matches(rule, good, RULES)
    for bad in (
        [*good[:5], bytes(31)],  # a short commitment
        [*good[:3], 2**32, *good[4:]],  # over u32
        good[:5],  # a field missing
        [*good, 0],  # a field too many
        ["briscola-lan/v2/st/seed-reveal", *good[1:]],  # another tag
        ["briscola-lan/v1/st/seed-commit", *good[1:]],  # the earlier version's tag
    ):
        assert not matches(rule, bad, RULES), bad
