"""Faults over real TLS: a client cut mid-trick resumes; a long absence hands the seat to an AI
and back; illegal, out-of-turn, foreign-seat moves and wrong resume tokens get clear errors."""

from __future__ import annotations

import asyncio
from pathlib import Path

from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Play
from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, TableClient, Target
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.wire.messages import Error, ErrorCode, PlayCard
from tests.net.helpers import RawPeer


async def _serve(tmp_path: Path, table: HostTable) -> tuple[HostServer, int, str]:
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    return server, hosted.port, cert.fingerprint


async def _clients(port: int, fp: str, n: int) -> list[TableClient]:
    return [await connect(Target("127.0.0.1", port, None, fp), f"p{i}") for i in range(n)]


def _cut(server: HostServer, client: TableClient) -> None:
    """Kill the client's connection as a crash would (no goodbye)."""
    assert client.conn is not None
    client.conn.stream.abort()


async def test_client_cut_mid_trick_reconnects_and_resumes(tmp_path: Path) -> None:
    table = HostTable(
        TableOptions.make(players=4, hands_to_win=1), name="t", identity=Identity.generate()
    )
    server, port, fp = await _serve(tmp_path, table)
    clients = await _clients(port, fp, 4)
    victim = clients[2]
    try:
        tasks = [
            asyncio.create_task(auto_play(c, make_chooser("random", i), seat=i, delay=0.01))
            for i, c in enumerate(clients)
        ]

        def mid_trick() -> bool:
            v = victim.session.state.view
            return v is not None and len(v.tricks) >= 2 and len(v.trick) in (1, 2)

        assert await victim.wait_for(mid_trick, 30)
        _cut(server, victim)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert results[2].reconnects == 1
        for c in clients:
            st = c.session.state
            assert st.match_over and not st.match_aborted
            assert [ch.status for ch in st.checks] == ["verified"] * len(st.checks)
        assert not any(s.taken_over for s in table.seats)
    finally:
        for c in clients:
            await c.close()
        await server.close()


async def test_absent_player_is_replaced_by_an_ai_and_gets_the_seat_back(tmp_path: Path) -> None:
    table = HostTable(
        TableOptions.make(players=2, hands_to_win=2),
        name="t",
        identity=Identity.generate(),
        grace=0.2,
        deal="classic",  # a blind hand cannot be taken over: tests/net/test_blind_net.py
    )
    server, port, fp = await _serve(tmp_path, table)
    clients = await _clients(port, fp, 2)
    away = clients[1]
    blocked = asyncio.Event()
    real_open = away._open

    async def gated_open(target: Target):  # type: ignore[no-untyped-def]
        if not blocked.is_set():
            raise ConnectError("test: the network is down")
        return await real_open(target)

    away._open = gated_open  # type: ignore[method-assign]
    played_by_away: list[int] = []
    try:
        tasks = [
            asyncio.create_task(
                auto_play(
                    c,
                    make_chooser("random", i),
                    seat=i,
                    delay=0.01,
                    on_play=(lambda h, k: played_by_away.append(h)) if i else None,
                )
            )
            for i, c in enumerate(clients)
        ]
        assert await away.wait_for(
            lambda: (v := away.session.state.view) is not None and len(v.tricks) >= 3, 30
        )
        _cut(server, away)
        assert await clients[0].wait_for(
            lambda: (
                any(
                    "AI" in line or "taken over" in line or "takes over" in line
                    for line in clients[0].session.state.log
                )
                or table.seats[1].taken_over
            ),
            10,
        )
        assert table.seats[1].taken_over
        blocked.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        st = away.session.state
        assert st.match_over
        hands = len(table.match.results) if table.match else 0
        assert hands >= 2
        # The player came back and played again in a later hand.
        assert played_by_away and max(played_by_away) >= 1
        assert not table.seats[1].taken_over
    finally:
        for c in clients:
            await c.close()
        await server.close()


async def test_bad_moves_get_clear_errors_and_the_game_goes_on(tmp_path: Path) -> None:
    table = HostTable(
        TableOptions.make(players=2, hands_to_win=1),
        name="t",
        identity=Identity.generate(),
        deal="classic",  # the blind deal's bad moves: tests/net/test_blind_net.py
    )
    server, port, fp = await _serve(tmp_path, table)
    a, b = await _clients(port, fp, 2)
    try:
        a.send(*a.session.take_seat(0), *a.session.ready())
        b.send(*b.session.take_seat(1), *b.session.ready())
        st = a.session.state  # the seat list comes with the welcome: () before it
        assert await a.wait_for(lambda: bool(st.seats) and all(s.ready for s in st.seats), 10)
        a.send(*a.session.start())
        assert await a.wait_for(lambda: a.session.state.view is not None, 10)
        sa, sb = a.session.state, b.session.state
        mover, other = (a, b) if sa.view.my_turn else (b, a)
        waiting = other.session.state
        # Out of turn: the waiting seat plays.
        other.send(*other.session.play(waiting.view.hand[0]))
        assert await other.wait_for(lambda: len(waiting.errors) >= 1, 5)
        assert waiting.errors[-1].code == ErrorCode.NOT_YOUR_TURN
        # A card the mover does not hold.
        mine = mover.session.state
        foreign = next(c for c in waiting.view.hand)
        mover.send(*mover.session.play(foreign))
        assert await mover.wait_for(lambda: len(mine.errors) >= 1, 5)
        assert mine.errors[-1].code == ErrorCode.ILLEGAL_PLAY
        # A move for someone else's seat, signed with my own key.
        ms = mover.session._ms
        st = Play(
            ms.game_id,
            mine.hand_number,
            waiting.seat,
            mover.session._checker.context_for(Play.KIND),
            0,
            waiting.view.hand[0].code,
        )
        body = st.encode()
        mover.send(PlayCard(body, mover.session.identity.sign(body)))
        assert await mover.wait_for(lambda: len(mine.errors) >= 2, 5)
        assert mine.errors[-1].code == ErrorCode.NOT_ALLOWED
        # A stranger with a wrong resume token.
        stranger = await RawPeer.open(port)
        await stranger.hello(Identity.generate(), "x", "not-a-token")
        refused = await stranger.next()
        assert isinstance(refused, Error) and refused.code == ErrorCode.BAD_TOKEN
        assert "resume token" in refused.text
        await stranger.close()
        # Nothing changed: the match plays to its end.
        await asyncio.wait_for(
            asyncio.gather(
                *(auto_play(c, make_chooser("random", i)) for i, c in enumerate((a, b)))
            ),
            60,
        )
        assert sa.match_over and sb.match_over
        assert all(ch.status == "verified" for ch in sa.checks + sb.checks)
    finally:
        await a.close()
        await b.close()
        await server.close()


async def test_a_stale_remembered_token_falls_back_to_a_fresh_join(tmp_path: Path) -> None:
    from briscola_lan.net.player import new_session
    from briscola_lan.net.resume_store import ResumeStore

    table = HostTable(TableOptions.make(players=2), name="t", identity=Identity.generate())
    server, port, fp = await _serve(tmp_path, table)
    store = ResumeStore(tmp_path / "tokens")
    target = Target("127.0.0.1", port, None, fp)
    store.put(target.key, "0123456789abcdef")
    client = TableClient(new_session("me"), target, resume_store=store)
    try:
        await client.start()
        state = client.session.state
        assert await client.wait_for(lambda: state.phase == "lobby", 5)
        assert state.seat is None and store.get(target.key) is None
        client.send(*client.session.take_seat(1))
        assert await client.wait_for(lambda: state.resume_token is not None, 5)
        assert store.get(target.key) == state.resume_token  # remembered for a restart
        assert client.error is None
    finally:
        await client.close()
        await server.close()
