"""Benchmark: the blind deal beside the classic deal, measured in the same run.

1. The arithmetic of one party (pure): its shuffle and lock passes, one card opened, the
   re-check of its passes and keys at the reveal; and one scalar multiplication as the unit.
   Every result is computed afresh (``memo.keep_results(False)``: each client measured as if
   on its own machine), but one line: the shuffle pass again with the products kept, as a party
   re-checks its own pass at the reveal.
2. A 4-player hand's set-up over TLS on loopback (``briscola-lan host`` in a child process, four
   clients in this process on this 2-core machine): from ``hand_started`` at the first client to
   the moment all four clients hold their three cards. Blind: four parties each shuffle and lock
   in turn, then the shares; classic: seed commit and reveal, then the host's deal. Target: blind
   median <= 0.25 s.
3. One card, played until all four clients have checked and applied it (each card played once
   the previous one is everywhere). Target: blind <= 1.5x classic.
4. Verifying a whole 4-player, 2-hand match ("points" format) offline. Target: blind < 0.2 s.

Run: python benchmarks/bench_blind.py [--matches N] [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from briscola_lan.fairness import blind
from briscola_lan.fairness.group import CARD_POINTS, mult
from briscola_lan.fairness.memo import keep_results
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.table.selfplay import counter_entropy, run_selfplay

sys.path.insert(0, str(Path(__file__).parent))
from bench_net import HostProcess, fmt_ms, pct
from bench_verify import FirstBot, median_ms

# --- 1. the arithmetic ---------------------------------------------------------------------------


def arithmetic(runs: int) -> None:
    gid, size = bytes(16), 40
    keys = blind.derive_keys(gid, 0, 0, os.urandom(32), size)
    deck = blind.pack_points(range(40))
    shuffled = blind.shuffle_pass(keys, deck)
    locked = blind.lock_pass(keys, shuffled)
    unit = median_ms(lambda: mult(12345, CARD_POINTS[0]), runs * 20)
    derive = median_ms(lambda: blind.derive_keys(gid, 0, 0, os.urandom(32), size), runs)
    shuffle = median_ms(lambda: blind.shuffle_pass(keys, deck), runs)
    lock = median_ms(lambda: blind.lock_pass(keys, shuffled), runs)
    beta = keys.lock(5)
    open_one = median_ms(lambda: blind.open_card(locked[5], beta), runs * 10)
    print("1. one party's arithmetic (pure, median)")
    rows = [
        ("scalar multiplication (the unit)", unit),
        ("derive its keys from its secret", derive),
        ("shuffle pass (40 points)", shuffle),
        ("lock pass (40 points)", lock),
        ("open one card", open_one),
    ]
    for label, ms in rows:
        print(f"   {label:36} {ms:8.3f} ms  ({ms / unit:6.1f} units)")
    keep_results(True)  # as a party re-checks its own pass at the reveal, in one process
    blind.shuffle_pass(keys, deck)
    again = median_ms(lambda: blind.shuffle_pass(keys, deck), runs)
    keep_results(False)
    label = "the shuffle pass again, products kept"
    print(f"   {label:36} {again:8.3f} ms  ({shuffle / again:6.1f}x faster than computed afresh)")


# --- 2 and 3. over the network -------------------------------------------------------------------


async def one_match(port: int, fingerprint: str) -> tuple[list[float], list[float], list[float]]:
    """Four clients play one match: hand set-up times, card latencies (isolated) until all four
    clients and until the first of them applied the card."""
    from briscola_lan.net.client import Target
    from briscola_lan.net.player import auto_play, connect, make_chooser
    from briscola_lan.wire.messages import CardPlayed, HandStarted, PlayCard

    target = Target("127.0.0.1", port, None, fingerprint)
    clients = [await connect(target, f"bench{i}") for i in range(4)]
    started: dict[int, float] = {}
    ready: dict[int, dict[int, float]] = {}
    sent: dict[bytes, float] = {}
    seen: dict[bytes, int] = {}
    cards: list[float] = []
    firsts: list[float] = []
    everywhere = asyncio.Event()
    everywhere.set()

    def hooks(i: int, c: Any) -> None:
        def on_message(message: Any) -> None:
            st = c.session.state
            if type(message) is HandStarted:
                started.setdefault(st.hand_number, time.perf_counter())
            if type(message) is CardPlayed:
                n = seen[message.body] = seen.get(message.body, 0) + 1
                if n == 1 and message.body in sent:
                    firsts.append(time.perf_counter() - sent[message.body])
                if n == 4 and message.body in sent:
                    cards.append(time.perf_counter() - sent.pop(message.body))
                    everywhere.set()
            view = st.view
            if view is not None and len(view.hand) == 3 and not view.tricks and not view.trick:
                ready.setdefault(st.hand_number, {}).setdefault(i, time.perf_counter())

        def on_send(message: Any) -> None:
            if type(message) is PlayCard:
                everywhere.clear()
                sent[message.body] = time.perf_counter()

        c.on_message = on_message
        c.before_send = on_send

    for i, c in enumerate(clients):
        hooks(i, c)

    async def gate() -> None:
        await everywhere.wait()

    try:
        await asyncio.gather(
            *(
                auto_play(c, make_chooser("random", i), seat=i, gate=gate)
                for i, c in enumerate(clients)
            )
        )
    finally:
        for c in clients:
            await c.close()
    setups = [max(r.values()) - started[h] for h, r in ready.items() if len(r) == 4]
    return setups, cards, firsts


async def network(
    work: Path, matches: int
) -> dict[str, tuple[list[float], list[float], list[float]]]:
    out: dict[str, tuple[list[float], list[float], list[float]]] = {}
    for round_ in range(2):  # interleaved: classic, blind, classic, blind
        for deal in ("classic", "blind"):
            host = HostProcess(
                work, "--players", "4", "--no-mdns", "--tables", str(matches), "--deal", deal
            )
            try:
                for port in host.ports:
                    s, c, f = await one_match(port, host.fingerprint)
                    prev = out.setdefault(deal, ([], [], []))
                    prev[0].extend(s)
                    prev[1].extend(c)
                    prev[2].extend(f)
            finally:
                host.stop()
        del round_
    return out


# --- 4. verify -----------------------------------------------------------------------------------


def verify_times(runs: int) -> dict[str, float]:
    out = {}
    opts = TableOptions.make(players=4, match_format="points")
    for deal in ("classic", "blind"):
        result = run_selfplay(
            opts,
            entropy=counter_entropy(f"bench-{deal}"),
            bot_factory=lambda level, seed: FirstBot(),
            deal=deal,
        )
        records = result.host.records
        rep = verify_records(records)
        assert rep.ok and rep.deal == deal, (rep.verdict, rep.deal)
        out[deal] = median_ms(lambda r=records: verify_records(r), runs)
        out[f"{deal}-records"] = len(records)
        out[f"{deal}-hands"] = len(rep.hands)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--matches", type=int, default=3, help="matches per deal and round")
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    arithmetic(args.runs)

    with tempfile.TemporaryDirectory() as tmp:
        results = asyncio.run(network(Path(tmp), args.matches))
    print("2. a 4-player hand's set-up over TLS (hand_started -> all four hold their cards)")
    for deal in ("classic", "blind"):
        s = results[deal][0]
        print(
            f"   {deal:8} median {fmt_ms(statistics.median(s))}  p90 {fmt_ms(pct(s, 90))}"
            f"  ({len(s)} hands)"
        )
    ratio = statistics.median(results["blind"][0]) / statistics.median(results["classic"][0])
    print(f"   blind / classic: {ratio:.2f}x   (target: blind median <= 250 ms)")
    print("3. one card -> all four clients applied it (isolated cards)")
    for deal in ("classic", "blind"):
        c = results[deal][1]
        print(
            f"   {deal:8} median {fmt_ms(statistics.median(c))}  p90 {fmt_ms(pct(c, 90))}"
            f"  ({len(c)} cards)"
        )
    ratio = statistics.median(results["blind"][1]) / statistics.median(results["classic"][1])
    print(f"   blind / classic: {ratio:.2f}x   (target <= 1.5x)")
    print("   the first of the four clients (the host's relay and one client's check, as each")
    print("   player's own machine sees it on a LAN; here the four clients share one process)")
    for deal in ("classic", "blind"):
        f = results[deal][2]
        print(f"   {deal:8} median {fmt_ms(statistics.median(f))}  p90 {fmt_ms(pct(f, 90))}")
    ratio = statistics.median(results["blind"][2]) / statistics.median(results["classic"][2])
    print(f"   blind / classic: {ratio:.2f}x")
    v = verify_times(args.runs)
    print("4. verify a whole 4-player 2-hand match (points format), median")
    for deal in ("classic", "blind"):
        print(
            f"   {deal:8} {v[deal]:7.1f} ms  ({v[f'{deal}-records']} records, "
            f"{v[f'{deal}-hands']} hands)"
        )
    print(f"   blind / classic: {v['blind'] / v['classic']:.2f}x   (target: blind < 200 ms)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
