"""Benchmark opponents: how a thoughtful beginner plays each game, from the printed rules.

Two styles per game, one module per game (each with ``greedy`` and ``thoughtful``
functions of the view message and a generator): ``greedy`` takes the action of best
immediate gain; ``thoughtful`` looks one ply further (the other side's best reply, or
the position its move leaves). Neither searches nor samples. They decide from the view
message alone (view, cards table, legal actions) and re-derive the rules they need, so
they are independent of the house bots and of the engines.

``GreedyOpponent(seed)`` and ``ThoughtfulOpponent(seed)`` play every game, picking the
game's module from ``view.game``; ``OPPONENTS[game][style]`` is the lookup by game.
"""

from __future__ import annotations

import random
from typing import Any

from packplay_clients.opponents import base_race, day_night, mishra_factory, wedding_planner
from packplay_clients.opponents.common import Decide, first_legal
from packplay_protocol.to_client import ViewMessage

STYLES = ("greedy", "thoughtful")
OPPONENTS: dict[str, dict[str, Decide]] = {
    module.__name__.rsplit(".", 1)[1]: {"greedy": module.greedy, "thoughtful": module.thoughtful}
    for module in (day_night, mishra_factory, wedding_planner, base_race)
}
"""Each game's deciding functions, by game name, then style."""


class Opponent:
    """Plays every game in one style; a game it does not know, with its first legal action."""

    style = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: ViewMessage) -> Any:
        decide = OPPONENTS.get(view.game, {}).get(self.style)
        return first_legal(view) if decide is None else decide(view, self.rng)


class GreedyOpponent(Opponent):
    """The action of best immediate gain, in every game."""

    style = "greedy"


class ThoughtfulOpponent(Opponent):
    """One ply further than greedy: the other side's best reply, or the position left."""

    style = "thoughtful"


__all__ = ["OPPONENTS", "STYLES", "GreedyOpponent", "Opponent", "ThoughtfulOpponent"]
