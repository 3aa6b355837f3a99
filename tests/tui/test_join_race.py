"""Two players asking for one seat at the same moment: the one the host refuses takes the next
free seat by itself, instead of staying "not seated" beside a free seat."""

from __future__ import annotations

from pathlib import Path

import pytest

from briscola_lan.fairness.identity import Identity
from briscola_lan.net import tls
from briscola_lan.net.server import HostServer
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.deal import Outgoing
from briscola_lan.table.host import HostTable
from briscola_lan.wire import messages as m

from .helpers import ENTER, lobby_entry, net_config, running, wait_for

pytestmark = pytest.mark.usefixtures("private_dirs")

ZED = 10_000  # the other player's connection, made inside the host's own process


class RacingTable(HostTable):
    """A table where another player, Zed, takes the seat a client asks for just before it."""

    zed: ClientSession | None = None

    def _zed_takes(self, seat: int) -> list[Outgoing]:
        """Zed connects, says hello and sits in ``seat``; what the others are sent meanwhile."""
        self.zed = zed = ClientSession(Identity.generate(), "Zed")
        others: list[Outgoing] = []
        pending = [(ZED, msg) for msg in zed.hello()]
        outs = super().connect(ZED)
        for step in range(50):
            for o in outs:
                if o.conn == ZED:
                    pending.extend((ZED, r) for r in zed.receive(o.message))
                else:
                    others.append(o)
            if step == 1:
                pending.extend((ZED, r) for r in zed.take_seat(seat))
            if not pending:
                break
            outs = []
            for conn, msg in pending:
                outs.extend(super().receive(conn, msg))
            pending = []
        assert zed.state.seat == seat, zed.state.errors
        return others

    def receive(self, conn: int, message: m.Message, *, settle: bool = True) -> list[Outgoing]:
        if isinstance(message, m.TakeSeat) and self.zed is None:
            return self._zed_takes(message.seat) + super().receive(conn, message)
        return super().receive(conn, message, settle=settle)


async def test_a_player_refused_a_seat_taken_at_the_same_moment_sits_in_the_next(
    tmp_path: Path,
) -> None:
    table = RacingTable(
        TableOptions.make(players=4), name="Busy table", identity=Identity.generate(),
        ai_seats={2: "random", 3: "random"},
    )  # fmt: skip
    cert = tls.load_or_create_certificate(tmp_path / "host")
    server = HostServer(tls.server_context(cert), hosts=["127.0.0.1"], fingerprint=cert.fingerprint)
    hosted = await server.add_table("t", table)

    class Front:
        port, fingerprint = hosted.port, cert.fingerprint

    try:
        async with running(net_config(tmp_path)) as d:
            d.client.set_lobby([lobby_entry(Front, "Busy table", 2, players=4)])
            await d.keys(ENTER)
            model = d.client.model
            refused = lambda: "Could not" in (model.waiting or "")  # noqa: E731
            await wait_for(lambda: model.seated or refused(), 15, "a seat")
            assert table.zed is not None and table.zed.state.seat == 0
            assert model.seated and model.my_seat == 1, model.waiting
            session = d.client.backend.session  # type: ignore[attr-defined]
            assert [e.code for e in session.state.errors] == ["seat_taken"]
            await wait_for(lambda: table.seats[1].ready, 10, "my seat ready")
    finally:
        await server.close()
