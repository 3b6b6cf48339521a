"""Every key the server writes expires: games of every kind are played, abandoned and left to
expire on a server with short lifetimes, then the whole keyspace of its Redis is empty.

The server has a Redis of its own here, so a SCAN of the whole keyspace sees this test's keys only.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import msgspec
import pytest
import redis
from server_client import Bot, Client, new_action_id
from server_lobby import open_game
from support_servers import ServerProcess, start_server

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.from_client import Act
from packplay_protocol.games.mishra_factory import Take
from packplay_protocol.rest import CreatedGame, SeatGrant
from packplay_protocol.to_client import Rejected

SHORT = {
    "PACKPLAY_LOBBY_TTL": "4",
    "PACKPLAY_ACTIVE_TTL": "5",
    "PACKPLAY_FINISHED_TTL": "3",
    "PACKPLAY_CLOCK_INTERVAL": "0.2",
    # The per-client limits on (the test servers lift them): their keys must go too.
    "PACKPLAY_GAMES_PER_MINUTE": "600",
    "PACKPLAY_OPEN_LOBBIES": "100",
}
SWEEP_DEADLINE = 120.0
"""Seconds to wait for the last key to go (a clocked game first plays itself to its end)."""


@pytest.fixture
def own_redis() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis() as server:
        yield server


@pytest.fixture
def short_lived(own_redis: EmbeddedRedis, tmp_path: Path) -> Iterator[ServerProcess]:
    server = start_server(own_redis.url, tmp_path, **SHORT)
    yield server
    server.stop()


def keyspace(client: redis.Redis) -> dict[str, tuple[str, int, int]]:
    """Every key (a SCAN of the whole keyspace): key -> (type, milliseconds to live, bytes)."""
    found = {}
    for key in client.scan_iter(count=1000):
        ttl = int(client.pttl(key))
        if ttl == -2:
            continue  # expired between SCAN and PTTL
        found[key.decode()] = (client.type(key).decode(), ttl, int(client.memory_usage(key) or 0))
    return found


async def _seated(base: str, game: str, names: list[str], **extra: object) -> CreatedGame:
    async with httpx.AsyncClient(base_url=base) as http:
        body = {"game": game, "players": len(names), "seats": names, **extra}
        response = await http.post("/v2/games", json=body)
    assert response.status_code == 201, response.text
    return msgspec.json.decode(response.content, type=CreatedGame)


async def _abandoned_lobbies(base: str) -> None:
    """One lobby nobody joined, one with a seat taken, one whose only player left."""
    async with httpx.AsyncClient(base_url=base) as http:
        lobbies = (("wedding_planner", 3, 0), ("mishra_factory", 3, 1), ("day_night", 2, 1))
        for game, players, joins in lobbies:
            created = await http.post("/v2/games", json={"game": game, "players": players})
            assert created.status_code == 201, created.text
            game_id = created.json()["game_id"]
            for seat in range(joins):
                joined = await http.post(f"/v2/games/{game_id}/seats", json={"name": f"p{seat}"})
                assert joined.status_code == 201, joined.text
                if game == "day_night":
                    token = msgspec.json.decode(joined.content, type=SeatGrant).token
                    left = await http.delete(
                        f"/v2/games/{game_id}/seat", headers={"Authorization": f"Bearer {token}"}
                    )
                    assert left.status_code == 204, left.text
        listed = await http.get("/v2/games")
        assert len(listed.json()["games"]) == 3


async def _abandoned_mid_game(base: str) -> tuple[Client, str]:
    """A game started from its lobby, a few moves, a refused action stored, a spectator; the
    players go away. One seat's connection stays open (returned with the game id)."""
    game_id, tokens = await open_game(base, "mishra_factory", 2)
    seats = [Client(base, keep=False) for _ in tokens]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    spectator = Client(base, keep=False)
    await spectator.connect()
    await spectator.join(game_id, role="spectator")
    bots = [Bot(client, random.Random(i)) for i, client in enumerate(seats)]
    await asyncio.gather(*(bot.play(stop_after=2) for bot in bots))
    staying = seats[0]
    assert staying.view is not None
    await staying.send(_stale(staying.view.version))
    refused = await staying.until(lambda m: isinstance(m, Rejected))
    assert isinstance(refused, Rejected)
    for client in (seats[1], spectator):
        await client.close()
    return staying, game_id


def _stale(version: int) -> Act:
    """An action on a version the game has not reached: refused, and the refusal stored."""
    return Act(action_id=new_action_id(), version=version + 50, action=Take(belt_position=0, group="C"))


async def _finished(base: str) -> None:
    created = await _seated(base, "base_race", ["ann", "bob"])
    clients = [Client(base, keep=False) for _ in created.grants or ()]
    for client, grant in zip(clients, created.grants or (), strict=True):
        await client.connect(grant.token)
        await client.join(created.game_id)
    await asyncio.gather(*(Bot(client, random.Random(i)).play() for i, client in enumerate(clients)))
    assert all(client.over is not None for client in clients)
    for client in clients:
        await client.close()


async def test_games_of_every_kind_leave_nothing_in_redis(
    short_lived: ServerProcess, own_redis: EmbeddedRedis
) -> None:
    base = short_lived.url
    client = redis.Redis.from_url(own_redis.url)
    await _abandoned_lobbies(base)
    written = keyspace(client)  # after each step: the lobbies may be gone by the end
    staying, expiring_id = await _abandoned_mid_game(base)
    written |= keyspace(client)
    await _finished(base)
    await _seated(base, "base_race", ["ann", "bob"], turn_seconds=0.2)  # nobody comes: the clock plays
    written |= keyspace(client)

    kinds = {key.split(":")[1] for key in written}
    assert {"game", "lobby", "games", "clocks", "client"} <= kinds, written
    assert any(key.endswith(":answers") for key in written), "a stored refusal"
    assert [key for key, (_, ttl, _) in written.items() if ttl < 0] == [], "a key without expiry"

    # A refusal decided on the process's copy of a game gone from Redis is not stored.
    while client.exists(f"pp:game:{{{expiring_id}}}"):
        await asyncio.sleep(0.2)
    assert staying.view is not None
    await staying.send(_stale(staying.view.version))
    await staying.until(lambda m: isinstance(m, Rejected))
    await staying.close()

    deadline = time.monotonic() + SWEEP_DEADLINE
    left = keyspace(client)
    while left and time.monotonic() < deadline:
        await asyncio.sleep(0.5)
        left = keyspace(client)
    print(f"keys seen while playing: {len(written)} ({sum(b for *_, b in written.values())} bytes)")
    print(f"keys left after the sweep: {len(left)} ({sum(b for *_, b in left.values())} bytes)")
    assert left == {}
    client.close()
