"""The table's lobby: a connection's hello and the proof of its identity key, taking, moving and
leaving seats, seating and removing AI players, and freeing the seats of players who left."""

from __future__ import annotations

import secrets

from briscola_lan.fairness.identity import verify_signature
from briscola_lan.fairness.pubkey import InvalidKey, check_public_key
from briscola_lan.fairness.statements import hello_proof
from briscola_lan.table.core import MAX_NAME, Connection, TableCore, unknown_level
from briscola_lan.table.deal import Outgoing, Phase, Refused, Seat
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import PROTOCOL_VERSION, ErrorCode


class Lobby(TableCore):
    """Who sits where, before a match: the lobby's part of ``HostTable``."""

    def _need_owner(self, c: Connection) -> None:
        if self._my_seat(c) != 0:  # not_seated first, then not_allowed (SPEC.md §7)
            raise Refused(ErrorCode.NOT_ALLOWED, "only the player in seat 0 manages the table")

    def _hello(self, conn: int, c: Connection, msg: m.Hello, out: list[Outgoing]) -> None:
        if msg.version != PROTOCOL_VERSION:
            raise Refused(
                ErrorCode.BAD_VERSION,
                f"this table speaks protocol version {PROTOCOL_VERSION}, your client speaks "
                f"{msg.version}: update briscola-lan on the older side",
            )
        try:
            check_public_key(msg.public_key)
        except InvalidKey as exc:
            raise Refused(
                ErrorCode.BAD_KEY, f"public_key is not a valid Ed25519 identity key: {exc}"
            ) from None
        self._check_proof(c, msg)
        c.proven += 1
        again = c.proven > 1  # one retry (without the token) per connection, then it closes
        name = msg.name.strip()[:MAX_NAME] or "player"
        seat_no: int | None = None
        if msg.resume_token is not None:
            for i, s in enumerate(self.seats):
                if s.token is not None and secrets.compare_digest(s.token, msg.resume_token):
                    seat_no = i
            if seat_no is None:
                raise Refused(
                    ErrorCode.BAD_TOKEN, "unknown resume token: join as a new player", close=again
                )
            if self.seats[seat_no].key != msg.public_key:
                raise Refused(
                    ErrorCode.BAD_TOKEN, "resume token belongs to another identity", close=again
                )
        c.hello = True
        out.append(
            Outgoing(
                conn,
                m.Welcome(
                    PROTOCOL_VERSION,
                    self.name,
                    self.options,
                    self.identity.public_key,
                    self.seat_infos,
                    seat_no,
                    None if seat_no is None else self.seats[seat_no].token,
                    self.draw_partners,
                    self.draw_dealer,
                    self.deal_mode,
                    self.hints,
                ),
            )
        )
        c_name = name
        if seat_no is None:
            self._pending_names[conn] = (c_name, msg.public_key)
            return
        seat = self.seats[seat_no]
        old = seat.conn
        if old is not None and old in self.conns:
            self.conns[old].seat = None
            out.append(Outgoing(old, m.Error(ErrorCode.BAD_TOKEN, "resumed elsewhere"), close=True))
        c.seat, seat.conn, seat.dropped_at = seat_no, conn, None
        self._pending_names[conn] = (seat.name, seat.key)
        for logged in seat.log:
            out.append(Outgoing(conn, logged))
        out.append(Outgoing(conn, m.ReplayDone()))  # the end of the replay: live from here on
        if self.phase is Phase.LOBBY:
            self._seats_changed(out, f"{seat.name} is back")
        else:
            self.broadcast(out, m.PlayerConnection(seat_no, True), log=False)

    def _check_proof(self, c: Connection, msg: m.Hello) -> None:
        """The hello must prove the key: its signature over this connection's challenge."""
        if msg.proof is None:
            raise Refused(
                ErrorCode.BAD_PROOF,
                "hello has no proof of the identity key: update briscola-lan on the client",
            )
        body = hello_proof(c.nonce, self.identity.public_key, c.channel, msg.public_key)
        if not verify_signature(msg.public_key, body, msg.proof):
            raise Refused(
                ErrorCode.BAD_PROOF,
                "hello's proof does not verify: it must be signed by the private key of "
                "public_key, over this connection's challenge and the table's certificate",
            )

    def _take_seat(self, conn: int, c: Connection, seat_no: int, out: list[Outgoing]) -> None:
        self._need_phase(Phase.LOBBY)
        if not 0 <= seat_no < len(self.seats):
            raise Refused(ErrorCode.NO_SUCH_SEAT, f"seats are 0..{len(self.seats) - 1}")
        if c.seat == seat_no:  # asked again (SPEC.md §5): answered, nothing changes
            out.append(Outgoing(conn, m.SeatAssigned(seat_no, self.seats[seat_no].token)))
            return
        if self.seats[seat_no].occupied:
            raise Refused(ErrorCode.SEAT_TAKEN, f"seat {seat_no} is taken: choose a free seat")
        name, key = self._pending_names.get(conn, ("player", b""))
        if c.seat is None and any(s.occupied and s.key == key for s in self.seats if s.ai is None):
            raise Refused(
                ErrorCode.NOT_ALLOWED, "this identity already holds a seat on another connection"
            )
        if c.seat is not None:  # a move to a free seat: the same player, the same resume token
            old = c.seat
            token = self.seats[old].token
            self.seats[old] = Seat()
            event = f"{name} moved from seat {old} to seat {seat_no}"
        else:
            token = self.entropy(16).hex()
            event = f"{name} took seat {seat_no}"
        self.seats[seat_no] = Seat(True, name, key, None, None, conn, token)
        c.seat = seat_no
        out.append(Outgoing(conn, m.SeatAssigned(seat_no, token)))
        self._seats_changed(out, event)

    def _leave_seat(self, c: Connection, out: list[Outgoing]) -> None:
        self._need_phase(Phase.LOBBY)
        s = self._my_seat(c)
        name = self.seats[s].name
        self.seats[s] = Seat()
        conn = next(k for k, v in self.conns.items() if v is c)
        c.seat = None
        out.append(Outgoing(conn, m.SeatAssigned(None, None)))
        self._seats_changed(out, f"{name} left seat {s}")

    def _set_ai(self, seat_no: int, level: str | None, out: list[Outgoing]) -> None:
        self._need_phase(Phase.LOBBY)
        if not 0 <= seat_no < len(self.seats):
            raise Refused(ErrorCode.NO_SUCH_SEAT, f"seats are 0..{len(self.seats) - 1}")
        seat = self.seats[seat_no]
        if level is None:
            if seat.ai is None:
                raise Refused(ErrorCode.NOT_ALLOWED, f"seat {seat_no} has no AI to remove")
            self.seats[seat_no] = Seat()
            self._seats_changed(out, f"AI removed from seat {seat_no}")
            return
        if seat.occupied and seat.ai is None:
            raise Refused(ErrorCode.SEAT_TAKEN, f"a player sits in seat {seat_no}")
        problem = unknown_level(level)
        if problem is not None:
            raise Refused(ErrorCode.UNKNOWN_LEVEL, problem)
        self._put_ai(seat_no, level)
        self._seats_changed(out, f"AI ({level}) sits in seat {seat_no}")

    def _free_abandoned_seats(self, out: list[Outgoing]) -> None:
        """Lobby: a player gone for the grace period loses the seat (and its resume token)."""
        for i, seat in enumerate(self.seats):
            if (
                seat.occupied
                and seat.ai is None
                and seat.conn is None
                and seat.dropped_at is not None
                and self.now - seat.dropped_at >= self.grace
            ):
                self.seats[i] = Seat()
                self._seats_changed(out, f"{seat.name} did not come back: seat {i} is free")
