"""Fixtures of the SDK tests: a private Redis-compatible server and sandbox server processes."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from clients_tables import Connections
from support_servers import ServerProcess, redis_server, spare_server, start_server

from packplay.server.storage.embedded import EmbeddedRedis

__all__ = ["connections", "redis_server", "server", "spare_server"]


@pytest.fixture(scope="session")
def server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One sandbox server process for the session."""
    started = start_server(redis_server.url, tmp_path_factory.mktemp("clients-server"))
    yield started
    started.stop()


@pytest.fixture
async def connections() -> AsyncIterator[Connections]:
    """Opens connections for a test and closes them after it."""
    opened = Connections()
    yield opened
    await opened.close()
