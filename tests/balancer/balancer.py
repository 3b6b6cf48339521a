"""HAProxy in front of the test's server processes, on loopback: the Compose file's
configuration (``deploy/haproxy/haproxy.cfg``) with the processes named by address.

Debian's ``haproxy`` must be on PATH (``.ci/run`` installs it when missing); without it
the tests that need it fail and say how to install it.
"""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from packplay.server.storage.embedded import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOYED = ROOT / "deploy" / "haproxy" / "haproxy.cfg"
CHECKS = "inter 250ms fall 2 rise 1"
"""The test's health checks: a process is out of rotation within about half a second of
failing readiness (the Compose file checks every 2 s, twice)."""
START_TIMEOUT = 10.0


def haproxy_binary() -> str:
    found = shutil.which("haproxy")
    if found is None:
        raise AssertionError(
            "haproxy is not on PATH: install Debian's package (apt-get install -y haproxy); "
            ".ci/run installs it when missing"
        )
    return found


def configuration(port: int, stats_port: int, servers: list[int]) -> str:
    """The deployed configuration, bound to loopback ports, its backend made of ``servers``.

    Everything else (timeouts, WebSocket tunnels, retries and redispatch, least-connections
    balancing, the readiness check) is the deployed file's own.
    """
    text = DEPLOYED.read_text()
    text = re.sub(r"\nresolvers docker\n(?:[ \t]+.*\n)+", "\n", text)
    replacements = {
        "    bind :8000\n": f"    bind 127.0.0.1:{port}\n",
        "    bind :8404\n": f"    bind 127.0.0.1:{stats_port}\n",
    }
    for old, new in replacements.items():
        assert text.count(old) == 1, f"{DEPLOYED} no longer has {old.strip()!r}"
        text = text.replace(old, new)
    lines = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("default-server "):
            lines.append(f"    default-server {CHECKS} check")
        elif stripped.startswith("server-template "):
            lines.extend(f"    server app-{i} 127.0.0.1:{p}" for i, p in enumerate(servers, 1))
        else:
            lines.append(line)
    return "\n".join(lines) + "\n"


@dataclass
class Balancer:
    """A running HAProxy: ``url`` is the front end; ``state`` reads its view of each server."""

    url: str
    stats_url: str
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    async def states(self) -> dict[str, str]:
        """Each server's status as HAProxy sees it (``UP``, ``DOWN``...), by name (``app-1``...)."""
        async with httpx.AsyncClient() as http:
            response = await http.get(self.stats_url + ";csv", timeout=2)
        response.raise_for_status()
        rows = csv.DictReader(io.StringIO(response.text.lstrip("# ")))
        return {
            row["svname"]: row["status"]
            for row in rows
            if row["pxname"] == "packplay" and row["svname"].startswith("app-")
        }


def start_balancer(servers: list[int], log_dir: Path) -> Balancer:
    """HAProxy in the foreground, in front of the processes on ``servers``, once it answers."""
    binary = haproxy_binary()
    port, stats_port = free_port(), free_port()
    config = log_dir / "haproxy.cfg"
    config.write_text(configuration(port, stats_port, servers))
    checked = subprocess.run([binary, "-c", "-f", str(config)], capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    log = log_dir / "haproxy.log"
    with log.open("wb") as sink:
        process = subprocess.Popen([binary, "-db", "-f", str(config)], stdout=sink, stderr=subprocess.STDOUT)
    balancer = Balancer(f"http://127.0.0.1:{port}", f"http://127.0.0.1:{stats_port}/stats", process, log)
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"haproxy exited: {log.read_text()}")
        try:
            if httpx.get(balancer.url + "/v2/ready", timeout=1).status_code == 200:
                return balancer
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    balancer.stop()
    raise RuntimeError(f"haproxy not answering in time: {log.read_text()}")
