"""Game name -> rules engine. Engines are imported on first use."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from packplay.games.base import Game, RuleError

_ENGINES: dict[str, str] = {
    "day_night": "packplay.games.day_night:DayNight",
    "mishra_factory": "packplay.games.mishra_factory:MishraFactory",
    "wedding_planner": "packplay.games.wedding_planner:WeddingPlanner",
    "base_race": "packplay.games.base_race:BaseRace",
}
_loaded: dict[str, Game[Any]] = {}

GAME_NAMES: tuple[str, ...] = tuple(_ENGINES)


def get_game(name: str) -> Game[Any]:
    """The engine for ``name``.

    Raises:
        RuleError: no game has that name (reason ``bad_config``).
    """
    engine = _loaded.get(name)
    if engine is None:
        target = _ENGINES.get(name)
        if target is None:
            raise RuleError("game", f"unknown game {name!r}; known: {', '.join(GAME_NAMES)}", "bad_config")
        module_name, class_name = target.split(":")
        engine = getattr(import_module(module_name), class_name)()
        _loaded[name] = engine
    return engine
