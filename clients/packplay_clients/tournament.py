"""A tournament player driven by a bot: wait for each table, play it, until the event ends.

The player follows the tournament over a WebSocket of its own (:class:`TournamentFeed`,
the ``follow`` message with its secret): the server tells it each table it is seated at
as soon as the table's game exists, and it plays each new game over another WebSocket
with the seat token it is handed, like any other seat. The REST API's current table
(``getMyTable``) is asked only when the feed cannot be had (a server that does not
speak it, or every server gone) and, as a safety net, when the feed has been silent
for a long while. Given several base URLs (the processes of one deployment) it moves on
to the next one when a server stops answering, for REST calls, the feed and the game
WebSockets alike.

A whole event played by a bot::

    async with RestClient(url) as lobby:
        entry = await lobby.register(tournament_id, "ada")
    games = await play_tournament(url, tournament_id, entry.secret, RandomBot(seed=1))
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import msgspec

from packplay_clients.bots import Bot, Observer, play
from packplay_clients.connection import CLIENT_NAME, GameConnection, connect, ws_url
from packplay_clients.errors import ApiError, ConnectionLost, PackplayError, ServerError, TransportClosed
from packplay_clients.rest import RestClient
from packplay_clients.transport import MAX_FRAME_BYTES, Transport, connect_websocket
from packplay_protocol.codec import decode_server, encode
from packplay_protocol.errors import DecodeError, ErrorCode
from packplay_protocol.from_client import ClientMessage, Follow, Hello, Ping
from packplay_protocol.to_client import (
    Error,
    GameOver,
    ServerMessage,
    TournamentRound,
    TournamentStandings,
    TournamentTable,
    Welcome,
)
from packplay_protocol.tournaments import MyTable
from packplay_protocol.version import PROTOCOL_VERSION, SUBPROTOCOLS, Encoding, subprotocol

T = TypeVar("T")
PASSES = 20
"""Rounds over every server before giving up (each after a short pause)."""
PAUSE = 0.2
ANSWER_TIMEOUT = 10.0
"""Seconds the server has to answer the feed's hello and follow."""
SAFETY_CHECK = 60.0
"""Seconds of silence from the feed after which a seated or waiting player asks the REST
API once (a registered player waits for the start as long as it takes)."""
TableObserver = Callable[[MyTable], None]
GameObserver = Callable[[MyTable, GameOver], None]
JoinObserver = Callable[[MyTable, GameConnection], None]


class Servers:
    """The base URLs of one deployment: calls go to the current one and move on when it fails."""

    def __init__(self, urls: str | Sequence[str], *, timeout: float = 10.0) -> None:
        self.urls = [urls] if isinstance(urls, str) else list(urls)
        if not self.urls:
            raise ValueError("give at least one server URL")
        self.current = 0
        self.moves = 0
        """How often calls moved on to another server."""
        self.calls = 0
        """REST calls made through :meth:`call`."""
        self._timeout = timeout
        self._clients: dict[str, RestClient] = {}
        self.transport: Transport | None = None
        """The last WebSocket transport opened through :meth:`connector`."""

    @property
    def url(self) -> str:
        return self.urls[self.current]

    async def call(self, request: Callable[[RestClient], Awaitable[T]]) -> T:
        """``request`` on the current server's REST client, moving on while servers are unavailable.

        Raises:
            ApiError: the server refused the request, or none answered.
        """
        for attempt in itertools.count(1):
            self.calls += 1
            try:
                return await request(self._client())
            except ApiError as error:
                if error.code is not ErrorCode.UNAVAILABLE or attempt >= PASSES * len(self.urls):
                    raise
                await self.move_on()
        raise AssertionError("unreachable")

    async def connector(self, url: str, offer: Sequence[str]) -> Transport:
        """A WebSocket connector that tries the current server, then the others."""
        self.transport = await self.open_socket(offer)
        return self.transport

    async def open_socket(self, offer: Sequence[str]) -> Transport:
        """A WebSocket to the current server, or else the next ones.

        Raises:
            TransportClosed: no server could be reached, round after round.
        """
        for attempt in itertools.count(1):
            try:
                return await connect_websocket(ws_url(self.url), offer)
            except TransportClosed:
                if attempt >= PASSES * len(self.urls):
                    raise
                await self.move_on()
        raise AssertionError("unreachable")

    async def aclose(self) -> None:
        for client in self._clients.values():
            await client.aclose()

    def _client(self) -> RestClient:
        client = self._clients.get(self.url)
        if client is None:
            client = self._clients[self.url] = RestClient(self.url, timeout=self._timeout)
        return client

    async def move_on(self) -> None:
        """Send the next calls to the next server."""
        self.current = (self.current + 1) % len(self.urls)
        self.moves += 1
        if self.current == 0:
            await asyncio.sleep(PAUSE)


TournamentMessage = TournamentTable | TournamentRound | TournamentStandings
FeedListener = Callable[[TournamentMessage], None]


class TournamentFeed:
    """A tournament followed over the WebSocket (the ``follow`` message).

    With ``secret`` (a player's) :attr:`table` is the player's current table, kept by the
    server's ``tournament_table`` messages; without it, or with ``watch``, :attr:`round`
    and :attr:`standings` are kept too. A dropped socket is opened again (on the next
    server of ``servers`` if the current one is gone) and followed again: the server
    sends the current state on every follow. :attr:`failure` is set once it gives up.
    """

    def __init__(
        self,
        servers: Servers | str | Sequence[str],
        tournament_id: str,
        secret: str | None = None,
        *,
        watch: bool = False,
        encoding: Encoding | str = Encoding.JSON,
        client: str = CLIENT_NAME,
    ) -> None:
        self.servers = servers if isinstance(servers, Servers) else Servers(servers)
        self._own_servers = self.servers is not servers
        self.tournament_id = tournament_id
        self.secret = secret
        self.watch = watch
        self.encoding = Encoding(encoding)
        self.client = client
        self.table: TournamentTable | None = None
        self.round: TournamentRound | None = None
        self.standings: TournamentStandings | None = None
        self.received = 0
        """Tournament messages received."""
        self.reconnects = 0
        self.failure: PackplayError | None = None
        self._wire = self.encoding
        self._transport: Transport | None = None
        self._reader: asyncio.Task[None] | None = None
        self._changed = asyncio.Condition()
        self._listeners: list[FeedListener] = []
        self._closing = False
        self._last_sent = time.monotonic()

    async def open(self) -> None:
        """Connect, say hello, follow; returns once the server has sent the first state.

        Raises:
            ServerError: the follow was refused (``not_found``, ``unauthorized``; a server
                that does not speak it answers ``unknown_type``).
            ConnectionLost: no server could be reached.
        """
        try:
            interval = await self._follow()
        except TransportClosed as closed:
            raise ConnectionLost(closed.code, closed.reason) from closed
        self._reader = asyncio.create_task(self._read(interval), name="packplay-tournament-feed")

    def listen(self, listener: FeedListener) -> Callable[[], None]:
        """Call ``listener`` with each tournament message as it arrives; returns the stopper."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    async def wait_until(self, ready: Callable[[], bool], timeout: float | None = None) -> bool:
        """Wait until ``ready()`` holds (checked after every message); false on timeout or
        once the feed has failed."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout), self._changed:
                while not ready() and self.failure is None:
                    await self._changed.wait()
        return ready()

    async def aclose(self) -> None:
        self._closing = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        if self._transport is not None:
            with contextlib.suppress(TransportClosed, OSError):
                await self._transport.close()
        if self._own_servers:
            await self.servers.aclose()

    async def __aenter__(self) -> TournamentFeed:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    async def _follow(self) -> float:
        """Open a socket, hello, follow, read up to the first state; the ping interval."""
        offer = [subprotocol(PROTOCOL_VERSION, self.encoding)]
        self._transport = await self.servers.open_socket(offer)
        self._wire = SUBPROTOCOLS.get(self._transport.subprotocol or "", Encoding.JSON)
        async with asyncio.timeout(ANSWER_TIMEOUT):
            await self._send(Hello(client=self.client))
            welcome = await self._answer()
            if not isinstance(welcome, Welcome):
                raise ServerError(Error(code=ErrorCode.INTERNAL, message="no welcome"))
            follow = Follow(tournament_id=self.tournament_id, secret=self.secret, watch=self.watch)
            await self._send(follow)
            await self._receive(await self._answer())
        return welcome.limits.ping_interval_seconds

    async def _answer(self) -> ServerMessage:
        """The next message that is not a pong; an error raises."""
        while True:
            message = await self._next()
            if isinstance(message, Error):
                with contextlib.suppress(TransportClosed, OSError):
                    await self._close_transport()
                raise ServerError(message)
            if message is not None:
                return message

    async def _next(self) -> ServerMessage | None:
        assert self._transport is not None
        frame = await self._transport.recv()
        message = decode_server(frame, self._wire, max_bytes=MAX_FRAME_BYTES)
        return None if isinstance(message, DecodeError) else message

    async def _send(self, message: ClientMessage) -> None:
        assert self._transport is not None
        frame = encode(message, self._wire)
        await self._transport.send(frame.decode() if self._wire is Encoding.JSON else frame)
        self._last_sent = time.monotonic()

    async def _close_transport(self) -> None:
        if self._transport is not None:
            await self._transport.close()

    async def _read(self, interval: float) -> None:
        pinger = asyncio.create_task(self._keep_alive(interval))
        try:
            while not self._closing:
                try:
                    message = await self._next()
                except TransportClosed:
                    if self._closing or not await self._reconnect():
                        return
                    continue
                if isinstance(message, Error) and message.fatal:
                    await self._fail(ServerError(message))
                    return
                if message is not None:
                    await self._receive(message)
        finally:
            pinger.cancel()

    async def _reconnect(self) -> bool:
        """Follow again, on another server if need be; false once it gives up."""
        for _ in range(PASSES):
            try:
                await self._follow()
            except (TransportClosed, TimeoutError, ServerError) as error:
                if isinstance(error, ServerError) and error.code is not ErrorCode.UNAVAILABLE:
                    await self._fail(error)
                    return False
                await self.servers.move_on()
                continue
            self.reconnects += 1
            return True
        await self._fail(ConnectionLost(1006, "the tournament feed could not be followed again"))
        return False

    async def _keep_alive(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval / 2)
            if time.monotonic() - self._last_sent >= interval / 2:
                with contextlib.suppress(TransportClosed, OSError):
                    await self._send(Ping(nonce="keepalive"))

    async def _receive(self, message: ServerMessage) -> None:
        if isinstance(message, TournamentTable):
            self.table = message
        elif isinstance(message, TournamentRound):
            self.round = message
        elif isinstance(message, TournamentStandings):
            self.standings = message
        else:
            return
        self.received += 1
        for listener in list(self._listeners):
            listener(message)
        async with self._changed:
            self._changed.notify_all()

    async def _fail(self, failure: PackplayError) -> None:
        self.failure = failure
        async with self._changed:
            self._changed.notify_all()


async def play_tournament(
    servers: Servers | str | Sequence[str],
    tournament_id: str,
    secret: str,
    bot: Bot,
    *,
    poll: float = 0.25,
    idle_timeout: float | None = 120.0,
    encoding: Encoding | str = Encoding.JSON,
    seated: TableObserver | None = None,
    think: Callable[[], float] | None = None,
    observe: Observer | None = None,
    finished: GameObserver | None = None,
    joined: JoinObserver | None = None,
) -> list[GameOver]:
    """Play every table of the secret's player until it drops or the event is over.

    ``seated`` is called with each new table before its game is joined, ``joined`` with
    the table and its connection once joined (again after a rejoin), ``finished`` with
    the table and its ``game_over`` once the game is over; ``think`` and
    ``observe`` are :func:`~packplay_clients.bots.play`'s. Returns the ``game_over`` of
    each game played, in order.

    Raises:
        ApiError: a REST call was refused (a wrong secret: ``unauthorized``).
        PlayError: the server refused an action for a reason deciding again cannot fix.
    """
    pool = servers if isinstance(servers, Servers) else Servers(servers)
    played: dict[str, GameOver] = {}
    feed = await _open_feed(pool, tournament_id, secret, encoding)

    def ready() -> bool:
        table = feed.table if feed is not None else None
        return table is not None and _next_step(table, played)

    async def current() -> MyTable:
        if feed is not None and feed.failure is None:
            if await feed.wait_until(ready, SAFETY_CHECK) and feed.table is not None:
                return _my_table(feed.table)
            if feed.failure is None:
                if feed.table is not None and feed.table.status == "registered":
                    return _my_table(feed.table)
                # Silent for long: ask once, in case a message was lost on the way.
                return await pool.call(lambda rest: rest.my_table(tournament_id, secret))
        await asyncio.sleep(poll)
        return await pool.call(lambda rest: rest.my_table(tournament_id, secret))

    games = _GameSocket(pool, encoding)
    try:
        table = await pool.call(lambda rest: rest.my_table(tournament_id, secret)) if feed is None else None
        while True:
            if table is None:
                table = await current()
            if table.status in ("finished", "dropped"):
                return list(played.values())
            if _next_step(table, played) and table.game_id and table.token:
                if seated is not None:
                    seated(table)
                over = await _play_table(games, table, bot, idle_timeout, think, observe, joined)
                played[table.game_id] = over
                if finished is not None:
                    finished(table, over)
            table = None
    finally:
        await games.close()
        if feed is not None:
            await feed.aclose()
        if pool is not servers:
            await pool.aclose()


async def _open_feed(
    pool: Servers, tournament_id: str, secret: str, encoding: Encoding | str
) -> TournamentFeed | None:
    """The player's feed, or None when the server cannot give one (then the REST API is asked).

    Raises:
        ApiError: the secret is refused (as the REST API refuses it).
    """
    feed = TournamentFeed(pool, tournament_id, secret, encoding=encoding)
    try:
        await feed.open()
    except ServerError as error:
        if error.code in (ErrorCode.UNAUTHORIZED, ErrorCode.NOT_FOUND):
            await pool.call(lambda rest: rest.my_table(tournament_id, secret))  # raises the same refusal
        await feed.aclose()
        return None
    except (ConnectionLost, TimeoutError):
        await feed.aclose()
        return None
    return feed


def _next_step(table: MyTable | TournamentTable, played: dict[str, GameOver]) -> bool:
    """Whether the table asks something of the player: a game not played yet, or the end."""
    if table.status in ("finished", "dropped"):
        return True
    return table.status == "playing" and table.game_id is not None and table.game_id not in played


def _my_table(table: TournamentTable) -> MyTable:
    return MyTable(**msgspec.structs.asdict(table))


class _GameSocket:
    """The player's game connection, kept from one table to the next (a new hello each game)."""

    def __init__(self, pool: Servers, encoding: Encoding | str) -> None:
        self.pool = pool
        self.encoding = encoding
        self.connection: GameConnection | None = None

    async def seat(self, token: str) -> GameConnection:
        """The connection, holding ``token``'s seat.

        Raises:
            ConnectionLost: no server could be reached.
            ServerError: the server refused the token.
        """
        kept = self.connection
        if kept is not None and not kept.closed:
            try:
                await kept.switch(token)
                return kept
            except ConnectionLost:
                await self.close()
        self.connection = await connect(self.pool.url, token, self.encoding, connector=self.pool.connector)
        return self.connection

    async def close(self) -> None:
        if self.connection is not None:
            await self.connection.close()
            self.connection = None


async def _play_table(
    games: _GameSocket,
    table: MyTable,
    bot: Bot,
    idle_timeout: float | None,
    think: Callable[[], float] | None,
    observe: Observer | None,
    joined: JoinObserver | None,
) -> GameOver:
    """Play one table's game to its end, rejoining on another server if the connection is lost."""
    assert table.token is not None and table.game_id is not None
    for attempt in itertools.count(1):
        try:
            connection = await games.seat(table.token)
        except ConnectionLost:
            if attempt >= PASSES:
                raise
            await games.pool.move_on()
            continue
        try:
            await connection.join(table.game_id)
            if joined is not None:
                joined(table, connection)
            return await play(connection, bot, idle_timeout=idle_timeout, think=think, observe=observe)
        except ConnectionLost:
            await games.close()
            if attempt >= PASSES:
                raise
        except BaseException:
            await games.close()
            raise
    raise AssertionError("unreachable")
