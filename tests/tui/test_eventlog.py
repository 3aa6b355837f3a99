"""The client session's events in the log: every kind has a line in English and in Italian made
from its fields (names, cards in the player's deck), the line client's English ``str`` works for
each, and an event this client does not know or cannot read gets a line that says so."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Iterator

import pytest

from briscola_lan.fairness.encoding import HOST_PARTY
from briscola_lan.fairness.verify import HOST, Fault
from briscola_lan.rules import Bid, Card, Rank, Suit, TrickTaken
from briscola_lan.rules.signals import SignalValue
from briscola_lan.table import client as client_module
from briscola_lan.table import events as ev
from briscola_lan.tui import eventlog, i18n
from briscola_lan.wire import messages as m

ACE, FOUR = Card.parse("Ah"), Card.parse("4h")
KING = Bid.of_rank(Rank.KING)
FAULT = Fault(7, "play", 2, "the card does not open its commitment")
TRICK = TrickTaken(1, ((0, ACE), (1, FOUR)), 11)
NEWS = tuple(
    ev.SeatNews(change, 1, "AI rules 1", other=3, level="strong") for change in ev.SeatChange
)

# One event of every kind (several where the kind has several lines).
SAMPLES: dict[type[ev.Event], list[ev.Event]] = {
    ev.Joined: [ev.Joined("Casa", "2p hands:2")],
    ev.ChallengeMalformed: [ev.ChallengeMalformed("nonce must be 32 bytes")],
    ev.ConnectionLost: [ev.ConnectionLost()],
    ev.Ignored: [ev.Ignored("Frobnicate")],
    ev.HostRefused: [ev.HostRefused("seat_taken", "seat 1 is taken")],
    ev.HostNotice: [ev.HostNotice("the table closes at midnight")],
    ev.SeatsChanged: [ev.SeatsChanged((n,), "x") for n in NEWS] + [ev.SeatsChanged((), "hi")],
    ev.PlayerConnection: [ev.PlayerConnection(1, True), ev.PlayerConnection(1, False)],
    ev.DrawStarted: [ev.DrawStarted(p, d) for p, d in ((True, True), (True, False), (False, True))],
    ev.DrawRevealed: [
        ev.DrawRevealed("verified", (("Ann", ACE), ("AI rules 1", FOUR)), ("", "rules"))
    ],
    ev.DrawAborted: [ev.DrawAborted("seat 1 did not reveal")],
    ev.MatchStarted: [ev.MatchStarted(("Ann", "AI rules 1"), ("", "rules"))],
    ev.SignalsAllowed: [ev.SignalsAllowed()],
    ev.SignalMade: [ev.SignalMade(2, SignalValue(1), False)],
    ev.MatchEnded: [ev.MatchEnded(1, False), ev.MatchEnded(None, True)],
    ev.HandStarted: [ev.HandStarted(0, 1, False), ev.HandStarted(1, 0, True)],
    ev.LeftOut: [ev.LeftOut(True), ev.LeftOut(False)],
    ev.SittingOut: [ev.SittingOut()],
    ev.CardsReceived: [ev.CardsReceived(0, (ACE, FOUR), False)],
    ev.CardPlayed: [ev.CardPlayed(0, 1, ACE, False)],
    ev.TrickTaken: [ev.TrickTaken(0, TRICK)],
    ev.BidMade: [ev.BidMade(0, s, b, s == 0) for s in (0, 2) for b in (None, KING)],
    ev.CardCalled: [
        ev.CardCalled(0, s, ACE, s == 0, holds) for s in (0, 2) for holds in (False, True)
    ],
    ev.Complained: [ev.Complained(2), ev.Complained(HOST_PARTY)],
    ev.KeysOverdue: [ev.KeysOverdue((FAULT, Fault(None, "key-reveal", HOST, "late")))],
    ev.HandEnded: [ev.HandEnded(0, (70, 50)), ev.HandEnded(0, (0,) * 5, passed_out=True)],
    ev.HandAborted: [ev.HandAborted(0, "seat 2 did not play in time")],
    ev.DealtAgain: [ev.DealtAgain()],
    ev.Benched: [ev.Benched()],
    ev.TakenOver: [ev.TakenOver(1, ai, mine) for ai in (True, False) for mine in (True, False)],
    ev.AckNotRelayed: [ev.AckNotRelayed()],
    ev.FaultFound: [ev.FaultFound(FAULT, True), ev.FaultFound(FAULT, False)],
    ev.LiveFault: [ev.LiveFault(FAULT)],
    ev.OwnRecord: [ev.OwnRecord(word, "shuffle", 1_700_000_000) for word in ev.OwnWord],
}
SILENT = {ev.CardsReceived, ev.CardPlayed}  # the table shows them: no line


def _kinds() -> Iterator[type[ev.Event]]:
    for _name, cls in inspect.getmembers(ev, inspect.isclass):
        if issubclass(cls, ev.Event) and cls is not ev.Event:
            yield cls


class Names:
    """A table with names: Ann in seat 0 (me), Bea in seat 1, Cid in seat 2."""

    names = ("Ann", "Bea", "Cid", "Dan")

    def seat(self, seat: int) -> str:
        return f"{self.names[seat]} (#{seat})"

    def player(self, seat: int) -> str:
        return "You" if seat == 0 else self.names[seat]

    def side(self, side: int) -> str:
        return f"team {self.names[side]}"

    def rules(self, summary: str) -> str:
        return f"<{summary}>"

    def card(self, card: Card) -> str:
        return f"[{card.code}]"

    def bid(self, bid: Bid) -> str:
        return f"<{bid}>"

    def suit(self, suit: Suit) -> str:
        return f"~{suit.name}"

    def is_me(self, seat: int) -> bool:
        return seat == 0


@pytest.fixture(params=["en", "it"])
def lang(request: pytest.FixtureRequest) -> Iterator[str]:
    i18n.set_language(request.param)
    yield request.param
    i18n.set_language("en")


def test_every_kind_of_event_has_a_sample_and_a_renderer() -> None:
    kinds = set(_kinds())
    assert kinds == set(SAMPLES), kinds ^ set(SAMPLES)
    assert kinds == set(eventlog.RENDERERS), kinds ^ set(eventlog.RENDERERS)
    for kind in kinds:
        assert dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]


def test_each_event_is_a_line_in_each_language(lang: str) -> None:
    seen: dict[str, str] = {}
    for kind, samples in SAMPLES.items():
        for event in samples:
            said = eventlog.render(event, Names())
            if kind in SILENT:
                assert said is None
                continue
            assert said and "{" not in said, (event, said)
            assert not said.startswith(("(something happened", "(è successo")), (event, said)
            english = str(event)  # the line client's line, English in every language
            assert english or kind is ev.TrickTaken, event
            if lang == "it" and kind not in (ev.HostRefused, ev.HostNotice, ev.Ignored):
                assert said != english, f"not translated: {said!r}"
            assert said not in seen.values() or kind is ev.SeatsChanged, (event, said)
            seen[repr(event)] = said


def test_names_and_cards_come_from_the_table(lang: str) -> None:
    names = Names()
    trick = eventlog.render(ev.TrickTaken(0, TRICK), names)
    assert trick is not None and "Bea" in trick and f"[{ACE.code}] [{FOUR.code}]" in trick
    mine = eventlog.render(ev.TrickTaken(0, dataclasses.replace(TRICK, winner=0)), names)
    assert mine is not None and "Ann" not in mine and "Bea" not in mine
    started = eventlog.render(ev.HandStarted(1, 2, False), names)
    assert started is not None and "Cid (#2)" in started and "2" in started
    won = eventlog.render(ev.MatchEnded(1, False), names)
    assert won is not None and "team Bea" in won
    joined = eventlog.render(ev.Joined("Casa", "2p"), names)
    assert joined is not None and "<2p>" in joined and "Casa" in joined
    drawn = eventlog.render(
        ev.DrawRevealed("verified", (("Ann", FOUR), ("AI rules 1", ACE)), ("", "rules")), names
    )
    assert drawn is not None and f"[{ACE.code}]" in drawn
    assert ("IA regole 1" if lang == "it" else "AI rules 1") in drawn
    late = eventlog.render(ev.KeysOverdue((FAULT,)), names)
    assert late is not None and "Cid (#2)" in late


def test_an_unknown_or_unreadable_event_gets_a_line_that_says_so(lang: str) -> None:
    @dataclasses.dataclass(frozen=True)
    class Comet(ev.Event):
        size: int = 3

    unknown = eventlog.render(Comet())
    assert unknown is not None and "Comet" in unknown
    assert eventlog.render(object()) is not None
    bad: list[object] = [
        ev.SeatsChanged((ev.SeatNews("exploded", 1),), "x"),  # type: ignore[arg-type]
        ev.HandEnded(0, ("lots",)),  # type: ignore[arg-type]
        ev.FaultFound(None, False),  # type: ignore[arg-type]
        ev.DrawRevealed("verified", ((None, None),)),  # type: ignore[arg-type]
    ]
    for event in bad:
        said = eventlog.render(event, Names())
        assert said is not None and type(event).__name__ in said, said
        assert said != unknown


def test_a_receipt_time_no_calendar_holds_is_shown_as_signed(lang: str) -> None:
    """A host can sign any number as a receipt's time: the line shows it, nothing raises."""
    for time in (2**63 - 1, -(2**63), 10**30):
        record = ev.OwnRecord(ev.OwnWord.RECEIPT, "shuffle", time)
        assert f"{time} s" in str(record)
        said = eventlog.render(record)
        assert said is not None and f"{time} s" in said
    ok = ev.OwnRecord(ev.OwnWord.RECEIPT, "shuffle", 0)
    assert "00:00:00 UTC" in str(ok)


def test_seat_news_reads_the_seat_lists() -> None:
    def seat(n: int, name: str = "", *, ai: str | None = None, up: bool = True) -> m.SeatInfo:
        key = name.encode().ljust(32, b"\0") if name else b""
        return m.SeatInfo(n, bool(name), name, key, ai, up, False)

    empty = (seat(0), seat(1))
    ann = (seat(0, "Ann"), seat(1))
    assert ev.seat_news(empty, ann) == (ev.SeatNews(ev.SeatChange.TAKEN, 0, "Ann"),)
    moved = (seat(0), seat(1, "Ann"))
    assert ev.seat_news(ann, moved) == (ev.SeatNews(ev.SeatChange.MOVED, 1, "Ann", 0),)
    away = (seat(0, "Ann", up=False), seat(1))
    assert ev.seat_news(ann, away) == (ev.SeatNews(ev.SeatChange.AWAY, 0, "Ann"),)
    assert ev.seat_news(away, empty) == (ev.SeatNews(ev.SeatChange.FREED, 0, "Ann"),)
    assert ev.seat_news(ann, empty) == (ev.SeatNews(ev.SeatChange.LEFT, 0, "Ann"),)
    ai = (seat(0, "Ann"), seat(1, "AI rules 1", ai="rules"))
    assert ev.seat_news(ann, ai) == (
        ev.SeatNews(ev.SeatChange.AI_SEATED, 1, "AI rules 1", level="rules"),
    )
    assert ev.seat_news(ai, ann) == (
        ev.SeatNews(ev.SeatChange.AI_REMOVED, 1, "AI rules 1", level="rules"),
    )
    swapped = (seat(0, "AI rules 1", ai="rules"), seat(1, "Ann"))
    assert ev.seat_news(ai, swapped) == (ev.SeatNews(ev.SeatChange.RESEATED, -1),)
    # a host's seat list of other seat numbers, or of another length: no crash, no invention
    odd = (seat(0, "Ann"), seat(7, "Bea"))
    assert ev.seat_news(ai, odd) == ()
    assert ev.seat_news(ai, (seat(0, "Ann"),)) == ()


def test_every_message_from_the_host_has_a_handler() -> None:
    """The session finds its handlers in one table: every host message is in it (a message of
    another type is said to be ignored)."""
    first = inspect.getsourcelines(m.Challenge)[1]
    last = inspect.getsourcelines(m.Ping)[1]
    facts = {
        cls for cls in m.MESSAGE_TYPES.values() if first <= inspect.getsourcelines(cls)[1] < last
    }
    assert len(facts) > 30
    assert facts == set(client_module._HANDLERS), facts ^ set(client_module._HANDLERS)
