"""Arena games over a live server, on kept connections: each of ``parallel`` lanes holds one
WebSocket per seat and plays its games one after another on them, the first seat creating
each game (``create``) and the others taking their seats (``take_seat``), with no REST call
and no join; each seat is played by the SDK's ``play`` loop."""

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
from packplay_clients import GameConnection, connect, play
from packplay_clients.bots import Bot
from packplay_protocol.rest import create_game
from packplay_protocol.to_client import ViewMessage

IDLE_TIMEOUT = 60.0
"""With bots in every seat a game never waits this long; it guards against a stuck server."""


class Timed:
    """A bot with a stopwatch: counts its decisions and the time they take; passes events on."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0
        self.times: list[float] = []

    def choose(self, view: ViewMessage) -> Any:
        started = time.perf_counter()
        try:
            return self.bot.choose(view)
        finally:
            took = time.perf_counter() - started
            self.seconds += took
            self.times.append(took)
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
    budget: Budget | None,
    seeded: bool,
    encoding: str = "msgpack",
    connections: list[GameConnection] | None = None,
) -> tuple[list[SeatOutcome], int]:
    """Create one game on the server at ``url`` and play every seat; each seat's outcome
    and the game's number of actions. ``seeded`` sends the deal's seed (a sandbox server
    is needed for that). ``connections`` (one per seat) are kept for the next game; without
    them the game opens its own and closes them."""
    if connections is None:
        opened = [await connect(url, encoding=encoding) for _ in seating.bots]
        try:
            return await live_game(url, game, seating, factories, budget, seeded, encoding, opened)
        finally:
            await asyncio.gather(*(connection.close() for connection in opened))
    names = tuple(f"{name.rsplit(':', 1)[-1][:24]}-{seat}" for seat, name in enumerate(seating.bots))
    setup = create_game(game, len(names), seed=seating.seed if seeded else None)
    created = await connections[0].create(setup, names[0], seat=0)
    for seat in range(1, len(names)):
        await connections[seat].take_seat(created.game_id, names[seat], seat=seat)
    await asyncio.gather(*(connection.wait_for_start(IDLE_TIMEOUT) for connection in connections))
    bots = [Timed(factories[name](seating.bot_seed(seat), budget)) for seat, name in enumerate(seating.bots)]
    finished = await asyncio.gather(
        *(_seat(connection, bot) for connection, bot in zip(connections, bots, strict=True))
    )
    result, version = finished[0]
    decisions = [bot.decisions for bot in bots]
    seconds = [bot.seconds for bot in bots]
    times = [bot.times for bot in bots]
    return seat_outcomes(result, seating.bots, decisions, seconds, times), version


async def _seat(connection: GameConnection, bot: Timed) -> tuple[Any, int]:
    over = await play(connection, bot, idle_timeout=IDLE_TIMEOUT)
    return over.result, connection.version


async def run_live(
    url: str,
    game: str,
    seatings: list[Seating],
    factories: dict[str, BotFactory],
    budget: Budget | None,
    seeded: bool,
    parallel: int,
    done: Callable[[list[SeatOutcome], bool, int], None],
) -> None:
    """Play every seating, ``parallel`` games at a time (each lane on its kept connections);
    ``done`` hears of each game as it ends."""
    waiting = list(reversed(seatings))

    async def lane() -> None:
        connections: list[GameConnection] = []
        try:
            while waiting:
                seating = waiting.pop()
                while len(connections) < len(seating.bots):
                    connections.append(await connect(url, encoding="msgpack"))
                seats = connections[: len(seating.bots)]
                outcomes, steps = await live_game(
                    url, game, seating, factories, budget, seeded, connections=seats
                )
                done(outcomes, any(outcome.draw for outcome in outcomes), steps)
        finally:
            await asyncio.gather(*(connection.close() for connection in connections))

    await asyncio.gather(*(lane() for _ in range(max(min(parallel, len(seatings)), 1))))
