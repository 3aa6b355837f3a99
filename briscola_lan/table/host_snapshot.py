"""The host's snapshot file: a table's whole state as one map, and the table rebuilt from it after
the host process dies (the layout is in protocol/SPEC.md §10)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from briscola_lan.fairness.context import ContextChain
from briscola_lan.fairness.encoding import DRAW_HAND, HOST_PARTY
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import Abort, HostReveal, StatementError, decode
from briscola_lan.rules.auction import Bid, Contract
from briscola_lan.rules.cards import Card
from briscola_lan.rules.chiamata import score_hand
from briscola_lan.rules.errors import RulesError
from briscola_lan.rules.match import HandResult, Match
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.core import MAX_NAME, unknown_level
from briscola_lan.table.deal import BLIND, CLASSIC, DEAL_MODES, Phase, Seat
from briscola_lan.table.deal_blind import BlindDeal
from briscola_lan.table.deal_classic import ClassicDeal
from briscola_lan.table.snapshot import Fields, SnapshotError, opt_records, record
from briscola_lan.wire.codec import (
    CodecError,
    decode_message,
    encode_message,
    pack_state,
    unpack_state,
)
from briscola_lan.wire.messages import Message, Record

if TYPE_CHECKING:
    from briscola_lan.table.host import HostTable

SNAPSHOT_FORMAT = "briscola-lan-host-state"
# 4: the seats' logs index one list of messages; 3: the hand's deal (classic or blind) in its own
# map; 1 was a pickle
SNAPSHOT_VERSION = 5


def dump(t: HostTable) -> bytes:
    """The table's state as a msgpack snapshot file (``HostTable.snapshot``)."""
    return pack_state(wrap(_dump_state(t)))


def wrap(state: dict[str, object]) -> dict[str, object]:
    """The snapshot's map around a table's ``state``."""
    return {"format": SNAPSHOT_FORMAT, "version": SNAPSHOT_VERSION, "state": state}


def load(t: HostTable, data: bytes, identity: Identity) -> None:
    """Fill a new table's state from a snapshot file (``HostTable.restore``); a file that is
    not a snapshot, of another version or another host, or damaged, is a ``SnapshotError``."""
    try:
        obj = unpack_state(data)
    except CodecError as exc:
        raise SnapshotError(f"not a table snapshot ({exc})") from exc
    load_map(t, obj, identity)


def load_map(t: HostTable, obj: object, identity: Identity) -> None:
    """Fill a new table's state from a snapshot's map, read from a file (``load``) or rebuilt
    from the host's journal (``table.host_journal``)."""
    if not isinstance(obj, dict) or obj.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError("not a briscola-lan table snapshot: start a new table")
    if obj.get("version") != SNAPSHOT_VERSION:
        raise SnapshotError(
            f"snapshot version {obj.get('version')!r} is not {SNAPSHOT_VERSION}: "
            "it was saved by another briscola-lan version; start a new table"
        )
    try:
        _load_state(t, Fields(obj.get("state"), "state"), identity)
    except SnapshotError:
        raise
    except (RulesError, StatementError, CodecError, ValueError, KeyError, TypeError) as exc:
        raise SnapshotError(f"damaged table snapshot: {exc}") from exc


class _MessageTable:
    """The messages of every seat's log, each encoded once: a broadcast is one object in every
    human seat's log, so the snapshot stores it once and the logs hold indices (SPEC.md §10).
    The encodings are kept from one snapshot to the next (with the message, so an id is never
    reused while it is cached): a snapshot encodes only what was sent since the last one."""

    def __init__(self, cache: dict[int, tuple[Message, bytes]]) -> None:
        self.old = cache
        self.cache: dict[int, tuple[Message, bytes]] = {}
        self.index: dict[int, int] = {}
        self.encoded: list[bytes] = []

    def add(self, msg: Message) -> int:
        key = id(msg)
        at = self.index.get(key)
        if at is None:
            hit = self.old.get(key)
            data = hit[1] if hit is not None and hit[0] is msg else encode_message(msg)
            self.cache[key] = (msg, data)
            at = self.index[key] = len(self.encoded)
            self.encoded.append(data)
        return at


def dump_seat(seat: Seat) -> dict[str, object]:
    """A seat's map in the snapshot, without its log (``log``: the snapshot's own, or the
    journal's rows)."""
    return {
        "occupied": seat.occupied,
        "name": seat.name,
        "key": seat.key,
        "ai": seat.ai,
        "ai_private_key": seat.ai_identity.private_bytes() if seat.ai_identity else None,
        "token": seat.token,
        "ready": seat.ready,
        "connected": seat.conn is not None,
        "dropped_at": seat.dropped_at,
        "taken_over": seat.taken_over,
        "stalled": seat.stalled,
    }


def _load_seat(f: Fields, now: float, messages: list[Message]) -> Seat:
    private = f.opt_bytes("ai_private_key")
    seat = Seat(
        occupied=f.get_bool("occupied"),
        name=f.get_str("name"),
        key=f.get_bytes("key"),
        ai=f.opt_str("ai"),
        ai_identity=Identity(private) if private is not None else None,
        conn=None,
        token=f.opt_str("token"),
        ready=f.get_bool("ready"),
        dropped_at=f.opt_float("dropped_at"),
        taken_over=f.get_bool("taken_over"),
        stalled=f.get_bool("stalled"),
        log=[_logged(messages, i) for i in f.ints("log")],
    )
    if seat.ai_identity is not None and seat.ai_identity.public_key != seat.key:
        raise SnapshotError("damaged table snapshot: an AI seat's key does not match")
    problem = None if seat.ai is None else unknown_level(seat.ai)
    if problem is not None:
        raise SnapshotError(f"damaged table snapshot: {problem}")
    if f.get_bool("connected"):  # it was connected when the host died: it is dropped now
        seat.dropped_at = now
    return seat


def _logged(messages: list[Message], i: int) -> Message:
    if not 0 <= i < len(messages):
        raise SnapshotError(f"damaged table snapshot: a seat's log names message {i}")
    return messages[i]


def _dump_state(t: HostTable) -> dict[str, object]:
    state = dump_rest(t)
    messages = _MessageTable(t.encoded_cache)
    seats = state["seats"]
    assert isinstance(seats, list)
    for seat, fields in zip(t.seats, seats, strict=True):
        fields["log"] = [messages.add(msg) for msg in seat.log]
    t.encoded_cache = messages.cache
    state["messages"] = messages.encoded
    state["records"] = [list(r) for r in t.records]
    return state


def dump_rest(t: HostTable) -> dict[str, object]:
    """The snapshot's state without what grows with the match: no ``records``, no
    ``messages``, no seat ``log`` (a few KB, whatever the length of the match)."""
    match = t.match
    return {
        "host_key": t.identity.public_key,
        "options": t.options.to_dict(),
        "name": t.name,
        "grace": t.grace,
        "timeout": t.timeout,
        "call_wait": t.call_wait,
        "play_timeout": t.play_timeout,
        "ai_delay": t.ai_delay,
        "draw_partners": t.draw_partners,
        "draw_dealer": t.draw_dealer,
        "deal_mode": t.deal_mode,
        "hints": t.hints,
        "drawing": t.drawing,
        "seats": [dump_seat(seat) for seat in t.seats],
        "phase": str(t.phase),
        "now": t.now,
        "chain": t.chain,
        "game_id": t.game_id,
        "match": None
        if match is None
        else {
            "first_dealer": match.first_dealer,
            "results": [_dump_result(r) for r in match.results],
        },
        "deal": None if t.deal is None else t.deal.dump(),
        "draw": None
        if t.draw_round is None
        else {"seed": t.draw_seed, "round": t.draw_round.dump()},
        "hand_number": t.hand_number,
        "internal_errors": list(t.internal_errors),
        "acks": [None if r is None else list(r) for r in t.acks],
        "deadline": t.deadline,
        "chain_at_reveal": t.chain_at_reveal,
        "last_ai_move": t.last_ai_move,
        "receipts_due": _receipts(t),
    }


def _receipts(t: HostTable) -> list[list[object]]:
    return [[s, h, b, sig, w] for s, h, (b, sig), w in t.receipts_due]


RestPath = tuple[str, ...]


def hot_rest(t: HostTable) -> list[tuple[RestPath, object]]:
    """The values of ``dump_rest`` that a classic card and what it owes move (the clock, the
    chain, the receipts owed, the hand's plays and owed work), at their paths, as ``dump_rest``
    writes them: all that such a step changes (``TableCore.rest_mark``)."""
    hot: list[tuple[RestPath, object]] = [
        (("now",), t.now),
        (("chain",), t.chain),
        (("last_ai_move",), t.last_ai_move),
        (("receipts_due",), _receipts(t)),
    ]
    deal = t.deal
    if isinstance(deal, ClassicDeal):
        hot.append((("deal", "owed"), deal.owed_codes()))
        if deal.hand is not None:
            hot.append((("deal", "hand", "plays"), deal.play_codes(deal.hand)))
    return hot


def _load_state(t: HostTable, f: Fields, identity: Identity) -> None:
    if f.get_bytes("host_key") != identity.public_key:
        raise SnapshotError("snapshot belongs to another host identity")
    options = TableOptions.from_dict(dict(f.map("options").obj))
    n = options.players
    t.options, t.identity = options, identity
    t.name = f.get_str("name")[:MAX_NAME]
    t.grace, t.timeout, t.ai_delay = (
        f.get_float("grace"),
        f.get_float("timeout"),
        f.get_float("ai_delay"),
    )
    t.call_wait = f.get_float("call_wait")
    t.play_timeout = f.get_float("play_timeout")
    t.draw_partners, t.draw_dealer = f.get_bool("draw_partners"), f.get_bool("draw_dealer")
    t.deal_mode = f.get_str("deal_mode")
    if t.deal_mode not in DEAL_MODES:
        raise SnapshotError(f"damaged table snapshot: unknown deal {t.deal_mode!r}")
    t.hints = bool(f.obj.get("hints", False))  # absent in snapshots from before the option
    t.drawing = f.get_bool("drawing")
    t.now = f.get_float("now")
    t.turn_since, t._turn = t.now, None  # a card owed when the host stopped: its time again
    seats = f.get_list("seats")
    if len(seats) != n:
        raise SnapshotError(f"damaged table snapshot: {n} seats expected")
    messages = [decode_message(b) for b in f.bytes_list("messages")]
    t.seats = [
        _load_seat(Fields(s, f"state.seats[{i}]"), t.now, messages) for i, s in enumerate(seats)
    ]
    t.encoded_cache = {}
    t.phase = Phase(f.get_str("phase"))
    t.records = [record(r) for r in f.get_list("records")]
    t.context = ContextChain()
    t.named, t._replay_due, t.redeals = {}, False, 0
    for body, _sig in t.records:  # the chain is recomputed, so edited records are noticed
        st = decode(body)
        if st.PUBLIC:
            t.context.follow(body)
        if isinstance(st, Abort) and st.hand != DRAW_HAND and st.seat != HOST_PARTY:
            t.named[st.seat] = t.named.get(st.seat, 0) + 1  # a hand dealt again (§8.7)
        if isinstance(st, HostReveal) and options.chiamata and not any(st.points):
            t.redeals += 1  # five players: everyone passed, dealt again (fairness.md §13)
    if t.chain != f.get_bytes("chain"):
        raise SnapshotError("damaged table snapshot: the records do not match their hash chain")
    t.game_id = f.get_bytes("game_id")
    t.match = None
    mf = f.opt_map("match")
    if mf is not None:
        t.match = Match(options, mf.get_int("first_dealer"))
        for r in mf.get_list("results"):
            _load_result(t.match, r)
    t.hand_number = f.get_int("hand_number")
    t.internal_errors = [str(x) for x in f.get_list("internal_errors")]
    t._pending_names = {}
    t.acks = opt_records(f, "acks", n)
    t.deal, t.draw_round, t.draw_seed = None, None, b""
    df = f.opt_map("draw")
    if df is not None:
        t.draw_seed = df.get_bytes("seed")
        rf = df.map("round")
        t.draw_round = t.seed_round(rf.get_int("hand"), t._finish_draw)
        t.draw_round.load(rf)
    hf = f.opt_map("deal")
    if hf is not None:
        mode = hf.get_str("mode")
        if mode == CLASSIC:
            t.deal = ClassicDeal.load(t, hf)
        elif mode == BLIND:
            t.deal = BlindDeal.load(t, hf)
        else:
            raise SnapshotError(f"damaged table snapshot: unknown deal {mode!r}")
    t.deadline = f.get_float("deadline")
    t.chain_at_reveal = f.get_bytes("chain_at_reveal")
    t.last_ai_move = f.get_float("last_ai_move")
    t.receipts_due = _receipts_due(f, n)


def _receipts_due(f: Fields, seats: int) -> list[tuple[int, int, Record, int]]:
    """The receipts a snapshot's table owes (absent in older snapshots: none)."""
    items = f.obj.get("receipts_due", [])
    due: list[tuple[int, int, Record, int]] = []
    for item in items if isinstance(items, list) else [None]:
        if not (
            isinstance(item, list)
            and len(item) == 5
            and type(item[0]) is int
            and 0 <= item[0] < seats
            and type(item[1]) is int
            and isinstance(item[2], bytes)
            and isinstance(item[3], bytes)
            and type(item[4]) is int
        ):
            raise SnapshotError("damaged table snapshot: a receipt owed")
        due.append((item[0], item[1], (item[2], item[3]), item[4]))
    return due


def _dump_result(r: HandResult) -> list[object]:
    """A recorded hand: [dealer, points], and at five players [caller, partner, bid, called]."""
    out: list[object] = [r.dealer, list(r.points)]
    c = r.call
    if c is not None:
        out.append([c.caller, c.partner, c.bid, c.called.code])
    return out


def _load_result(match: Match, r: object) -> None:
    """Record a hand of the snapshot in the match (at five players scored again from its call)."""
    opts = match.options
    size = 3 if opts.chiamata else 2
    if not (isinstance(r, list) and len(r) == size and isinstance(r[0], int)):
        raise SnapshotError("damaged table snapshot: a hand result is not [dealer, points(, call)]")
    points = Fields({"p": r[1]}, "result").ints("p")
    call = None
    if opts.chiamata:
        caller, partner, bid, called = Fields({"c": r[2]}, "result").ints("c")
        contract = Contract(caller, Bid(bid), Card.from_code(called))
        call = score_hand(opts, contract, partner, points)
    match.record_points(points, r[0], call)
