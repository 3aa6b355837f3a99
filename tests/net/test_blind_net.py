"""The blind deal over real TLS (the classic deal's equivalents are in test_faults.py): a party
that drops mid-hand and comes back within the grace period keeps the hand going; one that stays
away is named when the hand aborts ("the host or seat N"); a player away when a hand starts is
played by the host for that hand and plays again in the next; bad moves get clear errors."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness import verify_records
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import BlindPlay, BlindStart, decode
from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, TableClient, Target
from briscola_lan.net.player import auto_play, connect, make_chooser
from briscola_lan.net.server import HostServer
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.host import HostTable
from briscola_lan.wire.messages import AckHand, ErrorCode, PlayCard


async def _serve(tmp_path: Path, table: HostTable) -> tuple[HostServer, int, str]:
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)
    return server, hosted.port, cert.fingerprint


async def _clients(port: int, fp: str, n: int) -> list[TableClient]:
    return [await connect(Target("127.0.0.1", port, None, fp), f"p{i}") for i in range(n)]


def _table(players: int, hands_to_win: int = 1, **kwargs: Any) -> HostTable:
    return HostTable(
        TableOptions.make(players=players, hands_to_win=hands_to_win),
        name="t",
        identity=Identity.generate(),
        deal="blind",
        **kwargs,
    )


def _cut(client: TableClient) -> None:
    """Kill the client's connection as a crash would (no goodbye)."""
    assert client.conn is not None
    client.conn.stream.abort()


def _gate(client: TableClient) -> asyncio.Event:
    """Keep ``client`` from reconnecting until the returned event is set (the network is down)."""
    up = asyncio.Event()
    real_open = client._open

    async def gated_open(target: Target) -> Any:
        if not up.is_set():
            raise ConnectError("test: the network is down")
        return await real_open(target)

    client._open = gated_open  # type: ignore[method-assign]
    return up


def _starts(records: list[tuple[bytes, bytes]]) -> list[BlindStart]:
    return [st for body, _ in records if isinstance(st := decode(body), BlindStart)]


def _blind_plays(records: list[tuple[bytes, bytes]]) -> int:
    return sum(isinstance(decode(body), BlindPlay) for body, _ in records)


def _play_all(clients: list[TableClient], **kwargs: Any) -> list[asyncio.Task[Any]]:
    return [
        asyncio.create_task(auto_play(c, make_chooser("random", i), seat=i, **kwargs))
        for i, c in enumerate(clients)
    ]


async def _wait(what: str, done: Callable[[], bool], timeout: float = 60.0) -> None:
    """Wait for a condition of the host's table (it has no change event to wait on)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not done():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


@pytest.mark.parametrize("when", ["passes", "play"])
async def test_a_party_back_within_the_grace_period_keeps_the_hand(
    tmp_path: Path, when: str
) -> None:
    table = _table(4, grace=60.0)
    server, port, fp = await _serve(tmp_path, table)
    clients = await _clients(port, fp, 4)
    victim = clients[2]
    try:
        tasks = _play_all(clients, delay=0.01)

        def moment() -> bool:
            bh = getattr(table.deal, "bh", None)
            if bh is None:
                return False
            if when == "passes":
                return len(bh.shuffles) >= 1 and not bh.locks
            return len(bh.plays) >= 6

        await _wait(f"the {when}", moment)
        _cut(victim)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 120)
        assert results[2].reconnects >= 1
        for c in clients:
            st = c.session.state
            assert st.match_over and not st.match_aborted, st.log
            assert [ch.status for ch in st.checks] == ["verified"] * len(st.checks), st.log
            assert verify_records(c.session.records).ok
        assert verify_records(table.records).ok
        assert all(h.parties == (0, 1, 2, 3) for h in verify_records(table.records).hands)
    finally:
        for c in clients:
            await c.close()
        await server.close()


def _aborted_naming_seat_1(records: list[tuple[bytes, bytes]]) -> None:
    """One hand aborted naming "host or seat 1", the others played: the match ended."""
    rep = verify_records(records)
    (aborted,) = [h for h in rep.hands if h.status == "aborted"]
    assert rep.fault is None and rep.verdict == "aborted" and rep.match_ended, rep
    assert aborted.fault is not None and aborted.fault.party == "host or seat 1", aborted.fault
    assert all(h.status == "verified" for h in rep.hands if h is not aborted)


async def test_a_party_away_past_the_grace_period_is_named_when_the_hand_aborts(
    tmp_path: Path,
) -> None:
    table = _table(4, grace=0.5)
    server, port, fp = await _serve(tmp_path, table)
    clients = await _clients(port, fp, 4)
    victim = clients[1]
    up = _gate(victim)
    try:
        tasks = _play_all(clients, delay=0.01)
        await _wait("a few plays", lambda: _blind_plays(table.records) >= 5)
        _cut(victim)
        others = [c for i, c in enumerate(clients) if i != 1]
        for c in others:  # the hand is aborted, dealt again, and the match played to its end
            assert await c.wait_for(lambda c=c: c.session.state.match_over, 60), c.session.state.log
        for c in others:
            st = c.session.state
            assert not st.match_aborted and st.winner is not None
            check = next(x for x in st.checks if x.status != "verified")
            assert check.status == "aborted" and check.fault is not None, st.log
            assert (check.fault.seat, check.fault.also_host) == (1, True), check.fault
            assert check.fault.party == "host or seat 1"
            _aborted_naming_seat_1(c.session.records)
        _aborted_naming_seat_1(table.records)
        # The player away: its own file stops where it left (nobody at fault in it).
        mine = verify_records(victim.session.records)
        assert mine.fault is None and mine.hands[-1].status == "incomplete", mine
        up.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for c in clients:
            await c.close()
        await server.close()


async def test_a_player_away_when_a_hand_starts_is_played_by_the_host_for_that_hand(
    tmp_path: Path,
) -> None:
    table = _table(2, hands_to_win=3, grace=60.0)
    server, port, fp = await _serve(tmp_path, table)
    clients = await _clients(port, fp, 2)
    stay, away = clients
    up = _gate(away)
    held: list[Any] = []
    hold = True
    receive = stay.session.receive

    def holding(message: Any) -> list[Any]:  # seat 0 keeps its ack of the first hand
        replies = receive(message)
        if not hold:
            return replies  # type: ignore[no-any-return]
        held.extend(r for r in replies if isinstance(r, AckHand))
        return [r for r in replies if not isinstance(r, AckHand)]

    stay.session.receive = holding  # type: ignore[method-assign]
    try:
        tasks = _play_all(clients)
        await _wait("seat 1's ack of the first hand", lambda: table.acks[1] is not None)
        assert held and table.hand_number == 0
        _cut(away)
        await _wait("seat 1 away", lambda: table.seats[1].conn is None)
        hold = False
        stay.send(*held)  # the first hand closes: the second starts with seat 1 away
        await _wait("the second hand", lambda: len(_starts(table.records)) >= 2)
        await _wait(  # the call is over when its answers are published (its parties known)
            "the second hand's call", lambda: verify_records(table.records).hands[1].parties
        )
        second = verify_records(table.records).hands[1]
        assert second.parties == (0, HOST_PARTY)  # the host plays seat 1 this hand
        await _wait("a play of the host for seat 1", lambda: _blind_plays(table.records) >= 22)
        up.set()  # back in the middle of the second hand: the host still plays it
        assert await away.wait_for(lambda: away.live and away.session.state.hand_number == 1, 30)
        st = away.session.state
        assert st.taken_over and "the host plays your seat this hand" in " ".join(st.log)
        results = await asyncio.wait_for(asyncio.gather(*tasks), 180)
        starts = _starts(table.records)
        assert len(starts) >= 3
        hands = verify_records(table.records).hands
        assert [h.parties for h in hands[2:]] == [(0, 1)] * len(hands[2:])  # its seat again
        assert results[1].plays > 0 and not st.taken_over
        for c in clients:
            cs = c.session.state
            assert cs.match_over and not cs.match_aborted, cs.log
            assert [ch.status for ch in cs.checks] == ["verified"] * len(cs.checks), cs.log
            assert verify_records(c.session.records).ok
        assert verify_records(table.records).ok
    finally:
        for c in clients:
            await c.close()
        await server.close()


async def test_bad_blind_moves_get_clear_errors_and_the_match_goes_on(tmp_path: Path) -> None:
    table = _table(2)
    server, port, fp = await _serve(tmp_path, table)
    a, b = await _clients(port, fp, 2)
    try:
        a.send(*a.session.take_seat(0), *a.session.ready())
        b.send(*b.session.take_seat(1), *b.session.ready())
        st = a.session.state
        assert await a.wait_for(lambda: bool(st.seats) and all(s.ready for s in st.seats), 10)
        a.send(*a.session.start())
        assert await a.wait_for(lambda: a.session.state.view is not None, 30)
        assert await b.wait_for(lambda: b.session.state.view is not None, 30)
        mover, other = (a, b) if a.session.state.view.my_turn else (b, a)
        mine, theirs = mover.session.state, other.session.state
        # Out of turn: the waiting seat plays a card it holds, with its true key.
        other.send(*other.session.play(theirs.view.hand[0]))
        assert await other.wait_for(lambda: len(theirs.errors) >= 1, 10)
        assert theirs.errors[-1].code == ErrorCode.NOT_YOUR_TURN
        # The mover names a card of its hand with the key of another of its positions.
        party = mover.session._blind
        held = party.hand.held_positions(mine.seat)
        good = party.play(mine.seat, party.card_at(held[0]))
        other_key = party.opening_key(held[1]).to_bytes(32, "little")
        forged = BlindPlay(
            good.game_id,
            good.hand,
            good.seat,
            good.context,
            good.index,
            good.card,
            good.position,
            other_key,
        )
        mover.send(PlayCard(forged.encode(), mover.session.identity.sign(forged.encode())))
        assert await mover.wait_for(lambda: len(mine.errors) >= 1, 10)
        assert mine.errors[-1].code == ErrorCode.ILLEGAL_PLAY
        assert "does not open" in mine.errors[-1].text
        # A card the mover does not hold, at one of its positions, with that position's key.
        wrong = next(c for c in range(40) if c not in party.seat_cards(mine.seat).values())
        forged = BlindPlay(
            good.game_id,
            good.hand,
            good.seat,
            good.context,
            good.index,
            wrong,
            good.position,
            good.key,
        )
        mover.send(PlayCard(forged.encode(), mover.session.identity.sign(forged.encode())))
        assert await mover.wait_for(lambda: len(mine.errors) >= 2, 10)
        assert mine.errors[-1].code == ErrorCode.ILLEGAL_PLAY
        # Another seat's statement, signed with the mover's own key.
        foreign = BlindPlay(
            good.game_id,
            good.hand,
            theirs.seat,
            good.context,
            good.index,
            good.card,
            good.position,
            good.key,
        )
        mover.send(PlayCard(foreign.encode(), mover.session.identity.sign(foreign.encode())))
        assert await mover.wait_for(lambda: len(mine.errors) >= 3, 10)
        assert mine.errors[-1].code == ErrorCode.NOT_ALLOWED
        # Nothing changed: the match plays to its end and verifies.
        assert _blind_plays(table.records) == 0
        await asyncio.wait_for(
            asyncio.gather(
                *(auto_play(c, make_chooser("random", i)) for i, c in enumerate((a, b)))
            ),
            120,
        )
        for c in (a, b):
            cs = c.session.state
            assert cs.match_over and not cs.match_aborted
            assert all(ch.status == "verified" for ch in cs.checks), cs.log
    finally:
        await a.close()
        await b.close()
        await server.close()
