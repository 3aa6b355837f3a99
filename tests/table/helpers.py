"""Shared test helpers: deterministic entropy, simple bots, and a match runner with taps."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Abort, decode, hello_proof
from briscola_lan.rules import Card, TableOptions
from briscola_lan.rules.hand import Hand, SeatView
from briscola_lan.table.client import ClientSession
from briscola_lan.table.core import chiamata_bot_factory
from briscola_lan.table.deal_classic import ClassicDeal
from briscola_lan.table.host import HostTable, Outgoing
from briscola_lan.table.selfplay import Wire, counter_entropy, play_out, seat_clients
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import PROTOCOL_VERSION, Message, Record


def aborts(records: list[Record]) -> list[tuple[int, int]]:
    """(hand, seat named) of every abort in a file, in order (a hand aborted naming a seat is
    dealt again with the next hand number, protocol/fairness.md §8.7)."""
    return [(st.hand, st.seat) for b, _ in records if isinstance(st := decode(b), Abort)]


def classic(host: HostTable) -> ClassicDeal:
    """The table's current hand, dealt the classic way."""
    deal = host.deal
    assert isinstance(deal, ClassicDeal), deal
    return deal


def hand_of(host: HostTable) -> Hand | None:
    """The rules engine's hand of a classic table (None before the first deal)."""
    deal = host.deal
    return deal.hand if isinstance(deal, ClassicDeal) else None


def challenge(host: HostTable, conn: int, channel: bytes = b"") -> m.Challenge:
    """Open connection ``conn`` and return the challenge the host sends it first."""
    (first,) = host.connect(conn, channel)
    assert isinstance(first.message, m.Challenge) and first.conn == conn
    return first.message


def proven_hello(
    identity: Identity,
    ch: m.Challenge,
    name: str = "p",
    token: str | None = None,
    *,
    channel: bytes = b"",
    key: bytes | None = None,
) -> m.Hello:
    """A hello announcing ``key`` (default: the identity's own) with ``identity``'s proof."""
    announced = identity.public_key if key is None else key
    body = hello_proof(ch.nonce, ch.host_key, channel, announced)
    return m.Hello(PROTOCOL_VERSION, name, announced, token, identity.sign(body))


def say_hello(
    host: HostTable, conn: int, identity: Identity, name: str = "p", token: str | None = None
) -> list[Outgoing]:
    """Connect ``conn`` and say a proven hello as ``identity``; returns the host's answer."""
    return host.receive(conn, proven_hello(identity, challenge(host, conn), name, token))


def cycle_chooser(seed: int) -> Callable[[SeatView], Card]:
    def choose(view: SeatView) -> Card:
        plays = view.legal_plays
        return plays[(seed + len(view.tricks)) % len(plays)]

    return choose


def setup(
    options: TableOptions, label: str = "t", deal: str = "classic"
) -> tuple[HostTable, list[ClientSession], Wire]:
    """A table with one seated, ready session per seat (the classic deal unless asked)."""
    host, clients, wire = seat_clients(options, entropy=counter_entropy(label), deal=deal)
    return host, clients, wire


def run_match(
    options: TableOptions,
    *,
    tap: Callable[[int, Message], Message | None] | None = None,
    client_tap: Callable[[int, Message], Message | None] | None = None,
    label: str = "t",
    deal: str = "classic",
) -> tuple[HostTable, list[ClientSession], Wire]:
    """Play a whole match; ``tap`` edits host->client messages, ``client_tap`` the other way."""
    host, clients, wire = setup(options, label, deal)
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


# --- five players (Briscola chiamata) ---------------------------------------------------------

FIVE = TableOptions.make(players=5, match_format="total", match_hands=1)


def five_table(label: str, deal: str, **kw: Any) -> tuple[HostTable, list[Any], Wire]:
    """A one-hand five-player table dealt ``deal`` ("blind" or "classic"), its match started."""
    host, clients, wire = seat_clients(
        FIVE, entropy=counter_entropy(label), name="t", deal=deal, **kw
    )
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    return host, clients, wire


def chiamata_bots() -> list[Any]:
    """A rules-level five-player bot for each seat."""
    return [chiamata_bot_factory("rules", seat) for seat in range(5)]


def statements(records: list[Record]) -> list[Any]:
    """A file's statements, decoded, in order."""
    return [decode(b) for b, _ in records]


def error_codes(client: Any) -> list[str]:
    """The codes of the errors a client session has met."""
    return [e.code for e in client.state.errors]
