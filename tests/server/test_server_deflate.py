"""permessage-deflate as the server accepts it: by default each message is compressed on its
own both ways (an idle connection keeps no compressor); kept contexts and no compression on
request. Real servers, a real client offering the extension as browsers do."""

from __future__ import annotations

import json
import random
import zlib
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets
from server_client import Client, answered, new_action_id, pick
from support_servers import ServerProcess, start_server
from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode
from zlib_ng import zlib_ng

from packplay.server import uvicorn_protocols as protocols
from packplay.server.storage.embedded import EmbeddedRedis
from packplay_protocol.codec import decode_server
from packplay_protocol.from_client import Act
from packplay_protocol.to_client import Update, ViewMessage, Welcome
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


async def test_spectators_framed_alike_or_not_all_read_the_same_updates(
    server: tuple[str, ServerProcess],
) -> None:
    """An update is framed once per framing and shared by the connections that frame alike:
    spectators with and without compression, in JSON and MessagePack, each rebuild from it the
    view a spectator joining afterwards is sent, and every seat's update fits its own view."""
    _, process = server
    async with httpx.AsyncClient(base_url=process.url) as http:
        created = (
            await http.post(
                f"{API_PREFIX}/games", json={"game": "day_night", "players": 2, "seats": ["a", "b"]}
            )
        ).json()
    game_id = created["game_id"]
    seats = [Client(process.url) for _ in range(2)]
    watchers = [
        Client(process.url, encoding, compression=compression)
        for encoding in (Encoding.JSON, Encoding.MSGPACK)
        for compression in ("deflate", None, "deflate")
    ]
    try:
        for seat, grant in zip(seats, created["grants"], strict=True):
            await seat.connect(grant["token"])
            await seat.join(game_id)
        for watcher in watchers:
            await watcher.connect()
            await watcher.join(game_id, role="spectator")
        rng = random.Random(7)
        for _ in range(6):
            actor = next(seat for seat in seats if seat.view and _pending(seat.view))
            view = actor.view
            assert view is not None
            act = Act(action_id=new_action_id(), version=view.version, action=pick(view.legal, rng))
            await actor.send(act)
            await actor.until(answered(act.action_id))
            for client in (*seats, *watchers):
                if client.version <= act.version:
                    await client.until(lambda m, v=act.version: isinstance(m, Update) and m.version > v)
        late = Client(process.url)
        await late.connect()
        fresh = await late.join(game_id, role="spectator")
        await late.close()
        for client in (*seats, *watchers):
            assert client.broken == []
        for watcher in watchers:
            assert watcher.document is not None
            assert watcher.version == fresh.version
            assert {**watcher.document, "version": 0} == {**(late.document or {}), "version": 0}
    finally:
        for client in (*seats, *watchers):
            await client.close()


def _pending(view: ViewMessage) -> bool:
    return bool(view.legal.actions or view.legal.choices)
