"""Load tests of Packplay with locust: casual tables, a Swiss tournament, a reconnect storm.

Run against any running server (loopback only; every scenario stops by itself, and ``-t``
bounds it too):

    pip install -e '.[load]'
    packplay serve --port 8000 &
    # a steady mix of casual games of all four types, 32 players, 4 tables each:
    locust -f load/locustfile.py --headless -u 32 -r 32 -t 5m --host http://127.0.0.1:8000 \\
        --packplay-scenario casual --packplay-tables 4
    # a 256-player Swiss event of one game type (one more user per spectator):
    locust -f load/locustfile.py --headless -u 264 -r 64 -t 30m --host http://127.0.0.1:8000 \\
        --packplay-scenario swiss --packplay-game day_night --packplay-spectators 8
    # a reconnect storm: every client drops its socket at once and resumes:
    locust -f load/locustfile.py --headless -u 64 -r 64 -t 5m --host http://127.0.0.1:8000 \\
        --packplay-scenario reconnect --packplay-storm-after 10

Options (after locust's own): ``--packplay-scenario`` casual (default), swiss or reconnect;
``--packplay-game`` a game or ``mix`` (casual and reconnect default: mix; swiss: day_night);
``--packplay-players`` seats per casual table and players per tournament table (default 2);
``--packplay-think MIN,MAX`` seconds of thinking before each decision (default 0.3,1.5; 0 for
stress); ``--packplay-reconnect P`` the chance that a player drops its socket during a game
and resumes (default 0.05); ``--packplay-tables N`` casual tables per user (default 0: until
``-t``); ``--packplay-rounds`` (default: log2 of the entrants), ``--packplay-spectators N``
(users watching tables instead of playing), ``--packplay-turn-seconds`` (default 30),
``--packplay-tournament ID`` with ``--packplay-organizer TOKEN`` (join an event created
beforehand, e.g. with ``packplay tournament create``, instead of creating one);
``--packplay-storm-after S`` (default 5); ``--packplay-encoding`` json or msgpack.

Locust reports each action's round trip (``act``), each game, and these measures of its
own, as requests of type ``METRIC``: ``move to every seat`` (from an action sent to the
update reaching every seat of its table), ``round turnover`` (from the last game of a round
to every player of the next seated), ``round seated (watcher)`` (the same as a watcher
hears it from the server: from the round's last result to every table of the next one
with its game), ``resume`` (from a dropped socket to the seat's view
back), ``spectate`` (one watched game). Refusals other than the ordinary ones (stale
version, rate limit) and every error are failures: locust then exits with 1.

Locust runs users as gevent greenlets; the SDK is asyncio. One asyncio loop (uvloop) runs
in an OS thread of its own, and each user hands it its work and waits for the result
cooperatively (woken through the gevent hub's thread-safe watcher).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import random
import secrets
import time
from collections import defaultdict
from collections.abc import Callable, Coroutine, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

import gevent
import gevent.event
import gevent.monkey
import uvloop
from locust import User, between, events, task
from locust.env import Environment
from locust.exception import StopUser

from packplay_clients import (
    Answer,
    ApiError,
    GameConnection,
    RandomBot,
    RestClient,
    Servers,
    TournamentFeed,
    Transport,
    connect,
    connect_websocket,
    play,
    play_tournament,
)
from packplay_clients.bots import RETRY_REASONS
from packplay_protocol.errors import ErrorCode
from packplay_protocol.rest import SeatGrant
from packplay_protocol.to_client import Accepted, GameOver, TournamentRound, Update
from packplay_protocol.tournaments import MyTable

T = TypeVar("T")
RUN = secrets.token_hex(3)
"""Tags this run's players, so that users join only tables of this run."""
GAMES = ("day_night", "mishra_factory", "wedding_planner", "base_race")
POLL_SECONDS = 0.2
IDLE_TIMEOUT = 120.0
REGISTRATION_QUIET = 20.0
"""Seconds without a registration after which the event starts with those registered."""
_seeds = itertools.count()
_users = itertools.count()
logging.getLogger("httpx").setLevel(logging.WARNING)  # one line per request drowns locust's report


@events.init_command_line_parser.add_listener
def _options(parser: Any) -> None:
    parser.add_argument("--packplay-scenario", choices=("casual", "swiss", "reconnect"), default="casual")
    parser.add_argument("--packplay-game", default="", help="a game, or mix (casual, reconnect)")
    parser.add_argument("--packplay-players", type=int, default=2, help="seats per table")
    parser.add_argument("--packplay-encoding", choices=("json", "msgpack"), default="json")
    parser.add_argument("--packplay-wait", type=float, default=3.0, help="seconds to wait for other users")
    parser.add_argument("--packplay-think", default="0.3,1.5", help="MIN,MAX seconds before each decision")
    parser.add_argument("--packplay-reconnect", type=float, default=0.05, help="chance of a drop per game")
    parser.add_argument("--packplay-tables", type=int, default=0, help="casual tables per user (0: until -t)")
    parser.add_argument("--packplay-rounds", type=int, default=0, help="Swiss rounds (0: log2 of entrants)")
    parser.add_argument("--packplay-spectators", type=int, default=0, help="users who watch tables")
    parser.add_argument("--packplay-turn-seconds", type=float, default=30.0)
    parser.add_argument("--packplay-tournament", default="", help="play this tournament instead of a new one")
    parser.add_argument("--packplay-organizer", default="", help="its organizer token, to start it")
    parser.add_argument("--packplay-storm-after", type=float, default=5.0, help="seconds before the storm")


class _AsyncioLoop:
    """The process's asyncio loop (uvloop), run in an OS thread of its own; users wait on it
    without blocking one another.

    Not in a greenlet on gevent's selector: with hundreds of sockets opened and closed,
    a socket given the number of a closed one could miss its events there, and users
    waited forever. Here the loop owns its sockets (libuv) and each user is woken through
    the gevent hub's thread-safe watcher.
    """

    def __init__(self) -> None:
        self.loop = uvloop.new_event_loop()
        start_thread = gevent.monkey.get_original("_thread", "start_new_thread")
        start_thread(self.loop.run_forever, ())

    def run(self, coroutine: Coroutine[Any, Any, T]) -> T:
        future: Future[T] = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        done = gevent.event.Event()
        wake = gevent.get_hub().loop.async_()
        wake.start(done.set)
        future.add_done_callback(lambda _: wake.send())
        try:
            done.wait()
        except BaseException:
            future.cancel()  # the user is stopping: so is its work
            raise
        finally:
            wake.close()
        return future.result()

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


LOOP = _AsyncioLoop()


class Options:
    """The run's options, read once."""

    def __init__(self, environment: Environment) -> None:
        parsed = environment.parsed_options
        self.scenario: str = getattr(parsed, "packplay_scenario", "casual")
        game = getattr(parsed, "packplay_game", "")
        self.games: tuple[str, ...] = (
            (game,) if game and game != "mix" else GAMES if self.scenario != "swiss" else ("day_night",)
        )
        self.players: int = getattr(parsed, "packplay_players", 2)
        self.encoding: str = getattr(parsed, "packplay_encoding", "json")
        self.wait: float = getattr(parsed, "packplay_wait", 3.0)
        low, _, high = str(getattr(parsed, "packplay_think", "0")).partition(",")
        self.think = (float(low or 0), float(high or low or 0))
        self.reconnect: float = getattr(parsed, "packplay_reconnect", 0.0)
        self.tables: int = getattr(parsed, "packplay_tables", 0)
        self.rounds: int = getattr(parsed, "packplay_rounds", 0)
        self.spectators: int = getattr(parsed, "packplay_spectators", 0)
        self.turn_seconds: float = getattr(parsed, "packplay_turn_seconds", 30.0)
        self.tournament: str = getattr(parsed, "packplay_tournament", "")
        self.organizer: str = getattr(parsed, "packplay_organizer", "")
        self.storm_after: float = getattr(parsed, "packplay_storm_after", 5.0)
        self.users: int = getattr(parsed, "num_users", 0) or 1

    def thinking(self) -> Callable[[], float] | None:
        low, high = self.think
        return None if high <= 0 else (lambda: random.uniform(low, high))


# measures


def fire(environment: Environment, kind: str, name: str, seconds: float, error: BaseException | None) -> None:
    environment.events.request.fire(
        request_type=kind,
        name=name,
        response_time=seconds * 1000,
        response_length=0,
        exception=error,
        context={},
    )


class Moves:
    """Move-to-every-seat latency: from an action sent to the update reaching every seat."""

    def __init__(self) -> None:
        self.seats: dict[str, int] = {}
        self.sent: dict[tuple[str, int], float] = {}
        self.seen: defaultdict[tuple[str, int], list[float]] = defaultdict(list)
        self.environment: Environment | None = None

    def table(self, game_id: str, seats: int) -> None:
        self.seats[game_id] = seats

    def acted(self, game_id: str, version: int, sent: float) -> None:
        self.sent[(game_id, version)] = sent
        self._complete((game_id, version))

    def received(self, game_id: str, version: int) -> None:
        self.seen[(game_id, version)].append(time.perf_counter())
        self._complete((game_id, version))

    def over(self, game_id: str) -> None:
        for store in (self.sent, self.seen):
            for key in [k for k in store if k[0] == game_id]:
                del store[key]
        self.seats.pop(game_id, None)

    def _complete(self, key: tuple[str, int]) -> None:
        seats = self.seats.get(key[0])
        seen = self.seen.get(key)
        if seats is None or seen is None or len(seen) < seats or key not in self.sent:
            return
        if self.environment is not None:
            fire(self.environment, "METRIC", "move to every seat", max(seen) - self.sent.pop(key), None)
        del self.seen[key]


MOVES = Moves()


async def follow(connection: GameConnection, game_id: str) -> None:
    """Timestamp every update this seat receives (for the move-to-every-seat latency)."""
    async for message in connection.messages():
        if isinstance(message, Update) and message.game_id == game_id:
            MOVES.received(game_id, message.version)


def observer(environment: Environment, game: str, connection: Callable[[], GameConnection | None]) -> Any:
    def report(answer: Answer, seconds: float) -> None:
        if isinstance(answer, Accepted):
            fire(environment, "WS", f"{game} act", seconds, None)
            held = connection()
            if held is not None and held.game_id is not None:
                MOVES.acted(held.game_id, answer.version, time.perf_counter() - seconds)
            return
        failure = None if answer.reason in RETRY_REASONS else RuntimeError(answer.message)
        fire(environment, "WS", f"{game} act ({answer.reason.value})", seconds, failure)

    return report


class Drops:
    """Sockets to drop: one now and then (a flaky network), or every one at once (the storm)."""

    def __init__(self) -> None:
        self.live: dict[GameConnection, Callable[[], Transport | None]] = {}

    def keep(self, connection: GameConnection, transport: Callable[[], Transport | None]) -> None:
        self.live[connection] = transport

    def forget(self, connection: GameConnection) -> None:
        self.live.pop(connection, None)

    def drop(self, environment: Environment, connection: GameConnection) -> bool:
        """Abort the connection's socket (no close frame, as a failing network does)."""
        transport = self.live.get(connection, lambda: None)()
        abort = getattr(transport, "abort", None)
        if abort is None or connection.game_over is not None:
            return False
        before = len(connection.resumed_after)
        abort()
        asyncio.ensure_future(resumed(environment, connection, before))
        return True

    def storm(self, environment: Environment) -> int:
        return sum(self.drop(environment, connection) for connection in list(self.live))


DROPS = Drops()


async def resumed(environment: Environment, connection: GameConnection, before: int) -> None:
    """Report how long the connection took to get its view back after a drop."""
    started = time.perf_counter()
    try:
        await connection.wait_until(
            lambda: len(connection.resumed_after) > before or connection.game_over is not None, IDLE_TIMEOUT
        )
        fire(environment, "METRIC", "resume", time.perf_counter() - started, None)
    except Exception as error:
        fire(environment, "METRIC", "resume", time.perf_counter() - started, error)


# casual tables


class Table:
    """One user's part in one casual game: its seats, from taking them to the end."""

    def __init__(self, user: Player, game: str) -> None:
        self.environment = user.environment
        self.options = user.options
        self.host = user.host or "http://127.0.0.1:8000"
        self.game = game
        self.players = self.options.players if game not in ("day_night", "base_race") else 2
        self.name = f"lc-{RUN}-{next(_seeds)}"

    async def play(self) -> None:
        async with RestClient(self.host) as lobby:
            grants = await self._timed("lobby", self._take_seats(lobby))
        MOVES.table(grants[0].game_id, self.players)
        try:
            await asyncio.gather(*(self._play_seat(grant) for grant in grants))
        finally:
            MOVES.over(grants[0].game_id)

    async def _take_seats(self, lobby: RestClient) -> list[SeatGrant]:
        joined = await self._join_open_table(lobby)
        if joined is not None:
            if not await self._started(lobby, joined, 3 * self.options.wait):
                await lobby.leave_seat(joined.game_id, joined.token)
                raise TimeoutError("the table did not start")
            return [joined]
        created = await lobby.create_game(self.game, self.players, turn_seconds=self.options.turn_seconds)
        first = await lobby.join_seat(created.game_id, self.name)
        if await self._started(lobby, first, self.options.wait):
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
        kept: list[Transport] = []

        async def open_socket(url: str, offer: Sequence[str]) -> Transport:
            kept.append(await connect_websocket(url, offer))
            return kept[-1]

        connection = await connect(
            self.host, grant.token, self.options.encoding, connector=open_socket, reconnect_delay=0.05
        )
        async with connection:
            await connection.join()
            DROPS.keep(connection, lambda: kept[-1] if kept else None)
            follower = asyncio.create_task(follow(connection, grant.game_id))
            drop = _maybe_drop(self.options, connection, self.environment)
            report = observer(self.environment, self.game, lambda: connection)
            game = play(
                connection,
                RandomBot(),
                observe=report,
                idle_timeout=IDLE_TIMEOUT,
                think=self.options.thinking(),
            )
            try:
                await self._timed("game", game)
            finally:
                follower.cancel()
                DROPS.forget(connection)
                if drop is not None:
                    drop.cancel()

    async def _timed(self, name: str, step: Coroutine[Any, Any, T]) -> T:
        started = time.perf_counter()
        error: BaseException | None = None
        try:
            return await step
        except Exception as failure:
            error = failure
            raise
        finally:
            fire(self.environment, "WS", f"{self.game} {name}", time.perf_counter() - started, error)


def _maybe_drop(
    options: Options, connection: GameConnection, environment: Environment
) -> asyncio.TimerHandle | None:
    """Now and then, drop this seat's socket a little into the game (it resumes by itself)."""
    if random.random() >= options.reconnect:
        return None
    delay = random.uniform(0.2, 3.0)
    return asyncio.get_running_loop().call_later(delay, DROPS.drop, environment, connection)


# the tournament


class Event:
    """The run's tournament: created (or given), started once every entrant registered."""

    def __init__(self) -> None:
        self.lock: asyncio.Lock | None = None
        self.tournament_id = ""
        self.organizer = ""
        self.registered = 0
        self.started = False
        self.done = False
        self.ended: defaultdict[int, float] = defaultdict(float)
        """Round -> when its last game was seen over."""
        self.seated: defaultdict[int, float] = defaultdict(float)
        """Round -> when its last player was seen seated."""
        self.watchdog: asyncio.Task[None] | None = None
        self.last_registration = 0.0
        self.unstarted = False
        """The start failed: the run ends at once rather than at -t."""
        self.rest_table_calls = 0
        """Times players asked the REST API for their table (the feed told them otherwise)."""

    async def join(self, rest: RestClient, options: Options) -> str:
        if self.lock is None:
            self.lock = asyncio.Lock()
        async with self.lock:
            if not self.tournament_id:
                if options.tournament:
                    self.tournament_id, self.organizer = options.tournament, options.organizer
                else:
                    created = await rest.create_tournament(
                        f"load {RUN}",
                        options.games[0],
                        players_per_table=options.players,
                        rounds=options.rounds or None,
                        turn_seconds=options.turn_seconds,
                    )
                    self.tournament_id = created.tournament.tournament_id
                    self.organizer = created.organizer_token
        return self.tournament_id

    async def registered_one(self, rest: RestClient, entrants: int) -> None:
        """One more entrant is through registration (in or refused); the last one starts the
        event. A watchdog starts it too once registrations have stopped coming for a while,
        so that an entrant lost on the way leaves no one waiting."""
        self.registered += 1
        self.last_registration = time.monotonic()
        if self.watchdog is None:
            self.watchdog = asyncio.create_task(self._watch(rest.base_url))
        if self.registered == entrants:
            await self.start(rest.base_url)

    async def start(self, host: str) -> None:
        if self.started or not self.organizer:
            return
        self.started = True
        print(f"starting the event: {self.registered} entrants through registration")
        try:
            async with RestClient(host) as rest:
                await patiently(lambda: rest.start_tournament(self.tournament_id, self.organizer))
        except Exception:
            self.unstarted = True  # nobody would ever be seated: the user ends the run
            raise

    async def _watch(self, host: str) -> None:
        while not self.started:
            await asyncio.sleep(1.0)
            if time.monotonic() - self.last_registration > REGISTRATION_QUIET:
                await self.start(host)

    def turnovers(self) -> list[tuple[int, float]]:
        return [(r, self.seated[r] - self.ended[r - 1]) for r in sorted(self.seated) if r - 1 in self.ended]


EVENT = Event()


async def patiently(call: Callable[[], Coroutine[Any, Any, T]], attempts: int = 8) -> T:
    """A REST call tried again while the server says it is unavailable (busy), as a person would."""
    for attempt in range(1, attempts + 1):
        try:
            return await call()
        except ApiError as error:
            if error.code is not ErrorCode.UNAVAILABLE or attempt == attempts:
                raise
            await asyncio.sleep(random.uniform(0.1, 0.5) * attempt)
    raise AssertionError("unreachable")


class Entrant:
    """A registered player: waits for each pairing and plays it with a bot, till the event ends."""

    def __init__(self, user: Player) -> None:
        self.environment = user.environment
        self.options = user.options
        self.host = user.host or "http://127.0.0.1:8000"
        self.index = user.index

    async def play(self) -> None:
        options = self.options
        entrants = options.users - options.spectators
        async with RestClient(self.host) as rest:
            tournament_id = await EVENT.join(rest, options)
            try:
                name = f"lc-{RUN}-{self.index}"
                entry = await patiently(lambda: rest.register(tournament_id, name))
            finally:
                # A failed registration still counts, or the event would wait for it forever.
                await EVENT.registered_one(rest, entrants)
        pool = Servers(self.host)
        held: list[GameConnection | None] = [None]
        game = options.games[0]
        drops: list[asyncio.TimerHandle] = []
        followers: list[asyncio.Task[None]] = []

        def seated(table: MyTable) -> None:
            EVENT.seated[table.round] = max(EVENT.seated[table.round], time.perf_counter())
            if table.game_id is not None:
                MOVES.table(table.game_id, options.players)

        def joined(table: MyTable, connection: GameConnection) -> None:
            held[0] = connection
            DROPS.keep(connection, lambda: pool.transport)
            followers.append(asyncio.create_task(follow(connection, table.game_id or "")))
            drop = _maybe_drop(options, connection, self.environment)
            if drop is not None:
                drops.append(drop)

        def finished(table: MyTable, over: GameOver) -> None:
            EVENT.ended[table.round] = max(EVENT.ended[table.round], time.perf_counter())
            MOVES.over(over.game_id)
            if held[0] is not None:
                DROPS.forget(held[0])
            for pending in (*drops, *followers):
                pending.cancel()
            drops.clear()
            followers.clear()

        try:
            await play_tournament(
                pool,
                tournament_id,
                entry.secret,
                RandomBot(next(_seeds)),
                idle_timeout=IDLE_TIMEOUT,
                encoding=options.encoding,
                seated=seated,
                joined=joined,
                finished=finished,
                think=options.thinking(),
                observe=observer(self.environment, game, lambda: held[0]),
            )
        finally:
            EVENT.rest_table_calls += pool.calls
            await pool.aclose()


class Spectator:
    """Follows the event as a watcher (the round's pairings over the WebSocket) and watches
    one table of the current round after another, till the event ends."""

    def __init__(self, user: Player) -> None:
        self.environment = user.environment
        self.host = user.host or "http://127.0.0.1:8000"

    async def watch(self) -> None:
        while not EVENT.tournament_id:
            await asyncio.sleep(POLL_SECONDS)
        async with TournamentFeed(self.host, EVENT.tournament_id) as feed:
            feed.listen(lambda message: _round_news(self.environment, message))
            await feed.open()
            while not (feed.standings is not None and feed.standings.final):
                await feed.wait_until(lambda: bool(_watchable(feed)) or _over(feed), IDLE_TIMEOUT)
                if feed.failure is not None:
                    raise feed.failure
                fresh = _watchable(feed)
                if fresh:
                    game_id = random.choice(fresh)
                    WATCHED.add(game_id)
                    await self._spectate(game_id)

    async def _spectate(self, game_id: str) -> None:
        started = time.perf_counter()
        error: BaseException | None = None
        try:
            async with await connect(self.host) as connection:
                await connection.join(game_id, role="spectator")
                await connection.wait_until(lambda: connection.game_over is not None, IDLE_TIMEOUT)
        except Exception as failure:
            error = failure
        fire(self.environment, "METRIC", "spectate", time.perf_counter() - started, error)


ROUND_NEWS: dict[tuple[str, int], float] = {}
"""(what, round) -> when a watcher first heard it: ``over`` (every table has a result),
``seated`` (every table of the round has its game)."""


def _round_news(environment: Environment, message: object) -> None:
    """The turnover as a watcher hears it: from the message that completes a round to the
    first one of the next round with every table's game created (the server's part of
    the turnover, without the players' own delays)."""
    if not isinstance(message, TournamentRound):
        return
    now = time.perf_counter()
    if message.complete:
        ROUND_NEWS.setdefault(("over", message.round), now)
    seated = bool(message.tables) and all(t.game_id for t in message.tables)
    if seated and ("seated", message.round) not in ROUND_NEWS:
        ROUND_NEWS["seated", message.round] = now
        over = ROUND_NEWS.get(("over", message.round - 1))
        if over is not None:
            fire(environment, "METRIC", "round seated (watcher)", now - over, None)


def _watchable(feed: TournamentFeed) -> list[str]:
    """The games of the current round still being played that nobody watched yet."""
    tables = feed.round.tables if feed.round else ()
    return [t.game_id for t in tables if t.game_id and t.result is None and t.game_id not in WATCHED]


def _over(feed: TournamentFeed) -> bool:
    return feed.standings is not None and feed.standings.final


WATCHED: set[str] = set()


# the storm


class Storm:
    """Drops every client's socket at once: ``storm_after`` seconds into the run, as soon as
    every user has a seat in play (or 30 seconds later at most)."""

    def __init__(self) -> None:
        self.scheduled = False
        self.done = False

    def schedule(self, environment: Environment, options: Options) -> None:
        if self.scheduled:
            return
        self.scheduled = True
        gevent.spawn(self._wait_then_burst, environment, options)

    def _wait_then_burst(self, environment: Environment, options: Options) -> None:
        gevent.sleep(options.storm_after)
        deadline = time.monotonic() + 30
        while len(DROPS.live) < options.users and time.monotonic() < deadline:
            gevent.sleep(0.05)
        LOOP.loop.call_soon_threadsafe(self._burst, environment)

    def _burst(self, environment: Environment) -> None:
        dropped = DROPS.storm(environment)
        print(f"reconnect storm: {dropped} sockets dropped at once")
        self.done = True


STORM = Storm()


# the user


class Player(User):
    """One person: plays casual tables, or a tournament, or watches it, as the scenario says."""

    wait_time = between(0.05, 0.5)

    def on_start(self) -> None:
        self.options = Options(self.environment)
        self.index = next(_users)
        self.played = 0
        MOVES.environment = self.environment
        if self.options.scenario == "reconnect":
            STORM.schedule(self.environment, self.options)

    @task
    def step(self) -> None:
        scenario = self.options.scenario
        try:
            if scenario == "swiss":
                self._tournament()
            else:
                game = self.options.games[(self.index + self.played) % len(self.options.games)]
                LOOP.run(Table(self, game).play())
                self.played += 1
        except (StopUser, gevent.GreenletExit):
            raise
        except Exception as error:
            fire(self.environment, "WS", f"{scenario} user", 0.0, error)
            if EVENT.unstarted and self.environment.runner is not None:
                gevent.spawn_later(0.1, self.environment.runner.quit)
            if scenario == "swiss":
                self._leave()
            return
        if scenario == "reconnect" and STORM.done or 0 < self.options.tables <= self.played:
            self._leave()

    def _tournament(self) -> None:
        entrants = self.options.users - self.options.spectators
        if self.index < entrants:
            LOOP.run(Entrant(self).play())
        else:
            LOOP.run(Spectator(self).watch())
        self._leave()

    def _leave(self) -> None:
        FINISHED.add(self.index)
        if len(FINISHED) >= self.options.users and self.environment.runner is not None:
            gevent.spawn_later(0.1, self.environment.runner.quit)
        raise StopUser()


FINISHED: set[int] = set()


@events.test_stop.add_listener
def _report(environment: Environment, **_: Any) -> None:
    for number, seconds in EVENT.turnovers():
        fire(environment, "METRIC", "round turnover", max(seconds, 0.0), None)
        print(f"round {number - 1} -> {number} turnover: {seconds * 1000:.0f} ms")
    if EVENT.tournament_id:
        print(f"rounds completed: {len(EVENT.ended)}; REST table calls: {EVENT.rest_table_calls}")


@events.quitting.add_listener
def _stop(environment: Environment, **_: Any) -> None:
    LOOP.stop()
