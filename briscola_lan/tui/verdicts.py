"""The verdicts of a network table in the player's words: a hand's check as the verification
panel shows it, who is at fault, a verdict word, and what the player's own record says."""

from __future__ import annotations

from briscola_lan.fairness.verify import HOST
from briscola_lan.table.client import HandCheck
from briscola_lan.tui import sessionlog
from briscola_lan.tui.i18n import _
from briscola_lan.tui.state import Verification


def verification(check: HandCheck | None, deal: str = "classic") -> Verification | None:
    """A hand's verdict as the verification panel shows it (None while it is in progress)."""
    if check is None or check.status == "in progress":
        return None  # a live finding is in the log meanwhile
    details = [_("Status: {status}").format(status=status_word(check.status))]
    fault_seat: int | None = None
    also_host = False
    if check.fault is not None:
        details.append(check.fault.describe())
        fault_seat, also_host = check.fault.seat, check.fault.also_host
    if check.acks_match is not None:
        details.append(
            _("Every seat acknowledged the same history.")
            if check.acks_match
            else _(
                "The seats' acknowledgements differ: the host may have shown different histories."
            )
        )
    if deal == "blind":
        details.append(
            _(
                "Blind deal: every seat shuffled and locked the deck; each card opened only for "
                "whom the rules showed it, every play proved its card, and at the end every pass, "
                "key and share was recomputed from the seats' revealed secrets, with the deal "
                "schedule, every play and the points."
            )
        )
    else:
        details.append(
            _(
                "Checked: the seed commitments and reveals, the shuffle, each card against its "
                "commitment when dealt, played and shown, the deal schedule, every play and the "
                "points."
            )
        )
    live = live_words(check.live.reason) if check.live is not None else None
    if live is not None:
        details.insert(1, live)
    if check.status == "verified":
        if deal == "blind":
            return Verification(True, _("every pass, key and card checks"), details, live=live)
        return Verification(True, _("all cards match the commitments"), details, live=live)
    who = party(fault_seat, also_host)
    reason = check.fault.reason if check.fault is not None else check.status
    if fault_seat is not None:
        summary = _("{reason} (at fault: {who})").format(reason=reason, who=who)
    else:
        summary = status_word(reason)
    if check.own_verdict is not None:
        summary = own_words(check.own_verdict)
        details.insert(1, summary)
    if check.status == "aborted":
        summary = _("hand aborted: {summary}").format(summary=summary)
    return Verification(False, summary, details, fault_seat, also_host, live)


def live_words(reason: str) -> str:
    """A live finding (the host's, seen by this client only), apart from the file's verdict."""
    return _("Seen live only, not in the saved file: {reason} (at fault: the host)").format(
        reason=reason
    )


def party(seat: int | None, also_host: bool) -> str:
    """Who is at fault, as the player reads it (protocol/fairness.md §8.7)."""
    if seat == HOST:
        return _("the host")
    if also_host:
        return _("the host or seat {n}, cannot be told apart").format(n=seat)
    return _("seat {n}").format(n=seat)


def status_word(status: str) -> str:
    """A verdict word (verified, failed, aborted...) in the player's language."""
    return {
        "verified": _("verified"),
        "failed": _("failed"),
        "aborted": _("aborted"),
        "in progress": _("in progress"),
    }.get(status, status)


def own_words(verdict: str) -> str:
    """What the player's own record says, in the player's language."""
    return sessionlog.render(verdict, str, str) or verdict
