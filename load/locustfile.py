"""Tournament-style load: many tables at once, every seat played by RandomBot through the SDK.

Run a local server, then locust against it (loopback only; bound the users and the time):

    packplay serve --port 8000 &
    pip install -e '.[load]'
    locust -f load/locustfile.py --headless -u 8 -r 4 -t 60s --host http://127.0.0.1:8000

Options (after the locust ones): ``--packplay-game`` (default mishra_factory),
``--packplay-players`` (default 2), ``--packplay-encoding`` (json or msgpack),
``--packplay-wait`` (seconds a table's creator waits for others before it fills the
free seats with bots of its own; default 3).

Each locust user, per game: joins an open table of this run, or creates one and waits
for other users to join (then fills the seats still free itself), waits for the start,
and plays its seats to the end over WebSocket. Every action's round trip (``act`` sent
to ``accepted``/``rejected`` received) is a locust request of type ``WS``; refusals other
than the ordinary ones (stale version, rate limit) count as failures.

Locust runs users as gevent greenlets; the SDK is asyncio. One asyncio loop runs in a
greenlet of its own (on gevent's patched selector, so it yields to the users), and each
user hands it one table at a time and waits for the result cooperatively.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import secrets
import time
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

import gevent
import gevent.event
from locust import User, between, events, task
from locust.env import Environment

from packplay_clients import (
    Answer,
    ApiError,
    RandomBot,
    RestClient,
    connect,
    play,
)
from packplay_clients.bots import RETRY_REASONS
from packplay_protocol.errors import ErrorCode
from packplay_protocol.rest import SeatGrant
from packplay_protocol.to_client import Accepted

T = TypeVar("T")
RUN = secrets.token_hex(3)
"""Tags this run's players, so that users join only tables of this run."""
POLL_SECONDS = 0.2
_seeds = itertools.count()
logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request drowns locust's report


@events.init_command_line_parser.add_listener
def _options(parser: Any) -> None:
    parser.add_argument("--packplay-game", default="mishra_factory", help="the game every table plays")
    parser.add_argument("--packplay-players", type=int, default=2, help="seats per table")
    parser.add_argument("--packplay-encoding", choices=("json", "msgpack"), default="json")
    parser.add_argument("--packplay-wait", type=float, default=3.0, help="seconds to wait for other users")


class _AsyncioLoop:
    """The process's asyncio loop, run in a greenlet; users wait on it without blocking others."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.greenlet = gevent.spawn(self.loop.run_forever)

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        done = gevent.event.Event()
        future.add_done_callback(lambda _: done.set())
        try:
            done.wait()
        except BaseException:
            future.cancel()  # the user is stopping: so is its table
            raise
        return future.result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


LOOP = _AsyncioLoop()


@events.quitting.add_listener
def _stop(environment: Environment, **_: Any) -> None:
    LOOP.stop()


class Table:
    """One user's part in one game: its seats, from taking them to the end."""

    def __init__(self, user: TablePlayer) -> None:
        options = user.environment.parsed_options
        self.environment = user.environment
        self.host = user.host or "http://127.0.0.1:8000"
        self.game: str = getattr(options, "packplay_game", "mishra_factory")
        self.players: int = getattr(options, "packplay_players", 2)
        self.encoding: str = getattr(options, "packplay_encoding", "json")
        self.wait: float = getattr(options, "packplay_wait", 3.0)
        self.name = f"lc-{RUN}-{next(_seeds)}"

    async def play(self) -> None:
        async with RestClient(self.host) as lobby:
            grants = await self._timed("lobby", self._take_seats(lobby))
        await asyncio.gather(*(self._play_seat(grant) for grant in grants))

    async def _take_seats(self, lobby: RestClient) -> list[SeatGrant]:
        joined = await self._join_open_table(lobby)
        if joined is not None:
            if not await self._started(lobby, joined, 3 * self.wait):
                await lobby.leave_seat(joined.game_id, joined.token)
                raise TimeoutError("the table did not start")
            return [joined]
        created = await lobby.create_game(self.game, self.players)
        first = await lobby.join_seat(created.game_id, self.name)
        if await self._started(lobby, first, self.wait):
            return [first]
        return [first, *await self._fill(lobby, created.game_id)]

    async def _join_open_table(self, lobby: RestClient) -> SeatGrant | None:
        listed = await lobby.list_games(self.game)
        for table in listed.games:
            ours = any(s.name and s.name.startswith(f"lc-{RUN}-") for s in table.seats)
            if not ours or table.players != self.players:
                continue
            try:
                return await lobby.join_seat(table.game_id, self.name)
            except ApiError as error:
                if error.code not in (ErrorCode.GAME_FULL, ErrorCode.GAME_STARTED, ErrorCode.NOT_FOUND):
                    raise
        return None

    async def _fill(self, lobby: RestClient, game_id: str) -> list[SeatGrant]:
        """Take the seats nobody came for."""
        grants = []
        for _ in range(self.players - 1):
            try:
                grants.append(await lobby.join_seat(game_id, self.name))
            except ApiError as error:
                if error.code not in (ErrorCode.GAME_FULL, ErrorCode.GAME_STARTED):
                    raise
                break
        return grants

    async def _started(self, lobby: RestClient, grant: SeatGrant, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            snapshot = await lobby.snapshot(grant.game_id, grant.token)
            if snapshot.summary.status != "open":
                return True
            await asyncio.sleep(POLL_SECONDS)
        return False

    async def _play_seat(self, grant: SeatGrant) -> None:
        async with await connect(self.host, grant.token, self.encoding) as connection:
            await connection.join()
            await self._timed("game", play(connection, RandomBot(), observe=self._report, idle_timeout=30))

    async def _timed(self, name: str, step: Coroutine[Any, Any, T]) -> T:
        started = time.perf_counter()
        error: BaseException | None = None
        try:
            return await step
        except Exception as failure:
            error = failure
            raise
        finally:
            self._fire(name, time.perf_counter() - started, error)

    def _report(self, answer: Answer, seconds: float) -> None:
        if isinstance(answer, Accepted):
            self._fire("act", seconds, None)
            return
        failure = None if answer.reason in RETRY_REASONS else RuntimeError(answer.message)
        self._fire(f"act ({answer.reason.value})", seconds, failure)

    def _fire(self, name: str, seconds: float, error: BaseException | None) -> None:
        self.environment.events.request.fire(
            request_type="WS",
            name=f"{self.game} {name}",
            response_time=seconds * 1000,
            response_length=0,
            exception=error,
            context={},
        )


class TablePlayer(User):
    """A player who plays one table after another."""

    wait_time = between(0.05, 0.5)

    @task
    def play_a_table(self) -> None:
        LOOP.run(Table(self).play())
