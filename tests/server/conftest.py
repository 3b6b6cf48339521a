"""Fixtures: a private real Redis-compatible server per test session (never the machine's),
and server processes started with ``packplay serve`` against it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from support_servers import ServerProcess, TestRedis, flush, redis_server, spare_server, start_server

from packplay.server.storage.games import GameStore

__all__ = ["redis_server", "redis_url", "servers", "spare_server", "store"]
QUICK = {"PACKPLAY_SEND_QUEUE": "64", "PACKPLAY_CLOCK_INTERVAL": "0.2", "PACKPLAY_HOUSE_GRACE": "1"}
"""The shared servers' settings: a short send queue, turn clocks checked five times a second, and
house decisions taken over after a second."""


@pytest.fixture
def redis_url(redis_server: TestRedis) -> str:
    """The private server's URL, emptied before each test (for tests without server processes)."""
    flush(redis_server)
    return redis_server.url


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[GameStore]:
    opened = GameStore.from_url(redis_url, process_id="this")
    yield opened
    await opened.close()


@pytest.fixture(scope="session")
def servers(
    redis_server: TestRedis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two server processes sharing the session's Redis, like two pods behind a balancer."""
    log_dir = tmp_path_factory.mktemp("servers")
    with ThreadPoolExecutor(2) as pool:
        started = list(pool.map(lambda _: start_server(redis_server.url, log_dir, **QUICK), range(2)))
    yield started
    for server in started:
        server.stop()
