"""AI players for empty seats: ``make_bot(level, seed)`` gives a bot that plays from a SeatView.

Levels: ``random``, ``rules`` (card counting and heuristics) and ``strong`` (determinized search
with rule-based playouts and an exact endgame). ``strong:N`` sets N samples per decision and
``strong:0.2s`` a time budget in seconds (faster or slower machines; not deterministic).
``strong:NAME=VALUE+NAME=VALUE`` sets ``StrongBot``'s keyword arguments by name
(``strong:win_stock=20+exact_tail=0``): the variants docs/ai.md measures, from the command line.
Not offered at a table, yardsticks for ``briscola-lan arena``: ``baseline``, the strong search
without its confidence rule, always playing its top score; ``solver``, the strong level that at
2 players solves each sampled deal (a few tricks ahead early in the hand) instead of playing it
out (``solver:N``: N deals). At five players (Briscola
chiamata) ``make_chiamata_bot(level, seed)`` gives a bot of the same levels that also bids and
calls (``ai.chiamata``).
"""

from __future__ import annotations

import inspect
import math

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
        if "=" in param:
            try:
                return StrongBot(seed, **strong_knobs(level, param))  # type: ignore[arg-type]
            except UnknownLevel:
                raise
            except ValueError as exc:  # a value of the right type out of range
                raise UnknownLevel(f"unknown bot level {level!r}: {exc}") from None
        try:
            if param.endswith("s"):
                return StrongBot(seed, time_budget=float(param[:-1]))
            return StrongBot(seed, samples=int(param))
        except ValueError:
            pass
    raise UnknownLevel(
        f"unknown bot level {level!r}: use one of {', '.join(LEVELS)} "
        "(or strong:SAMPLES, strong:SECONDSs, strong:NAME=VALUE+NAME=VALUE)"
    )


# ``StrongBot``'s keyword arguments whose default is None, and the type a value given takes.
_OPTIONAL_KNOBS: dict[str, type] = {"samples": int, "time_budget": float, "exact_model": bool}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def strong_knobs(level: str, param: str) -> dict[str, object]:
    """``StrongBot``'s keyword arguments from ``NAME=VALUE+NAME=VALUE`` (``param`` of
    ``strong:...``), each value of its argument's type (a flag: 1/0, true/false, on/off);
    ``UnknownLevel`` names a knob that does not exist or a value that does not fit."""
    defaults = {
        p.name: p.default
        for p in inspect.signature(StrongBot).parameters.values()
        if p.kind is inspect.Parameter.KEYWORD_ONLY
    }
    knobs: dict[str, object] = {}
    for part in param.split("+"):
        key, eq, text = part.partition("=")
        key, text = key.strip(), text.strip()
        if not eq or key not in defaults:
            raise UnknownLevel(
                f"unknown bot level {level!r}: {key or part!r} is not a setting of the strong "
                f"level (one of {', '.join(sorted(defaults))})"
            )
        kind = _OPTIONAL_KNOBS.get(key) or type(defaults[key])
        try:
            if kind is bool:
                if text not in _TRUE + _FALSE:
                    raise ValueError(text)
                knobs[key] = text in _TRUE
            else:
                knobs[key] = kind(text)
                if kind is float and not math.isfinite(float(text)):
                    raise ValueError(text)
        except ValueError:
            want = "a flag (1 or 0)" if kind is bool else f"a finite number ({kind.__name__})"
            raise UnknownLevel(
                f"unknown bot level {level!r}: {key} takes {want}, not {text!r}"
            ) from None
    return knobs


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
