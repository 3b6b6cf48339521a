"""Carries other processes' moves to this process: its subscription to its own channels.

A commit sends its log entry to every other process in the game's watcher set, on that
process's channel in the game's shard (see :mod:`packplay.server.storage.keys`). Each process
subscribes to its channel in every shard: as sharded channels (SSUBSCRIBE) where Redis
has them (7.0 and later), else as plain ones. On a Redis Cluster a shard's channel lives
on the master of the shard's slot, so the process holds one subscription per master;
a sharded message travels to that node only, never across the whole cluster.

The entry is small (who did what, and when); each receiving process applies it to its
copy and renders the update for its own connections. When a subscription breaks, or
the cluster's slots move to other nodes (a failover), entries may have been lost: the
process subscribes again wherever the channels now live, then every live game catches
up from its log.

The first subscription also hears every tournament's notices (a pattern subscription to
plain channels, which every node of a cluster delivers): a notice says only that a
tournament changed, and the process's followers of it, if any, are told what changed
(see :mod:`packplay.server.tournaments.feed`). After a break every followed tournament
is read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.exceptions import RedisClusterException, RedisError

from packplay.server.storage import keys
from packplay.server.storage.games import GameStore

log = logging.getLogger(__name__)
SUBSCRIBE_TIMEOUT = 5.0
RECONNECT_DELAY = 0.5
TOPOLOGY_CHECK = 1.0
"""Seconds between two looks at a cluster's slot map (has a shard's channel moved?)."""


class GameListener(Protocol):
    """Where other processes' entries go (the process's local games)."""

    def receive(self, game_id: str, raw_entry: bytes) -> None:
        """Another process committed a version of a game this process watches."""

    async def resync_all(self) -> None:
        """Entries may have been lost: every watched game catches up from its log."""


class NewsListener(Protocol):
    """Where tournaments' notices go (the process's tournament feeds)."""

    def changed(self, tournament_id: str, notice: bytes) -> None:
        """A tournament changed (``notice`` may say what): its followers here are told what."""

    def resync_all(self) -> None:
        """Notices may have been lost: every followed tournament is read again."""


class Resubscribe(Exception):
    """The subscriptions must be made again (a channel moved, or was subscribed again unseen)."""


class Fanout:
    """The process's subscriber; start it with the app, stop it on shutdown."""

    def __init__(self, store: GameStore, games: GameListener, feeds: NewsListener | None = None) -> None:
        self._store = store
        self._channels = keys.channels(store.process_id)
        self._games = games
        self._feeds = feeds
        self._task: asyncio.Task[None] | None = None
        self._subscribed = asyncio.Event()
        self._pubsubs: list[tuple[PubSub, aioredis.Redis | None]] = []
        self.received = 0
        self.resubscribed = 0
        """Times the subscriptions were made again after a break."""

    @property
    def _sharded(self) -> bool:
        return self._store.sharded_pubsub

    async def start(self) -> None:
        """Subscribe; returns once Redis confirmed every subscription.

        Raises:
            TimeoutError: Redis did not confirm in time.
        """
        self._task = asyncio.create_task(self._run(), name="packplay-fanout")
        try:
            await asyncio.wait_for(self._subscribed.wait(), SUBSCRIBE_TIMEOUT)
        except TimeoutError:
            await self.stop()
            raise

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._close()

    async def _run(self) -> None:
        first = True
        while True:
            try:
                await self._session(catch_up=not first)
            except (RedisError, RedisClusterException, OSError, Resubscribe, TimeoutError) as error:
                # Entries sent meanwhile are lost here: once subscribed again, every live
                # table reads what it missed from the log.
                log.warning(
                    "pub/sub subscription lost (%s); subscribing again", error or type(error).__name__
                )
            except Exception:
                log.exception("the pub/sub subscriber failed; subscribing again")
            first = False
            self._subscribed.clear()
            await self._close()
            await asyncio.sleep(RECONNECT_DELAY)
            await self._refresh_slots()

    async def _session(self, catch_up: bool) -> None:
        owners = await self._subscribe()
        await self._follow_news()
        self._subscribed.set()
        if catch_up:
            self.resubscribed += 1
            asyncio.create_task(self._resync())
        readers = [asyncio.create_task(self._listen(pubsub)) for pubsub, _ in self._pubsubs]
        if owners is not None:
            readers.append(asyncio.create_task(self._watch_slots(owners)))
        try:
            done, _ = await asyncio.wait(readers, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                task.result()  # raises what ended it
        finally:
            for task in readers:
                task.cancel()
            await asyncio.gather(*readers, return_exceptions=True)

    async def _subscribe(self) -> dict[str, str] | None:
        """Subscribe to every channel; on a cluster, the node that took each one."""
        client = self._store.redis
        if not isinstance(client, RedisCluster):
            pubsub = client.pubsub()
            self._pubsubs.append((pubsub, None))
            if self._sharded:
                await pubsub.ssubscribe(*self._channels)
            else:
                await pubsub.subscribe(*self._channels)
            await self._confirmed(pubsub, len(self._channels))
            return None
        await client.initialize()
        owners: dict[str, str] = {}
        by_node: dict[str, list[str]] = {}
        for channel in self._channels:
            node = client.nodes_manager.get_node_from_slot(keys.slot(channel))
            owners[channel] = node.name
            by_node.setdefault(node.name, []).append(channel)
        for name, channels in by_node.items():
            found = client.get_node(node_name=name)
            assert found is not None
            pool = aioredis.ConnectionPool(
                connection_class=found.connection_class, max_connections=2, **found.connection_kwargs
            )
            connection = aioredis.Redis.from_pool(pool)
            pubsub = connection.pubsub()
            self._pubsubs.append((pubsub, connection))
            for channel in channels:  # one slot per SSUBSCRIBE on a cluster
                await pubsub.ssubscribe(channel)
            await self._confirmed(pubsub, len(channels))
        return owners

    async def _follow_news(self) -> None:
        if self._feeds is None or not self._pubsubs:
            return
        pubsub = self._pubsubs[0][0]
        await pubsub.psubscribe(keys.tournament_news_pattern())
        await self._confirmed(pubsub, 1)

    async def _confirmed(self, pubsub: PubSub, count: int) -> None:
        async with asyncio.timeout(SUBSCRIBE_TIMEOUT):
            while count > 0:
                message = await pubsub.get_message(timeout=1.0)
                if message is None:
                    continue
                if message["type"] in ("subscribe", "ssubscribe", "psubscribe"):
                    count -= 1
                else:
                    self._handle(message)

    async def _listen(self, pubsub: PubSub) -> None:
        while True:
            message = await pubsub.get_message(timeout=1.0)
            if message is not None:
                self._handle(message)

    async def _watch_slots(self, owners: dict[str, str]) -> None:
        client = self._store.redis
        assert isinstance(client, RedisCluster)
        while True:
            await asyncio.sleep(TOPOLOGY_CHECK)
            for channel, name in owners.items():
                node = client.nodes_manager.get_node_from_slot(keys.slot(channel))
                if node.name != name:
                    raise Resubscribe(f"{channel} moved from {name} to {node.name}")

    async def _refresh_slots(self) -> None:
        client = self._store.redis
        if isinstance(client, RedisCluster):
            with contextlib.suppress(RedisError, RedisClusterException, OSError):
                await client.nodes_manager.initialize()

    async def _resync(self) -> None:
        if self._feeds is not None:
            self._feeds.resync_all()
        try:
            await self._games.resync_all()
        except Exception:
            log.exception("catching up after a pub/sub outage failed")

    async def _close(self) -> None:
        pubsubs, self._pubsubs = self._pubsubs, []
        for pubsub, connection in pubsubs:
            with contextlib.suppress(Exception):
                await pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2 on
            if connection is not None:
                with contextlib.suppress(Exception):
                    await connection.aclose()

    def _handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind in ("message", "smessage"):
            game_id, _, entry = bytes(message["data"]).partition(b" ")
            self.received += 1
            try:
                self._games.receive(game_id.decode(), entry)
            except Exception:
                # One bad entry must not stop the fan-out: that game catches up on the next.
                log.exception("an entry for game %s could not be applied", game_id)
        elif kind == "pmessage" and self._feeds is not None:
            channel = bytes(message["channel"]).decode()
            self._feeds.changed(channel[len(keys.NEWS_PREFIX) :], bytes(message["data"]))
        elif kind in ("subscribe", "ssubscribe", "psubscribe"):
            # The client library subscribed again by itself after a break: entries were lost.
            raise Resubscribe("subscribed again after a break")
        elif kind in ("unsubscribe", "sunsubscribe", "punsubscribe"):
            raise Resubscribe("the server ended a subscription (its slot moved)")
