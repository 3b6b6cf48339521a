"""What one server process holds while it runs: its Redis clients, authority, fan-out, connections.

Draining: SIGTERM (sent by Kubernetes, Compose or a supervisor before a restart or a
scale-down) does not stop the process at once. Readiness fails first (``/v2/ready``
answers 503, so load balancers stop sending new connections) while the process serves
on; after ``drain_delay`` every WebSocket is closed with 1012 (service restart: resume
elsewhere), each once the action it has under way is committed and answered; then the
HTTP server stops (the signal is handed on to uvicorn) and the background loops end
between two passes. A second SIGTERM hands the signal on at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import signal
import threading
import time
from collections.abc import Callable
from types import FrameType
from typing import Any, Protocol

from packplay.server.collector import collector
from packplay.server.metrics import Metrics
from packplay.server.play.authority import Authority
from packplay.server.settings import Settings
from packplay.server.storage.embedded import EmbeddedRedis
from packplay.server.storage.errors import StorageUnavailable
from packplay.server.storage.fanout import Fanout
from packplay.server.storage.games import GameStore
from packplay.server.storage.requests import RequestStore
from packplay.server.storage.tournaments import TournamentStore
from packplay.server.tournaments.feed import TournamentFeeds
from packplay.server.tournaments.service import TournamentService
from packplay_protocol.errors import CloseCode
from packplay_protocol.limits import Limits

log = logging.getLogger(__name__)
DRAIN_TIMEOUT = 5.0
"""Seconds a draining process waits for its connections to be answered and closed, and a
stopping one for its background loops to finish the pass under way."""
PROCESS_HEADER = "packplay-process"
"""The response header naming the process that answered (its pub/sub channel name)."""
DRAIN_REASON = "the server is restarting: reconnect and resume"
IDLE_PINGS = 3
"""A connection silent for this many ping intervals is closed."""
QUIET_GAME_SECONDS = 5.0
"""A watched game without a move for this long has its version checked at each sweep of the
watchdog (one batched read for all such games)."""


class Stoppable(Protocol):
    last_frame: float
    """When the client last sent anything (``time.monotonic``)."""

    def stop(self, reason: str, code: CloseCode = CloseCode.SERVICE_RESTART) -> None: ...

    def drain(self, reason: str) -> None:
        """Close with 1012 once the request under way, if any, is answered; read nothing more."""
        ...

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
            action_burst=settings.action_burst,
            frames_per_second=settings.frames_per_second,
            frame_burst=settings.frame_burst,
            resumes_per_minute=settings.resumes_per_minute,
            catch_up_versions=settings.catch_up_versions,
            hello_timeout_seconds=settings.hello_timeout,
            ping_interval_seconds=settings.ping_interval,
        )
        self.process_id = secrets.token_hex(8)
        """This process's name among the server processes (its pub/sub channel)."""
        self.process_header = (PROCESS_HEADER.encode("ascii"), self.process_id.encode("ascii"))
        """Sent with every HTTP response and WebSocket handshake: which process answered."""
        self.connections: set[Stoppable] = set()
        self.accepting = False
        self.draining = False
        self._stopping = asyncio.Event()
        self._drain_task: asyncio.Task[None] | None = None
        self._embedded: EmbeddedRedis | None = None
        self._clock_task: asyncio.Task[None] | None = None
        self._watchdog_task: asyncio.Task[None] | None = None
        self._tournament_task: asyncio.Task[None] | None = None
        self.store: GameStore
        self.authority: Authority
        self.requests: RequestStore
        self.fanout: Fanout
        self.tournaments: TournamentService
        self.feeds: TournamentFeeds

    async def start(self) -> None:
        url = self.settings.redis_url
        if url is None:
            # Started from this (the loop's, main) thread: the server dies when its starting thread does.
            self._embedded = EmbeddedRedis().start()
            url = self._embedded.url
            log.info("started a private Redis-compatible server at %s", url)
        settings = self.settings
        self.store = GameStore.from_url(
            url,
            process_id=self.process_id,
            connections=settings.redis_connections,
            lanes=settings.redis_pipelines,
            timeout=settings.redis_timeout,
            replicas=settings.redis_replicas,
            replica_timeout=settings.redis_replica_timeout,
        )
        await self.store.prepare()
        pipeline = self.store.pipeline
        self.metrics.tallies.redis = lambda: (pipeline.round_trips, pipeline.commands)
        self.authority = Authority(self.store, settings)
        await self.authority.house.start()
        self.authority.moves.answered = self.metrics.action_answered
        self.metrics.watched_games.set_function(lambda: self.authority.games.watched)
        self.authority.count_limits(lambda limit: self.metrics.limited.labels(limit).inc())
        await asyncio.to_thread(self.authority.catalog)
        # The catalog is large and lives as long as the process: kept out of every later
        # collection, which would otherwise walk it again (pauses of tens of ms).
        collector.tune()
        self.metrics.time_gc()
        self.requests = RequestStore(self.store.pipeline)
        tournament_store = TournamentStore(self.store.pipeline)
        self.tournaments = TournamentService(
            tournament_store, self.authority, settings, self.process_id, announce=tournament_store.announce
        )
        self.feeds = TournamentFeeds(self.tournaments)
        feeds = self.feeds
        self.metrics.tallies.tournament_pushes = lambda: (feeds.pushes, feeds.push_seconds)
        self.fanout = Fanout(self.store, self.authority.games, self.feeds)
        await self.fanout.start()
        self._clock_task = asyncio.create_task(self._clocks(), name="packplay-clocks")
        self._watchdog_task = asyncio.create_task(self._watchdog(), name="packplay-idle-watchdog")
        self._tournament_task = asyncio.create_task(self._tournaments(), name="packplay-tournaments")
        self.accepting = True
        self._drain_on_sigterm()

    async def stop(self) -> None:
        self.metrics.stop_timing_gc()
        self.accepting = False
        self._stopping.set()
        if self._drain_task is not None and not self._drain_task.done():
            self._drain_task.cancel()
        for connection in list(self.connections):
            connection.stop("the server is stopping")
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(DRAIN_TIMEOUT):
                await asyncio.gather(*(c.stopped() for c in list(self.connections)))
        # The loops end between two passes: a turn clock or a tournament step being
        # written is finished, not cut short (each is one atomic script either way).
        tasks = [t for t in (self._clock_task, self._watchdog_task, self._tournament_task) if t is not None]
        if tasks:
            await asyncio.wait(tasks, timeout=DRAIN_TIMEOUT)
        for task in tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.tournaments.runner.stop()
        await self.authority.close()
        await self.feeds.stop()
        await self.fanout.stop()
        await self.store.close()
        if self._embedded is not None:
            await asyncio.to_thread(self._embedded.stop)

    async def drain(self) -> None:
        """Hand every connection over to the other processes, then return.

        Readiness fails at once; the connections keep playing for ``drain_delay`` while
        load balancers notice; then each closes with 1012 as soon as the action it has
        under way, if any, is committed and answered. A frame that arrives once the
        closing has begun is not read: the client sends its action again after its
        resume. Connections opened after that are closed the same way.
        """
        self.draining = True
        self.accepting = False
        delay = self.settings.drain_delay
        count = len(self.connections)
        log.info("draining: not ready from now on; closing %d connections in %.1f s", count, delay)
        await asyncio.sleep(delay)
        closed = 0
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(DRAIN_TIMEOUT):
                while self.connections:
                    batch = list(self.connections)
                    for connection in batch:
                        connection.drain(DRAIN_REASON)
                    await asyncio.gather(*(c.stopped() for c in batch))
                    closed += len(batch)
        log.info("drained: %d connections closed with 1012, %d left", closed, len(self.connections))

    def _drain_on_sigterm(self) -> None:
        """Take SIGTERM over from the HTTP server: drain first, then hand the signal on.

        Only where the HTTP server listens for it (uvicorn, in the main thread); an app
        run any other way (tests, another server) keeps its own signal handling.
        """
        if threading.current_thread() is not threading.main_thread():
            return
        server_handler = signal.getsignal(signal.SIGTERM)
        if not callable(server_handler):
            return
        loop = asyncio.get_running_loop()

        def on_sigterm(signum: int, frame: FrameType | None) -> None:
            if self.draining or self._stopping.is_set():
                server_handler(signum, frame)
                return
            self.draining = True
            self.accepting = False
            loop.call_soon_threadsafe(self._start_drain, lambda: server_handler(signum, frame))

        signal.signal(signal.SIGTERM, on_sigterm)

    def _start_drain(self, then: Callable[[], Any]) -> None:
        async def drain_then_stop() -> None:
            try:
                await self.drain()
            finally:
                then()

        self._drain_task = asyncio.create_task(drain_then_stop(), name="packplay-drain")

    async def _pause(self, seconds: float) -> bool:
        """Wait ``seconds``; False once the process is stopping (a loop then ends)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(seconds):
                await self._stopping.wait()
        return not self._stopping.is_set()

    async def ready(self) -> dict[str, bool]:
        try:
            redis_ok = await asyncio.wait_for(self.store.ping(), 1.0)
        except (StorageUnavailable, OSError, TimeoutError):
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
        while await self._pause(interval / 2):
            quiet_since = time.monotonic() - silence
            for connection in list(self.connections):
                if connection.last_frame < quiet_since:
                    connection.stop(f"idle: no message for {silence:.0f} s", CloseCode.NORMAL)
            if cold_after > 0:
                self.authority.games.cool(cold_after)
            await self._check_quiet_games()

    async def _check_quiet_games(self) -> None:
        """One pass of the quiet-game check; whatever fails, the watchdog goes on."""
        try:
            caught_up = await self.authority.games.check_quiet(QUIET_GAME_SECONDS)
        except (StorageUnavailable, OSError, TimeoutError) as error:
            log.warning("quiet games not checked: %s", error)
        except Exception:
            log.exception("quiet games not checked")
        else:
            if caught_up:
                log.info("%d quiet games caught up from Redis: pub/sub had dropped entries", caught_up)

    async def _clocks(self) -> None:
        """Any process may play a timed-out seat's default action; the version CAS makes it once."""
        while await self._pause(self.settings.clock_interval):
            try:
                played = await self.authority.clocks.expire()
                self.metrics.clock_timeouts.inc(played)
            except (StorageUnavailable, OSError) as error:
                log.warning("turn clocks skipped: %s", error)

    async def _tournaments(self) -> None:
        """Any process carries any running tournament forward; each step is written once."""
        while await self._pause(self.settings.tournament_interval):
            try:
                await self.tournaments.runner.tick()
            except (StorageUnavailable, OSError) as error:
                log.warning("tournaments skipped: %s", error)
            except Exception:
                log.exception("tournament runner failed; trying again next tick")
