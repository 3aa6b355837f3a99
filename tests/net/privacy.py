"""What a process of a blind match could know of a card, and when: the privacy tests' analysis.

``observe.py`` records everything one process (the host, or a player) received, held and
wrote, each item with the moment (the process's own event number) it first had it. Here the
truth of every hand is rebuilt from the finished match's transcript (every party's secret is
public once its hand is over), and each process's record is searched, for every position of a
hand that the process may not open yet, for:

- the card itself as a ``Card`` object it holds, or in a position -> card mapping (of the hand
  under way when the mapping appeared) that agrees with the deck beyond chance;
- the position's opening key ``beta_p``, any party's lock key ``b_p`` (and the factor
  ``b_p / a`` its lock pass multiplies by), the pads that seal them, in the clear, anywhere in its
  bytes (32 little-endian bytes, at any offset);
- any other party's hand secret, shuffle key (and its inverse) and exchange key, and the
  Diffie-Hellman point of two other parties, before that party revealed its secret;
- and, actively, every 32-byte string it held (statement fields, signature halves, large
  integers, undecodable bytes cut in 32-byte pieces) tried as a scalar ``k``: if
  ``k · M_c = F[p]`` for a card ``c`` and a position ``p`` not yet open to it, that string would
  have opened the card.

An item first held at event ``e`` leaks a position only if the position opened to the process
after ``e`` (its play, or the partner's show, arrived at a later event). Keys of a played card
are found too, at the event that brought the play: the test checks they are, so a search that
finds nothing at all cannot pass.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import msgpack
from nacl.bindings import crypto_scalarmult_ed25519_noclamp

from briscola_lan.fairness.blind import (
    SHARE,
    SHOW,
    PartyKeys,
    deck_order,
    derive_keys,
    inverse,
    pad,
    shared_point,
)
from briscola_lan.fairness.blind_hand import BlindHand, Presence
from briscola_lan.fairness.encoding import DOMAIN, HOST_PARTY
from briscola_lan.fairness.group import CARD_POINTS, L
from briscola_lan.fairness.statements import (
    Abort,
    BlindPlay,
    BlindStart,
    Complaint,
    KeyReveal,
    LockPass,
    MatchStart,
    Opening,
    Present,
    Receipt,
    Shares,
    Show,
    ShufflePass,
    Statement,
    StatementError,
    decode,
)
from briscola_lan.fairness.transcript import load as load_transcript
from briscola_lan.fairness.verify import options_of
from briscola_lan.wire import messages as m
from briscola_lan.wire.codec import CodecError, decode_message

NEVER = 1 << 62  # an event after every event: the value never became known to the process
ANY_HAND = -1  # a mapping found in a file: judged against every hand


# --- what happened: every hand rebuilt from the finished match's transcript ---------------------


@dataclass
class HandTruth:
    """One blind hand as the finished transcript shows it, every secret included."""

    game_id: bytes
    hand: int
    bh: BlindHand
    keys: dict[int, PartyKeys]  # party -> its keys
    secrets: dict[int, bytes]  # party -> its hand secret
    order: tuple[int, ...]  # position -> card code

    @property
    def final(self) -> tuple[bytes, ...]:
        assert self.bh.final is not None
        return self.bh.final

    def seat_of(self, position: int) -> int | None:
        """The seat the position was dealt to (None: never dealt, the hand ended first)."""
        return self.bh.sched.dealt.get(position)

    def beta(self, position: int) -> int:
        out = 1
        for k in self.keys.values():
            out = out * k.lock(position) % L
        return out


def match_truth(path: Path, known: dict[tuple[int, int], bytes] | None = None) -> list[HandTruth]:
    """Every blind hand of a transcript file whose parties all revealed their secrets, or whose
    secrets are ``known`` ((hand, party) -> secret: a test's own parties, for a hand that ended
    before the reveals); the passes and shares are taken as they are (their checks are the
    verifier's business)."""
    records = load_transcript(path)
    ms: MatchStart | None = None
    hands: list[HandTruth] = []
    bh: BlindHand | None = None
    call: tuple[BlindStart, Presence] | None = None
    secrets: dict[int, bytes] = {}
    for index, (body, _sig) in enumerate(records):
        st = decode(body)
        if isinstance(st, MatchStart):
            ms = st
        elif isinstance(st, BlindStart):
            assert ms is not None
            call = (st, Presence([level == "" for level in ms.ai_levels]))
            bh, secrets = None, {}
        elif isinstance(st, Present) and call is not None:
            call[1].on_present(st, index)
            continue
        if call is not None and not isinstance(st, BlindStart | Present | Receipt):
            assert ms is not None
            start, presence = call
            parties = presence.close()
            bh = BlindHand(options_of(ms), start.game_id, start.hand, start.dealer, parties)
            call = None
        if bh is None:
            continue
        if isinstance(st, KeyReveal):
            secrets[st.seat] = st.secret
        elif isinstance(st, ShufflePass | LockPass | Shares | Show | BlindPlay | Complaint):
            bh.apply(st, index)
        elif isinstance(st, Abort) and known:
            secrets.update({q: known[(bh.hand, q)] for q in bh.parties if (bh.hand, q) in known})
        if len(secrets) == len(bh.parties):
            keys = {q: derive_keys(bh.game_id, bh.hand, q, s, bh.size) for q, s in secrets.items()}
            order = deck_order(bh.codes, [keys[q].perm for q in bh.parties])
            hands.append(HandTruth(bh.game_id, bh.hand, bh, keys, dict(secrets), order))
            bh = None
    return hands


# --- what one process had: its record, as items with the event it first had them -------------


@dataclass
class Observed:
    """One process's record (``observe.py``), flattened."""

    who: str
    messages: list[tuple[int, m.Message]] = field(default_factory=list)
    leaves: dict[bytes, int] = field(default_factory=dict)  # bytes -> first event (fields)
    raw: dict[bytes, int] = field(default_factory=dict)  # chunks read from peers -> event
    ints: dict[int, int] = field(default_factory=dict)  # large integer -> first event
    maps: list[tuple[int, int, tuple[tuple[int, int], ...]]] = field(default_factory=list)
    cards: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)  # e, hand, codes
    raw_bytes: int = 0  # bytes read from its peers
    frames: int = 0  # messages given to its table or session
    held_bytes: int = 0  # bytes of the distinct byte strings it held
    written: int = 0  # bytes it wrote to files
    writes: int = 0

    _parts: dict[bytes, tuple[bytes, ...]] = field(default_factory=dict)

    @property
    def scanned(self) -> int:
        """Bytes of the distinct byte strings searched at every offset (fields and frames)."""
        return sum(map(len, self.leaves)) + sum(map(len, self.raw))

    def add_leaf(self, data: bytes, e: int) -> None:
        """Every field of ``data`` (the bytes themselves when they have no structure)."""
        parts = self._parts.get(data)
        if parts is None:
            parts = self._parts[data] = tuple(dict.fromkeys(expand(data, self._parts)))
        for part in parts:
            if e < self.leaves.get(part, NEVER):
                self.leaves[part] = e


def observed(path: Path | bytes, who: str) -> Observed:
    """A process's record from its file (or the bytes an in-process ``Recorder`` wrote)."""
    obs = Observed(who)
    data = path if isinstance(path, bytes) else path.read_bytes()
    unpacker = msgpack.Unpacker(raw=False, strict_map_key=False, max_buffer_size=len(data) + 1)
    unpacker.feed(data)
    file_maps: set[tuple[tuple[int, int], ...]] = set()
    for item in unpacker:
        kind, e = item[0], item[1]
        if kind == "raw":
            obs.raw_bytes += len(item[2])
            if e < obs.raw.get(item[2], NEVER):
                obs.raw[item[2]] = e
        elif kind == "msg":
            obs.frames += 1
            obs.messages.append((e, decode_message(item[2])))
            obs.add_leaf(item[2], e)
        elif kind == "held":
            obs.held_bytes += len(item[2])
            obs.add_leaf(item[2], e)
        elif kind == "int":
            value = int.from_bytes(item[2], "little", signed=True)
            if e < obs.ints.get(value, NEVER):
                obs.ints[value] = e
        elif kind == "str":
            obs.add_leaf(_str_bytes(item[2]), e)
        elif kind == "map":
            obs.maps.append((e, item[2], tuple((k, v) for k, v in item[3])))
        elif kind == "cards":
            obs.cards.append((e, item[2], tuple(item[3])))
        elif kind == "write":
            obs.writes += 1
            obs.written += len(item[3])
            obs.add_leaf(item[3], e)
            parsed = _msgpack(item[3]) or _json(item[3])
            if parsed is not None:  # a file's lists and maps of small integers, any hand's
                for pairs in _int_mappings(parsed):
                    if pairs not in file_maps:
                        file_maps.add(pairs)
                        obs.maps.append((e, ANY_HAND, pairs))
    return obs


def _int_mappings(obj: object) -> Iterator[tuple[tuple[int, int], ...]]:
    """Every dict of small integers to small integers, and list of small integers (by index),
    inside a parsed file."""
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, dict):
            items = list(o.items())
            stack.extend(o.values())
        elif isinstance(o, list):
            items = list(enumerate(o))
            stack.extend(o)
        else:
            continue
        if items and all(_small(k) and _small(v) for k, v in items):
            yield tuple(sorted(items))


def _small(v: object) -> bool:
    return type(v) is int and 0 <= v < 1 << 16


def _str_bytes(text: str) -> bytes:
    try:
        return bytes.fromhex(text)
    except ValueError:
        return text.encode("utf-8", "surrogatepass")


def expand(data: bytes, memo: dict[bytes, tuple[bytes, ...]] | None = None) -> Iterator[bytes]:
    """The byte strings ``data`` is made of: a statement's fields (and those of the statements
    inside a receipt or evidence), a wire message's fields, a msgpack file's values (the host's
    state file, a client's secrets), a JSON file's strings (a transcript's records, hex); or
    ``data`` itself when it is none of these."""
    if memo is not None and data in memo:
        yield from memo[data]
        return
    st = _statement(data)
    if st is not None:
        for value in _values(st):
            yield from expand(value, memo)
        return
    for obj in (_message(data), _msgpack(data), _json(data)):
        if obj is not None:
            for value in _leaves(obj):
                yield from expand(value, memo)
            return
    yield data


def _statement(data: bytes) -> Statement | None:
    if not data.startswith(b"\x00\x00\x00") or DOMAIN + b"st/" not in data[:40]:
        return None
    try:
        return decode(data)
    except StatementError:
        return None


def _values(st: Statement) -> Iterator[bytes]:
    for name in type(st).__dataclass_fields__:
        v = getattr(st, name)
        if isinstance(v, bytes):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, bytes):
                    yield x
                elif isinstance(x, Opening):
                    yield x.salt


def _message(data: bytes) -> object | None:
    try:
        return decode_message(data)
    except (CodecError, ValueError, TypeError):
        return None


def _msgpack(data: bytes) -> object | None:
    if not data or not (0x80 <= data[0] <= 0x8F or data[0] in (0xDE, 0xDF)):
        return None
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (ValueError, TypeError, msgpack.UnpackException):
        return None


def _json(data: bytes) -> object | None:
    if not data.startswith(b"{"):
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def _leaves(obj: object) -> Iterator[bytes]:
    stack = [obj]
    while stack:
        o = stack.pop()
        if isinstance(o, bytes):
            yield o
        elif isinstance(o, str):
            if len(o) >= 16:
                yield _str_bytes(o)
        elif isinstance(o, dict):
            stack.extend(o.keys())
            stack.extend(o.values())
        elif isinstance(o, (list, tuple)):
            stack.extend(o)
        elif hasattr(o, "__dataclass_fields__"):
            stack.extend(getattr(o, n) for n in o.__dataclass_fields__)


# --- the moments a position, a party's secret, became known to a process -----------------------


@dataclass
class Timeline:
    """When each position opened to the process, and when each party's secret reached it."""

    party: (
        int | None
    )  # the process's own party (a seat; HOST_PARTY for the host; None: not a party)
    seat: int | None  # the seat it plays (None: the host)
    opened: dict[tuple[bytes, int, int], int] = field(default_factory=dict)  # (g, h, pos) -> e
    revealed: dict[tuple[bytes, int, int], int] = field(default_factory=dict)  # (g, h, q) -> e

    def position(self, t: HandTruth, p: int) -> int:
        return self.opened.get((t.game_id, t.hand, p), NEVER)

    def party_secret(self, t: HandTruth, q: int) -> int:
        return self.revealed.get((t.game_id, t.hand, q), NEVER)


def host_timeline(obs: Observed, truths: list[HandTruth]) -> Timeline:
    """For the host: a card opens when its play reaches it (or, for a seat it plays, when the
    seat's partner shows it its hand), a party's secret with its key reveal."""
    tl = Timeline(HOST_PARTY, None)
    by_hand = {(t.game_id, t.hand): t for t in truths}
    for e, msg in obs.messages:
        body = getattr(msg, "body", None)
        if not isinstance(body, bytes):
            continue
        st = _statement(body)
        if isinstance(msg, m.PlayCard) and isinstance(st, BlindPlay):
            tl.opened.setdefault((st.game_id, st.hand, st.position), e)
        elif isinstance(msg, m.RevealKeys) and isinstance(st, KeyReveal):
            tl.revealed.setdefault((st.game_id, st.hand, st.seat), e)
        elif isinstance(msg, m.ShowHand) and isinstance(st, Show):
            t = by_hand.get((st.game_id, st.hand))
            if t is not None and t.bh.owner(st.partner) == HOST_PARTY:
                for p in st.positions:
                    tl.opened.setdefault((st.game_id, st.hand, p), e)
    return tl


def seat_timeline(obs: Observed, seat: int) -> Timeline:
    """For a seat: a card opens with its play, or (its partner's) with the show addressed to
    it; a secret with the published key reveals."""
    tl = Timeline(seat, seat)
    for e, msg in obs.messages:
        records: tuple[tuple[bytes, bytes], ...] = ()
        if isinstance(msg, m.CardPlayed | m.HandsShown | m.KeysRevealed):
            records = msg.records if hasattr(msg, "records") else ((msg.body, msg.sig),)
        for body, _sig in records:
            st = _statement(body)
            if isinstance(st, BlindPlay):
                tl.opened.setdefault((st.game_id, st.hand, st.position), e)
            elif isinstance(st, Show) and st.partner == seat:
                for p in st.positions:
                    tl.opened.setdefault((st.game_id, st.hand, p), e)
            elif isinstance(st, KeyReveal):
                tl.revealed.setdefault((st.game_id, st.hand, st.seat), e)
    return tl


# --- the search ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Secret:
    """A value the process must not hold before ``until`` (its own event number)."""

    what: str
    until: int
    kind: str  # "secret", "shuffle", "exchange", "shared", "opening", "lock", "pad"


@dataclass
class Findings:
    """What the search found in one process's record."""

    who: str
    leaks: list[str] = field(default_factory=list)
    secrets_looked_for: int = 0
    found_in_time: dict[str, int] = field(default_factory=dict)  # kind -> found once public
    candidates: int = 0  # 32-byte strings tried as keys
    opened_by_candidates: set[tuple[bytes, int, int]] = field(default_factory=set)  # played
    positions_checked: int = 0
    observed: Observed | None = None

    def summary(self) -> str:
        o = self.observed
        assert o is not None
        return (
            f"{self.who}: {o.frames} messages and {o.raw_bytes} bytes received, "
            f"{len(o.leaves)} distinct byte strings held or written ({o.held_bytes} bytes held, "
            f"{o.writes} files written, {o.written} bytes), {len(o.ints)} large integers, "
            f"{len(o.maps)} mappings, {len(o.cards)} sets of cards; {o.scanned} bytes scanned "
            f"at every offset for {self.secrets_looked_for} "
            f"secret values looked for, {sum(self.found_in_time.values())} found once public; "
            f"{self.candidates} strings tried as keys against {self.positions_checked} "
            f"closed positions"
        )


def in_scope(t: HandTruth, tl: Timeline, p: int) -> bool:
    """Whether a position is one the process may not open by itself: not the upcard, and not
    dealt to a seat whose keys the process holds (a card still in the stock is everyone's
    secret)."""
    if p == t.bh.upcard_position:
        return False
    seat = t.seat_of(p)
    return seat is None or (t.bh.owner(seat) != tl.party and seat != tl.seat)


def secrets_of(t: HandTruth, tl: Timeline) -> dict[bytes, Secret]:
    """Every value of the hand the process must not hold early, with the moment it may."""
    out: dict[bytes, Secret] = {}
    me = tl.party
    g, h = t.game_id, t.hand
    others = [q for q in t.bh.parties if q != me]

    def put(value: bytes, what: str, until: int) -> None:
        old = out.get(value)
        if old is None or until > old.until:
            out[value] = Secret(what, until, kind)

    def le(k: int) -> bytes:
        return k.to_bytes(32, "little")

    kind = "secret"
    for q in others:
        k = t.keys[q]
        until = tl.party_secret(t, q)
        put(t.secrets[q], f"hand {h}: party {q}'s hand secret", until)
        put(le(k.shuffle_key), f"hand {h}: party {q}'s shuffle key", until)
        put(le(inverse(k.shuffle_key)), f"hand {h}: party {q}'s inverse shuffle key", until)
        put(le(k.ecdh_key), f"hand {h}: party {q}'s exchange key", until)
    kind = "shared"
    shared: dict[tuple[int, int], bytes] = {}
    for i, q in enumerate(t.bh.parties):
        for r in t.bh.parties[i + 1 :]:
            point = shared_point(t.keys[q].ecdh_key, t.keys[r].ecdh_point)
            shared[(q, r)] = shared[(r, q)] = point
            if me not in (q, r):
                until = min(tl.party_secret(t, q), tl.party_secret(t, r))
                put(point, f"hand {h}: the shared point of parties {q} and {r}", until)
    for p in range(t.bh.size):
        if not in_scope(t, tl, p):
            continue
        until = tl.position(t, p)
        kind = "opening"
        put(le(t.beta(p)), f"hand {h}: the opening key of position {p}", until)
        for q in others:
            k = t.keys[q]
            b = k.lock(p)
            kind = "lock"
            put(le(b), f"hand {h}: party {q}'s lock key for position {p}", until)
            put(
                le(b * inverse(k.shuffle_key) % L),
                f"hand {h}: party {q}'s lock factor of {p}",
                until,
            )
            for r in t.bh.parties:
                if r == q or me in (q, r):
                    continue
                kind = "pad"
                for what in (SHARE, SHOW):
                    sealing = pad(
                        g, h, sender=q, receiver=r, position=p, what=what, shared=shared[(q, r)]
                    )
                    put(sealing, f"hand {h}: the {what} pad of position {p} from {q} to {r}", until)
    return out


def search(obs: Observed, tl: Timeline, truths: list[HandTruth], opens: KeyCache) -> Findings:
    """Everything above, for one process."""
    f = Findings(obs.who, observed=obs)
    wanted: dict[bytes, Secret] = {}
    for t in truths:
        for value, s in secrets_of(t, tl).items():
            old = wanted.get(value)
            if old is None or s.until > old.until:
                wanted[value] = s
    f.secrets_looked_for = len(wanted)
    first: dict[bytes, int] = {}
    for data, e in [*obs.leaves.items(), *obs.raw.items()]:
        if len(data) < 32:
            continue
        for i in range(len(data) - 31):
            w = data[i : i + 32]
            if w in wanted and e < first.get(w, NEVER):
                first[w] = e
    for value, e in obs.ints.items():
        if 0 < value < 1 << 256:
            w = value.to_bytes(32, "little")
            if w in wanted and e < first.get(w, NEVER):
                first[w] = e
    for value, e in sorted(first.items(), key=lambda x: x[1]):
        s = wanted[value]
        if e < s.until:
            f.leaks.append(f"{obs.who} held {s.what} at event {e}, {_before(s.until)}")
        else:
            f.found_in_time[s.kind] = f.found_in_time.get(s.kind, 0) + 1
    _search_keys(obs, tl, truths, opens, f)
    _search_cards(obs, tl, truths, f)
    return f


def _before(until: int) -> str:
    return "and it was never shown to it" if until >= NEVER else f"before event {until}"


def candidates(obs: Observed) -> dict[int, int]:
    """Every 32-byte string the process held, as a scalar, with the event it first had it."""
    out: dict[int, int] = {}

    def add(raw: bytes, e: int) -> None:
        k = int.from_bytes(raw, "little") % L
        if k and e < out.get(k, NEVER):
            out[k] = e

    for data, e in obs.leaves.items():
        if len(data) == 32:
            add(data, e)
        elif len(data) == 64:
            add(data[:32], e)
            add(data[32:], e)
        elif len(data) > 32:  # no structure found in it: every 32-byte piece
            for i in range(0, len(data) - 31, 32):
                add(data[i : i + 32], e)
    for value, e in obs.ints.items():
        k = value % L
        if k and e < out.get(k, NEVER):
            out[k] = e
    return out


class KeyCache:
    """Which (game, hand, position) a scalar ``k`` opens: ``k · M_c`` is the final deck's point
    at a position holding card ``c``.

    A final point is ``beta · M_c``, beta the product of every party's lock at that position
    (checked here, once per position, against the deck itself): since the group has prime order
    L, ``k`` opens it exactly when ``k = beta (mod L)``, a lookup. A position whose point is not
    ``beta · M_c`` (a deck the test itself broke) is searched the long way: ``k · M_c`` for the
    40 cards, against its point.
    """

    def __init__(self, truths: list[HandTruth]) -> None:
        self.by_beta: dict[int, list[tuple[bytes, int, int, int]]] = {}
        self.targets: dict[bytes, list[tuple[bytes, int, int, int]]] = {}
        for t in truths:
            for p, point in enumerate(t.final):
                c, beta = t.order[p], t.beta(p)
                where = (t.game_id, t.hand, p, c)
                if crypto_scalarmult_ed25519_noclamp(beta.to_bytes(32, "little"), CARD_POINTS[c]) \
                        == point:  # fmt: skip
                    self.by_beta.setdefault(beta, []).append(where)
                else:
                    self.targets.setdefault(point, []).append(where)
        self.opened: dict[int, list[tuple[bytes, int, int, int]]] = {}
        self.tried = 0

    def opens(self, k: int) -> list[tuple[bytes, int, int, int]]:
        got = self.opened.get(k)
        if got is None:
            self.tried += 1
            got = list(self.by_beta.get(k % L, ()))
            if self.targets:
                raw = k.to_bytes(32, "little")
                for code, card_point in enumerate(CARD_POINTS):
                    point = crypto_scalarmult_ed25519_noclamp(raw, card_point)
                    got.extend(w for w in self.targets.get(point, ()) if w[3] == code)
            self.opened[k] = got
        return got


def _search_keys(
    obs: Observed, tl: Timeline, truths: list[HandTruth], opens: KeyCache, f: Findings
) -> None:
    by_hand = {(t.game_id, t.hand): t for t in truths}
    cands = candidates(obs)
    f.candidates = len(cands)
    for k, e in cands.items():
        for g, h, p, c in opens.opens(k):
            t = by_hand[(g, h)]
            f.opened_by_candidates.add((g, h, p))
            if in_scope(t, tl, p) and e < tl.position(t, p):
                f.leaks.append(
                    f"{obs.who} held a key that opens position {p} of hand {h} (card {c}) at "
                    f"event {e}, {_before(tl.position(t, p))}"
                )


def _search_cards(obs: Observed, tl: Timeline, truths: list[HandTruth], f: Findings) -> None:
    """Card objects and position -> card mappings of positions not open to the process."""
    for t in truths:
        where = {c: p for p, c in enumerate(t.order)}
        closed = [p for p in range(t.bh.size) if in_scope(t, tl, p)]
        f.positions_checked += len(closed)
        for e, hand, codes in obs.cards:
            if hand != t.hand:
                continue
            for c in codes:
                p = where[c]
                if in_scope(t, tl, p) and e < tl.position(t, p):
                    f.leaks.append(f"{obs.who} held the card at position {p} of hand {t.hand} "
                                   f"at event {e}, {_before(tl.position(t, p))}")  # fmt: skip
        for e, hand, pairs in obs.maps:
            if hand not in (t.hand, ANY_HAND):
                continue
            for ordered in (pairs, tuple((v, k) for k, v in pairs)):
                agree = [(p, c) for p, c in ordered if p < len(t.order) and t.order[p] == c]
                early = [p for p, _ in agree if in_scope(t, tl, p) and e < tl.position(t, p)]
                if (
                    early
                    and 4 * len(agree) >= 3 * len(ordered)
                    and by_chance(agree, ordered) < 1e-7
                ):
                    f.leaks.append(
                        f"{obs.who} held a position -> card mapping {dict(ordered)} with the "
                        f"cards at {early} of hand {t.hand} at event {e}"
                    )


def by_chance(agree: list[tuple[int, int]], ordered: tuple[tuple[int, int], ...]) -> float:
    """How likely a mapping of this size agrees with a deck at least this much by chance: small
    mappings of seats, windows and positions are everywhere, and a few of them agree with any
    deck; a mapping is a leak only when its agreement could hardly be chance."""
    m, a = len(ordered), len(agree)
    out = float(math.comb(m, a))
    for i in range(a):
        out /= 40 - i
    return out


__all__ = [
    "Findings",
    "HandTruth",
    "KeyCache",
    "Observed",
    "host_timeline",
    "match_truth",
    "observed",
    "search",
    "seat_timeline",
]
