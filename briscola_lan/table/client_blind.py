"""The client session in a blind hand (protocol/fairness.md §11): answering the call, this seat's
party shuffling, locking, sending its keys and showing its hand as the hand asks, the cards that
open for it, and the key reveals at the end."""

from __future__ import annotations

from collections.abc import Callable

from briscola_lan.fairness.blind_party import BlindParty
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    BlindPlay,
    BlindStart,
    Present,
    Statement,
    StatementError,
    decode,
)
from briscola_lan.fairness.verify import (
    Violation,
)
from briscola_lan.rules.cards import Card
from briscola_lan.table import events as ev
from briscola_lan.table.client_core import SessionCore
from briscola_lan.table.client_state import HandCheck
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import Message, Record


class BlindSide(SessionCore):
    """The handlers of a blind hand's messages."""

    def _blind_hand_started(self, st: BlindStart, rec: Record, out: list[Message]) -> None:
        """A blind hand calls its players: a person's seat answers at once (its receipt is its
        proof that it answered in time, fairness.md §11.3)."""
        ms = self._ms
        assert ms is not None
        self.state.checks.append(HandCheck(st.hand))
        self.state.signals = []
        self._record(rec)
        s = self.state
        s.hand_number, s.last_trick, s.deal = st.hand, None, "blind"
        self._blind, self._shown = None, None
        self._blind_hand = None
        s.taken_over = False
        self._emit(ev.HandStarted(st.hand, st.dealer, blind=True))
        seat = s.seat
        self._sitting_out, self._outside = self._checker.report.fault is not None, frozenset()
        if self._sitting_out and seat is not None and ms.ai_levels[seat] == "":
            s.taken_over = True
            self._emit(ev.SittingOut())
        if seat is None or self._checker.presence is None or ms.ai_levels[seat] != "":
            return
        if self._checker.benched(seat):  # named by two aborts: not called (fairness.md §8.7)
            s.taken_over = True
            return
        present = Present(ms.game_id, st.hand, seat, self._checker.context_for(Present.KIND))
        out.append(self._signed(m.JoinHand, present))

    def _on_HandJoined(self, msg: m.HandJoined, out: list[Message]) -> None:
        """The answers to the call: the seats that answered are the hand's parties."""
        for rec in msg.records:
            self._record(rec)
        ms, s = self._ms, self.state
        if self._sitting_out and ms is not None:
            answered = set()
            for body, _ in msg.records:
                try:
                    st = decode(body)
                except StatementError:
                    continue
                if isinstance(st, Present):
                    answered.add(st.seat)
            self._outside = frozenset(
                i for i, level in enumerate(ms.ai_levels) if level == "" and i not in answered
            )
            return
        try:
            self._checker.close_presence()
        except Violation as v:
            check = self.state.verification
            if check is not None and check.fault is None:
                self._fail_now(v.fault)
        seat, bh = s.seat, self._checker.blind
        self._blind_hand = bh  # followed to its end, key reveals included, by every seat
        if seat is None or bh is None or ms is None:
            return
        s.taken_over = seat not in bh.parties
        if s.taken_over:
            receipted = self._checker.receipt_for(bh.hand, Present.KIND, seat) is not None
            self._emit(ev.LeftOut(receipted))
            return
        secret = self._seed_for(ms.game_id, bh.hand)
        if secret is None:
            return
        self._blind = self._shown = BlindParty(bh, seat, secret, self._checker.context_for)
        self._blind_mine = set()
        self._blind_act(out)

    def _blind_act(self, out: list[Message]) -> None:
        """Send what my party owes now (each statement once on this connection)."""
        party = self._blind
        check = self.state.verification
        if party is None or (check is not None and check.fault is not None):
            return
        if party.hand is not self._checker.blind:  # the hand is over (or the checker stopped)
            return
        complaint = party.complaint()
        todo: list[tuple[Callable[[bytes, bytes], Message], Statement]] = []
        if complaint is not None:
            todo.append((m.Complain, complaint))
        else:
            owed: list[tuple[Callable[[bytes, bytes], Message], Statement | None]] = [
                (m.ShuffleDeck, party.shuffle()),
                (m.LockDeck, party.lock()),
                (m.SendShares, party.shares()),
                (m.RevealKeys, party.key_reveal()),
            ]
            owed.extend((m.ShowHand, show) for show in party.shows())
            todo.extend((cls, st) for cls, st in owed if st is not None)
        for make, statement in todo:
            body = statement.encode()
            if body not in self._blind_sent:
                self._blind_sent.add(body)
                out.append(self._signed(make, statement))

    def _blind_records(self, recs: tuple[Record, ...], out: list[Message]) -> None:
        for rec in recs:
            self._record(rec)
        self._blind_cards()
        self._blind_act(out)

    def _blind_cards(self) -> None:
        """My seat's cards that opened with these records (its deal, or a card drawn)."""
        party, seat = self._blind, self.state.seat
        if party is None or seat is None or party.hand is not self._checker.blind:
            return
        cards = party.seat_cards(seat)
        new = [p for p in cards if p not in self._blind_mine]
        if new:
            drawn = bool(self._blind_mine)
            self._blind_mine.update(new)
            opened = tuple(Card.from_code(cards[p]) for p in sorted(new))
            self._emit(ev.CardsReceived(party.hand.hand, opened, drawn=drawn))

    def _on_DeckShuffled(self, msg: m.DeckShuffled, out: list[Message]) -> None:
        self._blind_records(((msg.body, msg.sig),), out)

    def _on_DeckLocked(self, msg: m.DeckLocked, out: list[Message]) -> None:
        self._blind_records(((msg.body, msg.sig),), out)

    def _on_SharesSent(self, msg: m.SharesSent, out: list[Message]) -> None:
        self._blind_records(msg.records, out)

    def _on_HandsShown(self, msg: m.HandsShown, out: list[Message]) -> None:
        self._blind_records(msg.records, out)

    def _on_ComplaintMade(self, msg: m.ComplaintMade, out: list[Message]) -> None:
        st = self._record((msg.body, msg.sig))
        self._emit(ev.Complained(getattr(st, "seat", HOST_PARTY)))
        self._blind_act(out)

    def _on_KeysRevealed(self, msg: m.KeysRevealed, out: list[Message]) -> None:
        self._blind_records(msg.records, out)
        self._blind_keys_closed(out)

    def _blind_card_played(self, st: BlindPlay, out: list[Message]) -> None:
        bh = self._checker.blind
        if bh is not None and bh.plays and bh.plays[-1][1] == st:  # the hand's machine took it
            mine = st.seat == self.state.seat
            self._emit(ev.CardPlayed(st.hand, st.seat, Card.from_code(st.card), mine))
            if bh.tricks and sum(len(t.plays) for t in bh.tricks) == len(bh.plays):
                self.state.last_trick = bh.tricks[-1]
                self._emit(ev.TrickTaken(st.hand, bh.tricks[-1]))
        self._blind_act(out)

    def _blind_keys_closed(self, out: list[Message]) -> None:
        """A blind hand's key reveals are in (or the missing ones named): it is checked, and
        acknowledged over the chain as it is now."""
        bh, check = self._blind_hand, self.state.verification
        if bh is None or check is None or bh.expected() != "done" or check.status != "in progress":
            return
        self._blind = None
        self._hand_checked()
        if self._checker.report.hands and self._checker.report.hands[-1].withheld:
            self._emit(ev.KeysOverdue(tuple(self._checker.report.hands[-1].withheld)))
        self._chain_at_reveal = self._checker.chain
        self._ack(bh.hand, out)  # again after a resume: the host takes the same bytes once
