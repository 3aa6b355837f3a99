"""A resumed client over real TLS: welcome, the replay of its seat's messages, replay_done, then
live traffic, its own player_connection first (protocol/SPEC.md §6b). A hello that resumes no
seat is live from its welcome."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import tls
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.wire import messages as m
from tests.table.helpers import hand_of, say_hello, setup

# Sent to one connection or about the lobby: never part of a seat's replay.
NOT_REPLAYED = (
    m.Challenge,
    m.Welcome,
    m.ReplayDone,
    m.SeatsChanged,
    m.SeatAssigned,
    m.PlayerConnection,
    m.Error,
    m.Notice,
)


async def _lobby(port: int, fp: str) -> list[TableClient]:
    clients = [await connect(Target("127.0.0.1", port, None, fp), f"p{i}") for i in range(2)]
    for i, c in enumerate(clients):
        assert await c.wait_for(lambda c=c: c.live, 5)  # type: ignore[misc]  # welcomed
        c.send(*c.session.take_seat(i))
        assert await c.wait_for(lambda c=c, i=i: c.session.state.seat == i, 5)  # type: ignore[misc]
        c.send(*c.session.ready())
    await clients[1].wait_for(lambda: all(s.ready for s in clients[1].session.state.seats), 5)
    clients[0].send(*clients[0].session.start())
    return clients


async def test_resumed_client_gets_replay_done_after_the_replay_and_before_live(
    tmp_path: Path,
) -> None:
    table = HostTable(
        TableOptions.make(players=2, hands_to_win=1), name="t", identity=Identity.generate()
    )
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    clients = await _lobby(hosted.port, cert.fingerprint)
    victim, other = clients[1], clients[0]
    seen: list[Any] = []
    victim.before_message = seen.append
    try:
        assert await victim.wait_for(lambda: victim.session.state.view is not None, 10)
        first = [x for x in seen if not isinstance(x, NOT_REPLAYED)]
        assert first, "the victim saw no match message before the cut"
        seen.clear()
        assert victim.conn is not None
        victim.conn.stream.abort()  # a crash: no goodbye
        assert await victim.wait_for(lambda: victim.reconnects == 1 and victim.live, 10)
        kinds = [type(x) for x in seen]
        assert kinds[:2] == [m.Challenge, m.Welcome] and seen[1].seat == 1
        done = kinds.index(m.ReplayDone)
        assert kinds.count(m.ReplayDone) == 1
        # Between welcome and replay_done: the whole log of the seat, in order, nothing else.
        assert seen[2:done] == first
        # Then live traffic, starting with the seat's own player_connection.
        assert await victim.wait_for(
            lambda: any(isinstance(x, m.PlayerConnection) for x in seen[done:]), 5
        )
        assert seen[done + 1] == m.PlayerConnection(1, True)
        assert not any(isinstance(x, m.PlayerConnection) for x in seen[:done])
        # A card played now reaches the victim after its replay_done.
        turn = other.session.state.view
        assert turn is not None and turn.to_play is not None
        player = clients[turn.to_play]
        assert await player.wait_for(lambda: player.session.state.view is not None, 5)
        player.send(*player.session.play(player.session.state.view.legal_plays[0]))
        assert await victim.wait_for(
            lambda: any(isinstance(x, m.CardPlayed) for x in seen[done:]), 5
        )
        assert not any(isinstance(x, m.CardPlayed) for x in seen[:done])
    finally:
        for c in clients:
            await c.close()
        await server.close()


def test_pure_host_replay_done_only_after_a_resumed_seat_and_before_player_connection() -> None:
    lobby = HostTable(TableOptions.make(players=2), name="t", identity=Identity.generate())
    newcomer = say_hello(lobby, 7, Identity.generate(bytes([7]) * 32), "late")
    assert [type(o.message) for o in newcomer] == [m.Welcome]  # no seat: live at once
    host, clients, wire = setup(TableOptions.make(players=2, hands_to_win=1), "replay")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    log = list(host.seats[1].log)
    assert log and host.disconnect(1)
    token = host.seats[1].token
    out = say_hello(host, 8, clients[1].identity, "bot1", token)
    mine = [o.message for o in out if o.conn == 8]
    assert isinstance(mine[0], m.Welcome) and mine[0].seat == 1
    assert mine[1 : 1 + len(log)] == log
    assert mine[1 + len(log) :] == [m.ReplayDone(), m.PlayerConnection(1, True)]
    to_others = [o.message for o in out if o.conn != 8]
    assert m.ReplayDone() not in to_others and m.PlayerConnection(1, True) in to_others


class _FakeClient:
    """The parts of a TableClient that ``auto_play`` reads, driven by the test."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session
        self.error: Exception | None = None
        self.closed = False
        self.reconnects = 0
        self.connected = asyncio.Event()
        self.connected.set()
        self.live = False
        self.sent: list[m.Message] = []

    def send(self, *messages: m.Message) -> bool:
        self.sent.extend(messages)
        return True

    version = 0

    async def wait_change(self, timeout: float | None = None) -> bool:
        await asyncio.sleep(0.01)
        return True

    async def wait_for(self, predicate: object, timeout: float | None = None) -> bool:
        await asyncio.sleep(0.01)  # as wait_change: the test moves the state itself
        return True


async def test_a_resumed_bot_plays_only_after_replay_done() -> None:
    host, clients, wire = setup(TableOptions.make(players=2, hands_to_win=1), "bot")
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    assert hand_of(host) is not None and hand_of(host).current_player is not None
    turn = hand_of(host).current_player
    host.disconnect(turn)
    out = say_hello(host, 9, clients[turn].identity, "bot", host.seats[turn].token)
    mine = [o.message for o in out if o.conn == 9]
    done = mine.index(m.ReplayDone())
    session = ClientSession(clients[turn].identity, "bot")
    fake = _FakeClient(session)
    for msg in mine[:done]:  # welcome and the replay: the seat's turn is in it
        session.receive(msg)
    assert session.state.view is not None and session.state.view.my_turn
    task = asyncio.create_task(auto_play(fake, make_chooser("random", 1), seat=turn))  # type: ignore[arg-type]
    try:
        await asyncio.sleep(0.1)
        assert not any(isinstance(x, m.PlayCard) for x in fake.sent), "played before replay_done"
        session.receive(mine[done])
        fake.live = True  # as TableClient does on replay_done
        for _ in range(100):
            if any(isinstance(x, m.PlayCard) for x in fake.sent):
                break
            await asyncio.sleep(0.01)
        assert any(isinstance(x, m.PlayCard) for x in fake.sent)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
