"""Opponent modelling for search: how likely a determinization is, given what the others played.

The model mixes two kinds of player: one who follows the rule-based policy (with a chance ``eps``
of any other card) and one who plays at random. For each other seat, the last ``window``
decisions are replayed on the hand that seat must have held in the determinization (walking
back from its current hand: adding back the card it played, removing the card it drew, averaged
over which card that was, or with ``pick`` one such card drawn at random: an unbiased, much
cheaper estimate). The weight of a determinization is
``prior * L_rules + (1 - prior) * L_random``: against a rule-like player the beliefs sharpen,
against a random one they stay close to uniform.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from briscola_lan.ai.fast import FastHand
from briscola_lan.ai.policy import rule_pick
from briscola_lan.rules import SeatView


@dataclass(frozen=True, slots=True)
class Decision:
    """One past play by a seat, with what that seat knew when it chose."""

    card: int
    trick: tuple[int, ...]
    leader: int
    played: int
    stock_left: int


# A step back in time for one seat: ("play", Decision), ("draw", known card or -1), or
# ("held", card) for a play that carries no evidence (it goes back into the hand unscored).
Step = tuple[str, "Decision | int"]


def history_steps(view: SeatView, seat: int, window: int) -> list[Step]:
    """Steps back from now for ``seat``, newest first, covering its last ``window`` plays."""
    n = view.players
    deck_size = view.options.deck_size
    initial_stock = deck_size - 3 * n
    draws_done = (initial_stock - view.stock_left) // n
    tricks = [[(s, c.code) for s, c in t.plays] for t in view.tricks]
    tricks.append([(s, c.code) for s, c in view.trick])
    winners = [t.winner for t in view.tricks]
    played_before = [0]
    for t in tricks:
        m = played_before[-1]
        for _, c in t:
            m |= 1 << c
        played_before.append(m)
    steps: list[Step] = []
    plays = 0
    assert view.upcard is not None  # 2 to 4 players: a stock and its upcard
    upcard = view.upcard.code
    for ti in range(len(tricks) - 1, -1, -1):
        if ti < len(tricks) - 1 and ti < draws_done:
            last_drawer = (winners[ti] + n - 1) % n
            last_round = view.stock_left == 0 and ti == draws_done - 1
            known = upcard if last_round and seat == last_drawer else -1
            steps.append(("draw", known))
        trick = tricks[ti]
        for k, (s, c) in enumerate(trick):
            if s != seat:
                continue
            mask = played_before[ti]
            for _, x in trick[:k]:
                mask |= 1 << x
            before = tuple(x for _, x in trick[:k])
            left = initial_stock - n * min(ti, draws_done)
            if n == 2 and left == 0:
                # The rules bot plays a known 2-player ending exactly: no rule to replay.
                steps.append(("held", c))
            else:
                steps.append(("play", Decision(c, before, trick[0][0], mask, left)))
            plays += 1
        if plays >= window:
            break
    return steps


def rules_likelihood(
    steps: list[Step],
    hand: list[int],
    seat: int,
    players: int,
    trump: int,
    *,
    eps: float,
    pick: Callable[[int], int] | None = None,
) -> float:
    """Probability that a rule-following seat (error rate ``eps``) made these plays.

    Which held card was the one drawn at each unknown draw is averaged over exactly; with
    ``pick`` (a chooser of an index below its argument) it is drawn at random instead, one
    path per call: an unbiased estimate at a small fraction of the cost.
    """

    def walk(i: int, held: list[int]) -> float:
        if i == len(steps):
            return 1.0
        kind, what = steps[i]
        if kind == "draw":
            assert isinstance(what, int)
            if what >= 0:
                if what not in held:
                    return 0.0
                return walk(i + 1, [c for c in held if c != what])
            if not held:
                return 0.0
            return sum(walk(i + 1, [c for c in held if c != d]) for d in held) / len(held)
        if kind == "held":
            assert isinstance(what, int)
            return walk(i + 1, [*held, what])
        assert isinstance(what, Decision)
        then = [*held, what.card]
        k = len(then)
        if k == 1:
            return walk(i + 1, then)
        choice = rule_pick(
            then, list(what.trick), what.leader, seat, players, trump, what.played, what.stock_left
        )
        p = eps / k + (1.0 - eps if choice == what.card else 0.0)
        return p * walk(i + 1, then)

    if pick is None:
        return walk(0, list(hand))
    held = list(hand)
    p = 1.0
    for kind, what in steps:
        if kind == "draw":
            assert isinstance(what, int)
            if what >= 0:
                if what not in held:
                    return 0.0
                held.remove(what)
            elif not held:
                return 0.0
            else:
                held.pop(pick(len(held)))
        elif kind == "held":
            assert isinstance(what, int)
            held.append(what)
        else:
            assert isinstance(what, Decision)
            held.append(what.card)
            k = len(held)
            if k > 1:
                choice = rule_pick(
                    held,
                    list(what.trick),
                    what.leader,
                    seat,
                    players,
                    trump,
                    what.played,
                    what.stock_left,
                )
                p *= eps / k + (1.0 - eps if choice == what.card else 0.0)
    return p


def random_likelihood(steps: list[Step], hand_size: int) -> float:
    """Probability that a uniformly random seat made these plays (same for every sample)."""
    size = hand_size
    p = 1.0
    for kind, _ in steps:
        if kind == "draw":
            size -= 1
        elif kind == "held":
            size += 1
        else:
            size += 1
            p /= size
    return p


class OpponentModel:
    """Weights determinizations of one view by how well they explain the others' plays.

    Opponents are one unknown type (rule follower or random player); a partner is taken to
    follow the rules. ``rules_share`` gives, per determinization, the chance that the opponents
    are rule followers, so that playouts can let them play at random otherwise.
    """

    def __init__(
        self,
        view: SeatView,
        window: int = 2,
        eps: float = 0.15,
        prior: float = 0.5,
        pick: Callable[[int], int] | None = None,
    ):
        self.view = view
        self.pick = pick
        self.eps = eps
        self.prior = prior
        assert view.trump is not None  # 2 to 4 players: the upcard's suit
        self.trump = int(view.trump)
        side = view.options.side_of(view.seat)
        others = [s for s in range(view.players) if s != view.seat]
        self.opponents = [s for s in others if view.options.side_of(s) != side]
        self.partners = [s for s in others if view.options.side_of(s) == side]
        self.steps = {s: history_steps(view, s, window) for s in others}
        self.uniform = 1.0
        for s in self.opponents:
            self.uniform *= random_likelihood(self.steps[s], view.hand_sizes[s])

    def _rules(self, h: FastHand, seats: list[int]) -> float:
        lr = 1.0
        for s in seats:
            if lr == 0.0:
                break
            lr *= rules_likelihood(
                self.steps[s], h.hands[s], s, h.n, self.trump, eps=self.eps, pick=self.pick
            )
        return lr

    def weigh(self, h: FastHand) -> tuple[float, float]:
        """(weight of the determinization, chance the opponents follow the rules in it)."""
        lp = self._rules(h, self.partners)
        if lp == 0.0:
            return 0.0, self.prior
        ruled = self.prior * self._rules(h, self.opponents)
        total = ruled + (1.0 - self.prior) * self.uniform
        return lp * total, (ruled / total if total > 0.0 else self.prior)

    def weight(self, h: FastHand) -> float:
        return self.weigh(h)[0]
