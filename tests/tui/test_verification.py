"""How a hand's verification result reaches the screen: verified, failed with the party at fault."""

from __future__ import annotations

from briscola_lan.fairness.verify import HOST, Fault
from briscola_lan.rules import TableOptions
from briscola_lan.table.client import HandCheck
from briscola_lan.tui import render_table
from briscola_lan.tui.state import HandSummary, SeatInfo, TableModel, UiState
from briscola_lan.tui.verdicts import verification


def _screen(check: HandCheck) -> str:
    model = TableModel(options=TableOptions.make(players=2), started=True, hand_over=True)
    model.seats = [SeatInfo(0, "Tess"), SeatInfo(1, "Bea")]
    model.hand_results.append(HandSummary(0, (60, 60), None, verification=verification(check)))
    return "".join(f[1] for f in render_table.table_lines(model, UiState()))


def test_in_progress_has_no_verdict_yet() -> None:
    assert verification(HandCheck(0)) is None


def test_verified_hand() -> None:
    v = verification(HandCheck(0, "verified", None, True))
    assert v is not None and v.ok is True
    assert any("same history" in line for line in v.details)
    assert "Deal verified" in _screen(HandCheck(0, "verified", None, True))
    assert "Nobody wins the hand" in _screen(HandCheck(0, "verified"))


def test_failed_hand_names_the_host() -> None:
    fault = Fault(7, "play", HOST, "the opening of position 12 does not match")
    v = verification(HandCheck(0, "failed", fault, False))
    assert v is not None and v.ok is False and v.fault is not None and v.fault.seat == HOST
    assert "position 12" in v.summary and "at fault: the host" in v.summary
    assert any("acknowledgements differ" in line for line in v.details)
    assert "Deal check FAILED" in _screen(HandCheck(0, "failed", fault))


def test_aborted_hand_names_the_seat() -> None:
    fault = Fault(None, "reveal", 1, "seat 1 never revealed its seed")
    v = verification(HandCheck(0, "aborted", fault))
    assert v is not None and v.ok is False and v.fault is not None and v.fault.seat == 1
    assert v.summary.startswith("hand aborted:") and "at fault: seat 1" in v.summary


def test_a_live_finding_is_shown_apart_from_a_verified_file() -> None:
    live = Fault(7, "play", HOST, "the opening of position 12 does not match")
    check = HandCheck(0, "verified", None, True, live=live)
    v = verification(check)
    assert v is not None and v.ok is True and v.fault is None  # the file's verdict
    assert v.live is not None and "position 12" in v.live and "not in the saved file" in v.live
    assert v.live in v.details
    screen = _screen(check)
    assert "Deal verified" in screen and "FAILED" not in screen
    assert "Seen live only" in screen and "position 12" in screen
    assert "Seen live only" not in _screen(HandCheck(0, "verified", None, True))
