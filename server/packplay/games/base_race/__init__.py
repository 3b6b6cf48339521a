"""Base Race (Zendikar Rising): find the opponent's base camp first."""

from packplay.games.base_race.engine import BaseRace

__all__ = ["BaseRace"]
