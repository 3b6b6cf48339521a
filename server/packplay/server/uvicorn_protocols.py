"""What replaces parts of uvicorn's protocols: its HTTP and WebSocket protocols subclassed, with a
deadline on every wait for the client, lighter state per connection, and the WebSocket's
messages handed straight to the application. Everything here that reaches into uvicorn's
or websockets' internals (attributes such as ``queue``, ``writable``, ``frames``,
``curr_msg_data_type``, and websockets' deflate module global) is in this one module, and
it is worth what it costs:

- the deadlines close connections that would otherwise be held for ever (a header that
  never ends, a body that trickles, a client that stops reading): the limits tests and the
  flood benchmark (``load/bench_flood.py``) exercise them;
- the lighter queue and flag hold an idle WebSocket connection in about 26 KiB of server
  memory instead of 34 (``load/bench_hot_path.py --idle``);
- handing each message to the connection as it is parsed, and writing its frames directly,
  saves an ASGI message, a queue and a task wakeup per frame: together with the views
  rendered part by part, it gave 16% more moves a second in the hot-path benchmark at 50
  games (six alternating runs, 2% to 33%).

uvicorn bounds only the idle time between two requests (``timeout_keep_alive``). A
client that opens a connection and sends nothing, half a request line, headers that
never end, or a body that trickles in holds the connection (and a file descriptor)
for ever; so does one that stops reading while the server writes to it. None of that
reaches the ASGI application (a request whose headers never finish is not a request
yet), so the deadlines live here, in subclasses of the protocols uvicorn runs
(httptools for HTTP, websockets' sans-I/O machine for WebSocket), passed to uvicorn
as its ``http`` and ``ws`` classes:

- headers: from the connection's first byte (or its opening) to the end of the
  headers, ``header_timeout``; past it the answer is ``408`` and the connection closes.
  The WebSocket handshake is such a request, so this bounds it too;
- body: from the end of the headers to the end of the body, ``body_timeout`` (408);
- idle between requests: uvicorn's keep-alive timeout (``keep_alive_timeout``);
- writing: a connection whose send buffer stays full for ``write_timeout`` (the
  client stopped reading) is dropped;
- WebSocket close: the close frame goes out even while the buffer is full (after what
  is queued, so a slow reader still reads its close code), and a client that has not
  answered it within ``close_timeout`` is dropped.

The WebSocket protocol also holds less per connection than uvicorn's: its queue of
received messages and its "writable" flag are replaced by lighter ones (an
``asyncio.Queue`` and an ``asyncio.Event`` hold four deques, about 3 KB, for what is
at most a message or two and one waiting task), and the handshake's request and
response (their headers) are let go once the connection is accepted. Its
permessage-deflate, unless told to keep a context, compresses each message on its own
(see :func:`deflate`). An idle connection is mostly what it holds.

Once the application has accepted a connection it may take its messages over
(:meth:`GuardedWebSocketProtocol.take_over`, offered in the scope's extensions under
:data:`DIRECT`): each message is then handed to it as it is parsed, within the read that
brought it (no queue, no wakeup of a task, no stop and restart of reading per message),
and it frames its messages and writes them to the connection itself
(:meth:`~GuardedWebSocketProtocol.frame`, :meth:`~GuardedWebSocketProtocol.write`). Server
frames are not masked, and permessage-deflate without context takeover compresses each
message alone, so two connections with the same :attr:`~GuardedWebSocketProtocol.framing`
put the same bytes on the wire for the same message: an update for a thousand spectators
is framed (and compressed) once and written a thousand times.
The ASGI channel still carries the accept, the close and the end of the connection.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Sequence
from functools import cache
from typing import Any, Generic, Protocol, TypeVar

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions import Extension, permessage_deflate
from websockets.extensions.permessage_deflate import PerMessageDeflate, ServerPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.protocol import State
from zlib_ng import zlib_ng

from packplay.server.collector import collector
from packplay.server.settings import Settings
from packplay_protocol.errors import CloseCode

log = logging.getLogger(__name__)
TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\n"
    b"connection: close\r\n"
    b"\r\n"
    b"request timeout\n"
)


@cache
def settings() -> Settings:
    """This process's settings (a worker gets its parent's through the environment)."""
    return Settings.from_env()


class _WriteGuard:
    """Drops a connection whose send buffer stays above the high-water mark too long."""

    def __init__(self, loop: asyncio.AbstractEventLoop, timeout: float) -> None:
        self._loop = loop
        self._timeout = timeout
        self._timer: asyncio.TimerHandle | None = None

    def paused(self, transport: asyncio.Transport) -> None:
        if self._timer is None:
            self._timer = self._loop.call_later(self._timeout, self._give_up, transport)

    def resumed(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _give_up(self, transport: asyncio.Transport) -> None:
        self._timer = None
        log.info("dropping a connection that read nothing for %.0f s", self._timeout)
        transport.abort()


class GuardedHttpProtocol(HttpToolsProtocol):
    """httptools' protocol, with deadlines on the headers, the body and stalled writes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        current = settings()
        self._header_timeout = current.header_timeout
        self._body_timeout = current.body_timeout
        self._deadline: asyncio.TimerHandle | None = None
        self._started = False
        """Whether a byte of the current request has arrived."""
        self._writes = _WriteGuard(self.loop, current.write_timeout)

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self._header_timeout)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._writes.resumed()
        super().connection_lost(exc)
        collector.protocol_let_go()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._started = True
        if self._deadline is None:
            self._arm(self._header_timeout)

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()
        if not (self.parser.should_upgrade() and self._should_upgrade()):
            self._arm(self._body_timeout)

    def on_message_complete(self) -> None:
        self._disarm()
        self._started = False
        super().on_message_complete()

    def handle_websocket_upgrade(self) -> None:
        self._disarm()
        super().handle_websocket_upgrade()
        # The parser holds this protocol's methods: let go of it, as uvicorn does when a
        # connection is lost, so that the protocol replaced goes by reference counting.
        self.parser = None  # type: ignore[assignment]

    def pause_writing(self) -> None:
        super().pause_writing()
        self._writes.paused(self.transport)

    def resume_writing(self) -> None:
        self._writes.resumed()
        super().resume_writing()

    def _arm(self, seconds: float) -> None:
        self._deadline = self.loop.call_later(seconds, self._timed_out)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _timed_out(self) -> None:
        """The client took too long to send its request: 408 if it began one, then close."""
        self._deadline = None
        if self.transport.is_closing():
            return
        cycle = self.cycle
        answered = cycle is not None and cycle.response_started and not cycle.response_complete
        if cycle is not None and not cycle.response_complete:
            # The application (waiting for the body) sees a disconnect, and its answer is dropped.
            cycle.disconnected = True
            cycle.message_event.set()
        if self._started and not answered:
            self.transport.write(TIMEOUT_RESPONSE)
        self.transport.close()


Item = TypeVar("Item")


class Inbox(Generic[Item]):
    """The messages received for the application, first in first out, with one reader.

    The parts of ``asyncio.Queue`` uvicorn's protocol uses (``put_nowait``, ``get``,
    ``empty``): the protocol stops reading after each message until the application
    takes it, so there is rarely more than one.
    """

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Item] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Item) -> None:
        self._items.append(item)
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def get(self) -> Item:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            try:
                await self._waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)


class Flag:
    """A flag tasks can wait for (the parts of ``asyncio.Event`` uvicorn uses)."""

    __slots__ = ("_set", "_waiters")

    def __init__(self) -> None:
        self._set = False
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> bool:
        while not self._set:
            waiter = asyncio.get_running_loop().create_future()
            if self._waiters is None:
                self._waiters = []
            self._waiters.append(waiter)
            try:
                await waiter
            finally:
                if self._waiters is not None and waiter in self._waiters:
                    self._waiters.remove(waiter)
        return True


DIRECT = "packplay.direct"
"""The scope extension under which the protocol offers itself to the application."""


class Receiver(Protocol):
    """What an application that took a connection's messages over is told."""

    def received(self, data: str | bytes) -> None:
        """A whole message (text as ``str``, binary as ``bytes``)."""

    def writable(self) -> None:
        """The connection takes writes again after they were paused (the client reads)."""

    def pinged(self) -> None:
        """A ping frame came (answered here): the application counts it as a frame."""


FLOODER_CLOSE_TIMEOUT = 1.0
"""Seconds a connection closed with 4005 stays open (unread) for its close frame to arrive."""


# websockets' permessage-deflate calls its module's zlib: zlib-ng (the same deflate format,
# and zlib's interface) compresses a Day vs Night update at its fastest level in a third of
# the CPU zlib's fastest level takes (7.5 against 21 us), for about a fifth more bytes.
permessage_deflate.zlib = zlib_ng  # type: ignore[attr-defined]  # (its module global, not exported)


@cache
def deflate(keep_context: bool) -> ServerPerMessageDeflateFactory:
    """permessage-deflate as the server accepts it: uvicorn's window and memory sizes, and,
    unless ``keep_context``, no context takeover either way (the server says so for the
    client too, as RFC 7692 lets it). Then a compressor or decompressor lives only while
    its message passes, and an idle connection holds neither: it is most connections of a
    tournament, which wait far longer than they play.

    The fastest level (of zlib-ng, see above): the server runs out of CPU long before its
    clients run out of bandwidth. A factory keeps no state of a connection: one serves them
    all."""
    return ServerPerMessageDeflateFactory(
        server_no_context_takeover=not keep_context,
        client_no_context_takeover=not keep_context,
        server_max_window_bits=12,
        client_max_window_bits=12,
        compress_settings={"memLevel": 5, "level": 1},
    )


Framing = Hashable
"""How a connection turns a message into bytes on the wire: equal framings, equal bytes."""


def framing(extensions: Sequence[Extension]) -> Framing | None:
    """The framing of a connection with these extensions, or None when its frames depend on
    the messages before them (compression with context takeover): they are its own."""
    key: list[Hashable] = []
    for extension in extensions:
        if not (isinstance(extension, PerMessageDeflate) and extension.local_no_context_takeover):
            return None
        settings_ = tuple(sorted(extension.compress_settings.items()))
        key.append(("permessage-deflate", extension.local_max_window_bits, settings_))
    return tuple(key)


_TEXT_FIN, _BINARY_FIN = b"\x81", b"\x82"


def plain_frame(message: bytes, text: bool) -> bytes:
    """A whole unmasked frame with no extension (RFC 6455, 5.2): what websockets'
    ``Frame.serialize`` makes of it, for a quarter of its CPU (it is made once per update)."""
    size = len(message)
    if size < 126:
        header = bytes((size,))
    elif size < 65536:
        header = b"\x7e" + size.to_bytes(2, "big")
    else:
        header = b"\x7f" + size.to_bytes(8, "big")
    return b"".join(((_TEXT_FIN if text else _BINARY_FIN), header, message))


class GuardedWebSocketProtocol(WebSocketsSansIOProtocol):
    """websockets' sans-I/O protocol, with a close frame that passes a full buffer, a
    deadline on the closing handshake and on stalled writes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        collector.protocol_let_go()  # the HTTP protocol of the upgrade, in a cycle of its own
        current = settings()
        self.close_timeout = current.close_timeout
        self._writes = _WriteGuard(self.loop, current.write_timeout)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Flag()  # type: ignore[assignment]
        self.writable.set()
        self.receiver: Receiver | None = None
        """The application's, once it took the messages over."""
        self.framing: Framing | None = None
        """How this connection frames a message, once accepted (:func:`framing`)."""
        if current.ws_deflate:
            self.conn.available_extensions = [deflate(current.ws_deflate_context)]

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # made only for a request that upgrades
        if scope is not None:
            scope["extensions"][DIRECT] = self

    def take_over(self, receiver: Receiver) -> None:
        """Hand every message from now on to ``receiver``, as it is parsed."""
        self.receiver = receiver

    def handle_ping(self) -> None:
        super().handle_ping()
        if self.receiver is not None:
            self.receiver.pinged()

    def send_receive_event_to_app(self) -> None:
        receiver = self.receiver
        if receiver is None:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        self.frames = []
        if self.close_sent:
            return  # past its close: what the client sends is not read
        if self.curr_msg_data_type == "text":
            try:
                text = bytes(data).decode()
            except UnicodeDecodeError:
                self.logger.info("invalid UTF-8 in a text frame")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
            receiver.received(text)
        else:
            receiver.received(bytes(data))

    def frame(self, message: bytes, text: bool) -> bytes:
        """One message as this connection puts it on the wire: a whole frame, compressed as
        negotiated. Frames are written in the order they are made (a compression context
        kept between messages depends on it)."""
        extensions = self.conn.extensions
        if not extensions:
            return plain_frame(message, text)
        opcode = Opcode.TEXT if text else Opcode.BINARY
        return Frame(opcode, message).serialize(mask=False, extensions=extensions)

    def write(self, frames: bytes) -> bool:
        """Write frames made by :meth:`frame` (of this connection or of one with the same
        :attr:`framing`) now; false when the connection is closing (nothing is written).

        Whatever the transport buffers goes out in order; whether the client reads is
        :attr:`writable` (the receiver is told when writes may go on)."""
        if self.close_sent or self.disconnected or self.transport.is_closing():
            return False
        if self.conn.state is not State.OPEN:  # the client's close came in first
            return False
        self.transport.write(frames)
        return True

    async def send(self, message: Any) -> None:
        closing = message["type"] == "websocket.close" and self.handshake_complete and not self.close_sent
        if closing:
            # uvicorn waits for a drained buffer before every frame; the close frame must not
            # wait for a client that reads slowly: it is queued after what is buffered.
            self.writable.set()
        accepting = message["type"] == "websocket.accept" and not self.handshake_complete
        await super().send(message)
        if accepting and self.handshake_complete:
            self.request = self.response = None  # type: ignore[assignment]  # read only before the accept
            self.framing = framing(self.conn.extensions)
        if closing and self.close_timer is not None:
            self.close_timer.cancel()
            wait = self.close_timeout
            if message.get("code") == CloseCode.RATE_LIMITED:
                # A flooding client: what it sent after its close is not read (parsing it
                # until its close answer comes is what the flood costs); it has a moment to
                # read the close frame, then the connection goes.
                self.transport.pause_reading()
                wait = min(wait, FLOODER_CLOSE_TIMEOUT)
            self.close_timer = self.loop.call_later(wait, self._close_unanswered)

    def _close_unanswered(self) -> None:
        """The client did not answer the close in time: drop what it has not read."""
        self.close_timer = None
        if self.transport.get_write_buffer_size():
            self.transport.abort()
        else:
            self.transport.close()

    def connection_lost(self, exc: Exception | None) -> None:
        self._writes.resumed()
        super().connection_lost(exc)
        collector.protocol_let_go()

    def pause_writing(self) -> None:
        super().pause_writing()
        self._writes.paused(self.transport)

    def resume_writing(self) -> None:
        self._writes.resumed()
        super().resume_writing()
        if self.receiver is not None:
            self.receiver.writable()
