"""``packplay serve`` processes for the integration tests and the benchmark."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from packplay.server.embedded_redis import free_port

START_TIMEOUT = 20.0
SERVER_ENV = {
    "PACKPLAY_SEND_QUEUE": "64",
    "PACKPLAY_CLOCK_INTERVAL": "0.2",
    "PACKPLAY_LOG_LEVEL": "warning",
}


@dataclass
class ServerProcess:
    """One ``packplay serve`` process on a free port."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def kill(self) -> None:
        """Die at once, as a crashed or evicted process does (no graceful close)."""
        self.process.kill()
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()


def start_server(redis_url: str, log_dir: Path, **env: str) -> ServerProcess:
    port = free_port()
    log = log_dir / f"server-{port}.log"
    command = [sys.executable, "-m", "packplay.cli", "serve", "--port", str(port), "--redis-url", redis_url]
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PACKPLAY_")}
    environ.update(SERVER_ENV, PACKPLAY_SANDBOX="1", **env)
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env=environ, stdout=sink, stderr=subprocess.STDOUT)
    server = ServerProcess(f"http://127.0.0.1:{port}", process, log)
    _wait_ready(server)
    return server


def _wait_ready(server: ServerProcess) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"server exited: {server.log.read_text()}")
        try:
            if httpx.get(server.url + "/v1/ready", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    server.stop()
    raise RuntimeError(f"server not ready in time: {server.log.read_text()}")
