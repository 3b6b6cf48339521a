"""A move pub/sub never delivered: two real server processes, the seats of one game on
each; the game's watcher set is emptied in Redis before a move, so the commit publishes it
to nobody, as a channel that failed over would drop it. The other process's watchdog finds
the game quiet and behind Redis, and its seat gets the move all the same."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_client import Client, answered, new_action_id, pick
from server_lobby import open_game
from support_servers import ServerProcess, TestRedis, start_server

from packplay.server.storage import keys
from packplay.server.storage.games import GameStore
from packplay_protocol.from_client import Act, Ping

PING_INTERVAL = 4
"""Seconds: the watchdog sweeps every two (a game is checked once quiet for five)."""


@pytest.fixture
def two_servers(redis_server: TestRedis, tmp_path: Path) -> Iterator[list[ServerProcess]]:
    settings = {"PACKPLAY_PING_INTERVAL": str(PING_INTERVAL)}
    started = [start_server(redis_server.url, tmp_path, **settings) for _ in range(2)]
    yield started
    for server in started:
        server.stop()


async def test_a_move_pubsub_dropped_reaches_the_other_process_seat(
    redis_server: TestRedis, two_servers: list[ServerProcess]
) -> None:
    game_id, tokens = await open_game(two_servers[0].url, "mishra_factory", 2)
    seats = [Client(two_servers[seat].url) for seat in range(2)]
    for seat, client in enumerate(seats):
        await client.connect(tokens[seat])
        await client.join(game_id)
    store = GameStore.from_url(redis_server.url, process_id="test")
    try:
        await store.pipeline.call("HDEL", keys.game(game_id), "watchers")  # nobody is sent the next entry
    finally:
        await store.close()

    mover = next(c for c in seats if c.view is not None and (c.view.legal.actions or c.view.legal.choices))
    waiting = seats[1 - seats.index(mover)]
    before = waiting.version
    assert mover.view is not None
    action = pick(mover.view.legal, random.Random(5))
    act = Act(action_id=new_action_id(), version=mover.view.version, action=action)
    await mover.send(act)
    await mover.until(answered(act.action_id))
    assert mover.version == before + 1

    deadline = time.monotonic() + 6 * PING_INTERVAL
    while waiting.version == before and time.monotonic() < deadline:
        await waiting.send(Ping(nonce="still here"))  # a waiting client that keeps its connection
        await waiting.idle(1.0)
    assert waiting.version == before + 1, "the move never reached the other process's seat"
    assert waiting.broken == [] and mover.broken == []
    index = seats.index(waiting)
    fresh = Client(two_servers[index].url)
    await fresh.connect(tokens[index])
    await fresh.join(game_id)
    assert fresh.document == waiting.document, "the view caught up equals a whole view"
    for client in (*seats, fresh):
        await client.close()
