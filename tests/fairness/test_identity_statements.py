"""Identity keys on disk, fingerprints, strict statement decoding, and the transcript file."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from briscola_lan.fairness.identity import (
    Identity,
    fingerprint,
    verify_signature,
)
from briscola_lan.fairness.statements import (
    Deal,
    MatchStart,
    Opening,
    Play,
    StatementError,
    decode,
    decode_as,
)
from briscola_lan.fairness.transcript import TranscriptFileError, dumps, loads

GID = bytes(range(16))


def test_fingerprint_and_signatures() -> None:
    ident = Identity.generate(bytes(32))
    fp = ident.fingerprint
    assert fp == fingerprint(ident.public_key) and len(fp) == 19 and fp.count("-") == 3
    sig = ident.sign(b"body")
    assert verify_signature(ident.public_key, b"body", sig)
    assert not verify_signature(ident.public_key, b"bodx", sig)
    assert not verify_signature(ident.public_key, b"body", sig[:-1])
    assert not verify_signature(b"short", b"body", sig)
    other = Identity.generate(b"\x01" * 32)
    assert not verify_signature(other.public_key, b"body", sig)


def test_statement_decoding_is_strict() -> None:
    body = Play(GID, 1, 2, bytes(32), 3, 4).encode()
    assert decode(body) == Play(GID, 1, 2, bytes(32), 3, 4)
    assert decode_as(body, Play).card == 4
    with pytest.raises(StatementError):
        decode_as(body, Deal)
    for bad in (body + b"\x00", body[:-1], b"", b"\x00\x00\x00\x03abc"):
        with pytest.raises(StatementError):
            decode(bad)
    with pytest.raises(StatementError):
        Play(b"short", 1, 2, bytes(32), 3, 4).encode()
    huge = Deal(GID, 0, 0, tuple(Opening(i, 0, bytes(32)) for i in range(65))).encode()
    with pytest.raises(StatementError):
        decode(huge)


@given(
    st.lists(
        st.tuples(
            st.integers(0, 2**32 - 1), st.integers(0, 39), st.binary(min_size=32, max_size=32)
        ),
        max_size=10,
    ),
    st.text(max_size=20),
)
def test_statements_round_trip(openings: list[tuple[int, int, bytes]], name: str) -> None:
    d = Deal(GID, 3, 1, tuple(Opening(*o) for o in openings))
    assert decode(d.encode()) == d
    ms = MatchStart(
        GID,
        2,
        "hands",
        2,
        1,
        0,
        bytes(32),
        (bytes(32), bytes(32)),
        (name, "b"),
        ("", "rules"),
        1,
        name,
    )
    assert decode(ms.encode()) == ms


def test_transcript_file_round_trip_and_refusals() -> None:
    recs = [(b"\x01\x02", b"\x03" * 64), (b"", b"")]
    data = dumps(recs)
    assert loads(data) == recs
    assert loads(dumps([])) == []
    for bad in (
        b"not json",
        b'{"format":"x"}',
        data.replace(b"0102", b"0x02"),
        data.replace(b'"version":2', b'"version":3'),
        data.replace(b'"version":2', b'"version":1'),
        data + b"\n",
    ):
        with pytest.raises(TranscriptFileError):
            loads(bad)
