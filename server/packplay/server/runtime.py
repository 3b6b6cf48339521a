"""What one server process holds while it runs: its Redis clients, service, fan-out, connections."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from typing import Protocol

from redis.exceptions import RedisError

from packplay.server.embedded_redis import EmbeddedRedis
from packplay.server.fanout import Fanout
from packplay.server.metrics import Metrics
from packplay.server.service import Service
from packplay.server.settings import Settings
from packplay.server.store import Store
from packplay_protocol.limits import Limits

log = logging.getLogger(__name__)
DRAIN_TIMEOUT = 5.0


class Stoppable(Protocol):
    def stop(self, reason: str) -> None: ...

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
        )
        self.connections: set[Stoppable] = set()
        self.accepting = False
        self._embedded: EmbeddedRedis | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self.store: Store
        self.service: Service
        self.fanout: Fanout

    async def start(self) -> None:
        url = self.settings.redis_url
        if url is None:
            self._embedded = await asyncio.to_thread(EmbeddedRedis().start)
            url = self._embedded.url
            log.info("started a private Redis-compatible server at %s", url)
        self.store = Store.from_url(url, self.settings.redis_connections)
        await self.store.ping()
        self.service = Service(self.store, self.settings)
        await asyncio.to_thread(lambda: self.service.catalog)
        # The catalog is large and lives as long as the process: keep it out of every
        # later collection, which would otherwise walk it again (pauses of tens of ms).
        gc.freeze()
        self.fanout = Fanout(self.store.redis)
        self.service.committed = self.fanout.committed
        await self.fanout.start()
        self._clock_task = asyncio.create_task(self._clocks(), name="packplay-clocks")
        self.accepting = True

    async def stop(self) -> None:
        self.accepting = False
        for connection in list(self.connections):
            connection.stop("the server is stopping")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(DRAIN_TIMEOUT):
                await asyncio.gather(*(c.stopped() for c in list(self.connections)))
        if self._clock_task is not None:
            self._clock_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._clock_task
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

    async def _clocks(self) -> None:
        """Any process may play a timed-out seat's default action; the version CAS makes it once."""
        while True:
            await asyncio.sleep(self.settings.clock_interval)
            try:
                played = await self.service.expire_clocks()
                self.metrics.clock_timeouts.inc(played)
            except (RedisError, OSError) as error:
                log.warning("turn clocks skipped: %s", error)
