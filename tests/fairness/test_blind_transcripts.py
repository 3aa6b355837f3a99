"""Saved blind matches (protocol/fairness.md §11) before the verifier: the sample transcript
verifies through ``briscola-lan verify --json``, a classic record never slips into a blind
match, and no mutation of an honest blind file (a byte of a record changed and re-signed with
the right key, a record dropped, duplicated or moved, the file cut short) ever verifies, or makes
the verifier raise; the live checker reaches the same verdict, record and party (§8.10)."""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.identity import Identity
from briscola_lan.fairness.statements import (
    Ack,
    BlindStart,
    DeckCommit,
    Receipt,
    SeedCommit,
    SeedReveal,
    Statement,
    StatementError,
    Takeover,
    decode,
)
from briscola_lan.fairness.verify import MatchReport, TranscriptChecker, Violation, verify_records
from briscola_lan.rules import TableOptions
from tests.table.helpers import run_match

Record = tuple[bytes, bytes]
VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
RUNS = int(os.environ.get("BRISCOLA_FUZZ_RUNS", "60"))


@dataclasses.dataclass(frozen=True)
class Match:
    """An honest blind match: the host's file, each seat's, and every key that signed them."""

    host: list[Record]
    seats: list[list[Record]]
    host_key: Identity
    seat_keys: list[Identity]

    def signer(self, st: Statement) -> Identity | None:
        """The key the verifier expects on ``st`` (None: a seat that does not exist)."""
        seat = getattr(st, "seat", None)
        if st.HOST_SIGNED or seat == HOST_PARTY:
            return self.host_key
        assert isinstance(seat, int)
        return self.seat_keys[seat] if 0 <= seat < len(self.seat_keys) else None


def _match(options: TableOptions, label: str) -> Match:
    host, clients, _ = run_match(options, deal="blind", label=label)
    return Match(
        list(host.records),
        [list(c.records) for c in clients],
        host.identity,
        [c.identity for c in clients],
    )


@functools.cache
def one_hand() -> Match:
    return _match(TableOptions.make(players=2, hands_to_win=1), "blind-fuzz")


@pytest.fixture(scope="module")
def two_hands() -> Match:
    return _match(TableOptions.make(players=2, hands_to_win=2), "blind-two-hands")


def _signed(match: Match, st: Statement) -> Record:
    body = st.encode()
    key = match.signer(st)
    assert key is not None
    return body, key.sign(body)


def _named(rep: MatchReport) -> tuple[str, int | None, str | None]:
    blame = rep.blame
    return rep.verdict, blame.index if blame else None, blame.party if blame else None


# --- the sample blind transcript --------------------------------------------------------------


def test_the_sample_blind_transcript_verifies_through_the_command() -> None:
    """``briscola-lan verify --json`` on the 4-player blind sample: exit 0, verified, blind."""
    path = VECTORS / "transcript-4p-blind.briscola.json"
    proc = subprocess.run(
        [sys.executable, "-m", "briscola_lan", "verify", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert (proc.returncode, proc.stderr) == (0, ""), proc.stdout
    report = json.loads(proc.stdout)  # one file: one report
    assert (report["verdict"], report["deal"], report["at_fault"]) == ("verified", "blind", None)
    assert [h["status"] for h in report["hands"]] == ["verified"]


def test_the_five_player_blind_sample_gives_each_call_and_score() -> None:
    """``briscola-lan verify`` on the blind five-player sample (fairness.md §13.9): the hand
    everyone passed is void, each other hand names its caller, called card, partner and every
    seat's score, in words and in ``--json``, as for the classic deal."""
    path = VECTORS / "transcript-5p-blind.briscola.json"
    runs = [
        subprocess.run(
            [sys.executable, "-m", "briscola_lan", "verify", *flags, str(path)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        for flags in ((), ("--json",))
    ]
    for proc in runs:
        assert (proc.returncode, proc.stderr) == (0, ""), proc.stdout
    text, report = runs[0].stdout, json.loads(runs[1].stdout)
    assert "blind deal" in text and "everyone passed: void" in text
    assert "called" in text and "scores [" in text
    assert (report["verdict"], report["deal"]) == ("verified", "blind")
    hands = report["hands"]
    assert hands[0]["passed_out"] and hands[0]["call"] is None
    for h in hands[1:]:
        call = h["call"]
        assert call is not None and len(call["scores"]) == 5 and sum(call["scores"]) == 0
        assert call["called"] // 10 in range(4) and call["partner"] in range(5)


# --- no classic record in a blind match -------------------------------------------------------


@pytest.mark.parametrize("kind", [SeedCommit, SeedReveal, DeckCommit, Takeover])
def test_a_classic_record_between_blind_hands_is_the_hosts_fault(
    two_hands: Match, kind: type[Statement]
) -> None:
    """After the first hand's blind-end and acks, before the next blind-start: a classic
    statement of that hand is the host's fault (fairness.md §11.3), at that record.
    Regression: a seed-commit (then seed-reveals and a deck-commit) there verified, since the
    mode of a hand was only checked while it was in progress."""
    recs = two_hands.host
    sts = [decode(b) for b, _ in recs]
    at = [i for i, s in enumerate(sts) if isinstance(s, BlindStart)][1]
    assert isinstance(sts[at - 1], Ack)
    gid = sts[0].game_id  # type: ignore[attr-defined]
    extra: Statement
    if kind is SeedCommit:
        extra = SeedCommit(gid, 0, 0, bytes(32), bytes(32))
    elif kind is SeedReveal:
        extra = SeedReveal(gid, 0, 0, bytes(32), bytes(32))
    elif kind is DeckCommit:
        extra = DeckCommit(gid, 0, tuple(bytes([i]) * 32 for i in range(40)))
    else:
        extra = Takeover(gid, 0, 1, 1, 0)
    edited = [*recs[:at], _signed(two_hands, extra), *recs[at:]]
    assert _named(verify_records(edited)) == ("failed", at, "host")


# --- fuzzing ------------------------------------------------------------------------------------

Mutation = tuple[str, int, int, int]


def _mutate(match: Match, records: list[Record], ops: list[Mutation]) -> list[Record]:
    recs = list(records)
    for what, a, b, c in ops:
        if not recs:
            break
        i, j = a % len(recs), b % len(recs)
        if what == "flip":  # one byte of a body changed, the record signed again by its signer
            body = bytearray(recs[i][0])
            body[b % len(body)] ^= c or 1
            key = _signer(match, bytes(body)) or _signer(match, recs[i][0])
            sig = key.sign(bytes(body)) if key is not None else recs[i][1]
            recs[i] = (bytes(body), sig)
        elif what == "signature":
            sig = bytearray(recs[i][1])
            sig[b % len(sig)] ^= c or 1
            recs[i] = (recs[i][0], bytes(sig))
        elif what == "drop":
            del recs[i]
        elif what == "duplicate":
            recs.insert(j, recs[i])
        elif what == "swap":
            recs[i], recs[j] = recs[j], recs[i]
        elif what == "move":
            recs.insert(j, recs.pop(i))
        else:
            del recs[i:]
    return recs


def _signer(match: Match, body: bytes) -> Identity | None:
    """Who signs these bytes as the verifier reads them (None: not a statement, or no such
    seat)."""
    try:
        return match.signer(decode(body))
    except StatementError:
        return None


def _live(records: list[Record]) -> MatchReport:
    """The verdict a live client reaches on these records (signatures queued, acks closed as
    they are relayed), as tests/fairness/test_negative_vectors.py runs it."""
    checker = TranscriptChecker(defer_signatures=True)
    for i, (body, sig) in enumerate(records):
        try:
            checker.add(body, sig)
            nxt = records[i + 1][0] if i + 1 < len(records) else None
            if isinstance(checker.last_statement, Ack) and not _is_ack(nxt):
                checker.acks_complete()
        except Violation:
            break
    return checker.finish()


def _is_ack(body: bytes | None) -> bool:
    if body is None:
        return False
    try:
        return isinstance(decode(body), Ack)
    except StatementError:
        return False


def _public(records: list[Record]) -> list[Record]:
    """A seat's file without its receipts (a receipt may be moved, dropped or doubled within
    its hand, or re-dated, and the file still verifies: §8.5)."""
    out = []
    for rec in records:
        try:
            if isinstance(decode(rec[0]), Receipt):
                continue
        except StatementError:
            pass
        out.append(rec)
    return out


MUTATIONS = st.lists(
    st.tuples(
        st.sampled_from(
            ["flip", "flip", "flip", "signature", "drop", "duplicate", "swap", "move", "cut"]
        ),
        st.integers(0, 10_000),
        st.integers(0, 10_000),
        st.integers(0, 255),
    ),
    min_size=1,
    max_size=3,
)


@settings(
    max_examples=RUNS,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(ops=MUTATIONS, which=st.sampled_from(["host", "seat0", "seat1"]))
def test_a_mutated_blind_file_never_verifies(ops: list[Mutation], which: str) -> None:
    """Whatever is changed, the verifier says so (and does not raise); the live checker names
    the same verdict, record and party. A seat's file may differ in its receipts alone."""
    match = one_hand()
    original = match.host if which == "host" else match.seats[int(which[-1])]
    mutated = _mutate(match, original, ops)
    rep = verify_records(mutated)
    changed = mutated != original if which == "host" else _public(mutated) != _public(original)
    if changed:
        assert rep.verdict != "verified", ops
    assert _named(_live(mutated)) == _named(rep), ops
