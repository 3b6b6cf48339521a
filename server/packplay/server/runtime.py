"""What one server process holds while it runs: its Redis clients, service, fan-out, connections."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import time
from typing import Protocol

from redis.exceptions import RedisError

from packplay.server.embedded_redis import EmbeddedRedis
from packplay.server.fanout import Fanout
from packplay.server.metrics import Metrics
from packplay.server.service import Service
from packplay.server.settings import Settings
from packplay.server.store import Store
from packplay.server.tournament_service import TournamentService
from packplay.server.tournament_store import TournamentStore
from packplay_protocol.errors import CloseCode
from packplay_protocol.limits import Limits

log = logging.getLogger(__name__)
DRAIN_TIMEOUT = 5.0
IDLE_PINGS = 3
"""A connection silent for this many ping intervals is closed."""


class Stoppable(Protocol):
    last_frame: float
    """When the client last sent anything (``time.monotonic``)."""

    def stop(self, reason: str, code: CloseCode = CloseCode.GOING_AWAY) -> None: ...

    async def stopped(self) -> None: ...


class Runtime:
    """Started by the app's lifespan; every request handler reaches it through ``app.state``."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.metrics = Metrics()
        self.limits = Limits(
            max_frame_bytes=settings.frame_limit,
            send_queue=settings.send_queue,
            actions_per_second=settings.actions_per_second,
            hello_timeout_seconds=settings.hello_timeout,
        )
        self.process_id = secrets.token_hex(8)
        """This process's name among the server processes (its pub/sub channel)."""
        self.connections: set[Stoppable] = set()
        self.accepting = False
        self._embedded: EmbeddedRedis | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._watchdog_task: asyncio.Task[None] | None = None
        self._tournament_task: asyncio.Task[None] | None = None
        self.store: Store
        self.service: Service
        self.fanout: Fanout
        self.tournaments: TournamentService

    async def start(self) -> None:
        url = self.settings.redis_url
        if url is None:
            # Started from this (the loop's, main) thread: the server dies when its starting thread does.
            self._embedded = EmbeddedRedis().start()
            url = self._embedded.url
            log.info("started a private Redis-compatible server at %s", url)
        settings = self.settings
        self.store = Store.from_url(
            url,
            process_id=self.process_id,
            connections=settings.redis_connections,
            lanes=settings.redis_pipelines,
            timeout=settings.redis_timeout,
            observe=self.metrics.batch_sent,
            replicas=settings.redis_replicas,
            replica_timeout=settings.redis_replica_timeout,
        )
        await self.store.prepare()
        self.service = Service(self.store, settings)
        await asyncio.to_thread(lambda: self.service.catalog)
        # The catalog is large and lives as long as the process: keep it out of every
        # later collection, which would otherwise walk it again (pauses of tens of ms).
        gc.freeze()
        self.fanout = Fanout(self.store, self.service.tables)
        await self.fanout.start()
        self._clock_task = asyncio.create_task(self._clocks(), name="packplay-clocks")
        self._watchdog_task = asyncio.create_task(self._watchdog(), name="packplay-idle-watchdog")
        self.tournaments = TournamentService(
            TournamentStore(self.store.pipeline), self.service, settings, self.process_id
        )
        self._tournament_task = asyncio.create_task(self._tournaments(), name="packplay-tournaments")
        self.accepting = True

    async def stop(self) -> None:
        self.accepting = False
        for connection in list(self.connections):
            connection.stop("the server is stopping")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(DRAIN_TIMEOUT):
                await asyncio.gather(*(c.stopped() for c in list(self.connections)))
        for task in (self._clock_task, self._watchdog_task, self._tournament_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        await self.tournaments.stop()
        await self.service.house.close()
        await self.fanout.stop()
        await self.store.close()
        if self._embedded is not None:
            await asyncio.to_thread(self._embedded.stop)

    async def ready(self) -> dict[str, bool]:
        try:
            redis_ok = await asyncio.wait_for(self.store.ping(), 1.0)
        except (RedisError, OSError, TimeoutError):
            redis_ok = False
        return {"redis": redis_ok, "accepting": self.accepting}

    async def _watchdog(self) -> None:
        """Close connections silent for longer than the limits allow, and let go of games
        without a move for a while (one sweep for all)."""
        interval = self.limits.ping_interval_seconds
        cold_after = self.settings.cold_after
        if cold_after > 0:
            interval = min(interval, cold_after)
        silence = self.limits.ping_interval_seconds * IDLE_PINGS
        while True:
            await asyncio.sleep(interval / 2)
            quiet_since = time.monotonic() - silence
            for connection in list(self.connections):
                if connection.last_frame < quiet_since:
                    connection.stop(f"idle: no message for {silence:.0f} s", CloseCode.NORMAL)
            if cold_after > 0:
                self.service.tables.cool(cold_after)

    async def _clocks(self) -> None:
        """Any process may play a timed-out seat's default action; the version CAS makes it once."""
        while True:
            await asyncio.sleep(self.settings.clock_interval)
            try:
                played = await self.service.expire_clocks()
                self.metrics.clock_timeouts.inc(played)
            except (RedisError, OSError) as error:
                log.warning("turn clocks skipped: %s", error)

    async def _tournaments(self) -> None:
        """Any process carries any running tournament forward; each step is written once."""
        while True:
            await asyncio.sleep(self.settings.tournament_interval)
            try:
                await self.tournaments.tick()
            except (RedisError, OSError) as error:
                log.warning("tournaments skipped: %s", error)
            except Exception:
                log.exception("tournament runner failed; trying again next tick")
