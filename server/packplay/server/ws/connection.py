"""The WebSocket endpoint: a thin shell around :class:`packplay.server.ws.session.Session`.

Once the connection is accepted, its messages come straight from the wire (uvicorn's
WebSocket protocol, :class:`~packplay.server.uvicorn_protocols.GuardedWebSocketProtocol`)
as they are parsed: the session reacts at once, and a request it makes (an action to
apply, a game to join) calls one function of the authority, in a task, while the messages
after it wait their turn: one client's messages are handled in order. Frames go out
through the connection's :class:`~packplay.server.ws.send_queue.SendQueue`. The game's
local copy hands the session new versions without waiting.

A connection plays one game at a time, and may move to another (a new hello, a seat taken
with ``create``, ``take_seat`` or ``rematch``, a tournament's next table): each game it
watches gets a watcher of its own (:class:`_Watching`) that passes on only the versions of
the game the session plays now, so that nothing about the game left reaches the next.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import deque
from collections.abc import Callable
from typing import Any, cast

from starlette.types import Message, Receive, Scope, Send

from packplay.server.play.addresses import client_key
from packplay.server.play.errors import Refused
from packplay.server.runtime import Runtime
from packplay.server.storage.errors import StorageUnavailable
from packplay.server.uvicorn_protocols import DIRECT, GuardedWebSocketProtocol
from packplay.server.ws.address_limits import AddressLimits
from packplay.server.ws.send_queue import SendQueue, WriteBatch
from packplay.server.ws.session import (
    Authenticate,
    AwaitStart,
    CatchUp,
    Close,
    FollowTournament,
    Leave,
    Outgoing,
    Phase,
    Request,
    Session,
    Sit,
    Submit,
    Unwatch,
    Watch,
)
from packplay.table.rendering import Frames
from packplay_protocol.codec import decode_client, encode
from packplay_protocol.errors import CloseCode, ErrorCode, RejectReason
from packplay_protocol.from_client import Create, TakeSeat
from packplay_protocol.rest import JoinSeat
from packplay_protocol.to_client import Error, Rejected, Seated, ServerMessage
from packplay_protocol.version import (
    SUBPROTOCOLS,
    WS_PATH,
    Encoding,
    Negotiated,
    Refusal,
    negotiate,
    parse_offer,
)

log = logging.getLogger(__name__)
CLOSE_TIMEOUT = 5.0
SLOW_CLOSE_TIMEOUT = 30.0
BACKLOG = 16
"""Messages a connection holds while it answers an earlier one, before it stops reading."""


class _Disconnected:
    """The client went away."""


class Socket:
    """The ASGI WebSocket of one connection, used directly (no framework layer sits
    between the server and the session), and the wire under it: uvicorn's protocol, which
    hands over its messages and takes its frames once the connection is accepted."""

    __slots__ = ("_receive", "_send", "scope", "wire")

    def __init__(self, scope: Scope, receive: Receive, send: Send) -> None:
        self.scope = scope
        self._receive = receive
        self._send = send
        # Taken out of the scope, which the protocol holds: left there, it would make a
        # reference cycle that only the garbage collector frees.
        wire = scope.get("extensions", {}).pop(DIRECT, None)
        if wire is None:
            raise RuntimeError("the play endpoint runs on uvicorn_protocols.GuardedWebSocketProtocol")
        self.wire = cast(GuardedWebSocketProtocol, wire)

    def address(self) -> str:
        """The client's address as the per-client limits count it (behind trusted proxies, the
        one they name)."""
        client = self.scope.get("client")
        return client_key(client[0]) if client else ""

    def header(self, name: bytes) -> str | None:
        for key, value in self.scope.get("headers", ()):
            if key == name:
                return str(value.decode("latin-1"))
        return None

    def offered(self) -> tuple[str, ...]:
        """The client's subprotocols (the scope has them parsed; not every server keeps the header)."""
        offered = self.scope.get("subprotocols")
        return tuple(offered) if offered else parse_offer(self.header(b"sec-websocket-protocol"))

    async def receive(self) -> Message:
        return await self._receive()

    async def accept(self, subprotocol: str | None, headers: list[tuple[bytes, bytes]] | None = None) -> None:
        await self._send({"type": "websocket.accept", "subprotocol": subprotocol, "headers": headers or []})

    async def send(self, frame: bytes, text: bool) -> None:
        if text:
            await self._send({"type": "websocket.send", "text": frame.decode()})
        else:
            await self._send({"type": "websocket.send", "bytes": frame})

    async def close(self, code: int, reason: str = "") -> None:
        await self._send({"type": "websocket.close", "code": code, "reason": reason})


def _weakly(method: Callable[[], None]) -> Callable[[], None]:
    """``method``, called without keeping its object alive (a connection's send queue calling
    the connection back would otherwise make a cycle with it)."""
    ref = weakref.WeakMethod(method)

    def call() -> None:
        bound = ref()
        if bound is not None:
            bound()

    return call


class Endpoint:
    """The ASGI application of ``/v2/ws``; one per process."""

    def __init__(self, runtime: Runtime) -> None:
        self.runtime = runtime
        self.writes = WriteBatch()
        """Frames of the turn, written at its end for every connection together."""
        self.limits = AddressLimits(runtime.settings)
        """What each client address holds over all its connections to this process."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        runtime = self.runtime
        socket = Socket(scope, receive, send)
        if (await socket.receive())["type"] != "websocket.connect":
            return
        if not _origin_allowed(socket.header(b"origin"), runtime.settings.ws_origins):
            await socket.close(1008)
            return
        negotiated = negotiate(socket.offered())
        if isinstance(negotiated, Refusal):
            await _refuse(socket, negotiated)
            return
        await socket.accept(negotiated.subprotocol, [runtime.process_header])
        address = socket.address()
        if not self.limits.connect(address):
            await _too_many(socket, runtime, negotiated.encoding)
            return
        try:
            await Connection(socket, runtime, negotiated, self.writes, self.limits, address).run()
        finally:
            self.limits.disconnect(address)


async def retired_path(scope: Scope, receive: Receive, send: Send) -> None:
    """A WebSocket opened on another version's path (``/v1/ws``): accepted only to say which
    versions this server speaks, and where (the same answer as an unspoken subprotocol)."""
    socket = Socket(scope, receive, send)
    if (await socket.receive())["type"] != "websocket.connect":
        return
    offered = socket.offered()
    spoken = tuple(SUBPROTOCOLS)
    await socket.accept(offered[0] if offered else None)
    message = f"{scope['path']} is not served: this server speaks {', '.join(spoken)} at {WS_PATH}"
    error = Error(code=ErrorCode.UNSUPPORTED_VERSION, message=message, fatal=True, spoken=spoken)
    await socket.send(encode(error, Encoding.JSON), text=True)
    await socket.close(CloseCode.UNSUPPORTED_VERSION, f"speaks {', '.join(spoken)}"[:120])


async def _too_many(socket: Socket, runtime: Runtime, encoding: Encoding) -> None:
    """The address holds as many connections as it may: say so, and close (4005)."""
    runtime.metrics.limited.labels("connections").inc()
    message = "too many connections from this address"
    await socket.send(
        encode(Error(code=ErrorCode.RATE_LIMITED, message=message, fatal=True), encoding),
        text=encoding is Encoding.JSON,
    )
    await socket.close(CloseCode.RATE_LIMITED, message)


def _origin_allowed(origin: str | None, allowed: tuple[str, ...]) -> bool:
    return not allowed or origin is None or origin in allowed or "*" in allowed


async def _refuse(socket: Socket, refusal: Refusal) -> None:
    """Accept only to say why not: which versions this server speaks.

    The handshake takes the client's first offer: a browser (or the ``ws`` package)
    fails a handshake whose answer names none of its offers, and would never read
    the reason. The one JSON ``error`` and the close reason both name what is spoken.
    """
    await socket.accept(refusal.offered[0] if refusal.offered else None)
    error = Error(
        code=ErrorCode.UNSUPPORTED_VERSION, message=refusal.message, fatal=True, spoken=refusal.spoken
    )
    await socket.send(encode(error, Encoding.JSON), text=True)
    await socket.close(CloseCode.UNSUPPORTED_VERSION, f"speaks {', '.join(refusal.spoken)}"[:120])


class _Watching:
    """A connection's watcher of one game: it passes on the versions of that game only while
    the connection's session plays it."""

    __slots__ = ("connection", "game_id")

    def __init__(self, connection: Connection, game_id: str) -> None:
        self.connection = connection
        self.game_id = game_id

    def deliver(self, frames: Frames) -> None:
        if self.connection.session.game_id == self.game_id:
            self.connection.deliver(frames)

    def resync(self) -> None:
        if self.connection.session.game_id == self.game_id:
            self.connection.resync()


class Connection:
    """One client connection: a watcher of its local game, and stoppable by the runtime.

    The connection's own task reads a frame, lets the session react and carries out
    what it asks (awaiting the authority), then reads the next. New versions from the
    game reach the session at once, without a task switch (it holds them while a catch-up
    is under way), and its frames go to the send queue.
    """

    __slots__ = (
        "__weakref__",
        "_answering",
        "_awaiting_start",
        "_backlog",
        "_busy",
        "_deadline",
        "_draining",
        "_gave_up",
        "_hello_deadline",
        "_stopped",
        "_task",
        "address",
        "closing",
        "encoding",
        "following",
        "last_frame",
        "limits",
        "queue",
        "runtime",
        "session",
        "socket",
        "spectating",
        "text",
        "watching",
        "watcher",
        "wire",
    )

    def __init__(
        self,
        socket: Socket,
        runtime: Runtime,
        negotiated: Negotiated,
        writes: WriteBatch,
        limits: AddressLimits,
        address: str,
    ) -> None:
        self.socket = socket
        self.limits = limits
        self.address = address
        """The client's address, as the per-client limits count it."""
        self.spectating = False
        """The game watched is watched as a spectator (it counts against the address's)."""
        self.wire = socket.wire
        self.runtime = runtime
        self.encoding = negotiated.encoding
        self.session = Session(negotiated, runtime.limits, runtime.settings.server_name, time.monotonic())
        self.text = negotiated.encoding is Encoding.JSON
        limit = runtime.settings.send_queue
        self.queue = SendQueue(self.wire, limit, writes, socket.close, _weakly(self._gone))
        """Frames on their way out."""
        self.closing: Close | _Disconnected | None = None
        self.watching: str | None = None
        self.watcher: _Watching | None = None
        """What the local game of ``watching`` hands its versions to."""
        self._awaiting_start: tuple[str, Any] | None = None
        """The game this connection is seated in and waits to start, and who hears of it."""
        self.following: str | None = None
        """The tournament this connection follows."""
        self.last_frame = time.monotonic()
        """When the client last sent a frame (the runtime closes connections silent too long)."""
        self._busy = 0
        """Requests under way (awaiting the authority): a drain closes once there are none."""
        self._answering: asyncio.Task[None] | None = None
        """The answer under way to a message (a request it made runs): later messages wait."""
        self._backlog: deque[str | bytes] | None = None
        """Messages received while one is being answered, in order (made when first needed:
        most connections never hold one)."""
        self._hello_deadline: asyncio.TimerHandle | None = None
        self._draining: Close | None = None
        self._gave_up = False
        self._deadline: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[Any] | None = None
        self._stopped: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    # the local game's and the runtime's side

    def deliver(self, frames: Frames) -> None:
        outgoing = self.session.deliver(frames)
        if len(outgoing) == 1 and outgoing[0] is frames and self.closing is None:
            self._send_frames(frames)  # the frames alone, as for every spectator of a move
            return
        self._follow(outgoing)

    def resync(self) -> None:
        self._follow(self.session.resync())

    def tell(self, message: ServerMessage) -> None:
        """Send a tournament's message (from the process's tournament feeds); a player's new
        table is played on this connection."""
        self._follow(self.session.told(message))

    def stop(self, reason: str, code: CloseCode = CloseCode.SERVICE_RESTART) -> None:
        self._end(Close(code, reason))

    def drain(self, reason: str) -> None:
        """Close with 1012 (service restart) once the request under way, if any, is answered:
        a move being committed is committed and acknowledged first."""
        self._draining = Close(CloseCode.SERVICE_RESTART, reason)
        if not self._busy:
            self._end(self._draining)

    async def stopped(self) -> None:
        await asyncio.shield(self._stopped)

    def _follow(self, outgoing: list[Outgoing]) -> None:
        """Send what the session says at once; a request it makes runs as a task of its own."""
        for index, out in enumerate(outgoing):
            if isinstance(out, Request):
                asyncio.create_task(self._carry_out(outgoing[index:]))
                return
            self._out(out)

    # reading

    async def run(self) -> None:
        self.runtime.connections.add(self)
        self.runtime.metrics.connections.inc()
        self._task = asyncio.current_task()
        loop = asyncio.get_running_loop()
        self._hello_deadline = loop.call_later(self.runtime.limits.hello_timeout_seconds, self._hello_late)
        self.wire.take_over(self)
        try:
            while (await self.socket.receive())["type"] != "websocket.disconnect":
                pass  # every message comes through received(); the channel says when the client goes
            self._end(_Disconnected())
            self.closing = _Disconnected()
            # The client has gone: nothing more comes to hand over. Let go of the protocol,
            # so that the connection and its protocol go by reference counting (a
            # connection given up on keeps it until its close: the collector frees those).
            self.wire.receiver = None
        except asyncio.CancelledError:
            if not self._gave_up:
                raise
        finally:
            self._hello_deadline.cancel()
            if self._deadline is not None:
                self._deadline.cancel()
            await self._leave()
            self.runtime.connections.discard(self)
            self.runtime.metrics.connections.dec()
            self._stopped.set_result(None)

    def _hello_late(self) -> None:
        if self.session.phase is Phase.GREETING and self.closing is None:
            self._end(Close(CloseCode.UNAUTHORIZED, "no hello in time"))

    def received(self, data: str | bytes) -> None:
        """One message from the client, as the protocol parsed it: answered now, or after
        the one being answered (the connection stops reading while too many wait)."""
        if self.closing is not None or self._draining is not None:
            return  # an action read now is sent again by the client after its resume
        self.last_frame = time.monotonic()
        if self._answering is not None:
            backlog = self._backlog
            if backlog is None:
                backlog = self._backlog = deque()
            backlog.append(data)
            if len(backlog) == BACKLOG:
                self.wire.transport.pause_reading()
            return
        self._react(data)

    def _react(self, data: str | bytes) -> None:
        try:
            message = decode_client(data, self.encoding, max_bytes=self.runtime.limits.max_frame_bytes)
            outgoing = self.session.receive(message, self.last_frame)
            for index, out in enumerate(outgoing):
                if isinstance(out, Request):
                    self._answering = asyncio.create_task(self._answer(outgoing[index:]))
                    return
                self._out(out)
        except Exception:
            self._failed("a message")

    async def _answer(self, outgoing: list[Outgoing]) -> None:
        """Carry out what the session asked for, then take the messages that waited."""
        try:
            await self._carry_out(outgoing)
        except Exception:
            self._failed("a request")
        finally:
            self._answering = None
        backlog = self._backlog
        if backlog is None:
            return
        while backlog and self._answering is None:
            if len(backlog) == BACKLOG:
                self.wire.transport.resume_reading()
            if self.closing is not None or self._draining is not None:
                backlog.clear()  # sent again by the client after its resume
                break
            self._react(backlog.popleft())

    def _failed(self, what: str) -> None:
        incident = secrets.token_hex(6)
        log.exception("internal error %s on %s", incident, what)
        self._out(Error(code=ErrorCode.INTERNAL, message=f"internal error {incident}", fatal=True))
        self._end(Close(CloseCode.INTERNAL_ERROR, "internal error"))

    async def _carry_out(self, outgoing: list[Outgoing]) -> None:
        for out in outgoing:
            if self.closing is not None:
                return
            if isinstance(out, Request):
                self._busy += 1
                try:
                    answer = await self._effect(out)
                    await self._carry_out(answer if self.session.concerns(out) else [])
                finally:
                    self._busy -= 1
                    if self._draining is not None and not self._busy:
                        self._end(self._draining)
            else:
                self._out(out)

    # writing

    def _out(self, out: ServerMessage | Frames | Close) -> None:
        if self.closing is not None:
            return
        if isinstance(out, Close):
            self._end(out)
        elif isinstance(out, Frames):
            self._send_frames(out)
        else:
            self._send(self.wire.frame(encode(out, self.encoding), self.text))

    def _send_frames(self, frames: Frames) -> None:
        """A version's messages, framed as this connection's wire frames them (shared with
        every connection of the same audience that frames alike)."""
        wire = self.wire
        framed = frames.framed(self.encoding, wire.framing, wire.frame)
        if framed:
            self._send(framed)

    def _send(self, frame: bytes) -> None:
        if not self.queue.put(frame):
            log.info("closing a connection whose send queue is full (%s writes)", self.queue.limit)
            self.runtime.metrics.slow_clients.inc()
            self._end(Close(CloseCode.RESUME_REQUIRED, "send queue full: reconnect and resume"))
            return

    def writable(self) -> None:
        """The client reads again (the wire says so): write what waited."""
        self.queue.writable()

    def pinged(self) -> None:
        """A WebSocket ping frame came: it counts against the frame limit as any frame does."""
        if self.closing is None:
            self._follow(self.session.pinged(time.monotonic()))

    def _gone(self) -> None:
        self._end(_Disconnected())

    def _end(self, closing: Close | _Disconnected) -> None:
        """Close after what is queued (a client too slow to read it gets its close at once),
        and stop reading if the client has not gone within the close timeout."""
        if self.closing is not None:
            return
        self.closing = closing
        if isinstance(closing, Close):
            self.queue.close_after(
                closing.code, closing.reason, drop=closing.code is CloseCode.RESUME_REQUIRED
            )
        else:
            self.queue.drop()
        if self._task is not None and self._deadline is None:
            # A client too slow to read gets longer: its close frame waits behind what the
            # socket holds, and it should still read why it was closed.
            slow = isinstance(closing, Close) and closing.code is CloseCode.RESUME_REQUIRED
            wait = SLOW_CLOSE_TIMEOUT if slow else CLOSE_TIMEOUT
            self._deadline = asyncio.get_running_loop().call_later(wait, self._give_up)

    def _give_up(self) -> None:
        if self._task is not None and not self._task.done():
            self._gave_up = True
            self._task.cancel()

    async def _effect(self, effect: Request) -> list[Outgoing]:
        try:
            return await self._request(effect)
        except Refused as error:
            return self.session.failed(error.code, error.detail)
        except (StorageUnavailable, OSError, TimeoutError) as error:
            log.warning("storage failed during %s: %s", type(effect).__name__, error)
            return self._unavailable(effect)
        except Exception:
            incident = secrets.token_hex(6)
            log.exception("internal error %s during %s", incident, type(effect).__name__)
            return [
                Error(code=ErrorCode.INTERNAL, message=f"internal error {incident}", fatal=True),
                Close(CloseCode.INTERNAL_ERROR, "internal error"),
            ]

    def _unavailable(self, effect: Request) -> list[Outgoing]:
        """Storage did not answer: the client may retry; its seat is kept."""
        message = "storage unavailable; retry shortly"
        if isinstance(effect, Submit):
            version = max(self.session.version, 0)
            reason = RejectReason.UNAVAILABLE
            return [Rejected(action_id=effect.act.action_id, reason=reason, message=message, version=version)]
        if isinstance(effect, Authenticate):
            return [
                Error(code=ErrorCode.UNAVAILABLE, message=message, fatal=True),
                Close(CloseCode.TRY_AGAIN_LATER, message),
            ]
        return self.session.failed(ErrorCode.UNAVAILABLE, message)

    async def _request(self, effect: Request) -> list[Outgoing]:
        authority = self.runtime.authority
        if isinstance(effect, Leave):
            await self._leave()
            return []
        if isinstance(effect, Unwatch):
            await self._unwatch()
            return []
        if isinstance(effect, Sit):
            return self.session.seated(await self._sit(effect))
        if isinstance(effect, AwaitStart):
            self._await_start(effect.game_id)
            return []
        if isinstance(effect, Authenticate):
            return self.session.authenticated(await authority.lobby.seat_of(effect.token))
        if isinstance(effect, Submit):
            answer = await authority.moves.submit(effect.game_id, effect.seat, effect.act)
            return self.session.answered(effect.act, answer)
        if isinstance(effect, Watch):
            return await self._watch(effect)
        if isinstance(effect, FollowTournament):
            self.following = effect.tournament_id
            try:
                await self.runtime.feeds.follow(self, effect.tournament_id, effect.secret, effect.watch)
            except BaseException:
                self.following = None
                raise
            return []
        assert isinstance(effect, CatchUp)
        return await self._catch_up(effect.game_id, effect.audience, effect.since)

    async def _watch(self, watch: Watch) -> list[Outgoing]:
        """Follow the game; the local games register this process before reading the game. A
        spectator counts against its address's spectated games."""
        if watch.audience is None:
            if not self.limits.spectate(self.address):
                self.runtime.metrics.limited.labels("spectators").inc()
                return self.session.failed(ErrorCode.RATE_LIMITED, "too many games watched from this address")
            self.spectating = True
        games = self.runtime.authority.games
        self.watching = watch.game_id
        watcher = self.watcher = _Watching(self, watch.game_id)
        try:
            frames = await games.watch(watch.game_id, watcher, watch.audience, self._history(watch.since))
        except BaseException as error:
            if isinstance(error, Refused) and error.code is ErrorCode.GAME_FULL:
                self.runtime.metrics.limited.labels("spectators_per_game").inc()
            await self._unwatch()
            raise
        if not self.session.concerns(watch):  # the connection moved on meanwhile
            await games.unwatch(watch.game_id, watcher)
            return []
        return self.session.caught_up(frames)

    async def _sit(self, sit: Sit) -> Seated:
        """Carry out a ``create``, ``take_seat`` or ``rematch`` as the REST calls do."""
        lobby = self.runtime.authority.lobby
        message, invite = sit.message, None
        if isinstance(message, Create):
            taker = JoinSeat(name=message.name, seat=message.seat)
            created = await lobby.create(message.setup, self.address, taker)
            self.runtime.metrics.games_created.labels(created.game).inc()
            grant, started, invite = created.grants[0], created.status == "playing", created.invite
        elif isinstance(message, TakeSeat):
            request = JoinSeat(name=message.name, seat=message.seat, invite=message.invite)
            grant, started = await lobby.take_seat(message.game_id, request)
        else:
            assert sit.game_id is not None and sit.seat is not None
            grant, started = await lobby.rematch(sit.game_id, sit.seat, self.address)
        return Seated(
            game_id=grant.game_id, seat=grant.seat, token=grant.token, started=started, invite=invite
        )

    def _await_start(self, game_id: str) -> None:
        def hear() -> None:
            self._awaiting_start = None
            if self.closing is None:
                self._follow(self.session.started(game_id))

        self._awaiting_start = (game_id, hear)
        self.runtime.authority.lobby.when_started(game_id, hear)

    def _history(self, since: int | None) -> int | None:
        """``since``, or None (the whole view only) once the address has replayed enough logs."""
        if since is None or self.limits.catch_up(self.address, time.monotonic()):
            return since
        self.runtime.metrics.limited.labels("catch_ups").inc()
        return None

    async def _leave(self) -> None:
        """Stop following the game or the tournament of the last hello."""
        await self._unwatch()
        if self.following is not None:
            self.runtime.feeds.unfollow(self, self.following)
            self.following = None

    async def _unwatch(self) -> None:
        if self._awaiting_start is not None:
            self.runtime.authority.lobby.forget_start(*self._awaiting_start)
            self._awaiting_start = None
        if self.spectating:
            self.spectating = False
            self.limits.stop_spectating(self.address)
        if self.watching is not None and self.watcher is not None:
            watching, watcher = self.watching, self.watcher
            self.watching = self.watcher = None
            await self.runtime.authority.games.unwatch(watching, watcher)

    async def _catch_up(self, game_id: str, audience: int | None, since: int | None) -> list[Outgoing]:
        frames = await self.runtime.authority.games.resume(game_id, audience, self._history(since))
        return self.session.caught_up(frames)
