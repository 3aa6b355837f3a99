"""Benchmark: the compact engine's hot paths against the same file at an earlier git revision.

A refactor of ``briscola_lan/ai/fast.py`` (its tables built from ``rules/`` instead of retyped)
must keep ``random_hand`` and ``FastHand.deal`` as fast as before. Both versions are loaded into
one process and timed in turns over the same decks, so that a busy machine slows both alike;
prints the per-call minimum and median of each and the ratio new/old, after checking that both
give the same hands, stock, points and playouts.

    python benchmarks/bench_fast_vs_rev.py [--rev REV] [--rounds 40]
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import briscola_lan.ai.fast as new  # noqa: E402


def load_old(rev: str) -> ModuleType:
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:briscola_lan/ai/fast.py"],
        check=True,
        capture_output=True,
    ).stdout
    path = Path(tempfile.mkdtemp()) / "old_fast.py"
    path.write_bytes(source)
    spec = importlib.util.spec_from_file_location("old_fast", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rev", default="2d59203", help="the revision to compare with")
    ap.add_argument("--rounds", type=int, default=40)
    args = ap.parse_args()
    old = load_old(args.rev)
    rng = random.Random(5)  # benchmark data only
    decks: dict[int, list[list[int]]] = {}
    for n in (2, 3, 4):
        decks[n] = []
        for _ in range(300):
            d = [c for c in range(40) if n != 3 or c != 9]
            rng.shuffle(d)
            decks[n].append(d)
        for i, d in enumerate(decks[n][:50]):
            a, b = old.FastHand.deal(d, i % n, n), new.FastHand.deal(d, i % n, n)
            assert (a.hands, a.stock, a.upcard, a.points, a.sides) == (
                b.hands,
                b.stock,
                b.upcard,
                b.points,
                b.sides,
            )
            r1, r2 = random.Random(i).random, random.Random(i).random
            assert old.random_hand(d, i % n, n, r1) == new.random_hand(d, i % n, n, r2)

    def run(mod: ModuleType, n: int, deal: bool) -> float:
        r = random.Random(1).random
        t = time.perf_counter()
        for i, d in enumerate(decks[n]):
            if deal:
                mod.FastHand.deal(d, i % n, n)
            else:
                mod.random_hand(d, i % n, n, r)
        return (time.perf_counter() - t) * 1e6 / len(decks[n])

    print(f"compact engine: this tree against {args.rev}, µs per call (min / median)")
    for what, deal in (("random_hand", False), ("FastHand.deal", True)):
        for n in (2, 3, 4):
            o: list[float] = []
            w: list[float] = []
            for _ in range(args.rounds):
                o.append(run(old, n, deal))
                w.append(run(new, n, deal))
            o.sort()
            w.sort()
            mid = args.rounds // 2
            print(
                f"{what:14} {n}p  old {o[0]:6.2f} / {o[mid]:6.2f}   new {w[0]:6.2f} / {w[mid]:6.2f}"
                f"   ratio new/old {w[0] / o[0]:.3f} (min), {w[mid] / o[mid]:.3f} (median)"
            )


if __name__ == "__main__":
    main()
