"""Shared test helpers: deterministic entropy, simple bots, and a match runner with taps."""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from briscola_lan.rules import Card, TableOptions
from briscola_lan.rules.hand import SeatView
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import Wire, play_out, seat_clients
from briscola_lan.wire.messages import Message


def counter_entropy(label: str = "t") -> Callable[[int], bytes]:
    """Deterministic 'entropy' for reproducible tests (never for real games)."""
    state = {"i": 0}

    def entropy(n: int) -> bytes:
        state["i"] += 1
        out = b""
        while len(out) < n:
            out += hashlib.sha256(f"{label}/{state['i']}/{len(out)}".encode()).digest()
        return out[:n]

    return entropy


def cycle_chooser(seed: int) -> Callable[[SeatView], Card]:
    def choose(view: SeatView) -> Card:
        plays = view.legal_plays
        return plays[(seed + len(view.tricks)) % len(plays)]

    return choose


def setup(options: TableOptions, label: str = "t") -> tuple[HostTable, list[ClientSession], Wire]:
    host, clients, wire = seat_clients(options, entropy=counter_entropy(label))
    return host, clients, wire


def run_match(
    options: TableOptions,
    *,
    tap: Callable[[int, Message], Message | None] | None = None,
    client_tap: Callable[[int, Message], Message | None] | None = None,
    label: str = "t",
) -> tuple[HostTable, list[ClientSession], Wire]:
    """Play a whole match; ``tap`` edits host->client messages, ``client_tap`` the other way."""
    host, clients, wire = setup(options, label)
    wire.tap = tap
    if client_tap is not None:
        original = wire.send_to_host

        def send(conn: int, msgs: list[Message]) -> None:
            edited = [client_tap(conn, msg) for msg in msgs]
            original(conn, [x for x in edited if x is not None])

        wire.send_to_host = send  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(i) for i in range(options.players)])
    return host, clients, wire
