"""The default for --interfaces: $BRISCOLA_LAN_INTERFACES before the machine's LAN addresses."""

from __future__ import annotations

import pytest

from briscola_lan.net import discovery
from briscola_lan.net.discovery import INTERFACES_ENV, DiscoveryError, resolve_interfaces


def test_the_environment_gives_the_default_interfaces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discovery, "lan_addresses", lambda: ["192.0.2.7"])
    env = {INTERFACES_ENV: "127.0.0.1, 127.0.0.2"}
    assert resolve_interfaces(None, env) == ["127.0.0.1", "127.0.0.2"]
    assert resolve_interfaces(["127.0.0.3"], env) == ["127.0.0.3"]  # the option wins
    assert resolve_interfaces(None, {}) == ["192.0.2.7"]  # neither: the LAN addresses
    assert resolve_interfaces(None, {INTERFACES_ENV: "  "}) == ["192.0.2.7"]


def test_a_bad_address_in_the_environment_is_named_as_such() -> None:
    with pytest.raises(DiscoveryError, match=f"{INTERFACES_ENV} takes IP addresses"):
        resolve_interfaces(None, {INTERFACES_ENV: "kitchen"})
