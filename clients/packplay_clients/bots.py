"""Bots that play from the view alone, and the loop that plays a seat to the end.

A bot sees exactly what a person's client sees: the ``view`` message, whose
``legal`` lists what the seat may do. It needs no rules knowledge and cannot cheat.
A bot that also wants the events its seat is sent (what happened, not only what the
table looks like now) implements :class:`Observing` as well; :func:`play` then
passes it every update's events before it asks for the next decision.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, Protocol, runtime_checkable

from packplay_clients.connection import Answer, GameConnection
from packplay_clients.errors import PlayError
from packplay_clients.legal import first_fill, random_fill
from packplay_protocol.errors import RejectReason
from packplay_protocol.to_client import Events, GameOver, Rejected, ServerMessage, Update, ViewMessage

Observer = Callable[[Answer, float], None]
"""Called with each answer and its round trip in seconds (from sending ``act`` to the answer)."""
RETRY_REASONS = frozenset({RejectReason.STALE_VERSION, RejectReason.RATE_LIMITED, RejectReason.GAME_OVER})
"""Refusals a bot gets over by deciding again on the next view."""


class Bot(Protocol):
    """Decides one action from a view in which its seat has something to decide."""

    def choose(self, view: ViewMessage) -> Any: ...


@runtime_checkable
class Observing(Protocol):
    """A bot that also hears the events its seat is sent (optional, beside :class:`Bot`).

    ``observe(version, events)`` is called with the events that brought the seat's view
    to ``version``: an update's events, or a catch-up's (``events`` message) after a
    resume, in order and before ``choose`` is asked about that version. Events from
    before the bot started (a seat joined mid-game) are not replayed: a bot must be able
    to decide from the view alone, and may use the events to remember and to infer.
    Events name cards by id; their facts are in the view's ``cards`` table.
    """

    def observe(self, version: int, events: Sequence[Any]) -> None: ...


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
    think: Callable[[], float] | None = None,
) -> GameOver:
    """Act for the connection's seat whenever its view says it is pending, until the game is over.

    The connection must have joined. A bot that is :class:`Observing` hears every
    update's events from then on. ``think`` gives the seconds to wait before each
    decision (a person's thinking time). Returns the ``game_over`` message.

    Raises:
        PlayError: an action was refused for a reason deciding again cannot fix.
        ConnectionLost: the connection closed for good.
        TimeoutError: the game did not move for ``idle_timeout`` seconds.
    """
    if connection.view is None:
        raise ValueError("join a game before playing")
    stop = connection.listen(functools.partial(_tell, bot)) if isinstance(bot, Observing) else None
    try:
        while connection.game_over is None:
            view = connection.view
            if pending(view) and think is not None:
                await asyncio.sleep(think())
                if connection.game_over is not None or connection.view is not view:
                    continue  # the game moved on while thinking: decide on the new view
            if pending(view):
                answer = await _act(connection, bot, view, observe)
                if isinstance(answer, Rejected) and answer.reason is RejectReason.RATE_LIMITED:
                    await asyncio.sleep(_retry_delay(connection))
                    continue
            await connection.wait_until(functools.partial(_moved_on, connection, view), idle_timeout)
    finally:
        if stop is not None:
            stop()
    return connection.game_over


def _tell(bot: Observing, message: ServerMessage) -> None:
    if isinstance(message, Update):
        bot.observe(message.version, message.events)
    elif isinstance(message, Events):
        bot.observe(message.to_version, message.events)


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
