"""The client's network side: a table over the network on the screen (``tui/lobby_net.py``
opens it: joined from the lobby or the command line, or hosted in this process by
``net/embedded.py``; this module loads with the first such table).

``NetBackend`` drives the table screen from the real client library
(``net.client.TableClient`` around the pure ``table.client.ClientSession``) and keeps the
table's ``TableModel`` up to date from the session; ``tui/verdicts.py`` words its verdicts,
``tui/net_words.py`` its names and status lines, ``tui/net_seat.py`` takes the seat.
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from briscola_lan.fairness.identity import Identity
from briscola_lan.net.client import TableClient, Target
from briscola_lan.net.embedded import EmbeddedHost
from briscola_lan.net.files import load_or_create_identity
from briscola_lan.net.resume_store import ResumeStore
from briscola_lan.net.tls import KnownTables
from briscola_lan.rules import CallResult, Card, MatchFormat, SeatView, hand_winner
from briscola_lan.table import events as ev
from briscola_lan.table.client import ClientSession, ClientState, HandCheck
from briscola_lan.tui import chiamata, eventlog
from briscola_lan.tui import deck as dk
from briscola_lan.tui.adapters import add_hand_cards, apply_seat_view
from briscola_lan.tui.backend import TableBackend, removed_two_line
from briscola_lan.tui.i18n import _
from briscola_lan.tui.net_actions import NetActions
from briscola_lan.tui.net_saves import TranscriptSaves
from briscola_lan.tui.net_seat import start_when_full, take_seat
from briscola_lan.tui.net_words import (
    SessionNames,
    closed_why,
    dealing_text,
    plain,
)
from briscola_lan.tui.saved import games_dir, record_hint
from briscola_lan.tui.state import HandSummary, SeatInfo, SignalNote, TableModel, player_name
from briscola_lan.tui.verdicts import verification


class NetBackend(NetActions):
    """A table over the network: the real client library with reconnects, my seat, the session.

    With ``host_factory`` the table is first hosted in this process (practice vs AI on loopback,
    or "host a table" on the LAN); otherwise ``target`` names a table found in the lobby.
    """

    def __init__(
        self,
        title: str,
        *,
        name: str,
        target: Target | Callable[[], Awaitable[Target]] | None = None,
        host_factory: Callable[[], Awaitable[EmbeddedHost]] | None = None,
        want_seat: int | None = None,
        auto_start: bool = False,
        interfaces: Sequence[str] = (),
        games: Path | None = None,
        identity: Identity | None = None,
        known_tables: KnownTables | None = None,
        ascii_only: bool = False,
        ai_level: str = "rules",
        resume: bool = False,
        deck: dk.Deck = dk.Deck.FRENCH,
        rematch: bool = False,
    ) -> None:
        super().__init__(
            TableModel(title=title, connection="connecting", seated=False, known=False)
        )
        self.deck = deck
        # A rematch: join the table's next match (once it opens) in my seat of the last one.
        self.rematching = rematch
        self._reopened = False
        self.name = name
        self.target = target
        self.host_factory = host_factory
        self.want_seat = want_seat
        self.auto_start = auto_start
        self.interfaces = list(interfaces)
        self.games = games
        self.identity = identity
        self.known_tables = known_tables
        self.ascii_only = ascii_only
        self.ai_level = ai_level
        self.resume = resume  # remember the seat's resume token: a restarted client sits back
        self.host: EmbeddedHost | None = None
        self.session: ClientSession | None = None
        self.client: TableClient | None = None
        self._events_seen = 0
        self._last_said = ""  # the log's last line from the session (why a match was aborted)
        self._summarized: set[int] = set()
        self._viewed_hand = -2  # the last hand a seat view was shown for
        self._acks_saved: set[int] = set()
        self._pending_play: tuple[int, int] | None = None
        self._pending_act: tuple[int, int, bool] | None = None
        self._called: tuple[int, Card, int] | None = None  # five players: (hand, card, caller)
        self._last_view: tuple[int, SeatView | None] | None = None  # five players: see _view
        # While the table replays my seat's messages: my view after the last one, and whether
        # I held my seat then (not the host's AI): see ``_replayed_plays``.
        self._replay_before: tuple[SeatView, bool] | None = None
        self._calls: dict[int, CallResult] = {}  # five players: each hand's scored call
        self._errors_seen = 0
        self._held = False
        self._tasks: set[asyncio.Task[None]] = set()
        # My transcript, and the host's of a table hosted here: written by a thread of their own.
        self._saves = TranscriptSaves(games, self._records_of, self._game_id, self._log)
        self._seatless: str | None = None  # why no seat could be taken (full, refused)
        self.model.waiting = (
            _("Waiting for the rematch to open...") if rematch else _("Connecting...")
        )

    # --- lifecycle -------------------------------------------------------------------------

    async def start(self) -> None:
        try:
            await self._start()
        except Exception as exc:
            self.model.connection = "closed"
            self.model.waiting = self._plain(
                _("Could not open the table: {error}").format(error=exc)
            )
            self.model.add_log(self._plain(f"! {exc}"))
            self.notify()

    async def _start(self) -> None:
        if self.host_factory is not None:
            self.host = await self.host_factory()
            self.target = Target(
                "127.0.0.1" if self.host.address == "0.0.0.0" else self.host.address,
                self.host.port,
                None,
                self.host.fingerprint,
            )
            self.model.add_log(
                _("Hosting on {address}:{port}").format(
                    address=self.host.address, port=self.host.port
                )
            )
        if callable(self.target):
            self.model.waiting = _("Looking for the table...")
            self.notify()
            self.target = await self.target()
        assert isinstance(self.target, Target)
        identity = self.identity
        if identity is None:
            identity = await asyncio.to_thread(load_or_create_identity)
        self.session = ClientSession(identity, self.name, on_change=self._pull_events)
        store: ResumeStore | None = None
        kept_in = None if self.host is None else self.host.kept_in
        if kept_in is not None:  # my seat's token is kept with the table, for its "continue"
            from briscola_lan.net.kept import seat_tokens

            store = ResumeStore(seat_tokens(kept_in))
            moved = self.host.moved_from if self.host is not None else None
            if moved is not None:  # a practice table on another port now: the same seat
                store.move(Target(self.target.host, moved).key, self.target.key)
        elif self.resume:
            store = ResumeStore()
        if store is not None:
            # A restarted client takes its seat back and can still reveal a seed it committed.
            store.attach_secrets(self.session, self.target.key)
        self.client = TableClient(
            self.session,
            self.target,
            known_tables=self.known_tables,
            interfaces=self.interfaces,
            resume_store=store,
        )
        self.client.on_change = self._sync
        self.client.on_message = self._on_message
        await self.client.start()
        self.model.connection = "connected"
        self._spawn(self._take_seat())

    def _spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _on_message(self, msg: object) -> None:
        """A welcome after the match was over: the host opened a new match at this table."""
        st = self.session.state if self.session is not None else None
        welcome = type(msg).__name__ == "Welcome"
        if welcome and st is not None and st.match_over and not self._reopened:
            self._reopened = True
            self.model.add_log(_("the table opened a new match: press r to sit in again"))

    async def _take_seat(self) -> None:
        client, session = self.client, self.session
        assert client is not None and session is not None
        st = session.state
        if self.rematching:  # the finished match's table may reopen later: no time limit
            # Until then it welcomes this client as a visitor with every seat still taken by
            # the last match; opening the next match closes this connection, and the client,
            # connected again, is welcomed to its lobby: a free seat there is the next match's.
            await client.wait_for(
                lambda: st.phase == "lobby" and any(not i.occupied for i in st.seats)
            )
            self.rematching = False
            self.model.waiting = None
        refused = await take_seat(client, session, self.want_seat)
        if refused is not None:
            self.model.waiting = self._plain(refused.why)
            if refused.kept:
                self._seatless = self.model.waiting
            if refused.log is not None:
                self.model.add_log(refused.log)
            self.notify()
            return
        if self.auto_start and st.seat == 0:
            await start_when_full(client, session)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        # Leaving mid-hand keeps the file saved at the end of the last hand; a lost table or a
        # finished match is saved as it stands (evidence of a withheld reveal, or the result).
        if self.model.match_over or self._connection() != "connected":
            self._save(whole=True)
        session = self.session
        if self.client is not None and session is not None:
            st = session.state
            if st.phase == "lobby" and st.seat is not None:  # leaving a lobby frees the seat
                self.client.send(*session.leave_seat())
                if self.client.resume_store is not None and isinstance(self.target, Target):
                    self.client.resume_store.put(self.target.key, None)
        if self.client is not None:
            self.client.on_change = None
            await self.client.close()
        if self.host is not None and not await self.host.close():
            said = _(
                "! the disk has not finished writing the table's journal: it holds every "
                "change the players were sent"
            )
            self.model.add_log(said)
        await self._saves.close()

    # --- actions (``NetActions`` sends a card, a signal, a bid or call) ----------------------

    def current_view(self) -> SeatView | None:
        st = self.session.state if self.session is not None else None
        if st is None or not self.model.live or st.taken_over:
            return None
        view, heard = st.view, st.partner_signals
        if view is not None and heard:  # the hint plays with what my partner signalled me
            view = dataclasses.replace(view, partner_signals=heard)
        return view

    def hints_allowed(self) -> bool:
        st = self.session.state if self.session is not None else None
        if st is None:
            return False
        others = [i for i in st.seats if i.occupied and i.ai is None and i.seat != st.seat]
        return st.hints or not others

    def record_hint(self, view: SeatView, card: Card) -> None:
        st = self.session.state if self.session is not None else None
        trick = len(view.tricks) + 1
        self.model.add_log(_("you asked the strong AI for a hint (trick {n})").format(n=trick))
        if st is not None and st.game_id:
            directory, game, hand = self.games or games_dir(), st.game_id, st.hand_number

            def keep() -> None:
                record_hint(directory, game, self.name, hand=hand, trick=trick, card=card)

            def failed(exc: OSError) -> None:
                self.model.add_log(
                    _("! could not keep the hint with the saved game: {error}").format(error=exc)
                )
                self.notify()

            self._saves.run(keep, failed)  # on the saving thread: a slow disk holds no play
        self.notify()

    def rematch(self) -> TableBackend | None:
        """The same table's next match in my seat: a table hosted here serves it at once; a
        joined table's host opens it (``briscola-lan host`` once the last match's players have
        left it, a client's table when its host asks for a rematch)."""
        common: dict[str, Any] = {
            "name": self.name, "want_seat": self.model.my_seat, "auto_start": True,
            "interfaces": self.interfaces, "games": self.games, "identity": self.identity,
            "ascii_only": self.ascii_only, "ai_level": self.ai_level, "deck": self.deck,
        }  # fmt: skip
        host = self.host
        if host is not None:
            self.host = None  # the new backend owns the host from now on

            async def same_host() -> EmbeddedHost:
                await host.rematch()
                return host

            return NetBackend(self.model.title, host_factory=same_host, **common)
        if isinstance(self.target, Target):
            return NetBackend(
                self.model.title, target=self.target, known_tables=self.known_tables,
                rematch=True, **common,
            )  # fmt: skip
        return None

    @property
    def hosting(self) -> bool:
        return self.host is not None

    def next_hand(self) -> None:
        self._held = False
        self._sync()

    # --- keeping the model up to date ------------------------------------------------------

    def _plain(self, text: str) -> str:
        return plain(text, self.ascii_only)

    def _connection(self) -> str:
        c = self.client
        if c is None:
            return "connecting"
        if c.connected.is_set():
            return "connected"
        if c.closed or c.error is not None:
            return "closed"
        return "reconnecting"

    def _sync(self) -> None:
        session = self.session
        if session is None:
            return
        st = session.state
        model = self.model
        before = model.connection
        model.connection = self._connection()
        # A stale resume token is the client library's to handle (it joins afresh): not news.
        fresh = [e for e in st.errors[self._errors_seen :] if e.code != "bad_token"]
        if before != model.connection or len(st.errors) != self._errors_seen:
            self._pending_play = None  # a lost or refused play may be sent again
            self._pending_act = None
            self._errors_seen = len(st.errors)
        error = self.client.error if self.client is not None else None
        model.closed_why = closed_why(error) if model.connection == "closed" else None
        if before != model.connection and model.started:
            model.add_log(
                {
                    "reconnecting": _("! connection lost: reconnecting..."),
                    "connected": _("reconnected: play resumes"),
                    "closed": "! " + (model.closed_why or _("disconnected")),
                }.get(model.connection, model.connection)
            )
        self._pull_events(st)
        if fresh:
            model.error = fresh[-1].text
        if st.options is not None:
            model.options = st.options
        model.known = st.options is not None
        model.deal = st.deal
        model.host_plays = st.host_plays
        model.signals = tuple(SignalNote(x.seat, x.index // 4 + 1, x.value) for x in st.signals)
        model.title = st.table_name or model.title
        model.seated = st.seat is not None
        if st.seat is not None:
            model.my_seat = st.seat
        model.can_fill_ai = (
            st.phase == "lobby" and st.seat == 0 and any(not i.occupied for i in st.seats)
        )
        model.seats = [
            SeatInfo(
                i.seat,
                player_name(i.name, i.ai or "", i.seat) if i.occupied else _("(open seat)"),
                is_ai=i.ai is not None,
                level=i.ai or "",
                connected=i.connected,
                occupied=i.occupied,
            )
            for i in st.seats
        ]
        if st.hands_won:
            model.hands_won = st.hands_won
            model.total_points = st.total_points
            model.scores = st.scores
        self._summarize(st)
        model.match_over = st.match_over
        model.match_winner = st.winner
        # A resumed seat's messages are replayed first (SPEC.md §6b): show the table once the
        # replay is over, never a turn from it (a card chosen then would be out of date).
        model.live = self.client is None or self.client.live or not self.client.connected.is_set()
        if self.rematching:  # the finished match is replayed first: not this one's news
            model.waiting = _("Waiting for the rematch to open...")
        elif not model.live:
            model.waiting = _("Catching up with the table...")
        elif not self._held:
            view = self._view(st)
            if view is not None:
                apply_seat_view(model, view)
                model.hand_number = max(0, st.hand_number)
                model.waiting = None
                self._viewed_hand = st.hand_number
                if model.hand_over and not self._held_ready(st):
                    # the host reveals right after the last trick: wait for the verdict
                    model.hand_over = False
                    model.waiting = _("Hand over: checking the deal...")
            elif st.phase == "lobby" and st.seat is None and self._seatless is not None:
                model.waiting = self._seatless  # why this client holds no seat, kept in view
            elif st.phase == "lobby":
                seated = sum(1 for i in st.seats if i.occupied)
                model.waiting = _(
                    "Waiting for players: {seated}/{seats} seats taken. The match starts when "
                    "every seat is filled."
                ).format(seated=seated, seats=len(st.seats))
                if model.can_fill_ai:
                    model.waiting += " " + _(
                        "Press f to seat AI players ({level}) in the open seats."
                    ).format(level=self.ai_level)
            elif st.phase == "playing" and self._viewed_hand == st.hand_number >= 0:
                # mid-hand, no view while a drawn card (or the partner's hand) is on its way
                model.waiting = _("The cards are on their way...")
            elif st.phase == "playing":
                model.waiting = dealing_text(st)
        if st.match_over and st.match_aborted and not model.hand_results:
            model.waiting = _("The match was aborted: {why}").format(why=self._last_said)
        self.notify()

    def _pull_events(self, st: ClientState) -> None:
        """Tell the session's new events, in order (called per message): a line each in the
        log, and the play to the table screen while it is live."""
        live = self.client is None or self.client.live or not self.client.connected.is_set()
        new = st.events[self._events_seen :]
        for event in new:
            self._tell(st, event, live)
        if live:
            self._replay_before = None
        else:
            self._replayed_plays(st, new)
        played = any(isinstance(e, ev.CardPlayed) for e in new)
        self._events_seen = len(st.events)
        if played and st.options is not None and st.options.chiamata:
            self._last_view = (st.hand_number, st.view)
        for check in st.checks:
            if check.acks_match is not None and check.hand not in self._acks_saved:
                self._acks_saved.add(check.hand)
                self._save()

    def _replayed_plays(self, st: ClientState, new: list[ev.Event]) -> None:
        """While the table replays my seat's messages (a hand continued after this client
        restarted), keep each card I played with the view I played it from, the view after the
        message before it, for the review (``take_earlier_plays``); not a card the host's AI
        played for me (my seat taken over then)."""
        before = self._replay_before
        first = next((e for e in new if isinstance(e, ev.CardPlayed)), None)
        if first is not None and first.mine and before is not None:
            view, held = before
            if held and view.to_play == view.seat and first.card in view.hand:
                self._earlier_plays.append((first.hand, view, first.card))
        now = st.view
        if now is not None and st.partner_signals:  # as ``current_view`` gives it to a hint
            now = dataclasses.replace(now, partner_signals=st.partner_signals)
        self._replay_before = None if now is None else (now, not st.taken_over)

    def _tell(self, st: ClientState, event: ev.Event, live: bool) -> None:
        """One event to its one consumer (``_CONSUMERS``, by kind; the log's line otherwise):
        what the table screen follows of the play goes to it while the table is live (a new
        hand's start always), and a line in the player's language to the log."""
        _CONSUMERS.get(type(event), NetBackend._line)(self, st, event, live)

    def _line(self, st: ClientState, event: ev.Event, live: bool = True) -> None:
        said = eventlog.render(event, SessionNames(st, self.model, self.deck, self.ascii_only))
        if said:
            self._last_said = said
            self.model.add_log(self._plain(said))

    def _unsaid(self, st: ClientState, event: ev.Event, live: bool) -> None:
        """A lost connection: the connection line says it (reconnecting, closed)."""

    def _refused(self, st: ClientState, event: ev.HostRefused, live: bool) -> None:
        if event.code != "bad_token":  # a stale resume token: the client library joins afresh
            self._line(st, event)

    def _hand_started(self, st: ClientState, event: ev.HandStarted, live: bool) -> None:
        self.follow(event)  # replayed or live: nothing of the last hand stays on the table
        self._line(st, event)
        opts = st.options
        if opts is not None and opts.players == 3:
            self.model.add_log(removed_two_line(opts, self.deck, self.ascii_only))

    def _cards_received(self, st: ClientState, event: ev.CardsReceived, live: bool) -> None:
        if live:  # the table shows them: no line
            self.follow(event)

    def _card_played(self, st: ClientState, event: ev.CardPlayed, live: bool) -> None:
        if live:  # the table shows it: no line
            self.follow(event)
        if self._called is not None:
            hand, called, caller = self._called
            if (event.hand, event.card) == (hand, called):  # now everyone knows the partner
                self.model.add_log(chiamata.revealed_line(self.model, caller, event.seat))

    def _trick_taken(self, st: ClientState, event: ev.TrickTaken, live: bool) -> None:
        if live:
            self.follow(event)
        self._line(st, event)

    def _card_called(self, st: ClientState, event: ev.CardCalled, live: bool) -> None:
        self._line(st, event)
        self._called = (event.hand, event.card, event.seat)

    def _hand_ended(self, st: ClientState, event: ev.HandEnded, live: bool) -> None:
        self._line(st, event)
        if event.call is not None:
            self._calls[event.hand] = event.call  # five players: the hand's weights score

    def _view(self, st: ClientState) -> SeatView | None:
        """My seat's view now; at five players, once the hand is played out and revealed (the
        session then has no view), the view after its last card, so that the final table stays
        on the screen and the hand is scored."""
        view = st.view
        if view is None and self._last_view is not None:
            hand, last = self._last_view
            if hand == st.hand_number and last is not None and last.to_play is None:
                return last
        return view

    def _held_ready(self, st: ClientState) -> bool:
        return bool(st.checks) and st.checks[-1].status != "in progress"

    def _hand_done(self, st: ClientState, check: HandCheck) -> bool:
        """Whether a hand's verdict is final: played out, aborted, or the table is gone."""
        if check.status == "in progress":
            return False
        if check.status == "aborted" or self.model.connection == "closed":
            return True
        if self.model.connection != "connected" or not (self.client and self.client.live):
            return False  # a reconnect replays the hand: judge it after the host's replay_done
        view = self._view(st)
        return check.hand < st.hand_number or (view is not None and view.to_play is None)

    def _summarize(self, st: ClientState) -> None:
        for check in st.checks:
            if check.hand in self._summarized or not self._hand_done(st, check):
                continue
            self._summarized.add(check.hand)
            opts = self.model.options
            points = tuple(st.last_hand_points or ()) if check.status != "aborted" else ()
            summary = HandSummary(
                number=check.hand,
                points=points,
                winner=hand_winner(points) if points else None,
                tiebreak=opts.match_format is MatchFormat.POINTS
                and sum(1 for r in self.model.hand_results if r.points) >= opts.base_hands,
                verification=verification(check, st.deal),
            )
            view = self._view(st)
            if points and view is not None and st.hand_number == check.hand:
                call = self._calls.get(check.hand)
                add_hand_cards(summary, view, call)
                if call is not None:
                    self.model.add_log(chiamata.result_line(self.model, call))
            self.model.hand_results.append(summary)
            if view is not None:
                apply_seat_view(self.model, view)
            self.model.hand_number = check.hand
            self.model.hand_over = True
            self.model.started = True
            self.model.waiting = None
            self._held = True
            self._save()
        # keep the verdict up to date (acknowledgements arrive after the reveal)
        for summary in self.model.hand_results:
            for check in st.checks:
                if check.hand == summary.number and check.status != "in progress":
                    summary.verification = verification(check, st.deal)

    def _save(self, whole: bool = False) -> None:
        """Save my transcript (and the embedded host's) in the saved-games directory, written
        by the saving thread (``net_saves``).

        Normally only through the last acknowledged hand, so that a file never ends in a hand
        that was still being played; ``whole`` keeps everything (a lost table, a finished match).
        """
        session = self.session
        if session is None or not session.records or not session.state.game_id:
            return
        self._saves.save([self.name] + (["host"] if self.host is not None else []), whole)

    def _records_of(self, label: str) -> Sequence[Any]:
        """The transcript ``label`` saves as it is now: the host's, or mine."""
        if label == "host":
            return self.host.table.records if self.host is not None else ()
        return self.session.records if self.session is not None else ()

    def _log(self, line: str) -> None:
        self.model.add_log(line)

    def _game_id(self) -> str | bytes:
        return self.session.state.game_id if self.session is not None else ""


# An event's kind -> its consumer in ``NetBackend`` (any other kind: its line in the log).
_CONSUMERS: dict[type[ev.Event], Callable[[NetBackend, ClientState, Any, bool], None]] = {
    ev.ConnectionLost: NetBackend._unsaid,
    ev.HostRefused: NetBackend._refused,
    ev.HandStarted: NetBackend._hand_started,
    ev.CardsReceived: NetBackend._cards_received,
    ev.CardPlayed: NetBackend._card_played,
    ev.TrickTaken: NetBackend._trick_taken,
    ev.CardCalled: NetBackend._card_called,
    ev.HandEnded: NetBackend._hand_ended,
}
