"""A throwaway LAN of network namespaces: a bridge ``sw`` in its own namespace, one veth per host.

Addresses come from TEST-NET-1 (192.0.2.0/24). Needs root; every name is unique to this run and
everything is removed on exit, whatever happened.
"""

from __future__ import annotations

import os
import secrets
import subprocess
from collections.abc import Sequence
from types import TracebackType

SUBNET = "192.0.2"


def _ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=10)


def netns_available() -> str | None:
    """None when namespaces can be made here, else the reason they cannot."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"blp{secrets.token_hex(3)}"
    try:
        _ip("netns", "add", probe)
    except (OSError, subprocess.SubprocessError) as exc:
        return f"cannot create a network namespace: {exc}"
    _ip("netns", "del", probe)
    return None


class Lan:
    """``with Lan(4) as lan``: namespaces ``lan.ns[i]`` with address ``lan.addr[i]``."""

    def __init__(self, hosts: int) -> None:
        tag = secrets.token_hex(3)
        self.switch = f"bls{tag}"
        self.ns = [f"bl{tag}h{i}" for i in range(hosts)]
        self.addr = [f"{SUBNET}.{i + 1}" for i in range(hosts)]
        self._made: list[str] = []

    def __enter__(self) -> Lan:
        try:
            _ip("netns", "add", self.switch)
            self._made.append(self.switch)
            sw = ["-n", self.switch]
            _ip(*sw, "link", "add", "name", "sw", "type", "bridge")
            _ip(*sw, "link", "set", "sw", "up")
            _ip(*sw, "link", "set", "lo", "up")
            for i, (ns, addr) in enumerate(zip(self.ns, self.addr, strict=True)):
                _ip("netns", "add", ns)
                self._made.append(ns)
                port = f"p{i}"
                _ip(*sw, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", ns)
                _ip(*sw, "link", "set", port, "master", "sw")
                _ip(*sw, "link", "set", port, "up")
                _ip("-n", ns, "addr", "add", f"{addr}/24", "dev", "eth0")
                _ip("-n", ns, "link", "set", "eth0", "up")
                _ip("-n", ns, "link", "set", "lo", "up")
        except BaseException:
            self.close()
            raise
        return self

    def exec_args(self, i: int, argv: Sequence[str]) -> list[str]:
        """The command line that runs ``argv`` inside host ``i``'s namespace."""
        return ["ip", "netns", "exec", self.ns[i], *argv]

    def close(self) -> None:
        for ns in reversed(self._made):
            subprocess.run(["ip", "netns", "del", ns], check=False, capture_output=True, timeout=10)
        self._made.clear()

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
