"""The host never waits for whoever reads its output: started from a script that stops reading
(a full pipe), it plays on; lines that do not fit are left out and counted, said in one line."""

from __future__ import annotations

import asyncio
import fcntl
import io
import os
import subprocess
import threading
import time
from pathlib import Path

from briscola_lan.net.client import Target
from briscola_lan.net.outlet import Outlet
from briscola_lan.net.player import auto_play, connect, make_chooser
from tests.net.procs import cli_args, cli_env

PAGE = 4096  # the smallest pipe Linux makes


def _small_pipe() -> tuple[int, int]:
    r, w = os.pipe()
    fcntl.fcntl(w, fcntl.F_SETPIPE_SZ, PAGE)
    return r, w


def _read_until_ready(fd: int) -> list[str]:
    """The host's lines up to "ready" (and not one byte more is read after it)."""
    lines, buf = [], b""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        buf += os.read(fd, 1)  # byte by byte: nothing after "ready" leaves the pipe
        if buf.endswith(b"\n"):
            line = buf.decode().rstrip("\n")
            buf = b""
            lines.append(line)
            if line == "ready":
                return lines
    raise AssertionError(f"the host did not get ready: {lines}")


def test_a_host_whose_output_nobody_reads_plays_a_match_to_the_end(tmp_path: Path) -> None:
    """A hundred tables, each with an AI player, tell the console about their AI seats right
    after "ready": more than a pipe of one page holds. Nobody reads on; a person plays a whole
    match at the first table."""
    out_r, out_w = _small_pipe()
    err_r, err_w = _small_pipe()
    args = "host --interfaces 127.0.0.1 --no-mdns --tables 100 --players 2 --ai-seats 1:random"
    proc = subprocess.Popen(
        cli_args(*args.split(), "--hands-to-win", "1", "--ai-delay", "0"),
        stdin=subprocess.DEVNULL,
        stdout=out_w,
        stderr=err_w,
        env=cli_env(tmp_path),
    )
    os.close(out_w)
    os.close(err_w)
    try:
        lines = _read_until_ready(out_r)
        first = next(line for line in lines if line.startswith("table "))
        port = int(first.split(" on ")[1].split()[0].rsplit(":", 1)[1])
        fingerprint = first.split()[-1]
        time.sleep(1.0)  # the console's lines fill the pipe
        # a line a table, where they are journaled, then "ready": the rest waits in the pipe
        assert len(lines) == 102 and lines[-2].startswith("journal in "), lines[-3:]

        async def play() -> bool:
            client = await connect(Target("127.0.0.1", port, None, fingerprint), "Ann")
            try:
                await auto_play(client, make_chooser("random", 0), seat=0, timeout=60)
                return client.session.state.match_over
            finally:
                await client.close()

        assert asyncio.run(asyncio.wait_for(play(), 90))
        assert proc.poll() is None  # still serving
    finally:
        proc.terminate()
        rest = b""
        while chunk := os.read(out_r, 65536):  # now read it all: what was kept, in order
            rest += chunk
        proc.wait(30)
        os.close(out_r)
        os.close(err_r)
    text = rest.decode()
    assert "an AI (random) took seat 1" in text
    assert text.rstrip().endswith("host stopped"), text[-300:]


def test_lines_that_do_not_fit_are_counted_and_said_once() -> None:
    """The outlet's queue is full while its reader is away: the lines that did not fit are
    left out, and the next line that fits says how many."""
    r, w = _small_pipe()
    stream = io.TextIOWrapper(io.FileIO(w, "w", closefd=True), write_through=True)
    outlet = Outlet(stream, capacity=3)
    line = "x" * 1000
    # The pipe holds 4 lines; the writer thread takes a 5th and waits in its write. Give it
    # those 5 one by one (each taken off the queue before the next), so that nothing is left
    # out before it waits, however the threads are scheduled; then the queue takes 3.
    for _ in range(5):
        outlet.write(line)
        deadline = time.monotonic() + 30
        while not outlet._queue.empty() and time.monotonic() < deadline:
            time.sleep(0.001)
        assert outlet._queue.empty()
    for _ in range(35):  # 3 fit in the queue, the other 32 are left out
        outlet.write(line)
    lost = outlet.lost
    assert lost == 32
    got = b""

    def drain() -> None:
        nonlocal got
        while chunk := os.read(r, 65536):
            got += chunk

    reader = threading.Thread(target=drain)
    reader.start()
    time.sleep(0.2)  # the queue empties
    outlet.write("after")
    outlet.close()
    stream.close()
    reader.join(5)
    os.close(r)
    text = got.decode().splitlines()
    assert text[-2:] == [
        f"({lost} lines left out: this output is not read fast enough)",
        "after",
    ]
    assert text.count(line) == 40 - lost
