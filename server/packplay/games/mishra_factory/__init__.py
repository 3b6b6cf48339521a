"""Mishra's Factory (Modern Horizons 2): take cards off a conveyor belt, score color groups.

Options: ``shuffle`` (bool, default true: false keeps the given card order, booster 0
first, so its first four cards fill belt positions 0-3) and ``first_seat`` (int seat,
default drawn at random). Random draws, in order: boosters, deck shuffle, first seat.
"""

from packplay.games.mishra_factory.engine import MishraFactory
from packplay.games.mishra_factory.state import MishraFactoryState

__all__ = ["MishraFactory", "MishraFactoryState"]
