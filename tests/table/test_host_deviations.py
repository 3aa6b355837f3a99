"""A property of the whole protocol: random tables, honest seats, and one random deviation by
the host on the way to one seat (a message dropped, two messages swapped, one record of the
host's re-signed in another version). However the match goes on, no honest seat is ever at
fault in an honest seat's file ("host or seat N" is no blame: it cannot tell them apart), and
whenever the deviation left a seat's file with another history than the host's, some file says
so (it is not "verified")."""

from __future__ import annotations

import contextlib
import dataclasses
import random
from typing import Any

import pytest

from briscola_lan.fairness.identity import Identity, verify_signature
from briscola_lan.fairness.statements import Statement, StatementError, decode
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules import MatchFormat, TableOptions
from briscola_lan.table.selfplay import play_out, seat_clients
from briscola_lan.wire.messages import Message, Record

from .helpers import counter_entropy, cycle_chooser

SEEDS = range(40)


def _records_of(msg: Message) -> list[Record]:
    if hasattr(msg, "records"):
        return list(msg.records)  # type: ignore[attr-defined]
    if hasattr(msg, "body") and hasattr(msg, "sig"):
        return [(msg.body, msg.sig)]  # type: ignore[attr-defined]
    return []


def _variant(st: Statement) -> Statement | None:
    """Another version of a statement that still decodes: one bytes field changed."""
    for f in dataclasses.fields(st):  # type: ignore[arg-type]
        v = getattr(st, f.name)
        if f.name in ("game_id",):
            continue
        if isinstance(v, bytes) and len(v) == 32:
            return dataclasses.replace(st, **{f.name: bytes([v[0] ^ 1]) + v[1:]})
        if isinstance(v, tuple) and v and isinstance(v[0], bytes) and len(v[0]) == 32:
            changed = (bytes([v[0][0] ^ 1]) + v[0][1:], *v[1:])
            return dataclasses.replace(st, **{f.name: changed})
    return None


class Deviation:
    """One deviation of the host toward one seat, at its ``at``-th record-bearing message."""

    KINDS = ("drop", "swap", "resign")

    def __init__(self, kind: str, rng: random.Random, victim: int, keys: list[Identity]) -> None:
        self.kind = kind
        self.victim, self.keys = victim, keys
        self.at = rng.randrange(4, 60)
        self.seen = 0
        self.done = False
        self.held: Message | None = None

    def __call__(self, conn: int, msg: Message) -> Message | list[Message] | None:
        if conn != self.victim or self.done or not _records_of(msg):
            if self.held is not None and conn == self.victim:
                return self._release(msg)
            return msg
        self.seen += 1
        if self.seen < self.at:
            return msg
        if self.kind == "drop":
            self.done = True
            return None
        if self.kind == "swap":
            self.held = msg  # sent after the next message to this seat
            self.done = True
            return None
        return self._resign(msg)

    def _release(self, msg: Message) -> list[Message]:
        held, self.held = self.held, None
        assert held is not None
        return [msg, held]

    def _resign(self, msg: Message) -> Message:
        recs = _records_of(msg)
        for i, (body, sig) in enumerate(recs):
            try:
                st = decode(body)
            except StatementError:
                continue
            key = next((k for k in self.keys if verify_signature(k.public_key, body, sig)), None)
            new = _variant(st) if key is not None else None
            if key is None or new is None:
                continue
            nb = new.encode()
            recs[i] = (nb, key.sign(nb))
            self.done = True
            break
        if not self.done:
            return msg
        if hasattr(msg, "records"):
            return type(msg)(tuple(recs))  # type: ignore[call-arg]
        fields = {f.name: getattr(msg, f.name) for f in dataclasses.fields(msg)}  # type: ignore[arg-type]
        return type(msg)(**{**fields, "body": recs[0][0], "sig": recs[0][1]})  # type: ignore[call-arg]


def _table(rng: random.Random, seed: int) -> tuple[TableOptions, str, dict[int, str]]:
    players = rng.choice([2, 3, 4])
    fmt = MatchFormat.POINTS if players == 3 else MatchFormat.HANDS
    opts = TableOptions.make(players=players, match_format=fmt, hands_to_win=1)
    deal = rng.choice(["blind", "classic"])
    ai = {s: "rules" for s in range(1, players) if rng.random() < 0.3}
    return opts, deal, ai


def _public(records: list[Record]) -> list[bytes]:
    return [b for b, _ in records if decode(b).PUBLIC]


@pytest.mark.parametrize("seed", SEEDS)
def test_one_deviation_by_the_host_never_blames_an_honest_seat(seed: int) -> None:
    rng = random.Random(seed)
    opts, deal, ai = _table(rng, seed)
    host, clients, wire = seat_clients(
        opts, entropy=counter_entropy(f"deviation-{seed}"), name="t", deal=deal, ai_seats=ai
    )
    keys = [host.identity, *(s.ai_identity for s in host.seats if s.ai_identity is not None)]
    dev = Deviation(Deviation.KINDS[seed % 3], rng, rng.randrange(len(clients)), keys)
    deliver = wire.deliver

    def tapped(outs: list[Any]) -> None:  # the tap may hold a message back or add one
        for o in outs:
            got = dev(o.conn, o.message)
            msgs = got if isinstance(got, list) else [] if got is None else [got]
            for msg in msgs:
                deliver([type(o)(o.conn, msg, o.close)])

    wire.deliver = tapped  # type: ignore[method-assign]
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    with contextlib.suppress(RuntimeError):  # a seat that caught the host may stop answering
        play_out(wire, [cycle_chooser(i) for i in range(len(clients))], max_idle=400)
    humans = [s for s in range(opts.players) if s not in ai]
    host_public = _public(host.records)
    differs = False
    for seat, c in zip(humans, clients, strict=True):
        rep = verify_records(c.records)
        blame = rep.blame
        if blame is not None:
            assert blame.party == "host" or blame.party.startswith("host or seat"), (
                seed,
                dev.kind,
                seat,
                blame.describe(),
            )
        mine = _public(c.records)
        differs = differs or mine != host_public[: len(mine)]
    if differs:
        verdicts = [verify_records(c.records).verdict for c in clients]
        assert any(v != "verified" for v in verdicts), (seed, dev.kind, verdicts)
