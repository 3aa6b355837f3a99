"""Ed25519 with ``cryptography`` (OpenSSL) and with PyNaCl (libsodium), side by side.

    python benchmarks/bench_ed25519.py [--rounds 12] [--n 2000]

Times sign and verify of a 150-byte play statement with both libraries, in turns (A, B, A, B...)
in one process, so that a busy machine slows both alike; prints each round's median per call and
the ratio PyNaCl / cryptography. Also times the project's own ``verify_signature`` (whichever
library it uses, with its cached parsed keys) and the ``pubkey`` check of a new key. Figures go to
docs/performance.md ("Ed25519: cryptography and PyNaCl").
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import nacl.bindings
import nacl.signing
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from briscola_lan.fairness import identity, pubkey
from briscola_lan.fairness.memo import keep_results


def per_call(fn: Callable[[], object], n: int) -> float:
    """Median µs per call over ``n`` calls, timed in blocks of 50."""
    block = 50
    times = []
    for _ in range(max(1, n // block)):
        t0 = time.perf_counter()
        for _ in range(block):
            fn()
        times.append((time.perf_counter() - t0) / block)
    return statistics.median(times) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=12)
    parser.add_argument("--n", type=int, default=2000, help="calls per library per round")
    args = parser.parse_args()
    keep_results(False)  # every verdict computed: the same signature is checked again and again

    seed = os.urandom(32)
    body = os.urandom(150)
    c_priv = Ed25519PrivateKey.from_private_bytes(seed)
    pub = c_priv.public_key().public_bytes_raw()
    c_pub = Ed25519PublicKey.from_public_bytes(pub)
    n_key = nacl.signing.SigningKey(seed)
    assert bytes(n_key.verify_key) == pub
    sig = c_priv.sign(body)
    assert n_key.sign(body).signature == sig  # Ed25519 is deterministic: the same bytes
    sk64 = seed + pub  # libsodium's secret key: seed || public key
    raw_sign = nacl.bindings.crypto_sign
    raw_verify = (
        nacl.bindings.crypto_sign_verify_detached
        if hasattr(nacl.bindings, "crypto_sign_verify_detached")
        else None
    )

    def c_verify() -> None:
        c_pub.verify(sig, body)

    def n_verify_raw() -> None:
        if raw_verify is not None:
            raw_verify(sig, body, pub)
        else:
            nacl.bindings.crypto_sign_open(sig + body, pub)

    def c_sign() -> None:
        c_priv.sign(body)

    def n_sign_raw() -> None:
        raw_sign(body, sk64)

    def project_verify() -> None:
        identity.verify_signature(pub, body, sig)

    rows: dict[str, list[float]] = {
        k: []
        for k in (
            "verify cryptography",
            "verify PyNaCl",
            "sign cryptography",
            "sign PyNaCl",
            "verify, the project's verify_signature",
        )
    }
    for _ in range(args.rounds):
        rows["verify cryptography"].append(per_call(c_verify, args.n))
        rows["verify PyNaCl"].append(per_call(n_verify_raw, args.n))
        rows["sign cryptography"].append(per_call(c_sign, args.n))
        rows["sign PyNaCl"].append(per_call(n_sign_raw, args.n))
        rows["verify, the project's verify_signature"].append(per_call(project_verify, args.n))

    key_checks: dict[bool, list[float]] = {True: [], False: []}
    for _ in range(20):
        for fast in (True, False):  # libsodium's verdict, and the integer check alone
            fresh = Ed25519PrivateKey.generate().public_key().public_bytes_raw()
            pubkey._FAST = fast and nacl.bindings.has_crypto_core_ed25519
            t0 = time.perf_counter()
            pubkey.check_public_key(fresh)
            key_checks[fast].append((time.perf_counter() - t0) * 1e6)
    pubkey._FAST = nacl.bindings.has_crypto_core_ed25519

    load = os.getloadavg()
    print(
        f"Ed25519, {args.rounds} rounds in turns, {args.n} calls each, µs per call "
        f"(load average {load[0]:.2f} {load[1]:.2f}); the project verifies with "
        f"{getattr(identity, 'BACKEND', 'cryptography')}"
    )
    for name, xs in rows.items():
        print(
            f"  {name:40s} median {statistics.median(xs):7.1f}  range {min(xs):6.1f}-{max(xs):6.1f}"
        )
    for op in ("verify", "sign"):
        ratios = [
            n / c for n, c in zip(rows[f"{op} PyNaCl"], rows[f"{op} cryptography"], strict=True)
        ]
        print(
            f"  {op}: PyNaCl / cryptography per round: median {statistics.median(ratios):.2f}, "
            f"range {min(ratios):.2f}-{max(ratios):.2f}"
        )
    print(
        f"  a new key's pubkey.check_public_key, once per key: median "
        f"{statistics.median(key_checks[True]):.0f} µs with libsodium's verdict, "
        f"{statistics.median(key_checks[False]):.0f} µs by the integer check alone"
    )


if __name__ == "__main__":
    main()
