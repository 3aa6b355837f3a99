"""Benchmark: the host's crash-safe journal against the state file it replaced, side by side.

    python benchmarks/bench_journal.py [--hands 1 2 3 5] [--dir DIR]

Each row is one 4-player blind match (every seat a person, first legal card, in memory: a
``HostTable`` and four ``ClientSession``s, ``table/selfplay.py``), first to win N hands. After
every host step that sends something — where ``net/server.py`` writes before sending — the
writer writes that step:

- **state file**: the whole snapshot rewritten (``net.files.write_private``: a temporary file,
  fsync, rename), as the host did with ``--state-dir`` before the journal;
- **(no writer)**: the host alone, the baseline;
- **journal**: ``net/journal.py`` as the host runs it (an append-only file, each change one
  frame, flushed to the disk by its thread at most every second);
- **journal, fsync each**: the same, each change flushed before ``save`` returns
  (``sync="change"``);
- **SQLite (WAL)**: the same changes as rows of an SQLite database (write-ahead log, a
  transaction per change): the alternative measured for the choice of an append-only file.

Each writer plays the same match (fixed entropy) on its own, in turn, for ``--rounds`` rounds
(medians), so that a busy machine slows all of them alike. Printed per writer: bytes written
over the match (``wchar`` of ``/proc/self/io`` around each write: what reached the file system,
SQLite's pages and checkpoints included) and per card; the writer's CPU per card (its thread's
CPU in the writes, plus the journal's flushing thread's); the host's CPU per card with the writer
(its steps, the writes, and the frames it encodes to send as ``net/server.py`` does: each
message once, from the bytes the journal encoded when it has them) and that over the host's
without any (the target: a card at most 1.1x its cost without the journal); and the wall time of
a card's step, the host's handling of the card and the write that comes before its messages
leave, against the same without a writer.

    unshare -n -- sh -c 'ip link set lo up && python benchmarks/bench_journal.py --stall'

``--stall`` measures the host writing its journals off its event loop (``net/write_ahead.py``):
a host in this process serves two 4-player classic tables, table a's journal on a "disk" whose
every write takes ``--slow-ms`` (6) more (a sleep in the write, which holds the writing thread
and not the GIL, as a busy disk's does), while four clients (another process) play table a flat
out and four play a match at table b a card at a time. Printed for each way of writing, in turn
in each of ``--rounds`` rounds: how late the host's event loop wakes from 1 ms sleeps (a stall
shows there) and table b's card latency (a card sent -> all four have it), the journals written
on the event loop, by one or two writer threads, or by ``asyncio.to_thread`` (and, for
reference, on the loop and by two threads with the disk as it is); then the host CPU (all
threads) of a frame's trip through each writer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from briscola_lan.fairness.identity import Identity  # noqa: E402
from briscola_lan.fairness.memo import keep_results  # noqa: E402
from briscola_lan.net import files, journal_threads  # noqa: E402
from briscola_lan.net import journal as journal_module  # noqa: E402
from briscola_lan.net.journal import Journal  # noqa: E402
from briscola_lan.rules import MatchFormat, TableOptions  # noqa: E402
from briscola_lan.table.host import HostTable  # noqa: E402
from briscola_lan.table.host_journal import JournalCursor  # noqa: E402
from briscola_lan.table.selfplay import counter_entropy, play_out, seat_clients  # noqa: E402
from briscola_lan.wire.codec import encode_frame, frame_of, pack_state  # noqa: E402
from briscola_lan.wire.messages import PlayCard  # noqa: E402

SYNC_EVERY = journal_module.SYNC_EVERY
REAL_WRITE_AT = journal_module._write_at


def written() -> int:
    """Bytes this process has passed to write calls so far."""
    with open("/proc/self/io", "rb") as f:
        for line in f:
            if line.startswith(b"wchar:"):
                return int(line.split()[1])
    raise RuntimeError("no wchar in /proc/self/io")


class Flushes:
    """The journal's flushing thread's CPU (``Journal.sync_now``), summed."""

    def __init__(self) -> None:
        self.cpu = 0.0
        self.lock = threading.Lock()

    def timed(self, fn: Callable[[], None]) -> None:
        t = time.thread_time()
        fn()
        with self.lock:
            self.cpu += time.thread_time() - t


FLUSHES: dict[str, Flushes] = {}


class Writer:
    """One way of keeping the table: written after each step, timed, its bytes counted."""

    name = ""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.cpu = 0.0
        self.wall: list[float] = []
        self.bytes = 0

    def write(self, host: HostTable) -> dict[int, bytes]:
        """Write the step; the messages encoded doing so, by id (``Journal.save``)."""
        raise NotImplementedError

    def step(self, host: HostTable) -> tuple[float, dict[int, bytes]]:
        before, c, w = written(), time.thread_time(), time.perf_counter()
        bodies = self.write(host)
        wall = time.perf_counter() - w
        self.cpu += time.thread_time() - c
        self.bytes += written() - before
        self.wall.append(wall)
        return wall, bodies

    def close(self) -> None:
        pass

    @property
    def flush_cpu(self) -> float:
        return FLUSHES[self.name].cpu if self.name in FLUSHES else 0.0


class StateFile(Writer):
    name = "state file"

    def write(self, host: HostTable) -> dict[int, bytes]:
        files.write_private(self.work / "table.state", host.snapshot())
        return {}


class JournalWriter(Writer):
    def __init__(self, work: Path, host: HostTable, sync: str) -> None:
        super().__init__(work)
        self.name = "journal" if sync == "second" else "journal, fsync each"
        self.journal = Journal.open(work / f"{sync}.journal", host.identity.public_key, sync=sync)

    def write(self, host: HostTable) -> dict[int, bytes]:
        return self.journal.save(host)

    def close(self) -> None:
        self.journal.close()


class SQLiteStore(Writer):
    """The alternative measured for the choice: the same changes as rows of an SQLite database
    in write-ahead-log mode (records, messages and the seats' logs appended, the rest replaced
    in one ``head`` row), a transaction per change, flushed at its checkpoints (NORMAL)."""

    name = "SQLite (WAL)"

    def __init__(self, work: Path, host: HostTable) -> None:
        super().__init__(work)
        self.db = sqlite3.connect(work / "table.sqlite", isolation_level=None)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.execute("PRAGMA synchronous = NORMAL")
        for statement in (
            "CREATE TABLE records(n INTEGER PRIMARY KEY, body BLOB, sig BLOB)",
            "CREATE TABLE messages(n INTEGER PRIMARY KEY, body BLOB)",
            "CREATE TABLE logs(id INTEGER PRIMARY KEY, seat, epoch, n, message)",
            "CREATE TABLE head(id INTEGER PRIMARY KEY, seats BLOB, rest BLOB)",
        ):
            self.db.execute(statement)
        self.cursor = JournalCursor(len(host.seats))

    def write(self, host: HostTable) -> dict[int, bytes]:
        ch = self.cursor.changes(host)
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        db.executemany(
            "INSERT INTO records VALUES (?, ?, ?)",
            [(ch.records_start + i, b, s) for i, (b, s) in enumerate(ch.records)],
        )
        db.executemany(
            "INSERT INTO messages VALUES (?, ?)",
            [(ch.messages_start + i, b) for i, b in enumerate(ch.messages)],
        )
        db.executemany(
            "INSERT INTO logs(seat, epoch, n, message) VALUES (?, ?, ?, ?)",
            [(r.seat, r.epoch, r.start + k, m) for r in ch.logs for k, m in enumerate(r.messages)],
        )
        heads = pack_state([[h.epoch, h.length] for h in ch.heads])
        db.execute("INSERT OR REPLACE INTO head VALUES (0, ?, ?)", (heads, ch.rest))
        db.execute("COMMIT")
        self.cursor.advance(ch)
        return ch.encoded()

    def close(self) -> None:
        self.db.close()


def _timed_sync_now() -> None:
    """Count the journal's flushing thread's CPU (for the "journal" row)."""
    real = Journal.sync_now

    def sync_now(self: Journal) -> None:
        FLUSHES.setdefault("journal", Flushes()).timed(lambda: real(self))

    Journal.sync_now = sync_now  # type: ignore[method-assign]


WRITERS: dict[str, Callable[[Path, HostTable], Writer | None]] = {
    "(no writer)": lambda work, host: None,
    "state file": lambda work, host: StateFile(work),
    "journal": lambda work, host: JournalWriter(work, host, "second"),
    "journal, fsync each": lambda work, host: JournalWriter(work, host, "change"),
    "SQLite (WAL)": SQLiteStore,
}


@dataclass
class Run:
    """One match with one writer: the host's CPU (its steps and the writes), the writer's share,
    the bytes written, each card step's wall time (the host's step and the write after it)."""

    steps: int = 0
    cards: int = 0
    hands: int = 0
    host_cpu: float = 0.0
    writer_cpu: float = 0.0
    written: int = 0
    card_walls: list[float] = field(default_factory=list)


def frames(out: list[Any], bodies: dict[int, bytes]) -> None:
    """Encode a step's messages as ``net/server.py`` does before it sends them: each message
    object once, framed from the bytes the journal encoded when it has them."""
    encoded: dict[int, bytes] = {}
    for o in out:
        key = id(o.message)
        if key not in encoded:
            body = bodies.get(key)
            encoded[key] = encode_frame(o.message) if body is None else frame_of(body)


def play(hands: int, work: Path, make: Callable[[Path, HostTable], Writer | None]) -> Run:
    """One 4-player blind match (the same one every time: fixed entropy) with one writer."""
    options = TableOptions.make(players=4, match_format=MatchFormat.HANDS, hands_to_win=hands)
    host, clients, wire = seat_clients(
        options, entropy=counter_entropy(f"journal{hands}"), deal="blind"
    )
    FLUSHES.clear()
    writer = make(work, host)
    run = Run()
    receive, tick = host.receive, host.tick

    def stepped(fn: Callable[[], list[Any]], card: bool) -> list[Any]:
        c, w = time.thread_time(), time.perf_counter()
        out = fn()
        wall = time.perf_counter() - w
        run.host_cpu += time.thread_time() - c
        if out:
            run.steps += 1
            bodies: dict[int, bytes] = {}
            if writer is not None:
                took, bodies = writer.step(host)
                wall += took
            c, w = time.thread_time(), time.perf_counter()
            frames(out, bodies)
            wall += time.perf_counter() - w
            run.host_cpu += time.thread_time() - c
        if card:
            run.card_walls.append(wall)
        return out

    def on_receive(conn: int, msg: Any) -> list[Any]:
        card = isinstance(msg, PlayCard)
        run.cards += card
        return stepped(lambda: receive(conn, msg), card)

    host.receive = on_receive  # type: ignore[method-assign]
    host.tick = lambda now: stepped(lambda: tick(now), False)  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [lambda view: view.legal_plays[0]] * 4)
    if writer is not None:
        time.sleep(SYNC_EVERY * 1.5)  # the last flush happens (its CPU is counted)
        writer.close()
        run.writer_cpu, run.written = writer.cpu + writer.flush_cpu, writer.bytes
    run.hands = len(host.match.results) if host.match else 0
    return run


# --- the event loop's stall on a slow disk ---------------------------------------------------

# How the host's journals are written, for ``--stall``: writer threads (``net/journal_threads.py``;
# 0: on the event loop, before the messages leave), or ``asyncio.to_thread`` per write.
STALL_WRITERS = {
    "on the loop": 0,
    "1 writer thread": 1,
    "2 writer threads": 2,
    "asyncio.to_thread": -1,
}


class _ToThread(journal_threads.JournalWriter):
    """The writer made with ``asyncio.to_thread`` per write (the loop's default executor), each
    journal's writes in order as ``JournalWriter`` keeps them: the alternative measured."""

    def submit(self, journal: Any, token: Any) -> None:
        if journal in self._busy:
            return
        self._busy[journal] = token
        task = asyncio.get_running_loop().create_task(
            asyncio.to_thread(journal_threads._write, journal)
        )
        task.add_done_callback(lambda t: self._finish(journal, t.result()))


def _slow_disk(root: Path, delay: float) -> None:
    """Every journal write under ``root`` takes ``delay`` seconds more (a sleep, which like a
    write to a busy disk holds its thread but not the GIL)."""
    real = journal_module._write_at

    def write_at(fd: int, data: bytes, offset: int) -> None:
        if Path(os.readlink(f"/proc/self/fd/{fd}")).parent == root:
            time.sleep(delay)
        real(fd, data, offset)

    journal_module._write_at = write_at


@dataclass
class Stall:
    """One ``--stall`` run: the event loop's lateness while table b plays, and its cards'
    latency."""

    lag: list[float] = field(default_factory=list)
    b_cards: list[float] = field(default_factory=list)
    a_frames: int = 0  # frames table a's journal wrote meanwhile
    cpu: float = 0.0  # this process's CPU (host, clients, writer) over the run


async def _stall_run(work: Path, threads: int, slow: float, hands: int) -> Stall:
    """A host in this process serving two 4-player classic tables, ``a`` whose journal's disk
    takes ``slow`` seconds more for every write, and ``b`` on a disk as it is; four clients
    each, in another process (``_clients``). Table a plays flat out for as long as table b plays
    one match of ``hands`` hands a card at a time (``isolate``: a card's latency is its own); a
    probe measures how late the host's event loop wakes from 1 ms sleeps meanwhile."""
    from briscola_lan.net import tls, write_ahead
    from briscola_lan.net.server import HostServer

    journal_module._write_at = REAL_WRITE_AT
    if slow:
        _slow_disk(work / "a", slow)
    made = write_ahead.JournalWriter
    if threads < 0:
        write_ahead.JournalWriter = _ToThread  # type: ignore[misc]
    cert = tls.load_or_create_certificate(work / "cert")
    server = HostServer(
        tls.server_context(cert),
        hosts=["127.0.0.1"],
        fingerprint=cert.fingerprint,
        journal_threads=max(threads, 0),
    )
    journals = []
    ports = {}
    for key, n in (("a", 5), ("b", hands)):
        options = TableOptions.make(players=4, hands_to_win=n)
        table = HostTable(options, name=key, identity=Identity.generate(), deal="classic")
        journal = Journal.open(work / key / "table.journal", table.identity.public_key)
        journals.append(journal)
        ports[key] = (await server.add_table(key, table, journal=journal)).port
    run = Stall()
    stop = asyncio.Event()

    async def probe() -> None:
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            t = loop.time()
            await asyncio.sleep(0.001)
            run.lag.append(loop.time() - t - 0.001)

    env = {**os.environ, "XDG_CONFIG_HOME": str(work / "config"), "XDG_DATA_HOME": str(work)}
    env["XDG_STATE_HOME"] = str(work / "state")
    clients = await asyncio.create_subprocess_exec(
        *(sys.executable, __file__, "--stall-clients", str(ports["a"]), str(ports["b"])),
        cert.fingerprint,
        stdout=asyncio.subprocess.PIPE,
        env=env,
    )
    assert clients.stdout is not None
    await clients.stdout.readline()  # table a under way
    lagging = asyncio.create_task(probe())
    c0 = time.process_time()
    out, _ = await clients.communicate()
    run.cpu = time.process_time() - c0
    stop.set()
    await lagging
    run.b_cards = json.loads(out.decode().strip().splitlines()[-1])
    await server.close()
    run.a_frames = journals[0].staged
    for journal in journals:
        journal.close()
    write_ahead.JournalWriter = made  # type: ignore[misc]
    journal_module._write_at = REAL_WRITE_AT
    return run


async def _clients(port_a: int, port_b: int, fingerprint: str) -> None:
    """``--stall``'s players, in a process of their own: four at table a, flat out, and once
    it is under way (a line said), four at table b a card at a time; table b's card latencies
    are printed (JSON) when its match is over."""
    from briscola_lan.net.player import play_tables

    a = asyncio.create_task(
        play_tables([("127.0.0.1", port_a, fingerprint)], level="random", seconds=600)
    )
    await asyncio.sleep(0.5)
    print("a under way", flush=True)
    lat = await play_tables([("127.0.0.1", port_b, fingerprint)], level="random", isolate=True)
    a.cancel()
    with contextlib.suppress(asyncio.CancelledError, Exception):
        await a
    print(json.dumps(lat), flush=True)


def stall(args: argparse.Namespace) -> None:
    """``--stall``: the event loop's lag and table b's card latency, each way of writing the
    journals in turn, ``--rounds`` times (all figures over the rounds together)."""
    slow = args.slow_ms / 1e3
    rows = [("on the loop", 0.0), ("2 writer threads", 0.0)]
    rows += [(name, slow) for name in STALL_WRITERS]
    got: dict[tuple[str, float], list[Stall]] = {row: [] for row in rows}
    for _ in range(args.rounds):
        for name, delay in rows:
            with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
                got[(name, delay)].append(
                    asyncio.run(_stall_run(Path(tmp), STALL_WRITERS[name], delay, args.stall_hands))
                )
    print(f"two 4-player classic tables on one host, table a's journal on a disk "
          f"{args.slow_ms:g} ms slower a write; table b: {args.stall_hands} hand(s) a card at "
          f"a time; {args.rounds} rounds")  # fmt: skip
    print(f"{'writer':<22}{'slow':>6}{'loop lag p50':>14}{'p99':>9}{'max':>9}"
          f"{'b card p50':>12}{'p99':>9}{'max':>9}{'a frames':>10}")  # fmt: skip
    for name, delay in rows:
        runs = got[(name, delay)]
        lag = [x for r in runs for x in r.lag]
        cards = [x for r in runs for x in r.b_cards]
        med = statistics.median(cards)
        print(
            f"{name:<22}{delay * 1e3:>4.0f}ms{_pct(lag, 50) * 1e3:>12.3f}ms"
            f"{_pct(lag, 99) * 1e3:>7.2f}ms{max(lag) * 1e3:>7.2f}ms"
            f"{med * 1e3:>10.3f}ms{_pct(cards, 99) * 1e3:>7.2f}ms{max(cards) * 1e3:>7.2f}ms"
            f"{sum(r.a_frames for r in runs) // max(1, len(runs)):>10}"
        )


def _pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def hops(args: argparse.Namespace) -> None:
    """``--stall`` too: what a frame's trip through the writer costs the host's CPU (all its
    threads), each way of writing in turn: ``args.hop_frames`` frames of 1 KB written to a
    file, one after the other (the next staged by the callback that hears the last one is
    written, as the host sends from it)."""

    class Frames:
        """A journal of the writer's shape whose frames are 1 KB each, written with pwrite."""

        def __init__(self, path: Path) -> None:
            self.path = path
            self.fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
            self.staged = self.resolved = 0
            self.end = 0

        @property
        def pending(self) -> bool:
            return self.staged > self.resolved

        def write_queued(self) -> OSError | None:
            upto = self.staged
            os.pwrite(self.fd, b"x" * 1024, self.end)
            self.end += 1024
            self.resolved = upto
            return None

        def sync_now(self) -> None:
            pass

    async def run(threads: int, path: Path) -> float:
        loop = asyncio.get_running_loop()
        frames = Frames(path)
        done = asyncio.Event()
        left = [args.hop_frames]

        def written(token: Any, journal: Any, exc: OSError | None) -> None:
            left[0] -= 1
            if not left[0]:
                done.set()
            elif threads:  # the next frame from the callback, as the host sends from it
                stage()

        def stage() -> None:
            frames.staged += 1
            writer.submit(frames, None)

        make = _ToThread if threads < 0 else journal_threads.JournalWriter
        writer = make(loop, written, max(threads, 0))
        c = time.process_time()
        if threads:
            stage()
            await done.wait()
        else:
            while left[0]:
                stage()
        cpu = time.process_time() - c
        await writer.drain()
        writer.close()
        os.close(frames.fd)
        return cpu / args.hop_frames

    print(f"\na frame's trip through the writer, host CPU (all threads), {args.hop_frames} frames:")
    base = None
    for name, threads in STALL_WRITERS.items():
        cpus = []
        for _ in range(args.rounds):
            with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
                cpus.append(asyncio.run(run(threads, Path(tmp) / "frames")))
        cpu = statistics.median(cpus)
        base = base or cpu
        print(f"{name:<22}{cpu * 1e6:>8.1f} us a frame{cpu / base:>8.2f}x on the loop")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, nargs="+", default=[1, 2, 3, 5], help="hands to win")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each writer (medians)")
    ap.add_argument("--dir", type=Path, default=None, help="where to write (default: a temp dir)")
    ap.add_argument("--only", nargs="+", default=list(WRITERS), choices=list(WRITERS))
    ap.add_argument("--stall", action="store_true", help="the event loop's stall on a slow disk")
    ap.add_argument("--slow-ms", type=float, default=6.0, help="--stall: a slow write's extra ms")
    ap.add_argument("--stall-hands", type=int, default=1, help="--stall: table b's hands to win")
    ap.add_argument("--hop-frames", type=int, default=2000, help="--stall: frames timed in a trip")
    ap.add_argument("--stall-clients", nargs=3, help=argparse.SUPPRESS)  # the players' process
    args = ap.parse_args()
    keep_results(False)  # each machine's own work, as if every party had its own process
    if args.stall_clients:
        port_a, port_b, fingerprint = args.stall_clients
        asyncio.run(_clients(int(port_a), int(port_b), fingerprint))
        return
    if args.stall:
        stall(args)
        hops(args)
        return
    _timed_sync_now()
    names = ["(no writer)", *(n for n in args.only if n != "(no writer)")]
    print(f"{'match':<24}{'writer':<22}{'written':>10}{'per card':>10}{'CPU/card':>10}"
          f"{'card CPU':>10}{'x no writer':>13}{'card wall':>11}{'x':>7}")  # fmt: skip
    for hands in args.hands:
        runs: dict[str, list[Run]] = {n: [] for n in names}
        for _ in range(args.rounds):  # each round runs every writer once: load hits all alike
            for name in names:
                with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
                    runs[name].append(play(hands, Path(tmp), WRITERS[name]))
        base = runs["(no writer)"]
        cards = base[0].cards
        base_cpu = statistics.median(r.host_cpu for r in base) / cards
        base_wall = statistics.median(w for r in base for w in r.card_walls)
        label = f"{hands} to win ({base[0].hands} hands)"
        per_writer: dict[str, tuple[float, float]] = {}  # bytes, writer CPU per card
        for name in names:
            rs = runs[name]
            written = statistics.median(r.written for r in rs)
            writer_cpu = statistics.median(r.writer_cpu for r in rs) / cards
            per_writer[name] = (written, writer_cpu)
            card_cpu = statistics.median(r.host_cpu + r.writer_cpu for r in rs) / cards
            wall = statistics.median(w for r in rs for w in r.card_walls)
            print(
                f"{label if name == names[0] else '':<24}{name:<22}"
                f"{written / 2**20:>8.1f}MB{written / cards / 1024:>8.1f}KB"
                f"{writer_cpu * 1e3:>8.3f}ms{card_cpu * 1e3:>8.3f}ms{card_cpu / base_cpu:>12.3f}x"
                f"{wall * 1e3:>9.3f}ms{wall / base_wall:>6.2f}x"
            )
        print(f"{'':<24}({base[0].steps} writes, {cards} cards, {args.rounds} rounds)")
        if "state file" in per_writer:  # the whole snapshot at each change, against each other
            whole_bytes, whole_cpu = per_writer["state file"]
            for name, (b, c) in per_writer.items():
                if name in ("(no writer)", "state file") or not b or not c:
                    continue
                print(f"{'':<24}state file / {name}: {whole_bytes / b:.1f}x the bytes, "
                      f"{whole_cpu / c:.1f}x the writer's CPU per card")  # fmt: skip


if __name__ == "__main__":
    main()
