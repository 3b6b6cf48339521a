"""A player's or a spectator's connection to one game over the WebSocket.

:func:`connect` opens the socket and exchanges ``hello``/``welcome``;
:meth:`GameConnection.join` follows a game; :meth:`GameConnection.act` plays an
action and returns the server's answer; :meth:`GameConnection.switch` takes the
next game's seat on the same connection. A kept connection also gets its next game
itself, without REST: :meth:`GameConnection.create`, :meth:`GameConnection.take_seat`
and :meth:`GameConnection.rematch` answer the seat taken (``seated``), and the game's
view follows without a join (:meth:`GameConnection.wait_for_start`). One reader task
decodes every frame, keeps the last view and version, and puts each message on a stream
(:meth:`GameConnection.messages`).

The connection keeps the promises of the protocol for its caller: it keeps the
seat's view exact from the server's updates (each ``update`` patches the view
message of the version before it; a gap, or a patch that does not fit, is answered
with ``resume``, which brings a whole view), and after a close that asks for it
(4000, 1001, 1006, 1012, 1013) it reconnects, joins again from the last version
seen, and sends again the actions still waiting for an answer (the server applies
each action id once); such a close before the ``welcome`` makes it say ``hello`` again.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import secrets
import time
import urllib.parse
from collections.abc import AsyncIterator, Callable
from types import TracebackType
from typing import Any

import msgspec

from packplay_clients.errors import ConnectionLost, PackplayError, ServerError, TransportClosed
from packplay_clients.transport import MAX_FRAME_BYTES, Connector, Transport, connect_websocket
from packplay_protocol import patch
from packplay_protocol.codec import decode_plain, decode_server, encode
from packplay_protocol.errors import CloseCode, DecodeError
from packplay_protocol.from_client import (
    Act,
    ClientMessage,
    Create,
    Hello,
    Join,
    Ping,
    Rematch,
    Resume,
    Role,
    TakeSeat,
)
from packplay_protocol.rest import CreateGame
from packplay_protocol.to_client import (
    Accepted,
    Error,
    Events,
    GameOver,
    Pong,
    Rejected,
    Seated,
    ServerMessage,
    Update,
    ViewMessage,
    Welcome,
)
from packplay_protocol.version import PROTOCOL_VERSION, SUBPROTOCOLS, WS_PATH, Encoding, subprotocol

CLIENT_NAME = "packplay-python/1"
RESUME_CLOSE_CODES = frozenset(
    {CloseCode.RESUME_REQUIRED, CloseCode.GOING_AWAY, CloseCode.TRY_AGAIN_LATER, 1006, 1012}
)
"""Close codes after which the connection reconnects and resumes (1012: service restart)."""
Answer = Accepted | Rejected
Listener = Callable[[ServerMessage], None]
"""Called with each message :meth:`GameConnection.messages` yields, as it is received."""


def ws_url(url: str) -> str:
    """The WebSocket endpoint of a server: ``http://host:8000`` gives ``ws://host:8000/v2/ws``.

    A ``ws``/``wss`` URL that already names the endpoint is kept as it is.
    """
    parts = urllib.parse.urlsplit(url)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    path = parts.path if parts.path.endswith(WS_PATH) else parts.path.rstrip("/") + WS_PATH
    return urllib.parse.urlunsplit((scheme, parts.netloc, path, parts.query, ""))


async def connect(
    url: str, token: str | None = None, encoding: Encoding | str = Encoding.JSON, **options: Any
) -> GameConnection:
    """Open a connection and exchange ``hello``/``welcome``.

    ``url`` is the server's base URL or its WebSocket endpoint; ``options`` are
    :class:`GameConnection`'s.

    Raises:
        ServerError: the server refused the hello (e.g. ``unauthorized``).
        ConnectionLost: the socket could not be opened or closed first.
    """
    connection = GameConnection(url, token=token, encoding=encoding, **options)
    try:
        await connection.open()
    except BaseException:
        await connection.close()
        raise
    return connection


class GameConnection:
    """One connection to one game. Use :func:`connect`, or construct then :meth:`open`.

    ``connector`` opens the transport (a WebSocket by default; inject another to run
    without sockets). ``action_prefix`` starts every generated action id (random by
    default). ``keepalive`` sends a ``ping`` when nothing was sent for half the
    server's ping interval.
    """

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        encoding: Encoding | str = Encoding.JSON,
        client: str = CLIENT_NAME,
        connector: Connector | None = None,
        reconnect_attempts: int = 5,
        reconnect_delay: float = 0.1,
        keepalive: bool = True,
        action_prefix: str | None = None,
    ) -> None:
        self.url = ws_url(url)
        self.token = token
        self.encoding = Encoding(encoding)
        self.client = client
        self.reconnect_attempts = reconnect_attempts
        self.reconnect_delay = reconnect_delay
        self.keepalive = keepalive
        self.welcome: Welcome | None = None
        self.view: ViewMessage | None = None
        """The seat's view now: the last whole view received, patched by every update since."""
        self.document: dict[str, Any] | None = None
        """The same view message as plain data, as the server sent it (unknown fields kept)."""
        self.game_over: GameOver | None = None
        self.version = -1
        """The last game version whose events and view this connection holds (-1: none yet)."""
        self.game_id: str | None = None
        self.role: Role | None = None
        self.seated: Seated | None = None
        """The seat taken on this connection by the last create, take_seat or rematch."""
        self.gaps = 0
        """Updates that did not follow the version held, or did not fit it (each answered with ``resume``)."""
        self.resumed_after: list[int] = []
        """The close code of every drop the connection reconnected and resumed after."""
        self.decode_errors: list[DecodeError] = []
        """Frames that did not decode (a newer server's unknown message types among them)."""
        self._connector: Connector = connector or connect_websocket
        self._wire = self.encoding
        self._transport: Transport | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pinger: asyncio.Task[None] | None = None
        self._answers: dict[str, tuple[Act, asyncio.Future[Answer]]] = {}
        self._request: tuple[type[Welcome] | type[ViewMessage] | type[Seated], asyncio.Future[Any]] | None = (
            None
        )
        self._stream: asyncio.Queue[ServerMessage | None] = asyncio.Queue()
        self._listeners: list[Listener] = []
        self._changed = asyncio.Condition()
        self._failure: PackplayError | None = None
        self._closing = False
        self._resuming = False
        self._rejoining = False
        self._awaiting_welcome = False
        self._switching = False
        """A new hello is under way: until its welcome, what arrives is about the game left."""
        self._prefix = action_prefix if action_prefix is not None else secrets.token_hex(4)
        self._ids = itertools.count(1)
        self._last_sent = time.monotonic()

    # what the caller does

    async def open(self) -> Welcome:
        """Open the transport and exchange ``hello``/``welcome``.

        Raises:
            ServerError: the server refused the hello.
            ConnectionLost: the socket could not be opened or closed first.
        """
        try:
            await self._open_transport()
        except TransportClosed as closed:
            raise ConnectionLost(closed.code, closed.reason) from closed
        self._reader = asyncio.create_task(self._read(), name="packplay-reader")
        welcome: Welcome = await self._ask(Hello(client=self.client, token=self.token), Welcome)
        if self.keepalive:
            interval = welcome.limits.ping_interval_seconds
            self._pinger = asyncio.create_task(self._keep_alive(interval), name="packplay-keepalive")
        return welcome

    async def join(self, game_id: str | None = None, role: Role = "player") -> ViewMessage:
        """Follow a game (by default the one the token holds a seat in); its first view.

        Raises:
            ServerError: the server refused the join (``unauthorized``, ``not_found``...).
            ConnectionLost: the connection closed for good first.
        """
        game_id = game_id or (self.welcome.game_id if self.welcome else None)
        if game_id is None:
            raise ValueError("no game to join: pass game_id (the token holds no seat)")
        self.game_id, self.role = game_id, role
        try:
            view: ViewMessage = await self._ask(Join(game_id=game_id, role=role), ViewMessage)
        except ServerError:
            self.game_id = self.role = None
            raise
        return view

    async def switch(self, token: str | None = None) -> Welcome:
        """Take another seat (``token``; none to spectate) on this open connection, as a
        player going from one game to the next does; then :meth:`join` its game.

        The server stops sending the game followed so far. What it sent of that game
        before the new ``welcome`` is dropped (an update answering an action still
        answers it), and the view, version and ``game_over`` start over.

        Raises:
            ServerError: the server refused the hello (a fatal ``unauthorized`` closes
                the connection).
            ConnectionLost: the connection closed for good first.
        """
        self._raise_if_failed()
        self.token = token
        self._switching = True
        try:
            welcome: Welcome = await self._ask(Hello(client=self.client, token=token), Welcome)
        finally:
            self._switching = False
        return welcome

    async def create(self, setup: CreateGame, name: str, seat: int | None = None) -> Seated:
        """Create a game (``setup``: the REST create body, without ``seats``) and take ``seat``
        of it (the lowest the house does not play by default) on this connection.

        The game followed so far is left. When the house plays every other seat the game
        starts at once and its view follows; otherwise it waits for the other players'
        :meth:`take_seat` (:meth:`wait_for_start`).

        Raises:
            ServerError: refused as the REST create is (``bad_config``, ``rate_limited``...).
        """
        return await self._sit(Create(setup=setup, name=name, seat=seat))

    async def take_seat(
        self, game_id: str, name: str, seat: int | None = None, invite: str | None = None
    ) -> Seated:
        """Take a seat of a game waiting for players and play it on this connection.

        Raises:
            ServerError: ``not_found``, ``game_full``, ``seat_taken``, ``invite_required``...
        """
        return await self._sit(TakeSeat(game_id=game_id, name=name, seat=seat, invite=invite))

    async def rematch(self) -> Seated:
        """Once the game played here is over: the same players' next game, each in its seat.
        It starts when every player has asked (:meth:`wait_for_start`).

        Raises:
            ServerError: ``game_not_over``, ``out_of_order`` (no game played here).
        """
        return await self._sit(Rematch())

    async def wait_for_start(self, timeout: float | None = None) -> ViewMessage:
        """The first view of the game seated in (it comes once the game has started)."""
        await self.wait_until(lambda: self.view is not None and self.view.game_id == self.game_id, timeout)
        assert self.view is not None
        return self.view

    async def _sit(self, message: Create | TakeSeat | Rematch) -> Seated:
        self._raise_if_failed()
        seated: Seated = await self._ask(message, Seated)
        return seated

    async def act(self, action: Any, *, version: int | None = None, action_id: str | None = None) -> Answer:
        """Play ``action`` (decided on ``version``, by default the last one seen); the answer.

        Resending an ``action_id`` gets the same answer; the action applies once.

        Raises:
            ConnectionLost: the connection closed for good before the answer came.
        """
        self._raise_if_failed()
        act = Act(
            action_id=action_id or self.new_action_id(),
            version=self.version if version is None else version,
            action=action,
        )
        waiting = self._answers.get(act.action_id)
        future = waiting[1] if waiting else asyncio.get_running_loop().create_future()
        self._answers[act.action_id] = (act, future)
        if not self._awaiting_welcome:
            # Between a reconnect's hello and its welcome the server knows no game yet for
            # this socket: the welcome sends the join, then every pending action, this one too.
            await self._send(act)
        return await future

    async def refresh(self) -> ViewMessage:
        """Ask for a whole view of the game now (``resume`` from the version held); it replaces
        the view kept from updates. Needed only to check the view, never to keep it.

        Raises:
            ServerError: the server refused (no game joined).
        """
        view: ViewMessage = await self._ask(Resume(from_version=max(self.version, 0)), ViewMessage)
        return view

    async def ping(self, nonce: str = "") -> None:
        """Send a ``ping``; its ``pong`` arrives on the stream."""
        await self._send(Ping(nonce=nonce))

    def new_action_id(self) -> str:
        """A fresh action id, unique for this connection."""
        return f"{self._prefix}-{next(self._ids)}"

    @property
    def seat(self) -> int | None:
        """The seat the token holds, or the seat taken here (None for a spectator)."""
        if self.seated is not None:
            return self.seated.seat
        return self.welcome.seat if self.welcome else None

    @property
    def closed(self) -> bool:
        return self._failure is not None

    async def wait_until(self, ready: Callable[[], bool], timeout: float | None = None) -> None:
        """Wait until ``ready()`` holds; it is checked after every message received.

        Raises:
            ConnectionLost: the connection closed for good first.
            TimeoutError: ``timeout`` seconds passed first.
        """
        async with asyncio.timeout(timeout), self._changed:
            while not ready():
                self._raise_if_failed()
                await self._changed.wait()

    async def wait_for_version(self, version: int, timeout: float | None = None) -> ViewMessage:
        """The first view at ``version`` or later (once the game is over, the last view)."""
        await self.wait_until(lambda: self._view_at(version) or self.game_over is not None, timeout)
        assert self.view is not None
        return self.view

    def _view_at(self, version: int) -> bool:
        return self.view is not None and self.view.version >= version

    async def messages(self) -> AsyncIterator[ServerMessage]:
        """Every message received, in order, until the connection closes for good.

        Events appear once each, chained; read by one consumer.
        """
        while (message := await self._stream.get()) is not None:
            yield message
        self._stream.put_nowait(None)  # the end, for the next reader too

    def listen(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener`` with every message the stream gets, in order, as soon as it is
        received (the view already patched by an update when the listener hears of it),
        whoever reads the stream. Returns the function that stops it.
        """
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    async def close(self) -> None:
        """Close the connection (idempotent); the stream ends and waiters get :class:`ConnectionLost`."""
        if self._closing:
            return
        self._closing = True
        if self._pinger is not None:
            self._pinger.cancel()
        if self._transport is not None:
            with contextlib.suppress(TransportClosed, OSError):
                await self._transport.close()
        if self._reader is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._reader), 5.0)
            self._reader.cancel()
        await self._fail(ConnectionLost(1000, "closed by the client"))

    async def __aenter__(self) -> GameConnection:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    # sending

    async def _open_transport(self) -> None:
        offer = [subprotocol(PROTOCOL_VERSION, self.encoding)]
        transport = await self._connector(self.url, offer)
        # A server that speaks none of the offer explains why in one JSON frame.
        self._wire = SUBPROTOCOLS.get(transport.subprotocol or "", Encoding.JSON)
        self._transport = transport

    async def _ask(
        self, message: ClientMessage, answer: type[Welcome] | type[ViewMessage] | type[Seated]
    ) -> Any:
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._request = (answer, future)
        await self._send(message)
        return await future

    async def _send(self, message: ClientMessage) -> None:
        """Send, or leave it to the reader: it resumes after a drop and sends pending actions again."""
        self._raise_if_failed()
        assert self._transport is not None, "open the connection first"
        frame = encode(message, self._wire)
        with contextlib.suppress(TransportClosed):
            await self._transport.send(frame.decode() if self._wire is Encoding.JSON else frame)
            self._last_sent = time.monotonic()

    async def _keep_alive(self, interval: float) -> None:
        while True:
            await asyncio.sleep(interval / 2)
            if time.monotonic() - self._last_sent >= interval / 2 and not self.closed:
                await self._send(Ping(nonce="keepalive"))

    def _raise_if_failed(self) -> None:
        if self._failure is not None:
            raise self._failure

    # receiving

    async def _read(self) -> None:
        try:
            while await self._read_one():
                pass
        except Exception as error:
            await self._fail(PackplayError(f"the connection's reader failed: {error!r}"))

    async def _read_one(self) -> bool:
        assert self._transport is not None
        try:
            frame = await self._transport.recv()
        except TransportClosed as closed:
            return await self._recover(closed)
        message = decode_server(frame, self._wire, max_bytes=MAX_FRAME_BYTES)
        if isinstance(message, DecodeError):
            self.decode_errors.append(message)
        elif isinstance(message, ViewMessage):
            await self._receive(message, decode_plain(frame, self._wire, max_bytes=MAX_FRAME_BYTES))
        else:
            await self._receive(message)
        return True

    async def _receive(self, message: ServerMessage, plain: Any = None) -> None:
        if self._switching and not isinstance(message, Welcome | Error | Pong | Accepted | Rejected):
            # About the game left: only an acknowledgement it carries still matters.
            if isinstance(message, Update) and message.action_id is not None:
                self._on_answer(Accepted(action_id=message.action_id, version=message.version))
            return
        keep = True
        if isinstance(message, Welcome):
            await self._on_welcome(message)
        elif isinstance(message, ViewMessage):
            self._on_view(message, plain)
        elif isinstance(message, Update):
            keep = await self._on_update(message)
        elif isinstance(message, Events):
            keep = message.to_version > self.version
        elif isinstance(message, Accepted | Rejected):
            self._on_answer(message)
        elif isinstance(message, GameOver):
            self.game_over = message
        elif isinstance(message, Seated):
            self._on_seated(message)
        elif isinstance(message, Error):
            await self._on_error(message)
        self._settle_request(message)
        if keep:
            self._stream.put_nowait(message)
            for listener in list(self._listeners):
                listener(message)
        async with self._changed:
            self._changed.notify_all()

    async def _on_welcome(self, welcome: Welcome) -> None:
        self.welcome = welcome
        self._awaiting_welcome = False
        if self._switching:
            self._switching = False
            self._start_over()
        if not self._rejoining:
            return
        if self.game_id is None or self.role is None:
            self._rejoining = False
            return
        since = self.version if self.version >= 0 else None
        await self._send(Join(game_id=self.game_id, role=self.role, from_version=since))
        for act, _ in list(self._answers.values()):
            await self._send(act)

    def _on_seated(self, seated: Seated) -> None:
        """A seat taken here: the connection plays it now (its token, to resume after a drop)."""
        self._start_over()
        self.seated, self.token = seated, seated.token
        self.game_id, self.role = seated.game_id, "player"

    def _start_over(self) -> None:
        """Forget the game left (a new hello was welcomed, or a seat taken here)."""
        self.view = self.document = self.game_over = None
        self.game_id = self.role = None
        self.seated = None
        self.version = -1
        self._resuming = False
        left = ConnectionLost(1000, "the connection left the game before this action was answered")
        for _, future in self._answers.values():
            if not future.done():
                future.set_exception(left)
        self._answers.clear()

    def _on_view(self, view: ViewMessage, plain: Any) -> None:
        if self.view is None or view.version >= self.view.version:
            self.view = view
            self.document = plain if isinstance(plain, dict) else msgspec.to_builtins(view)
        self.version = max(self.version, view.version)
        self._resuming = self._rejoining = False

    async def _on_update(self, update: Update) -> bool:
        """Patch the view with an update that follows it; on a gap, ask for a whole view."""
        if update.version <= self.version or self._resuming:
            return False
        document = self.document
        patched = None
        if document is not None and update.version == self.version + 1:
            try:
                # In place: if the patch does not fit, the whole view asked for replaces it.
                patched = patch.apply(document, update.patch)
                patched["version"] = update.version
                view = msgspec.convert(patched, ViewMessage)
            except (patch.PatchError, msgspec.ValidationError, TypeError, KeyError):
                patched = None
        if patched is None:
            self.gaps += 1
            self._resuming = True
            await self._send(Resume(from_version=max(self.version, 0)))
            return False
        self.document, self.view, self.version = patched, view, update.version
        if update.action_id is not None:
            self._on_answer(Accepted(action_id=update.action_id, version=update.version))
        return True

    def _on_answer(self, answer: Answer) -> None:
        waiting = self._answers.pop(answer.action_id, None)
        if waiting is not None and not waiting[1].done():
            waiting[1].set_result(answer)

    async def _on_error(self, error: Error) -> None:
        if self._rejoining and not error.fatal:
            # The game is gone or the seat lost: resuming cannot succeed.
            await self._fail(ServerError(error))

    def _settle_request(self, message: ServerMessage) -> None:
        if self._request is None:
            return
        answer, future = self._request
        if isinstance(message, (answer, Error)):
            self._request = None
            if future.done():
                return
            if isinstance(message, Error):
                future.set_exception(ServerError(message))
            else:
                future.set_result(message)

    async def _recover(self, closed: TransportClosed) -> bool:
        """Reconnect and resume after a close that asks for it; False once closed for good."""
        if self._failure is not None:
            return False
        if self._closing or closed.code not in RESUME_CLOSE_CODES:
            await self._fail(ConnectionLost(closed.code, closed.reason))
            return False
        # Closed before the welcome (a process draining as the hello arrived): say hello
        # again elsewhere; the welcome then answers the open under way.
        last = closed
        for attempt in range(self.reconnect_attempts):
            await asyncio.sleep(self.reconnect_delay * 2**attempt)
            if self._closing:
                break
            try:
                await self._open_transport()
            except TransportClosed as error:
                last = error
                continue
            self.resumed_after.append(closed.code)
            self._rejoining = self._awaiting_welcome = True
            await self._send(Hello(client=self.client, token=self.token))
            return True
        await self._fail(ConnectionLost(closed.code, f"could not resume: {last.reason}"))
        return False

    async def _fail(self, failure: PackplayError) -> None:
        """Close for good: every waiter gets ``failure``, the stream ends."""
        if self._failure is not None:
            return
        self._failure = failure
        if self._pinger is not None:
            self._pinger.cancel()
        pending = [future for _, future in self._answers.values()]
        if self._request is not None:
            pending.append(self._request[1])
        for future in pending:
            if not future.done():
                future.set_exception(failure)
        self._answers.clear()
        self._stream.put_nowait(None)
        async with self._changed:
            self._changed.notify_all()
        if not self._closing and self._transport is not None:
            with contextlib.suppress(TransportClosed, OSError):
                await self._transport.close()
