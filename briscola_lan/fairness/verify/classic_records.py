"""The checker's steps for a classic hand's records: each one taken by the hand's machine
(``fairness.classic_hand.ClassicHand``), plus what spans the match (takeovers). A card, the
commonest record, goes from the checker straight to the machine (``checker``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from briscola_lan.fairness.classic_hand import ClassicHand
from briscola_lan.fairness.statements import (
    BidStatement,
    CallStatement,
    Deal,
    DeckCommit,
    Exchange,
    HostCommit,
    HostReveal,
    Play,
    SeedCommit,
    SeedReveal,
    Statement,
    Takeover,
    Upcard,
)
from briscola_lan.fairness.verify.report import HOST
from briscola_lan.fairness.verify.state import CheckerState, HandState
from briscola_lan.rules.hand import Hand


class ClassicRecords(CheckerState):
    """A classic hand's records, checked through its machine."""

    def _on_host_commit(self, st: HostCommit) -> None:
        h = self._open_hand(st)
        assert self._options is not None
        h.classic = ClassicHand(self._options, st, recipients=self._recipients)

    def _classic(self, st: Statement) -> ClassicHand:
        h = self._need_hand(st)
        assert h.classic is not None  # the mode check let only a classic hand's records here
        return h.classic

    def _dealt(self, st: Statement) -> ClassicHand:
        h = self._need_hand(st)
        c = h.classic
        if c is None or c.deck_commit is None or h.revealed:
            raise self._fail(st, HOST, f"{st.KIND} before the deck was committed or after the end")
        return c

    def _on_seed_commit(self, st: SeedCommit) -> None:
        self._classic(st).on_seed_commit(st, self.index)

    def _on_seed_reveal(self, st: SeedReveal) -> None:
        self._classic(st).on_seed_reveal(st, self.index)

    def _on_deck_commit(self, st: DeckCommit) -> None:
        self._classic(st).on_deck_commit(st, self.index)

    def _on_deal(self, st: Deal) -> None:
        self._dealt(st).on_deal(st, self.index)

    def _on_upcard(self, st: Upcard) -> None:
        self._dealt(st).on_upcard(st, self.index)

    def _on_exchange(self, st: Exchange) -> None:
        self._dealt(st).on_exchange(st, self.index)

    def _on_bid(self, st: BidStatement) -> None:
        self._dealt(st).on_bid(st, self.index)

    def _on_call(self, st: CallStatement) -> None:
        self._dealt(st).on_call(st, self.index)

    def _on_host_reveal(self, st: HostReveal) -> None:
        c = self._dealt(st)
        hand: Hand = c.on_host_reveal(st, self.index)
        h, match = self._hand, self._match
        assert h is not None and match is not None
        if hand.passed_out:  # five players, everyone passed: void, the same dealer deals again
            self._replays += 1
            h.passed_out = True
            h.chain_at_reveal = self.chain
            self._result(h, hand.returns())
            return
        match.record(hand)
        self.report.hands[-1].call = hand.result()
        h.chain_at_reveal = self.chain
        self._result(h, hand.returns())

    def _on_takeover(self, st: Takeover) -> None:
        if self._blind_mode:
            raise self._fail(
                st, HOST, "no takeover in a blind match: each hand's parties say who the host plays"
            )
        h = self._need_hand(st)
        if not 0 <= st.seat < self._n or st.at_play != h.play_count:
            raise self._fail(st, HOST, "takeover of a seat that does not exist, or out of place")
        if st.ai not in (0, 1):
            raise self._fail(st, HOST, "a takeover's ai flag is 0 or 1")
        if st.ai and st.seat not in self._taken_over and not h.aborted:
            self._check_no_own_secret(st, h)
        seeds = h.seeds
        revealed_all = seeds is not None and seeds.done
        if not st.ai and not revealed_all and not h.aborted:  # an aborted hand's are moot
            raise self._fail(
                st,
                HOST,
                f"seat {st.seat} handed back while the hand's seeds are committed and revealed: "
                "the AI holds the seat's seed until they are all revealed (SPEC.md §6a)",
            )
        if st.ai:
            self._taken_over.add(st.seat)
        else:
            self._taken_over.discard(st.seat)
        self.report.takeovers.append((st.hand, st.seat, bool(st.ai), st.at_play))

    def _check_no_own_secret(self, st: Takeover, h: HandState) -> None:
        """The host MUST NOT take a seat between the seat's own seed-commit and its seed-reveal
        (SPEC.md §6a): only the seat can open that commitment. The file shows it when it holds
        the host's receipt for the seat's seed-commit and neither the seat's reveal nor the
        receipt for it came before (a seat's own file). The host publishes the reveals only
        once all are in, so that a seat that revealed and then dropped is rightly taken over
        before its reveal is published: without the receipts a file cannot tell."""
        committed = self._receipts.get(h.number, SeedCommit.KIND, st.seat)
        seeds = h.seeds
        revealed = (seeds is not None and st.seat < len(seeds.seeds)) or (
            self._receipts.get(h.number, SeedReveal.KIND, st.seat) is not None
        )
        if committed is not None and not revealed:
            raise self._fail(
                st,
                HOST,
                f"the host took seat {st.seat} over while the seat held its own unrevealed seed "
                f"(the host's receipt for its seed commitment is record {committed.index}, and "
                "the seat had not revealed): only the seat can open it (SPEC.md §6a)",
            )


HANDLERS: dict[type[Statement], Callable[[ClassicRecords, Any], None]] = {
    HostCommit: ClassicRecords._on_host_commit,
    SeedCommit: ClassicRecords._on_seed_commit,
    SeedReveal: ClassicRecords._on_seed_reveal,
    DeckCommit: ClassicRecords._on_deck_commit,
    Deal: ClassicRecords._on_deal,
    Upcard: ClassicRecords._on_upcard,
    BidStatement: ClassicRecords._on_bid,
    CallStatement: ClassicRecords._on_call,
    Exchange: ClassicRecords._on_exchange,
    Takeover: ClassicRecords._on_takeover,
    HostReveal: ClassicRecords._on_host_reveal,
}  # a classic hand's statement -> its check

# The records of a classic hand in progress: refused in a blind hand.
CLASSIC_KINDS = frozenset(
    {SeedCommit, SeedReveal, DeckCommit, Deal, Upcard, BidStatement, CallStatement, Play, Exchange}
)
