"""An honest 4-player game's start time while a LAN neighbour attacks the host, vs without.

The attacks: 70 connections that never say hello and ping every 4 s; 70 that
trickle one byte a second; both at once. Each attacker connection is reopened as soon as the
host drops it. And a flood: one spectator the host has welcomed (a proven hello, no seat) that
sends pings and requests for a seat that does not exist as fast as the host reads them. The
host is the real ``briscola-lan host`` with its default limits (hello deadline 5 s), the
attackers run in a process of their own from other loopback addresses, and
four network bots connect from 127.0.0.1. The start time runs from the first bot's connect to
the moment all four hold their first three cards; the game is then played to its end.

Run inside a private network namespace (nothing leaves loopback):

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/bench_attack.py'

Figures go to docs/performance.md ("A hostile neighbour").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import signal
import socket
import ssl
import statistics
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscola_lan.net import tls, tlsio  # noqa: E402
from briscola_lan.net.client import ConnectError, TableClient, Target  # noqa: E402
from briscola_lan.net.player import auto_play, connect, make_chooser  # noqa: E402
from briscola_lan.wire import codec  # noqa: E402
from briscola_lan.wire.messages import Ping, TakeSeat  # noqa: E402

ATTACK_LIMIT = 600.0  # seconds: an attacker process stops by itself after this at the latest
ATTACKS = {  # name -> (kind, connections) per attacker process
    "none": [],
    "70 pinging every 4 s": [("ping", 70)],
    "70 trickling 1 byte/s": [("trickle", 70)],
    "both (140)": [("ping", 70), ("trickle", 70)],
    "1 welcomed, flooding": [("flood", 1)],
}
SHORT = dict(zip(("none", "ping", "trickle", "both", "flood"), ATTACKS, strict=True))
SOURCES = {"ping": "127.0.0.2", "trickle": "127.0.0.3"}  # the flood comes from 127.0.0.1
HOST_ARGS = ["--name", "bench", "--players", "4", "--hands-to-win", "1"]
HOST_ARGS += ["--interfaces", "127.0.0.1", "--no-mdns", "--one-match"]


# --- the attacker process -------------------------------------------------------------------------


async def _open(port: int, source: str, ctx: ssl.SSLContext) -> tlsio.TLSStream:
    """A TLS connection from ``source`` (the project's own light transport: a lean attacker)."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        raw.bind((source, 0))
        raw.setblocking(False)
        await asyncio.get_running_loop().sock_connect(raw, ("127.0.0.1", port))
        sock = ctx.wrap_socket(raw, do_handshake_on_connect=False)
    except BaseException:
        raw.close()
        raise
    try:
        async with asyncio.timeout(10):
            await tlsio.handshake(sock)
    except BaseException:
        sock.close()
        raise
    return tlsio.TLSStream(sock)


async def _flood(port: int, stats: dict[str, int], first: asyncio.Event) -> None:
    """A spectator the host has welcomed (a proven hello, no seat) sends cheap messages (pings,
    seats that do not exist) as fast as the host reads them, reading every answer."""
    stats["tried"] = stats["slots"]
    first.set()
    n = 0
    while True:
        try:
            client = await connect(Target("127.0.0.1", port, None, None), "flood")
        except ConnectError:
            stats["refused"] += 1
            await asyncio.sleep(0.1)
            continue
        stats["opened"] += 1
        client.reconnect = False
        await client.wait_for(lambda c=client: bool(c.session.state.seats), 10)
        conn = client.conn
        assert conn is not None
        while not conn.closed:
            for _ in range(50):
                n += 1
                conn.send(Ping(n) if n % 2 else TakeSeat(99))
            await asyncio.sleep(0)
            while conn.stream.buffered_out() > 65536 and not conn.closed:
                await asyncio.sleep(0.0005)  # as fast as the host takes them, no faster
        stats["dropped"] += 1
        await client.close()


async def _attacker_slot(kind: str, port: int, stats: dict[str, int], first: asyncio.Event) -> None:
    if kind == "flood":
        await _flood(port, stats, first)
        return
    ctx = tls.client_context()
    tried = False
    while True:
        try:
            stream = await _open(port, SOURCES[kind], ctx)
        except (OSError, ssl.SSLError, TimeoutError):
            stats["refused"] += 1
            stream = None
        if not tried:
            tried = True
            stats["tried"] += 1
            if stats["tried"] == stats["slots"]:
                first.set()
        if stream is not None:  # reopened as soon as the host drops it
            stats["opened"] += 1
            await _hold(kind, stream)
            stats["dropped"] += 1


async def _hold(kind: str, stream: tlsio.TLSStream) -> None:
    """Keep the connection busy without ever saying hello, until the host closes it."""

    async def drain() -> None:
        with contextlib.suppress(OSError, ssl.SSLError):
            while await stream.read():
                pass

    closed = asyncio.create_task(drain())
    n = 0
    try:
        if kind == "ping":
            while not closed.done():
                n += 1
                stream.write(codec.encode_frame(Ping(n)))
                await asyncio.wait([closed], timeout=4.0)
        else:
            frame = struct.pack(">I", 60_000) + bytes(60_000)
            while not closed.done() and n < len(frame):
                stream.write(frame[n : n + 1])
                n += 1
                await asyncio.wait([closed], timeout=1.0)
    finally:
        closed.cancel()
        stream.abort()


async def attacker_main(port: int, plan: list[tuple[str, int]]) -> None:
    stats = {"slots": sum(n for _, n in plan), "tried": 0, "opened": 0, "refused": 0, "dropped": 0}
    first = asyncio.Event()
    tasks = [
        asyncio.create_task(_attacker_slot(kind, port, stats, first))
        for kind, n in plan
        for _ in range(n)
    ]
    await first.wait()
    print("ready", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    parent, until = os.getppid(), time.monotonic() + ATTACK_LIMIT
    # Bounded in time, and gone with the benchmark: never an attacker left running on its own.
    while not stop.is_set() and os.getppid() == parent and time.monotonic() < until:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)
    print(
        f"opened {stats['opened']} refused-in-handshake {stats['refused']} "
        f"dropped {stats['dropped']}",
        flush=True,
    )
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


# --- the benchmark --------------------------------------------------------------------------------


def _env(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = str(work / "config")
    env["XDG_DATA_HOME"] = str(work / "data")
    env["XDG_STATE_HOME"] = str(work / "state")  # the tables' journals
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def start_host(work: Path) -> tuple[subprocess.Popen[str], Target]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "briscola_lan", "host", *HOST_ARGS],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=_env(work),
    )
    assert proc.stdout is not None
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("ready"):
            table = next(x for x in lines if x.startswith("table "))
            where = table.split(" on ")[1].split()[0].rstrip(",")
            host, _, port = where.rpartition(":")
            return proc, Target(host, int(port), None, table.split()[-1])
    raise SystemExit("the host did not start:\n" + "".join(lines))


def stop(proc: subprocess.Popen[str]) -> str:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
    try:
        out, _ = proc.communicate(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, _ = proc.communicate()
    return out or ""


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _holds_first_cards(client: TableClient) -> bool:
    view = client.state.view
    return client.state.phase == "playing" and view is not None and len(view.hand) == 3


async def honest_game(target: Target, timeout: float) -> tuple[float, float, int]:
    """Start time, whole game time and connection retries of four bots over TLS."""
    t0 = time.perf_counter()
    retries = 0

    async def one(i: int) -> TableClient:
        nonlocal retries
        while True:
            try:
                return await connect(target, f"p{i}")
            except ConnectError:  # as a person would: try again
                retries += 1
                await asyncio.sleep(0.5)

    connecting = [asyncio.create_task(one(i)) for i in range(4)]
    done, _ = await asyncio.wait(connecting, timeout=timeout)
    if len(done) < 4:  # the host is locked: not even a TLS connection that lasts
        for t in connecting:
            t.cancel()
        got = await asyncio.gather(*connecting, return_exceptions=True)
        for c in got:
            if isinstance(c, TableClient):
                await c.close()
        return math.inf, math.inf, retries
    clients = [t.result() for t in connecting]
    plays = [
        asyncio.create_task(auto_play(c, make_chooser("random", i), seat=i, timeout=timeout))
        for i, c in enumerate(clients)
    ]
    try:
        ok = await asyncio.gather(
            *(c.wait_for(lambda c=c: _holds_first_cards(c), timeout) for c in clients)
        )
        started = time.perf_counter() - t0
        retries += sum(c.reconnects for c in clients)
        if not all(ok):
            return math.inf, math.inf, retries
        await asyncio.gather(*plays)
        whole = time.perf_counter() - t0
    finally:
        for t in plays:
            t.cancel()
        await asyncio.gather(*plays, return_exceptions=True)
        for c in clients:
            await c.close()
    return started, whole, retries


async def run(runs: int, warmup: float, attacks: list[str], timeout: float, pin: bool) -> None:
    where = (
        "host and players on CPU 0, the attacker on CPU 1 (as another machine)"
        if pin
        else "host, players and attacker sharing every CPU"
    )
    print(f"{runs} games per attack, host defaults (hello deadline 5 s), attackers reconnect;")
    print(f"{where}")
    if pin:  # the host child inherits it
        os.sched_setaffinity(0, {0})
    results: dict[str, list[tuple[float, float, int]]] = {}
    busy: dict[str, list[float]] = {}  # host CPU while attacked, fraction of one core
    with tempfile.TemporaryDirectory() as tmp:  # untimed: imports, first handshakes, caches
        host, target = start_host(Path(tmp))
        try:
            await honest_game(target, timeout)
        finally:
            stop(host)
    for r in range(runs):
        for name in attacks:  # interleaved: the machine's load hits all alike
            plan = ATTACKS[name]
            with tempfile.TemporaryDirectory() as tmp:
                host, target = start_host(Path(tmp))
                attacker = None
                try:
                    if plan:
                        spec = ",".join(f"{k}:{n}" for k, n in plan)
                        attacker = subprocess.Popen(
                            [sys.executable, __file__, "--attacker", str(target.port), spec],
                            stdout=subprocess.PIPE,
                            text=True,
                            env=_env(Path(tmp)),
                        )
                        assert attacker.stdout is not None
                        if pin:
                            os.sched_setaffinity(attacker.pid, {1})
                        if attacker.stdout.readline().strip() != "ready":
                            raise SystemExit("the attacker did not start")
                    attack_from = time.perf_counter()
                    cpu0 = cpu_seconds(host.pid)
                    await asyncio.sleep(warmup)  # the attack is in full swing
                    host_busy = (cpu_seconds(host.pid) - cpu0) / warmup
                    figures = await honest_game(target, timeout)
                finally:
                    attack_out = stop(attacker) if attacker is not None else ""
                    attack_time = time.perf_counter() - attack_from
                    stop(host)
                results.setdefault(name, []).append(figures)
                busy.setdefault(name, []).append(host_busy)
                rate = ""
                if attack_out:
                    counts = attack_out.split()
                    tries = int(counts[1]) + int(counts[3])
                    rate = f"  attacker: {tries / attack_time:5.0f} connections/s"
                print(
                    f"  run {r + 1} {name:24} start {figures[0]:6.3f} s  whole game "
                    f"{figures[1]:5.2f} s  retries {figures[2]}  host busy {host_busy:4.0%}{rate}",
                    flush=True,
                )
    base = statistics.median(s for s, _, _ in results.get("none", [(1.0, 0, 0)]))
    print()
    print(
        f"{'attack':24} {'start median':>12} {'range':>17} {'ratio':>6} {'game median':>11} "
        f"{'host busy':>9}"
    )
    for name, figs in results.items():
        starts = [s for s, _, _ in figs]
        med = statistics.median(starts)
        print(
            f"{name:24} {med:10.3f} s {min(starts):7.3f}-{max(starts):.3f} s "
            f"{med / base:5.2f}x {statistics.median(w for _, w, _ in figs):9.2f} s "
            f"{statistics.median(busy[name]):9.0%}"
        )
    print(
        f"target: every attack within 2x the start time without attackers (inf: no start "
        f"within {timeout:g} s)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="games per attack")
    parser.add_argument(
        "--warmup", type=float, default=6.0, help="seconds of attack before the bots connect"
    )
    parser.add_argument(
        "--attacks",
        default="none,ping,trickle,both,flood",
        help="which of none,ping,trickle,both,flood",
    )
    parser.add_argument("--timeout", type=float, default=300.0, help="give a game up after this")
    parser.add_argument(
        "--no-pin",
        dest="pin",
        action="store_false",
        help="let the attacker share the CPUs with the host and players (default: its own CPU)",
    )
    parser.add_argument(
        "--attacker", nargs=2, metavar=("PORT", "KIND:N,..."), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.attacker:
        port, spec = args.attacker
        plan = [(k, int(n)) for k, n in (item.split(":") for item in spec.split(","))]
        asyncio.run(attacker_main(int(port), plan))
        return
    attacks = [SHORT[a] for a in args.attacks.split(",")]
    pin = args.pin and len(os.sched_getaffinity(0)) >= 2
    asyncio.run(run(args.runs, args.warmup, attacks, args.timeout, pin))


if __name__ == "__main__":
    main()
