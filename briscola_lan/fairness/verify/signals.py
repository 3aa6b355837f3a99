"""Signals between partners in a file (protocol/fairness.md §12): each one made when the table
allows them, by a seat that plays for itself, at the moment the hand is at, once a trick; and
every signal the host receipted published in its hand.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from briscola_lan.fairness.signals import SignalBook
from briscola_lan.fairness.statements import Signal
from briscola_lan.rules.options import TableOptions
from briscola_lan.rules.schedule import PublicSchedule


@dataclass(slots=True)
class SignalCheck:
    """The signals of a match as its file shows them, hand by hand."""

    books: dict[int, SignalBook] = field(default_factory=dict)  # hand -> its signals
    receipted: dict[int, set[tuple[int, int]]] = field(default_factory=dict)  # hand -> slots
    published: dict[int, set[tuple[int, int]]] = field(default_factory=dict)

    def problem(
        self,
        options: TableOptions,
        st: Signal,
        sched: PublicSchedule | None,
        host_plays: bool,
    ) -> str | None:
        """Why a published signal should have been refused (the host's fault), or None.

        ``sched`` is the hand's public schedule once its upcard is turned (None before);
        ``host_plays``: the host plays the seat for a person (taken over, or left out of a blind
        hand), and a seat the host plays for a person makes no signal."""
        if not options.signals:
            return "a signal at a table that does not allow signals"
        if host_plays:
            return f"a signal for seat {st.seat}, which the host plays for its player"
        if sched is None:
            return "a signal before the hand's cards are dealt"
        book = self.books.get(st.hand)
        if book is None:
            book = self.books[st.hand] = SignalBook(options.players, options.deck_size)
        problem = book.problem(st.seat, st.index, sched.plays_made)
        if problem is None:
            book.add(st.seat, st.index)
            self.published.setdefault(st.hand, set()).add(slot(st))
        return problem

    def on_receipt(self, inner: Signal) -> None:
        self.receipted.setdefault(inner.hand, set()).add(slot(inner))

    def withheld(self, hand: int) -> tuple[int, int] | None:
        """A signal the host receipted in ``hand`` and never published there: (seat, trick)."""
        missing = self.receipted.get(hand, set()) - self.published.get(hand, set())
        return min(missing) if missing else None


def slot(st: Signal) -> tuple[int, int]:
    """What tells a seat's signals of one hand apart: (seat, trick); one a trick."""
    return st.seat, st.index // 4


__all__ = ["SignalCheck", "slot"]
