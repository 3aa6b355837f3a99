"""The verdicts in the player's words: a hand's check as the verification panel shows it, who is
at fault and a fault as a person reads it (the three cases of ``Fault.blame``, the verifier's one
rule, translated), a verdict word, and what the player's own record says."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from briscola_lan.fairness.verify import Blame, Fault
from briscola_lan.table import events as ev
from briscola_lan.tui.i18n import N_, _
from briscola_lan.tui.state import Verification

if TYPE_CHECKING:
    from briscola_lan.table.client import HandCheck


def verification(check: HandCheck | None, deal: str = "classic") -> Verification | None:
    """A hand's verdict as the verification panel shows it (None while it is in progress)."""
    if check is None or check.status == "in progress":
        return None  # a live finding is in the log meanwhile
    details = [_("Status: {status}").format(status=status_word(check.status))]
    if check.fault is not None:
        details.append(fault_text(check.fault))
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
    fault = check.fault
    if fault is not None:
        summary = _("{reason} (at fault: {who})").format(reason=fault.reason, who=who(fault))
    else:
        summary = status_word(check.status)
    if check.own_verdict is not None:
        summary = own_words(check.own_verdict)
        details.insert(1, summary)
    if check.status == "aborted":
        summary = _("hand aborted: {summary}").format(summary=summary)
    return Verification(False, summary, details, fault, live)


def live_words(reason: str) -> str:
    """A live finding (the host's, seen by this client only), apart from the file's verdict."""
    return _("Seen live only, not in the saved file: {reason} (at fault: the host)").format(
        reason=reason
    )


def who(fault: Fault, seat_name: Callable[[int], str] | None = None) -> str:
    """Who a fault names, in the player's words (``Fault.blame`` decides which of the three):
    "the host", the seat ("seat N", or as ``seat_name`` names it: "Bea", "You"), or "the host
    or the seat (cannot be told apart)"."""
    blame = fault.blame
    if blame is Blame.HOST:
        return _("the host")
    seat = seat_name(fault.seat) if seat_name is not None else _("seat {n}").format(n=fault.seat)
    if blame is Blame.HOST_OR_SEAT:
        return _("the host or {seat} (cannot be told apart)").format(seat=seat)
    return seat


def fault_text(fault: Fault, seat_name: Callable[[int], str] | None = None) -> str:
    """A fault as a person reads it: the record, the reason (as the verifier wrote it) and who
    is at fault (``Fault.describe`` in the player's words)."""
    if fault.index is not None:
        where = _("record {n} ({kind})").format(n=fault.index, kind=fault.kind)
    else:
        where = fault.kind
    return _("{where}: {reason}, at fault: {who}").format(
        where=where, reason=fault.reason, who=who(fault, seat_name)
    )


def status_word(status: str) -> str:
    """A verdict word (verified, failed, aborted...) in the player's language."""
    return {
        "verified": _("verified"),
        "failed": _("failed"),
        "aborted": _("aborted"),
        "incomplete": _("incomplete"),
        "unacknowledged": _("unacknowledged"),
        "in progress": _("in progress"),
    }.get(status, status)


# What a seat failed to do, by the statement an abort says it owed (``OwnRecord.owed``).
_OWED = {
    "seed-reveal": N_("reveal your seed"),
    "seed-commit": N_("commit"),
    "shuffle": N_("shuffle the deck"),
    "lock": N_("lock the deck"),
    "shares": N_("send your keys for the cards being dealt"),
    "show": N_("show your hand to your partner"),
    "blind-play": N_("play"),
    "key-reveal": N_("reveal your keys"),
}


def own_words(e: ev.OwnRecord) -> str:
    """What the player's own record says when the host's abort names its seat, in the
    player's language."""
    if e.word is ev.OwnWord.EVIDENCE:
        return _(
            "the host claims your seed reveal does not open your commitment, but the reveal it "
            "published as evidence opens it, so the host is at fault"
        )
    if e.word is ev.OwnWord.RECEIPT:
        return _(
            "the host claims you did not {what}; your {kind} was received at {when} (the "
            "host's signed receipt is in your record), so the host is at fault"
        ).format(what=_(_OWED.get(e.owed, N_("answer"))), kind=e.owed, when=e.when)
    if e.word is ev.OwnWord.OWED_NOTHING:
        return _("the host stopped the hand naming you, but you owed nothing: the host is at fault")
    return _(
        "the host says you did not answer in time; no receipt in your record proves otherwise, "
        "so your file says: the host or you, cannot be told apart"
    )
