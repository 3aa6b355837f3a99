"""The saved-game file: a canonical JSON list of signed statement records (protocol/fairness.md §9).

The file is exactly ``{"format":"briscola-lan-transcript","version":2,"records":[`` then one
``["<body hex>","<signature hex>"]`` per line, comma-separated, then ``]}`` and a newline; lower
case hex. Anything else, even a harmless-looking whitespace change, is refused, so no byte of a
saved game can change without the verifier noticing. The file is written by the edges
(``briscola_lan.net.games``, through ``net.files.write_private``) from ``dumps``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from briscola_lan.about import FAIRNESS_VERSION

FORMAT = "briscola-lan-transcript"
VERSION = FAIRNESS_VERSION  # the fairness protocol version of its statements
SUFFIX = ".briscola.json"

Record = tuple[bytes, bytes]


class TranscriptFileError(ValueError):
    """A saved game that is not a well-formed transcript file."""


_HEAD = f'{{"format":"{FORMAT}","version":{VERSION},"records":[\n'.encode("ascii")


def record_line(record: Record) -> bytes:
    """One record's line of the saved-game file, without the comma that ends all but the last."""
    body, sig = record
    return b'["' + body.hex().encode("ascii") + b'","' + sig.hex().encode("ascii") + b'"]'


def dumps_lines(lines: Sequence[bytes]) -> bytes:
    """The exact bytes of the saved-game file whose records' lines (``record_line``) are
    ``lines``: a saver that keeps the lines of the records it wrote before encodes only the new
    ones."""
    return _HEAD + b",\n".join(lines) + b"\n]}\n"


def dumps(records: Sequence[Record]) -> bytes:
    """The exact bytes of the saved-game file holding ``records``."""
    return dumps_lines([record_line(r) for r in records])


def loads(data: bytes) -> list[Record]:
    try:
        obj = json.loads(data.decode("ascii"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise TranscriptFileError(f"not a transcript file: {exc}") from exc
    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise TranscriptFileError(f"not a {FORMAT} file")
    version = obj.get("version")
    if version != VERSION:
        if version == 1:
            raise TranscriptFileError(
                "this game was saved under version 1 of the fairness protocol, which this "
                f"verifier no longer checks (it checks version {VERSION})"
            )
        raise TranscriptFileError(f"unsupported transcript version {version!r}")
    raw = obj.get("records")
    if not isinstance(raw, list):
        raise TranscriptFileError("records must be a list")
    records: list[Record] = []
    for i, item in enumerate(raw):
        if (
            not isinstance(item, list)
            or len(item) != 2
            or not all(isinstance(x, str) for x in item)
        ):
            raise TranscriptFileError(f"record {i} must be [body hex, signature hex]")
        try:
            records.append((bytes.fromhex(item[0]), bytes.fromhex(item[1])))
        except ValueError as exc:
            raise TranscriptFileError(f"record {i} is not hex: {exc}") from exc
    if dumps(records) != data:
        raise TranscriptFileError("file is not in the canonical transcript form (edited?)")
    return records


def load(path: Path) -> list[Record]:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise TranscriptFileError(f"cannot read {path}: {exc}") from exc
    return loads(data)
