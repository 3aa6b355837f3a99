"""Sitting at a network table: take the wanted seat (or the next free one when two players ask
for one seat at once), and start the match once every seat is filled."""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan.net.client import TableClient
from briscola_lan.table.client import ClientSession
from briscola_lan.tui.i18n import _


@dataclass(frozen=True)
class NoSeat:
    """Why no seat was taken: ``why`` for the table screen; ``kept`` when it stays the reason
    (full, refused) rather than a table that never answered; ``log`` a line for the log."""

    why: str
    kept: bool
    log: str | None = None


async def take_seat(
    client: TableClient, session: ClientSession, want_seat: int | None
) -> NoSeat | None:
    """Sit down (and say ready); None once seated."""
    st = session.state
    await client.wait_for(lambda: bool(st.seats) or st.seat is not None, 15)
    if st.seat is None and not st.seats:  # never welcomed (or no seats came): say why
        error = client.error if client.error is not None else _("no answer from the host")
        return NoSeat(_("Could not open the table: {error}").format(error=error), kept=False)
    tried: set[int] = set()
    while st.seat is None:
        # Two players may ask for one seat at the same moment: the one refused takes the
        # next free seat (the host's seat list says which are free).
        free = [i.seat for i in st.seats if not i.occupied and i.seat not in tried]
        if not free:
            return NoSeat(
                _("The table is full: pick another table in the lobby."),
                kept=True,
                log=_("! the table is full"),
            )
        seat = want_seat if want_seat in free else free[0]
        tried.add(seat)
        errors = len(st.errors)
        client.send(*session.take_seat(seat))

        def answered(n: int = errors) -> bool:
            return st.seat is not None or len(st.errors) > n

        await client.wait_for(answered, 10)
        if st.seat is not None:
            client.send(*session.ready())
            break
        refused = st.errors[-1] if len(st.errors) > errors else None
        if refused is not None and refused.code == "seat_taken":
            continue
        why = refused.text if refused is not None else _("no answer from the host")
        return NoSeat(_("Could not take a seat: {why}").format(why=why), kept=True)
    return None


async def start_when_full(client: TableClient, session: ClientSession) -> None:
    """Seat 0's auto start: ask the host to start whenever every seat is taken and ready."""
    st = session.state

    def can_start() -> bool:
        return (
            st.phase == "lobby"
            and bool(st.seats)
            and all(i.occupied and (i.ai is not None or i.ready) for i in st.seats)
        )

    while not client.closed and st.phase == "lobby":
        if can_start():
            errors = len(st.errors)
            client.send(*session.start())

            def moved(n: int = errors) -> bool:
                return st.phase != "lobby" or len(st.errors) > n

            await client.wait_for(moved, 10)
        else:
            await client.wait_change(30)
