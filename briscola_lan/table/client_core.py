"""The client session's own state and how it keeps it: its seeds (saved so that a restarted client
can still reveal them), the transcript it checks record by record, the events it tells, and what
it signs. ``ClientSession`` (``table/client.py``) is this with the handlers of the host's messages.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from briscola_lan.fairness.blind_hand import BlindHand
from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.classic_hand import ClassicHand
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import (
    Ack,
    MatchStart,
    Statement,
)
from briscola_lan.fairness.verify import (
    Fault,
    TranscriptChecker,
    Violation,
)
from briscola_lan.rules.hand import SeatView
from briscola_lan.rules.match import Match
from briscola_lan.table import events as ev
from briscola_lan.table.client_state import ClientState
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import CodecError, pack_state, unpack_state
from briscola_lan.wire.messages import Message, Record

SECRETS_FORMAT = "briscola-lan-client-secrets"
SECRETS_VERSION = 1


class SecretsError(ValueError):
    """Saved client secrets that cannot be loaded (damaged, foreign or another version)."""


class NoSignal(ValueError):
    """No signal can be made now; ``already``: this seat signalled in this trick already."""

    def __init__(self, message: str, *, already: bool = False) -> None:
        super().__init__(message)
        self.already = already


class SessionCore:
    """One player's side of the protocol: what every handler shares."""

    def __init__(
        self,
        identity: Identity,
        name: str,
        entropy: Callable[[int], bytes] = secrets.token_bytes,
        on_change: Callable[[ClientState], None] | None = None,
        on_secrets: Callable[[bytes], None] | None = None,
    ) -> None:
        """``on_secrets`` is called with ``pending_secrets()`` each time a new seed is drawn,
        before the message committing to it is returned: save it (beside the resume token) so
        that a restarted client can ``load_secrets`` and still reveal the seed it committed to.
        """
        self.identity = identity
        self.on_secrets = on_secrets
        self.name = name
        self.entropy = entropy
        self.on_change = on_change
        self.state = ClientState()
        self.records: list[Record] = []
        self.host_key = b""
        self._checker = TranscriptChecker(defer_signatures=True, follow=True)
        self._match: Match | None = None
        self._ms: MatchStart | None = None
        self._seeds: dict[tuple[bytes, int], bytes] = {}  # (game id, hand) -> my seed
        # The game that is over (its seeds forgotten): a replay of it draws no seed again.
        self._over: bytes | None = None
        self._chain_at_reveal = b""
        self._acked: dict[int, bool] = {}
        self._ack_due: int | None = None  # the deciding hand: ack once the match-end came
        self._drawing = False  # between DrawStarted and MatchStarted
        self._blind: BlindParty | None = None  # my party in the current blind hand
        self._blind_hand: BlindHand | None = None  # the current blind hand, to its last reveal
        # Past a fault this client checks nothing and takes no part in later blind hands; the
        # seats the host plays are then read from the answers it publishes, unchecked.
        self._sitting_out = False
        self._outside: frozenset[int] = frozenset()
        # the party my seat's view is read from: the current blind hand's, and after its end
        # the last one's (the final table stays on screen until the next hand starts)
        self._shown: BlindParty | None = None
        self._blind_sent: set[bytes] = set()  # blind statements sent on this connection
        self._blind_mine: set[int] = set()  # positions of my cards opened in this blind hand
        # The handshake of the current connection: the host's challenge (None until it came),
        # the TLS certificate the connection was pinned to, and a hello asked for before the
        # challenge came (its resume token), sent as soon as the challenge arrives.
        self._challenge: m.Challenge | None = None
        self._channel = b""
        self._hello_wanted: tuple[str | None] | None = None

    def pending_secrets(self) -> bytes:
        """This client's seeds of the current game, as a small versioned msgpack blob.

        Seeds already revealed are public, so only the current game's seeds are kept (the
        revealed ones too while it runs: a resumed seat's replay goes through its hands again),
        and none once the game is over; the caller stores the blob privately (it lets the host
        or anyone learn an unrevealed seed).
        """
        seeds = [[gid, hand, seed] for (gid, hand), seed in sorted(self._seeds.items())]
        return pack_state(
            {
                "format": SECRETS_FORMAT,
                "version": SECRETS_VERSION,
                "seeds": seeds,
                "over": self._over,
            }
        )

    def load_secrets(self, data: bytes) -> None:
        """Take back the seeds saved by ``pending_secrets`` (call before ``hello``).

        Raises ``SecretsError`` with a readable reason for a damaged or foreign blob.
        """
        try:
            obj = unpack_state(data)
        except CodecError as exc:
            raise SecretsError(f"not a saved client secrets file ({exc})") from exc
        if not isinstance(obj, dict) or obj.get("format") != SECRETS_FORMAT:
            raise SecretsError("not a briscola-lan client secrets file")
        if obj.get("version") != SECRETS_VERSION:
            raise SecretsError(f"client secrets version {obj.get('version')!r} is not supported")
        items = obj.get("seeds")
        if not isinstance(items, list):
            raise SecretsError("damaged client secrets: seeds must be a list")
        seeds: dict[tuple[bytes, int], bytes] = {}
        for item in items:
            if not (
                isinstance(item, list)
                and len(item) == 3
                and isinstance(item[0], bytes)
                and len(item[0]) == 16
                and isinstance(item[1], int)
                and isinstance(item[2], bytes)
                and len(item[2]) == 32
            ):
                raise SecretsError("damaged client secrets: a seed is not [game id, hand, seed]")
            seeds[(item[0], item[1])] = item[2]
        over = obj.get("over")
        if not (over is None or (isinstance(over, bytes) and len(over) == 16)):
            raise SecretsError("damaged client secrets: over must be a game id or nil")
        self._seeds.update(seeds)
        self._over = over if over is not None else self._over

    def _seed_for(self, game_id: bytes, hand: int) -> bytes | None:
        """My seed for one hand (or the draw) of a game: drawn once, saved before it is used;
        None for a game that is over (a resumed seat's replay of it: there is nothing to send)."""
        key = (game_id, hand)
        seed = self._seeds.get(key)
        if seed is None:
            if game_id == self._over:
                return None
            for old in [k for k in self._seeds if k[0] != game_id]:
                del self._seeds[old]  # another game's seeds are revealed or void
            seed = self._seeds[key] = self.entropy(32)
            if self.on_secrets is not None:
                self.on_secrets(self.pending_secrets())
        return seed

    def _forget_secrets(self) -> None:
        """The game is over: its seeds and hand secrets are needed no more (revealed, or of a
        hand that was aborted), so none is kept, in memory or in the saved blob; the game is
        marked over, so that a replay of it (a resumed seat) does not draw seeds again."""
        game = bytes.fromhex(self.state.game_id) if self.state.game_id else None
        if self._seeds or (game is not None and game != self._over):
            self._seeds.clear()
            self._over = game
            if self.on_secrets is not None:
                self.on_secrets(self.pending_secrets())

    @property
    def _classic(self) -> ClassicHand | None:
        """The classic hand being followed (the checker's machine; the last one until the next
        hand starts, so that the final table stays on screen)."""
        return self._checker.classic

    def _mine_host_played(self, seat: int) -> bool:
        return seat in self._checker.taken_over  # the host plays my seat: it holds the seed

    def _emit(self, event: ev.Event) -> None:
        self.state.events.append(event)

    def _changed(self, event: ev.Event | None = None) -> None:
        if event is not None:
            self._emit(event)
        self.state.version += 1
        if self.on_change is not None:
            self.on_change(self.state)

    def _refresh(self) -> None:
        c, s, party = self._classic, self.state, self._shown
        ms = self._ms
        if ms is not None:
            ai = {i for i, level in enumerate(ms.ai_levels) if level}
            taken = self._outside if self._sitting_out else self._checker.taken_over
            s.host_plays = tuple(sorted(ai | taken))
        make: Callable[[], SeatView | None] | None = None
        if party is not None:
            seat = s.seat
            if seat is not None:
                make = lambda: party.view(seat)  # noqa: E731
        elif c is not None:
            seat = s.seat
            if seat is not None:
                make = lambda: c.view(seat)  # noqa: E731
        s._view, s._view_of = None, make  # built when read
        self._changed()

    def _signed(self, cls: Callable[[bytes, bytes], Message], st: Statement) -> Message:
        body = st.encode()
        sig = self.identity.sign(body)
        self._checker.known_good(self.identity.public_key, body, sig)  # it comes back, receipted
        return cls(body, sig)

    def _live(self, fault: Fault) -> None:
        """Something only this live client saw go wrong (fairness.md §8.10): told, and kept beside
        the verdict of the hand (or the draw) in progress, the first one each; the verdict, which
        is the file's, stays as the checker has it. The queued signatures are checked first,
        as before any failure is told (fairness.md §8.10): a forged record is named at once."""
        if self._checker.pending_signatures:
            try:
                self._checker.flush()
            except Violation as v:
                self._fail_now(v.fault)
        d = self.state.draw
        check = d if self._drawing and d is not None else self.state.verification
        if check is not None and check.live is None:
            check.live = fault
        self._emit(ev.LiveFault(fault))

    def _fail_now(self, fault: Fault) -> None:
        """The checker found a fault: the verdict of the draw or hand in progress."""
        d = self.state.draw
        if self._drawing and d is not None:
            if d.fault is None:
                d.status, d.fault = "failed", fault
            self._emit(ev.FaultFound(fault, draw=True))
            return
        check = self.state.verification
        if check is not None and check.fault is None:
            check.status, check.fault = "failed", fault
        self._emit(ev.FaultFound(fault, draw=False))

    def _record(self, rec: Record) -> Statement | None:
        """Keep a record and run it through the checker; the statement (past a fault too, so
        that the game can be followed), or None if the bytes are no statement."""
        self.records.append(rec)
        try:
            self._checker.add(*rec)
        except Violation as v:
            check = self.state.verification
            if self._drawing or (check is not None and check.fault is None):
                self._fail_now(v.fault)
        if self._checker.last_statement is not None:
            return self._checker.last_statement
        return None  # not a statement: the checker named the fault

    def _reset_match(self) -> None:
        self.records, self._checker = [], TranscriptChecker(defer_signatures=True, follow=True)
        self._match, self._ms = None, None
        self._blind, self._shown = None, None
        self._blind_hand = None
        self.state.checks = []
        self.state.draw, self._drawing = None, False
        self.state.taken_over = False

    def _hand_checked(self) -> None:
        """The hand's last check is done: its verdict, as the checker has it."""
        check = self.state.verification
        if check is not None and check.fault is None:
            rep = self._checker.report.hands[-1] if self._checker.report.hands else None
            check.status = "verified" if rep is not None and rep.verified else "failed"

    def _ack(self, hand: int, out: list[Message]) -> None:
        seat = self.state.seat
        if seat is not None and self._ms is not None and not self._mine_host_played(seat):
            ack = Ack(self._ms.game_id, hand, seat, self._chain_at_reveal)
            out.append(self._signed(m.AckHand, ack))
            self._acked[hand] = True
