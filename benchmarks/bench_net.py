"""Network benchmarks: play latency vs a TLS echo, discovery time, host capacity, host memory.

Run inside a private network namespace (nothing leaves loopback):

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/bench_net.py'

Figures go to docs/performance.md ("Network: play latency, discovery, capacity" and "Memory").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscola_lan.fairness.memo import keep_results  # noqa: E402
from briscola_lan.net import tls, tlsio  # noqa: E402
from briscola_lan.net.discovery import find_table  # noqa: E402
from briscola_lan.net.player import play_tables  # noqa: E402
from briscola_lan.wire import codec  # noqa: E402
from briscola_lan.wire.messages import Error  # noqa: E402

LOOPBACK = ["127.0.0.1"]
HOST_ARGS: list[str] = []  # given to every host this run starts (``--no-journal``)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def fmt_ms(v: float) -> str:
    return f"{v * 1000:.3f} ms"


def env_with(config: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["XDG_CONFIG_HOME"] = str(config)
    env["XDG_DATA_HOME"] = str(config / "data")  # the hosts' saved games stay in the temp dir
    env["XDG_STATE_HOME"] = str(config / "state")  # and so do the tables' journals
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


# --- baseline: TLS echo round trip ---------------------------------------------------------------


async def echo_round_trips(work: Path, n: int, kind: str = "tlsio") -> list[float]:
    """Round trips of a 200-byte frame to an echo process, both ends on ``kind``'s TLS:
    ``tlsio`` (the transport the game uses) or ``asyncio`` (asyncio's TLS streams)."""
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "benchmarks" / "net_echo.py"), str(work / "echo"), kind],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=env_with(work),
    )
    try:
        assert proc.stdout is not None
        port = int(proc.stdout.readline())
        frame = codec.encode_frame(Error("x" * 8, "y" * 150))
        times: list[float] = []
        if kind == "asyncio":
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, ssl=tls.client_context()
            )
            for _ in range(n):
                t0 = time.perf_counter()
                writer.write(frame)
                got = 0
                while got < len(frame):
                    got += len(await reader.read(65536))
                times.append(time.perf_counter() - t0)
            writer.close()
            return times
        stream = await tlsio.open_stream("127.0.0.1", port, tls.client_context(), timeout=10)
        for _ in range(n):
            t0 = time.perf_counter()
            stream.write(frame)
            got = 0
            while got < len(frame):
                got += len(await stream.read())
            times.append(time.perf_counter() - t0)
        stream.close()
        return times
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(5)


# --- hosts in subprocesses ----------------------------------------------------------------------


class HostProcess:
    """``briscola-lan host`` in a child process; parses the ports it prints."""

    def __init__(self, work: Path, *args: str, deal: str = "classic") -> None:
        """``deal``: the tables' deal unless ``args`` say (classic: the figures before the blind
        deal are comparable; benchmarks/bench_blind.py measures the blind one beside it)."""
        if "--deal" not in args:
            args = (*args, "--deal", deal)
        args = (*args, *HOST_ARGS)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "briscola_lan.net.host_cmd", "--interfaces", "127.0.0.1", *args],
            stdout=subprocess.PIPE,
            text=True,
            env=env_with(work),
        )
        self.ports: list[int] = []
        self.fingerprint = ""
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith("ready"):
                break
            if line.startswith("table"):
                words = line.split()
                self.fingerprint = words[-1]
                where = line.split(" on ")[1].split()[0].rstrip(",")
                self.ports.append(int(where.rsplit(":", 1)[1]))
        if not self.ports:
            raise RuntimeError("the host did not start")

    def cpu_seconds(self) -> float:
        """User + system CPU time the host process has used so far."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def rss_mb(self) -> float:
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return float("nan")

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


# --- discovery -----------------------------------------------------------------------------------


async def discovery_times(work: Path, n: int) -> list[float]:
    """A new browser (its own mDNS stack) looks for a table that is already advertised.

    Tries are 1.2 s apart: a responder multicasts a record at most once a second (RFC 6762 6.),
    so a second client asking within a second of the first waits for the next answer.
    """
    name = f"bench-{uuid.uuid4().hex[:6]}"
    host = HostProcess(work, "--name", name, "--players", "2")
    try:
        await find_table(LOOPBACK, name, 10.0)  # wait until it is announced
        times = []
        for _ in range(n):
            await asyncio.sleep(1.2)
            t0 = time.perf_counter()
            await find_table(LOOPBACK, name, 5.0)
            times.append(time.perf_counter() - t0)
        return times
    finally:
        host.stop()


# --- play latency and capacity --------------------------------------------------------------------


async def play_latency(
    work: Path, matches: int, *, isolate: bool
) -> tuple[list[float], float, float, float]:
    """Latency of each card (sent -> all four clients saw it) over real TLS, the host RSS, and
    the CPU time per card of the host process and of this process (the four clients).

    One table at a time (a table hosts one match), four clients in this process. CPU per card
    covers everything in the match (lobby, seeds, deals, acknowledgements), spread over the cards.
    ``isolate``: each card is played once the previous one is with all four clients (the card's
    own latency); otherwise the next player answers at once and overlaps the card's fan-out.
    """
    from briscola_lan.net.player import play_tables

    host = HostProcess(work, "--players", "4", "--no-mdns", "--tables", str(matches))
    try:
        rss = host.rss_mb()
        lat: list[float] = []
        host0, mine0 = host.cpu_seconds(), time.process_time()
        for port in host.ports:
            lat += await play_tables(
                [("127.0.0.1", port, host.fingerprint)], level="random", isolate=isolate
            )
        n = max(1, len(lat))
        host_cpu = (host.cpu_seconds() - host0) / n
        clients_cpu = (time.process_time() - mine0) / n
        return lat, rss, host_cpu, clients_cpu
    finally:
        host.stop()


def latency_in_processes(work: Path, tables: int) -> tuple[list[float], list[float]]:
    """Each of the four clients in its own process (as on four machines): card sent -> the last
    of the four has the frame decoded, and -> the last has verified and applied it."""
    host = HostProcess(work, "--players", "4", "--no-mdns", "--tables", str(tables))
    got_lat: list[float] = []
    applied_lat: list[float] = []
    try:
        for port in host.ports:
            procs = [
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "briscola_lan.net.player",
                        str(port),
                        "--fingerprint",
                        host.fingerprint,
                        "--seat",
                        str(seat),
                    ],
                    stdout=subprocess.PIPE,
                    text=True,
                    env=env_with(work),
                )
                for seat in range(4)
            ]
            data = [
                json.loads(p.communicate(timeout=120)[0].strip().splitlines()[-1]) for p in procs
            ]
            sent: dict[str, float] = {}
            for d in data:
                sent.update(d["sent"])
            for k, t0 in sent.items():
                if all(k in d["got"] for d in data):
                    got_lat.append(max(d["got"][k] for d in data) - t0)
                    applied_lat.append(max(d["applied"][k] for d in data) - t0)
        return got_lat, applied_lat
    finally:
        host.stop()


def protocol_cost_per_card(matches: int) -> list[float]:
    """Baseline 2: the same 4-player protocol with no network: HostTable + four ClientSessions
    in one process, every message through the codec bytes. The time of one card: the player
    signs it, the host checks and relays it, all four sessions verify and apply it."""
    import random

    from briscola_lan.rules.options import TableOptions
    from briscola_lan.table.selfplay import seat_clients

    out: list[float] = []
    for m in range(matches):
        rng = random.Random(m)
        host, clients, wire = seat_clients(TableOptions.make(players=4, hands_to_win=1))
        wire.send_to_host(0, clients[0].start())
        wire.pump()
        while host.phase != "over":
            wire.pump()
            mover = next(
                (c for c in clients if c.state.view is not None and c.state.view.my_turn), None
            )
            if mover is None or host.phase != "play":
                wire.deliver(host.tick(host.now + 1.0))
                wire.pump()
                continue
            view = mover.state.view
            assert view is not None
            card = rng.choice(view.legal_plays)
            t0 = time.perf_counter()
            wire.send_to_host(clients.index(mover), mover.play(card))
            wire.pump()
            out.append(time.perf_counter() - t0)
    return out


def machine_busy_seconds() -> float:
    """CPU time all processes on the machine have used (every core), from /proc/stat."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def capacity_run(
    work: Path,
    tables: int,
    procs: int,
    light: bool = False,
    delay: float = 0.0,
    stagger: float = 0.0,
) -> dict[str, Any]:
    host = HostProcess(work, "--players", "4", "--no-mdns", "--tables", str(tables))
    try:
        chunks: list[list[int]] = [host.ports[i::procs] for i in range(procs)]
        children = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "briscola_lan.net.player",
                    "--fingerprint",
                    host.fingerprint,
                    *(["--skip-client-signature-checks"] if light else []),
                    *(["--delay", str(delay)] if delay else []),
                    *(["--stagger", str(stagger)] if stagger else []),
                    *[str(p) for p in chunk],
                ],
                stdout=subprocess.PIPE,
                text=True,
                env=env_with(work),
            )
            for chunk in chunks
            if chunk
        ]
        cpu0, t0 = host.cpu_seconds(), time.perf_counter()
        kids0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        machine0 = machine_busy_seconds()
        lat: list[float] = []
        per_table_p99: list[float] = []
        for child in children:
            out, _ = child.communicate(timeout=600)
            data = json.loads(out.strip().splitlines()[-1])
            lat.extend(data["all"])
            per_table_p99.extend(data["table_p99"])
        host_cpu, wall = host.cpu_seconds() - cpu0, time.perf_counter() - t0
        kids1 = resource.getrusage(resource.RUSAGE_CHILDREN)  # the load generators, now reaped
        load_cpu = (kids1.ru_utime + kids1.ru_stime) - (kids0.ru_utime + kids0.ru_stime)
        others = machine_busy_seconds() - machine0 - host_cpu - load_cpu
        return {
            "host_cpu_ms_per_card": 1000 * host_cpu / max(1, len(lat)),
            "host_cpu_share": host_cpu / wall,
            "load_cpu_share": load_cpu / wall,
            "others_cpu_share": max(0.0, others) / wall,
            "load_cpu_ms_per_card": 1000 * load_cpu / max(1, len(lat)),
            "cards_per_s": len(lat) / wall,
            "wall": wall,
            "tables": tables,
            "plays": len(lat),
            "median": statistics.median(lat) if lat else float("nan"),
            "p99": pct(lat, 99) if lat else float("nan"),
            "tables_ok": sum(1 for p in per_table_p99 if p < 0.050),
            "host_rss_mb": host.rss_mb(),
        }
    finally:
        host.stop()


# --- main ----------------------------------------------------------------------------------------


async def amain(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tls.load_or_create_certificate(work / "briscola-lan")
        if not args.only_capacity:
            await latency_figures(work, args)
        await capacity_figures(work, args)


async def latency_figures(work: Path, args: argparse.Namespace) -> None:
    """The TLS echo, the play latency, the in-process costs, host memory and discovery."""
    echo = await echo_round_trips(work, args.echo)
    e_med, e_p99 = statistics.median(echo), pct(echo, 99)
    print(
        f"TLS echo round trip, the game's TLS stream at both ends ({len(echo)}): "
        f"median {fmt_ms(e_med)}, p99 {fmt_ms(e_p99)}"
    )
    echo_a = await echo_round_trips(work, args.echo, "asyncio")
    a_med = statistics.median(echo_a)
    print(
        f"TLS echo round trip, asyncio TLS streams at both ends ({len(echo_a)}): median "
        f"{fmt_ms(a_med)}, p99 {fmt_ms(pct(echo_a, 99))}"
    )

    costs = protocol_cost_per_card(3)
    per_card = statistics.median(costs)
    print(
        f"baseline 2: one card through the protocol without network (host + 4 sessions in "
        f"memory, {len(costs)} cards): median {fmt_ms(per_card)}, p99 {fmt_ms(pct(costs, 99))}"
    )
    lat_b, _, _, _ = await play_latency(work, args.matches, isolate=False)
    b_med = statistics.median(lat_b)
    print(
        f"play latency back to back (the next player answers at once, {len(lat_b)} cards): "
        f"median {fmt_ms(b_med)} ({b_med / e_med:.2f}x echo), p99 {fmt_ms(pct(lat_b, 99))}"
    )
    lat, rss, host_cpu, clients_cpu = await play_latency(work, args.matches, isolate=True)
    p_med, p_99 = statistics.median(lat), pct(lat, 99)
    print(
        f"play latency, 4 clients over TLS, one card at a time ({len(lat)} cards): median "
        f"{fmt_ms(p_med)} ({p_med / e_med:.2f}x echo; the target is against the reference "
        f"relay: bench_card.py; {p_med / a_med:.2f}x the "
        f"asyncio echo), p99 {fmt_ms(p_99)} ({p_99 / e_p99:.2f}x echo p99); "
        f"{p_med / per_card:.2f}x the no-network protocol cost"
    )
    print(
        f"CPU per card over the whole match: host process {fmt_ms(host_cpu)}, the four "
        f"clients' process {fmt_ms(clients_cpu)}; load average {os.getloadavg()[0]:.2f}"
    )
    print(f"host RSS with {args.matches} idle 4-player tables: {rss:.1f} MB")
    got, applied = latency_in_processes(work, args.matches)
    for label, xs in (("frame decoded", got), ("verified+applied", applied)):
        med = statistics.median(xs)
        print(
            f"play latency, 4 client processes, until all four have it {label} "
            f"({len(xs)} cards): median {fmt_ms(med)} ({med / e_med:.2f}x echo), "
            f"p99 {fmt_ms(pct(xs, 99))}"
        )
    one = HostProcess(work, "--players", "4", "--no-mdns")
    try:
        lat1 = await play_tables([("127.0.0.1", one.ports[0], one.fingerprint)], level="random")
        print(
            f"host RSS with one 4-player table after a whole match ({len(lat1)} cards): "
            f"{one.rss_mb():.1f} MB (target < 80 MB)"
        )
    finally:
        one.stop()

    disc = await discovery_times(work, args.discovery) if args.discovery else [float("nan")]
    d_med = statistics.median(disc)
    print(
        f"discovery of an advertised table ({len(disc)} tries): median {fmt_ms(d_med)}, "
        f"p99 {fmt_ms(pct(disc, 99))} (target median < 200 ms)"
    )


async def capacity_figures(work: Path, args: argparse.Namespace) -> None:
    """Tables one host serves: flat out, and at a human pace."""
    print(
        "the host keeps no journal (--no-journal)"
        if "--no-journal" in HOST_ARGS
        else "the host keeps its journal (the default)"
    )
    if args.capacity or args.capacity_light:
        print(
            f"capacity: one host process, N tables x 4 clients on real TLS sockets, the "
            f"clients in {args.client_procs} load-generator processes playing as fast as "
            "they can, one match per table; latency = card sent -> all four clients have it"
        )
    best: dict[str, int | None] = {}
    for tables, light in [(t, False) for t in args.capacity] + [
        (t, True) for t in args.capacity_light
    ]:
        r = capacity_run(work, tables, args.client_procs, light)
        kind = (
            "light load clients (they skip their own signature checks: they are load, not "
            "players; the host checks every signature)"
            if light
            else "full clients (every check)"
        )
        ok = r["p99"] < 0.050
        if ok:
            best[kind] = max(tables, best.get(kind) or 0)
        else:
            best.setdefault(kind, None)
        print(
            f"capacity, {kind}: {r['tables']} tables: {r['plays']} cards in {r['wall']:.1f} s "
            f"({r['cards_per_s']:.0f}/s), median {fmt_ms(r['median'])}, p99 {fmt_ms(r['p99'])}"
            f" ({'under' if ok else 'over'} 50 ms), tables with p99 < 50 ms: "
            f"{r['tables_ok']}/{tables}; host CPU {r['host_cpu_ms_per_card']:.3f} ms per card, "
            f"host busy {100 * r['host_cpu_share']:.0f}% of one core; load generator "
            f"{r['load_cpu_ms_per_card']:.3f} ms per card, busy "
            f"{100 * r['load_cpu_share']:.0f}% of one core; other processes on the machine "
            f"{100 * r['others_cpu_share']:.0f}% of one core (of {os.cpu_count()} cores); "
            f"host RSS {r['host_rss_mb']:.1f} MB"
        )
    paced_best: int | None = None
    for tables, stagger in [(t, 0.0) for t in args.paced] + [
        (t, args.stagger) for t in args.paced_staggered
    ]:
        r = capacity_run(work, tables, args.client_procs, True, args.pace, stagger)
        if stagger:
            under = r["p99"] < 0.050
            paced_best = max(paced_best or 0, tables) if under else paced_best
        print(
            f"capacity at a steady pace (table starts spread over {stagger:.0f} s), light "
            f"load clients, each bot waits "
            f"{1000 * args.pace:.0f} ms before its card: {tables} tables: {r['plays']} cards "
            f"in {r['wall']:.1f} s ({r['cards_per_s']:.0f}/s), median {fmt_ms(r['median'])}, "
            f"p99 {fmt_ms(r['p99'])}, tables with p99 < 50 ms: {r['tables_ok']}/{tables}; "
            f"host CPU {r['host_cpu_ms_per_card']:.3f} ms per card, busy "
            f"{100 * r['host_cpu_share']:.0f}%; load generator busy "
            f"{100 * r['load_cpu_share']:.0f}%; other processes "
            f"{100 * r['others_cpu_share']:.0f}%; host RSS {r['host_rss_mb']:.1f} MB"
        )
    if args.paced_staggered:
        print(
            f"capacity at a human pace ({1000 * args.pace:.0f} ms a card, starts spread over "
            f"{args.stagger:.0f} s): largest N of 4-player tables with p99 < 50 ms of those "
            f"tried ({', '.join(map(str, args.paced_staggered))}): "
            f"{paced_best if paced_best is not None else 'none'}"
        )
    for kind, n in best.items():
        print(
            f"largest N with p99 < 50 ms ({kind.split(' (')[0]}): "
            f"{n if n is not None else 'none of those tried'} (a figure; the target is host "
            "CPU per card <= 0.35 ms)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--echo", type=int, default=2000)
    parser.add_argument("--matches", type=int, default=5)
    parser.add_argument("--discovery", type=int, default=10)
    parser.add_argument(
        "--capacity", type=int, nargs="*", default=[], help="table counts, full clients"
    )
    parser.add_argument(
        "--capacity-light",
        type=int,
        nargs="*",
        default=[10, 25, 50, 100],
        help="table counts, light load-generator clients",
    )
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument(
        "--only-capacity", action="store_true", help="skip the latency, memory and discovery runs"
    )
    parser.add_argument(
        "--paced", type=int, nargs="*", default=[100], help="table counts at a steady pace"
    )
    parser.add_argument("--pace", type=float, default=1.0, help="bot wait before a card (s)")
    parser.add_argument(
        "--paced-staggered",
        type=int,
        nargs="*",
        default=[100],
        help="table counts at a steady pace with the tables' starts spread out",
    )
    parser.add_argument(
        "--stagger", type=float, default=40.0, help="spread the starts over this many s"
    )
    parser.add_argument(
        "--no-journal",
        action="store_true",
        help="hosts keep no journal (briscola-lan host --no-journal), to measure its share",
    )
    args = parser.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    if args.no_journal:
        HOST_ARGS.append("--no-journal")
    asyncio.run(amain(args))


if __name__ == "__main__":
    main()
