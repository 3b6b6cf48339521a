"""A tournament player driven by a bot: wait for each table, play it, until the event ends.

The player asks the REST API for its current table (``getMyTable``) and plays each new
game over the WebSocket with the seat token it is handed, like any other seat. Given
several base URLs (the processes of one deployment) it moves on to the next one when a
server stops answering, for REST calls and for the WebSocket's reconnects alike.

A whole event played by a bot::

    async with RestClient(url) as lobby:
        entry = await lobby.register(tournament_id, "ada")
    games = await play_tournament(url, tournament_id, entry.secret, RandomBot(seed=1))
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from packplay_clients.bots import Bot, Observer, play
from packplay_clients.connection import GameConnection, connect, ws_url
from packplay_clients.errors import ApiError, ConnectionLost, TransportClosed
from packplay_clients.rest import RestClient
from packplay_clients.transport import Transport, connect_websocket
from packplay_protocol.errors import ErrorCode
from packplay_protocol.to_client import GameOver
from packplay_protocol.tournaments import MyTable
from packplay_protocol.version import Encoding

T = TypeVar("T")
PASSES = 20
"""Rounds over every server before giving up (each after a short pause)."""
PAUSE = 0.2
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
            try:
                return await request(self._client())
            except ApiError as error:
                if error.code is not ErrorCode.UNAVAILABLE or attempt >= PASSES * len(self.urls):
                    raise
                await self.move_on()
        raise AssertionError("unreachable")

    async def connector(self, url: str, offer: Sequence[str]) -> Transport:
        """A WebSocket connector that tries the current server, then the others."""
        for attempt in itertools.count(1):
            try:
                transport = await connect_websocket(ws_url(self.url), offer)
            except TransportClosed:
                if attempt >= PASSES * len(self.urls):
                    raise
                await self.move_on()
                continue
            self.transport = transport
            return transport
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
    try:
        while True:
            table = await pool.call(lambda rest: rest.my_table(tournament_id, secret))
            if table.status in ("finished", "dropped"):
                return list(played.values())
            if table.status == "playing" and table.game_id and table.token and table.game_id not in played:
                if seated is not None:
                    seated(table)
                over = await _play_table(pool, table, bot, idle_timeout, encoding, think, observe, joined)
                played[table.game_id] = over
                if finished is not None:
                    finished(table, over)
                continue
            await asyncio.sleep(poll)
    finally:
        if pool is not servers:
            await pool.aclose()


async def _play_table(
    pool: Servers,
    table: MyTable,
    bot: Bot,
    idle_timeout: float | None,
    encoding: Encoding | str,
    think: Callable[[], float] | None,
    observe: Observer | None,
    joined: JoinObserver | None,
) -> GameOver:
    """Play one table's game to its end, rejoining on another server if the connection is lost."""
    for attempt in itertools.count(1):
        try:
            connection = await connect(pool.url, table.token, encoding, connector=pool.connector)
        except ConnectionLost:
            if attempt >= PASSES:
                raise
            await pool.move_on()
            continue
        async with connection:
            try:
                await connection.join(table.game_id)
                if joined is not None:
                    joined(table, connection)
                return await play(connection, bot, idle_timeout=idle_timeout, think=think, observe=observe)
            except ConnectionLost:
                if attempt >= PASSES:
                    raise
    raise AssertionError("unreachable")
