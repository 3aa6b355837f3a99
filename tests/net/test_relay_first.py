"""A card's relay leaves first: while the host's journal is written on its writer threads, the
``card_played`` that relays a card to the other seats is handed to their connections before the
host signs what the card made due (its receipt, the draws, the end of the hand), and every seat
still gets the table's messages in the order the table made them."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Receipt, decode, decode_as
from briscola_lan.net import tls
from briscola_lan.net.client import Target
from briscola_lan.net.journal import Journal
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.wire.codec import FrameDecoder
from briscola_lan.wire.messages import CardPlayed, ReceiptIssued


def _seat_of(card: CardPlayed) -> int:
    seat: int = getattr(decode(card.body), "seat")  # noqa: B009 (a play of either deal)
    return seat


async def _play_match(server: HostServer, port: int, fingerprint: str) -> None:
    """Two seats join the table at ``port`` and play its match out; the server is closed after."""
    clients = []
    try:
        target = Target("127.0.0.1", port, None, fingerprint)
        for s in (0, 1):
            clients.append(await connect(target, f"p{s}"))
        await asyncio.wait_for(
            asyncio.gather(
                *(auto_play(c, make_chooser("random", s), seat=s) for s, c in enumerate(clients))
            ),
            60,
        )
    finally:
        for c in clients:
            await c.close()
        await server.close()


@pytest.mark.parametrize("deal", ["classic", "blind"])
async def test_a_card_is_relayed_before_its_receipt_is_signed(tmp_path: Path, deal: str) -> None:
    table = HostTable(
        TableOptions.make(players=2, hands_to_win=1),
        name="t",
        identity=Identity.generate(),
        deal=deal,
    )
    journal = Journal.open(tmp_path / "table.journal", table.identity.public_key)
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    assert server.write_ahead.threads > 0  # the journal is written off the event loop
    hosted = await server.add_table("t", table, journal=journal)
    send_now = server.write_ahead._send_now
    # For each card relayed to the other seat: whether its receipt was still owed then.
    owed_at_relay: list[bool] = []
    # Per seat, the messages handed to its connection, in order.
    got: dict[int, list[Any]] = {0: [], 1: []}

    def recording(h: Any, batches: dict[int, list[bytes]], closing: list[int]) -> None:
        for cid, frames in batches.items():
            seat = table.conns[cid].seat if cid in table.conns else None
            if seat is None:
                continue
            for message in FrameDecoder().feed(b"".join(frames)):
                got[seat].append(message)
                if type(message) is CardPlayed and _seat_of(message) != seat:
                    owed_at_relay.append(
                        any(rec[0] == message.body for _, _, rec, _ in table.receipts_due)
                    )
        send_now(h, batches, closing)

    server.write_ahead._send_now = recording
    try:
        await _play_match(server, hosted.port, cert.fingerprint)
        assert table.phase == "over"
    finally:
        journal.close()
    # Every card of the match (a hand of 40, one more after a tie), relayed to the other seat.
    assert owed_at_relay and len(owed_at_relay) % 40 == 0
    assert all(owed_at_relay)  # and its receipt was signed only after that
    for seat, messages in got.items():
        # Each seat has its own card back before the receipt the host signs for it.
        seen: set[bytes] = set()
        receipts = own = 0
        for message in messages:
            if type(message) is CardPlayed:
                seen.add(message.body)
                own += _seat_of(message) == seat
            elif type(message) is ReceiptIssued:
                receipt = decode_as(message.body, Receipt)
                if decode(receipt.statement).KIND in ("play", "blind-play"):
                    assert receipt.statement in seen, seat
                    receipts += 1
        assert receipts == own == len(owed_at_relay) // 2, seat


@pytest.mark.parametrize("deal", ["classic", "blind"])
async def test_a_card_left_in_two_writes_is_encoded_once(tmp_path: Path, deal: str) -> None:
    """Without a journal the host encodes what it sends itself: a card's relay to the other
    seat and the player's own copy (sent later, with its receipt) are one message, encoded
    once for both."""
    table = HostTable(
        TableOptions.make(players=2, hands_to_win=1),
        name="t",
        identity=Identity.generate(),
        deal=deal,
    )
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    encode = server.encode
    encoded: list[CardPlayed] = []

    def counting(message: Any) -> bytes:
        if type(message) is CardPlayed:
            encoded.append(message)
        return encode(message)

    server.encode = counting
    await _play_match(server, hosted.port, cert.fingerprint)
    assert table.phase == "over"
    cards = sum(1 for body, _ in table.records if decode(body).KIND in ("play", "blind-play"))
    assert cards >= 40 and len(encoded) == cards  # each card's message encoded once
