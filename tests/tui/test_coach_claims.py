"""Every sentence the hint coach says is true of the position, for every card of the hand.

Positions come from real dealt hands played at random (2, 3 and 4 players, seeded), at every
decision: leading and following, the stock full or empty. The coach explains each card the player
holds; each sentence is matched to the one claim template it comes from, and every fact the
template states is checked on the full hand with the rules engine's trick rule. What may still
happen in the trick is every way the seats still to play can answer from the cards they really
hold, so "takes the trick" means: whatever they play.
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from briscola_lan.rules import Card, Hand, Suit, TableOptions, deck_for, trick_winner_index
from briscola_lan.tui import catalog, coach
from briscola_lan.tui import deck as dk
from briscola_lan.tui.state import UiState

HANDS_PER_TABLE = 80  # random hands per player count: 9,520 positions in all
LABEL = r"[A3KQJ76542][dhsc]"  # a card in the French deck, ASCII


@dataclass(frozen=True, slots=True)
class Position:
    """A seat to play in a hand, seen with every card of the hand known."""

    hand: Hand
    seat: int

    @property
    def held(self) -> list[Card]:
        return self.hand.hands[self.seat]

    @property
    def trump(self) -> Suit:
        return self.hand.trump

    @property
    def table(self) -> list[Card]:
        return [c for _, c in self.hand.trick]

    @property
    def table_points(self) -> int:
        return sum(c.points for c in self.table)

    @property
    def leading(self) -> bool:
        return not self.hand.trick

    def beats_table(self, card: Card) -> bool:
        """``card`` played now is the best card of the trick so far."""
        return trick_winner_index([*self.table, card], self.trump) == len(self.table)

    def outcomes(self, card: Card) -> Iterator[bool]:
        """Whether ``card`` wins the trick, for every answer of the seats still to play."""
        n = self.hand.n
        later = [(self.seat + i) % n for i in range(1, n - len(self.table))]
        for answer in itertools.product(*(self.hand.hands[s] for s in later)):
            cards = [*self.table, card, *answer]
            yield trick_winner_index(cards, self.trump) == len(self.table)

    def surely_wins(self, card: Card) -> bool:
        return all(self.outcomes(card))

    def can_win(self, card: Card) -> bool:
        return any(self.outcomes(card))

    def still_out(self) -> list[Card]:
        """The cards in the other seats' hands or the stock."""
        return [c for c in self.hand.deck if c not in self.held and c not in self.hand.plays]

    def beaten_by_out(self, card: Card) -> int:
        """How many cards still out would beat ``card`` played now."""
        table = [*self.table, card]
        return sum(
            trick_winner_index([*table, x], self.trump) == len(table) for x in self.still_out()
        )

    def partner_holds(self) -> bool:
        """At 4 players: the partner's card is the best of the trick so far."""
        if self.hand.n != 4 or self.leading:
            return False
        best = self.hand.trick[trick_winner_index(self.table, self.trump)][0]
        return best == self.hand.options.partner_of(self.seat)

    def free_winner(self) -> bool:
        """A card of the hand beats the table without a briscola and gives no points."""
        return any(
            self.beats_table(c) and c.suit != self.trump and c.points == 0 for c in self.held
        )


Facts = dict[str, bool]
Fields = dict[str, str]


def _card(fields: Fields, name: str = "card") -> Card:
    return Card.parse(fields[name])


def _lead_no_beater(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "lead": p.leading,
        "no card out beats the lead": p.beaten_by_out(c) == 0,
        "takes the trick": p.surely_wins(c),
    }


def _lead_worthless(p: Position, c: Card, f: Fields) -> Facts:
    return {"lead": p.leading, "lead worth nothing": c.points == 0}


def _lead_keeps_stronger(p: Position, c: Card, f: Fields) -> Facts:
    kept = _card(f)
    return {
        "lead": p.leading,
        "is a briscola": c.suit == p.trump,
        "keeps a stronger briscola": kept in p.held
        and kept != c
        and kept.suit == p.trump
        and trick_winner_index([c, kept], p.trump) == 1,
    }


def _lead_higher_out(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "lead": p.leading,
        "is a briscola": c.suit == p.trump,
        "higher briscole still out": p.beaten_by_out(c) == int(f["k"]) > 0,
    }


def _lead_points(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "lead": p.leading,
        "points of the lead": c.points == int(f["n"]),
        "cards still out beat it": p.beaten_by_out(c) == int(f["k"]) > 0,
    }


def _takes(trump: bool) -> Callable[[Position, Card, Fields], Facts]:
    def check(p: Position, c: Card, f: Fields) -> Facts:
        return {
            "follow": not p.leading,
            "is a briscola" if trump else "without a briscola": (c.suit == p.trump) is trump,
            "takes the trick": p.surely_wins(c),
            "points of the trick": p.table_points + c.points == int(f["n"]),
        }

    return check


def _ahead(trump: bool) -> Callable[[Position, Card, Fields], Facts]:
    def check(p: Position, c: Card, f: Fields) -> Facts:
        return {
            "follow": not p.leading,
            "is a briscola" if trump else "without a briscola": (c.suit == p.trump) is trump,
            "beats the table": p.beats_table(c),
            "points of the trick": p.table_points + c.points == int(f["n"]),
        }

    return check


def _partner_load(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "partner holds the trick": p.partner_holds() and not p.beats_table(c),
        "points loaded": c.points == int(f["n"]) > 0,
    }


def _partner_nothing(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "partner holds the trick": p.partner_holds() and not p.beats_table(c),
        "gives nothing": c.points == 0,
    }


def _every_card_loses(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "follow": not p.leading,
        "every card loses": not any(p.can_win(x) for x in p.held),
        "fewest points": _card(f) == c and c.points == min(x.points for x in p.held),
    }


def _every_card_loses_cheaper(p: Position, c: Card, f: Fields) -> Facts:
    cheaper = _card(f)
    return {
        "follow": not p.leading,
        "every card loses": not any(p.can_win(x) for x in p.held),
        "a cheaper card": cheaper in p.held and cheaper.points < c.points,
    }


def _saves_the_trump(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "follow": not p.leading,
        "saves the trump": c.suit != p.trump
        and not p.beats_table(c)
        and any(x.suit == p.trump and p.beats_table(x) for x in p.held),
        "points of the trick": p.table_points + c.points == int(f["n"]),
    }


def _not_worth_a_winner(p: Position, c: Card, f: Fields) -> Facts:
    return {
        "follow": not p.leading,
        "not worth a winner": not p.beats_table(c)
        and any(p.beats_table(x) for x in p.held)
        and p.table_points <= 4
        and not p.free_winner(),
        "give the least": _card(f) == c and c.points == min(x.points for x in p.held),
    }


def _another_beats(p: Position, c: Card, f: Fields) -> Facts:
    winner = _card(f, "winner")
    return {
        "follow": not p.leading,
        "does not beat the table": not p.beats_table(c),
        "another card beats the table": winner in p.held and p.beats_table(winner),
        "points on the table": p.table_points == int(f["n"]),
    }


# Every reason the coach gives (its English text) and the facts it states.
CLAIMS: dict[str, Callable[[Position, Card, Fields], Facts]] = {
    "no card still out beats it: the trick is yours": _lead_no_beater,
    "a lead worth nothing: it gives no points to whoever takes it": _lead_worthless,
    "a briscola lead while you keep the stronger {card}": _lead_keeps_stronger,
    "a briscola lead: {k} higher briscola is still out": _lead_higher_out,
    "a briscola lead: {k} higher briscole are still out": _lead_higher_out,
    "a lead of {n} points: {k} card still out beats it": _lead_points,
    "a lead of {n} points: {k} cards still out beat it": _lead_points,
    "the briscola takes the trick and its {n} points": _takes(trump=True),
    "takes the trick ({n} points) without a briscola": _takes(trump=False),
    "the briscola beats the cards on the table ({n} points so far)": _ahead(trump=True),
    "beats the cards on the table ({n} points so far) without a briscola": _ahead(trump=False),
    "your partner holds the trick: load {n} points on it": _partner_load,
    "your partner holds the trick: give nothing away": _partner_nothing,
    "every card loses this trick: {card} gives the fewest points": _every_card_loses,
    "every card loses this trick, though {card} gives fewer points": _every_card_loses_cheaper,
    "saves the trump, the trick is worth {n}": _saves_the_trump,
    "the trick is not worth a winner: give the least, {card}": _not_worth_a_winner,
    "does not beat the cards on the table ({n} points), {winner} does": _another_beats,
}


def _pattern(template: str) -> re.Pattern[str]:
    text = re.escape(template)
    for name in ("card", "winner"):
        text = text.replace(re.escape("{" + name + "}"), f"(?P<{name}>{LABEL})")
    for name in ("n", "k"):
        text = text.replace(re.escape("{" + name + "}"), f"(?P<{name}>\\d+)")
    return re.compile(text)


PATTERNS = [(t, _pattern(t)) for t in CLAIMS]


def judge(p: Position, card: Card) -> tuple[str, Facts]:
    """The coach's reason for ``card`` at ``p``: its template, and whether each fact holds."""
    text = coach.reason(coach.Advice(p.hand.view(p.seat), card, {}), dk.Deck.FRENCH, True)
    matches = [(t, m) for t, m in ((t, pat.fullmatch(text)) for t, pat in PATTERNS) if m]
    assert len(matches) == 1, f"not one known claim: {text!r}"
    template, m = matches[0]
    return template, CLAIMS[template](p, card, m.groupdict())


def positions(players: int, seed: int) -> Iterator[Position]:
    """Every decision of one hand dealt from a shuffled pack and played at random."""
    rng = random.Random(seed)
    options = TableOptions.make(
        players=players,
        match_format="points" if players == 3 else "hands",
        partner_exchange=rng.random() < 0.5,
        removed_two=rng.randrange(4),
    )
    pack = list(deck_for(players, options.removed_two))
    rng.shuffle(pack)
    hand = Hand(options, pack, dealer=rng.randrange(players))
    while (seat := hand.current_player) is not None:
        yield Position(hand, seat)
        hand.play(seat, rng.choice(hand.legal_plays()))


def _sweep() -> tuple[list[str], Counter[str], Counter[str]]:
    """Judge every card of every position: the false facts, templates seen, positions by kind."""
    false: list[str] = []
    templates: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for players in (2, 3, 4):
        for seed in range(HANDS_PER_TABLE):
            for p in positions(players, seed):
                stock = "stock" if p.hand.stock_left else "no stock"
                kinds[f"{players}p {'lead' if p.leading else 'follow'}, {stock}"] += 1
                for card in p.held:
                    template, facts = judge(p, card)
                    templates[template] += 1
                    bad = [fact for fact, ok in facts.items() if not ok]
                    if bad:
                        view = p.hand.view(p.seat)
                        false.append(
                            f"{players}p seed {seed} trick {view.trick} trump {view.trump.name} "
                            f"hand {view.hand}, {card}: {template!r} is false: {bad}"
                        )
    return false, templates, kinds


def test_every_reason_for_every_card_is_true_of_the_position() -> None:
    false, templates, kinds = _sweep()
    assert not false, f"{len(false)} false claims, e.g.\n" + "\n".join(false[:20])
    assert sum(kinds.values()) == 9520
    for players in (2, 3, 4):
        for where in ("lead, stock", "lead, no stock", "follow, stock", "follow, no stock"):
            assert kinds[f"{players}p {where}"] > 50, (players, where, kinds)
    never = [t for t in CLAIMS if not templates[t]]
    assert not never, f"never said over the sweep: {never}"


@settings(max_examples=100, deadline=None)
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(HANDS_PER_TABLE, 2**32 - 1))
def test_every_reason_is_true_in_any_hand(players: int, seed: int) -> None:
    """The same check on hands beyond the sweep's seeds."""
    for p in positions(players, seed):
        for card in p.held:
            template, facts = judge(p, card)
            assert all(facts.values()), (p.hand.view(p.seat), card, template, facts)


def test_the_claims_checked_are_every_reason_the_coach_has() -> None:
    """A reason added to the coach without a check here fails this test."""
    reasons = set()
    for msgid, entry in catalog.extract().items():
        if any(w.startswith("coach.py:") for w in entry.where) and msgid[0].islower():
            reasons |= {msgid} | ({entry.plural} if entry.plural else set())
    assert reasons == set(CLAIMS)


def _dealt(leads: str, answers: str, upcard: str) -> Hand:
    """2 players: seat 1 is dealt ``leads`` and leads, seat 0 is dealt ``answers``."""
    order = [x for pair in zip(leads.split(), answers.split(), strict=True) for x in pair]
    cards = [Card.parse(x) for x in [*order, upcard]]
    pack = cards + [c for c in deck_for(2) if c not in cards]
    hand = Hand(TableOptions.make(players=2), pack, dealer=0)
    hand.play(1, cards[0])
    assert hand.hands[0] == [Card.parse(x) for x in answers.split()]
    return hand


def _reason(hand: Hand, card: str) -> str:
    view = hand.view(0)
    return coach.reason(coach.Advice(view, Card.parse(card), {}), dk.Deck.FRENCH, True)


def _example() -> Hand:
    """Hearts are briscola, seat 1 leads the 2 of diamonds, seat 0 holds A♠ K♣ 4♦."""
    return _dealt("2d 5s 6c", "As Kc 4d", upcard="7h")


def test_a_card_that_takes_for_nothing_is_not_called_the_fewest_points() -> None:
    hand = _example()
    assert _reason(hand, "Kc") == "does not beat the cards on the table (0 points), 4d does"
    assert _reason(hand, "As") == "does not beat the cards on the table (0 points), 4d does"
    assert _reason(hand, "4d") == "takes the trick (0 points) without a briscola"
    p = Position(hand, 0)
    for card in p.held:
        assert all(judge(p, card)[1].values())


def test_the_hint_itself_is_true_in_the_example() -> None:
    hand = _example()
    line = coach.hint_line(coach.advise(hand.view(0)), UiState(ascii_only=True))
    head, rest = line.split(": ", 1)
    played, said = head.removeprefix("Play "), rest.split(".")[0]
    assert "fewest" not in said and "every card loses" not in said, line
    assert said == _reason(hand, played)


def test_every_card_loses_is_not_said_when_a_card_takes_the_trick() -> None:
    """Hearts are briscola, the 3 of diamonds (10) is led, seat 0 holds A♦ K♣ Q♠."""
    hand = _dealt("3d 5s 6c", "Ad Kc Qs", upcard="7h")
    for card in ("Kc", "Qs"):
        said = _reason(hand, card)
        assert "every card loses" not in said and "fewest" not in said, said
        assert said == "does not beat the cards on the table (10 points), Ad does"
    assert _reason(hand, "Ad") == "takes the trick (21 points) without a briscola"


def test_a_trick_of_ten_points_a_card_takes_is_worth_a_winner() -> None:
    """The 3 of diamonds (10) is led; seat 0 holds 2♠, A♦ (takes it) and 5♣."""
    hand = _dealt("3d 5s 6c", "2s Ad 5c", upcard="7h")
    said = _reason(hand, "2s")
    assert "not worth a winner" not in said, said
    assert said == "does not beat the cards on the table (10 points), Ad does"


def test_a_briscola_on_a_briscola_lead_is_not_without_a_briscola() -> None:
    """Hearts are briscola and the 4 of hearts is led: the 7 of hearts takes it, as a briscola."""
    hand = _dealt("4h 5s 6c", "7h Kc Qs", upcard="2h")
    assert _reason(hand, "7h") == "the briscola takes the trick and its 0 points"


@pytest.mark.parametrize(("margin", "said"), [(0.4, "about as good"), (0.5, "about as good"),
                                              (1.6, "About 2 points better")])  # fmt: skip
def test_the_margin_over_the_next_card_is_the_ai_score_rounded(margin: float, said: str) -> None:
    """The hint's comparison is the AI's own score difference, never 'about 0 points better'."""
    hand = _example()
    view = hand.view(0)
    scores = {Card.parse("4d").code: 10.0, Card.parse("Kc").code: 10.0 - margin}
    scores[Card.parse("As").code] = 0.0
    line = coach.hint_line(coach.Advice(view, Card.parse("4d"), scores), UiState(ascii_only=True))
    assert said in line and "Kc" in line.split(".", 1)[1], line


@pytest.mark.parametrize(
    ("noise", "said"), [(2.5, "about as good"), (1.0, "About 2 points better")]
)
def test_a_margin_within_the_noise_is_about_as_good(noise: float, said: str) -> None:
    """A margin of 1.6 points is 'about 2 points better' only when larger than its noise."""
    view = _example().view(0)
    scores = {Card.parse("4d").code: 10.0, Card.parse("Kc").code: 8.4, Card.parse("As").code: 0.0}
    noises = {Card.parse("Kc").code: noise, Card.parse("As").code: 0.5}
    advice = coach.Advice(view, Card.parse("4d"), scores, noises)
    line = coach.hint_line(advice, UiState(ascii_only=True))
    assert said in line and "Kc" in line.split(".", 1)[1], line
