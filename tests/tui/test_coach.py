"""Learning from the strong AI, headless: the hint key (the AI's card with a reason, and whether
hints are allowed), the review of a finished hand (each play's cost, the biggest mistake first),
and the hints kept beside the saved game."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from briscola_lan.ai import StrongBot, make_bot
from briscola_lan.ai.evaluate import Budget, Evaluation
from briscola_lan.net.client import Target as NetTarget
from briscola_lan.net.embedded import start_embedded_host
from briscola_lan.net.player import auto_play, connect
from briscola_lan.rules import Card, Hand, SeatView, TableOptions, deck_for
from briscola_lan.tui import coach, coach_judge
from briscola_lan.tui import deck as dk
from briscola_lan.tui.config import ClientConfig
from briscola_lan.tui.saved import read_hints
from briscola_lan.tui.state import UiState

from .helpers import ENTER, ESC, Driver, lobby_entry, net_config, running, wait_for


def _hand_at_answer() -> Hand:
    """2 players, clubs briscola; seat 1 leads a worthless card and seat 0 must answer."""
    order = ["4s", "Ac", "5h", "2s", "Kh", "6d", "3c"]  # seat 1, 0, 1, 0, 1, 0; the upcard
    deck = [Card.parse(x) for x in order]
    deck += [c for c in deck_for(2) if c not in deck]
    hand = Hand(TableOptions.make(players=2), deck, dealer=0)
    assert hand.current_player == 1
    hand.play(1, Card.parse("4s"))
    return hand


def test_a_hint_is_the_strong_ai_choice_with_a_reason() -> None:
    view = _hand_at_answer().view(0)
    advice = coach.advise(view)
    assert advice.card == StrongBot(coach.HINT_SEED).choose(view)
    assert set(advice.scores) == {c.code for c in view.hand}
    line = coach.hint_line(advice, UiState())
    assert line.startswith(f"Play {advice.card.label()}: "), line
    # the trick is worth 0 and the hand holds the ace of the briscola: the AI keeps it
    assert advice.card != Card.parse("Ac")
    assert "saves the trump, the trick is worth 0" in line or "give the least" in line, line
    assert advice.cost(advice.card) == 0.0
    assert advice.cost(Card.parse("Ac")) > 0


async def _my_turn(d: Driver) -> None:
    await wait_for(lambda: d.client.model.my_turn, 15, "my turn")


async def test_the_hint_key_in_practice() -> None:
    cfg = ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0)
    async with running(cfg) as d:
        await d.keys("a")
        await _my_turn(d)
        await d.keys("h")
        c = d.client
        assert c.ui.show_hint
        await wait_for(lambda: c.coach.hint_card is not None, 30, "the hint")
        assert c.coach.hint_text.startswith("Play "), c.coach.hint_text
        assert c.coach.hint_card in c.model.hand
        assert any("asked the strong AI for a hint" in line for line in c.model.log)
        await d.keys(ESC)
        assert not c.ui.show_hint and not c.ui.confirm_quit


async def test_the_review_of_a_hand_puts_the_biggest_mistake_first() -> None:
    cfg = ClientConfig(name="Tess", ai_level="random", ai_delay=0.0, trick_pause=0.0, settle=0.0)
    async with running(cfg) as d:
        await d.keys("a")
        c = d.client
        plays = 0
        while not c.model.hand_over:
            if c.model.my_turn:
                before = c.model.changes
                await d.keys("3" if plays % 2 else "1", ENTER)
                plays += 1
                await wait_for(lambda b=before: c.model.changes > b, what="my play")
            else:
                await wait_for(lambda: c.model.my_turn or c.model.hand_over, what="a turn")
        await d.keys("w")
        assert c.ui.show_review
        await wait_for(lambda: 0 in c.coach.reviews, 120, "the review")
        reviewed = c.coach.reviews[0]
        assert len(reviewed) == plays == 20
        assert all(p.cost >= 0 and p.noise >= 0 for p in reviewed)
        text = "".join(f[1] for f in c.coach.review_lines(c.ui))
        mistakes = [p for p in reviewed if p.mistake]
        biggest = coach.biggest_mistakes(reviewed)
        if len(biggest) == 1:
            worst = max(mistakes, key=lambda p: p.cost)
            assert biggest == [worst]
            assert text.startswith(f"Biggest mistake: trick {worst.trick}, you played "), text
            assert f"{worst.cost:.1f} ± {worst.noise:.1f} points better" in text, text
        elif biggest:
            assert text.startswith("Biggest mistakes, about as costly as each other"), text
            for p in biggest:
                assert f"Trick {p.trick}, you played " in text, text
                assert f"{p.cost:.1f} ± {p.noise:.1f} points better" in text, text
        else:
            assert not mistakes
            assert text.startswith("No play is a clear mistake"), text
        rows = [ln for ln in text.splitlines() if ln[:5].strip().isdigit()]
        assert len(rows) == 20
        # the mistakes first, the biggest first; then the plays about equal; then the plays
        # too early to judge; then the AI's own cards
        kinds = ["-" if ln.rstrip().endswith("-") else "=" if "about equal" in ln
                 else "?" if "too early to judge" in ln else "x" for ln in rows]  # fmt: skip
        assert kinds == sorted(kinds, key="x=?-".index), kinds
        shown = [float(ln.split()[3]) for ln, k in zip(rows, kinds, strict=True) if k == "x"]
        assert shown == sorted(shown, reverse=True)
        await d.keys("w")
        assert not c.ui.show_review


@pytest.mark.usefixtures("private_dirs")
async def test_hints_at_a_network_table_are_kept_beside_the_saved_game(tmp_path: Path) -> None:
    async with running(net_config(tmp_path)) as d:
        await d.keys("a")
        await _my_turn(d)
        c = d.client
        backend = c.backend
        assert backend is not None and backend.hints_allowed()  # nobody else is at the table
        await d.keys("h")
        await wait_for(lambda: c.coach.hint_card is not None, 30, "the hint")
        games = tmp_path / "games"
        await wait_for(lambda: list(games.glob("*-Tess.hints.json")), 10, "the hints record")
        (record,) = games.glob("*-Tess.hints.json")
        hints = read_hints(record)
        assert hints == [{"hand": 1, "trick": 1, "card": c.coach.hint_card.label(ascii_only=True)}]


@pytest.mark.usefixtures("private_dirs")
async def test_hints_are_off_with_other_people_unless_the_host_allows_them(
    tmp_path: Path,
) -> None:
    for allowed in (False, True):
        await _two_people(tmp_path, allowed)


async def _two_people(tmp_path: Path, allowed: bool) -> None:
    """Me and Bea (a bot over the network) at a table whose host allows hints or not."""
    host = await start_embedded_host(
        TableOptions.make(players=2), "Two people", {}, ["127.0.0.1"], advertise=False,
        ai_delay=0.0, hints=allowed,
    )  # fmt: skip
    other = None
    try:
        async with running(net_config(tmp_path / str(allowed))) as d:
            d.client.set_lobby([lobby_entry(host, "Two people", 0)])
            await d.keys(ENTER)
            c = d.client
            await wait_for(lambda: c.model.seated, 10, "my seat")
            target = NetTarget("127.0.0.1", host.port, None, host.fingerprint)
            other = await connect(target, name="Bea")
            bea = make_bot("random", 1)
            playing = asyncio.create_task(auto_play(other, bea.choose, seat=1, start=False))
            await _my_turn(d)
            backend = c.backend
            assert backend is not None
            assert backend.hints_allowed() is allowed
            footer = "".join(f[1] for f in c._hints(100))
            assert ("h: hint" in footer) is allowed and "Enter: play" in footer, footer
            await d.keys("h")
            if allowed:
                await wait_for(lambda: c.coach.hint_card is not None, 30, "the hint")
            else:
                assert "Hints are off at this table" in c.coach.hint_text
                assert c.coach.hint_card is None
    finally:
        if other is not None:
            playing.cancel()
            await other.close()
        await host.close()


def test_the_review_panel_shows_a_progress_bar_while_it_works() -> None:
    c = coach.Coach()
    c.review_hand = 0
    c.reviewing = (0, 5, 20)
    text = "".join(f[1] for f in c.review_lines(UiState()))
    assert "reviews your plays: 5 of 20" in text
    assert coach.progress_bar(5, 20, width=20) == "[#####...............]"
    assert coach.progress_bar(5, 20) in text


def test_a_play_is_a_mistake_only_a_point_beyond_its_noise() -> None:
    """At the end of a 2-player hand every card is known: the review is exact (no noise), and a
    card a point or more worse than the best is a mistake, the best card never is; with noise,
    only a cost over a point more than it is."""
    hand = _hand_at_answer()
    rng = random.Random(2)
    while hand.stock_left > 0:
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, rng.choice(hand.legal_plays()))
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat)
    judged = [coach.review_play(view, card) for card in view.hand]
    assert all(p.noise == 0.0 for p in judged)
    best = [p for p in judged if p.best == p.played]
    assert best and not any(p.mistake for p in best)
    assert all(p.mistake == (p.cost >= 1.0) for p in judged)
    assert coach.ReviewedPlay(3, judged[0].played, judged[0].best, 2.0, 2.5).mistake is False
    assert coach.ReviewedPlay(3, judged[0].played, judged[0].best, 2.0, 1.5).mistake is False
    assert coach.ReviewedPlay(3, judged[0].played, judged[0].best, 2.0, 1.0).mistake is True
    assert coach.ReviewedPlay(3, judged[0].played, judged[0].best, 5.0, 0.0, False).mistake is False


@pytest.fixture
def evaluations_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """``coach.evaluate`` keeps each evaluation by all that decides it (the position, the deals
    it solves and how far, the state of its random stream): asked again the same, it gives the
    same figures without solving the deals again. Asked anything else, it solves."""
    kept: dict[object, Evaluation] = {}
    solve = coach.evaluate

    def kept_evaluate(view: SeatView, budget: Budget, rng: random.Random) -> Evaluation:
        if budget.seconds is not None:  # a time budget: not the same twice
            return solve(view, budget, rng)
        deals = budget.deals(view.stock_left, view.players)
        key = (repr(view), deals, budget.exact_up_to, budget.depth, budget.leaf, rng.getstate())
        if key not in kept:
            kept[key] = solve(view, budget, rng)
        return kept[key]

    monkeypatch.setattr(coach, "evaluate", kept_evaluate)


@pytest.mark.usefixtures("evaluations_kept")
def test_the_early_plays_of_a_two_player_hand_are_judged_by_solved_deals() -> None:
    """From the first trick on, a 2-player play is judged by deals solved 6 tricks ahead (its
    noise given), the same figures as the evaluator's with that budget; a play those deals flag
    is stated by fresh deals of the same budget (``check_play``), the flagging figures kept."""
    hand = _hand_at_answer()
    seat = hand.current_player
    assert seat is not None
    view = hand.view(seat)
    assert view.stock_left > coach.REVIEW_SOLVED_STOCK
    ev = coach.evaluate(view, coach.REVIEW_EARLY, random.Random(coach.REVIEW_SEED))
    fresh = coach.evaluate(view, coach.REVIEW_EARLY, coach.check_rng())
    best = ev.best()
    for card in view.hand:
        p = coach.review_play(view, card)
        assert p.solved and p.best.code == best
        first = (ev.cost(card.code), 0.0 if card.code == best else ev.noise(best, card.code))
        if first[0] - first[1] >= coach.CHECK_MARGIN:
            assert p.flagged == pytest.approx(first)
            assert p.cost == pytest.approx(max(0.0, fresh.values[best] - fresh.values[card.code]))
            assert p.noise == pytest.approx(fresh.noise(best, card.code))
        else:
            assert p.flagged is None
            assert (p.cost, p.noise) == pytest.approx(first)
    # the ace of the briscola on a worthless lead: flagged, and checked
    assert coach.review_play(view, Card.parse("Ac")).flagged is not None


def _evaluation(means: dict[Card, list[float]]) -> Evaluation:
    """An evaluation with these per-deal outcomes."""
    n = len(next(iter(means.values())))
    return Evaluation({c.code: tuple(xs) for c, xs in means.items()}, (1.0,) * n)


def _fake_evaluations(
    monkeypatch: pytest.MonkeyPatch, *evaluations: Evaluation
) -> list[tuple[int, object]]:
    """``coach.evaluate`` returns ``evaluations`` in turn; the calls' (deals, rng state) kept."""
    calls: list[tuple[int, object]] = []

    def fake(view: SeatView, budget: Budget, rng: random.Random) -> Evaluation:
        calls.append((budget.deals(view.stock_left, view.players), rng.getstate()))
        return evaluations[len(calls) - 1]

    monkeypatch.setattr(coach, "evaluate", fake)
    return calls


def test_a_flagged_play_is_stated_by_fresh_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """The deals that pick a play out as a mistake overstate its cost: the review judges it
    again on deals drawn from another stream, and shows those deals' cost and noise."""
    view = _hand_at_answer().view(0)
    ace, two, six = Card.parse("Ac"), Card.parse("2s"), Card.parse("6d")
    flagging = _evaluation({ace: [50, 52, 48, 50], two: [60, 62, 58, 60], six: [59] * 4})
    fresh = _evaluation({ace: [55, 55, 56, 54], two: [60] * 4, six: [60] * 4})
    calls = _fake_evaluations(monkeypatch, flagging, fresh)
    p = coach.review_play(view, ace)
    assert len(calls) == 2
    (deals, state), (fresh_deals, fresh_state) = calls
    assert state == random.Random(coach.REVIEW_SEED).getstate()
    assert fresh_state == coach.check_rng().getstate() != state  # independent deals
    assert fresh_deals == deals == coach.REVIEW_EARLY.deals(view.stock_left, 2)
    assert p.best == two and p.flagged == (10.0, pytest.approx(flagging.noise(two.code, ace.code)))
    assert p.cost == 5.0 and p.noise == pytest.approx(fresh.noise(two.code, ace.code))
    assert p.mistake  # 5 points, ± 1.3
    c = coach.Coach(review_hand=0, reviews={0: [p]})
    text = "".join(f[1] for f in c.review_lines(UiState()))
    assert f"(about 5.0 ± {p.noise:.1f} points better)" in text, text


def test_a_play_within_its_fresh_noise_is_not_a_mistake(monkeypatch: pytest.MonkeyPatch) -> None:
    """A play its deals flag, whose fresh deals find it within their noise of the best card (or
    better), is not named a mistake: "about equal"."""
    view = _hand_at_answer().view(0)
    ace, two, six = Card.parse("Ac"), Card.parse("2s"), Card.parse("6d")
    flagging = _evaluation({ace: [50, 52, 48, 50], two: [60, 62, 58, 60], six: [59] * 4})
    for fresh_ace in ([57, 60, 55, 60], [61, 63, 59, 61]):  # 2 ± 2.25 points worse; better
        fresh = _evaluation({ace: fresh_ace, two: [60, 62, 58, 60], six: [60] * 4})
        _fake_evaluations(monkeypatch, flagging, fresh)
        p = coach.review_play(view, ace)
        assert p.flagged is not None and p.flagged[0] == 10.0
        assert p.cost == max(0.0, fresh.values[two.code] - fresh.values[ace.code])
        assert not p.mistake
        c = coach.Coach(review_hand=0, reviews={0: [p]})
        text = "".join(f[1] for f in c.review_lines(UiState()))
        assert text.startswith("No play is a clear mistake"), text
        assert "(about equal)" in text, text


def test_the_biggest_mistake_is_chosen_by_the_fresh_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    """Of two flagged plays, the one the fresh deals find costlier is the biggest mistake,
    whatever the flagging deals said."""
    view = _hand_at_answer().view(0)
    ace, two, six = Card.parse("Ac"), Card.parse("2s"), Card.parse("6d")
    flagging = _evaluation({ace: [40, 42, 38, 40], two: [60, 62, 58, 60], six: [50] * 4})
    fresh = _evaluation({ace: [54, 56, 52, 54], two: [60, 62, 58, 60], six: [48] * 4})
    _fake_evaluations(monkeypatch, flagging, fresh, flagging, fresh)
    plays = [coach.review_play(view, ace), coach.review_play(view, six)]
    assert [p.flagged[0] for p in plays if p.flagged] == [20.0, 10.0]
    assert [p.cost for p in plays] == [6.0, 12.0] and all(p.mistake for p in plays)
    assert coach.biggest_mistakes(plays) == [plays[1]]  # 6 points apart, the noise under 4
    c = coach.Coach(review_hand=0, reviews={0: plays})
    text = "".join(f[1] for f in c.review_lines(UiState()))
    label = dk.card_label(six, UiState().deck, UiState().ascii_only)
    assert text.startswith(f"Biggest mistake: trick 1, you played {label};"), text


def _hand_at_stock(stock: int) -> Hand:
    """A seeded 2-player hand of random plays, played on until ``stock`` cards are left in the
    stock and the seat to play holds its three cards."""
    hand = _hand_at_answer()
    rng = random.Random(3)
    while hand.stock_left > stock or len(hand.trick) > 0:
        seat = hand.current_player
        assert seat is not None
        hand.play(seat, rng.choice(hand.legal_plays()))
    assert hand.stock_left == stock
    return hand


@pytest.mark.usefixtures("evaluations_kept")
def test_the_review_solves_deals_to_the_end_from_14_cards_in_the_stock() -> None:
    """Near the end of a 2-player hand the review judges a play by sampled deals solved to the
    end, more of them than the hint (48 with 14 cards in the stock, 96 from 12); with 16 cards
    it searches 6 tricks ahead. The worst card, when flagged, is judged again on fresh deals."""
    checked = 0
    for stock, deals in ((16, 0), (14, 48), (12, 96)):
        hand = _hand_at_stock(stock)
        view = hand.view(hand.current_player or 0)
        if deals:
            budget = Budget(coach.review_deals, exact_up_to=coach.EXACT_DEALS)
            assert deals > coach.hint_deals(stock, 2)
        else:
            budget = coach.REVIEW_EARLY
        ev = coach.evaluate(view, budget, random.Random(coach.REVIEW_SEED))
        assert ev.deals == (deals or 48) and not ev.exact
        worst = min(view.hand, key=lambda c: (ev.values[c.code], c.code))
        p = coach.review_play(view, worst)
        assert p.solved and p.best.code == ev.best()
        first = (ev.cost(worst.code), ev.noise(ev.best(), worst.code))
        if first[0] - first[1] < coach.CHECK_MARGIN:
            assert p.flagged is None and (p.cost, p.noise) == pytest.approx(first)
            continue
        assert p.flagged == pytest.approx(first)
        fresh = coach.evaluate(view, budget, coach.check_rng())  # the same budget, fresh deals
        assert fresh.deals == ev.deals and fresh.samples != ev.samples
        cost = max(0.0, fresh.values[ev.best()] - fresh.values[worst.code])
        assert p.cost == pytest.approx(cost)
        assert p.noise == pytest.approx(fresh.noise(ev.best(), worst.code))
        checked += 1
    assert checked  # at least one of the three is flagged and checked


def _last_plays() -> list[tuple[SeatView, Card]]:
    """Seat 0's plays once the stock is empty (judged exactly, quickly) in a seeded hand."""
    hand = _hand_at_answer()
    rng = random.Random(5)
    plays = []
    while not hand.is_terminal:
        seat = hand.current_player
        assert seat is not None
        card = rng.choice(hand.legal_plays())
        if seat == 0 and hand.stock_left == 0:
            plays.append((hand.view(0), card))
        hand.play(seat, card)
    assert len(plays) >= 2
    return plays


async def test_each_play_is_judged_by_the_worker_as_soon_as_it_is_made() -> None:
    plays = _last_plays()
    judge = coach_judge.Judge()
    try:
        c = coach.Coach(judge=judge)
        c.hand = 0
        for view, card in plays:
            c.played(view, card)
        started = c.judging[0]
        assert len(started) == len(plays) and all(f is not None for f in started)
        # judged before anyone asks for the review
        for f in started:
            assert f is not None
            await asyncio.wait_for(asyncio.wrap_future(f), 120)
        steps: list[tuple[int, int, int] | None] = []
        await c.review(0, lambda: steps.append(c.reviewing))
        assert c.reviews[0] == [coach.review_play(view, card) for view, card in plays]
        assert steps[0] == (0, 0, len(plays)) and steps[-1] is None
    finally:
        judge.close()


async def test_without_a_worker_the_review_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_process(*args: object, **kwargs: object) -> None:
        raise OSError("no process for you")

    monkeypatch.setattr(coach_judge, "ProcessPoolExecutor", no_process)
    plays = _last_plays()
    c = coach.Coach(judge=coach_judge.Judge())
    c.hand = 0
    for view, card in plays:
        c.played(view, card)
    assert c.judging[0] == [None] * len(plays)
    await c.review(0, lambda: None)
    assert c.reviews[0] == [coach.review_play(view, card) for view, card in plays]


async def test_plays_the_stopped_worker_did_not_judge_are_judged_here() -> None:
    plays = _last_plays()
    judge = coach_judge.Judge()
    c = coach.Coach(judge=judge)
    c.hand = 0
    for view, card in plays:
        c.played(view, card)
    judge.close()  # the client's other table closed the shared worker: pending plays dropped
    await asyncio.wait_for(c.review(0, lambda: None), 120)
    assert c.reviews[0] == [coach.review_play(view, card) for view, card in plays]


def _play(trick: int, cost: float, noise: float, *, solved: bool = True) -> coach.ReviewedPlay:
    return coach.ReviewedPlay(
        trick, Card.parse("6d"), Card.parse("2s"), cost, noise=noise, solved=solved
    )


def test_mistakes_within_their_margins_of_error_are_named_together() -> None:
    """The review names one biggest mistake only when it cost more than every other mistake by
    more than the margin of error of the difference; otherwise every mistake about as costly
    is named with it, the costliest first. A play that is no mistake is never among them."""
    big, near, far = _play(3, 4.0, 1.0), _play(7, 3.0, 1.0), _play(12, 2.2, 0.4)
    # 4.0 - 3.0 = 1.0 is within hypot(1.0, 1.0) = 1.41; 4.0 - 2.2 = 1.8 is not (1.08)
    assert coach.biggest_mistakes([far, near, big]) == [big, near]
    assert coach.biggest_mistakes([far, _play(5, 6.0, 0.5)]) == [_play(5, 6.0, 0.5)]
    # exact plays (no noise): only an equal cost ties, the earlier trick first
    assert coach.biggest_mistakes([_play(9, 5.0, 0.0), _play(2, 5.0, 0.0)]) == [
        _play(2, 5.0, 0.0),
        _play(9, 5.0, 0.0),
    ]
    assert coach.biggest_mistakes([_play(9, 5.0, 0.0), _play(2, 4.5, 0.0)]) == [_play(9, 5.0, 0.0)]
    # about as costly, but not a mistake (its cost within a point of its noise), or not judged
    assert coach.biggest_mistakes([big, _play(8, 3.5, 2.8)]) == [big]
    assert coach.biggest_mistakes([big, _play(8, 3.9, 0.5, solved=False)]) == [big]
    assert coach.biggest_mistakes([_play(8, 1.5, 1.0)]) == []


@pytest.mark.parametrize("language", ["en", "it"])
def test_the_review_panel_names_mistakes_about_as_costly_together(language: str) -> None:
    """The panel's first lines name the mistakes the review cannot tell apart, each with its
    cost and margin of error, instead of calling one of them the biggest."""
    from briscola_lan.tui import i18n

    plays = [_play(3, 4.0, 1.0), _play(7, 3.0, 1.0), _play(12, 2.2, 0.4), _play(1, 0.0, 0.0)]
    i18n.set_language(language)
    try:
        c = coach.Coach(review_hand=0, reviews={0: plays})
        lines = "".join(f[1] for f in c.review_lines(UiState())).splitlines()
    finally:
        i18n.set_language("en")
    six, two = (dk.card_label(Card.parse(x), UiState().deck, UiState().ascii_only)
                for x in ("6d", "2s"))  # fmt: skip
    if language == "en":
        assert lines[0] == (
            "Biggest mistakes, about as costly as each other (within their margins of error):"
        )
        assert lines[1] == (
            f"  Trick 3, you played {six}; the AI would play {two} (about 4.0 ± 1.0 points better)"
        )
        assert lines[2].startswith("  Trick 7, ") and "(about 3.0 ± 1.0 points better)" in lines[2]
        assert not lines[3].startswith("  Trick")  # the third mistake is clearly cheaper
    else:
        assert lines[0].startswith("Errori più grandi"), lines
        assert lines[1].startswith("  Presa 3, hai giocato "), lines
        assert lines[2].startswith("  Presa 7, "), lines
