"""The client session's log lines (``table.client`` writes them in English, and the host's
seat events arrive in English too) in the player's language, with names for seat numbers; and
why discovery is off (``net.discovery`` says it in English) for the lobby.

Each English form has a pattern here and a translated template; ``tests/tui/test_i18n.py``
checks that every line ``table/client.py`` and ``table/host.py`` can write has a pattern. A line
no pattern knows (a newer host's) is shown as it came.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from briscola_lan.tui.i18n import N_, _
from briscola_lan.tui.state import level_word, player_name

Who = Callable[[int], str]  # a seat number as a person reads it: "Ann (seat 0)", "You"

# (pattern, template): the template's fields are the pattern's named groups, translated or
# named by ``_field`` ("seat" and "winner" become names; "status" a translated word).
PATTERNS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), t)
    for p, t in (
        (
            r"joined table (?P<q>['\"])(?P<table>.*)(?P=q) \((?P<rules>.*)\)",
            N_("joined table '{table}' ({rules})"),
        ),
        (r"(?P<name>.+) took seat (?P<n>\d+)", N_("{name} took seat {n}")),
        (r"(?P<name>.+) is not ready", N_("{name} is not ready")),
        (r"(?P<name>.+) is ready", N_("{name} is ready")),
        (r"(?P<name>.+) is back", N_("{name} is back")),
        (
            r"(?P<name>.+) left the table \(seat (?P<n>\d+) kept for (?P<s>\S+) s\)",
            N_("{name} left the table (seat {n} kept for {s} s)"),
        ),
        (r"(?P<name>.+) left seat (?P<n>\d+)", N_("{name} left seat {n}")),
        (r"AI removed from seat (?P<n>\d+)", N_("AI removed from seat {n}")),
        (r"AI \((?P<level>.+)\) sits in seat (?P<n>\d+)", N_("AI ({level}) sits in seat {n}")),
        (
            r"players moved to the seats the draw gave them",
            N_("players moved to the seats the draw gave them"),
        ),
        (
            r"(?P<name>.+) did not come back: seat (?P<n>\d+) is free",
            N_("{name} did not come back: seat {n} is free"),
        ),
        (r"the match started: (?P<names>.*)", N_("the match started: {names}")),
        (
            r"partners may signal to each other at this table",
            N_("partners may signal to each other at this table"),
        ),
        (r"seat (?P<seat>\d+) signalled", N_("{seat} signalled")),
        (
            r"hand (?P<n>\d+) started, seat (?P<seat>\d+) deals",
            N_("hand {n} started, {seat} deals"),
        ),
        (
            r"hand (?P<n>\d+) started \(blind deal\), seat (?P<seat>\d+) deals",
            N_("hand {n} started (blind deal), {seat} deals"),
        ),
        (
            r"the host plays your seat this hand: you were not at the table when it began \(or "
            r"your answer to its call came too late\)",
            N_(
                "the host plays your seat this hand: you were not at the table when it began "
                "(or your answer to its call came too late)"
            ),
        ),
        (
            r"the host left you out of this hand and plays your seat, although it received your "
            r"answer to its call \(its receipt is in your record\): the host is at fault",
            N_(
                "the host left you out of this hand and plays your seat, although it received "
                "your answer to its call (its receipt is in your record): the host is at fault"
            ),
        ),
        (
            r"your client found the host at fault earlier in this match and takes no part in its "
            r"later hands: the host plays your seat \(leave the table to stop\)",
            N_(
                "your client found the host at fault earlier in this match and takes no part in "
                "its later hands: the host plays your seat (leave the table to stop)"
            ),
        ),
        (
            r"key reveals did not come in time: (?P<who>.+); the hand's result stands on its "
            r"proved plays",
            N_(
                "key reveals did not come in time: {who}; the hand's result stands on its "
                "proved plays"
            ),
        ),
        (
            r"seat (?P<seat>\d+) says a card does not open: every party reveals its keys",
            N_("{seat} says a card does not open: every party reveals its keys"),
        ),
        (
            r"the host says a card does not open: every party reveals its keys",
            N_("the host says a card does not open: every party reveals its keys"),
        ),
        (r"hand (?P<n>\d+) ended: points \[(?P<p>.*)\]", N_("hand {n} ended: points [{p}]")),
        (r"side (?P<winner>\d+) won the match", N_("{winner} won the match")),
        (r"the match was aborted", N_("the match was aborted")),
        (r"hand aborted: (?P<reason>.*)", N_("hand aborted: {reason}")),
        (
            r"the hand counts for nothing: the same dealer deals again",
            N_("the hand counts for nothing: the same dealer deals again"),
        ),
        (
            r"two aborted hands named your seat: the host plays it to the end of the match",
            N_("two aborted hands named your seat: the host plays it to the end of the match"),
        ),
        (r"draw aborted: (?P<reason>.*)", N_("draw aborted: {reason}")),
        (r"drawing cards for (?P<what>.*)", N_("drawing cards for {what}")),
        (r"draw verification failed: (?P<what>.*)", N_("draw verification failed: {what}")),
        (r"draw (?P<status>\w[\w ]*): (?P<drawn>.*)", N_("draw {status}: {drawn}")),
        (r"verification failed: (?P<what>.*)", N_("verification failed: {what}")),
        (
            r"live check failed \(the saved file cannot show it\): (?P<what>.*)",
            N_("live check failed (the saved file cannot show it): {what}"),
        ),
        (r"error \((?P<code>[\w-]+)\): (?P<text>.*)", N_("error ({code}): {text}")),
        (r"host: (?P<text>.*)", N_("host: {text}")),
        (r"seat (?P<seat>\d+) reconnected", N_("{seat} reconnected")),
        (r"seat (?P<seat>\d+) lost its connection", N_("{seat} lost its connection")),
        (
            r"an AI plays your seat until you are back",
            N_("an AI plays your seat until you are back"),
        ),
        (r"you play your seat again", N_("you play your seat again")),
        (r"an AI now plays seat (?P<seat>\d+)", N_("an AI now plays for {seat}")),
        (r"its player is back in seat (?P<seat>\d+)", N_("{seat} plays again")),
        (
            r"your acknowledgement is not among the relayed ones: .*",
            N_(
                "your acknowledgement is not among the relayed ones: the host refused it or did "
                "not relay it"
            ),
        ),
        (r"connection lost", N_("connection lost")),
        (r"ignored unexpected (?P<what>\w+)", N_("ignored unexpected {what}")),
        (
            r"the host's challenge is malformed: (?P<what>.*)",
            N_("the host's challenge is malformed: {what}"),
        ),
        (
            r"the host claims your seed reveal does not open your commitment, but the reveal it "
            r"published as evidence opens it, so the host is at fault",
            N_(
                "the host claims your seed reveal does not open your commitment, but the reveal "
                "it published as evidence opens it, so the host is at fault"
            ),
        ),
        (
            r"the host claims you did not (?P<what>.+); your (?P<kind>[\w-]+) was received at "
            r"(?P<when>.+) \(the host's signed receipt is in your record\), so the host is at "
            r"fault",
            N_(
                "the host claims you did not {what}; your {kind} was received at {when} (the "
                "host's signed receipt is in your record), so the host is at fault"
            ),
        ),
        (
            r"the host stopped the hand naming you, but you owed nothing: the host is at fault",
            N_("the host stopped the hand naming you, but you owed nothing: the host is at fault"),
        ),
        (
            r"the host says you did not answer in time; no receipt in your record proves "
            r"otherwise, so your file says: the host or you, cannot be told apart",
            N_(
                "the host says you did not answer in time; no receipt in your record proves "
                "otherwise, so your file says: the host or you, cannot be told apart"
            ),
        ),
    )
)

_WORDS = {
    "verified": N_("verified"),
    "failed": N_("failed"),
    "aborted": N_("aborted"),
    "in progress": N_("in progress"),
    "partners": N_("the partners"),
    "first dealer": N_("the first dealer"),
    "partners and first dealer": N_("the partners and the first dealer"),
    "reveal your seed": N_("reveal your seed"),
    "commit": N_("commit"),
    "shuffle the deck": N_("shuffle the deck"),
    "lock the deck": N_("lock the deck"),
    "send your keys for the cards being dealt": N_("send your keys for the cards being dealt"),
    "show your hand to your partner": N_("show your hand to your partner"),
    "play": N_("play"),
    "reveal your keys": N_("reveal your keys"),
}


# Why discovery is off (``net.discovery.DiscoveryError``), in the lobby's status line; the
# system's own words (an OS error) stay as they come.
DISCOVERY: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), t)
    for p, t in (
        (
            r"no LAN interface with an IPv4 address was found: connect to a network, or pass "
            r"--interfaces 127\.0\.0\.1 to play on this machine only",
            N_(
                "no LAN interface with an IPv4 address was found: connect to a network, or "
                "pass --interfaces 127.0.0.1 to play on this machine only"
            ),
        ),
        (
            r"(?P<where>\S+) takes IP addresses, not (?P<text>.+)",
            N_("{where} takes IP addresses, not {text}"),
        ),
        (
            r"(?P<where>\S+) needs the addresses of this machine's interfaces, not (?P<text>.+) "
            r"\(tables are advertised with exactly these addresses\)",
            N_(
                "{where} needs the addresses of this machine's interfaces, not {text} (tables "
                "are advertised with exactly these addresses)"
            ),
        ),
        (
            r"cannot start mDNS on (?P<where>.+?): (?P<why>.*)\. Pick addresses of this machine "
            r"with --interfaces\.",
            N_(
                "cannot start mDNS on {where}: {why}. Pick addresses of this machine with "
                "--interfaces."
            ),
        ),
    )
)


def discovery_reason(text: str) -> str:
    """Why discovery is off, in the player's language (as it came if no pattern knows it)."""
    for pattern, template in DISCOVERY:
        m = pattern.fullmatch(text)
        if m is not None:
            return _(template).format(**m.groupdict())
    return text


def render(
    line: str, who: Who, side: Callable[[int], str], rules: Callable[[str], str] = str
) -> str | None:
    """``line`` in the player's language (None if no pattern knows it); ``who`` names a seat,
    ``side`` names a side (``Bea``, ``side A (You + Cid)``), ``rules`` a table's rules label."""
    for pattern, template in PATTERNS:
        m = pattern.fullmatch(line)
        if m is None:
            continue
        fields = {}
        for key, value in m.groupdict().items():
            if key == "seat":
                fields[key] = who(int(value))
            elif key == "winner":
                fields[key] = side(int(value))
            elif key in ("status", "what") and value in _WORDS:
                fields[key] = _(_WORDS[value])
            elif key == "drawn":
                fields[key] = value.replace(" drew ", " " + _("drew") + " ")
            elif key == "name":  # the host's AI players by the player's language's name
                fields[key] = player_name(value)
            elif key == "names":
                fields[key] = ", ".join(player_name(n) for n in value.split(", "))
            elif key == "level":
                fields[key] = level_word(value)
            elif key == "rules":
                fields[key] = rules(value)
            else:
                fields[key] = value
        fields.pop("q", None)
        return _(template).format(**fields)
    return None
