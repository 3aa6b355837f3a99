"""What a table can be set to, named once for every layer: the AI levels, the deal modes and the
deal a table takes unless its host chooses one, and the AI players' pace.

A leaf: it imports nothing, so that ``briscola-lan --help`` shows these choices without loading
the game. The bots, the host, the verifier, the clients and the command line take them from here.
"""

from __future__ import annotations

# The AI players' levels, weakest first (``briscola_lan.ai.make_bot``; a table seats only these:
# protocol/SPEC.md, set_ai_seat; a match-start names only these: protocol/fairness.md §8).
AI_LEVELS: tuple[str, ...] = ("random", "rules", "strong")

# The deal protocols (protocol/fairness.md §11 for the blind deal).
BLIND = "blind"
CLASSIC = "classic"
DEAL_MODES: tuple[str, ...] = (BLIND, CLASSIC)

# Seconds an AI player waits after the last card, so that people can follow (``--ai-delay``).
AI_PACE = 0.6


# The blind deal seats every table: 2 to 4 players, and five (Briscola chiamata).
BLIND_PLAYERS = (2, 3, 4, 5)


def default_deal(people: int, players: int = 2) -> str:
    """The deal a table uses unless its host says: blind with two or more people, else classic
    (at every table size, five players included)."""
    return BLIND if people >= 2 and players in BLIND_PLAYERS else CLASSIC


__all__ = [
    "AI_LEVELS",
    "AI_PACE",
    "BLIND",
    "BLIND_PLAYERS",
    "CLASSIC",
    "DEAL_MODES",
    "default_deal",
]
