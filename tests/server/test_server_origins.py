"""Browser origins: which pages may open the WebSocket or call the REST API (configurable)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets
from support_servers import ServerProcess, start_server
from websockets.exceptions import InvalidStatus

from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.codec import decode_server, encode
from packplay_protocol.from_client import Hello
from packplay_protocol.to_client import Welcome
from packplay_protocol.version import Encoding

PAGE = "https://play.example"
OTHER = "https://elsewhere.example"


@pytest.fixture(scope="module")
def guarded(redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    log_dir: Path = tmp_path_factory.mktemp("origins")
    server = start_server(redis_server.url, log_dir, PACKPLAY_WS_ORIGINS=PAGE, PACKPLAY_CORS_ORIGINS=PAGE)
    yield server
    server.stop()


def ws_url(server: ServerProcess) -> str:
    return server.url.replace("http://", "ws://") + "/v2/ws"


async def test_a_websocket_from_an_allowed_page_is_served(guarded: ServerProcess) -> None:
    async with websockets.connect(ws_url(guarded), origin=PAGE, subprotocols=["packplay.v2.json"]) as ws:  # type: ignore[arg-type, list-item]
        await ws.send(encode(Hello(client="origin-test"), Encoding.JSON).decode())
        assert isinstance(decode_server(await ws.recv(), Encoding.JSON), Welcome)


async def test_a_websocket_from_another_page_is_refused(guarded: ServerProcess) -> None:
    with pytest.raises(InvalidStatus) as refused:
        async with websockets.connect(ws_url(guarded), origin=OTHER, subprotocols=["packplay.v2.json"]):  # type: ignore[arg-type, list-item]
            pass
    assert refused.value.response.status_code == 403


async def test_native_clients_send_no_origin_and_are_served(guarded: ServerProcess) -> None:
    async with websockets.connect(ws_url(guarded), subprotocols=["packplay.v2.json"]) as ws:  # type: ignore[list-item]
        await ws.send(encode(Hello(), Encoding.JSON).decode())
        assert isinstance(decode_server(await ws.recv(), Encoding.JSON), Welcome)


async def test_cors_preflight_answers_the_allowed_page_only(guarded: ServerProcess) -> None:
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}
    async with httpx.AsyncClient(base_url=guarded.url) as http:
        allowed = await http.options("/v2/games", headers={"Origin": PAGE, **preflight})
        refused = await http.options("/v2/games", headers={"Origin": OTHER, **preflight})
        listed = await http.get("/v2/games", headers={"Origin": PAGE})
    assert allowed.status_code == 200 and allowed.headers["access-control-allow-origin"] == PAGE
    assert "access-control-allow-origin" not in refused.headers
    assert listed.headers["access-control-allow-origin"] == PAGE
