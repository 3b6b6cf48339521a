"""The state of one Mishra's Factory game: deck, belt, collections, discards.

Every zone holds card ids; the facts of each card are in ``cards`` (filled at setup).
"""

from __future__ import annotations

import msgspec

from packplay.games.base import GameConfig, GameState
from packplay_protocol.games.mishra_factory import Group


class Collected(msgspec.Struct, kw_only=True, array_like=True):
    """A collected card's id and the group it was declared into (MF-1: it stays there).

    Stored as a pair, ``[card, group]``: collections are most of the state.
    """

    card: str
    group: Group


class MishraFactoryState(GameState, kw_only=True):
    """Everything about a game. ``deck`` is top first; ``belt`` is in position order.

    ``turn`` is the seat to play; ``turn_number`` counts the takes so far.
    """

    config: GameConfig
    seed: int
    players: int
    first_seat: int
    turn: int
    turn_number: int = 0
    deck: list[str]
    belt: list[str]
    collections: list[list[Collected]]
    discarded: list[str] = msgspec.field(default_factory=list)
    set_aside: list[str] = msgspec.field(default_factory=list)

    @property
    def over(self) -> bool:
        """MF-4: the game ends when the deck and the belt are both empty."""
        return not self.deck and not self.belt
