"""The journal's file as protocol/SPEC.md §10 lays it out: its header, its frames (each chained
to the one before by its digest), and a file's bytes read back checked frame by frame into the
parts of the table's snapshot they add up to (``parse``); ``net/journal.py`` writes it."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

MAGIC = b"briscola-lan-journal\n"
VERSION = 2
READS = (1, 2)  # version 1 wrote the rest whole at every change: read, then written again as 2
KEY_SIZE = 32
HEADER_SIZE = len(MAGIC) + 4 + KEY_SIZE
FRAME_HEAD = 4 + 4 + 32  # length, its complement, digest
MAX_FRAME = 64 * 1024 * 1024  # a longer length field is damage, not a change


class JournalError(Exception):
    """A journal this host cannot use: the message says why, and what to do."""


def frame(digest: bytes, payload: bytes) -> tuple[bytes, bytes]:
    """The frame that appends ``payload`` after the frame (or header) whose digest is
    ``digest``, and its own digest."""
    n = len(payload)
    length = n.to_bytes(4, "big")
    h = hashlib.sha256(digest)
    h.update(length)
    h.update(payload)
    d = h.digest()
    return b"".join((length, (n ^ 0xFFFFFFFF).to_bytes(4, "big"), d, payload)), d


@dataclass
class Parsed:
    """What a journal file holds, read and checked frame by frame."""

    host_key: bytes
    end: int  # where the last whole frame ends (a torn tail after it is not part of the journal)
    digest: bytes  # the last whole frame's digest (the header's, with no frame)
    torn: int = 0  # bytes of a frame cut short at the end
    version: int = VERSION
    tx: int = 0
    records: list[tuple[bytes, bytes]] = field(default_factory=list)
    messages: list[bytes] = field(default_factory=list)
    logs: list[list[int]] = field(default_factory=list)  # each seat's log (its current epoch)
    epochs: list[int] = field(default_factory=list)
    rest: dict[str, object] | None = None  # the table's state without its growing lists


def parse(data: bytes, where: str, host_key: bytes | None = None) -> Parsed:
    """Read a journal's bytes: the header (of ``host_key``'s journal, when given), then every
    whole frame, each checked against the digest chain and against what came before;
    ``JournalError`` names what is wrong."""
    if len(data) < HEADER_SIZE or not data.startswith(MAGIC):
        raise JournalError(
            f"{where} is not a briscola-lan table journal: move it away, or choose another "
            "--state-dir"
        )
    version = int.from_bytes(data[len(MAGIC) : len(MAGIC) + 4], "big")
    if version not in READS:
        raise JournalError(
            f"{where} was written by another briscola-lan version (journal version {version}, "
            f"this one reads {' and '.join(map(str, READS))}): its table cannot be continued; "
            "start a new table (host --force)"
        )
    head = data[:HEADER_SIZE]
    if host_key is not None and head[-KEY_SIZE:] != host_key:
        raise JournalError(
            f"{where} belongs to another host identity (another identity key or user): only "
            "the host that wrote it can continue its table"
        )
    p = Parsed(
        host_key=head[-KEY_SIZE:],
        end=HEADER_SIZE,
        digest=hashlib.sha256(head).digest(),
        version=version,
    )
    pos = HEADER_SIZE
    while pos < len(data):
        if len(data) - pos < FRAME_HEAD:
            break  # a frame's head cut short
        length = int.from_bytes(data[pos : pos + 4], "big")
        check = int.from_bytes(data[pos + 4 : pos + 8], "big")
        if length ^ check != 0xFFFFFFFF or length > MAX_FRAME:
            if not data[pos:].strip(b"\0"):
                break  # zeros that a crash left where a frame was going
            raise _damaged(where, f"the length of the change at byte {pos} is damaged")
        if pos + FRAME_HEAD + length > len(data):
            break  # cut short: a crash while it was written
        payload = data[pos + FRAME_HEAD : pos + FRAME_HEAD + length]
        _, digest = frame(p.digest, payload)
        if digest != data[pos + 8 : pos + FRAME_HEAD]:
            raise JournalError(
                f"{where} was changed outside briscola-lan, or damaged on the disk (the change "
                f"at byte {pos} does not match its digest): its table cannot be continued "
                "safely; move it away to start a new one"
            )
        try:
            _apply(p, payload)
        except (ValueError, TypeError, IndexError) as exc:
            raise _damaged(where, f"the change at byte {pos}: {exc}") from exc
        pos += FRAME_HEAD + length
        p.end, p.digest = pos, digest
    p.torn = len(data) - p.end
    return p


def _damaged(where: str, why: str) -> JournalError:
    return JournalError(
        f"{where} is damaged ({why}): its table cannot be continued; move it away to start a "
        "new one"
    )


def _apply(p: Parsed, payload: bytes) -> None:
    """One frame's change, checked against what the journal held before it."""
    from briscola_lan.table.host_journal import apply_rest_changes
    from briscola_lan.wire.codec import CodecError, unpack_state

    try:
        obj = unpack_state(payload)
    except CodecError as exc:
        raise ValueError(f"not msgpack ({exc})") from exc
    if not (isinstance(obj, list) and len(obj) == 8):
        raise ValueError("not a change")
    tx, r0, records, m0, messages, logs, heads, rest = obj
    if tx != p.tx + 1 or r0 != len(p.records) or m0 != len(p.messages):
        raise ValueError("out of order")
    for r in records:
        if not (isinstance(r, list) and len(r) == 2 and all(isinstance(x, bytes) for x in r)):
            raise ValueError("a record is not [body, signature]")
        p.records.append((r[0], r[1]))
    if not all(isinstance(b, bytes) for b in messages):
        raise ValueError("a message is not bytes")
    p.messages.extend(messages)
    if not p.logs:  # the first change names every seat
        p.logs = [[] for _ in heads]
        p.epochs = [-1] * len(heads)
    for seat, epoch, start, places in logs:
        if epoch != p.epochs[seat]:
            if epoch != p.epochs[seat] + 1 or start != 0:
                raise ValueError(f"seat {seat}'s log skips an epoch")
            p.epochs[seat], p.logs[seat] = epoch, []
        if start != len(p.logs[seat]):
            raise ValueError(f"seat {seat}'s log has a gap")
        if not all(type(i) is int and 0 <= i < len(p.messages) for i in places):
            raise ValueError(f"seat {seat}'s log names a message the journal does not hold")
        p.logs[seat].extend(places)
    if len(heads) != len(p.logs) or any(
        [e, n] != [p.epochs[i], len(p.logs[i])] for i, (e, n) in enumerate(heads)
    ):
        raise ValueError("the seats' logs do not match their heads")
    if rest is not None:
        if not isinstance(rest, bytes):
            raise ValueError("the table's state is not bytes")
        try:
            state = unpack_state(rest)
        except CodecError as exc:
            raise ValueError(f"the table's state is not msgpack ({exc})") from exc
        if isinstance(state, dict):
            p.rest = state
        elif p.rest is None:
            raise ValueError("the first change's state is not whole")
        else:
            apply_rest_changes(p.rest, state)
    elif p.rest is None:
        raise ValueError("the first change has no state")
    p.tx = tx


__all__ = [
    "FRAME_HEAD",
    "HEADER_SIZE",
    "KEY_SIZE",
    "MAGIC",
    "MAX_FRAME",
    "READS",
    "VERSION",
    "JournalError",
    "Parsed",
    "frame",
    "parse",
]
