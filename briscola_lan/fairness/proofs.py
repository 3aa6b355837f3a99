"""Zero-knowledge proofs of the blind deal, made non-interactive by Fiat–Shamir and bound to the
hand and the chain (protocol/fairness.md §11.4, §11.9).

- ``dleq``: equal discrete logarithms (Chaum–Pedersen): ``X1 = x·G1`` and ``X2 = x·G2`` for one
  secret ``x``. A complaint proves with it that the Diffie–Hellman point it reveals is the one
  its exchange key gives, so that anyone can unseal the value it complains about.
- ``lock``: a lock pass is what its committed keys give: with ``A = a·B`` and ``Y_p = b_p·B``,
  ``a·E_out[p] = b_p·E_in[p]`` for every position ``p`` (one AND-composed Schnorr proof, the
  shuffle key's part shared by all positions). A wrong lock pass is then caught when it arrives,
  and every share can be checked against ``Y_p`` by its receiver.

A proof is ``(e, z...)``: the verifier recomputes the commitments from the responses and checks
that they hash to ``e``. Nonces come from the prover's secret and the statement proved, so a
prover asked again (a restarted client) makes the same proof; a different statement gets fresh
nonces. Every challenge is a nonzero scalar.
"""

from __future__ import annotations

from collections.abc import Sequence

from nacl.bindings import crypto_core_ed25519_sub
from nacl.exceptions import RuntimeError as NaclRuntimeError

from briscola_lan.fairness.encoding import digest
from briscola_lan.fairness.group import GroupError, L, base, mult, scalar_bytes, scalar_of

Proof = tuple[bytes, ...]  # (e, z_1, ...): 32-byte little-endian scalars


def _scalar(*parts: bytes | int | str) -> int:
    """A nonzero scalar from a hash (two digests wide, so that it is uniform modulo L)."""
    wide = digest("proof-scalar", 0, *parts) + digest("proof-scalar", 1, *parts)
    return (int.from_bytes(wide, "little") % (L - 1)) + 1


def _sub(p: bytes, q: bytes) -> bytes:
    try:
        out: bytes = crypto_core_ed25519_sub(p, q)
    except (NaclRuntimeError, TypeError, ValueError) as exc:  # libsodium refuses the point
        raise GroupError(f"not a valid group element: {exc}") from exc
    return out


def _mul_or_zero(k: int, p: bytes) -> bytes:
    """``k·p``, the neutral point for ``k = 0`` (which libsodium's multiplication refuses)."""
    return mult(k, p) if k else NEUTRAL


NEUTRAL = b"\x01" + bytes(31)  # the neutral point's encoding


def _le(k: int) -> bytes:
    return scalar_bytes(k)


def _read(proof: Sequence[bytes], count: int) -> list[int] | None:
    if len(proof) != count:
        return None
    out = []
    for raw in proof:
        k = scalar_of(raw)
        if k is None:
            return None
        out.append(k)
    return out


# --- equal discrete logarithms ----------------------------------------------------------------


def dleq_prove(x: int, g1: bytes, g2: bytes, *, label: bytes, secret: bytes) -> tuple[bytes, bytes]:
    """Proof that ``x·g1`` and ``x·g2`` share the secret ``x``; ``label`` binds what it is for
    (game, hand, parties, chain), ``secret`` seeds the nonce."""
    x1, x2 = mult(x, g1), mult(x, g2)
    k = _scalar("dleq-nonce", secret, label, g1, x1, g2, x2)
    t1, t2 = mult(k, g1), mult(k, g2)
    e = _scalar("dleq", label, g1, x1, g2, x2, t1, t2)
    return _le(e), _le((k + e * x) % L)


def dleq_verify(
    g1: bytes, x1: bytes, g2: bytes, x2: bytes, proof: Sequence[bytes], *, label: bytes
) -> bool:
    got = _read(proof, 2)
    if got is None:
        return False
    e, z = got
    try:
        t1 = _sub(mult(z, g1), mult(e, x1))
        t2 = _sub(mult(z, g2), mult(e, x2))
    except GroupError:
        return False
    return _scalar("dleq", label, g1, x1, g2, x2, t1, t2) == e


# --- the lock pass ------------------------------------------------------------------------------


def lock_commitments(shuffle_key: int, locks: Sequence[int]) -> tuple[bytes, tuple[bytes, ...]]:
    """What a lock pass commits to: ``A = a·B`` and ``Y_p = b_p·B`` for every position."""
    return base(shuffle_key), tuple(base(b) for b in locks)


def _lock_challenge(  # noqa: PLR0917 (every part of the statement, in one order)
    label: bytes,
    key: bytes,
    commits: Sequence[bytes],
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    t_a: bytes,
    ts: Sequence[bytes],
    us: Sequence[bytes],
) -> int:
    return _scalar(
        "lock-proof",
        label,
        key,
        b"".join(commits),
        b"".join(inputs),
        b"".join(outputs),
        t_a,
        b"".join(ts),
        b"".join(us),
    )


def lock_prove(
    shuffle_key: int,
    locks: Sequence[int],
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    *,
    label: bytes,
    secret: bytes,
) -> Proof:
    """Proof that ``outputs[p] = (b_p / a)·inputs[p]`` for the committed ``a`` and ``b_p``."""
    a = shuffle_key
    a_inv = pow(a, -1, L)
    key, commits = lock_commitments(a, locks)
    r_a = _scalar("lock-nonce", secret, label, "a")
    rs = [_scalar("lock-nonce", secret, label, p) for p in range(len(locks))]
    t_a = base(r_a)
    ts = [base(r) for r in rs]
    # U_p = r_a·out_p − r_p·in_p = (r_a·b_p/a − r_p)·in_p: one multiplication a position
    us = [
        _mul_or_zero((r_a * b * a_inv - r) % L, inp)
        for r, b, inp in zip(rs, locks, inputs, strict=True)
    ]
    e = _lock_challenge(label, key, commits, inputs, outputs, t_a, ts, us)
    return (
        _le(e),
        _le((r_a + e * a) % L),
        *(_le((r + e * b) % L) for r, b in zip(rs, locks, strict=True)),
    )


def lock_verify(
    key: bytes,
    commits: Sequence[bytes],
    inputs: Sequence[bytes],
    outputs: Sequence[bytes],
    proof: Sequence[bytes],
    *,
    label: bytes,
) -> bool:
    """Whether ``proof`` shows ``a·outputs[p] = b_p·inputs[p]`` with ``key = a·B`` and
    ``commits[p] = b_p·B`` (the points themselves are checked valid by the caller)."""
    n = len(inputs)
    if not (len(commits) == len(outputs) == n):
        return False
    got = _read(proof, n + 2)
    if got is None:
        return False
    e, z_a, *zs = got
    try:
        t_a = _sub(base(z_a), mult(e, key))
        ts = [_sub(base(z), mult(e, y)) for z, y in zip(zs, commits, strict=True)]
        us = [
            _sub(mult(z_a, out), mult(z, inp))
            for z, inp, out in zip(zs, inputs, outputs, strict=True)
        ]
    except GroupError:
        return False
    return _lock_challenge(label, key, commits, inputs, outputs, t_a, ts, us) == e


def proof_label(game_id: bytes, hand: int, party: int, context: bytes, what: str) -> bytes:
    """What a proof is bound to: the game, the hand, the prover, the chain it was made over."""
    return digest("blind-proof", game_id, hand, party, context, what)


__all__ = [
    "Proof",
    "dleq_prove",
    "dleq_verify",
    "lock_commitments",
    "lock_prove",
    "lock_verify",
    "proof_label",
]
