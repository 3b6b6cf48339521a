"""The house's levels: named bots with a documented budget each, on one rating scale.

- ``easy``: the game's heuristics with one sampled world per decision, and one decision
  in four played at random among the legal actions (a beginner's slips).
- ``medium``: the game's heuristics at 16 sampled worlds, with the known mistakes of
  the reference fixed.
- ``hard``: search over hidden information (:mod:`.search`): the candidate actions are
  played out in sampled worlds with the rules' own engine, rollouts guided by the
  heuristics; at most 64 worlds and half a second per decision.
- ``strong``: the reference kept as it was first published (one-ply heuristics at 16
  sampled worlds), so that figures stay comparable between releases.

A level's budget is its own unless the caller gives one (``--budget``, or the server's
cap under a turn clock).
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.bots.search import Model, Search
from packplay.bots.strong import StrongBot
from packplay.rng import SEED_BITS, Rng
from packplay_clients.legal import random_fill
from packplay_protocol.to_client import ViewMessage

SLIP = 4
"""``easy`` plays one decision in this many at random."""
ROLLOUT_DEPTH = 200
"""Actions a rollout plays before the game's model judges the position (a model's own
``depth`` when it has one: a game too long to play out)."""


@dataclass(frozen=True)
class Level:
    """A named bot's own budget (how each plays: the module's docstring)."""

    name: str
    budget: Budget


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level("easy", Budget(samples=1)),
        Level("medium", Budget(samples=16)),
        Level("hard", Budget(samples=64, seconds=0.5)),
        Level("strong", Budget(samples=16)),
    )
}

_MODELS: dict[str, str] = {
    "day_night": "packplay.bots.day_night:DayNightModel",
    "mishra_factory": "packplay.bots.mishra_factory:MishraFactoryModel",
    "wedding_planner": "packplay.bots.wedding_planner:WeddingPlannerModel",
    "base_race": "packplay.bots.base_race_model:BaseRaceModel",
}
"""Each game's search model (its class is built with the bot's generator)."""


def _seeded(seed: int | None) -> int:
    return seed if seed is not None else secrets.randbits(SEED_BITS)


def model_for(game: str, rng: Rng) -> Model[Any] | None:
    """The search model of ``game``, or None when the game has none."""
    target = _MODELS.get(game)
    if target is None:
        return None
    module_name, _, name = target.partition(":")
    make: Callable[[Rng], Model[Any]] | None = getattr(import_module(module_name), name, None)
    return None if make is None else make(rng)


class SearchBot:
    """``hard``: search where the game has a model, the fixed heuristics elsewhere."""

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self.rng = Rng(_seeded(seed))
        self.budget = budget or LEVELS["hard"].budget
        self.fallback = StrongBot(self.rng.below(1 << SEED_BITS), self.budget, fixed=True)
        self.memory = Memory()
        self._game_id: str | None = None
        self._search: Search[Any] | None = None

    def observe(self, version: int, events: Any) -> None:
        self.fallback.observe(version, events)
        self.memory.add(version, events)

    def choose(self, view: ViewMessage) -> Any:
        if view.game_id != self._game_id:
            if self._game_id is not None:
                self.memory.clear()
            self._game_id = view.game_id
            model = model_for(view.game, self.rng)
            depth = getattr(model, "depth", ROLLOUT_DEPTH)
            self._search = None if model is None else Search(model, self.rng, self.budget, depth)
        if self._search is None:
            return self.fallback.choose(view)
        return self._search.choose(view, self.memory)


class EasyBot:
    """``easy``: the heuristics on one world, with a beginner's slips."""

    def __init__(self, seed: int | None = None, budget: Budget | None = None) -> None:
        self.rng = Rng(_seeded(seed))
        self.inner = StrongBot(self.rng.below(1 << SEED_BITS), budget or LEVELS["easy"].budget, fixed=True)

    def observe(self, version: int, events: Any) -> None:
        self.inner.observe(version, events)

    def choose(self, view: ViewMessage) -> Any:
        if self.rng.below(SLIP) == 0:
            legal = view.legal
            if legal.actions and (not legal.choices or self.rng.below(2) == 0):
                return self.rng.choice(legal.actions)
            if legal.choices:
                return random_fill(
                    self.rng.choice(legal.choices), random.Random(self.rng.below(1 << SEED_BITS))
                )
        return self.inner.choose(view)
