"""Carries other processes' moves to this process: one subscription to its own channel.

A commit sends its log entry to every other process in the game's watcher set, on
that process's channel (see :mod:`packplay.server.keys`). The entry is small (who did
what, and when); each receiving process applies it to its replica and renders the
update for its own connections. When the subscription breaks, entries may have been
lost, so every live table catches up from the game's log.

The same subscriber hears every tournament's notices (a pattern subscription): a
notice says only that a tournament changed, and the process's followers of it, if
any, are told what changed (see :mod:`packplay.server.tournament_feed`). After a
break every followed tournament is read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import ConnectionError as RedisConnectionError

from packplay.server import keys
from packplay.server.tables import Tables
from packplay.server.tournament_feed import TournamentFeeds

log = logging.getLogger(__name__)
SUBSCRIBE_TIMEOUT = 5.0
RECONNECT_DELAY = 0.5


class Fanout:
    """The process's single subscriber; start it with the app, stop it on shutdown."""

    def __init__(
        self, client: aioredis.Redis, process_id: str, tables: Tables, feeds: TournamentFeeds | None = None
    ) -> None:
        self._pubsub = client.pubsub()
        self._channel = keys.channel(process_id)
        self._tables = tables
        self._feeds = feeds
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self.received = 0

    async def start(self) -> None:
        """Subscribe; returns once Redis confirmed the subscription.

        Raises:
            TimeoutError: Redis did not confirm in time.
        """
        await self._pubsub.subscribe(self._channel)
        if self._feeds is not None:
            await self._pubsub.psubscribe(keys.tournament_news_pattern())
        self._task = asyncio.create_task(self._run(), name="packplay-fanout")
        await asyncio.wait_for(self._subscribed.wait(), SUBSCRIBE_TIMEOUT)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _run(self) -> None:
        while True:
            try:
                await self._listen()
            except (RedisConnectionError, OSError) as error:
                # redis-py subscribes again on the next read; entries sent meanwhile are
                # lost here, so every live table reads what it missed from the log.
                log.warning("pub/sub connection lost (%s)", error)
                await asyncio.sleep(RECONNECT_DELAY)
                self._subscribed.clear()
                asyncio.create_task(self._resync_when_subscribed())

    async def _resync_when_subscribed(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._subscribed.wait(), SUBSCRIBE_TIMEOUT * 4)
        if self._feeds is not None:
            self._feeds.resync_all()
        try:
            await self._tables.resync_all()
        except Exception:
            log.exception("catching up after a pub/sub outage failed")

    async def _listen(self) -> None:
        while True:
            message = await self._pubsub.get_message(timeout=1.0)
            if message is not None:
                self._handle(message)

    def _handle(self, message: dict[str, Any]) -> None:
        if message["type"] == "subscribe":
            self._subscribed.set()
        elif message["type"] == "pmessage" and self._feeds is not None:
            channel = bytes(message["channel"]).decode()
            self._feeds.changed(channel[len(keys.NEWS_PREFIX) :])
        elif message["type"] == "message":
            game_id, _, entry = bytes(message["data"]).partition(b" ")
            self.received += 1
            try:
                self._tables.receive(game_id.decode(), entry)
            except Exception:
                # One bad entry must not stop the fan-out: that game catches up on the next.
                log.exception("an entry for game %s could not be applied", game_id)
