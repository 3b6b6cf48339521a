"""Arena games over a live server: each game created with every seat taken in one REST
call, each seat played over its own WebSocket by the SDK's ``play`` loop."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

from packplay.arena.engine import seat_outcomes
from packplay.arena.seating import Seating
from packplay.arena.stats import SeatOutcome
from packplay.bots.budget import Budget
from packplay.bots.registry import BotFactory
from packplay_clients import RestClient, connect, play
from packplay_clients.bots import Bot
from packplay_protocol.to_client import ViewMessage

IDLE_TIMEOUT = 60.0
"""With bots in every seat a game never waits this long; it guards against a stuck server."""


class Timed:
    """A bot with a stopwatch: counts its decisions and the time they take; passes events on."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0

    def choose(self, view: ViewMessage) -> Any:
        started = time.perf_counter()
        try:
            return self.bot.choose(view)
        finally:
            self.seconds += time.perf_counter() - started
            self.decisions += 1

    def observe(self, version: int, events: Any) -> None:
        observe = getattr(self.bot, "observe", None)
        if callable(observe):
            observe(version, events)


async def live_game(
    url: str,
    game: str,
    seating: Seating,
    factories: dict[str, BotFactory],
    budget: Budget,
    seeded: bool,
    encoding: str = "msgpack",
) -> tuple[list[SeatOutcome], int]:
    """Create one game on the server at ``url`` and play every seat; each seat's outcome
    and the game's number of actions. ``seeded`` sends the deal's seed (a sandbox server
    is needed for that)."""
    players = len(seating.bots)
    names = tuple(f"{name.rsplit(':', 1)[-1][:24]}-{seat}" for seat, name in enumerate(seating.bots))
    async with RestClient(url) as lobby:
        created = await lobby.create_game(game, players, seats=names, seed=seating.seed if seeded else None)
    grants = sorted(created.grants, key=lambda grant: grant.seat)
    bots = [Timed(factories[name](seating.bot_seed(seat), budget)) for seat, name in enumerate(seating.bots)]
    finished = await asyncio.gather(
        *(_seat(url, grant.token, bot, encoding) for grant, bot in zip(grants, bots, strict=True))
    )
    result, version = finished[0]
    decisions = [bot.decisions for bot in bots]
    seconds = [bot.seconds for bot in bots]
    return seat_outcomes(result, seating.bots, decisions, seconds), version


async def _seat(url: str, token: str, bot: Timed, encoding: str) -> tuple[Any, int]:
    async with await connect(url, token, encoding) as connection:
        await connection.join()
        over = await play(connection, bot, idle_timeout=IDLE_TIMEOUT)
        return over.result, connection.version


async def run_live(
    url: str,
    game: str,
    seatings: list[Seating],
    factories: dict[str, BotFactory],
    budget: Budget,
    seeded: bool,
    parallel: int,
    done: Callable[[list[SeatOutcome], bool, int], None],
) -> None:
    """Play every seating, ``parallel`` games at a time; ``done`` hears of each game as it ends."""
    gate = asyncio.Semaphore(max(parallel, 1))

    async def one(seating: Seating) -> None:
        async with gate:
            outcomes, steps = await live_game(url, game, seating, factories, budget, seeded)
        done(outcomes, any(outcome.draw for outcome in outcomes), steps)

    await asyncio.gather(*(one(seating) for seating in seatings))
