"""What the terminal client starts with: the ``play`` command's options and the hooks the network
layer plugs in (``ClientConfig``), and the live list of tables it shows (``LobbySource``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from briscola_lan.choices import AI_PACE
from briscola_lan.tui.deck import Deck
from briscola_lan.tui.follow import TRICK_PAUSE, HandOrder
from briscola_lan.tui.state import HostForm, LobbyEntry

if TYPE_CHECKING:
    from briscola_lan.tui.backend import TableBackend


# A play key acts only on a card the player has seen (seconds): pressed this soon after a
# trick's pause ran out it was meant for the trick, and this soon after the card under the
# cursor changed by itself (a card drawn, a new hand, the card just played gone) it was pressed
# before the player could see what it would play.
SETTLE = 0.6

# The terminal's bell rings when a move falls to the player (a card to play, a bid, the suit to
# call) after at least this many seconds in which none did: the others (people) took their
# time, or the table waited for players. A practice game's AI players answer sooner.
BELL_AFTER = 6.0


class LobbySource(Protocol):
    """Live list of tables on the network (discovery), pushed to a callback."""

    async def start(self, on_update: Callable[[list[LobbyEntry]], None]) -> None: ...

    async def close(self) -> None: ...


@dataclass(slots=True)
class ClientConfig:
    """Options of the ``play`` command that the app needs."""

    name: str = "Player"
    ascii_only: bool = False
    ai_level: str = "rules"
    ai_delay: float = AI_PACE
    trick_pause: float = TRICK_PAUSE  # seconds a completed trick stays on show (0: none)
    settle: float = SETTLE  # seconds a card stays under the cursor before a key may play it
    hide_points: bool = False  # the running point count hidden (``p`` shows it again)
    bell: bool = True  # ring when a move falls to the player after a wait (``--no-bell``: never)
    bell_after: float = BELL_AFTER
    deck: Deck = Deck.FRENCH
    hand_order: HandOrder = HandOrder.SORTED
    interfaces: list[str] | None = None
    games: Path | None = None
    # Hooks the network layer plugs in: host a table / join a lobby entry.
    host_factory: Callable[[HostForm, ClientConfig, bool], TableBackend] | None = None
    join_factory: Callable[[LobbyEntry, ClientConfig], TableBackend] | None = None
    # The unfinished matches of the tables this client hosted (``net.kept.KeptTable``, read in
    # a thread), and continuing one.
    kept_source: Callable[[], list[Any]] | None = None
    continue_factory: Callable[[Any, ClientConfig], TableBackend] | None = None
    lobby_source: LobbySource | None = None
    # The player's signing identity (``fairness.identity.Identity``); None: the saved one.
    identity: Any = None
    # A table to open at once (``briscola-lan join``) instead of starting on the lobby.
    initial_table: Callable[[ClientConfig], TableBackend] | None = None


__all__ = ["BELL_AFTER", "SETTLE", "ClientConfig", "LobbySource"]
