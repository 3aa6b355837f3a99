"""Benchmark: verifying a whole 4-player, 2-hand match, and the protocol's cost per hand.

Prints figures and ratios against a baseline measured in the same run: replaying the same hands
through the rules engine alone (no hashes, no signatures). Target: verify < 100 ms. Also what a
verifiable draw of partners and first dealer adds to the verification. The whole match's verify
is given in wall time and in this thread's CPU time (what other jobs on a busy machine do not
add to).
Run: python benchmarks/bench_verify.py [--runs N]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

from briscola_lan.fairness.encoding import deck_seed
from briscola_lan.fairness.memo import keep_results
from briscola_lan.fairness.shuffle import deal_deck
from briscola_lan.fairness.statements import HostCommit, HostReveal, Play, SeedReveal, decode
from briscola_lan.fairness.transcript import dumps
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import Card, Hand, TableOptions
from briscola_lan.table.selfplay import counter_entropy, run_selfplay


class FirstBot:
    def choose(self, view):  # type: ignore[no-untyped-def]
        return view.legal_plays[0]


def median_ms(fn: Callable[[], object], runs: int) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def median_cpu_ms(fn: Callable[[], object], runs: int) -> float:
    """The median CPU time of this thread in ``fn`` (ms)."""
    times = []
    for _ in range(runs):
        t = time.thread_time()
        fn()
        times.append((time.thread_time() - t) * 1000)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=30)
    args = ap.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    opts = TableOptions.make(players=4, match_format="points")
    t = time.perf_counter()
    result = run_selfplay(  # the classic deal: bench_blind.py measures the blind one
        opts,
        entropy=counter_entropy("bench"),
        bot_factory=lambda level, seed: FirstBot(),
        deal="classic",
    )
    match_s = time.perf_counter() - t
    records = result.host.records
    report = verify_records(records)
    assert report.ok, report.fault
    hands = len(report.hands)

    # baseline: the same hands through the rules engine only
    decks = []
    dealers: list[int] = []
    plays: list[list[Card]] = []
    for body, _ in records:
        st = decode(body)
        if isinstance(st, HostCommit):
            dealers.append(st.dealer)
            plays.append([])
        elif isinstance(st, Play):
            plays[-1].append(Card.from_code(st.card))
    # decks recomputed from the revealed seeds, as the verifier does
    seeds: list[list[bytes]] = []
    for body, _ in records:
        st = decode(body)
        if isinstance(st, HostCommit):
            seeds.append([])
        elif isinstance(st, SeedReveal):
            seeds[-1].append(st.seed)
        elif isinstance(st, HostReveal):
            decks.append(deal_deck(opts, deck_seed(st.game_id, st.hand, st.host_seed, seeds[-1])))
    hand_inputs = list(zip(dealers, decks, plays, strict=True))

    def replay() -> None:
        for dealer, deck, ps in hand_inputs:
            h = Hand(opts, deck, dealer)
            for c in ps:
                h.play(h.current_player, c)  # type: ignore[arg-type]

    def shuffles_only() -> None:
        for _ in hand_inputs:
            deal_deck(opts, bytes(32))

    base = median_ms(replay, args.runs * 10)
    verify = median_ms(lambda: verify_records(records), args.runs)
    verify_cpu = median_cpu_ms(lambda: verify_records(records), args.runs)
    base_cpu = median_cpu_ms(replay, args.runs * 10)
    shuffle = median_ms(shuffles_only, args.runs)
    per_hand_protocol = match_s * 1000 / hands

    base_selfplay_ms = median_ms(replay, args.runs) / hands
    size = len(dumps(records))
    print(
        f"4-player match, {hands} hands, {len(records)} records, file {size} bytes, "
        f"{result.messages} messages through the codec"
    )
    print(f"verify whole match:           {verify:8.2f} ms  (target < 100 ms)")
    print(f"  of which shuffles:          {shuffle:8.2f} ms")
    print(f"baseline rules-only replay:   {base:8.3f} ms")
    print(f"ratio verify / baseline:      {verify / base:8.1f} x")
    print(
        f"CPU time: verify {verify_cpu:.2f} ms, rules-only replay {base_cpu:.3f} ms, "
        f"ratio {verify_cpu / base_cpu:.1f} x"
    )
    print(
        f"full protocol per hand (host + 4 clients in memory, codec, signing, checking): "
        f"{per_hand_protocol:.1f} ms"
    )
    print(
        f"rules-only per hand:          {base_selfplay_ms:8.3f} ms  "
        f"ratio {per_hand_protocol / base_selfplay_ms:.0f} x"
    )

    # the same match with drawn partners and first dealer: what the draw adds
    drawn = run_selfplay(
        opts,
        entropy=counter_entropy("bench-draw"),
        bot_factory=lambda level, seed: FirstBot(),
        deal="classic",
        draw_partners=True,
        draw_dealer=True,
    ).host.records
    start = next(i for i, (b, _) in enumerate(drawn) if decode(b).KIND == "match-start")
    assert verify_records(drawn).ok
    draw_only = median_ms(lambda: verify_records(drawn[: start + 1]), args.runs)
    drawn_total = median_ms(lambda: verify_records(drawn), args.runs)
    print(
        f"drawn match: verify {drawn_total:.2f} ms, of which the draw ({start + 1} records) "
        f"{draw_only:.2f} ms = {draw_only / verify * 100:.1f}% of an undrawn match's verify"
    )


if __name__ == "__main__":
    main()
