"""``briscola-lan tables`` fits an 80-column terminal, whatever the names and rules."""

from __future__ import annotations

from briscola_lan.net.discovery import TableAd
from briscola_lan.net.tables_cmd import WIDTH, table_lines


def _ad(name: str, address: str, rules: str, phase: str = "lobby", deal: str = "") -> TableAd:
    host, _, port = address.rpartition(":")
    return TableAd(
        name=name, instance=name, addresses=(host,), port=int(port), fingerprint="ab" * 32,
        version="2", players=4, seated=1, free=3, rules=rules, phase=phase, deal=deal,
    )  # fmt: skip


def test_the_listing_fits_80_columns() -> None:
    ads = [
        _ad(
            "A very long table name for the kitchen",
            "255.255.255.255:65535",
            "4p hands:5 no-exchange drawn-partners drawn-dealer",
            "playing",
            "blind",
        ),
        _ad("Kitchen", "192.0.2.7:40111", "2p hands:2"),
    ]
    lines = table_lines(ads)
    assert lines[0].split() == ["NAME", "ADDRESS", "SEATS", "STATE", "DEAL", "RULES"]
    assert all(len(line) <= WIDTH for line in lines), lines
    assert lines[1].startswith("A very long tabl ")
    assert "255.255.255.255:65535" in lines[1] and "playing" in lines[1] and "blind" in lines[1]
    assert lines[2].split() == [
        "Kitchen", "192.0.2.7:40111", "1/4", "open", "classic", "2p", "hands:2"
    ]  # fmt: skip  # a host that does not say deals classic
