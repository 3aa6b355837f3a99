"""The line client (``briscola-lan join --line``) at five players, over TLS on loopback against
a table of four AI seats: its end-of-match text gives each hand's call with every seat's score
by the table of weights, and the match's scores, in the words ``briscola-lan verify`` uses."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator

from briscola_lan.fairness import verify_records
from briscola_lan.net.client import Target
from briscola_lan.net.embedded import start_embedded_host
from briscola_lan.net.join_cmd import line_client
from briscola_lan.net.player import connect, make_chooser
from briscola_lan.rules import TableOptions
from briscola_lan.rules.chiamata import CallResult
from briscola_lan.table import events as ev


async def _nothing_typed() -> AsyncIterator[str]:
    return
    yield  # an async generator that ends at once: the autopilot plays


async def test_the_end_of_a_five_player_match_shows_the_weights_and_the_totals() -> None:
    options = TableOptions.make(players=5, match_format="total", match_hands=2)
    host = await start_embedded_host(
        options, "Cinque", dict.fromkeys(range(1, 5), "random"), ["127.0.0.1"],
        advertise=False, ai_delay=0.0, deal="classic", keep=False,
    )  # fmt: skip
    said: list[str] = []
    try:
        client = await connect(Target("127.0.0.1", host.port, None, host.fingerprint), "Ann")
        try:
            code = await line_client(
                client, _nothing_typed(), out=said.append, auto=make_chooser("random", 7), seat=0
            )
            state = client.session.state
            records = list(client.session.records)
        finally:
            await client.close()
    finally:
        await host.close()
    assert code == 0, said
    assert state.match_over and not state.match_aborted
    calls = [e.call for e in state.events if isinstance(e, ev.HandEnded) and e.call is not None]
    assert len(calls) >= 2  # two hands, or more after a shared top score
    totals = [sum(c.scores[s] for c in calls) for s in range(5)]
    assert list(state.scores) == totals and sum(totals) == 0
    end = said.index(next(line for line in said if line.startswith("match over: ")))
    assert said[end] == f"match over: {_winner(state)} won; match scores {totals}", said[end:]
    for n, call in enumerate(calls):
        line = said[end + 1 + n]
        assert line.startswith(f"  hand {_hand_of(state, call) + 1}: seat {call.caller} called ")
        assert line.endswith(f"scores {list(call.scores)}"), line
        assert ("alone" if call.alone else f"partner seat {call.partner}") in line
        assert re.search(rf"the callers (won|lost) with {call.points} of {call.target};", line)
    # the same calls as the verifier finds in the player's own file
    report = verify_records(records)
    assert [h.call for h in report.hands if h.call is not None] == calls
    assert any(line.strip().startswith("hand ") and "verified" in line for line in said[end:])


def _winner(state: object) -> str:
    names = [i.name for i in sorted(state.seats, key=lambda i: i.seat)]  # type: ignore[attr-defined]
    return str(state.options.side_text(state.winner, names))  # type: ignore[attr-defined]


def _hand_of(state: object, call: CallResult) -> int:
    return next(
        e.hand
        for e in state.events  # type: ignore[attr-defined]
        if isinstance(e, ev.HandEnded) and e.call is call
    )
