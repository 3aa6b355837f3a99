"""Every message of the Briscola LAN protocol as a frozen, slotted dataclass (see protocol/SPEC.md).

Host-to-client facts are named in the past tense, client-to-host commands in the imperative.
Signed statements travel as exact bytes (``body``) with an Ed25519 signature (``sig``): their
layout is defined in protocol/fairness.md and parsed by ``briscola_lan.fairness.statements``.
"""

from __future__ import annotations

from dataclasses import dataclass

from briscola_lan import about
from briscola_lan.rules.options import TableOptions

PROTOCOL_VERSION = about.PROTOCOL_VERSION  # a hello carries it

# A signed statement as it travels: (statement bytes, 64-byte Ed25519 signature).
Record = tuple[bytes, bytes]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """Public facts about one seat, as every connection sees them."""

    seat: int
    occupied: bool
    name: str
    public_key: bytes
    ai: str | None  # AI level name when a bot plays the seat
    connected: bool
    ready: bool


# --- client -> host: commands ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Hello:
    """Answer to Challenge: protocol version, name, identity key, resume token, and the proof.

    ``proof`` is the identity key's Ed25519 signature over ``fairness.statements.hello_proof``
    (this connection's nonce, the host key, the TLS certificate, the key); it is optional on the
    wire only so that an older client's hello still decodes and gets ``bad_version``.
    """

    version: int
    name: str
    public_key: bytes
    resume_token: str | None = None
    proof: bytes | None = None


@dataclass(frozen=True, slots=True)
class TakeSeat:
    seat: int


@dataclass(frozen=True, slots=True)
class LeaveSeat:
    pass


@dataclass(frozen=True, slots=True)
class SetReady:
    ready: bool = True


@dataclass(frozen=True, slots=True)
class SetAiSeat:
    """Seat-0 owner only: put a bot of ``level`` in an empty seat, or free it (``level`` None)."""

    seat: int
    level: str | None


@dataclass(frozen=True, slots=True)
class StartMatch:
    """Seat-0 owner only: start once every seat is filled and every human is ready."""


@dataclass(frozen=True, slots=True)
class CommitSeed:
    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class RevealSeed:
    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class PlayCard:
    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class MakeBid:
    """Five players: a seat's signed ``bid`` (a rank, points, or a pass; fairness.md §13)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class CallCard:
    """Five players: the auction's winner's signed ``call`` (the suit of the called card)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class SendSignal:
    """A seat's signed ``signal`` to its partner (fairness.md §12), sealed for the partner."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class AckHand:
    """The seat's signature over its transcript chain hash at the end of a hand."""

    body: bytes
    sig: bytes


# Blind deal (protocol/fairness.md §11): each carries one signed statement of the seat (or, for
# the host's own party, of the host) as its exact bytes.


@dataclass(frozen=True, slots=True)
class JoinHand:
    """Blind deal: the seat answers the hand's call (a ``present`` statement)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class ShuffleDeck:
    """Blind deal: the seat's shuffle pass (a ``shuffle`` statement)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class LockDeck:
    """Blind deal: the seat's lock pass (a ``lock`` statement)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class SendShares:
    """Blind deal: the seat's keys for one deal window, sealed for their receivers."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class ShowHand:
    """Blind deal, 4 players: the seat's whole hand, sealed for its partner (a ``show``)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class Complain:
    """Blind deal: a card dealt or shown to the seat does not open (a ``complaint``)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class RevealKeys:
    """Blind deal: the seat's hand secret, at the end of the hand or in a dispute."""

    body: bytes
    sig: bytes


# --- host -> client: facts ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Challenge:
    """First message on every connection: a fresh nonce the client's hello proof must sign."""

    nonce: bytes  # 32 random bytes, new for every connection
    host_key: bytes  # the host's Ed25519 identity key, also signed by the proof


@dataclass(frozen=True, slots=True)
class Welcome:
    """Answer to Hello: the table, its seats, the host key, this connection's seat if resumed."""

    version: int
    table_name: str
    options: TableOptions
    host_key: bytes
    seats: tuple[SeatInfo, ...]
    seat: int | None
    resume_token: str | None
    draw_partners: bool = False  # 4 players: partnerships are drawn before the first hand
    draw_dealer: bool = False  # the first dealer is drawn before the first hand
    deal: str = "classic"  # "blind" or "classic" (protocol/fairness.md §11)
    hints: bool = False  # the host allows players to ask their client's AI for hints


@dataclass(frozen=True, slots=True)
class Error:
    """A refused command: a machine ``code`` (see SPEC) and a text a person can act on."""

    code: str
    text: str


@dataclass(frozen=True, slots=True)
class SeatsChanged:
    """The seat list after a lobby change, with one human-readable line saying what happened."""

    seats: tuple[SeatInfo, ...]
    event: str


@dataclass(frozen=True, slots=True)
class SeatAssigned:
    """Private: this connection now holds ``seat`` (None: no seat) and its resume token."""

    seat: int | None
    resume_token: str | None


@dataclass(frozen=True, slots=True)
class DrawStarted:
    """The host-signed draw-start: lobby seats and the host's commitment to its draw seed."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class DrawRevealed:
    """The host-signed draw result: its draw seed, each lobby seat's card, new seats, dealer."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class MatchStarted:
    """The host-signed match-start statement: game id, options, keys, first dealer."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class HandStarted:
    """The host-signed commitment to its seed for a new hand (host-commit statement)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class SeedsCommitted:
    """Every seat's signed seed commitment, in seat order, before anyone reveals."""

    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True)
class SeedsRevealed:
    """Every seat's signed seed reveal, in seat order."""

    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True)
class DeckCommitted:
    """The host-signed salted commitments to every deck position."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class CardsDealt:
    """Private: the host-signed openings of the cards this seat just received."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class UpcardTurned:
    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class BidMade:
    """Five players: a seat's signed ``bid``, relayed to everyone."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class CardCalled:
    """Five players: the caller's signed ``call``, relayed to everyone."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class CardPlayed:
    """A seat's signed play, relayed, with the opening (position, salt) of the card: the message
    of the engine's ``rules.events.CardPlayed``."""

    body: bytes
    sig: bytes
    position: int
    salt: bytes


@dataclass(frozen=True, slots=True)
class SignalMade:
    """A seat's signed ``signal``, relayed to everyone (only its partner can read it)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class OptionsSet:
    """The host's signed ``match-options``, right after ``MatchStarted`` when a table option
    differs from its default (fairness.md §12.1)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class TrickTaken:
    """A trick's winner and points, as the host announces them; a client compares them with the
    ``rules.events.TrickTaken`` it makes from the plays."""

    winner: int
    points: int


@dataclass(frozen=True, slots=True)
class PartnerShown:
    """Private, 4 players: host-signed openings of the partner's cards at the end of the stock."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class SeatTakenOver:
    """Host-signed: an AI now plays a dropped seat, or the seat was handed back to its player."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class HandEnded:
    """The host-signed reveal of its seed and every salt, with the points per side."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class HandAcked:
    """Every seat's signed acknowledgement of the transcript hash, in seat order."""

    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True)
class HandAborted:
    """Host-signed: the hand was aborted and ``seat`` (or the host) is at fault."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class ReceiptIssued:
    """To one seat: the host-signed receipt for a statement the seat sent (its evidence)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class EvidenceShown:
    """Host-signed, just before an abort that names a seat: that seat's own bad statement."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class MatchDecided:
    """Host-signed match-end, right after the deciding hand's reveal (its acks cover it)."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class MatchEnded:
    """The match is over: the winning side (None when aborted), hands won and total points."""

    winner: int | None
    hands_won: tuple[int, ...]
    points: tuple[int, ...]
    aborted: bool


@dataclass(frozen=True, slots=True)
class PlayerConnection:
    """A seated player's connection dropped or came back."""

    seat: int
    connected: bool


@dataclass(frozen=True, slots=True)
class Notice:
    """Something the players should know that changes nothing at the table (``NoticeCode``)."""

    code: str
    text: str


@dataclass(frozen=True, slots=True)
class ReplayDone:
    """The replay after ``Welcome`` is over: every later message is live (SPEC: replay_done)."""


@dataclass(frozen=True, slots=True)
class DeckShuffled:
    """Blind deal: a party's signed shuffle pass, relayed to everyone."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class DeckLocked:
    """Blind deal: a party's signed lock pass, relayed to everyone."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class HandJoined:
    """Blind deal: the answers to the hand's call, in seat order (its parties follow from them)."""

    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True)
class SharesSent:
    """Blind deal: every party's signed shares for one deal window, in party order."""

    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True)
class HandsShown:
    """Blind deal, 4 players: every seat's signed show for its partner, in seat order."""

    records: tuple[Record, ...]


@dataclass(frozen=True, slots=True)
class ComplaintMade:
    """Blind deal: a party's signed complaint; every party now reveals its keys."""

    body: bytes
    sig: bytes


@dataclass(frozen=True, slots=True)
class KeysRevealed:
    """Blind deal: the parties' signed key reveals, in party order."""

    records: tuple[Record, ...]


# --- either direction: heartbeats (transport.md section 5; never recorded, never signed) ------


@dataclass(frozen=True, slots=True)
class Ping:
    """Are you there? The peer answers at once with ``Pong`` carrying the same ``nonce``."""

    nonce: int


@dataclass(frozen=True, slots=True)
class Pong:
    """The answer to ``Ping``: its ``nonce`` echoed."""

    nonce: int


Message = (
    Hello
    | TakeSeat
    | LeaveSeat
    | SetReady
    | SetAiSeat
    | StartMatch
    | CommitSeed
    | RevealSeed
    | PlayCard
    | MakeBid
    | CallCard
    | SendSignal
    | AckHand
    | Challenge
    | Welcome
    | Error
    | SeatsChanged
    | SeatAssigned
    | DrawStarted
    | DrawRevealed
    | MatchStarted
    | HandStarted
    | SeedsCommitted
    | SeedsRevealed
    | DeckCommitted
    | CardsDealt
    | UpcardTurned
    | BidMade
    | CardCalled
    | CardPlayed
    | SignalMade
    | OptionsSet
    | TrickTaken
    | PartnerShown
    | SeatTakenOver
    | HandEnded
    | HandAcked
    | HandAborted
    | ReceiptIssued
    | EvidenceShown
    | MatchDecided
    | MatchEnded
    | PlayerConnection
    | Notice
    | ReplayDone
    | JoinHand
    | ShuffleDeck
    | LockDeck
    | SendShares
    | ShowHand
    | Complain
    | RevealKeys
    | HandJoined
    | DeckShuffled
    | DeckLocked
    | SharesSent
    | HandsShown
    | ComplaintMade
    | KeysRevealed
    | Ping
    | Pong
)

# Wire name of each message type, in the order of the SPEC index. Names never change meaning.
MESSAGE_TYPES: dict[str, type[Message]] = {
    "hello": Hello,
    "take_seat": TakeSeat,
    "leave_seat": LeaveSeat,
    "set_ready": SetReady,
    "set_ai_seat": SetAiSeat,
    "start_match": StartMatch,
    "commit_seed": CommitSeed,
    "reveal_seed": RevealSeed,
    "play_card": PlayCard,
    "make_bid": MakeBid,
    "call_card": CallCard,
    "send_signal": SendSignal,
    "ack_hand": AckHand,
    "challenge": Challenge,
    "welcome": Welcome,
    "error": Error,
    "seats_changed": SeatsChanged,
    "seat_assigned": SeatAssigned,
    "draw_started": DrawStarted,
    "draw_revealed": DrawRevealed,
    "match_started": MatchStarted,
    "options_set": OptionsSet,
    "hand_started": HandStarted,
    "seeds_committed": SeedsCommitted,
    "seeds_revealed": SeedsRevealed,
    "deck_committed": DeckCommitted,
    "cards_dealt": CardsDealt,
    "upcard_turned": UpcardTurned,
    "bid_made": BidMade,
    "card_called": CardCalled,
    "card_played": CardPlayed,
    "signal_made": SignalMade,
    "trick_taken": TrickTaken,
    "partner_shown": PartnerShown,
    "seat_taken_over": SeatTakenOver,
    "hand_ended": HandEnded,
    "hand_acked": HandAcked,
    "hand_aborted": HandAborted,
    "receipt_issued": ReceiptIssued,
    "evidence_shown": EvidenceShown,
    "match_decided": MatchDecided,
    "match_ended": MatchEnded,
    "player_connection": PlayerConnection,
    "notice": Notice,
    "replay_done": ReplayDone,
    "join_hand": JoinHand,
    "shuffle_deck": ShuffleDeck,
    "lock_deck": LockDeck,
    "send_shares": SendShares,
    "show_hand": ShowHand,
    "complain": Complain,
    "reveal_keys": RevealKeys,
    "hand_joined": HandJoined,
    "deck_shuffled": DeckShuffled,
    "deck_locked": DeckLocked,
    "shares_sent": SharesSent,
    "hands_shown": HandsShown,
    "complaint_made": ComplaintMade,
    "keys_revealed": KeysRevealed,
    "ping": Ping,
    "pong": Pong,
}
TYPE_NAMES: dict[type[Message], str] = {cls: name for name, cls in MESSAGE_TYPES.items()}

CLIENT_MESSAGES: frozenset[type[Message]] = frozenset(
    {
        Hello,
        TakeSeat,
        LeaveSeat,
        SetReady,
        SetAiSeat,
        StartMatch,
        CommitSeed,
        RevealSeed,
        PlayCard,
        MakeBid,
        CallCard,
        SendSignal,
        AckHand,
        JoinHand,
        ShuffleDeck,
        LockDeck,
        SendShares,
        ShowHand,
        Complain,
        RevealKeys,
    }
)

# Connection-level messages, valid in both directions: the network layer answers and consumes
# them, so the table coordinators never see them and they never enter a transcript.
HEARTBEAT_MESSAGES: frozenset[type[Message]] = frozenset({Ping, Pong})


class ErrorCode:
    """Machine codes carried by ``Error`` (the SPEC lists what each means)."""

    BAD_MESSAGE = "bad_message"
    BAD_VERSION = "bad_version"
    HELLO_FIRST = "hello_first"
    BAD_TOKEN = "bad_token"
    NO_SUCH_SEAT = "no_such_seat"
    SEAT_TAKEN = "seat_taken"
    NOT_SEATED = "not_seated"
    NOT_ALLOWED = "not_allowed"
    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL_PLAY = "illegal_play"
    BAD_STATEMENT = "bad_statement"
    BAD_SIGNATURE = "bad_signature"
    NOT_READY = "not_ready"
    UNKNOWN_LEVEL = "unknown_level"
    BAD_KEY = "bad_key"
    BAD_PROOF = "bad_proof"
    STALE_CONTEXT = "stale_context"


class NoticeCode:
    """Machine codes carried by ``Notice`` (the SPEC lists them; a client shows unknown ones)."""

    NOT_SAVING = "not_saving"  # the host cannot save the game (a full disk...): play goes on
    SAVING = "saving"  # the host saves the game again
