"""Fixtures of the bot and arena tests: a private Redis-compatible server and a sandbox server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support_servers import ServerProcess, redis_server, start_server

from packplay.server.storage.embedded import EmbeddedRedis

__all__ = ["redis_server", "server"]


@pytest.fixture(scope="session")
def server(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One sandbox server process for the session."""
    started = start_server(redis_server.url, tmp_path_factory.mktemp("bots-server"))
    yield started
    started.stop()
