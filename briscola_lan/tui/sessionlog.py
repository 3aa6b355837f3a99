"""Why discovery is off (``net.discovery`` says it in English) in the player's language."""

from __future__ import annotations

import re

from briscola_lan.tui.i18n import N_, _

# Why discovery is off (``net.discovery.DiscoveryError``), in the lobby's status line; the
# system's own words (an OS error) stay as they come.
DISCOVERY: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), t)
    for p, t in (
        (
            r"no LAN interface with an IPv4 address was found: connect to a network, or pass "
            r"--interfaces 127\.0\.0\.1 to play on this machine only",
            N_(
                "no LAN interface with an IPv4 address was found: connect to a network, or "
                "pass --interfaces 127.0.0.1 to play on this machine only"
            ),
        ),
        (
            r"(?P<where>\S+) takes IP addresses, not (?P<text>.+)",
            N_("{where} takes IP addresses, not {text}"),
        ),
        (
            r"(?P<where>\S+) needs the addresses of this machine's interfaces, not (?P<text>.+) "
            r"\(tables are advertised with exactly these addresses\)",
            N_(
                "{where} needs the addresses of this machine's interfaces, not {text} (tables "
                "are advertised with exactly these addresses)"
            ),
        ),
        (
            r"cannot start mDNS on (?P<where>.+?): (?P<why>.*)\. Pick addresses of this machine "
            r"with --interfaces\.",
            N_(
                "cannot start mDNS on {where}: {why}. Pick addresses of this machine with "
                "--interfaces."
            ),
        ),
    )
)


def discovery_reason(text: str) -> str:
    """Why discovery is off, in the player's language (as it came if no pattern knows it)."""
    for pattern, template in DISCOVERY:
        m = pattern.fullmatch(text)
        if m is not None:
            return _(template).format(**m.groupdict())
    return text
