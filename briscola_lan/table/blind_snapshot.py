"""A blind hand's part of the host's snapshot: what it writes beside the table's records, and the
hand rebuilt from those records and the snapshot when the host comes back."""

from __future__ import annotations

from typing import Any, Protocol

from briscola_lan.fairness.blind_hand import BlindFault, BlindHand, BlindStatement, Presence
from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.statements import (
    BidStatement,
    BlindEnd,
    BlindPlay,
    BlindStart,
    CallStatement,
    Complaint,
    KeyReveal,
    LockPass,
    Overdue,
    Present,
    Shares,
    Show,
    ShufflePass,
    Statement,
    StatementError,
    decode,
)
from briscola_lan.table.deal import BLIND, Phase, TableSide
from briscola_lan.table.snapshot import Fields, SnapshotError
from briscola_lan.wire.messages import Record


class SnapshotDeal(Protocol):
    """What of a blind deal on the host its snapshot reads and restores (``BlindDeal``)."""

    table: TableSide
    number: int
    dealer: int
    parties: tuple[int, ...]
    presence: Presence | None
    presents: dict[int, Record]
    call_since: float
    bh: BlindHand | None
    host_secret: bytes
    pending: dict[int, Record]
    waiting_for: tuple[str, tuple[int, ...]]
    waiting_since: float
    resumed: bool
    fault_due: BlindFault | None

    def open_hand(self, parties: tuple[int, ...]) -> None: ...


def dump(deal: SnapshotDeal) -> dict[str, Any]:
    """What a blind hand's snapshot holds beside the table's records."""
    bh = deal.bh
    # The host's hand secret, only while it still has to act with it: once its key reveal
    # is published it is in the records, and a finished or aborted hand needs it no more.
    needed = (
        bh is not None
        and HOST_PARTY not in bh.reveals
        and deal.table.phase not in (Phase.ACK, Phase.OVER)
    )
    return {
        "mode": BLIND,
        "hand_number": deal.number,
        "dealer": deal.dealer,
        "parties": list(deal.parties),
        "host_secret": deal.host_secret if needed else b"",
        "pending": [[p, list(r)] for p, r in sorted(deal.pending.items())],
        "presents": [[p, list(r)] for p, r in sorted(deal.presents.items())],
        "call_since": deal.call_since,
    }


def restore(deal: SnapshotDeal, f: Fields) -> None:
    """Rebuild a blind hand's state from the table's records and its snapshot (``deal`` is
    made afresh for the hand number and dealer the snapshot names)."""
    table = deal.table
    deal.presence = Presence([seat.ai is None for seat in table.seats])
    deal.host_secret = f.get_bytes("host_secret")
    start = None
    for i, (body, _sig) in enumerate(table.records):
        st = decode(body)
        if isinstance(st, BlindStart) and st.hand == deal.number:
            start = i
    if start is None:
        raise SnapshotError("damaged table snapshot: the blind hand's start is missing")
    deal.call_since = f.get_float("call_since") if "call_since" in f.obj else table.now
    for item in f.get_list("presents") if "presents" in f.obj else []:
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise SnapshotError("damaged table snapshot: an answer to the call")
        deal.presents[item[0]] = record(item[1])
    chain = ContextChain()  # the chain as it was at each record, for the reveals' context
    for body, _sig in table.records[: start + 1]:
        if decode(body).PUBLIC:
            chain.follow(body)
    try:
        for i in range(start + 1, len(table.records)):
            body = table.records[i][0]
            st = decode(body)
            if st.PUBLIC:
                chain.follow(body)
            if isinstance(st, Present):
                deal.presence.on_present(st, i)
                continue
            if deal.bh is None:
                deal.parties = deal.presence.close()
                deal.open_hand(deal.parties)
            assert deal.bh is not None
            if isinstance(st, BlindEnd):
                deal.bh.on_end()
                deal.bh.reveal_context = chain.expected(KeyReveal.KIND)
            elif isinstance(st, Overdue):
                deal.bh.on_overdue(st.parties)
            elif isinstance(st, KeyReveal) and deal.bh.ended and not deal.bh.disputed:
                # Reveals saved before the host checked them: a wrong one aborts the hand
                # at the first tick, as its check would have (nothing follows it).
                try:
                    apply(deal.bh, st, i)
                except BlindFault as bf:
                    deal.fault_due = bf
                    break
            elif isinstance(st, _FOLLOWED):
                apply(deal.bh, st, i)
    except (BlindFault, StatementError) as exc:
        raise SnapshotError(f"damaged table snapshot: {exc}") from exc
    if deal.bh is None and table.phase is not Phase.CALL:  # the call ended, nothing after it
        deal.parties = deal.presence.close()
        deal.open_hand(deal.parties)
    if deal.parties and tuple(f.ints("parties")) != deal.parties:
        raise SnapshotError("damaged table snapshot: the parties are not the answers'")
    for item in f.get_list("pending"):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], int)):
            raise SnapshotError("damaged table snapshot: a pending statement")
        deal.pending[item[0]] = record(item[1])
    if deal.bh is not None:
        deal.waiting_for, deal.waiting_since = deal.bh.owed(), table.now
    deal.resumed = True


# The hand's statements its machine follows (at five players the auction's too).
_FOLLOWED = (
    ShufflePass,
    LockPass,
    Shares,
    Show,
    BlindPlay,
    Complaint,
    KeyReveal,
    BidStatement,
    CallStatement,
)


def record(v: object) -> Record:
    if not (isinstance(v, list) and len(v) == 2 and all(isinstance(x, bytes) for x in v)):
        raise SnapshotError("damaged table snapshot: a record is not [body, signature]")
    return bytes(v[0]), bytes(v[1])


def apply(bh: BlindHand, st: Statement, index: int) -> None:
    """Follow one published statement of the hand (only the blind kinds are published here)."""
    assert isinstance(st, BlindStatement)
    bh.apply(st, index)


__all__ = ["SnapshotDeal", "apply", "dump", "record", "restore"]
