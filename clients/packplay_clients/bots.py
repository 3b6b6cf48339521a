"""Bots that play from the view alone, and the loop that plays a seat to the end.

A bot sees exactly what a person's client sees: the ``view`` message, whose
``legal`` lists what the seat may do. It needs no rules knowledge and cannot cheat.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from packplay_clients.connection import Answer, GameConnection
from packplay_clients.errors import PlayError
from packplay_clients.legal import first_fill, random_fill
from packplay_protocol.errors import RejectReason
from packplay_protocol.to_client import GameOver, Rejected, ViewMessage

Observer = Callable[[Answer, float], None]
"""Called with each answer and its round trip in seconds (from sending ``act`` to the answer)."""
RETRY_REASONS = frozenset({RejectReason.STALE_VERSION, RejectReason.RATE_LIMITED, RejectReason.GAME_OVER})
"""Refusals a bot gets over by deciding again on the next view."""


class Bot(Protocol):
    """Decides one action from a view in which its seat has something to decide."""

    def choose(self, view: ViewMessage) -> Any: ...


def pending(view: ViewMessage) -> bool:
    """Whether the view's seat is awaited and has something to decide."""
    return view.seat is not None and view.seat in view.pending and not view.legal.empty


class RandomBot:
    """Each concrete action and each choice equally likely; choices filled at random."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: ViewMessage) -> Any:
        legal = view.legal
        index = self.rng.randrange(len(legal.actions) + len(legal.choices))
        if index < len(legal.actions):
            return legal.actions[index]
        return random_fill(legal.choices[index - len(legal.actions)], self.rng)


class FirstBot:
    """Always the first legal action, else the first choice filled with its first options."""

    def choose(self, view: ViewMessage) -> Any:
        legal = view.legal
        return legal.actions[0] if legal.actions else first_fill(legal.choices[0])


BOTS: dict[str, Callable[[int | None], Bot]] = {
    "random": RandomBot,
    "first": lambda seed: FirstBot(),
}
"""Bots by name, each built from an optional seed."""


async def play(
    connection: GameConnection,
    bot: Bot,
    *,
    observe: Observer | None = None,
    idle_timeout: float | None = None,
) -> GameOver:
    """Act for the connection's seat whenever its view says it is pending, until the game is over.

    The connection must have joined. Returns the ``game_over`` message.

    Raises:
        PlayError: an action was refused for a reason deciding again cannot fix.
        ConnectionLost: the connection closed for good.
        TimeoutError: the game did not move for ``idle_timeout`` seconds.
    """
    if connection.view is None:
        raise ValueError("join a game before playing")
    while connection.game_over is None:
        view = connection.view
        if pending(view):
            answer = await _act(connection, bot, view, observe)
            if isinstance(answer, Rejected) and answer.reason is RejectReason.RATE_LIMITED:
                await asyncio.sleep(_retry_delay(connection))
                continue
        await connection.wait_until(functools.partial(_moved_on, connection, view), idle_timeout)
    return connection.game_over


async def _act(connection: GameConnection, bot: Bot, view: ViewMessage, observe: Observer | None) -> Answer:
    started = time.perf_counter()
    answer = await connection.act(bot.choose(view), version=view.version)
    if observe is not None:
        observe(answer, time.perf_counter() - started)
    if isinstance(answer, Rejected) and answer.reason not in RETRY_REASONS:
        raise PlayError(answer)
    return answer


def _moved_on(connection: GameConnection, view: ViewMessage) -> bool:
    current = connection.view
    return connection.game_over is not None or (current is not None and current.version > view.version)


def _retry_delay(connection: GameConnection) -> float:
    rate = connection.welcome.limits.actions_per_second if connection.welcome else 10.0
    return 1.0 / rate
