"""Complete games over real sockets, seats spread over two server processes, with spectators.

Every message every seat and spectator receives is checked against the replay for
leaks, and the result against a replay of the log on the engine alone.
"""

from __future__ import annotations

import asyncio
import random

import pytest
from server_client import Bot, Client
from server_leaks import leaks, replay_states
from server_lobby import fetch_replay, open_game, replayed_result
from support_servers import ServerProcess

from packplay_protocol.to_client import GameOver
from packplay_protocol.version import Encoding

TABLES = [
    ("day_night", 2),
    ("mishra_factory", 2),
    ("mishra_factory", 3),
    ("mishra_factory", 4),
    *[("wedding_planner", players) for players in range(2, 7)],
    ("base_race", 2),
]


def _encoding(index: int) -> Encoding:
    return Encoding.JSON if index % 2 == 0 else Encoding.MSGPACK


async def seat_clients(servers: list[ServerProcess], game_id: str, tokens: list[str]) -> list[Client]:
    """Seat ``i`` connects to process ``i % 2``, in JSON or MessagePack alternately."""
    clients = [Client(servers[i % 2].url, _encoding(i)) for i in range(len(tokens))]
    for client, token in zip(clients, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    return clients


async def spectate(servers: list[ServerProcess], game_id: str) -> list[Client]:
    spectators = [Client(server.url, _encoding(i)) for i, server in enumerate(servers)]
    for spectator in spectators:
        await spectator.connect()
        await spectator.join(game_id, role="spectator")
    return spectators


@pytest.mark.parametrize(("game", "players"), TABLES)
async def test_a_full_game_on_two_processes_is_seen_by_all_without_leaks(
    servers: list[ServerProcess], game: str, players: int
) -> None:
    game_id, tokens = await open_game(servers[0].url, game, players)
    seats = await seat_clients(servers, game_id, tokens)
    spectators = await spectate(servers, game_id)

    await asyncio.gather(*(Bot(client, random.Random(i)).play() for i, client in enumerate(seats)))
    for spectator in spectators:
        if spectator.over is None:
            await spectator.until(lambda m: isinstance(m, GameOver))

    replay = await fetch_replay(servers[1].url, game_id)
    assert replay.result == replayed_result(replay)
    states = replay_states(replay)
    watchers = [*((seat, client) for seat, client in enumerate(seats)), *((None, s) for s in spectators)]
    for audience, client in watchers:
        assert client.over is not None and client.over.result == replay.result
        assert client.version == len(replay.log), "every client saw the last version"
        assert client.broken == []
        assert leaks(game, states, audience, client.received) == []
    for client in seats + spectators:
        await client.close()


async def test_the_leak_check_finds_a_hand_shown_to_another_seat(servers: list[ServerProcess]) -> None:
    game_id, tokens = await open_game(servers[0].url, "wedding_planner", 2)
    seats = await seat_clients(servers, game_id, tokens)
    await asyncio.gather(*(Bot(client, random.Random(i)).play() for i, client in enumerate(seats)))
    states = replay_states(await fetch_replay(servers[0].url, game_id))
    early_views = [m for m in seats[0].received if getattr(m, "version", None) == 0]
    assert leaks("wedding_planner", states, 1, early_views) != []
    for client in seats:
        await client.close()
