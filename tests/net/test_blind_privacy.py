"""The blind deal's promise, checked on what each process really had: nobody, the host included,
can find or compute a card before the rules show it to them (protocol/fairness.md §11.11).

The acceptance test plays a 4-player blind match of four ``briscola-lan bot`` processes and a
``briscola-lan host`` process on a LAN of network namespaces (TLS, mDNS), each run under
``observe.py``: every frame each process read, every message its table or session was given,
everything its ``HostTable`` (deal, hand, records, seat logs) or ``ClientSession`` held after
each one, and every file it wrote (the host's journal and transcripts, a bot's secrets,
tokens and transcript) are recorded with the moment they were first there. After the match,
the finished transcript gives every party's hand secret and so every key and every card, and
``privacy.py`` searches each record for anything that opens a card of another seat before its
play (or, for a partner's card, before the show): the card, its opening key, any party's lock
key, pad, shuffle key, exchange key, shared point or hand secret, and every 32-byte string the
process held tried as a key against every card.

The in-process tests run the same search on self-played matches (2, 3 and 4 players, with and
without an AI seat, whose cards the host knows), and show that it finds a leak: lock keys sent
to the host in the clear, opening keys in another encoding, a host peeking at a seat's cards.
"""

from __future__ import annotations

import io
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from briscola_lan.fairness import blind_party
from briscola_lan.fairness.blind import seal
from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.group import L
from briscola_lan.fairness.transcript import dumps
from briscola_lan.fairness.verify import verify_records
from briscola_lan.rules.cards import Card
from briscola_lan.rules.options import TableOptions
from briscola_lan.table.client import ClientSession
from briscola_lan.table.host import HostTable
from briscola_lan.table.selfplay import play_out, seat_clients
from briscola_lan.wire.codec import pack_state
from tests.net import privacy
from tests.net.netns import Lan, netns_available
from tests.net.observe import Recorder, observe, observe_decoder
from tests.net.procs import finish, spawn, start_host
from tests.table.helpers import counter_entropy, cycle_chooser
from tests.table.test_fake_away import FakeAway

_NETNS_MISSING = netns_available()
VECTOR = Path(__file__).resolve().parents[2] / "protocol/vectors/transcript-4p-blind.briscola.json"
_REQUIRED = os.environ.get("BRISCOLA_REQUIRE_NETNS") == "1"


# --- in one process: self-played matches, every party observed --------------------------------


def _selfplay(
    options: TableOptions,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    *,
    ai: dict[int, str] | None = None,
    label: str = "privacy",
    peek: Callable[[HostTable, list[ClientSession]], None] | None = None,
    only_host: bool = False,
) -> tuple[list[privacy.HandTruth], list[privacy.Findings]]:
    """Play a blind match in memory with the host and each seat observed; search every record
    (``only_host``: the host's)."""
    host, clients, wire = seat_clients(
        options, entropy=counter_entropy(label), name="t", deal="blind", ai_seats=ai
    )
    humans = [s for s in range(options.players) if s not in (ai or {})]
    outs = {"host": io.BytesIO(), **{f"seat {s}": io.BytesIO() for s in humans}}
    rec = {who: Recorder(out) for who, out in outs.items()}
    if peek is not None:
        receive = host.receive

        def peeking(conn: int, msg: Any) -> Any:
            out = receive(conn, msg)
            peek(host, clients)
            return out

        monkeypatch.setattr(host, "receive", peeking)
    known: dict[tuple[int, int], bytes] = {}  # (hand, party) -> its secret, as each party made it
    made = blind_party.BlindParty.__init__

    def init(self: blind_party.BlindParty, hand: Any, party: int, secret: bytes, ctx: Any) -> None:
        known[(hand.hand, party)] = secret
        made(self, hand, party, secret, ctx)

    monkeypatch.setattr(blind_party.BlindParty, "__init__", init)
    observe(host, rec["host"], monkeypatch.setattr)
    for i, (seat, c) in enumerate(zip(humans, clients, strict=True)):
        observe_decoder(wire.host_dec[i], rec["host"], monkeypatch.setattr)
        if not only_host:
            observe(c, rec[f"seat {seat}"], monkeypatch.setattr)
            observe_decoder(wire.client_dec[i], rec[f"seat {seat}"], monkeypatch.setattr)
    wire.send_to_host(0, clients[0].start())
    wire.pump()
    play_out(wire, [cycle_chooser(s) for s in humans])
    path = tmp_path / f"{label}.briscola.json"
    path.write_bytes(dumps(host.records))
    truths = privacy.match_truth(path, known)  # a hand decided before its reveals: the secrets
    assert truths, "no hand of the match was revealed"
    wanted = {who: out.getvalue() for who, out in outs.items() if who == "host" or not only_host}
    return truths, _search(truths, wanted)


def _search(truths: list[privacy.HandTruth], records: dict[str, Any]) -> list[privacy.Findings]:
    opens = privacy.KeyCache(truths)
    _search.opens = opens  # type: ignore[attr-defined]
    found = []
    for who, data in records.items():
        obs = privacy.observed(data, who)
        if who == "host":
            tl = privacy.host_timeline(obs, truths)
        else:
            tl = privacy.seat_timeline(obs, int(who.split()[1]))
        found.append(privacy.search(obs, tl, truths, opens))
    return found


def _played(truths: list[privacy.HandTruth]) -> set[tuple[bytes, int, int]]:
    return {(t.game_id, t.hand, st.position) for t in truths for _, st in t.bh.plays}


def _check_found_what_became_public(
    truths: list[privacy.HandTruth], findings: list[privacy.Findings]
) -> None:
    """The search is not blind: in every record it found every played card's opening key (as a
    string and by trying it as a key) and, at the end of the hand, the parties' hand secrets."""
    for f in findings:
        assert _played(truths) <= f.opened_by_candidates, f.who
        assert f.found_in_time.get("opening", 0) > 0 and f.found_in_time.get("secret", 0) > 0, f


@pytest.mark.parametrize(
    ("players", "ai"),
    [(2, None), (4, None), (4, {3: "random"}), (3, {1: "rules"})],
    ids=["2p", "4p", "4p-ai-seat", "3p-ai-seat"],
)
def test_in_memory_nobody_holds_a_card_before_it_is_shown(
    players: int, ai: dict[int, str] | None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    fmt = "points" if players == 3 else "hands"
    options = TableOptions.make(players=players, match_format=fmt, hands_to_win=1)
    truths, findings = _selfplay(options, monkeypatch, tmp_path, ai=ai, label=f"p{players}")
    assert [f.leaks for f in findings] == [[] for _ in findings]
    _check_found_what_became_public(truths, findings)
    for t in truths:  # with an AI seat the host is a party: it holds that seat's keys
        assert (HOST_PARTY in t.bh.parties) == bool(ai)


def test_a_fake_away_is_what_shows_the_host_a_persons_cards_and_that_person_proves_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """4 people; the host takes seat 2's answer to the call and leaves it out, to play it. By
    the records it then plays seat 2: it holds that seat's cards and, at the exchange, seat 0's
    last three (shown to the partner it plays), and nothing else of anyone (the search finds no
    leak beyond the parties' own). That is the one way a host sees a person's cards, and seat
    2's own file proves it: the host is at fault there, with its receipt."""
    monkeypatch.setattr(FakeAway, "VICTIM", 2)
    monkeypatch.setattr("briscola_lan.table.lifecycle.BlindDeal", FakeAway)
    box: dict[str, list[ClientSession]] = {}
    options = TableOptions.make(players=4, hands_to_win=1)
    truths, findings = _selfplay(
        options,
        monkeypatch,
        tmp_path,
        label="fake-away",
        peek=lambda host, clients: box.setdefault("clients", clients),
    )
    assert [f.leaks for f in findings] == [[] for _ in findings]
    first = truths[0]
    assert 2 not in first.bh.parties and HOST_PARTY in first.bh.parties  # the host played seat 2
    rep = verify_records(box["clients"][2].records)
    assert rep.verdict == "failed" and rep.blame is not None and rep.blame.party == "host"
    for seat in (0, 1, 3):
        assert verify_records(box["clients"][seat].records).blame is None


def test_the_search_finds_lock_keys_sent_to_the_host_in_the_clear(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A client that sent its shares unsealed: the receivers cannot open their cards (the hand
    is disputed), and the host held every party's lock key of every dealt card."""
    monkeypatch.setattr(blind_party, "seal", lambda value, pad: value.to_bytes(32, "little"))
    options = TableOptions.make(players=2, hands_to_win=1)
    _truths, findings = _selfplay(options, monkeypatch, tmp_path, label="clear", only_host=True)
    host = findings[0]
    assert host.who == "host" and any("lock key for position" in x for x in host.leaks), host


def test_the_search_tries_every_string_as_a_key(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A show whose values are the opening keys plus L, unsealed: no byte string equals a key,
    but each one, taken as a scalar, opens its card, and the search says so."""

    def bare(value: int, pad: bytes) -> bytes:
        return (value + L).to_bytes(32, "little") if value + L < 1 << 256 else seal(value, pad)

    real_shows = blind_party.BlindParty.shows

    def shows(self: blind_party.BlindParty) -> list[Any]:
        monkeypatch.setattr(blind_party, "seal", bare)
        try:
            return real_shows(self)
        finally:
            monkeypatch.setattr(blind_party, "seal", seal)

    monkeypatch.setattr(blind_party.BlindParty, "shows", shows)
    options = TableOptions.make(players=4, hands_to_win=1)
    _truths, findings = _selfplay(options, monkeypatch, tmp_path, label="plus-l", only_host=True)
    host = findings[0]
    assert any("held a key that opens position" in x for x in host.leaks), host
    assert not any("opening key of position" in x for x in host.leaks), host


def test_the_search_finds_cards_a_host_peeked_at(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A host that kept two seats' cards (as a mapping and as Card objects) is caught."""

    def peek(host: HostTable, clients: list[ClientSession]) -> None:
        cards: dict[int, int] = {}
        for seat in (1, 2):  # two seats' hands: too many to agree with the deck by chance
            party = clients[seat]._blind
            if party is not None:
                cards.update(party.seat_cards(seat))
        host.peeked = cards  # type: ignore[attr-defined]
        host.peeked_cards = [Card.from_code(c) for c in cards.values()]  # type: ignore[attr-defined]

    options = TableOptions.make(players=4, hands_to_win=1)
    _truths, findings = _selfplay(
        options, monkeypatch, tmp_path, label="peek", peek=peek, only_host=True
    )
    host = findings[0]
    assert any("position -> card mapping" in x for x in host.leaks), host
    assert any("held the card at position" in x for x in host.leaks), host


def test_the_search_reads_the_files_a_process_wrote() -> None:
    """A journal's state holding a hand's deck as card codes, a transcript file holding (in
    hex) a lock key of a card nobody played yet: both are leaks, found in what the process
    wrote."""
    truths = privacy.match_truth(VECTOR)
    t = truths[0]
    out = io.BytesIO()
    rec = Recorder(out)
    rec.write("journal/rest", pack_state({"deal": {"deck": list(t.order)}}))
    lock = t.keys[1].lock(7).to_bytes(32, "little")
    rec.write("games/x-host.briscola.json", dumps([(b"record", lock)]))
    obs = privacy.observed(out.getvalue(), "host")
    f = privacy.search(obs, privacy.host_timeline(obs, truths), truths, privacy.KeyCache(truths))
    assert any("position -> card mapping" in x for x in f.leaks), f.leaks
    assert any("party 1's lock key for position 7 " in x for x in f.leaks), f.leaks


def test_the_key_lookup_opens_exactly_what_the_scalar_multiplication_opens() -> None:
    """The search's lookup (a scalar opens a position when it is the position's beta, mod L)
    against the definition (``k · M_c`` is the final deck's point), for the opening keys, the
    keys plus L, each party's own lock, and random scalars; and a broken deck position, which
    the lookup cannot vouch for, is still searched the long way."""
    from nacl.bindings import crypto_scalarmult_ed25519_noclamp

    from briscola_lan.fairness.group import CARD_POINTS

    truths = privacy.match_truth(VECTOR)
    cache = privacy.KeyCache(truths)
    assert not cache.targets  # an honest deck: every position's point is beta . M_c

    def by_definition(k: int) -> list[tuple[bytes, int, int, int]]:
        raw = (k % L).to_bytes(32, "little")
        return [
            (t.game_id, t.hand, p, c)
            for t in truths
            for p, c in enumerate(t.order)
            if crypto_scalarmult_ed25519_noclamp(raw, CARD_POINTS[c]) == t.final[p]
        ]

    t = truths[0]
    rng = __import__("random").Random(7)
    scalars = [t.beta(p) for p in (0, 5, 39)] + [t.beta(3) + L, t.keys[1].lock(3)]
    scalars += [rng.randrange(1, L) for _ in range(3)]
    for k in scalars:
        assert sorted(cache.opens(k % L)) == sorted(by_definition(k)), k
    assert len(cache.opens(t.beta(5))) == 1 and not cache.opens(t.keys[1].lock(3))

    broken = privacy.HandTruth(t.game_id, t.hand, t.bh, dict(t.keys), t.secrets, t.order)
    broken.keys[1] = t.keys[0]  # the truth's keys no longer give the deck's points
    slow = privacy.KeyCache([broken])
    assert slow.targets and not slow.by_beta
    assert [w[2] for w in slow.opens(t.beta(5))] == [5]


# --- over the network: a host and four bots on a LAN -----------------------------------------


def _games(config: Path) -> Iterator[Path]:
    return (config / "data" / "briscola-lan" / "games").glob("*.briscola.json")


@pytest.mark.skipif(
    _NETNS_MISSING is not None and not _REQUIRED,
    reason=f"needs network namespaces: {_NETNS_MISSING}",
)
def test_nobody_on_the_lan_can_open_a_card_before_the_rules_show_it(tmp_path: Path) -> None:
    if _NETNS_MISSING is not None:
        pytest.fail(f"BRISCOLA_REQUIRE_NETNS=1 but {_NETNS_MISSING}")
    name = f"blind-{uuid.uuid4().hex[:6]}"
    records = {
        "host": tmp_path / "host.rec",
        **{f"seat {i}": tmp_path / f"seat{i}.rec" for i in range(4)},
    }
    with Lan(5) as lan:
        host = start_host(
            tmp_path / "h",
            "--name", name, "--players", "4", "--deal", "blind", "--hands-to-win", "2",
            "--interfaces", lan.addr[0], "--state-dir", str(tmp_path / "state"), "--one-match",
            "--tick", "0.02",
            prefix=lan.exec_args(0, []),
            observe=records["host"],
        )  # fmt: skip
        bots = []
        try:
            for i in range(4):
                args = ("bot", name, "--interfaces", lan.addr[i + 1], "--seat", str(i),
                        "--level", "rules", "--seed", str(i), "--timeout", "20",
                        "--name", f"P{i}")  # fmt: skip
                bots.append(
                    spawn(
                        tmp_path / f"c{i}",
                        *args,
                        prefix=lan.exec_args(i + 1, []),
                        observe=records[f"seat {i}"],
                    )
                )
            results = [finish(b, 300) for b in bots]
        finally:
            for b in bots:
                if b.poll() is None:
                    b.kill()
                    b.wait()
            assert host.stop() == 0
    report = "\n---\n".join(out for _, out in results)
    saved = [p for p in _games(tmp_path / "h") if p.name.endswith("-host.briscola.json")]
    assert len(saved) == 1, report
    truths = privacy.match_truth(saved[0])
    findings = _search(truths, records)
    assert [f.leaks[:5] for f in findings] == [[] for _ in findings]
    assert [code for code, _ in results] == [0, 0, 0, 0], report
    assert all("failed" not in out and "verified" in out for _, out in results), report
    assert len(truths) >= 2  # first to win 2 hands, every hand revealed
    _check_found_what_became_public(truths, findings)
    for f in findings:
        print(f.summary())
    print(f"{_search.opens.tried} distinct scalars tried against 40 cards each")  # type: ignore[attr-defined]
    for path in records.values():  # MBs (everything each process held, written at each change)
        path.unlink()
