"""CPU cost of ``briscola-lan --help`` and ``briscola-lan tables --help``, as ratios to the bare
interpreter and to ``import argparse``, all measured in the same run (median of N processes).

Run: ``python benchmarks/bench_cli.py [N]``. CPU time (user + system) of each child process is
read with ``resource.getrusage(RUSAGE_CHILDREN)``, so it does not depend on how busy the machine
is as much as wall time does. The last column counts the project modules each one imports.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CASES: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "python -c 'import argparse'": ["-c", "import argparse"],
    "briscola-lan --help": ["-m", "briscola_lan", "--help"],
    "briscola-lan tables --help": ["-m", "briscola_lan", "tables", "--help"],
    "briscola-lan bot --help": ["-m", "briscola_lan", "bot", "--help"],
}
COUNT = (
    "import runpy, sys, io, contextlib\n"
    "sys.argv = ['briscola-lan', *sys.argv[1:]]\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    try:\n"
    "        runpy.run_module('briscola_lan', run_name='__main__')\n"
    "    except SystemExit:\n"
    "        pass\n"
    "print(sum(1 for m in sys.modules if m.startswith('briscola_lan')))\n"
)


def cpu_seconds(args: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, *args], env=env, stdout=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def project_modules(args: list[str], env: dict[str, str]) -> str:
    if args[:2] != ["-m", "briscola_lan"]:
        return "-"
    out = subprocess.run(
        [sys.executable, "-c", COUNT, *args[2:]],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return out.stdout.strip() or "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("rounds", nargs="?", type=int, default=10, help="processes per case")
    rounds = parser.parse_args().rounds
    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1")
    samples: dict[str, list[float]] = {name: [] for name in CASES}
    for args in CASES.values():  # warm the bytecode and file caches once
        cpu_seconds(args, env)
    for _ in range(rounds):  # interleaved, so that a busy spell hits every case alike
        for name, args in CASES.items():
            samples[name].append(cpu_seconds(args, env))
    base = statistics.median(samples["python -c pass"])
    argp = statistics.median(samples["python -c 'import argparse'"])
    print(f"CPU time (user+system), median of {rounds}, {sys.version.split()[0]}")
    print(f"{'command':30} {'ms':>7} {'x pass':>7} {'x argparse':>10} {'modules':>8}")
    for name, args in CASES.items():
        med = statistics.median(samples[name])
        print(
            f"{name:30} {med * 1000:7.1f} {med / base:7.2f} {med / argp:10.2f} "
            f"{project_modules(args, env):>8}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
