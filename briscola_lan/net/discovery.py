"""mDNS/DNS-SD for tables: advertise and browse ``_briscola._tcp.local.`` (zeroconf asyncio API).

Everything here runs on the event loop (``async_`` methods). The TXT record carries what a lobby
shows before connecting, and the TLS fingerprint that the client pins (protocol/transport.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import os
import socket
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from zeroconf import DNSQuestionType, IPVersion, ServiceStateChange
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo, AsyncZeroconf

SERVICE_TYPE = "_briscola._tcp.local."
TXT_MAX = 255


class DiscoveryError(Exception):
    """mDNS could not be started or a table could not be found: the message in English, and
    ``kind`` (one of ``KINDS``) with the message's parts in ``details``, for a front end that
    words it in its own language."""

    KINDS = ("no-lan", "not-an-address", "not-an-interface", "cannot-start", "not-found")

    def __init__(self, message: str, kind: str, **details: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.details = details


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine's non-loopback interfaces (the default for --interfaces)."""
    import ifaddr

    out: list[str] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            if isinstance(ip.ip, str):
                addr = ipaddress.ip_address(ip.ip)
                if not (addr.is_loopback or addr.is_link_local) and ip.ip not in out:
                    out.append(ip.ip)
    return out


INTERFACES_ENV = "BRISCOLA_LAN_INTERFACES"  # the default for --interfaces, e.g. "127.0.0.1"


def resolve_interfaces(
    interfaces: Sequence[str] | None, environ: Mapping[str, str] | None = None
) -> list[str]:
    """The addresses to use: those given, else $BRISCOLA_LAN_INTERFACES, else the LAN ones."""
    env = os.environ if environ is None else environ
    from_env = [p for p in env.get(INTERFACES_ENV, "").replace(",", " ").split() if p]
    chosen = list(interfaces) if interfaces else from_env or lan_addresses()
    where = "--interfaces" if interfaces or not from_env else INTERFACES_ENV
    if not chosen:
        raise DiscoveryError(
            "no LAN interface with an IPv4 address was found: connect to a network, or pass "
            "--interfaces 127.0.0.1 to play on this machine only",
            "no-lan",
        )
    for text in chosen:
        try:
            addr = ipaddress.ip_address(text.split("%")[0])
        except ValueError as exc:
            raise DiscoveryError(
                f"{where} takes IP addresses, not {text!r}",
                "not-an-address",
                where=where,
                text=repr(text),
            ) from exc
        if addr.is_unspecified or addr.is_multicast:
            raise DiscoveryError(
                f"{where} needs the addresses of this machine's interfaces, not {text!r} "
                "(tables are advertised with exactly these addresses)",
                "not-an-interface",
                where=where,
                text=repr(text),
            )
    return chosen


def _clip(value: str) -> bytes:
    data = value.encode("utf-8")
    if len(data) <= TXT_MAX - 16:
        return data
    return data[: TXT_MAX - 16].decode("utf-8", "ignore").encode("utf-8")


def instance_label(name: str) -> str:
    """A DNS-SD instance label for a table name (max 63 bytes, no dots)."""
    label = name.replace(".", "·").strip() or "table"
    data = label.encode("utf-8")[:63]
    return data.decode("utf-8", "ignore")


@dataclass(frozen=True, slots=True)
class TableAd:
    """One table as seen through mDNS."""

    name: str
    instance: str
    addresses: tuple[str, ...]
    port: int
    fingerprint: str
    version: str
    players: int
    seated: int
    free: int
    rules: str
    phase: str
    extra: Mapping[str, str] = field(default_factory=dict)
    deal: str = ""  # "blind", "classic", or "" (a host that does not say: classic)

    @property
    def address(self) -> str:
        """``HOST:PORT`` of the first address (IPv6 in brackets)."""
        host = self.addresses[0] if self.addresses else "?"
        return f"[{host}]:{self.port}" if ":" in host else f"{host}:{self.port}"

    @staticmethod
    def from_info(info: AsyncServiceInfo) -> TableAd | None:
        props = {
            k.decode("utf-8", "replace"): (v or b"").decode("utf-8", "replace")
            for k, v in info.properties.items()
        }
        try:
            # IPv4 first: a link-local IPv6 address needs its scope to be usable.
            addresses = tuple(
                sorted(info.parsed_scoped_addresses(IPVersion.All), key=lambda a: ":" in a)
            )
            return TableAd(
                name=props.get("name") or info.name.removesuffix("." + SERVICE_TYPE),
                instance=info.name,
                addresses=addresses,
                port=int(info.port or 0),
                fingerprint=props.get("fp", ""),
                version=props.get("v", ""),
                players=int(props.get("players", "0")),
                seated=int(props.get("seated", "0")),
                free=int(props.get("free", "0")),
                rules=props.get("rules", ""),
                phase=props.get("phase", ""),
                extra=props,
                deal=props.get("deal", ""),
            )
        except ValueError:
            return None


# The TXT ``phase`` values (protocol/transport.md section 4), and the table coordinator's
# phases each stands for: the draw and every step of a hand are all "playing".
PUBLIC_PHASES = ("lobby", "playing", "over")
_PUBLIC_PHASE = {
    "": "lobby",  # a coordinator that names no phase takes players
    "lobby": "lobby",
    "commit": "playing",
    "reveal": "playing",
    "shuffle": "playing",
    "deal": "playing",
    "play": "playing",
    "dispute": "playing",
    "ack": "playing",
    "over": "over",
}


def public_phase(phase: str) -> str:
    """The advertised phase for a coordinator's phase name; any other name is "playing"."""
    return _PUBLIC_PHASE.get(phase, "playing")


def build_txt(
    *,
    name: str,
    fingerprint: str,
    version: str,
    players: int,
    seated: int,
    free: int,
    rules: str,
    phase: str,
    deal: str = "",
) -> dict[str, bytes]:
    """The TXT items of a table; every item is kept within 255 bytes."""
    txt = {
        "v": _clip(version),
        "name": _clip(name),
        "players": str(players).encode(),
        "seated": str(seated).encode(),
        "free": str(free).encode(),
        "rules": _clip(rules),
        "phase": public_phase(phase).encode(),
        "fp": fingerprint.encode(),
    }
    if deal:
        txt["deal"] = _clip(deal)
    return txt


class Advertiser:
    """Publishes tables over mDNS on the given interfaces; update TXT; unregister on close."""

    def __init__(self, interfaces: Sequence[str], *, cooperating: bool = False) -> None:
        self.interfaces = list(interfaces)
        self.cooperating = cooperating
        self.azc: AsyncZeroconf | None = None
        self.infos: dict[str, AsyncServiceInfo] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._by_key: dict[str, set[asyncio.Task[Any]]] = {}

    async def async_start(self) -> None:
        if self.azc is None:
            try:
                self.azc = AsyncZeroconf(interfaces=self.interfaces)
            except OSError as exc:
                raise DiscoveryError(
                    f"cannot start mDNS on {self.interfaces}: {exc}. Pick addresses of this "
                    "machine with --interfaces.",
                    "cannot-start",
                    where=str(self.interfaces),
                    why=str(exc),
                ) from exc

    def _info(self, key: str, port: int, txt: Mapping[str, bytes], label: str) -> AsyncServiceInfo:
        addrs = [socket.inet_pton(_family(a), a.split("%")[0]) for a in self.interfaces]
        return AsyncServiceInfo(
            SERVICE_TYPE,
            f"{label}.{SERVICE_TYPE}",
            addresses=addrs,
            port=port,
            properties=dict(txt),
            server=f"briscola-{abs(hash(key)) % 10**8}.local.",
        )

    async def async_register(self, key: str, name: str, port: int, txt: Mapping[str, bytes]) -> str:
        """Register a table; return the instance name actually used (renamed on conflict)."""
        await self.async_start()
        assert self.azc is not None
        info = self._info(key, port, txt, instance_label(name))
        task = await self.azc.async_register_service(
            info, allow_name_change=True, cooperating_responders=self.cooperating
        )
        self._keep(key, task)
        self.infos[key] = info
        return info.name

    async def async_update(self, key: str, txt: Mapping[str, bytes]) -> None:
        """Publish new TXT for a table (a new ServiceInfo: properties are read-only)."""
        old = self.infos.get(key)
        if old is None or self.azc is None:
            return
        label = old.name.removesuffix("." + SERVICE_TYPE)
        info = self._info(key, int(old.port or 0), txt, label)
        info.server = old.server
        self.infos[key] = info
        self._keep(key, await self.azc.async_update_service(info))

    async def async_unregister(self, key: str) -> None:
        # Stop pending announcements first, or one sent after the goodbye brings the table back.
        pending = self._by_key.pop(key, set())
        for task in pending:
            task.cancel()
        if pending:
            await asyncio.gather(*pending, return_exceptions=True)
        info = self.infos.pop(key, None)
        if info is not None and self.azc is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(await self.azc.async_unregister_service(info), 2.0)

    async def async_close(self) -> None:
        for key in list(self.infos):
            await self.async_unregister(key)
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.azc is not None:
            await self.azc.async_close()
            self.azc = None

    def _keep(self, key: str, awaitable: Any) -> None:
        if isinstance(awaitable, asyncio.Future):
            per_key = self._by_key.setdefault(key, set())
            for group in (self._tasks, per_key):
                group.add(awaitable)  # type: ignore[arg-type]
                awaitable.add_done_callback(group.discard)


def _family(address: str) -> socket.AddressFamily:
    return socket.AF_INET6 if ":" in address else socket.AF_INET


RESOLVE_TRIES = 6  # questions for a table's records before it is left out (about 30 s in all)
RESOLVE_TIMEOUT_MS = 3000  # each one waits this long for the answer


class Browser:
    """Keeps a live dict of tables on the network; ``on_change`` is called on every change."""

    def __init__(
        self,
        interfaces: Sequence[str],
        *,
        on_change: Callable[[dict[str, TableAd]], None] | None = None,
    ) -> None:
        self.interfaces = list(interfaces)
        self.on_change = on_change
        self.tables: dict[str, TableAd] = {}
        self.azc: AsyncZeroconf | None = None
        self.browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._changed = asyncio.Event()
        self._generation: dict[str, int] = {}  # per instance: bumped by every mDNS event

    async def __aenter__(self) -> Browser:
        await self.async_start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.async_close()

    async def async_start(self) -> None:
        try:
            self.azc = AsyncZeroconf(interfaces=self.interfaces)
        except OSError as exc:
            raise DiscoveryError(
                f"cannot start mDNS on {self.interfaces}: {exc}. Pick addresses of this machine "
                "with --interfaces.",
                "cannot-start",
                where=str(self.interfaces),
                why=str(exc),
            ) from exc
        # Multicast (QM) questions only: a unicast answer to port 5353 reaches just one of the
        # sockets sharing that port on a machine (SO_REUSEPORT), maybe not ours.
        self.browser = AsyncServiceBrowser(
            self.azc.zeroconf,
            SERVICE_TYPE,
            handlers=[self._on_state_change],
            question_type=DNSQuestionType.QM,
        )

    def _on_state_change(
        self,
        zeroconf: Any,
        service_type: str,
        name: str,
        state_change: ServiceStateChange,
    ) -> None:
        self._generation[name] = self._generation.get(name, 0) + 1
        if state_change is ServiceStateChange.Removed:
            if self.tables.pop(name, None) is not None:
                self._notify()
            return
        task = asyncio.get_running_loop().create_task(
            self._resolve(service_type, name, self._generation[name])
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, service_type: str, name: str, generation: int) -> None:
        """Ask for the table's records until they come: a question or an answer lost on a busy
        LAN must not hide a table that announces nothing new (its TXT may never change again)."""
        for attempt in range(RESOLVE_TRIES):
            if self.azc is None or self._generation.get(name) != generation:
                return  # closed, or removed or changed meanwhile (a newer resolve runs)
            info = AsyncServiceInfo(service_type, name)
            if await info.async_request(self.azc.zeroconf, RESOLVE_TIMEOUT_MS, DNSQuestionType.QM):
                break
            await asyncio.sleep(min(0.5 * (2**attempt), 4.0))
        else:
            return
        if self._generation.get(name) != generation:  # removed or changed meanwhile
            return
        ad = TableAd.from_info(info)
        if ad is not None and ad.port:
            self.tables[name] = ad
            self._notify()

    def _notify(self) -> None:
        self._changed.set()
        if self.on_change is not None:
            self.on_change(dict(self.tables))

    def reset_change(self) -> None:
        """Forget earlier changes: the next ``wait_change`` waits for a new one."""
        self._changed.clear()

    async def wait_change(self, timeout: float) -> bool:
        """Wait until the table list changed since ``reset_change``; False on timeout."""
        try:
            await asyncio.wait_for(self._changed.wait(), timeout)
        except TimeoutError:
            return False
        return True

    async def wait_for(self, predicate: Callable[[], bool], timeout: float) -> bool:
        """Wait until ``predicate()`` holds, re-checked at every change; False on timeout."""
        deadline = time.monotonic() + timeout
        while True:
            self.reset_change()
            with contextlib.suppress(KeyError):
                if predicate():
                    return True
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            await self.wait_change(left)

    async def async_close(self) -> None:
        if self.browser is not None:
            await self.browser.async_cancel()
            self.browser = None
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.azc is not None:
            await self.azc.async_close()
            self.azc = None


async def list_tables(interfaces: Sequence[str], timeout: float) -> list[TableAd]:
    """Browse for ``timeout`` seconds and return the tables seen, sorted by name."""
    async with Browser(interfaces) as browser:
        await asyncio.sleep(timeout)
        return sorted(browser.tables.values(), key=lambda t: t.name)


async def find_table(
    interfaces: Sequence[str], name: str | None, timeout: float, *, exclude: Iterable[str] = ()
) -> TableAd:
    """Return the first table called ``name`` (or any table when None) as soon as it is seen."""
    excluded = set(exclude)
    deadline = time.monotonic() + timeout
    async with Browser(interfaces) as browser:
        while True:
            browser.reset_change()
            for ad in browser.tables.values():
                if ad.instance in excluded:
                    continue
                if name is None or name in (ad.name, ad.instance.split(".")[0]):
                    return ad
            left = deadline - time.monotonic()
            if left <= 0:
                break
            await browser.wait_change(left)
    seen = ", ".join(sorted(t.name for t in browser.tables.values())) or "none"
    what = f"table {name!r}" if name else "any table"
    raise DiscoveryError(
        f"{what} was not found within {timeout:g} s on {list(interfaces)} (tables seen: {seen}). "
        "Check that you are on the same network, or join with HOST:PORT.",
        "not-found",
        what=what,
        seen=seen,
    )
