"""permessage-deflate as the server accepts it: by default each message is compressed on its
own both ways (an idle connection keeps no compressor); kept contexts and no compression on
request. Real servers, a real client offering the extension as browsers do."""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from support_servers import ServerProcess, start_server
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode
from zlib_ng import zlib_ng

from packplay.server import uvicorn_protocols as protocols
from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.codec import decode_server
from packplay_protocol.to_client import ViewMessage, Welcome
from packplay_protocol.version import API_PREFIX, Encoding


@pytest.fixture(scope="module", params=["default", "context", "off"])
def server(
    request: pytest.FixtureRequest, redis_server: EmbeddedRedis, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, ServerProcess]]:
    env = {"context": {"PACKPLAY_WS_DEFLATE_CONTEXT": "1"}, "off": {"PACKPLAY_WS_DEFLATE": "0"}}
    started = start_server(redis_server.url, tmp_path_factory.mktemp("deflate"), **env.get(request.param, {}))
    yield request.param, started
    started.stop()


async def _seated_view(server: ServerProcess, compression: str | None) -> tuple[ViewMessage, object]:
    """Create a game with both seats taken, say hello with seat 0's token and join it."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        created = (
            await http.post(
                f"{API_PREFIX}/games", json={"game": "day_night", "players": 2, "seats": ["a", "b"]}
            )
        ).json()
    url = server.url.replace("http://", "ws://") + f"{API_PREFIX}/ws"
    async with websockets.connect(url, subprotocols=["packplay.v2.json"], compression=compression) as ws:  # type: ignore[list-item]
        await ws.send(f'{{"type": "hello", "token": "{created["grants"][0]["token"]}"}}')
        assert isinstance(decode_server(await ws.recv(), Encoding.JSON), Welcome)
        await ws.send(f'{{"type": "join", "game_id": "{created["game_id"]}"}}')
        view = decode_server(await ws.recv(), Encoding.JSON)
        extensions = list(ws.protocol.extensions)
    assert isinstance(view, ViewMessage) and view.game_id == created["game_id"] and view.seat == 0
    return view, extensions


async def test_the_extension_negotiated_and_the_messages_it_carries(
    server: tuple[str, ServerProcess],
) -> None:
    kind, process = server
    view, extensions = await _seated_view(process, "deflate")
    if kind == "off":
        assert extensions == []
        return
    [deflate] = extensions  # type: ignore[misc]
    assert isinstance(deflate, PerMessageDeflate)
    keeps = kind == "context"
    # Seen from the client: "remote" is the server's compressor, "local" the client's.
    assert deflate.remote_no_context_takeover is not keeps
    assert deflate.local_no_context_takeover is not keeps
    assert deflate.remote_max_window_bits == 12
    plain, none = await _seated_view(process, None)
    assert none == [] and len(plain.view.seats) == len(view.view.seats) == 2  # type: ignore[attr-defined]


def test_the_servers_deflate_compresses_with_zlib_ng() -> None:
    """What the negotiated extension writes is zlib-ng's output at its fastest level, not zlib's
    (the two differ at that level): websockets still reads the compressor the server set."""
    _, extension = protocols.deflate(False).process_request_params([("client_max_window_bits", None)], [])
    update = json.dumps({"events": [{"type": "x", "n": n, "card": f"c{n:010x}"} for n in range(60)]}).encode()
    sent = extension.encode(Frame(Opcode.TEXT, update)).data

    def compressed(module: Any) -> bytes:
        compressor = module.compressobj(1, module.DEFLATED, -12, 5)
        return bytes(compressor.compress(update) + compressor.flush(module.Z_SYNC_FLUSH))[:-4]

    assert compressed(zlib_ng) != compressed(zlib), "the sample tells the two apart"
    assert sent == compressed(zlib_ng)
