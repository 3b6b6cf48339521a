"""Sandbox ``packplay serve`` processes for the SDK tests, each on a free loopback port."""

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


@dataclass
class Server:
    """One server process; ``url`` is its base URL."""

    url: str
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        """Stop gracefully: open connections are closed with 1001 (going away)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_server(redis_url: str, log_dir: Path, sandbox: bool = True) -> Server:
    port = free_port()
    log = log_dir / f"server-{port}.log"
    command = [sys.executable, "-m", "packplay.cli", "serve", "--port", str(port), "--redis-url", redis_url]
    environ = {k: v for k, v in os.environ.items() if not k.startswith("PACKPLAY_")}
    environ.update(PACKPLAY_LOG_LEVEL="warning", PACKPLAY_SANDBOX="1" if sandbox else "0")
    with log.open("wb") as sink:
        process = subprocess.Popen(command, env=environ, stdout=sink, stderr=subprocess.STDOUT)
    server = Server(f"http://127.0.0.1:{port}", process, log)
    _wait_ready(server)
    return server


def _wait_ready(server: Server) -> None:
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
