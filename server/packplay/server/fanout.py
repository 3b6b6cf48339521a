"""Carries each new game version from Redis pub/sub to this process's connections.

One pub/sub connection per process, subscribed to the channel of each game that has
at least one local watcher. Each update is decoded once and rendered once per
audience, however many local connections share that audience; delivery never waits
on a connection (watchers only queue what they are given).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field
from typing import Any, Protocol

import msgspec
import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from packplay.games.base import Audience, Game
from packplay.games.registry import get_game
from packplay.server import keys, messages
from packplay.server.store import GameMeta, Update, update_decoder
from packplay_protocol.to_client import ServerMessage

log = logging.getLogger(__name__)
SUBSCRIBE_TIMEOUT = 5.0
RECONNECT_DELAY = 0.5


class Watcher(Protocol):
    def deliver(self, version: int, render: Rendered) -> None: ...

    def resync(self) -> None: ...


class Rendered:
    """One update's messages, built per audience on first use (then shared)."""

    def __init__(self, game: _Game, update: Update) -> None:
        self._game = game
        self.update = update
        self._state: Any = None
        self._cache: dict[Audience, list[ServerMessage]] = {}

    @property
    def version(self) -> int:
        return self.update.entry.version

    def __call__(self, audience: Audience) -> list[ServerMessage]:
        cached = self._cache.get(audience)
        if cached is None:
            cached = self._cache[audience] = self._render(audience)
        return cached

    def _fresh_state(self, engine: Game[Any]) -> Any:
        """The state this process committed for this version if it has it, else decoded."""
        fresh = self._game.fresh
        if fresh is not None and fresh[0] == self.version:
            return fresh[1]
        return messages.decode_state(engine, self.update.state)

    def _render(self, audience: Audience) -> list[ServerMessage]:
        meta, engine = self._game.meta, self._game.engine
        if meta is None or engine is None:
            raise RuntimeError("rendered before the game's meta was known")
        if self._state is None:
            self._state = self._fresh_state(engine)
        entry = self.update.entry
        out: list[ServerMessage] = [
            messages.events_message(meta, [entry], audience, entry.version - 1),
            messages.view_message(engine, meta, entry.version, self._state, audience),
        ]
        result = engine.result(self._state)
        if result is not None:
            out.append(messages.game_over(meta, result))
        return out


@dataclass
class _Game:
    watchers: set[Watcher] = field(default_factory=set)
    subscribed: asyncio.Event = field(default_factory=asyncio.Event)
    meta: GameMeta | None = None
    engine: Game[Any] | None = None
    fresh: tuple[int, Any] | None = None
    """The last version this process committed and its state, never mutated after the commit."""


class Fanout:
    """The process's single subscriber; start it with the app, stop it on shutdown."""

    def __init__(self, client: aioredis.Redis) -> None:
        self._client = client
        self._pubsub = client.pubsub()
        self._games: dict[str, _Game] = {}
        self._active = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="packplay-fanout")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]

    @property
    def games(self) -> int:
        return len(self._games)

    async def watch(self, game_id: str, watcher: Watcher) -> None:
        """Deliver the game's versions to ``watcher`` from now on (subscribed on return).

        Raises:
            TimeoutError: Redis did not confirm the subscription in time.
        """
        game = self._games.get(game_id)
        if game is None:
            game = self._games[game_id] = _Game()
            await self._pubsub.subscribe(keys.channel(game_id))
            self._active.set()
        game.watchers.add(watcher)
        await asyncio.wait_for(game.subscribed.wait(), SUBSCRIBE_TIMEOUT)

    def game_name(self, game_id: str) -> str:
        game = self._games.get(game_id)
        return game.meta.config.game if game is not None and game.meta is not None else "unknown"

    def committed(self, game_id: str, version: int, state: Any) -> None:
        game = self._games.get(game_id)
        if game is not None and state is not None:
            game.fresh = (version, state)

    def describe(self, meta: GameMeta) -> None:
        """What rendering needs besides the update (known once the watcher loaded the game)."""
        game = self._games.get(meta.id)
        if game is not None and game.meta is None:
            game.meta, game.engine = meta, get_game(meta.config.game)

    async def unwatch(self, game_id: str, watcher: Watcher) -> None:
        game = self._games.get(game_id)
        if game is None:
            return
        game.watchers.discard(watcher)
        if not game.watchers:
            del self._games[game_id]
            with contextlib.suppress(RedisConnectionError):
                await self._pubsub.unsubscribe(keys.channel(game_id))

    async def _run(self) -> None:
        while True:
            await self._active.wait()
            try:
                await self._listen()
            except (RedisConnectionError, OSError) as error:
                # redis-py reconnects and resubscribes on the next read; versions
                # published meanwhile are lost here, so every watcher catches up.
                log.warning("pub/sub connection lost (%s)", error)
                await asyncio.sleep(RECONNECT_DELAY)
                self._resync()

    async def _listen(self) -> None:
        while True:
            message = await self._pubsub.get_message(timeout=1.0)
            if message is not None:
                self._handle(message)

    def _handle(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode()
        game = self._games.get(keys.game_id_of_channel(channel))
        if game is None:
            return
        if message["type"] == "subscribe":
            game.subscribed.set()
        elif message["type"] == "message":
            try:
                update = update_decoder.decode(message["data"])
            except msgspec.DecodeError:
                # One bad publish must not stop the fan-out; watchers catch up on the next.
                log.exception("undecodable update on %s", channel)
                return
            self._dispatch(game, update)

    def _dispatch(self, game: _Game, update: Update) -> None:
        rendered = Rendered(game, update)
        for watcher in list(game.watchers):
            watcher.deliver(rendered.version, rendered)

    def _resync(self) -> None:
        for game in self._games.values():
            for watcher in list(game.watchers):
                watcher.resync()
