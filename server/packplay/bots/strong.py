"""The strong bot: one strategy per game, chosen from the view it is asked about.

It decides from what its seat may see only: the view message (the seat's view, its
card table and its legal actions) and the events it was sent (see ``observe``). It
imports the pure engines for their rules helpers and the card catalog for what a
hidden card may be, never the server: the import contracts forbid it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from packplay.bots.budget import Budget
from packplay.bots.memory import Memory
from packplay.rng import SEED_BITS, Rng
from packplay_clients.legal import first_fill
from packplay_protocol.to_client import ViewMessage


class Strategy(Protocol):
    """One game's way of deciding, for one seat of one game."""

    def choose(self, message: ViewMessage, memory: Memory) -> Any: ...


def _strategies() -> dict[str, Callable[..., Strategy]]:
    from packplay.bots.base_race import BaseRaceStrategy
    from packplay.bots.day_night import DayNightStrategy
    from packplay.bots.mishra_factory import MishraFactoryStrategy
    from packplay.bots.wedding_planner import WeddingPlannerStrategy

    return {
        "day_night": DayNightStrategy,
        "mishra_factory": MishraFactoryStrategy,
        "wedding_planner": WeddingPlannerStrategy,
        "base_race": BaseRaceStrategy,
    }


class StrongBot:
    """Plays every game with its game's strategy; a game it does not know, with its first
    legal action.

    ``seed`` makes it reproducible (its sampling uses its own generator, never the
    game's; without a seed it draws one); ``budget`` bounds each decision. ``fixed``
    plays with the known mistakes of the first published heuristics mended (the
    ``medium`` level, and the search's guide); without it, the heuristics as they were
    (``strong``, the fixed reference).
    """

    def __init__(self, seed: int | None = None, budget: Budget | None = None, *, fixed: bool = False) -> None:
        self.rng = Rng(seed if seed is not None else secrets.randbits(SEED_BITS))
        self.budget = budget or Budget()
        self.fixed = fixed
        self.memory = Memory()
        self._game_id: str | None = None
        self._strategy: Strategy | None = None

    def observe(self, version: int, events: Sequence[Any]) -> None:
        """Events that brought the seat's view to ``version`` (see :class:`packplay_clients.Observing`)."""
        self.memory.add(version, events)

    def choose(self, view: ViewMessage) -> Any:
        strategy = self._strategy_for(view)
        if strategy is None:
            legal = view.legal
            return legal.actions[0] if legal.actions else first_fill(legal.choices[0])
        return strategy.choose(view, self.memory)

    def _strategy_for(self, view: ViewMessage) -> Strategy | None:
        if view.game_id != self._game_id:
            if self._game_id is not None:
                self.memory.clear()
            self._game_id = view.game_id
            make = _strategies().get(view.game)
            self._strategy = None if make is None else make(self.rng, self.budget, fixed=self.fixed)
        return self._strategy
