"""The event loop the server runs on: uvloop, with listening sockets that accept in batches.

libuv, under uvloop, accepts one connection per turn of the event loop (the listening
socket stays readable, so the next turn takes the next one). A turn of a busy server's
loop takes as long as the work that is ready: at 5,000 games on one core, half a second.
New connections then go in at two a second, the kernel's queue of waiting connections
fills within a burst (players starting their next games at once), and further clients
get a reset or a connect timeout, never an answer.

:class:`Loop` is uvloop's loop with its own ``create_server`` for TCP: the listening
socket is watched like any other file descriptor, and each time it is readable up to
:data:`ACCEPT_BATCH` waiting connections are accepted and handed to uvloop, which then
runs them as its own (``connect_accepted_socket``). uvicorn takes the loop by name
(``loop="packplay.server.listener:Loop"``) and serves through it unchanged.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import socket
from collections.abc import Callable, Iterable
from typing import Any

import uvloop

log = logging.getLogger(__name__)

ACCEPT_BATCH = 512
"""Connections accepted per turn of the loop at most. Processes sharing a listening socket
(``--workers``) each take what they can when they are free: a busy one takes fewer."""
RETRY_AFTER_SECONDS = 1.0
"""How long a listener rests after running out of file descriptors (or kernel memory)."""
_RESOURCE_ERRORS = frozenset((errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM))

ProtocolFactory = Callable[[], asyncio.BaseProtocol]


class Loop(uvloop.Loop):
    """uvloop's event loop, whose TCP servers accept up to :data:`ACCEPT_BATCH` waiting
    connections at each turn."""

    async def create_server(  # type: ignore[override]  # the parameters uvicorn passes, by name
        self,
        protocol_factory: ProtocolFactory,
        host: str | None = None,
        port: int | None = None,
        *,
        sock: socket.socket | None = None,
        backlog: int = 100,
        ssl: Any = None,
        **options: Any,
    ) -> asyncio.AbstractServer:
        if ssl is not None or (sock is not None and sock.family == socket.AF_UNIX):
            uvloop_server: Any = super().create_server  # typed by overload, called as uvicorn does
            server: asyncio.AbstractServer = await uvloop_server(
                protocol_factory, host, port, sock=sock, backlog=backlog, ssl=ssl, **options
            )
            return server
        sockets = [sock] if sock is not None else await self._listening(host, port, backlog, options)
        return BatchAcceptServer(self, protocol_factory, sockets, backlog)

    async def _listening(
        self, host: str | None, port: int | None, backlog: int, options: dict[str, Any]
    ) -> list[socket.socket]:
        """Bound sockets for every address of ``host`` (what asyncio's own server binds)."""
        found = await self.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        sockets: list[socket.socket] = []
        try:
            reuse_port = bool(options.get("reuse_port"))
            for family, address in dict.fromkeys((info[0], info[4]) for info in found):
                sockets.append(
                    socket.create_server(address, family=family, backlog=backlog, reuse_port=reuse_port)
                )
        except BaseException:
            for listening in sockets:
                listening.close()
            raise
        return sockets


class BatchAcceptServer(asyncio.AbstractServer):
    """Listening sockets served by accepting in batches (the parts of a server uvicorn uses)."""

    def __init__(
        self, loop: Loop, protocol_factory: ProtocolFactory, sockets: Iterable[socket.socket], backlog: int
    ) -> None:
        self._loop = loop
        self._protocol_factory = protocol_factory
        self._sockets = list(sockets)
        self._serving = True
        self._starting: set[asyncio.Task[Any]] = set()
        for listening in self._sockets:
            listening.setblocking(False)
            listening.listen(backlog)
            loop.add_reader(listening.fileno(), self._accept, listening)

    @property
    def sockets(self) -> tuple[socket.socket, ...]:
        return tuple(self._sockets)

    def get_loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def is_serving(self) -> bool:
        return self._serving

    def close(self) -> None:
        if not self._serving:
            return
        self._serving = False
        for listening in self._sockets:
            self._loop.remove_reader(listening.fileno())
            listening.close()

    async def wait_closed(self) -> None:
        """Closed once the listeners are (uvicorn waits for the connections itself)."""

    async def start_serving(self) -> None:
        """Serving from the start."""

    async def serve_forever(self) -> None:
        await asyncio.get_running_loop().create_future()

    def _accept(self, listening: socket.socket) -> None:
        for _ in range(ACCEPT_BATCH):
            try:
                connection, _ = listening.accept()
            except (BlockingIOError, InterruptedError):
                return
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno not in _RESOURCE_ERRORS:
                    raise
                self._rest(listening, error)
                return
            self._start(connection)

    def _start(self, connection: socket.socket) -> None:
        connection.setblocking(False)
        task = self._loop.create_task(self._loop.connect_accepted_socket(self._protocol_factory, connection))
        self._starting.add(task)
        task.add_done_callback(self._started)

    def _started(self, task: asyncio.Task[Any]) -> None:
        self._starting.discard(task)
        if not task.cancelled() and (error := task.exception()) is not None:
            log.warning("a connection could not be set up: %s", error)

    def _rest(self, listening: socket.socket, error: OSError) -> None:
        """Out of file descriptors: stop accepting for a while (the kernel keeps the queue)."""
        log.warning("not accepting connections for %.0f s: %s", RETRY_AFTER_SECONDS, error)
        self._loop.remove_reader(listening.fileno())
        self._loop.call_later(RETRY_AFTER_SECONDS, self._resume, listening)

    def _resume(self, listening: socket.socket) -> None:
        if self._serving:
            self._loop.add_reader(listening.fileno(), self._accept, listening)
