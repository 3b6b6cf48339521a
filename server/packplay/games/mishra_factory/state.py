"""The state of one Mishra's Factory game: deck, belt, collections, discards."""

from __future__ import annotations

import msgspec

from packplay.cards.model import CardInstance
from packplay.games.base import GameConfig, GameState
from packplay_protocol.games.mishra_factory import Group


class Collected(msgspec.Struct, kw_only=True):
    """A collected card and the group it was declared into (MF-1: it stays there)."""

    card: CardInstance
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
    deck: list[CardInstance]
    belt: list[CardInstance]
    collections: list[list[Collected]]
    discarded: list[CardInstance] = msgspec.field(default_factory=list)
    set_aside: list[CardInstance] = msgspec.field(default_factory=list)

    @property
    def over(self) -> bool:
        """MF-4: the game ends when the deck and the belt are both empty."""
        return not self.deck and not self.belt
