"""The garbage collector's policy: its thresholds, and a collection after many protocols let go."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator

import pytest
import uvicorn
from websockets.asyncio.client import connect
from websockets.typing import Subprotocol

from packplay.server.app import create_app
from packplay.server.collector import MIDDLE_THRESHOLD, PROTOCOLS_PER_COLLECTION, YOUNG_THRESHOLD, Collector
from packplay.server.settings import Settings
from packplay.server.uvicorn_protocols import GuardedHttpProtocol, GuardedWebSocketProtocol
from packplay.server.ws.connection import Connection


@pytest.fixture
def thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)
    gc.unfreeze()


def _middle_collections() -> int:
    return int(gc.get_stats()[1]["collections"])


def test_tune_sets_the_young_and_middle_thresholds(thresholds: None) -> None:
    Collector().tune()
    assert gc.get_threshold()[:2] == (YOUNG_THRESHOLD, MIDDLE_THRESHOLD)
    assert gc.get_freeze_count() > 0, "what existed is kept out of later collections"


def test_every_thousand_protocols_let_go_collect_the_middle_generation(thresholds: None) -> None:
    gc.set_threshold(0)  # no collection but the ones asked for
    policy = Collector()
    before = _middle_collections()
    for _ in range(PROTOCOLS_PER_COLLECTION - 1):
        policy.protocol_let_go()
    assert _middle_collections() == before
    policy.protocol_let_go()
    assert _middle_collections() == before + 1
    for _ in range(PROTOCOLS_PER_COLLECTION):
        policy.protocol_let_go()
    assert _middle_collections() == before + 2


def test_a_closed_connections_cycles_are_freed_by_the_collection(thresholds: None) -> None:
    gc.set_threshold(0)
    policy = Collector()

    class Connection:
        pass

    for _ in range(PROTOCOLS_PER_COLLECTION):
        connection, peer = Connection(), Connection()
        connection.peer, peer.peer = peer, connection  # type: ignore[attr-defined]
        policy.protocol_let_go()
    del connection, peer
    left = sum(1 for o in gc.get_objects() if type(o) is Connection)
    assert left == 2, "only the last pair waits for the next collection"


async def test_a_websocket_connection_closed_leaves_no_cycle_behind(thresholds: None, redis_url: str) -> None:
    """The HTTP protocol an upgrade replaces, the WebSocket protocol and the connection on it
    all go by reference counting once the client has gone: no collection needed."""
    app = create_app(Settings.from_env().with_overrides(redis_url=redis_url))
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=0,
        http=GuardedHttpProtocol,
        ws=GuardedWebSocketProtocol,
        lifespan="on",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    gc.collect()
    gc.disable()  # what the connections leave in cycles waits for the collection below
    try:
        offer = [Subprotocol("packplay.v2.json")]
        for _ in range(3):
            async with connect(f"ws://127.0.0.1:{port}/v2/ws", subprotocols=offer):
                pass
        while server.server_state.connections:
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)  # the connections' tasks end after their protocols
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
    finally:
        gc.set_debug(0)
        gc.enable()
    kinds = (GuardedHttpProtocol, GuardedWebSocketProtocol, Connection)
    left = [type(o).__name__ for o in gc.garbage if isinstance(o, kinds)]
    gc.garbage.clear()
    server.should_exit = True
    await serving
    assert left == []
