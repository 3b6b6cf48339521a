"""Fixtures of the SDK tests: a private Redis-compatible server and sandbox server processes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from clients_servers import Server, start_server
from clients_tables import Connections

from packplay.server.embedded_redis import EmbeddedRedis


@pytest.fixture(scope="session")
def clients_redis() -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis() as server:
        yield server


@pytest.fixture(scope="session")
def server(clients_redis: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One sandbox server process for the session."""
    started = start_server(clients_redis.url, tmp_path_factory.mktemp("clients-server"))
    yield started
    started.stop()


@pytest.fixture
def spare_server(clients_redis: EmbeddedRedis, tmp_path: Path) -> Iterator[Server]:
    """A second process on the same Redis, for a test that stops one."""
    started = start_server(clients_redis.url, tmp_path)
    yield started
    started.stop()


@pytest.fixture
async def connections() -> AsyncIterator[Connections]:
    """Opens connections for a test and closes them after it."""
    opened = Connections()
    yield opened
    await opened.close()
