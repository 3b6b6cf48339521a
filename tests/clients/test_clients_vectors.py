"""The SDK against the conformance vectors: what it decodes, what it sends (no JavaScript involved)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
import pytest
from clients_memory import VECTORS, Peer, ScriptedServer, vector_cases, welcome

from packplay_clients import GameConnection
from packplay_protocol.from_client import Act, ClientMessage, Hello, Join, Ping
from packplay_protocol.to_client import Pong, ServerMessage
from packplay_protocol.version import Encoding

from vectors import complete

TO_CLIENT = [
    pytest.param(kind.stem, case, id=f"{kind.stem}-{case['name']}")
    for kind in sorted((VECTORS / "to_client").glob("*.json"))
    for case in vector_cases("to_client", kind.stem)
]

FROM_CLIENT = [
    pytest.param(message, id=f"{kind}-{case['name']}")
    for kind in ("act", "join", "ping")
    for case in vector_cases("from_client", kind)
    # The SDK sets join's from_version itself, when it resumes.
    if (message := msgspec.convert(case["message"], ClientMessage))
    and getattr(message, "from_version", None) is None
]


UPDATED_VIEW = next(case for case in vector_cases("to_client", "view") if case["name"] == "mishra_factory")


def _frame(case: dict[str, Any], encoding: Encoding) -> bytes:
    return case["json"].encode() if encoding is Encoding.JSON else bytes.fromhex(case["msgpack_hex"])


async def opened(encoding: Encoding, token: str | None = None) -> tuple[GameConnection, Peer]:
    server = ScriptedServer(encoding)
    connection = GameConnection(
        "ws://scripted", token=token, encoding=encoding, connector=server.connector, keepalive=False
    )
    opening = asyncio.create_task(connection.open())
    peer = await server.accept()
    await peer.receive()
    await peer.send(welcome(encoding=encoding))
    await opening
    return connection, peer


async def first_message(connection: GameConnection) -> ServerMessage:
    stream = connection.messages()
    assert await anext(stream) == connection.welcome
    return await asyncio.wait_for(anext(stream), 5)


@pytest.mark.parametrize("encoding", [Encoding.JSON, Encoding.MSGPACK])
@pytest.mark.parametrize(("kind", "case"), TO_CLIENT)
async def test_the_sdk_receives_every_server_vector(
    kind: str, case: dict[str, Any], encoding: Encoding
) -> None:
    connection, peer = await opened(encoding)
    if kind == "update":  # an update patches a view: the one of the same game, a version before
        await peer.send_frame(_frame(UPDATED_VIEW, encoding))
        await first_message(connection)
    await peer.send_frame(_frame(case, encoding))
    received = await (anext(connection.messages()) if kind == "update" else first_message(connection))
    await connection.close()
    assert complete(received) == _builtins(case["message"])
    assert connection.decode_errors == []


@pytest.mark.parametrize("encoding", [Encoding.JSON, Encoding.MSGPACK])
@pytest.mark.parametrize("message", FROM_CLIENT)
async def test_the_sdk_sends_what_the_client_vectors_hold(message: ClientMessage, encoding: Encoding) -> None:
    assert await sent(encoding, _call(message)) == message


def _call(message: ClientMessage) -> Callable[[GameConnection], Awaitable[Any]]:
    """The SDK call that sends ``message``."""
    if isinstance(message, Act):
        return lambda c: c.act(message.action, version=message.version, action_id=message.action_id)
    if isinstance(message, Join):
        return lambda c: c.join(message.game_id, message.role)
    assert isinstance(message, Ping)
    return lambda c: c.ping(message.nonce)


async def sent(encoding: Encoding, call: Callable[[GameConnection], Awaitable[Any]]) -> ClientMessage:
    """The message the SDK sends for ``call`` on a fresh connection."""
    connection, peer = await opened(encoding)
    calling = asyncio.ensure_future(call(connection))
    message = await peer.receive()
    calling.cancel()
    await connection.close()
    return message


@pytest.mark.parametrize("encoding", [Encoding.JSON, Encoding.MSGPACK])
async def test_the_sdk_says_hello_as_the_vectors_do(encoding: Encoding) -> None:
    for case in vector_cases("from_client", "hello"):
        hello = msgspec.convert(case["message"], Hello)
        server = ScriptedServer(encoding)
        connection = GameConnection(
            "ws://scripted",
            token=hello.token,
            client=hello.client,
            encoding=encoding,
            connector=server.connector,
        )
        opening = asyncio.create_task(connection.open())
        peer = await server.accept()
        assert await peer.receive() == hello
        opening.cancel()
        await connection.close()


async def test_undecodable_frames_are_recorded_and_the_connection_goes_on() -> None:
    invalid = json.loads((VECTORS / "invalid.json").read_text())["cases"]
    for encoding in Encoding:
        connection, peer = await opened(encoding)
        cases = [c for c in invalid if c["encoding"] == encoding.value and c["code"] == "bad_message"]
        for case in cases:
            await peer.end.send(bytes.fromhex(case["frame_hex"]))
        await peer.send(Pong(nonce="after"))
        assert await first_message(connection) == Pong(nonce="after")
        assert len(connection.decode_errors) == len(cases) > 0
        await connection.close()


def _builtins(message: Any) -> Any:
    """The vector's message as the SDK's structs hold it (every field, defaults filled in)."""
    return complete(msgspec.convert(message, ServerMessage))
