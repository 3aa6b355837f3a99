"""AI players for empty seats: ``make_bot(level, seed)`` gives a bot that plays from a SeatView.

Levels: ``random``, ``rules`` (card counting and heuristics) and ``strong`` (determinized search
with rule-based playouts and an exact endgame). ``strong:N`` sets N samples per decision and
``strong:0.2s`` a time budget in seconds (faster or slower machines; not deterministic).
Not offered at a table, yardsticks for ``briscola-lan arena``: ``baseline``, the strong search
without its confidence rule, always playing its top score; ``solver``, the strong level that at
2 players solves each sampled deal (a few tricks ahead early in the hand) instead of playing it
out (``solver:N``: N deals). At five players (Briscola
chiamata) ``make_chiamata_bot(level, seed)`` gives a bot of the same levels that also bids and
calls (``ai.chiamata``).
"""

from __future__ import annotations

from briscola_lan.ai.bots import Bot, RandomBot, RuleBot, StrongBot
from briscola_lan.ai.chiamata import ChiamataBot
from briscola_lan.ai.infer import BotError
from briscola_lan.choices import AI_LEVELS as LEVELS


class UnknownLevel(ValueError):
    """A bot level name that does not exist."""


SOLVER_DEALS = 24  # the ``solver`` level's deals solved per decision (48 when unsure)


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of the given level (see ``LEVELS``), deterministic for ``seed``."""
    name, _, param = level.strip().lower().partition(":")
    if name == "random" and not param:
        return RandomBot(seed)
    if name == "rules" and not param:
        return RuleBot(seed)
    if name == "baseline" and not param:
        return StrongBot(
            seed,
            confidence=0.0,
            early_margin=0.0,
            own_rules=False,
            solve_deals=0,
            exact_tail=False,
            win_bonus=0.0,
        )
    if name == "solver":
        deals = SOLVER_DEALS
        if param:
            try:
                deals = int(param)
            except ValueError:
                deals = 0
            if deals < 1:
                raise UnknownLevel(f"unknown bot level {level!r}: solver:N needs N >= 1 deals")
        return StrongBot(seed, solve_deals=deals)
    if name == "strong":
        if not param:
            return StrongBot(seed)
        try:
            if param.endswith("s"):
                return StrongBot(seed, time_budget=float(param[:-1]))
            return StrongBot(seed, samples=int(param))
        except ValueError:
            pass
    raise UnknownLevel(
        f"unknown bot level {level!r}: use one of {', '.join(LEVELS)} "
        "(or strong:SAMPLES, strong:SECONDSs)"
    )


def make_chiamata_bot(level: str, seed: int = 0) -> ChiamataBot:
    """A five-player bot of the given level (the levels of ``make_bot`` but ``baseline`` and
    ``solver``)."""
    from briscola_lan.ai.chiamata import RandomChiamata, RuleChiamata
    from briscola_lan.ai.chiamata_search import StrongChiamata

    name, _, param = level.strip().lower().partition(":")
    if name == "random" and not param:
        return RandomChiamata(seed)
    if name == "rules" and not param:
        return RuleChiamata(seed)
    if name == "strong":
        if not param:
            return StrongChiamata(seed)
        try:
            if param.endswith("s"):
                return StrongChiamata(seed, time_budget=float(param[:-1]))
            return StrongChiamata(seed, samples=int(param))
        except ValueError:
            pass
    raise UnknownLevel(
        f"unknown bot level {level!r} at 5 players: use one of {', '.join(LEVELS)} "
        "(or strong:SAMPLES, strong:SECONDSs)"
    )


__all__ = [
    "LEVELS",
    "Bot",
    "BotError",
    "ChiamataBot",
    "RandomBot",
    "RuleBot",
    "StrongBot",
    "UnknownLevel",
    "make_bot",
    "make_chiamata_bot",
]
