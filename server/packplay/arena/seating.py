"""Who sits where in each arena game, which seed it deals, and who acts first.

Games come in deals of ``players`` games: every game of a deal uses the same seed
(the same boosters, the same drawn roles and first player) with the lineup rotated
one seat further, so each bot plays each seat of every deal once: luck of the deal
cancels out between the bots. Who acts first when several seats may act at once
(both Base Race layouts, whose first committer moves first; both Day vs Night rows)
turns with the deal, independently of the rotation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from packplay.rng import SEED_BITS

SEED_MASK = (1 << SEED_BITS) - 1


def lineup(names: Sequence[str], players: int) -> tuple[str, ...]:
    """The bot of each seat before rotation: the names in order; with fewer names than
    seats, the first bot takes one seat and the others fill the rest in turn
    (``strong,random`` at 4 players is one strong bot against three random ones).

    Raises:
        ValueError: no name, or more names than seats.
    """
    if not names:
        raise ValueError("name at least one bot")
    if len(names) > players:
        raise ValueError(f"{len(names)} bots for {players} seats")
    others = list(names[1:]) or [names[0]]
    return (names[0], *(others[i % len(others)] for i in range(players - 1)))


@dataclass(frozen=True)
class Seating:
    """One game of an arena run."""

    index: int
    seed: int
    bots: tuple[str, ...]
    """The bot name of each seat."""
    first: int
    """The seat asked first when several may act."""

    def bot_seed(self, seat: int) -> int:
        """A seed of its own for the bot in ``seat`` (its sampling never uses the game's)."""
        return (self.seed * 7919 + self.index * 31 + seat) & SEED_MASK

    def order(self, pending: Sequence[int]) -> int:
        """The pending seat to ask now: the first one from ``first`` on, in seat order."""
        players = len(self.bots)
        return min(pending, key=lambda seat: (seat - self.first) % players)


def seating(index: int, base_seed: int, seats: Sequence[str]) -> Seating:
    """Game ``index`` of a run from ``base_seed`` with the unrotated ``seats``."""
    players = len(seats)
    deal, turn = divmod(index, players)
    rotated = tuple(seats[(seat - turn) % players] for seat in range(players))
    return Seating(index=index, seed=(base_seed + deal) & SEED_MASK, bots=rotated, first=deal % players)
