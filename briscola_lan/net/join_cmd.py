"""``briscola-lan join`` by line: join a table by name (mDNS) or ``HOST:PORT``, play typed commands.

``run_join`` is the line client's whole command. On a terminal ``commands/join.py`` opens the
full-screen client instead (net/ never imports tui/); both connect with ``connect.open_table``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from briscola_lan.net import tls
from briscola_lan.net.client import ConnectError, TableClient
from briscola_lan.net.connect import (
    UsageError,
    add_target_options,
    check_common,
    check_level,
    client_saver,
    lost_reason,
    open_table,
    winner_text,
)
from briscola_lan.net.discovery import DiscoveryError
from briscola_lan.net.player import Chooser, MatchFailed, auto_play
from briscola_lan.rules.auction import Bid
from briscola_lan.rules.cards import Card, Suit
from briscola_lan.table import events as ev

HELP = """commands:
  seat N          take or move to seat N leave       leave your seat
  ready           say you are ready      start       start the match (seat 0)
  ai SEAT LEVEL   put an AI in a seat (seat 0; LEVEL 'none' frees it)
  play CARD | N   play a card: its name (A♣, Ac, 3h) or its number in your hand
  bid RANK|POINTS 5 players: bid a rank (A 3 K Q J 7 6 5 4 2) or points (61-120)
  pass            5 players: pass in the auction (you are out of it)
  call SUIT       5 players, the auction's winner: call its rank of a suit (d h s c)
  hand            show the table         log         show the whole log
  quit            leave the table"""


def describe(state: Any) -> list[str]:
    """The table as text lines for one seat."""
    lines: list[str] = []
    if state.seats:
        for s in state.seats:
            who = s.name or "(free)"
            if s.ai:
                who += f" [AI {s.ai}]"
            flags = ("" if s.connected or not s.occupied else " (away)") + (
                " ready" if s.ready and state.phase == "lobby" else ""
            )
            me = " <- you" if s.seat == state.seat else ""
            lines.append(f"  seat {s.seat}: {who}{flags}{me}")
    view = state.view
    if view is not None and state.phase == "playing" and view.options.chiamata:
        lines.extend(_auction_lines(view))
    elif view is not None and state.phase == "playing":
        lines.append(
            f"  briscola {view.upcard} (trump {view.trump.symbol if view.trump else '-'}), "
            f"stock {view.stock_left}, points {list(view.points)}"
        )
    if view is not None and state.phase == "playing":
        trick = " ".join(f"{seat}:{card}" for seat, card in view.trick) or "-"
        turn = "-" if view.to_play is None else f"seat {view.to_play}"  # None: bids, call, end
        lines.append(f"  trick: {trick}; to play: {turn}")
        if view.partner_shown is not None:
            lines.append(f"  partner shows: {' '.join(str(c) for c in view.partner_shown)}")
        hand = "  ".join(f"{i + 1}:{c}" for i, c in enumerate(view.hand))
        lines.append(f"  your hand: {hand}" + ("   <- your turn" if view.my_turn else ""))
    return lines


def match_end_lines(state: Any) -> list[str]:
    """The match's result: who won and its standing; at five players each hand's call with
    its scores by the table of weights, then the match's scores (as ``verify`` words them)."""
    if state.match_aborted:
        return ["the match was aborted"]
    opts = state.options
    if opts is None or not opts.chiamata:
        return [
            f"match over: {winner_text(state)} won; hands {state.hands_won}, "
            f"points {state.total_points}"
        ]
    calls = {e.hand: e.call for e in state.events if isinstance(e, ev.HandEnded) and e.call}
    lines = [f"match over: {winner_text(state)} won; match scores {list(state.scores)}"]
    lines += [f"  hand {hand + 1}: {ev.call_words(calls[hand])}" for hand in sorted(calls)]
    return lines


def _auction_lines(view: Any) -> list[str]:
    """Five players: the auction so far, or the called card, and the points."""
    bids = " ".join(f"{seat}:{'pass' if bid is None else bid}" for seat, bid in view.auction)
    lines = [f"  auction: {bids or '-'}"]
    c = view.contract
    if c is None:
        if view.my_bid:
            legal = " ".join(str(b) for b in view.legal_bids[:12])
            lines.append(f"  your bid (or pass): {legal} ...")
        elif view.my_call:
            lines.append("  you won the auction: call a suit (call d|h|s|c)")
        return lines
    partner = ""
    if view.partner is not None:
        partner = ", you hold it" if view.partner == view.seat else f", partner seat {view.partner}"
    lines.append(
        f"  seat {c.caller} called {c.called} for {c.target(view.options.points_to_win)} "
        f"(briscola {c.trump.symbol}{partner}); points {list(view.points)}"
    )
    return lines


def parse_card(text: str, hand: Sequence[Card]) -> Card:
    text = text.strip()
    if text.isdigit():
        i = int(text) - 1
        if not 0 <= i < len(hand):
            raise ValueError(f"your hand has cards 1..{len(hand)}")
        return hand[i]
    return Card.parse(text)


def handle_command(client: TableClient, line: str, out: Callable[[str], None]) -> bool:
    """Act on one typed line; False when the user wants to quit."""
    session = client.session
    state = session.state
    words = line.split()
    if not words:
        return True
    cmd, rest = words[0].lower(), words[1:]
    try:
        if cmd in ("quit", "exit", "q"):
            return False
        if cmd == "help":
            out(HELP)
        elif cmd == "seat" and rest:
            client.send(*session.take_seat(int(rest[0])))
        elif cmd == "leave":
            client.send(*session.leave_seat())
        elif cmd == "ready":
            client.send(*session.ready())
        elif cmd == "start":
            client.send(*session.start())
        elif cmd == "ai" and len(rest) == 2:
            level = None if rest[1] == "none" else rest[1]
            client.send(*session.set_ai_seat(int(rest[0]), level))
        elif (cmd == "play" and rest) or cmd.isdigit():
            view = state.view
            if view is None:
                out("no hand in progress")
            else:
                card = parse_card(rest[0] if cmd == "play" else cmd, view.hand)
                client.send(*session.play(card))
        elif cmd == "bid" and rest:
            client.send(*session.bid(Bid.parse(rest[0])))
        elif cmd == "pass":
            client.send(*session.bid(None))
        elif cmd == "call" and rest:
            client.send(*session.call(Suit.parse(rest[0])))
        elif cmd == "hand":
            for text in describe(state):
                out(text)
        elif cmd == "log":
            for event in state.events:
                if text := str(event):
                    out(f"  {text}")
        else:
            out(f"unknown command {line.strip()!r}; type 'help'")
    except ValueError as exc:
        out(f"cannot do that: {exc}")
    return True


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on standard input (a pipe or a terminal)."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    mode = os.fstat(sys.stdin.fileno()).st_mode
    watchable = stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or sys.stdin.isatty()
    if sys.platform == "win32" or not watchable:
        # A file or /dev/null cannot be watched by the event loop (nor can Windows' standard
        # input, a console or a pipe, by the selector loop): read it in a worker thread.
        while line := await loop.run_in_executor(None, sys.stdin.readline):
            yield line
        return
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line_bytes := await reader.readline():
        yield line_bytes.decode("utf-8", "replace")


async def line_client(
    client: TableClient,
    lines: AsyncIterator[str],
    *,
    out: Callable[[str], None] = print,
    auto: Chooser | None = None,
    seat: int | None = None,
) -> int:
    """Show the table as text and act on typed commands until the match ends or 'quit'."""
    state = client.session.state
    printed = 0
    shown_turn: object = None

    def render() -> None:
        nonlocal printed, shown_turn
        for event in state.events[printed:]:  # each in English; the table shows the rest
            if text := str(event):
                out(f"* {text}")
        printed = len(state.events)
        view = state.view
        turn = view is not None and (view.my_turn or view.my_bid or view.my_call)
        if view is not None and turn and shown_turn is not view and auto is None:
            shown_turn = view
            for text in describe(state):
                out(text)

    async def watch() -> None:
        while not state.match_over and client.error is None:
            render()
            await client.wait_change()
        render()

    async def typed() -> None:
        async for line in lines:
            if not handle_command(client, line, out):
                return
        if auto is not None:  # input closed, but the autopilot plays on
            await asyncio.Event().wait()

    out(f"connected to table {client.target.key} ({client.pinned[:16]}…); type 'help'")
    tasks: list[asyncio.Task[Any]] = [asyncio.create_task(watch()), asyncio.create_task(typed())]
    if auto is not None:
        tasks.append(asyncio.create_task(auto_play(client, auto, seat=seat)))
    failure: BaseException | None = None
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        failure = next((t.exception() for t in done if t.exception() is not None), None)
    finally:
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, MatchFailed):
                await t
    if failure is not None:
        out(f"stopped: {failure}")
        return 2
    if client.error is not None:
        out(f"connection lost for good: {lost_reason(client, bool(state.seats))}")
        return 2
    if state.match_over:
        for text in match_end_lines(state):
            out(text)
        for check in state.checks:
            out(f"  {check.summary}")
        return 3 if any(c.status == "failed" for c in state.checks) else 0
    return 0


def configure(parser: argparse.ArgumentParser) -> None:
    add_target_options(parser)
    parser.add_argument("--name", default="player", help="your name at the table")
    parser.add_argument(
        "--auto", metavar="LEVEL", help="let an AI of this level play for you (autopilot)"
    )
    parser.add_argument(
        "--line", action="store_true", help="the plain line client, not the full-screen one"
    )
    parser.add_argument("--ascii", action="store_true", help="full-screen client: plain ASCII")


async def run_join(args: argparse.Namespace) -> int:
    """The whole ``join`` command: connect, then the line client on standard input."""
    check_common(args)
    auto = check_level(args.auto) if args.auto else None
    client = await open_table(
        args.table,
        name=args.name,
        fingerprint=args.fingerprint,
        interfaces=args.interfaces,
        timeout=args.timeout,
    )
    saver = client_saver(client, args.name, args.games, "briscola-lan join")
    try:
        if args.seat is not None and args.auto is None:
            await client.wait_for(lambda: bool(client.session.state.seats), 5.0)
            client.send(*client.session.take_seat(args.seat))
        return await line_client(
            client, stdin_lines(), out=lambda s: print(s, flush=True), auto=auto, seat=args.seat
        )
    finally:
        # A finished match or a lost table is kept whole (the result, or evidence of a withheld
        # reveal); leaving mid-hand keeps the hands played to the end.
        saver.save(whole=client.session.state.match_over or client.error is not None)
        if saver.path is not None:
            print(f"saved {saver.path}", flush=True)
        await client.close()


def run(args: argparse.Namespace) -> int:
    try:
        check_common(args)
    except UsageError as exc:
        print(f"briscola-lan join: {exc}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run_join(args))
    except (ConnectError, DiscoveryError, tls.TlsError, UsageError) as exc:
        print(f"briscola-lan join: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="briscola-lan join")
    configure(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
