"""The WebSocket endpoint: a thin shell around :class:`packplay.server.session.Session`.

Three tasks per connection: a reader (frames -> decoded messages), a worker (the
only caller of the session and of the service, so everything happens in order) and
a writer (a bounded queue of encoded frames -> the socket). The fan-out hands the
worker new versions without waiting; when the writer falls behind and the queue
fills, the connection is closed with 4000 (resume) and nobody else waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from dataclasses import dataclass
from typing import Any

from redis.exceptions import RedisError
from starlette.websockets import WebSocket, WebSocketDisconnect

from packplay.server.fanout import Rendered
from packplay.server.runtime import Runtime
from packplay.server.service import ServiceError
from packplay.server.session import (
    Authenticate,
    CatchUp,
    Close,
    Effect,
    Outgoing,
    Session,
    Submit,
    Watch,
)
from packplay_protocol.codec import decode_client, encode
from packplay_protocol.errors import CloseCode, DecodeError, ErrorCode
from packplay_protocol.from_client import ClientMessage
from packplay_protocol.to_client import Error
from packplay_protocol.version import Encoding, Negotiated, Refusal, negotiate, parse_offer

log = logging.getLogger(__name__)
CLOSE_TIMEOUT = 5.0
FRAMES_IN_FLIGHT = 16
IDLE_PINGS = 3
"""A connection silent for this many ping intervals is closed."""


@dataclass(frozen=True)
class _Frame:
    message: ClientMessage | DecodeError


@dataclass(frozen=True)
class _Update:
    version: int
    render: Rendered


class _Resync:
    pass


class _Disconnected:
    pass


_Item = _Frame | _Update | _Resync | _Disconnected | Close


async def endpoint(websocket: WebSocket) -> None:
    runtime: Runtime = websocket.app.state.runtime
    if not _origin_allowed(websocket, runtime.settings.ws_origins):
        await websocket.close(code=1008)
        return
    negotiated = negotiate(_offered(websocket))
    if isinstance(negotiated, Refusal):
        await _refuse(websocket, negotiated)
        return
    await websocket.accept(subprotocol=negotiated.subprotocol)
    await Connection(websocket, runtime, negotiated).run()


def _offered(websocket: WebSocket) -> tuple[str, ...]:
    """The client's subprotocols: the ASGI scope has them parsed (not every server keeps the header)."""
    offered = websocket.scope.get("subprotocols")
    if offered:
        return tuple(offered)
    return parse_offer(websocket.headers.get("sec-websocket-protocol"))


def _origin_allowed(websocket: WebSocket, allowed: tuple[str, ...]) -> bool:
    origin = websocket.headers.get("origin")
    return not allowed or origin is None or origin in allowed or "*" in allowed


async def _refuse(websocket: WebSocket, refusal: Refusal) -> None:
    """Accept only to say why not: which versions this server speaks."""
    await websocket.accept()
    error = Error(
        code=ErrorCode.UNSUPPORTED_VERSION, message=refusal.message, fatal=True, spoken=refusal.spoken
    )
    await websocket.send_text(encode(error, Encoding.JSON).decode())
    await websocket.close(code=CloseCode.UNSUPPORTED_VERSION)


class Connection:
    """One client connection: implements the fan-out's watcher and the runtime's stoppable."""

    def __init__(self, websocket: WebSocket, runtime: Runtime, negotiated: Negotiated) -> None:
        self.websocket = websocket
        self.runtime = runtime
        self.encoding = negotiated.encoding
        self.session = Session(negotiated, runtime.limits, runtime.settings.server_name, time.monotonic())
        self.inbox: asyncio.Queue[_Item] = asyncio.Queue()
        self.outbox: asyncio.Queue[bytes | None] = asyncio.Queue(maxsize=runtime.settings.send_queue)
        self.closing: Close | _Disconnected | None = None
        self.watching: str | None = None
        self._slots = asyncio.Semaphore(FRAMES_IN_FLIGHT)
        self._done = asyncio.Event()

    # the fan-out's and the runtime's side

    def deliver(self, version: int, render: Rendered) -> None:
        self.inbox.put_nowait(_Update(version, render))

    def resync(self) -> None:
        self.inbox.put_nowait(_Resync())

    def stop(self, reason: str) -> None:
        self.inbox.put_nowait(Close(CloseCode.GOING_AWAY, reason))

    async def stopped(self) -> None:
        await self._done.wait()

    # the connection's own tasks

    async def run(self) -> None:
        self.runtime.connections.add(self)
        self.runtime.metrics.connections.inc()
        writer = asyncio.create_task(self._write())
        reader = asyncio.create_task(self._read())
        try:
            await self._work()
        finally:
            reader.cancel()
            await self._finish(writer)
            await self._unwatch()
            self.runtime.connections.discard(self)
            self.runtime.metrics.connections.dec()
            self._done.set()

    async def _read(self) -> None:
        limits = self.runtime.limits
        timeout = limits.hello_timeout_seconds
        silence = Close(CloseCode.UNAUTHORIZED, "no hello in time")
        while True:
            try:
                received = await asyncio.wait_for(self.websocket.receive(), timeout)
            except TimeoutError:
                self.inbox.put_nowait(silence)
                return
            except (WebSocketDisconnect, RuntimeError):
                self.inbox.put_nowait(_Disconnected())
                return
            if received["type"] == "websocket.disconnect":
                self.inbox.put_nowait(_Disconnected())
                return
            data = received.get("bytes") or received.get("text") or b""
            await self._slots.acquire()
            decoded = decode_client(data, self.encoding, max_bytes=limits.max_frame_bytes)
            self.inbox.put_nowait(_Frame(decoded))
            timeout = limits.ping_interval_seconds * IDLE_PINGS
            silence = Close(CloseCode.NORMAL, f"idle: no message for {timeout:.0f} s")

    async def _work(self) -> None:
        while self.closing is None:
            item = await self.inbox.get()
            await self._carry_out(self._react(item))

    def _react(self, item: _Item) -> list[Outgoing]:
        if isinstance(item, _Frame):
            self._slots.release()
            return self.session.receive(item.message, time.monotonic())
        if isinstance(item, _Update):
            return self.session.update(item.version, item.render)
        if isinstance(item, _Resync):
            return self.session.resync()
        if isinstance(item, _Disconnected):
            self.closing = item
            return []
        return [item]

    async def _carry_out(self, outgoing: list[Outgoing]) -> None:
        for out in outgoing:
            if self.closing is not None:
                return
            if isinstance(out, Close):
                self.closing = out
            elif isinstance(out, Authenticate | Watch | CatchUp | Submit):
                await self._carry_out(await self._effect(out))
            else:
                self._send(out)

    def _send(self, message: Any) -> None:
        try:
            self.outbox.put_nowait(encode(message, self.encoding))
            self.runtime.metrics.messages_sent.inc()
        except asyncio.QueueFull:
            log.info("closing a connection whose send queue is full (%s frames)", self.outbox.qsize())
            self.runtime.metrics.slow_clients.inc()
            self.closing = Close(CloseCode.RESUME_REQUIRED, "send queue full: reconnect and resume")

    async def _effect(self, effect: Effect) -> list[Outgoing]:
        try:
            return await self._request(effect)
        except ServiceError as error:
            return self.session.failed(error.code, error.detail)
        except (RedisError, OSError, TimeoutError) as error:
            log.warning("storage failed during %s: %s", type(effect).__name__, error)
            return [
                Error(code=ErrorCode.UNAVAILABLE, message="storage unavailable; reconnect", fatal=True),
                Close(CloseCode.GOING_AWAY, "storage unavailable"),
            ]
        except Exception:
            incident = secrets.token_hex(6)
            log.exception("internal error %s during %s", incident, type(effect).__name__)
            return [
                Error(code=ErrorCode.INTERNAL, message=f"internal error {incident}", fatal=True),
                Close(CloseCode.INTERNAL_ERROR, "internal error"),
            ]

    async def _request(self, effect: Effect) -> list[Outgoing]:
        service = self.runtime.service
        if isinstance(effect, Authenticate):
            return self.session.authenticated(await service.seat_of(effect.token))
        if isinstance(effect, Submit):
            return self.session.answered(effect.act, await self._submit(effect))
        if isinstance(effect, Watch):
            return await self._watch(effect)
        assert isinstance(effect, CatchUp)
        return await self._catch_up(effect.game_id, effect.audience, effect.since)

    async def _watch(self, watch: Watch) -> list[Outgoing]:
        """Subscribe before loading the game, so no version falls between the two."""
        self.watching = watch.game_id
        try:
            await self.runtime.fanout.watch(watch.game_id, self)
            return await self._catch_up(watch.game_id, watch.audience, watch.since)
        except BaseException:
            await self._unwatch()
            raise
        finally:
            self.runtime.metrics.watched_games.set(self.runtime.fanout.games)

    async def _unwatch(self) -> None:
        if self.watching is not None:
            await self.runtime.fanout.unwatch(self.watching, self)
            self.watching = None
            self.runtime.metrics.watched_games.set(self.runtime.fanout.games)

    async def _catch_up(self, game_id: str, audience: int | None, since: int | None) -> list[Outgoing]:
        found, version, meta = await self.runtime.service.catch_up(game_id, audience, since)
        self.runtime.fanout.describe(meta)
        return self.session.caught_up(found, version)

    async def _submit(self, submit: Submit) -> Any:
        metrics = self.runtime.metrics
        started = time.perf_counter()
        answer = await self.runtime.service.act(submit.game_id, submit.seat, submit.act)
        metrics.action_seconds.observe(time.perf_counter() - started)
        game = self.runtime.fanout.game_name(submit.game_id)
        metrics.actions.labels(game, "accepted" if answer.accepted else answer.reason).inc()
        return answer

    async def _write(self) -> None:
        text = self.encoding is Encoding.JSON
        while True:
            frame = await self.outbox.get()
            if frame is None:
                return
            if text:
                await self.websocket.send_text(frame.decode())
            else:
                await self.websocket.send_bytes(frame)

    async def _finish(self, writer: asyncio.Task[None]) -> None:
        """Flush what was queued (unless the client is gone or too slow), then close."""
        closing = self.closing
        if isinstance(closing, Close) and closing.code is not CloseCode.RESUME_REQUIRED:
            with contextlib.suppress(asyncio.QueueFull):
                self.outbox.put_nowait(None)
            await asyncio.wait([writer], timeout=CLOSE_TIMEOUT)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await writer
        if isinstance(closing, Close):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.websocket.close(closing.code, closing.reason), CLOSE_TIMEOUT)
