"""The lobby's network side, all that starts with the client: the live table list from mDNS
discovery. Hosting and joining load the network client (``tui/netplay.py``: TLS, the wire, the
fairness protocol) when first used, so that the lobby is on the screen sooner.

``DiscoveryLobby`` turns the ``net.discovery.Browser`` table list into lobby entries as tables
appear, fill up and vanish.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from briscola_lan.tui.state import HostForm, LobbyEntry

if TYPE_CHECKING:  # zeroconf is loaded when discovery starts, after the lobby is on the screen
    from briscola_lan.net.discovery import Browser, TableAd
    from briscola_lan.tui.app import ClientConfig
    from briscola_lan.tui.backend import TableBackend


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
    """``netplay.host_backend``, its module loaded on the first table hosted or practised."""
    from briscola_lan.tui import netplay

    return netplay.host_backend(form, config, practice)


def join_backend(entry: LobbyEntry, config: ClientConfig) -> TableBackend:
    """``netplay.join_backend``, its module loaded on the first table joined."""
    from briscola_lan.tui import netplay

    return netplay.join_backend(entry, config)


def install(config: ClientConfig) -> None:
    """Plug the network parts into the client: the live lobby, hosting and joining."""
    config.lobby_source = DiscoveryLobby(config.interfaces)
    config.host_factory = host_backend
    config.join_factory = join_backend


__all__ = ["DiscoveryLobby", "host_backend", "install", "join_backend", "lobby_entry"]
