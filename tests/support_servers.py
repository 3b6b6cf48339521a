"""Server processes for the integration and SDK tests: a private Redis and ``packplay serve`` on free ports.

Shared by ``tests/server`` and ``tests/clients`` (``tests`` is on pytest's ``pythonpath``).
Each folder's conftest re-exports the fixtures below, so each folder has its own
private Redis-compatible server per test session (never the machine's).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import redis
from redis_topologies import LocalCluster, backend

from packplay.server.storage.embedded import EmbeddedRedis, free_port

TestRedis = EmbeddedRedis | LocalCluster

START_TIMEOUT = 60.0
"""A bound, not a figure: on two cores shared with the rest of the suite a start can take long."""
SERVER_ENV = {
    "PACKPLAY_SANDBOX": "1",
    "PACKPLAY_LOG_LEVEL": "warning",
    "PACKPLAY_DRAIN_DELAY": "0",
    "PACKPLAY_HOUSE_PROCESSES": "1",
    "PACKPLAY_HOUSE_SECONDS": "0.05",
    "PACKPLAY_GAMES_PER_MINUTE": "0",
    "PACKPLAY_OPEN_LOBBIES": "0",
    "PACKPLAY_CONNECTIONS_PER_ADDRESS": "0",
    "PACKPLAY_SPECTATORS_PER_ADDRESS": "0",
    "PACKPLAY_CATCH_UPS_PER_MINUTE": "0",
    "PACKPLAY_HOUSE_GAMES_PER_MINUTE": "0",
    "PACKPLAY_HOUSE_MOVES_PER_MINUTE": "0",
}
"""Every test server's settings beyond the defaults: the tests create many games, connections and
house games from one address (the per-client limits are tested on servers of their own), and
the SDK's transcripts show the default connection limits. No drain delay: no load balancer
watches these processes' readiness, and a stopping process closes its WebSockets (1012) at
once; tests of the drain set their own delay."""


@dataclass
class ServerProcess:
    """One ``packplay serve`` process on a free port; ``url`` is its base URL."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """Die at once, as a crashed or evicted process does (no graceful close)."""
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        """Stop gracefully (SIGTERM: the drain): open connections are closed with 1012."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(
    redis_url: str, log_dir: Path, port: int | None = None, timeout: float = START_TIMEOUT, **env: str
) -> ServerProcess:
    """Start a server with :data:`SERVER_ENV` and ``env`` (``PACKPLAY_*`` settings), once it is ready.

    ``port``: the port to listen on (a free one by default); a server restarted on its port
    logs to the end of the same file. ``timeout``: seconds it may take to be ready.
    """
    port = port or free_port()
    log = log_dir / f"server-{port}.log"
    command = [sys.executable, "-m", "packplay.cli", "serve", "--port", str(port), "--redis-url", redis_url]
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PACKPLAY_")}
    environ.update(SERVER_ENV, **env)
    with log.open("ab") as sink:
        process = subprocess.Popen(command, env=environ, stdout=sink, stderr=subprocess.STDOUT)
    server = ServerProcess(f"http://127.0.0.1:{port}", process, log)
    _wait_ready(server, timeout)
    return server


def _wait_ready(server: ServerProcess, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited: {server.log.read_text()}")
        try:
            if httpx.get(server.url + "/v2/ready", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"server not ready in time: {server.log.read_text()}")


def flush(server: TestRedis) -> None:
    """Empty the session's Redis (every master of a cluster)."""
    if isinstance(server, LocalCluster):
        server.flush()
        return
    client = redis.Redis.from_url(server.url)
    client.flushall()
    client.close()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[TestRedis]:
    """The test session's private Redis: one server, or a cluster of 3 masters and 3 replicas
    with ``PACKPLAY_TEST_REDIS=cluster`` (see :mod:`redis_topologies`)."""
    chosen: TestRedis = LocalCluster() if backend() == "cluster" else EmbeddedRedis()
    with chosen as server:
        yield server


@pytest.fixture
def spare_server(redis_server: TestRedis, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server process of the test's own on the session's Redis, for tests that stop or kill one."""
    server = start_server(redis_server.url, tmp_path)
    yield server
    server.stop()
