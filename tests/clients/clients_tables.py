"""Tables played through the SDK: open a game, connect every seat, collect what each seat received."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from packplay_clients import Bot, GameConnection, RestClient, play
from packplay_protocol.rest import Replay
from packplay_protocol.to_client import Events, GameOver, ServerMessage, Update, ViewMessage

IDLE_TIMEOUT = 10.0


@dataclass
class Table:
    game_id: str
    seats: list[GameConnection]
    tokens: list[str]
    received: list[list[ServerMessage]] = field(default_factory=list)


async def open_table(url: str, game: str, players: int, seed: int | None = None) -> tuple[str, list[str]]:
    """Create a game and take every seat: (game id, token per seat)."""
    async with RestClient(url) as lobby:
        created = await lobby.create_game(game, players, seed=seed)
        grants = [await lobby.join_seat(created.game_id, f"p{seat}") for seat in range(players)]
    return created.game_id, [grant.token for grant in grants]


class Connections:
    """Connections opened by one test, all closed when it ends (whatever its outcome)."""

    def __init__(self) -> None:
        self.opened: list[GameConnection] = []

    async def connect(
        self, url: str, token: str | None = None, encoding: str = "json", **options: Any
    ) -> GameConnection:
        connection = GameConnection(url, token=token, encoding=encoding, **options)
        self.opened.append(connection)
        await connection.open()
        return connection

    async def seat_all(self, url: str, game_id: str, tokens: list[str], encoding: str = "json") -> Table:
        seats = [await self.connect(url, token, encoding) for token in tokens]
        for connection in seats:
            await connection.join(game_id)
        return Table(game_id, seats, tokens)

    async def close(self) -> None:
        for connection in self.opened:
            await connection.close()


async def collect(connection: GameConnection) -> list[ServerMessage]:
    """Every message of the connection's stream, until it closes."""
    return [message async for message in connection.messages()]


async def play_all(table: Table, bots: list[Bot]) -> list[GameOver]:
    """Play every seat to the end while recording each seat's stream."""
    readers = [asyncio.create_task(collect(c)) for c in table.seats]
    games = [play(c, bot, idle_timeout=IDLE_TIMEOUT) for c, bot in zip(table.seats, bots, strict=True)]
    overs = await asyncio.gather(*games)
    for connection in table.seats:
        await connection.close()
    table.received = list(await asyncio.gather(*readers))
    return list(overs)


def chain_breaks(received: list[ServerMessage]) -> list[str]:
    """Where the updates of a stream fail to follow each other version by version."""
    breaks, version = [], None
    for message in received:
        if isinstance(message, Events):
            if version is not None and message.from_version != version:
                breaks.append(f"events from {message.from_version} after {version}")
            version = message.to_version
        elif isinstance(message, Update):
            if version is not None and message.version != version + 1:
                breaks.append(f"update to {message.version} after {version}")
            version = message.version
        elif isinstance(message, ViewMessage):
            version = message.version
    return breaks


async def fetch_replay(url: str, game_id: str) -> Replay:
    async with RestClient(url) as lobby:
        return await lobby.replay(game_id)
