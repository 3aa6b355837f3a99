"""A host that shows one player another past (protocol/fairness.md §8.1): for every kind of
record the host signs itself (its own party's statements, an AI seat's, its hand openings), the
victim is sent a different, re-signed version. Whatever the host does next (relay the players'
statements unchecked, or refuse the victim's as stale), no honest seat is ever blamed in any
honest seat's file, and the difference is caught: the host is at fault in the file of whoever
first sees a statement made over the other past, or the hand stops as "host or seat N"."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Callable
from typing import Any

import pytest

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.identity import Identity, verify_signature
from briscola_lan.fairness.statements import (
    BlindStart,
    DeckCommit,
    HostCommit,
    KeyReveal,
    LockPass,
    SeedCommit,
    SeedReveal,
    Shares,
    Show,
    ShufflePass,
    Statement,
    decode,
)
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import TableOptions
from briscola_lan.table import host as host_module
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import play_out, seat_clients
from briscola_lan.wire.messages import Message, Record

from .helpers import counter_entropy, cycle_chooser

VICTIM = 0
Variant = Callable[[Statement], Statement]  # another version of a record, still well formed


def _flip(raw: bytes) -> bytes:
    return bytes([raw[0] ^ 1]) + raw[1:]


def _swap_points(st: Any) -> Any:
    pts = list(st.points)
    pts[0], pts[1] = pts[1], pts[0]
    return dataclasses.replace(st, points=tuple(pts))


def _other_value(st: Any) -> Any:
    values = list(st.values)
    values[0] = _flip(values[0])  # a value sealed for another party than the victim
    return dataclasses.replace(st, values=tuple(values))


@dataclasses.dataclass
class Case:
    kind: type[Statement]
    variant: Variant
    deal: str
    players: int
    ai: dict[int, str]
    when: Callable[[Statement], bool] = lambda st: True


def _hosts(st: Statement) -> bool:
    """The host's own party's statement (it signs it)."""
    return getattr(st, "seat", None) == HOST_PARTY


def _case(
    kind: type[Statement],
    variant: Variant,
    deal: str,
    players: int,
    ai: dict[int, str],
    when: Callable[[Statement], bool] = lambda st: True,
) -> Case:
    return Case(kind, variant, deal, players, ai, when)


def _ai_seat(*seats: int) -> Callable[[Statement], bool]:
    """A statement of one of these (AI) seats: the host signs it with the seat's key."""
    return lambda st: getattr(st, "seat", None) in seats


def _new(**changes: Callable[[Any], Any]) -> Variant:
    """The record with each named field changed by its function."""
    return lambda st: dataclasses.replace(st, **{k: f(getattr(st, k)) for k, f in changes.items()})


def _first(f: Callable[[bytes], bytes]) -> Callable[[tuple[bytes, ...]], tuple[bytes, ...]]:
    return lambda xs: (f(xs[0]), *xs[1:])


CASES = {
    "blind-start": _case(BlindStart, _new(wait=lambda w: w + 1), "blind", 2, {}),
    "shuffle": _case(ShufflePass, _swap_points, "blind", 2, {1: "rules"}, _hosts),
    "lock": _case(LockPass, _swap_points, "blind", 2, {1: "rules"}, _hosts),
    "shares": _case(Shares, _other_value, "blind", 4, {1: "rules", 3: "rules"}, _hosts),
    "show": _case(Show, _other_value, "blind", 4, {1: "rules", 3: "rules"}, _ai_seat(1, 3)),
    "key-reveal": _case(KeyReveal, _new(secret=_flip), "blind", 2, {1: "rules"}, _hosts),
    "host-commit": _case(HostCommit, _new(commitment=_flip), "classic", 2, {}),
    "seed-commit": _case(
        SeedCommit, _new(commitment=_flip), "classic", 2, {1: "rules"}, _ai_seat(1)
    ),
    "seed-reveal": _case(SeedReveal, _new(seed=_flip), "classic", 2, {1: "rules"}, _ai_seat(1)),
    "deck-commit": _case(DeckCommit, _new(commitments=_first(_flip)), "classic", 2, {}),
}


def _rewrite(msg: Message, case: Case, keys: list[Identity], done: list[bool]) -> Message:
    """``msg`` with its first record of the case's kind replaced by the variant, re-signed by
    the key that signed the original (the host's, or an AI seat's): once."""
    fields = {f.name: getattr(msg, f.name) for f in dataclasses.fields(msg)}  # type: ignore[arg-type]

    def resign(body: bytes, sig: bytes) -> Record | None:
        st = decode(body)
        if done or not isinstance(st, case.kind) or not case.when(st):
            return None
        key = next((k for k in keys if verify_signature(k.public_key, body, sig)), None)
        if key is None:
            return None  # a person's statement: the host cannot sign another
        new = case.variant(st).encode()
        done.append(True)
        return new, key.sign(new)

    if "records" in fields:
        recs = [resign(b, s) or (b, s) for b, s in fields["records"]]
        return type(msg)(tuple(recs))  # type: ignore[call-arg]
    if "body" in fields:
        got = resign(fields["body"], fields["sig"])
        if got is not None:
            return type(msg)(**{**fields, "body": got[0], "sig": got[1]})  # type: ignore[call-arg]
    return msg


def _play(
    case: Case, *, relay: bool, monkeypatch: pytest.MonkeyPatch
) -> tuple[HostTable, list[ClientSession], list[bool]]:
    if relay:  # the cheating host relays the victim's statements without checking them
        monkeypatch.setattr(host_module.HostTable, "check_context", lambda self, st: None)
    opts = TableOptions.make(players=case.players, hands_to_win=1)
    label = f"equivocate-{case.kind.KIND}-{relay}"
    host, clients, wire = seat_clients(
        opts, entropy=counter_entropy(label), name="t", deal=case.deal, ai_seats=case.ai
    )
    keys = [host.identity, *(s.ai_identity for s in host.seats if s.ai_identity is not None)]
    done: list[bool] = []

    def tap(conn: int, msg: Message) -> Message | None:
        return _rewrite(msg, case, keys, done) if conn == VICTIM else msg

    wire.tap = tap
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    with contextlib.suppress(RuntimeError):  # a seat that caught the host may stop answering
        play_out(wire, [cycle_chooser(i) for i in range(len(clients))])
    return host, clients, done


@pytest.mark.parametrize("relay", [True, False], ids=["relayed", "refused"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_a_host_that_shows_one_player_another_past_never_frames_a_seat(
    name: str, relay: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = CASES[name]
    _host, clients, done = _play(case, relay=relay, monkeypatch=monkeypatch)
    assert done, f"the host never sent the victim a {case.kind.KIND}"
    humans = [s for s in range(case.players) if s not in case.ai]
    caught = False
    for seat, c in zip(humans, clients, strict=True):
        rep = verify_records(c.records)
        blame = rep.blame
        if blame is not None:
            # an honest seat is never at fault alone; "host or seat N" is no blame
            assert blame.party == "host" or blame.party.startswith("host or seat"), (
                name,
                seat,
                blame.describe(),
            )
        caught = caught or rep.verdict != "verified"
    assert caught, f"{name}: every file verifies although the victim saw another past"
