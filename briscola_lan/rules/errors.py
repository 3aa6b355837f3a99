"""Errors a player or a table can meet in the rules engine."""

from __future__ import annotations


class RulesError(Exception):
    """Base for every rules violation; the state is unchanged when one is raised."""


class OptionsError(RulesError, ValueError):
    """A table option, or a combination of them, that the rules texts do not allow."""


class NotYourTurn(RulesError):
    """A seat tried to play out of turn."""


class IllegalPlay(RulesError):
    """A card that the seat does not hold, or a play in a finished hand."""


class MatchOver(RulesError):
    """A hand was started or recorded after the match was decided."""


class IllegalBid(RulesError):
    """A bid that does not top the last one, a bid or call out of its phase, a call not the
    caller's."""
