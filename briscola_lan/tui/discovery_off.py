"""Why discovery is off, in the player's language: worded from ``DiscoveryError.kind`` and the
parts of its message, never from its English."""

from __future__ import annotations

from briscola_lan.tui.i18n import N_, _

# Why discovery is off, by ``DiscoveryError.kind``; the fields are its ``details`` (the system's
# own words, an OS error, stay as they come).
_DISCOVERY_OFF = {
    "no-lan": N_(
        "no LAN interface with an IPv4 address was found: connect to a network, or pass "
        "--interfaces 127.0.0.1 to play on this machine only"
    ),
    "not-an-address": N_("{where} takes IP addresses, not {text}"),
    "not-an-interface": N_(
        "{where} needs the addresses of this machine's interfaces, not {text} (tables are "
        "advertised with exactly these addresses)"
    ),
    "cannot-start": N_(
        "cannot start mDNS on {where}: {why}. Pick addresses of this machine with --interfaces."
    ),
}


def discovery_reason(exc: BaseException) -> str:
    """Why discovery is off, in the player's language (any other error as it came)."""
    from briscola_lan.net.discovery import DiscoveryError  # loaded: discovery was tried

    if not isinstance(exc, DiscoveryError) or exc.kind not in _DISCOVERY_OFF:
        return str(exc)
    try:
        return _(_DISCOVERY_OFF[exc.kind]).format(**exc.details)
    except (KeyError, IndexError, ValueError):
        return str(exc)
