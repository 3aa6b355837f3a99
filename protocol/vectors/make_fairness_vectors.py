"""Regenerate protocol/vectors/fairness.json and the sample transcript (run from the repo root).

Everything is derived from fixed inputs, so the output never changes unless the protocol does.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, ClassVar

from briscola_lan.fairness import blind, proofs, signals
from briscola_lan.fairness.draw import draw
from briscola_lan.fairness.encoding import (
    DRAW_HAND,
    HOST_PARTY,
    card_commitment,
    deck_seed,
    digest,
    draw_seed,
    seed_commitment,
)
from briscola_lan.fairness.group import CARD_POINTS, base
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.pubkey import (
    L,
    add_points,
    decode_point,
    encode_point,
    is_valid_public_key,
    multiply_point,
)
from briscola_lan.fairness.shuffle import pack_codes, shuffle_codes
from briscola_lan.fairness.statements import (
    PASS_BID,
    Abort,
    Ack,
    BidStatement,
    BlindEnd,
    BlindStart,
    CallStatement,
    Complaint,
    Deal,
    DeckCommit,
    DrawReveal,
    DrawStart,
    Evidence,
    Exchange,
    HostCommit,
    HostReveal,
    MatchEnd,
    MatchOptions,
    MatchStart,
    Opening,
    Overdue,
    Play,
    Present,
    Receipt,
    SeedCommit,
    SeedReveal,
    Show,
    Signal,
    Statement,
    Takeover,
    Upcard,
    hello_proof,
)
from briscola_lan.fairness.transcript import dumps
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.rules.cards import Suit

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))  # blind_examples.py beside this script, however it is loaded
from blind_examples import play_hand, secret  # noqa: E402


def fixed(label: str, n: int = 32) -> bytes:
    """Deterministic test bytes: SHA-256 of a label, repeated as needed."""
    out = b""
    i = 0
    while len(out) < n:
        out += hashlib.sha256(f"{label}/{i}".encode()).digest()
        i += 1
    return out[:n]


def counter_entropy(label: str):  # type: ignore[no-untyped-def]
    state = {"i": 0}

    def entropy(n: int) -> bytes:
        state["i"] += 1
        return fixed(f"{label}/{state['i']}", n)

    return entropy


def main() -> None:
    for name, data in generated().items():
        (HERE / name).write_bytes(data)


def generated() -> dict[str, bytes]:
    """Every output file (name in this directory -> bytes), made in memory."""
    files: dict[str, bytes] = {}
    vectors: list[dict[str, Any]] = []
    vectors.append(
        {
            "kind": "hmac_drbg",
            "source": "NIST CAVP drbgvectors_no_reseed HMAC_DRBG.rsp [SHA-256] COUNT=0",
            "entropy": "ca851911349384bffe89de1cbdc46e6831e44d34a4fb935ee285dd14b71a7488",
            "nonce": "659ba96c601dc69fc902940805ec0ca8",
            "personalization": "",
            "generate_bytes": [128, 128],
            "returned": "e528e9abf2dece54d47c7e75e5fe302149f817ea9fb4bee6f4199697d04d5b89"
            "d54fbb978a15b5c443c9ec21036d2460b6f73ebad0dc2aba6e624abf07745bc1"
            "07694bb7547bb0995f70de25d6b29e2d3011bb19d27676c07162c8b5ccde0668"
            "961df86803482cb37ed6d5c0bb8d50cf1f50d476aa0458bdaba806f48be9dcb8",
        }
    )
    game_id = fixed("game", 16)
    vectors.append(
        {
            "kind": "digest",
            "tag": "example",
            "fields_hex": ["", "00", fixed("f", 5).hex()],
            "digest": digest("example", b"", b"\x00", fixed("f", 5)).hex(),
        }
    )
    for party in (0, 3, HOST_PARTY):
        seed = fixed(f"seed{party}")
        vectors.append(
            {
                "kind": "seed_commitment",
                "game_id": game_id.hex(),
                "hand": 1,
                "party": party,
                "seed": seed.hex(),
                "commitment": seed_commitment(game_id, 1, party, seed).hex(),
            }
        )
    for players, removed in ((2, 0), (3, 2), (4, 0)):
        opts = TableOptions.make(
            players=players,
            match_format="points" if players == 3 else "hands",
            removed_two=removed,
        )
        host_seed = fixed(f"host{players}")
        seats = [fixed(f"p{players}/{i}") for i in range(players)]
        dseed = deck_seed(game_id, 0, host_seed, seats)
        pack = pack_codes(opts)
        deck = shuffle_codes(pack, dseed)
        salts = [fixed(f"salt{players}/{p}") for p in range(len(deck))]
        vectors.append(
            {
                "kind": "deal",
                "players": players,
                "removed_two": removed,
                "game_id": game_id.hex(),
                "hand": 0,
                "host_seed": host_seed.hex(),
                "seat_seeds": [s.hex() for s in seats],
                "deck_seed": dseed.hex(),
                "pack": pack,
                "deck": deck,
                "salts": [s.hex() for s in salts],
                "commitments": [
                    card_commitment(game_id, 0, p, c, salts[p]).hex() for p, c in enumerate(deck)
                ],
            }
        )
    draws = [(4, True, True, ""), (4, True, False, ""), (3, False, True, "")]
    # and draws where players move, one per partnership of lobby seat 0 that moves someone: with
    # lobby seat 3 (seating 0, 1, 3, 2) and with lobby seat 1 (seating 0, 2, 1, 3)
    draws += [
        (4, True, True, moving_label(game_id, True, (0, 1, 3, 2))),
        (4, True, False, moving_label(game_id, False, (0, 1, 3, 2))),
        (4, True, True, moving_label(game_id, True, (0, 2, 1, 3))),
    ]
    for players, partners, dealer, label in draws:
        host_seed = fixed(f"draw-host{players}{label}")
        seats = [fixed(f"draw{players}{label}/{i}") for i in range(players)]
        rseed = draw_seed(game_id, host_seed, seats)
        res = draw(range(40), rseed, players, draw_partners=partners, draw_dealer=dealer)
        assert not label or res.seating != (0, 1, 2, 3)
        vectors.append(
            {
                "kind": "draw",
                "players": players,
                "draw_partners": partners,
                "draw_dealer": dealer,
                "game_id": game_id.hex(),
                "host_seed": host_seed.hex(),
                "host_commitment": seed_commitment(game_id, DRAW_HAND, HOST_PARTY, host_seed).hex(),
                "seat_seeds": [s.hex() for s in seats],
                "seat_commitments": [
                    seed_commitment(game_id, DRAW_HAND, i, s).hex() for i, s in enumerate(seats)
                ],
                "draw_seed": rseed.hex(),
                "cards": list(res.cards),
                "seating": list(res.seating),
                "dealer": res.dealer,
            }
        )
    key = Identity(fixed("signing-key"))
    statements = signed_statement_examples(game_id)
    for st in statements:
        body = st.encode()
        vectors.append(
            {
                "kind": "signed_statement",
                "statement": st.KIND,
                "private_key": fixed("signing-key").hex(),
                "public_key": key.public_key.hex(),
                "fields": {f.name: _jsonable(getattr(st, f.name)) for f in dataclasses.fields(st)},
                "body": body.hex(),
                "signature": key.sign(body).hex(),
            }
        )
    # the hello proof (SPEC.md section 5): with a TLS certificate's SHA-256, and without TLS
    player, host = Identity(fixed("hello-player")), Identity(fixed("hello-host"))
    for channel in (hashlib.sha256(b"example certificate DER").digest(), b""):
        nonce = fixed(f"hello-nonce/{len(channel)}")
        body = hello_proof(nonce, host.public_key, channel, player.public_key)
        vectors.append(
            {
                "kind": "hello_proof",
                "private_key": fixed("hello-player").hex(),
                "public_key": player.public_key.hex(),
                "nonce": nonce.hex(),
                "host_key": host.public_key.hex(),
                "channel": channel.hex(),
                "body": body.hex(),
                "proof": player.sign(body).hex(),
            }
        )
    # which 32-byte strings are valid identity keys (SPEC.md section 5, hello)
    order8 = "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05"
    mixed = add_points(decode_point(player.public_key), decode_point(bytes.fromhex(order8)))
    mixed_key = encode_point(*mixed)
    keys = [
        (player.public_key.hex(), "a key made by Ed25519 key generation"),
        ("5866666666666666666666666666666666666666666666666666666666666666", "the base point"),
        ("0100000000000000000000000000000000000000000000000000000000000000", "neutral (order 1)"),
        ("ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "order 2"),
        ("0000000000000000000000000000000000000000000000000000000000000000", "order 4"),
        ("0000000000000000000000000000000000000000000000000000000000000080", "order 4"),
        (order8, "order 8"),
        ("c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa", "order 8"),
        (mixed_key.hex(), "mixed order: the first key plus a point of order 8"),
        ("0100000000000000000000000000000000000000000000000000000000000080", "negative zero x"),
        ("edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "y = p"),
        ("eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", "y = p + 1"),
        ("0200000000000000000000000000000000000000000000000000000000000000", "not on the curve"),
    ]
    for key_hex, why in keys:
        vectors.append(
            {
                "kind": "public_key",
                "public_key": key_hex,
                "valid": is_valid_public_key(bytes.fromhex(key_hex)),
                "why": why,
            }
        )
    vectors.extend(signature_edge_cases(order8))
    # a complete small transcript: 2 players, one hand, every seat a ClientSession
    from briscola_lan.table.selfplay import run_selfplay

    class FirstBot:
        def choose(self, view):  # type: ignore[no-untyped-def]
            return view.legal_plays[0]

    result = run_selfplay(
        TableOptions.make(players=2, hands_to_win=1),
        entropy=counter_entropy("vector"),
        bot_factory=lambda level, seed: FirstBot(),
        deal="classic",
    )
    data = dumps(result.host.records)
    files["transcript-2p.briscola.json"] = data
    rep = verify_records(result.host.records)
    vectors.append(
        {
            "kind": "transcript",
            "file": "transcript-2p.briscola.json",
            "sha256": hashlib.sha256(data).hexdigest(),
            "ok": rep.ok,
            "points": [list(h.points or ()) for h in rep.hands],
            "winner_side": rep.winner,
        }
    )
    # a complete drawn match: 4 players, partnerships and first dealer drawn, one hand
    result = run_selfplay(
        TableOptions.make(players=4, hands_to_win=1),
        entropy=counter_entropy("vector-draw"),
        bot_factory=lambda level, seed: FirstBot(),
        draw_partners=True,
        draw_dealer=True,
        deal="classic",
    )
    data = dumps(result.host.records)
    files["transcript-4p-draw.briscola.json"] = data
    rep = verify_records(result.host.records)
    assert rep.draw is not None
    vectors.append(
        {
            "kind": "transcript",
            "file": "transcript-4p-draw.briscola.json",
            "sha256": hashlib.sha256(data).hexdigest(),
            "ok": rep.ok,
            "points": [list(h.points or ()) for h in rep.hands],
            "winner_side": rep.winner,
            "draw_seating": list(rep.draw.seating),
            "draw_dealer": rep.draw.dealer,
        }
    )
    # a complete blind match: 4 players, one hand, every seat a party (fairness.md §11)
    result = run_selfplay(
        TableOptions.make(players=4, hands_to_win=1),
        entropy=counter_entropy("vector-blind"),
        bot_factory=lambda level, seed: FirstBot(),
        deal="blind",
    )
    data = dumps(result.host.records)
    files["transcript-4p-blind.briscola.json"] = data
    rep = verify_records(result.host.records)
    vectors.append(
        {
            "kind": "transcript",
            "file": "transcript-4p-blind.briscola.json",
            "sha256": hashlib.sha256(data).hexdigest(),
            "ok": rep.ok,
            "points": [list(h.points or ()) for h in rep.hands],
            "winner_side": rep.winner,
        }
    )
    # a complete five-player match (Briscola chiamata, fairness.md §13), classic deal: its first
    # hand passed out by everyone and dealt again, then the auction, the call and the play
    FirstBidder.deals[0] = 0
    result = run_selfplay(
        TableOptions.make(players=5, match_format="total", match_hands=1),
        entropy=counter_entropy("vector-five"),
        deal="classic",
        chiamata_factory=lambda level, seed: FirstBidder(),
    )
    data = dumps(result.host.records)
    files["transcript-5p.briscola.json"] = data
    rep = verify_records(result.host.records)
    vectors.append(
        {
            "kind": "transcript",
            "file": "transcript-5p.briscola.json",
            "sha256": hashlib.sha256(data).hexdigest(),
            "ok": rep.ok,
            "points": [list(h.points or ()) for h in rep.hands],
            "passed_out": [h.passed_out for h in rep.hands],
            "winner_side": rep.winner,
        }
    )
    # the same, dealt blind (fairness.md §13.9): every seat a party, the first deal passed out
    # by everyone (its keys revealed, dealt again), then the auction, the call and the play
    FirstBidder.deals[0] = 0
    result = run_selfplay(
        TableOptions.make(players=5, match_format="total", match_hands=1),
        entropy=counter_entropy("vector-five-blind"),
        deal="blind",
        chiamata_factory=lambda level, seed: FirstBidder(),
    )
    data = dumps(result.host.records)
    files["transcript-5p-blind.briscola.json"] = data
    rep = verify_records(result.host.records)
    vectors.append(
        {
            "kind": "transcript",
            "file": "transcript-5p-blind.briscola.json",
            "sha256": hashlib.sha256(data).hexdigest(),
            "ok": rep.ok,
            "points": [list(h.points or ()) for h in rep.hands],
            "passed_out": [h.passed_out for h in rep.hands],
            "winner_side": rep.winner,
        }
    )
    vectors.extend(blind_vectors(game_id))
    vectors.extend(signal_vectors(game_id))
    out = {
        "description": "Fairness vectors: see protocol/fairness.md. Hex strings are lower case.",
        "vectors": vectors,
    }
    files["fairness.json"] = (json.dumps(out, indent=1) + "\n").encode()
    return files


def _le(k: int) -> str:
    return k.to_bytes(32, "little").hex()


def blind_vectors(game_id: bytes) -> list[dict[str, Any]]:
    """The blind deal (fairness.md §11): card points, a party's keys, a whole deck's passes, a
    sealed value."""
    out: list[dict[str, Any]] = [
        {"kind": "blind_card_points", "points": [p.hex() for p in CARD_POINTS]}
    ]
    for party, size in ((0, 40), (HOST_PARTY, 39)):
        s = secret(f"keys/{party}")
        k = blind.derive_keys(game_id, 2, party, s, size)
        out.append(
            {
                "kind": "blind_keys",
                "game_id": game_id.hex(),
                "hand": 2,
                "party": party,
                "size": size,
                "secret": s.hex(),
                "shuffle_key": _le(k.shuffle_key),
                "ecdh_key": _le(k.ecdh_key),
                "ecdh_point": k.ecdh_point.hex(),
                "show_key": _le(k.show_key),
                "show_point": k.show_point.hex(),
                "perm": list(k.perm),
                "locks": [_le(b) for b in k.locks],
            }
        )
    opts = TableOptions.make(players=2)
    hand, parties, _made = play_hand(opts, game_id, (0, 1))
    keys = [parties[q].keys for q in (0, 1)]
    out.append(
        {
            "kind": "blind_deck",
            "players": 2,
            "game_id": game_id.hex(),
            "hand": 0,
            "parties": [0, 1],
            "secrets": [parties[q].secret.hex() for q in (0, 1)],
            "pack": pack_codes(opts),
            "shuffles": [[p.hex() for p in st.points] for _, st in hand.shuffles],
            "locks": [[p.hex() for p in st.points] for _, st in hand.locks],
            "order": list(blind.deck_order(pack_codes(opts), [k.perm for k in keys])),
            "opening_keys": [_le(blind.product([k.lock(p) for k in keys])) for p in range(40)],
        }
    )
    # the first lock pass of that hand, its commitments and its proof (§11.4)
    context = fixed("context/lock")
    lock_in, lock_out = hand.shuffles[-1][1].points, hand.locks[0][1].points
    key, commits = proofs.lock_commitments(keys[0].shuffle_key, keys[0].locks)
    label = proofs.proof_label(game_id, 0, 0, context, "lock")
    proof = proofs.lock_prove(
        keys[0].shuffle_key, keys[0].locks, lock_in, lock_out, label=label, secret=parties[0].secret
    )
    out.append(
        {
            "kind": "blind_lock_proof",
            "game_id": game_id.hex(),
            "hand": 0,
            "party": 0,
            "context": context.hex(),
            "secret": parties[0].secret.hex(),
            "inputs": [p.hex() for p in lock_in],
            "outputs": [p.hex() for p in lock_out],
            "label": label.hex(),
            "key": key.hex(),
            "commits": [y.hex() for y in commits],
            "proof": [z.hex() for z in proof],
        }
    )
    sender, receiver = keys
    shared = blind.shared_point(sender.ecdh_key, receiver.ecdh_point)
    # a complaint's proof of the shared point (§11.9): party 1 complains about party 0
    context = fixed("context/complaint")
    label = proofs.proof_label(game_id, 0, 1, context, "complaint")
    e, z = proofs.dleq_prove(
        receiver.ecdh_key, base(1), sender.ecdh_point, label=label, secret=parties[1].secret
    )
    out.append(
        {
            "kind": "blind_dleq",
            "game_id": game_id.hex(),
            "hand": 0,
            "party": 1,
            "context": context.hex(),
            "secret": parties[1].secret.hex(),
            "key": _le(receiver.ecdh_key),
            "point": receiver.ecdh_point.hex(),
            "other": sender.ecdh_point.hex(),
            "shared": shared.hex(),
            "label": label.hex(),
            "proof": [e.hex(), z.hex()],
        }
    )
    for what, value in ((blind.SHARE, sender.lock(4)), (blind.SHOW, 12345)):
        pad = blind.pad(game_id, 0, sender=0, receiver=1, position=4, what=what, shared=shared)
        out.append(
            {
                "kind": "blind_seal",
                "game_id": game_id.hex(),
                "hand": 0,
                "sender": 0,
                "receiver": 1,
                "position": 4,
                "what": what,
                "sender_ecdh_key": _le(sender.ecdh_key),
                "receiver_ecdh_point": receiver.ecdh_point.hex(),
                "shared": shared.hex(),
                "pad": pad.hex(),
                "value": _le(value),
                "sealed": blind.seal(value, pad).hex(),
            }
        )
    return out


def blind_statement_examples(game_id: bytes) -> list[Statement]:
    """One statement of each blind kind, from a whole blind hand between seats 0 and 1."""
    hand, _parties, made = play_hand(TableOptions.make(players=2), game_id, (0, 1))
    first: dict[str, Statement] = {}
    for st in made:
        first.setdefault(st.KIND, st)
    return [
        BlindStart(game_id, 0, 0, 10),
        Present(game_id, 0, 1, fixed("context/present")),
        first["shuffle"],
        first["lock"],
        first["shares"],
        Show(
            game_id,
            0,
            1,
            fixed("context/show"),
            3,
            (2, 17, 25),
            tuple(fixed(f"v{p}") for p in (2, 17, 25)),
        ),
        first["blind-play"],
        Complaint(
            game_id,
            0,
            1,
            fixed("context/complaint"),
            17,
            0,
            fixed("shared point"),
            (fixed("e"), fixed("z")),
        ),
        first["key-reveal"],
        BlindEnd(game_id, 0, hand.points()),
        Overdue(game_id, 0, (1, HOST_PARTY)),
    ]


def moving_label(game_id: bytes, dealer: bool, seating: tuple[int, ...]) -> str:
    """The first label "/moves/N" whose seeds give a 4-player partnership draw with this seating
    (and, with a dealer draw, another first dealer than seat 0)."""
    for n in range(1000):
        label = f"/moves/{n}"
        seats = [fixed(f"draw4{label}/{i}") for i in range(4)]
        rseed = draw_seed(game_id, fixed(f"draw-host4{label}"), seats)
        res = draw(range(40), rseed, 4, draw_partners=True, draw_dealer=dealer)
        if res.seating == seating and (not dealer or res.dealer != 0):
            return label
    raise AssertionError(f"no draw seating {seating} among 1000 labels")


BASE_POINT = bytes.fromhex("5866666666666666666666666666666666666666666666666666666666666666")
NEUTRAL_POINT = b"\x01" + bytes(31)


def _scalar(data: bytes) -> int:
    return int.from_bytes(data, "little")


def _le32(n: int) -> bytes:
    return n.to_bytes(32, "little")


def signature_edge_cases(order8: str) -> list[dict[str, Any]]:
    """Ed25519 signatures on the edges where libraries disagree, with this protocol's verdict
    (protocol/fairness.md section 1.1). Built with the private scalar, from fixed inputs."""
    seed = fixed("signature-edges")
    key = Identity(seed)
    pub = key.public_key
    digest64 = hashlib.sha512(seed).digest()
    a = _scalar(digest64[:32]) & ((1 << 254) - 8) | (1 << 254)  # RFC 8032 5.1.5, clamped
    base = decode_point(BASE_POINT)
    t8 = bytes.fromhex(order8)
    msg = b"briscola-lan signature edge cases"

    def k_of(r: bytes, public: bytes, m: bytes = msg) -> int:
        return _scalar(hashlib.sha512(r + public + m).digest()) % L

    def times_base(n: int) -> bytes:
        return encode_point(*multiply_point(n, base))

    sig = key.sign(msg)
    r_bytes, s = sig[:32], _scalar(sig[32:])
    r = _scalar(hashlib.sha512(digest64[32:] + msg).digest()) % L  # the signer's nonce
    assert (r + k_of(r_bytes, pub) * a) % L == s
    mixed_r = encode_point(*add_points(decode_point(r_bytes), decode_point(t8)))
    neutral_noncanonical = _le32(2**255 - 19 + 1)  # y = p + 1, another encoding of y = 1
    neutral_negative_zero = bytes.fromhex("01" + "00" * 30 + "80")
    order2 = bytes.fromhex("ec" + "ff" * 30 + "7f")

    def with_r(rb: bytes) -> bytes:
        """R = rb and S = k·a: the equation [S]B = R + [k]A holds when R is the neutral point."""
        return rb + _le32(k_of(rb, pub) * a % L)

    # A mixed-order key A + T8 (T8 of order 8) and the key T8 itself: signatures for which the
    # equation holds (k a multiple of 8 cancels the torsion), found by trying nonces in turn.
    mixed_key = encode_point(*add_points(decode_point(pub), decode_point(t8)))
    n = 1
    while True:
        rb = times_base(n)
        k = k_of(rb, mixed_key)
        if k % 8 == 0:
            mixed_key_sig = rb + _le32((n + k * a) % L)
            break
        n += 1
    n = 1
    while True:
        rb = times_base(n)
        if k_of(rb, t8) % 8 == 0:
            small_key_sig = rb + _le32(n)  # [n]B = R + [k]T8 with [k]T8 the neutral point
            break
        n += 1

    neutral_sig = with_r(NEUTRAL_POINT)
    mixed_r_sig = mixed_r + _le32((r + k_of(mixed_r, pub) * a) % L)
    cases: list[tuple[bytes, bytes, bytes, bool, str]] = [
        (pub, msg, sig, True, "a signature made by RFC 8032 signing"),
        (pub, msg + b"\x00", sig, False, "another message"),
        (pub, msg, sig[:63] + bytes([sig[63] ^ 0x01]), False, "S changed"),
        (pub, msg, r_bytes + _le32(s + L), False, "non-canonical S (S + L; holds mod L)"),
        (pub, msg, r_bytes + _le32(s + 8 * L), False, "non-canonical S (S + 8L)"),
        (
            pub,
            msg,
            neutral_sig,
            True,
            "small-order R: the neutral point, canonically encoded, and the equation holds "
            "(libsodium refuses it by policy; RFC 8032 and OpenSSL accept)",
        ),
        (
            pub,
            msg,
            NEUTRAL_POINT + bytes(32),
            False,
            "small-order R: the neutral point, S = 0 (the equation fails)",
        ),
        (pub, msg, with_r(t8), False, "small-order R: a point of order 8"),
        (pub, msg, with_r(order2), False, "small-order R: the point of order 2"),
        (
            pub,
            msg,
            with_r(neutral_noncanonical),
            False,
            "non-canonical R: the neutral point as y = p + 1",
        ),
        (
            pub,
            msg,
            with_r(neutral_negative_zero),
            False,
            "non-canonical R: the neutral point with the sign bit set",
        ),
        (
            pub,
            msg,
            mixed_r_sig,
            False,
            "mixed-order R (the signer's R plus a point of order 8): a cofactored check "
            "would accept it",
        ),
        (
            NEUTRAL_POINT,
            msg,
            BASE_POINT + _le32(1),
            False,
            "the neutral key: R = B, S = 1 fits any message (OpenSSL accepts)",
        ),
        (t8, msg, small_key_sig, False, "a key of order 8, the equation holds (OpenSSL accepts)"),
        (
            mixed_key,
            msg,
            mixed_key_sig,
            False,
            "a mixed-order key, the equation holds (OpenSSL and libsodium accept)",
        ),
        (pub, msg, sig[:32], False, "a signature of 32 bytes"),
    ]
    return [
        {
            "kind": "signature",
            "public_key": pk.hex(),
            "message": m.hex(),
            "signature": sg.hex(),
            "valid": valid,
            "why": why,
        }
        for pk, m, sg, valid, why in cases
    ]


class FirstBidder:
    """A five-player bot for the sample transcript: everyone passes the first deal (so it is
    dealt again); in the next, the first to bid bids the ace and the others pass; the caller
    calls coins (the ace of coins) and every seat plays its first legal card."""

    deals: ClassVar[list[int]] = [0]  # shared by the five bots: the deals whose auction began

    def bid(self, view):  # type: ignore[no-untyped-def]
        if not view.auction:
            self.deals[0] += 1
        if self.deals[0] < 2 or view.auction:
            return None
        return view.legal_bids[0]

    def call(self, view):  # type: ignore[no-untyped-def]
        return Suit(0)

    def choose(self, view):  # type: ignore[no-untyped-def]
        return view.legal_plays[0]


def signed_statement_examples(game_id: bytes) -> list[Statement]:
    """One example of every statement kind (fairness.md §6), in the order of the table there."""

    def op(p: int) -> Opening:
        return Opening(p, (7 * p + 3) % 40, fixed(f"salt/{p}"))

    keys = tuple(Identity(fixed(f"seat-key/{i}")).public_key for i in range(4))
    host_key = Identity(fixed("host-key")).public_key
    seen = SeedCommit(game_id, 0, 1, fixed("context/commit"), fixed("c"))
    seen_sig = Identity(fixed("seat-key/1")).sign(seen.encode())
    bad = SeedReveal(game_id, 0, 1, fixed("context/reveal"), fixed("not the committed seed"))
    bad_sig = Identity(fixed("seat-key/1")).sign(bad.encode())
    return [
        DrawStart(
            game_id,
            4,
            1,
            1,
            host_key,
            keys,
            ("Anna", "Bruno", "Carla", "Dario"),
            seed_commitment(game_id, DRAW_HAND, HOST_PARTY, fixed("draw-host-seed")),
        ),
        DrawReveal(game_id, fixed("draw-host-seed"), (27, 10, 17, 33), (0, 2, 1, 3), 2),
        MatchStart(
            game_id,
            4,
            "hands",
            2,
            1,
            0,
            host_key,
            keys,
            ("Anna", "Bruno", "Carla", "AI strong 3"),
            ("", "", "", "strong"),
            2,
            "Osteria del Sole",
        ),
        HostCommit(game_id, 0, 2, seed_commitment(game_id, 0, HOST_PARTY, fixed("host-seed"))),
        SeedCommit(game_id, 0, 1, fixed("context/commit"), fixed("c")),
        SeedReveal(game_id, 0, 1, fixed("context/reveal"), fixed("seed")),
        DeckCommit(game_id, 0, tuple(fixed(f"k/{p}") for p in range(40))),
        Deal(game_id, 0, 1, (Opening(1, 5, fixed("s1")), Opening(3, 39, fixed("s3")))),
        Upcard(game_id, 0, op(12)),
        Play(game_id, 0, 1, fixed("context/play"), 7, 23),
        Exchange(game_id, 0, 0, 2, (op(2), op(6), op(30))),
        Takeover(game_id, 0, 3, 1, 5),
        HostReveal(
            game_id, 0, fixed("host-seed"), tuple(fixed(f"salt/{p}") for p in range(40)), (70, 50)
        ),
        Abort(game_id, 0, 1, "did not reveal its seed in time"),
        Abort(game_id, 0, HOST_PARTY, "the host stopped the hand"),
        Ack(game_id, 0, 1, fixed("chain")),
        Receipt(game_id, 0, 1, 1_767_225_600, seen.encode(), seen_sig),
        Evidence(game_id, 0, 1, bad.encode(), bad_sig),
        MatchEnd(game_id, 3, 0, (2, 1), (190, 170)),
        *blind_statement_examples(game_id),
        MatchOptions(game_id, ("signals=allowed",)),
        Signal(game_id, 0, 1, fixed("context/signal"), 5, 0x5EA1ED),
        # five players (fairness.md §13): a rank bid (the king), a point bid, a pass, the call
        BidStatement(game_id, 0, 1, fixed("context/bid"), 0, 2),
        BidStatement(game_id, 0, 3, fixed("context/bid/points"), 4, 75),
        BidStatement(game_id, 0, 4, fixed("context/bid/pass"), 5, PASS_BID),
        CallStatement(game_id, 0, 3, fixed("context/call"), 2),
        MatchOptions(game_id, ("double_all=off", "match_hands=3", "points_to_win=71")),
    ]


def signal_vectors(game_id: bytes) -> list[dict[str, Any]]:
    """Signals between partners (fairness.md §12.3): the partners' point from either side, the
    pad, and a sealed value for each signal."""
    sender, partner = fixed("signal-seat-1"), fixed("signal-seat-3")
    point = signals.partners_point(sender, Identity(partner).public_key)
    assert point == signals.partners_point(partner, Identity(sender).public_key)
    out: list[dict[str, Any]] = []
    for value, (hand, seat, index) in zip(
        signals.SignalValue,
        ((0, 1, 0), (0, 1, 5), (1, 1, 9), (2, 3, 12), (2, 3, 17), (3, 1, 38)),
        strict=True,
    ):
        pad = signals.pad(game_id, hand, seat, index, point)
        out.append(
            {
                "kind": "signal",
                "game_id": game_id.hex(),
                "sender_private_key": sender.hex(),
                "partner_private_key": partner.hex(),
                "sender_key": Identity(sender).public_key.hex(),
                "partner_key": Identity(partner).public_key.hex(),
                "point": point.hex(),
                "hand": hand,
                "seat": seat,
                "index": index,
                "pad": pad,
                "value": int(value),
                "sealed": signals.seal(value, pad),
            }
        )
    return out


def _jsonable(v: Any) -> Any:
    if isinstance(v, bytes):
        return v.hex()
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, Opening):
        return {"position": v.position, "card": v.card, "salt": v.salt.hex()}
    return v


if __name__ == "__main__":
    main()
