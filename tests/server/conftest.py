"""Fixtures: a private real Redis-compatible server per test session (never the machine's),
and server processes started with ``packplay serve`` against it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import redis
from server_processes import ServerProcess, start_server

from packplay.server.embedded_redis import EmbeddedRedis
from packplay.server.store import Store


@pytest.fixture(scope="session")
def redis_server() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: EmbeddedRedis) -> str:
    """The private server's URL, emptied before each test (for tests without server processes)."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushall()
    client.close()
    return redis_server.url


@pytest.fixture
async def store(redis_url: str) -> AsyncIterator[Store]:
    opened = Store.from_url(redis_url)
    yield opened
    await opened.close()


@pytest.fixture(scope="session")
def servers(
    redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[ServerProcess]]:
    """Two server processes sharing the session's Redis, like two pods behind a balancer."""
    log_dir = tmp_path_factory.mktemp("servers")
    with ThreadPoolExecutor(2) as pool:
        started = list(pool.map(lambda _: start_server(redis_server.url, log_dir), range(2)))
    yield started
    for server in started:
        server.stop()


@pytest.fixture
def spare_server(redis_server: EmbeddedRedis, tmp_path: Path) -> Iterator[ServerProcess]:
    """A third process, for tests that kill one."""
    server = start_server(redis_server.url, tmp_path)
    yield server
    server.stop()
