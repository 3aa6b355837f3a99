"""Benchmark: the blind deal's fair-play checks beside the code before them, in one run.

The checks measured: every statement binds the chain it answers, a presence call before each
hand, a proof with every lock pass and every share (Chaum-Pedersen), the result fixed by the
plays with the key reveals after it. The code before them is a git revision (``--baseline``,
default ``dd38de9``), checked out in a temporary worktree; each tree is measured in its own child
process running that tree's own code, the two trees taking turns round by round.

Per tree:

1. A 4-player blind hand's set-up over TLS on loopback (``briscola-lan host`` in a child process,
   four clients in the measuring process): from ``hand_started`` at the first client until all
   four clients hold their three cards. Target: median <= 0.25 s.
2. ``verify`` of a whole 4-player, 2-hand blind match ("points" format), median. Target: < 0.2 s.
3. The saved file of that match: bytes, records, and bytes per hand.

Run: python benchmarks/bench_fairplay.py [--baseline REV] [--rounds N] [--matches N] [--runs N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Run in a child process whose working directory is the tree measured; it uses only what both
# trees have (bench_blind.one_match, bench_net.HostProcess, bench_verify.FirstBot).
PROBE = r"""
import asyncio, json, sys, tempfile, time
from pathlib import Path
sys.path[:0] = [".", "benchmarks"]
from bench_blind import one_match
from bench_net import HostProcess
from bench_verify import FirstBot, median_ms
from briscola_lan.fairness.transcript import dumps
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.table.selfplay import counter_entropy, run_selfplay
try:  # each machine's own work, as if every party had its own process (a tree before the
    from briscola_lan.fairness.memo import keep_results  # products were kept has no switch)
    keep_results(False)
except ImportError:
    pass

matches, runs, seed = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

async def setups(work):
    host = HostProcess(work, "--players", "4", "--no-mdns", "--tables", str(matches),
                       "--deal", "blind")
    out = []
    try:
        for port in host.ports:
            out.extend((await one_match(port, host.fingerprint))[0])
    finally:
        host.stop()
    return out

with tempfile.TemporaryDirectory() as tmp:
    s = asyncio.run(setups(Path(tmp)))
opts = TableOptions.make(players=4, match_format="points")
result = run_selfplay(opts, entropy=counter_entropy(f"fairplay-{seed}"),
                      bot_factory=lambda level, seed: FirstBot(), deal="blind")
records = result.host.records
report = verify_records(records)
assert report.ok and report.deal == "blind", report.verdict
v = median_ms(lambda: verify_records(records), runs)
print(json.dumps({"setups": s, "verify_ms": v, "bytes": len(dumps(records)),
                  "records": len(records), "hands": len(report.hands)}))
"""


def probe(tree: Path, matches: int, runs: int, seed: int) -> dict[str, object]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(matches), str(runs), str(seed)],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if out.returncode != 0:
        raise RuntimeError(f"the probe failed in {tree}:\n{out.stderr}")
    result: dict[str, object] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--baseline", default="dd38de9", help="git revision of the code before")
    ap.add_argument("--rounds", type=int, default=3, help="turns per tree")
    ap.add_argument("--matches", type=int, default=2, help="matches per turn (4 hands each)")
    ap.add_argument("--runs", type=int, default=10, help="verify runs per turn")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp) / "baseline"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), args.baseline],
            check=True,
            capture_output=True,
        )
        trees = {f"before ({args.baseline})": base, "now": ROOT}
        got: dict[str, list[dict[str, object]]] = {name: [] for name in trees}
        try:
            for r in range(args.rounds):
                for name, tree in trees.items():
                    got[name].append(probe(tree, args.matches, args.runs, r))
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                check=False,
                capture_output=True,
            )
    rows = {}
    for name, results in got.items():
        setups = [t for res in results for t in res["setups"]]  # type: ignore[attr-defined]
        verify = statistics.median(float(res["verify_ms"]) for res in results)  # type: ignore[arg-type]
        first = results[0]
        rows[name] = (setups, verify, first)
    print("1. a 4-player blind hand's set-up over TLS (hand_started -> all four hold their cards)")
    for name, (setups, _, _) in rows.items():
        ms = sorted(1000 * t for t in setups)
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
        print(
            f"   {name:20} median {statistics.median(ms):7.1f} ms  p90 {p90:7.1f} ms"
            f"  ({len(ms)} hands)"
        )
    (b_setups, b_verify, b_first), (n_setups, n_verify, n_first) = rows.values()
    ratio = statistics.median(n_setups) / statistics.median(b_setups)
    print(f"   now / before: {ratio:.2f}x   (target: median <= 250 ms)")
    print("2. verify a 4-player 2-hand blind match (points format), median of the turns' medians")
    for name, (_, verify, first) in rows.items():
        print(f"   {name:20} {verify:7.1f} ms  ({first['records']} records)")
    print(f"   now / before: {n_verify / b_verify:.2f}x   (target < 200 ms)")
    print("3. the saved file of that match")
    for name, (_, _, first) in rows.items():
        size, hands = int(first["bytes"]), int(first["hands"])  # type: ignore[call-overload]
        print(f"   {name:20} {size:7d} bytes, {hands} hands: {size / hands:8.0f} bytes a hand")
    b_size, n_size = int(b_first["bytes"]), int(n_first["bytes"])  # type: ignore[call-overload]
    print(f"   now / before: {n_size / b_size:.2f}x")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
