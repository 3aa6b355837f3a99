"""Who is at fault, in one wording: the verifier's rule (``Fault.blame``) and its English words
(``Fault.party``, ``Fault.who``, ``Fault.describe``), and the terminal client's translation of the
same three cases, with the seat named as the player reads it."""

from __future__ import annotations

import pytest

from briscola_lan.fairness.verify import HOST, Blame, Fault
from briscola_lan.tui import i18n
from briscola_lan.tui.verdicts import fault_text, who

HOST_FAULT = Fault(7, "play", HOST, "a card played out of turn")
SEAT_FAULT = Fault(3, "seed-reveal", 1, "revealed seed does not match the seat's commitment")
EITHER = Fault(9, "abort", 2, "did not reveal its seed in time", also_host=True)
# also_host has no meaning for the host itself: the host is at fault
HOST_ALSO = Fault(9, "abort", HOST, "the host aborted", also_host=True)


def test_the_rule_and_its_english_words() -> None:
    assert [f.blame for f in (HOST_FAULT, SEAT_FAULT, EITHER, HOST_ALSO)] == [
        Blame.HOST,
        Blame.SEAT,
        Blame.HOST_OR_SEAT,
        Blame.HOST,
    ]
    assert [f.party for f in (HOST_FAULT, SEAT_FAULT, EITHER, HOST_ALSO)] == [
        "host",
        "seat 1",
        "host or seat 2",
        "host",
    ]
    assert [f.who for f in (HOST_FAULT, SEAT_FAULT, EITHER)] == [
        "the host",
        "seat 1",
        "the host or seat 2",
    ]
    assert EITHER.describe() == (
        "record 9 (abort): did not reveal its seed in time — at fault: the host or seat 2 "
        "(cannot be told apart)"
    )
    assert HOST_ALSO.describe().endswith("at fault: the host")


def test_the_client_says_the_same_three_cases_with_names() -> None:
    assert who(HOST_FAULT) == "the host"
    assert who(SEAT_FAULT) == "seat 1"
    assert who(EITHER) == "the host or seat 2 (cannot be told apart)"
    assert who(HOST_ALSO, lambda s: f"P{s}") == "the host"
    names = {1: "Bea", 2: "You"}.__getitem__
    assert who(SEAT_FAULT, names) == "Bea"
    assert who(EITHER, names) == "the host or You (cannot be told apart)"
    assert fault_text(SEAT_FAULT) == (
        "record 3 (seed-reveal): revealed seed does not match the seat's commitment, at fault: "
        "seat 1"
    )


@pytest.fixture
def italian() -> object:
    i18n.set_language("it")
    yield
    i18n.set_language("en")


def test_the_same_three_cases_in_italian(italian: object) -> None:
    assert who(HOST_FAULT) == "l'host"
    assert who(SEAT_FAULT) == "posto 1"
    assert who(EITHER) == "l'host o posto 2 (indistinguibili)"
    assert "colpa" in fault_text(EITHER) and "posto 2" in fault_text(EITHER)
