"""Reconnect and resume over real sockets: a dropped socket, a server process that stops."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from clients_tables import IDLE_TIMEOUT, Connections, chain_breaks, collect, fetch_replay, open_table
from support_servers import ServerProcess as Server

from packplay_clients import (
    GameConnection,
    RandomBot,
    Transport,
    WebSocketTransport,
    connect_websocket,
    play,
    ws_url,
)
from packplay_protocol.to_client import ViewMessage


class DroppingBot(RandomBot):
    """Drops its socket (no close frame, as a failing network does) just before its ``nth`` action."""

    def __init__(self, seed: int, nth: int, sockets: list[WebSocketTransport]) -> None:
        super().__init__(seed)
        self.left = nth
        self.sockets = sockets

    def choose(self, view: ViewMessage) -> object:
        self.left -= 1
        if self.left == 0:
            self.sockets[-1].abort()
        return super().choose(view)


async def test_a_dropped_socket_resumes_and_resends_the_pending_action(
    server: Server, connections: Connections
) -> None:
    game_id, tokens = await open_table(server.url, "mishra_factory", 2)
    sockets: list[WebSocketTransport] = []

    async def keep(url: str, offer: Sequence[str]) -> Transport:
        sockets.append(await connect_websocket(url, offer))
        return sockets[-1]

    dropping = await connections.connect(server.url, tokens[0], connector=keep, reconnect_delay=0.05)
    other = await connections.connect(server.url, tokens[1])
    for connection in (dropping, other):
        await connection.join(game_id)
    streams = [asyncio.create_task(collect(c)) for c in (dropping, other)]
    await asyncio.gather(
        play(dropping, DroppingBot(0, 4, sockets), idle_timeout=IDLE_TIMEOUT),
        play(other, RandomBot(1), idle_timeout=IDLE_TIMEOUT),
    )
    await _close_and_check(server, game_id, [dropping, other], streams)
    assert dropping.resumed_after == [1006] and len(sockets) == 2


async def test_a_stopping_server_process_hands_the_seat_over_to_another(
    server: Server, spare_server: Server, connections: Connections
) -> None:
    game_id, tokens = await open_table(server.url, "base_race", 2)
    homes = iter([spare_server.url, server.url])

    async def next_process(url: str, offer: Sequence[str]) -> Transport:
        return await connect_websocket(ws_url(next(homes, server.url)), offer)

    moving = await connections.connect(server.url, tokens[0], connector=next_process, reconnect_delay=0.05)
    other = await connections.connect(server.url, tokens[1])
    for connection in (moving, other):
        await connection.join(game_id)
    streams = [asyncio.create_task(collect(c)) for c in (moving, other)]
    games = asyncio.gather(
        play(moving, RandomBot(2), idle_timeout=IDLE_TIMEOUT),
        play(other, RandomBot(3), idle_timeout=IDLE_TIMEOUT),
    )
    await moving.wait_for_version(2, timeout=IDLE_TIMEOUT)
    await asyncio.to_thread(spare_server.stop)
    await games
    await _close_and_check(server, game_id, [moving, other], streams)
    # A stopping process drains: its WebSockets close with 1012 (service restart).
    assert moving.resumed_after == [1012]


async def _close_and_check(
    server: Server, game_id: str, seats: list[GameConnection], streams: list[asyncio.Task[list]]
) -> None:
    for connection in seats:
        await connection.close()
    replay = await fetch_replay(server.url, game_id)
    for connection, stream in zip(seats, streams, strict=True):
        assert chain_breaks(await stream) == []
        assert connection.version == len(replay.log) and connection.game_over is not None
