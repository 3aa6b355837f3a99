"""Play latency against the reference relay, in turns in the same run.

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/bench_card.py --rounds 8'

A card's clock starts just before the player writes it and stops when the fourth client has it:

- **the project**: a ``briscola-lan host`` process, four ``TableClient``s in this process playing
  one 4-player match per round, one card at a time (a bot plays once the previous card is with
  all four: ``play_tables(isolate=True)``); "has it" = checked and applied by the client session;
- **the reference relay** (``benchmarks/ref_relay.py``): a process that decodes the frame, checks
  one Ed25519 signature, encodes one message and writes it to four TLS connections on the
  project's transport; four clients in this process, each reads and decodes it. Twice: with the
  project's own verifier, and with OpenSSL (the relay the target was first measured against);
- a TLS echo round trip (``net_echo.py``, the project's transport at both ends), for reference.

Each round runs every kind once (relay, relay with OpenSSL, project, echo), so that a busy
machine slows all of them alike; the figure is each round's ratio of medians, then the median and
range of those ratios over the rounds. Also printed: the host's and the relay's CPU per card, and
this process's (the four clients'). Figures go to docs/performance.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_net import HostProcess, echo_round_trips, env_with  # noqa: E402

import briscola_lan  # noqa: E402
from briscola_lan.fairness.identity import Identity  # noqa: E402
from briscola_lan.fairness.memo import keep_results  # noqa: E402
from briscola_lan.fairness.statements import Play  # noqa: E402
from briscola_lan.net import tls, tlsio  # noqa: E402
from briscola_lan.net.player import play_tables  # noqa: E402
from briscola_lan.wire import codec  # noqa: E402
from briscola_lan.wire.messages import PROTOCOL_VERSION, CardPlayed, Hello, PlayCard  # noqa: E402


def proc_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Relay:
    """``ref_relay.py`` in a child process."""

    def __init__(self, work: Path, verifier: str) -> None:
        self.proc = subprocess.Popen(
            [
                sys.executable,
                str(ROOT / "benchmarks" / "ref_relay.py"),
                str(work / "relay"),
                "--verifier",
                verifier,
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env_with(work),
        )
        assert self.proc.stdout is not None
        self.port = int(self.proc.stdout.readline())
        pin(self.proc.pid)

    def stop(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(5)


async def relay_cards(relay: Relay, cards: int) -> tuple[list[float], float, float]:
    """``cards`` cards through the relay, one at a time, the four players in turn: latencies,
    the relay's CPU per card and this process's."""
    ids = [Identity.generate() for _ in range(4)]
    streams = [
        await tlsio.open_stream("127.0.0.1", relay.port, tls.client_context(), timeout=10)
        for _ in ids
    ]
    for i, (stream, ident) in enumerate(zip(streams, ids, strict=True)):
        stream.write(codec.encode_frame(Hello(PROTOCOL_VERSION, f"p{i}", ident.public_key)))
    game = os.urandom(16)
    plays = []
    for n in range(cards):
        body = Play(game, 0, n % 4, bytes(32), n, n % 40).encode()
        plays.append(codec.encode_frame(PlayCard(body, ids[n % 4].sign(body))))
    seen: dict[bytes, int] = {}
    sent: dict[bytes, float] = {}
    lat: list[float] = []
    done = asyncio.Event()

    async def reader(stream: tlsio.TLSStream) -> None:
        decoder = codec.FrameDecoder()
        while data := await stream.read():
            for msg in decoder.feed(data):
                if type(msg) is CardPlayed:
                    k = seen[msg.body] = seen.get(msg.body, 0) + 1
                    if k == 4:
                        lat.append(time.perf_counter() - sent.pop(msg.body))
                        done.set()

    tasks = [asyncio.create_task(reader(s)) for s in streams]
    await asyncio.sleep(0.05)  # every hello is in
    cpu0, mine0 = proc_cpu(relay.proc.pid), time.process_time()
    for n, frame in enumerate(plays):
        done.clear()
        body = codec.decode_message(frame[4:]).body  # type: ignore[union-attr]
        sent[body] = time.perf_counter()
        streams[n % 4].write(frame)
        await asyncio.wait_for(done.wait(), 5)
    relay_cpu = (proc_cpu(relay.proc.pid) - cpu0) / cards
    mine = (time.process_time() - mine0) / cards
    for s in streams:
        s.close()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return lat, relay_cpu, mine


PIN: set[int] | None = None  # --pin: the CPU of the host and the relay (this process: the other)


def pin(pid: int) -> None:
    if PIN is not None:
        os.sched_setaffinity(pid, PIN)


DEAL = "classic"  # the project's deal (--deal)
HOST_EXTRA: tuple[str, ...] = ()  # --no-journal: the host without its journal


async def project_cards(work: Path) -> tuple[list[float], float, float]:
    """One 4-player match, one card at a time: latencies, host CPU per card (everything in the
    match, spread over the cards), and this process's (the four clients)."""
    host = HostProcess(work, "--players", "4", "--no-mdns", *HOST_EXTRA, deal=DEAL)
    pin(host.proc.pid)
    try:
        cpu0, mine0 = host.cpu_seconds(), time.process_time()
        lat = await play_tables(
            [("127.0.0.1", host.ports[0], host.fingerprint)], level="random", isolate=True
        )
        n = max(1, len(lat))
        return lat, (host.cpu_seconds() - cpu0) / n, (time.process_time() - mine0) / n
    finally:
        host.stop()


def ms(v: float) -> str:
    return f"{v * 1000:.3f}"


def span(xs: list[float], scale: float = 1000.0, fmt: str = ".3f") -> str:
    return (
        f"{statistics.median(xs) * scale:{fmt}} ({min(xs) * scale:{fmt}}-{max(xs) * scale:{fmt}})"
    )


async def amain(args: argparse.Namespace) -> None:
    global PIN
    if args.pin:  # as if on two machines: the clients on CPU 0, the host (or relay) on CPU 1
        PIN = {1}
        os.sched_setaffinity(0, {0})
    print(
        f"code: {Path(briscola_lan.__file__).parent}; load average {os.getloadavg()}; "
        f"{'pinned: clients on CPU 0, host and relay on CPU 1' if args.pin else 'not pinned'}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        tls.load_or_create_certificate(work / "briscola-lan")
        relay = Relay(work, "project")
        relay_o = Relay(work, "openssl")
        rows: dict[str, list[float]] = {
            k: []
            for k in (
                "echo",
                "relay",
                "relay_o",
                "card",
                "ratio",
                "ratio_o",
                "ratio_echo",
                "host_cpu",
                "relay_cpu",
                "clients_cpu",
                "relay_clients_cpu",
            )
        }
        try:
            for r in range(args.rounds):
                echo = statistics.median(await echo_round_trips(work, args.echo))
                lat_r, relay_cpu, relay_mine = await relay_cards(relay, args.cards)
                lat_o, _, _ = await relay_cards(relay_o, args.cards)
                lat_p, host_cpu, mine = await project_cards(work)
                med_r, med_o, med_p = map(statistics.median, (lat_r, lat_o, lat_p))
                for k, v in (
                    ("echo", echo),
                    ("relay", med_r),
                    ("relay_o", med_o),
                    ("card", med_p),
                    ("ratio", med_p / med_r),
                    ("ratio_o", med_p / med_o),
                    ("ratio_echo", med_p / echo),
                    ("host_cpu", host_cpu),
                    ("relay_cpu", relay_cpu),
                    ("clients_cpu", mine),
                    ("relay_clients_cpu", relay_mine),
                ):
                    rows[k].append(v)
                print(
                    f"round {r + 1}: echo {ms(echo)} ms; relay {ms(med_r)} ms (OpenSSL relay "
                    f"{ms(med_o)}); project card {ms(med_p)} ms ({len(lat_p)} cards) = "
                    f"{med_p / med_r:.2f}x the relay ({med_p / med_o:.2f}x the OpenSSL relay, "
                    f"{med_p / echo:.1f}x the echo); CPU per card: host {ms(host_cpu)} ms, "
                    f"relay {ms(relay_cpu)} ms, four clients {ms(mine)} ms (relay's clients "
                    f"{ms(relay_mine)} ms); load {os.getloadavg()[0]:.2f}",
                    flush=True,
                )
        finally:
            relay.stop()
            relay_o.stop()
        print(f"\n{args.rounds} rounds, median (range) of the rounds' medians:")
        print(f"  TLS echo round trip            {span(rows['echo'])} ms")
        print(f"  reference relay                {span(rows['relay'])} ms")
        print(f"  reference relay, OpenSSL       {span(rows['relay_o'])} ms")
        print(f"  project card, one at a time    {span(rows['card'])} ms")
        print(f"  ratio to the relay             {span(rows['ratio'], 1, '.2f')} (target <= 1.3)")
        print(f"  ratio to the OpenSSL relay     {span(rows['ratio_o'], 1, '.2f')}")
        print(f"  ratio to the echo              {span(rows['ratio_echo'], 1, '.2f')}")
        print(f"  host CPU per card (match)      {span(rows['host_cpu'])} ms")
        print(f"  relay CPU per card             {span(rows['relay_cpu'])} ms")
        print(f"  four clients' CPU per card     {span(rows['clients_cpu'])} ms")
        print(f"  relay's clients, CPU per card  {span(rows['relay_clients_cpu'])} ms")
        print(f"load average at the end {os.getloadavg()}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--cards", type=int, default=120, help="relay cards per round")
    parser.add_argument("--echo", type=int, default=500, help="echo round trips per round")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="clients on CPU 0, the host and the relay on CPU 1 (as on two machines)",
    )
    parser.add_argument(
        "--deal", choices=("classic", "blind"), default="classic", help="the project's deal"
    )
    parser.add_argument(
        "--no-journal",
        action="store_true",
        help="the host without its journal (each card then waits for no write, and is relayed "
        "before the host signs what follows it)",
    )
    args = parser.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    global DEAL, HOST_EXTRA
    DEAL = args.deal
    HOST_EXTRA = ("--no-journal",) if args.no_journal else ()
    asyncio.run(amain(args))


if __name__ == "__main__":
    main()
