"""Client addresses behind the deployed HAProxy: a client cannot name its own.

A server process trusts the loopback proxy, as the deployed processes trust their load
balancer, and sits behind HAProxy running ``deploy/haproxy/haproxy.cfg``. A client that
sends ``X-Forwarded-For`` with a new address on every request still counts as itself:
HAProxy sets the header to the address it sees, so the per-client limits of new and open
games hold. The same requests sent to the process directly, past the proxy, are believed:
what protects the limits is the proxy's configuration.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from balancer import Balancer, start_balancer
from support_servers import ServerProcess, start_server

from packplay.server.storage.embedded import EmbeddedRedis

OPEN_LOBBIES = 2
LIMITED = {"PACKPLAY_GAMES_PER_MINUTE": "0", "PACKPLAY_OPEN_LOBBIES": str(OPEN_LOBBIES)}
_spoofed = (f"203.0.113.{n}" for n in itertools.count(1))


@pytest.fixture
def behind_haproxy(redis_server: EmbeddedRedis, tmp_path: Path) -> Iterator[tuple[Balancer, ServerProcess]]:
    server = start_server(redis_server.url, tmp_path, **LIMITED)
    balancer = start_balancer([int(server.url.rsplit(":", 1)[1])], tmp_path)
    yield balancer, server
    balancer.stop()
    server.stop()


def _lobbies(base: str, count: int) -> list[int]:
    """Create ``count`` open games, each with a forwarded address of its own; the statuses."""
    statuses = []
    with httpx.Client(base_url=base, timeout=10) as http:
        for _ in range(count):
            headers = {"X-Forwarded-For": next(_spoofed)}
            body = {"game": "day_night", "players": 2}
            statuses.append(http.post("/v2/games", json=body, headers=headers).status_code)
    return statuses


def test_a_client_sent_forwarded_address_is_replaced_by_the_proxy(
    behind_haproxy: tuple[Balancer, ServerProcess],
) -> None:
    balancer, server = behind_haproxy
    through = _lobbies(balancer.url, 6)
    assert through == [201] * OPEN_LOBBIES + [429] * (6 - OPEN_LOBBIES), "one client, however it names itself"
    direct = _lobbies(server.url, 4)
    assert direct == [201] * 4, "past the proxy, a trusted peer's header names the client"
