"""The tables a client hosts itself are kept (``net/kept.py``): an unfinished match is offered
to continue and never overwritten by a new table; a table served now, one whose match never
started, and one whose journal was damaged are not offered (the damaged one is not overwritten
either); a kept table comes back with the same port, certificate, host key and game (a practice
table whose port another program took meanwhile on a free one: nobody else rejoins it)."""

from __future__ import annotations

import asyncio
import socket

import pytest

from briscola_lan.net.client import Target
from briscola_lan.net.embedded import EmbeddedHost, continue_embedded_host, start_embedded_host
from briscola_lan.net.journal import journal_path
from briscola_lan.net.kept import HOSTED, PRACTICE, save_hosting, tables_dir, unfinished
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.net.serving import ListenError
from briscola_lan.net.table_spec import HostError, load_spec
from briscola_lan.rules import TableOptions


async def _practice() -> EmbeddedHost:
    return await start_embedded_host(
        TableOptions.make(players=2), "Practice", {1: "random"}, ["127.0.0.1"],
        advertise=False, ai_delay=0.0,
    )  # fmt: skip


async def _played(host: EmbeddedHost, cards: int) -> str:
    """Play ``cards`` cards at ``host`` from seat 0, then leave it: the game's id."""
    client = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "Tess")
    played, never = asyncio.Event(), asyncio.Event()
    count = [0]

    async def gate() -> None:  # before each of my cards: the one after the last never comes
        count[0] += 1
        if count[0] > cards:
            played.set()
            await never.wait()

    task = asyncio.create_task(auto_play(client, make_chooser("random", 1), seat=0, gate=gate))
    try:
        await asyncio.wait_for(played.wait(), 30)
        return str(client.session.state.game_id)
    finally:
        task.cancel()
        await client.close()


async def test_an_unfinished_match_is_offered_and_never_overwritten() -> None:
    idle = await _practice()  # never started: nothing to continue
    first = await _practice()  # served now: not offered while it is
    where = first.kept_in
    try:
        assert idle.kept_in is not None and where is not None and idle.kept_in != where
        game = await _played(first, 3)
        assert unfinished() == []
    finally:
        await idle.close()
        await first.close()
    (kept,) = unfinished()
    assert kept.kind == PRACTICE and kept.directory == where and kept.hand == 1
    before = journal_path(kept.directory).read_bytes()
    second = await _practice()  # a new practice game takes another folder
    try:
        assert second.kept_in not in (None, where)
    finally:
        await second.close()
    assert journal_path(kept.directory).read_bytes() == before
    again = await continue_embedded_host(kept.directory, ai_delay=0.0)
    try:
        assert (again.port, again.fingerprint) == (first.port, first.fingerprint)
        assert again.table.identity.public_key == first.table.identity.public_key
        assert again.table.game_id.hex() == game
        assert unfinished() == []  # served again now
        with pytest.raises(HostError, match="being played now, in another briscola-lan"):
            await continue_embedded_host(kept.directory, ai_delay=0.0)  # a second window
        client = await connect(Target("127.0.0.1", again.port, None, again.fingerprint), "Tess")
        await client.close()
    finally:
        await again.close()
    assert [k.directory for k in unfinished()] == [kept.directory]


async def test_a_damaged_journal_is_not_offered_nor_overwritten() -> None:
    host = await _practice()
    try:
        await _played(host, 2)
    finally:
        await host.close()
    (kept,) = unfinished()
    path = journal_path(kept.directory)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one byte changed on the disk
    path.write_bytes(bytes(data))
    assert unfinished() == []
    with pytest.raises(HostError, match="digest"):
        await continue_embedded_host(kept.directory, ai_delay=0.0)
    other = await _practice()
    try:
        assert other.kept_in != kept.directory
    finally:
        await other.close()
    assert path.read_bytes() == bytes(data)
    assert sorted(p.name for p in tables_dir().iterdir()) == ["practice", "practice-2"]


async def test_a_practice_table_whose_port_was_taken_comes_back_on_a_free_one() -> None:
    """Continuing a practice game never fails for its port: only this client plays at it. A
    hosted table stays where its players' clients rejoin it, and says why it cannot."""
    host = await _practice()
    try:
        game = await _played(host, 2)
    finally:
        await host.close()
    (kept,) = unfinished()
    with socket.socket() as squatter:  # another program took the port meanwhile
        squatter.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # past a TIME_WAIT
        squatter.bind(("127.0.0.1", host.port))
        squatter.listen()
        again = await continue_embedded_host(kept.directory, ai_delay=0.0)
        try:
            assert again.port != host.port and again.fingerprint == host.fingerprint
            assert again.table.game_id.hex() == game
            client = await connect(Target("127.0.0.1", again.port, None, again.fingerprint), "Tess")
            await client.close()
        finally:
            await again.close()
        assert load_spec(kept.directory / "table.json").port == again.port  # where it is now
        save_hosting(kept.directory, HOSTED, ["127.0.0.1"])  # the same table, hosted
        squatter.close()
        with socket.socket() as other:
            other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            other.bind(("127.0.0.1", again.port))
            other.listen()
            with pytest.raises(ListenError, match="in use"):
                await continue_embedded_host(kept.directory, ai_delay=0.0)
    assert [k.directory for k in unfinished()] == [kept.directory]  # still kept, still offered
