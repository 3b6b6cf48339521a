"""Redis slower than the load, or away for a moment: players wait, or are told to retry; no
seat is dropped, and an action applied while its answer was lost is answered when sent again."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from server_client import Bot, Client, new_action_id, pick
from support_servers import ServerProcess, start_server

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.errors import RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.to_client import Accepted, Rejected, Update

GAMES = 6


@pytest.fixture(params=["1"])
def pausable(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[EmbeddedRedis, ServerProcess]]:
    """A server on a Redis of its own (the test pauses it), waiting ``param`` seconds for its answers."""
    with EmbeddedRedis() as private:
        server = start_server(private.url, tmp_path, PACKPLAY_REDIS_TIMEOUT=request.param)
        yield private, server
        server.stop()


async def _table(url: str) -> list[Client]:
    import httpx

    async with httpx.AsyncClient(base_url=url) as http:
        body = {"game": "mishra_factory", "players": 2, "seats": ["a", "b"]}
        grants = (await http.post("/v2/games", json=body)).json()["grants"]
    seats = [Client(url) for _ in grants]
    for client, grant in zip(seats, grants, strict=True):
        await client.connect(grant["token"])
        await client.join(grant["game_id"])
    return seats


def _pause(private: EmbeddedRedis, milliseconds: int) -> None:
    client = redis.Redis.from_url(private.url)
    client.execute_command("CLIENT", "PAUSE", milliseconds, "WRITE")
    client.close()


@pytest.mark.parametrize("pausable", ["10"], indirect=True)
async def test_players_wait_out_a_slow_redis_and_every_game_ends(
    pausable: tuple[EmbeddedRedis, ServerProcess],
) -> None:
    private, server = pausable
    tables = [await _table(server.url) for _ in range(GAMES)]
    bots = [Bot(client, random.Random(i)) for i, client in enumerate(c for t in tables for c in t)]
    playing = asyncio.gather(*(bot.play() for bot in bots))
    for _ in range(3):  # Redis stops writing for a while, three times: everyone just waits
        await asyncio.sleep(0.3)
        _pause(private, 700)
    await asyncio.wait_for(playing, 60)
    answers = [answer for bot in bots for answer in bot.answers]
    refused = [a for a in answers if isinstance(a, Rejected) and a.reason is not RejectReason.STALE_VERSION]
    assert refused == [] and all(c.over is not None and c.broken == [] for t in tables for c in t)
    for client in (c for t in tables for c in t):
        await client.close()


async def test_an_action_whose_answer_timed_out_is_answered_when_sent_again(
    pausable: tuple[EmbeddedRedis, ServerProcess],
) -> None:
    private, server = pausable
    seats = await _table(server.url)
    view = next(
        c.view for c in seats if c.view is not None and (c.view.legal.actions or c.view.legal.choices)
    )
    mover = next(c for c in seats if c.view is view)
    other = next(c for c in seats if c is not mover)
    act = Act(action_id=new_action_id(), version=view.version, action=pick(view.legal, random.Random(1)))
    _pause(private, 2500)  # longer than the server waits for Redis
    await mover.send(act)
    first = await mover.until(lambda m: isinstance(m, Rejected | Accepted | Update), timeout=10)
    assert isinstance(first, Rejected) and first.reason is RejectReason.UNAVAILABLE
    await asyncio.sleep(2.0)  # the pause ends; Redis then runs what it held
    await mover.send(act)
    again = await mover.until(lambda m: isinstance(m, Accepted | Rejected | Update), timeout=10)
    assert not isinstance(again, Rejected), again
    assert again.version == view.version + 1, "applied exactly once, whatever was lost on the way"
    await other.until(lambda m: other.version == view.version + 1, timeout=10)
    assert other.broken == [] and mover.broken == []
    for client in seats:
        await client.close()
