"""How frames travel: a small transport interface, over WebSocket or in memory.

:class:`~packplay_clients.connection.GameConnection` speaks the protocol over any
:class:`Transport` a :data:`Connector` opens. The default connector opens a real
WebSocket; :func:`memory_pair` gives two connected in-memory ends, so a test can
play the server's part frame by frame without any socket.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI
from websockets.typing import Subprotocol

from packplay_clients.errors import TransportClosed

ABNORMAL_CLOSURE = 1006
"""The close code of a socket that ended without a close frame (RFC 6455)."""
MAX_FRAME_BYTES = 4 * 1024 * 1024
"""The largest frame a client reads: views of big games exceed the server's 64 KiB inbound limit."""

Frame = bytes | str


class Transport(Protocol):
    """One open socket. ``recv`` and ``send`` raise :class:`TransportClosed` once it is closed."""

    @property
    def subprotocol(self) -> str | None:
        """The subprotocol the server took, None when it took none."""
        ...

    async def send(self, frame: Frame) -> None: ...

    async def recv(self) -> Frame: ...

    async def close(self, code: int = 1000, reason: str = "") -> None: ...


Connector = Callable[[str, Sequence[str]], Awaitable[Transport]]
"""Opens a transport to a URL, offering subprotocols in order of preference."""


class WebSocketTransport:
    """A :class:`Transport` over a ``websockets`` asyncio client connection."""

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket

    @property
    def subprotocol(self) -> str | None:
        return self.websocket.subprotocol

    async def send(self, frame: Frame) -> None:
        try:
            await self.websocket.send(frame)
        except ConnectionClosed as closed:
            raise _closed(closed) from closed

    async def recv(self) -> Frame:
        try:
            return await self.websocket.recv()
        except ConnectionClosed as closed:
            raise _closed(closed) from closed

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.websocket.close(code, reason)

    def abort(self) -> None:
        """Drop the socket without a close frame, as a failing network does."""
        self.websocket.transport.abort()


def _closed(closed: ConnectionClosed) -> TransportClosed:
    if closed.rcvd is None:
        return TransportClosed(ABNORMAL_CLOSURE, "closed without a close frame")
    return TransportClosed(closed.rcvd.code, closed.rcvd.reason)


async def connect_websocket(
    url: str, subprotocols: Sequence[str], *, max_frame_bytes: int = MAX_FRAME_BYTES
) -> WebSocketTransport:
    """The default :data:`Connector`: a WebSocket to ``url``.

    Raises:
        TransportClosed: code 1006 when the socket cannot be opened.
    """
    offered = [Subprotocol(p) for p in subprotocols]
    try:
        websocket = await connect(url, subprotocols=offered, max_size=max_frame_bytes, open_timeout=10)
    except (OSError, TimeoutError, InvalidHandshake, InvalidURI) as error:
        raise TransportClosed(ABNORMAL_CLOSURE, f"cannot connect to {url}: {error}") from error
    return WebSocketTransport(websocket)


class _Closed:
    def __init__(self, code: int, reason: str) -> None:
        self.code = code
        self.reason = reason


class MemoryTransport:
    """One end of an in-memory socket pair (see :func:`memory_pair`)."""

    def __init__(self, subprotocol: str | None) -> None:
        self._subprotocol = subprotocol
        self._inbox: asyncio.Queue[Frame | _Closed] = asyncio.Queue()
        self.peer: MemoryTransport | None = None
        self.closed: _Closed | None = None

    @property
    def subprotocol(self) -> str | None:
        return self._subprotocol

    async def send(self, frame: Frame) -> None:
        if self.closed is not None or self.peer is None:
            raise TransportClosed(self.closed.code if self.closed else ABNORMAL_CLOSURE)
        self.peer._inbox.put_nowait(frame)

    async def recv(self) -> Frame:
        item = await self._inbox.get()
        if isinstance(item, _Closed):
            self.closed = item
            self._inbox.put_nowait(item)
            raise TransportClosed(item.code, item.reason)
        return item

    async def close(self, code: int = 1000, reason: str = "") -> None:
        """Close both ends: the peer's ``recv`` raises with ``code`` once it has read what was sent."""
        if self.closed is not None:
            return
        self.closed = _Closed(code, reason)
        self._inbox.put_nowait(self.closed)
        if self.peer is not None:
            self.peer._inbox.put_nowait(_Closed(code, reason))


def memory_pair(subprotocol: str | None) -> tuple[MemoryTransport, MemoryTransport]:
    """Two connected ends: (the client's, the server's), as if ``subprotocol`` was negotiated."""
    client, server = MemoryTransport(subprotocol), MemoryTransport(subprotocol)
    client.peer, server.peer = server, client
    return client, server
