"""A scripted server on the SDK's in-memory transport: the test plays the server frame by frame."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from packplay_clients import MemoryTransport, Transport, TransportClosed, memory_pair
from packplay_protocol.codec import decode_client, encode
from packplay_protocol.errors import DecodeError
from packplay_protocol.from_client import Act, ClientMessage
from packplay_protocol.limits import DEFAULT_LIMITS
from packplay_protocol.to_client import ServerMessage, ViewMessage, Welcome
from packplay_protocol.version import SUBPROTOCOLS, Encoding

VECTORS = Path(__file__).resolve().parents[2] / "protocol" / "vectors"
GAME_ID = "g7Hk2pQx"
STEP = 5.0


def vector_cases(direction: str, kind: str) -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = json.loads((VECTORS / direction / f"{kind}.json").read_text())["cases"]
    return cases


def view_at(version: int, game_id: str = GAME_ID) -> ViewMessage:
    """A real view from the conformance vectors, moved to ``version``."""
    view = msgspec.convert(vector_cases("to_client", "view")[0]["message"], ViewMessage)
    return msgspec.structs.replace(view, version=version, game_id=game_id)


def an_action() -> Any:
    """A real action from the conformance vectors."""
    return msgspec.convert(vector_cases("from_client", "act")[0]["message"], Act).action


def welcome(seat: int | None = 0, encoding: Encoding = Encoding.JSON) -> Welcome:
    protocol = next(name for name, spoken in SUBPROTOCOLS.items() if spoken is encoding)
    return Welcome(
        server="scripted",
        protocol=protocol,
        versions=tuple(SUBPROTOCOLS),
        limits=DEFAULT_LIMITS,
        game_id=None if seat is None else GAME_ID,
        seat=seat,
    )


class Peer:
    """The server's end of one connection."""

    def __init__(self, end: MemoryTransport, encoding: Encoding) -> None:
        self.end = end
        self.encoding = encoding

    async def receive(self) -> ClientMessage:
        frame = await asyncio.wait_for(self.end.recv(), STEP)
        message = decode_client(frame, self.encoding)
        assert not isinstance(message, DecodeError), message
        return message

    async def send(self, *messages: ServerMessage) -> None:
        for message in messages:
            await self.send_frame(encode(message, self.encoding))

    async def send_frame(self, frame: bytes) -> None:
        await self.end.send(frame.decode() if self.encoding is Encoding.JSON else frame)

    async def close(self, code: int) -> None:
        await self.end.close(code)


class ScriptedServer:
    """Hands each connection attempt an in-memory pair; ``refuse`` attempts fail first."""

    def __init__(self, encoding: Encoding = Encoding.JSON, refuse: int = 0) -> None:
        self.encoding = encoding
        self.refuse = refuse
        self.attempts = 0
        self._peers: asyncio.Queue[Peer] = asyncio.Queue()

    async def connector(self, url: str, offer: Sequence[str]) -> Transport:
        self.attempts += 1
        if self.attempts > 1 and self.refuse > 0:
            self.refuse -= 1
            raise TransportClosed(1006, "refused")
        client, server = memory_pair(offer[0])
        self._peers.put_nowait(Peer(server, self.encoding))
        return client

    async def accept(self) -> Peer:
        return await asyncio.wait_for(self._peers.get(), STEP)
