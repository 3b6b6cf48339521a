"""The arena: bots against bots, many games, win rates with confidence intervals.

Engine-only games run in-process (:mod:`.engine`): the pure engine behind a copy,
each seat sent its own wire messages by a :class:`~packplay.arena.feed.SeatFeed`.
Live games (:mod:`.live`) run over a server with the SDK. Seats and roles rotate as
:mod:`.seating` says; :mod:`.stats` keeps the score.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from typing import Any

from packplay.arena.engine import ArenaError, EngineTable
from packplay.arena.live import run_live
from packplay.arena.seating import Seating, lineup, seating
from packplay.arena.stats import BotTally, SeatOutcome, Standings, wilson
from packplay.bots.budget import Budget
from packplay.bots.registry import BotFactory, bot_factory

__all__ = ["ArenaError", "BotTally", "SeatOutcome", "Standings", "arena", "lineup", "seating", "wilson"]

Progress = Callable[[Standings], None]


def arena(
    game: str,
    bots: Sequence[str],
    games: int,
    players: int,
    seed: int,
    *,
    budget: Budget | None = None,
    catalog: Any = None,
    server: str | None = None,
    seeded: bool = True,
    parallel: int = 4,
    progress: Progress | None = None,
) -> Standings:
    """Play ``games`` games of ``game`` between ``bots`` (see :func:`lineup`) and tally them.

    Engine-only unless ``server`` (a base URL) is given; ``seeded`` sends each deal's
    seed to the server (which must then run as a sandbox). ``progress`` is called
    after every game.

    Raises:
        BotNameError: a bot name is neither built in nor importable.
        ArenaError: a bot played an action that was refused.
        ValueError: more bots than seats.
    """
    seats = lineup(bots, players)
    factories: dict[str, BotFactory] = {name: bot_factory(name) for name in dict.fromkeys(seats)}
    standings = Standings(game=game, players=players, lineup=tuple(dict.fromkeys(seats)))
    plan = [seating(index, seed, seats) for index in range(games)]
    started = time.perf_counter()

    def done(outcomes: list[SeatOutcome], draw: bool, steps: int) -> None:
        standings.seconds = time.perf_counter() - started
        standings.add(outcomes, draw, steps)
        if progress is not None:
            progress(standings)

    if server is None:
        _run_engine(game, plan, factories, budget, catalog, done)
    else:
        asyncio.run(run_live(server, game, plan, factories, budget, seeded, parallel, done))
    standings.seconds = time.perf_counter() - started
    return standings


def _run_engine(
    game: str,
    plan: list[Seating],
    factories: dict[str, BotFactory],
    budget: Budget | None,
    catalog: Any,
    done: Callable[[list[SeatOutcome], bool, int], None],
) -> None:
    if catalog is None:
        from packplay.bots.priors import packaged_catalog

        catalog = packaged_catalog()
    for planned in plan:
        table = EngineTable(game, planned, factories, budget, catalog)
        result, steps = table.play()
        done(table.outcomes(result), result.draw, steps)
