"""Every fairness vector in protocol/vectors/fairness.json, checked by one parametrized test."""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness import blind, proofs, signals
from briscola_lan.fairness.draw import draw
from briscola_lan.fairness.drbg import HmacDrbg
from briscola_lan.fairness.encoding import (
    DOMAIN,
    DRAW_HAND,
    HOST_PARTY,
    card_commitment,
    deck_seed,
    digest,
    draw_seed,
    seed_commitment,
)
from briscola_lan.fairness.group import base, card_point, is_point
from briscola_lan.fairness.identity import Identity, verify_signature
from briscola_lan.fairness.pubkey import is_valid_public_key
from briscola_lan.fairness.shuffle import pack_codes, shuffle_codes
from briscola_lan.fairness.statements import KINDS, Opening, Statement, decode, hello_proof
from briscola_lan.fairness.transcript import load
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions

DIR = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
VECTORS: list[dict[str, Any]] = json.loads((DIR / "fairness.json").read_text())["vectors"]
h = bytes.fromhex


def _id(v: dict[str, Any]) -> str:
    label = v.get("statement", v.get("players", v.get("party", v.get("file", v.get("why", "")))))
    return f"{v['kind']}-{label}-{v.get('draw_partners', '')}"


@pytest.mark.parametrize("vec", VECTORS, ids=[_id(v) for v in VECTORS])
def test_vector(vec: dict[str, Any]) -> None:
    kind = vec["kind"]
    if kind == "hmac_drbg":
        d = HmacDrbg(h(vec["entropy"]), h(vec["nonce"]), h(vec["personalization"]))
        out = [d.generate(n) for n in vec["generate_bytes"]]
        assert out[-1].hex() == vec["returned"]
    elif kind == "digest":
        assert digest(vec["tag"], *map(h, vec["fields_hex"])).hex() == vec["digest"]
    elif kind == "seed_commitment":
        c = seed_commitment(h(vec["game_id"]), vec["hand"], vec["party"], h(vec["seed"]))
        assert c.hex() == vec["commitment"]
    elif kind == "deal":
        opts = TableOptions.make(
            players=vec["players"],
            match_format="points" if vec["players"] == 3 else "hands",
            removed_two=vec["removed_two"],
        )
        gid = h(vec["game_id"])
        ds = deck_seed(gid, vec["hand"], h(vec["host_seed"]), [h(s) for s in vec["seat_seeds"]])
        assert ds.hex() == vec["deck_seed"]
        assert pack_codes(opts) == vec["pack"]
        deck = shuffle_codes(vec["pack"], ds)
        assert deck == vec["deck"]
        got = [
            card_commitment(gid, vec["hand"], p, c, h(vec["salts"][p])).hex()
            for p, c in enumerate(deck)
        ]
        assert got == vec["commitments"]
    elif kind == "draw":
        gid, host_seed = h(vec["game_id"]), h(vec["host_seed"])
        seats = [h(s) for s in vec["seat_seeds"]]
        own = seed_commitment(gid, DRAW_HAND, HOST_PARTY, host_seed)
        assert own.hex() == vec["host_commitment"]
        got = [seed_commitment(gid, DRAW_HAND, i, s).hex() for i, s in enumerate(seats)]
        assert got == vec["seat_commitments"]
        rseed = draw_seed(gid, host_seed, seats)
        assert rseed.hex() == vec["draw_seed"]
        res = draw(
            range(40),
            rseed,
            vec["players"],
            draw_partners=vec["draw_partners"],
            draw_dealer=vec["draw_dealer"],
        )
        assert list(res.cards) == vec["cards"]
        assert list(res.seating) == vec["seating"] and res.dealer == vec["dealer"]
    elif kind == "signed_statement":
        key = Identity(h(vec["private_key"]))
        assert key.public_key.hex() == vec["public_key"]
        body = h(vec["body"])
        value = statement_from_fields(vec["statement"], vec["fields"])
        assert value.encode() == body  # fields -> bytes
        assert decode(body) == value  # bytes -> fields
        assert key.sign(body).hex() == vec["signature"]  # Ed25519 is deterministic
        assert verify_signature(key.public_key, body, h(vec["signature"]))
        assert not verify_signature(key.public_key, body + b"\x00", h(vec["signature"]))
    elif kind == "hello_proof":
        key = Identity(h(vec["private_key"]))
        assert key.public_key.hex() == vec["public_key"]
        body = hello_proof(h(vec["nonce"]), h(vec["host_key"]), h(vec["channel"]), key.public_key)
        assert body.hex() == vec["body"]
        assert key.sign(body).hex() == vec["proof"]  # Ed25519 is deterministic
        assert verify_signature(key.public_key, body, h(vec["proof"]))
        assert decode_fails(body)  # a proof's bytes are never a transcript statement
    elif kind == "public_key":
        assert is_valid_public_key(h(vec["public_key"])) == vec["valid"], vec["why"]
    elif kind == "signature":  # more on these in test_signature_edges.py
        args = h(vec["public_key"]), h(vec["message"]), h(vec["signature"])
        assert verify_signature(*args) is vec["valid"], vec["why"]
    elif kind == "transcript":
        path = DIR / vec["file"]
        assert hashlib.sha256(path.read_bytes()).hexdigest() == vec["sha256"]
        rep = verify_records(load(path))
        assert rep.ok == vec["ok"]
        assert [list(x.points or ()) for x in rep.hands] == vec["points"]
        assert rep.winner == vec["winner_side"]
        if "passed_out" in vec:  # five players: the hands everyone passed (void, dealt again)
            assert [x.passed_out for x in rep.hands] == vec["passed_out"]
        if "draw_seating" in vec:
            assert rep.draw is not None and rep.draw.verified
            assert list(rep.draw.seating) == vec["draw_seating"]
            assert rep.draw.dealer == vec["draw_dealer"]
    elif kind == "signal":
        sender, partner = h(vec["sender_private_key"]), h(vec["partner_private_key"])
        assert Identity(sender).public_key.hex() == vec["sender_key"]
        assert Identity(partner).public_key.hex() == vec["partner_key"]
        point = signals.partners_point(sender, h(vec["partner_key"]))
        assert point == signals.partners_point(partner, h(vec["sender_key"]))  # either side
        assert point.hex() == vec["point"]
        pad = signals.pad(h(vec["game_id"]), vec["hand"], vec["seat"], vec["index"], point)
        assert pad == vec["pad"]
        assert signals.seal(vec["value"], pad) == vec["sealed"]
        assert signals.unseal(vec["sealed"], pad) == vec["value"]
    elif kind.startswith("blind_"):
        check_blind_vector(vec)
    else:
        pytest.fail(f"unknown vector kind {kind}")


def _le(raw: str) -> int:
    return int.from_bytes(h(raw), "little")


def check_blind_vector(vec: dict[str, Any]) -> None:
    """The blind deal's vectors (fairness.md §11): computed again from their inputs."""
    kind = vec["kind"]
    if kind == "blind_card_points":
        assert [card_point(c).hex() for c in range(40)] == vec["points"]
        assert all(is_point(h(p)) for p in vec["points"]) and len(set(vec["points"])) == 40
    elif kind == "blind_keys":
        k = blind.derive_keys(
            h(vec["game_id"]), vec["hand"], vec["party"], h(vec["secret"]), vec["size"]
        )
        assert k.shuffle_key == _le(vec["shuffle_key"]) and k.ecdh_key == _le(vec["ecdh_key"])
        assert k.ecdh_point.hex() == vec["ecdh_point"]
        assert k.show_key == _le(vec["show_key"]) and k.show_point.hex() == vec["show_point"]
        assert list(k.perm) == vec["perm"]
        assert [b.to_bytes(32, "little").hex() for b in k.locks] == vec["locks"]
    elif kind == "blind_deck":
        gid = h(vec["game_id"])
        keys = [
            blind.derive_keys(gid, vec["hand"], q, h(s), len(vec["pack"]))
            for q, s in zip(vec["parties"], vec["secrets"], strict=True)
        ]
        deck = blind.pack_points(vec["pack"])
        for k, want in zip(keys, vec["shuffles"], strict=True):
            deck = blind.shuffle_pass(k, deck)
            assert [p.hex() for p in deck] == want
        for k, want in zip(keys, vec["locks"], strict=True):
            deck = blind.lock_pass(k, deck)
            assert [p.hex() for p in deck] == want
        order = blind.deck_order(vec["pack"], [k.perm for k in keys])
        assert list(order) == vec["order"]
        for p, point in enumerate(deck):
            beta = blind.product([k.lock(p) for k in keys])
            assert beta == _le(vec["opening_keys"][p])
            assert blind.open_card(point, beta) == order[p]
    elif kind == "blind_seal":
        shared = blind.shared_point(_le(vec["sender_ecdh_key"]), h(vec["receiver_ecdh_point"]))
        assert shared.hex() == vec["shared"]
        pad = blind.pad(
            h(vec["game_id"]),
            vec["hand"],
            sender=vec["sender"],
            receiver=vec["receiver"],
            position=vec["position"],
            what=vec["what"],
            shared=shared,
        )
        assert pad.hex() == vec["pad"]
        assert blind.seal(_le(vec["value"]), pad).hex() == vec["sealed"]
        assert blind.unseal(h(vec["sealed"]), pad) == _le(vec["value"])
    elif kind == "blind_lock_proof":
        gid, party, inputs = h(vec["game_id"]), vec["party"], [h(p) for p in vec["inputs"]]
        k = blind.derive_keys(gid, vec["hand"], party, h(vec["secret"]), len(inputs))
        label = proofs.proof_label(gid, vec["hand"], party, h(vec["context"]), "lock")
        assert label.hex() == vec["label"]
        outputs = blind.lock_pass(k, inputs)
        assert [p.hex() for p in outputs] == vec["outputs"]
        key, commits = proofs.lock_commitments(k.shuffle_key, k.locks)
        assert key.hex() == vec["key"] and [y.hex() for y in commits] == vec["commits"]
        proof = proofs.lock_prove(
            k.shuffle_key, k.locks, inputs, outputs, label=label, secret=h(vec["secret"])
        )
        assert [z.hex() for z in proof] == vec["proof"]  # the nonces: from the secret
        got = [h(z) for z in vec["proof"]]
        assert proofs.lock_verify(key, commits, inputs, outputs, got, label=label)
        wrong = list(outputs)
        wrong[0], wrong[1] = wrong[1], wrong[0]  # another deck: the proof does not hold
        assert not proofs.lock_verify(key, commits, inputs, wrong, got, label=label)
    elif kind == "blind_dleq":
        gid, party = h(vec["game_id"]), vec["party"]
        label = proofs.proof_label(gid, vec["hand"], party, h(vec["context"]), "complaint")
        assert label.hex() == vec["label"]
        x, other = _le(vec["key"]), h(vec["other"])
        assert base(x).hex() == vec["point"]
        assert blind.shared_point(x, other).hex() == vec["shared"]
        e, z = proofs.dleq_prove(x, base(1), other, label=label, secret=h(vec["secret"]))
        assert [e.hex(), z.hex()] == vec["proof"]
        got = [h(p) for p in vec["proof"]]
        shared, point = h(vec["shared"]), h(vec["point"])
        assert proofs.dleq_verify(base(1), point, other, shared, got, label=label)
        assert not proofs.dleq_verify(base(1), point, other, point, got, label=label)
    else:
        pytest.fail(f"unknown vector kind {kind}")


def statement_from_fields(kind: str, fields: dict[str, Any]) -> Statement:
    """The statement a vector's JSON fields describe (hex for bytes, maps for openings)."""
    cls = KINDS[DOMAIN + b"st/" + kind.encode("ascii")]
    names = [f.name for f in dataclasses.fields(cls)]
    assert list(fields) == names, f"{kind}: the fields, in order"

    def value(schema: str, v: Any) -> Any:
        if schema.endswith("s"):
            return tuple(value(schema[:-1], x) for x in v)
        if schema == "opening":
            assert list(v) == ["position", "card", "salt"]
            return Opening(v["position"], v["card"], h(v["salt"]))
        if schema in ("b16", "b32", "b64", "bin"):
            return h(v)
        assert isinstance(v, int if schema == "u32" else str)
        return v

    return cls(*(value(k, fields[n]) for k, n in zip(cls.SCHEMA, names, strict=True)))


def test_one_signed_statement_per_kind() -> None:
    kinds = {v["statement"] for v in VECTORS if v["kind"] == "signed_statement"}
    assert kinds == {cls.KIND for cls in KINDS.values()}


def test_draw_vectors_where_players_move() -> None:
    moved = [v for v in VECTORS if v["kind"] == "draw" and v["seating"] != sorted(v["seating"])]
    assert {v["draw_dealer"] for v in moved} == {True, False}
    assert all(v["draw_partners"] for v in moved)


def test_draw_vectors_cover_every_partnership() -> None:
    """Lobby seat 0 drawn with lobby seat 2 (nobody moves), 3 or 1: the three seatings."""
    seatings = {tuple(v["seating"]) for v in VECTORS if v["kind"] == "draw" and v["draw_partners"]}
    assert seatings == {(0, 1, 2, 3), (0, 1, 3, 2), (0, 2, 1, 3)}


def test_generator_output_is_up_to_date() -> None:
    """fairness.json and the sample transcripts are what make_fairness_vectors.py makes."""
    spec = importlib.util.spec_from_file_location(
        "make_fairness_vectors", DIR / "make_fairness_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    for name, data in module.generated().items():
        assert (DIR / name).read_bytes() == data, f"{name} is stale: rerun the generator"


# What each kind of vector states (its inputs, such as draw_partners in a draw that moves nobody,
# need not change the outcome, so they are not edited here).
_OUTPUTS = {
    "signed_statement": ("public_key", "fields", "body", "signature"),
    "blind_keys": ("shuffle_key", "ecdh_point", "perm", "locks"),
    "blind_deck": ("shuffles", "locks", "order", "opening_keys"),
    "blind_seal": ("shared", "pad", "sealed"),
    "blind_lock_proof": ("outputs", "key", "commits", "proof", "label"),
    "blind_dleq": ("point", "shared", "proof", "label"),
    "draw": ("host_commitment", "seat_commitments", "draw_seed", "cards", "seating", "dealer"),
}


def _changed(v: Any) -> Any:
    """Another JSON value of the same shape: a hex string, int, list or map changed by one step."""
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + 1
    if isinstance(v, str):
        return v[:-1] + ("1" if v.endswith("0") else "0")
    if isinstance(v, list):
        return [_changed(v[0]), *v[1:]] if v else [0]
    assert isinstance(v, dict)
    last = list(v)[-1]
    return {**v, last: _changed(v[last])}


@pytest.mark.parametrize(
    "vec",
    [v for v in VECTORS if v["kind"] in _OUTPUTS],
    ids=[_id(v) for v in VECTORS if v["kind"] in _OUTPUTS],
)
def test_an_edited_vector_fails(vec: dict[str, Any]) -> None:
    for key in _OUTPUTS[vec["kind"]]:
        with pytest.raises((AssertionError, ValueError)):
            test_vector({**vec, key: _changed(vec[key])})


def decode_fails(body: bytes) -> bool:
    try:
        decode(body)
    except ValueError:
        return True
    return False


def test_all_kinds_present() -> None:
    kinds = {v["kind"] for v in VECTORS}
    assert kinds == {
        "hmac_drbg",
        "digest",
        "seed_commitment",
        "deal",
        "draw",
        "signed_statement",
        "signal",
        "hello_proof",
        "public_key",
        "signature",
        "transcript",
        "blind_card_points",
        "blind_keys",
        "blind_deck",
        "blind_seal",
        "blind_lock_proof",
        "blind_dleq",
    }
