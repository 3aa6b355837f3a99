"""Every timer of protocol/transport.md section 9 has a `briscola-lan host` option that sets it."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.net import host_cmd, serving
from briscola_lan.net.server import HostServer
from briscola_lan.net.transport import Heartbeat

OPTIONS = {  # option -> its default as --help prints it
    "--hello-timeout": "5",
    "--timeout": "60",
    "--grace": None,  # 30, said in words
    "--heartbeat": "5/15",
    "--reopen-after": "2",
}


def test_help_lists_every_timer_with_its_default() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "briscola_lan", "host", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    text = " ".join(out.split()).split(" options: ", 1)[1]  # the descriptions, not the usage
    for option, default in OPTIONS.items():
        assert option in text, option
        if default is not None:
            after = text.split(option, 1)[1]
            assert f"default {default}" in after.split(" --", 1)[0], (option, after[:200])


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    host_cmd.configure(parser)
    return parser.parse_args(list(argv))


@pytest.mark.parametrize(
    "argv",
    [("--timeout", "0"), ("--hello-timeout", "-1"), ("--reopen-after", "-0.5")],
)
def test_meaningless_timers_are_refused(argv: tuple[str, str]) -> None:
    with pytest.raises(host_cmd.HostError, match=argv[0]):
        host_cmd.check_numbers(_args(*argv))


async def test_the_options_reach_the_server_and_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    servers: list[HostServer] = []

    class Recording(HostServer):
        def __init__(self, *a: Any, **kw: Any) -> None:
            super().__init__(*a, **kw)
            servers.append(self)

    monkeypatch.setattr(serving, "HostServer", Recording)
    args = _args(
        "--no-mdns",
        "--interfaces",
        "127.0.0.1",
        "--hello-timeout",
        "0.4",
        "--timeout",
        "7.5",
        "--grace",
        "3",
        "--heartbeat",
        "1/4",
        "--reopen-after",
        "9",
    )
    stop = asyncio.Event()
    task = asyncio.get_running_loop().create_task(host_cmd.serve(args, stop=stop))
    try:
        for _ in range(200):
            if servers and servers[0].tables:
                break
            await asyncio.sleep(0.05)
        (server,) = servers
        (hosted,) = server.tables.values()
        assert server.hello_timeout == 0.4
        assert server.heartbeat == Heartbeat(1.0, 4.0)
        assert (hosted.table.timeout, hosted.table.grace) == (7.5, 3.0)
        # The hello deadline at work: a connection that never says hello is closed in time.
        reader, writer = await asyncio.open_connection("127.0.0.1", hosted.port)
        began = time.monotonic()
        with contextlib.suppress(ConnectionError):
            assert await asyncio.wait_for(reader.read(), 3) == b""
        assert time.monotonic() - began < 2.0  # the default would take 5 s
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 10) == 0
