"""One commit-reveal round of seeds on the host: a classic hand's, or the seat and dealer draw's.

Every seat commits to a 32-byte seed, the host publishes the commitments together once all are
in, then every seat reveals and the host publishes the reveals together (protocol/fairness.md §3,
§7a). The host commits and reveals for the seats it plays; a reveal that does not open its
commitment is published as evidence and the hand aborted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from briscola_lan.fairness.encoding import DRAW_HAND, seed_commitment
from briscola_lan.fairness.predicates import seed_opens
from briscola_lan.fairness.statements import Ack, Evidence, SeedCommit, SeedReveal, decode
from briscola_lan.table.deal import Outgoing, Phase, Refused, TableSide, refuse_foreign
from briscola_lan.table.snapshot import Fields, SnapshotError
from briscola_lan.wire import messages as m
from briscola_lan.wire.messages import ErrorCode, Record


class SeedRound:
    """The seeds of one hand (or of the draw, hand ``DRAW_HAND``), committed then revealed."""

    def __init__(
        self,
        table: TableSide,
        hand: int,
        on_revealed: Callable[[list[bytes], list[Outgoing]], None],
    ) -> None:
        n = table.options.players
        self.table, self.hand, self.on_revealed = table, hand, on_revealed
        self.commits: list[Record | None] = [None] * n
        self.reveals: list[Record | None] = [None] * n
        self.host_seat_seeds: dict[int, bytes] = {}  # seeds the host chose for seats it plays
        # Takes the round's records before they are published (a classic hand's machine).
        self.before_publish: Callable[[tuple[Record, ...]], None] | None = None

    @property
    def drawing(self) -> bool:
        return self.hand == DRAW_HAND

    def start(self, out: list[Outgoing]) -> None:
        """Open the commitments: the host commits at once for every seat it plays."""
        t = self.table
        t.phase = Phase.COMMIT
        t.deadline = t.now + t.timeout
        for i in range(len(t.seats)):
            if t.host_plays(i):
                self.host_commit_for(i, out)

    def host_commit_for(self, seat_no: int, out: list[Outgoing]) -> None:
        t = self.table
        seed = t.entropy(32)
        self.host_seat_seeds[seat_no] = seed
        st = SeedCommit(
            t.game_id,
            self.hand,
            seat_no,
            t.context_for(SeedCommit.KIND),
            seed_commitment(t.game_id, self.hand, seat_no, seed),
        )
        body = st.encode()
        self._accept_commit(seat_no, (body, t.seat_signer(seat_no).sign(body)), out)

    def _check_context(self, st: SeedCommit | SeedReveal, seat_no: int) -> None:  # game, seat
        refuse_foreign(st, self.table.game_id, self.hand, seat_no)

    def on_commit(self, seat_no: int, body: bytes, sig: bytes, out: list[Outgoing]) -> None:
        t = self.table
        st = decode(body)
        if not isinstance(st, SeedCommit):
            raise Refused(ErrorCode.BAD_STATEMENT, "CommitSeed must carry a seed-commit")
        if (body, sig) in t.records or self.made_by_host(seat_no, st, body):
            return  # a resumed client repeating a commitment, or answering a replayed message
        if t.phase is not Phase.COMMIT or st.hand != self.hand:
            if self.commits[seat_no] == (body, sig):
                return  # a resumed client repeating itself
            raise Refused(ErrorCode.WRONG_PHASE, "seed commitments are closed")
        self._check_context(st, seat_no)
        t.check_sig(seat_no, body, sig)
        t.check_context(st)
        existing = self.commits[seat_no]
        if existing is not None:
            if existing == (body, sig):
                return
            raise Refused(ErrorCode.BAD_STATEMENT, "you already committed to a seed")
        t.receipt(seat_no, st.hand, (body, sig), out)
        self._accept_commit(seat_no, (body, sig), out)

    def _accept_commit(self, seat_no: int, rec: Record, out: list[Outgoing]) -> None:
        t = self.table
        self.commits[seat_no] = rec
        if any(c is None for c in self.commits):
            return
        recs = tuple(c for c in self.commits if c is not None)
        if self.before_publish is not None:
            self.before_publish(recs)
        for r in recs:
            t.append(r, True)
        t.broadcast(out, m.SeedsCommitted(recs))
        t.phase = Phase.REVEAL
        t.deadline = t.now + t.timeout  # every seat gets the whole time to reveal
        for i, seed in self.host_seat_seeds.items():
            st = SeedReveal(t.game_id, self.hand, i, t.context_for(SeedReveal.KIND), seed)
            body = st.encode()
            self._accept_reveal(i, (body, t.seat_signer(i).sign(body)), out)

    def on_reveal(self, seat_no: int, body: bytes, sig: bytes, out: list[Outgoing]) -> None:
        t = self.table
        st = decode(body)
        if not isinstance(st, SeedReveal):
            raise Refused(ErrorCode.BAD_STATEMENT, "RevealSeed must carry a seed-reveal")
        if (body, sig) in t.records or self.made_by_host(seat_no, st, body):
            return  # a resumed client repeating a reveal, or answering a replayed message
        if self.reveals[seat_no] == (body, sig):
            return  # a resumed client repeating a reveal, or answering a replayed message
        if t.phase is not Phase.REVEAL:
            raise Refused(ErrorCode.WRONG_PHASE, f"not now: the table is in the {t.phase} phase")
        self._check_context(st, seat_no)
        t.check_sig(seat_no, body, sig)
        t.check_context(st)
        if self.reveals[seat_no] is not None:
            raise Refused(ErrorCode.BAD_STATEMENT, "you already revealed your seed")
        commit_rec = self.commits[seat_no]
        assert commit_rec is not None
        commit = decode(commit_rec[0])
        assert isinstance(commit, SeedCommit)
        if not seed_opens(t.game_id, self.hand, seat_no, st.seed, commit.commitment):
            out.append(
                Outgoing(
                    t.seats[seat_no].conn or 0,
                    m.Error(ErrorCode.BAD_STATEMENT, "seed does not match commit"),
                )
            )
            # The bad reveal itself is published, so that every file holds the evidence.
            ev = Evidence(t.game_id, self.hand, seat_no, body, sig)
            t.broadcast(out, m.EvidenceShown(*t.sign(ev)))
            t.abort(seat_no, "revealed a seed that does not match its commitment", out)
            return
        t.receipt(seat_no, st.hand, (body, sig), out)
        self._accept_reveal(seat_no, (body, sig), out)

    def _accept_reveal(self, seat_no: int, rec: Record, out: list[Outgoing]) -> None:
        t = self.table
        self.reveals[seat_no] = rec
        if any(r is None for r in self.reveals):
            return
        recs = tuple(r for r in self.reveals if r is not None)
        if self.before_publish is not None:
            self.before_publish(recs)
        for r in recs:
            t.append(r, True)
        t.broadcast(out, m.SeedsRevealed(recs))
        self.on_revealed(self.seeds(), out)

    def seeds(self) -> list[bytes]:
        out = []
        for r in self.reveals:
            assert r is not None
            st = decode(r[0])
            assert isinstance(st, SeedReveal)
            out.append(st.seed)
        return out

    # --- time and takeovers ---------------------------------------------------------------------

    def commit_due(self, seat_no: int) -> bool:
        """The commit deadline has come and this seat has not committed (its player is away:
        the AI commits for it rather than the hand being aborted, even with a long grace)."""
        t = self.table
        return t.phase is Phase.COMMIT and t.now >= t.deadline and self.commits[seat_no] is None

    def own_seed_unrevealed(self, seat_no: int) -> bool:
        """The seat committed to a seed of its own, not revealed yet: only it can reveal it."""
        if self.table.phase is Phase.COMMIT:
            return self.commits[seat_no] is not None
        return self.table.phase is Phase.REVEAL and self.reveals[seat_no] is None

    def after_takeover(self, seat_no: int, out: list[Outgoing]) -> None:
        if self.table.phase is Phase.COMMIT and self.commits[seat_no] is None:
            self.host_commit_for(seat_no, out)

    def made_by_host(self, seat_no: int, st: SeedCommit | SeedReveal | Ack, body: bytes) -> bool:
        """Whether the host's AI already made this statement for the seat, or it is of an earlier
        hand: a resumed client answering replayed messages, to be ignored."""
        t = self.table
        if st.game_id != t.game_id or self.drawing:
            return False
        if st.hand < self.hand:
            return True
        if st.hand != self.hand:
            return False
        return seat_no in self.host_seat_seeds  # the AI committed to (and reveals) its seed

    def tick(self, out: list[Outgoing]) -> None:
        """The deadline passed with a seat missing: the hand (or the draw) is aborted."""
        t = self.table
        if t.phase in (Phase.COMMIT, Phase.REVEAL) and t.now >= t.deadline:
            pending = self.commits if t.phase is Phase.COMMIT else self.reveals
            late = next(i for i, r in enumerate(pending) if r is None)
            what = "commit to" if t.phase is Phase.COMMIT else "reveal"
            t.abort(late, f"did not {what} its seed in time", out)

    # --- the snapshot ---------------------------------------------------------------------------

    def dump(self) -> dict[str, Any]:
        return {
            "hand": self.hand,
            "commits": [None if r is None else list(r) for r in self.commits],
            "reveals": [None if r is None else list(r) for r in self.reveals],
            "host_seat_seeds": [[s, seed] for s, seed in sorted(self.host_seat_seeds.items())],
        }

    def load(self, f: Fields) -> None:
        """Take back the state ``dump`` wrote (raises SnapshotError on a damaged one)."""
        n = self.table.options.players
        self.commits = f.opt_records("commits", n)
        self.reveals = f.opt_records("reveals", n)
        self.host_seat_seeds = {}
        for item in f.get_list("host_seat_seeds"):
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[1], bytes)):
                raise SnapshotError("damaged table snapshot: a host-held seed is not [seat, seed]")
            self.host_seat_seeds[int(item[0])] = bytes(item[1])


__all__ = ["SeedRound"]
