"""The lobby's network side: the live table list from mDNS discovery, and the tables the
lobby opens (hosted in this process, joined from the list, named on the command line, or an
unfinished match of a table this client hosted, continued).

Only this module starts with the client: hosting and joining load the network client
(``tui/netplay.py``: TLS, the wire, the fairness protocol) and the embedded host
(``net/embedded.py``) when first used, so that the lobby is on the screen sooner.
``DiscoveryLobby`` turns the ``net.discovery.Browser`` table list into lobby entries as tables
appear, fill up and vanish.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import HostForm, LobbyEntry

if TYPE_CHECKING:  # zeroconf is loaded when discovery starts, after the lobby is on the screen
    from briscola_lan.net.client import Target
    from briscola_lan.net.discovery import Browser, TableAd
    from briscola_lan.net.kept import KeptTable
    from briscola_lan.tui.backend import TableBackend
    from briscola_lan.tui.config import ClientConfig


def lobby_entry(ad: TableAd) -> LobbyEntry:
    """A lobby row for a table seen over mDNS."""
    host = ad.address.rsplit(":", 1)[0].strip("[]")
    return LobbyEntry(
        key=ad.instance,
        name=ad.name,
        host=host,
        summary=ad.rules or f"{ad.players}p",
        seated=ad.seated,
        players=ad.players,
        open_seats=ad.free,
        address=ad.address,
        fingerprint=ad.fingerprint,
        phase=ad.phase,
        deal=ad.deal or "classic",
    )


class DiscoveryLobby:
    """A lobby source that browses ``_briscola._tcp`` on the chosen interfaces."""

    def __init__(self, interfaces: Sequence[str] | None) -> None:
        self.interfaces = interfaces
        self.browser: Browser | None = None
        self.error: str | None = None
        self.ads: dict[str, TableAd] = {}

    async def start(self, on_update: Callable[[list[LobbyEntry]], None]) -> None:
        from briscola_lan.net.discovery import Browser, DiscoveryError, resolve_interfaces

        try:
            chosen = resolve_interfaces(self.interfaces)
        except DiscoveryError as exc:
            self.error = str(exc)
            raise

        def changed(tables: dict[str, TableAd]) -> None:
            self.ads = dict(tables)
            ordered = sorted(tables.values(), key=lambda t: (t.name.lower(), t.instance))
            on_update([lobby_entry(ad) for ad in ordered])

        self.browser = Browser(chosen, on_change=changed)
        await self.browser.async_start()

    async def close(self) -> None:
        if self.browser is not None:
            await self.browser.async_close()
            self.browser = None


def host_backend(form: HostForm, config: ClientConfig, practice: bool) -> TableBackend:
    """A table hosted in this process: loopback only for practice, else on the LAN with mDNS
    (the network client and the host load with the first table hosted or practised)."""
    from briscola_lan.net.client import ConnectError
    from briscola_lan.net.discovery import resolve_interfaces
    from briscola_lan.net.embedded import EmbeddedHost, start_embedded_host
    from briscola_lan.net.serving import ListenError
    from briscola_lan.tui.netplay import NetBackend

    options = form.options()
    ai_seats = {
        seat: level for seat, level in enumerate(form.seat_fillers(), start=1) if level != "open"
    }
    name = form.table_name.strip() or f"{config.name}'s table"

    async def factory() -> EmbeddedHost:
        interfaces = ["127.0.0.1"] if practice else resolve_interfaces(config.interfaces)
        try:
            return await start_embedded_host(
                options,
                name,
                ai_seats,
                interfaces,
                advertise=not practice,
                ai_delay=config.ai_delay,
                draw_partners=form.draw_partners,
                draw_dealer=form.draw_dealer,
                own_thread=True,
                deal=form.deal_mode(),
                hints=form.hints,
            )
        except ListenError as exc:
            where = ", ".join(exc.hosts)
            raise ConnectError(
                _("cannot host on {where}: {error}").format(where=where, error=exc.error)
            ) from exc

    return NetBackend(
        _("Practice vs AI") if practice else name,
        name=config.name,
        host_factory=factory,
        want_seat=0,
        auto_start=True,
        interfaces=[] if practice else (config.interfaces or []),
        games=config.games,
        identity=config.identity,
        ascii_only=config.ascii_only,
        deck=config.deck,
    )


def kept_tables() -> list[KeptTable]:
    """The unfinished matches of the tables this client hosted itself, the latest first."""
    from briscola_lan.net.kept import unfinished

    return unfinished()


def continue_backend(kept: KeptTable, config: ClientConfig) -> TableBackend:
    """An unfinished match of a table this client hosted, served again where it was (a
    practice game alone; a hosted table on its addresses and port, where its players' clients
    rejoin by themselves) and my seat taken back."""
    from briscola_lan.net.client import ConnectError
    from briscola_lan.net.embedded import EmbeddedHost, continue_embedded_host
    from briscola_lan.net.kept import PRACTICE
    from briscola_lan.net.serving import ListenError
    from briscola_lan.tui.netplay import NetBackend

    async def factory() -> EmbeddedHost:
        try:
            return await continue_embedded_host(
                kept.directory, ai_delay=config.ai_delay, own_thread=True
            )
        except ListenError as exc:
            where = ", ".join(exc.hosts)
            raise ConnectError(
                _("cannot host on {where}: {error}").format(where=where, error=exc.error)
            ) from exc

    practice = kept.kind == PRACTICE
    return NetBackend(
        kept.name,
        name=config.name,
        host_factory=factory,
        want_seat=0,
        auto_start=True,
        interfaces=[] if practice else (config.interfaces or []),
        games=config.games,
        identity=config.identity,
        ascii_only=config.ascii_only,
        deck=config.deck,
    )


def join_backend(entry: LobbyEntry, config: ClientConfig) -> TableBackend:
    """A table found in the lobby: pinned to its advertised fingerprint, trusted on first use
    (the network client loads with the first table joined)."""
    from briscola_lan.net.client import Target

    host, _sep, port = entry.address.rpartition(":")
    target = Target(host.strip("[]"), int(port), entry.name, entry.fingerprint or None)
    return _joined(entry.name, target, config)


def join_target_backend(
    where: str,
    config: ClientConfig,
    *,
    fingerprint: str | None = None,
    seat: int | None = None,
    timeout: float = 5.0,
) -> TableBackend:
    """A table named on the command line (``briscola-lan join NAME|HOST:PORT``)."""
    from briscola_lan.net import tls
    from briscola_lan.net.client import parse_address, resolve_target
    from briscola_lan.net.discovery import resolve_interfaces

    async def find() -> Target:
        interfaces: list[str] = []
        if parse_address(where) is None or config.interfaces:
            interfaces = resolve_interfaces(config.interfaces)
        fp = tls.normalize_fingerprint(fingerprint) if fingerprint else None
        return await resolve_target(where, interfaces=interfaces, timeout=timeout, fingerprint=fp)

    return _joined(where, find, config, want_seat=seat)


def _joined(
    title: str,
    target: Target | Callable[[], Awaitable[Target]],
    config: ClientConfig,
    want_seat: int | None = None,
) -> TableBackend:
    """A table joined over the network: its certificate pinned (trusted on first use), my
    seat's resume token kept so that a restarted client sits back."""
    from briscola_lan.net.tls import KnownTables
    from briscola_lan.tui.netplay import NetBackend

    return NetBackend(
        title,
        name=config.name,
        target=target,
        want_seat=want_seat,
        auto_start=True,
        interfaces=config.interfaces or [],
        games=config.games,
        identity=config.identity,
        known_tables=KnownTables(),
        ascii_only=config.ascii_only,
        ai_level=config.ai_level,
        resume=True,
        deck=config.deck,
    )


def install(config: ClientConfig) -> None:
    """Plug the network parts into the client: the live lobby, hosting and joining."""
    config.lobby_source = DiscoveryLobby(config.interfaces)
    config.host_factory = host_backend
    config.join_factory = join_backend
    config.kept_source = kept_tables
    config.continue_factory = continue_backend


__all__ = [
    "DiscoveryLobby",
    "continue_backend",
    "host_backend",
    "install",
    "join_backend",
    "join_target_backend",
    "kept_tables",
    "lobby_entry",
]
