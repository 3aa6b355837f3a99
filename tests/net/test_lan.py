"""A LAN of network namespaces: a host and three client machines on a bridge; the clients find
the table by mDNS and play a whole 4-player match with the partner exchange. Needs root."""

from __future__ import annotations

import os
import uuid
from pathlib import Path

import pytest

from tests.net.netns import Lan, netns_available
from tests.net.procs import finish, spawn, start_host


def _require_netns() -> None:
    reason = netns_available()
    if reason is None:
        return
    if os.environ.get("BRISCOLA_REQUIRE_NETNS") == "1":
        pytest.fail(f"BRISCOLA_REQUIRE_NETNS=1 but {reason}")
    pytest.skip(reason)


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
