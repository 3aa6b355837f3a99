"""A LAN of network namespaces: a host and three client machines on a bridge; the clients find
the table by mDNS and play a whole 4-player match with the partner exchange. Needs root."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from tests.net.netns import Lan, netns_available
from tests.net.procs import cli_args, cli_env, finish, spawn, start_host

_NETNS_MISSING = netns_available()  # None when namespaces can be made (root, iproute2)
_REQUIRED = os.environ.get("BRISCOLA_REQUIRE_NETNS") == "1"  # set by .ci/run


def _require_netns() -> None:
    if _NETNS_MISSING is not None:
        pytest.fail(f"BRISCOLA_REQUIRE_NETNS=1 but {_NETNS_MISSING}")


@pytest.mark.skipif(
    _NETNS_MISSING is not None and not _REQUIRED,
    reason=f"needs network namespaces: {_NETNS_MISSING}",
)
def test_four_machines_find_the_table_by_mdns_and_play(tmp_path: Path) -> None:
    _require_netns()
    name = f"lan-{uuid.uuid4().hex[:6]}"
    with Lan(4) as lan:
        host = start_host(
            tmp_path / "h",
            "--name",
            name,
            "--players",
            "4",
            "--ai",
            "1",
            "--interfaces",
            lan.addr[0],
            prefix=lan.exec_args(0, []),
        )
        try:
            assert host.address == lan.addr[0]
            bots = [
                spawn(
                    tmp_path / f"c{i}",
                    "bot",
                    name,
                    "--interfaces",
                    lan.addr[i],
                    "--level",
                    "rules",
                    "--seed",
                    str(i),
                    "--timeout",
                    "10",
                    prefix=lan.exec_args(i, []),
                )
                for i in (1, 2, 3)
            ]
            results = [finish(b, 90) for b in bots]
            report = "\n---\n".join(out for _, out in results)
            assert [code for code, _ in results] == [0, 0, 0], report
            seats = sorted(
                int(out.split("match over: seat ")[1].split(",")[0]) for _, out in results
            )
            assert seats == [0, 2, 3]  # --ai 1 put the AI in seat 1
            assert all("verified" in out and "failed" not in out for _, out in results)
        finally:
            assert host.stop() == 0


async def test_a_vanished_client_is_noticed_by_keepalive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A client machine drops off the LAN without closing anything: the host notices through
    TCP keepalive (shortened here) and tells the table, while the game waits for the player."""
    _require_netns()
    import asyncio
    import secrets
    import subprocess

    from briscola_lan.fairness.identity import Identity
    from briscola_lan.net import tls, transport
    from briscola_lan.net.server import HostServer
    from briscola_lan.rules.options import TableOptions
    from briscola_lan.table.host import HostTable

    monkeypatch.setattr(transport, "KEEPALIVE_IDLE", 1)
    monkeypatch.setattr(transport, "KEEPALIVE_INTERVAL", 1)
    monkeypatch.setattr(transport, "KEEPALIVE_COUNT", 2)
    monkeypatch.setattr(transport, "USER_TIMEOUT_MS", 3000)
    ns = f"blk{secrets.token_hex(3)}"
    here, there = "192.0.2.101", "192.0.2.102"
    ip = ["ip"]
    subprocess.run([*ip, "netns", "add", ns], check=True)
    server = None
    client = None
    try:
        subprocess.run(
            [*ip, "link", "add", "vk0", "type", "veth", "peer", "name", "eth0", "netns", ns],
            check=True,
        )
        subprocess.run([*ip, "addr", "add", f"{here}/24", "dev", "vk0"], check=True)
        subprocess.run([*ip, "link", "set", "vk0", "up"], check=True)
        for args in (
            ["addr", "add", f"{there}/24", "dev", "eth0"],
            ["link", "set", "eth0", "up"],
            ["link", "set", "lo", "up"],
        ):
            subprocess.run([*ip, "-n", ns, *args], check=True)
        cert = tls.load_or_create_certificate(tmp_path / "h")
        server = HostServer(tls.server_context(cert), hosts=[here], fingerprint=cert.fingerprint)
        table = HostTable(
            TableOptions.make(players=2),
            name="k",
            identity=Identity.generate(),
            ai_seats={1: "random"},
        )
        hosted = await server.add_table("k", table)
        client = await asyncio.create_subprocess_exec(
            *lan_exec(
                ns,
                [
                    "bot",
                    f"{here}:{hosted.port}",
                    "--fingerprint",
                    cert.fingerprint,
                    "--seat",
                    "0",
                    "--no-start",
                ],
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=cli_env(tmp_path / "c"),
        )
        for _ in range(200):
            if table.seats[0].occupied and table.seats[0].conn is not None:
                break
            await asyncio.sleep(0.05)
        assert table.seats[0].conn is not None, "the client never sat down"
        # The client's machine vanishes: its link goes down, nothing is closed.
        subprocess.run([*ip, "-n", ns, "link", "set", "eth0", "down"], check=True)
        t0 = asyncio.get_running_loop().time()
        for _ in range(200):
            if table.seats[0].conn is None:
                break
            await asyncio.sleep(0.05)
        waited = asyncio.get_running_loop().time() - t0
        assert table.seats[0].conn is None, "the host never noticed the vanished client"
        assert table.seats[0].occupied  # the seat is kept for the player's return
        assert waited < 8
    finally:
        if client is not None:
            client.kill()
            await client.wait()
        if server is not None:
            await server.close()
        subprocess.run([*ip, "link", "del", "vk0"], check=False, capture_output=True)
        subprocess.run([*ip, "netns", "del", ns], check=False, capture_output=True)


def lan_exec(ns: str, args: list[str]) -> list[str]:
    return ["ip", "netns", "exec", ns, *cli_args(*args)]
