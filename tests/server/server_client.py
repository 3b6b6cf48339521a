"""A small protocol client over real sockets, and a bot that plays from the view alone.

Used by the integration tests. The client checks the server's promises as it goes:
every update follows the version held (nothing lost, nothing twice) and its patch
applies to the view held; views never go back in time.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import time
from collections.abc import Callable
from typing import Any

import msgspec
import websockets
from websockets.asyncio.client import ClientConnection

from packplay.games.random_policy import random_action
from packplay.rng import Rng
from packplay_protocol import patch
from packplay_protocol.codec import decode_plain, decode_server, encode
from packplay_protocol.errors import DecodeError, RejectReason
from packplay_protocol.from_client import Act, ClientMessage, Hello, Join, Resume
from packplay_protocol.games.common import LegalActions
from packplay_protocol.to_client import (
    Accepted,
    Events,
    GameOver,
    Rejected,
    ServerMessage,
    Update,
    ViewMessage,
    Welcome,
)
from packplay_protocol.version import PROTOCOL_VERSION, Encoding, subprotocol

_ids = itertools.count()


class Client:
    """One connection; ``received`` keeps every message for the leak checks (unless not ``keep``)."""

    def __init__(
        self,
        base: str,
        encoding: Encoding = Encoding.JSON,
        keep: bool = True,
        compression: str | None = "deflate",
    ) -> None:
        self.url = base.replace("http://", "ws://") + "/v2/ws"
        self.encoding = encoding
        self.compression = compression
        """What the client offers: permessage-deflate (as browsers do), or None."""
        self.keep = keep
        self.ws: ClientConnection | None = None
        self.received: list[ServerMessage] = []
        self.version = -1
        self.view: ViewMessage | None = None
        self.document: dict[str, Any] | None = None
        """The view message as plain data, patched by every update."""
        self.over: GameOver | None = None
        self.broken: list[str] = []
        """Promises the server broke (a gap or a repeat in the chain of versions)."""
        self.view_times: dict[int, float] = {}
        """When each version's view arrived (``time.perf_counter``), for latency figures."""
        self.acked: set[str] = set()
        """Action ids acknowledged by an update."""

    async def connect(self, token: str | None = None) -> Welcome:
        offer = [subprotocol(PROTOCOL_VERSION, self.encoding)]
        self.ws = await websockets.connect(
            self.url,
            subprotocols=offer,  # type: ignore[arg-type]
            max_size=2**22,
            compression=self.compression,
        )
        await self.send(Hello(client="packplay-tests/1", token=token))
        welcome = await self.recv()
        assert isinstance(welcome, Welcome), welcome
        return welcome

    async def hello_again(self, token: str | None = None) -> Welcome:
        """Take another token's identity on this connection; what the game left sends
        before the welcome is read and dropped, and the chain of versions starts over."""
        await self.send(Hello(client="packplay-tests/1", token=token))
        welcome = await self.until(lambda m: isinstance(m, Welcome))
        assert isinstance(welcome, Welcome)
        self.version, self.view, self.document, self.over = -1, None, None, None
        return welcome

    async def join(self, game_id: str, role: str = "player", since: int | None = None) -> ViewMessage:
        await self.send(Join(game_id=game_id, role=role, from_version=since))  # type: ignore[arg-type]
        return await self.until_view()

    async def send(self, message: ClientMessage) -> None:
        assert self.ws is not None
        frame = encode(message, self.encoding)
        await self.ws.send(frame.decode() if self.encoding is Encoding.JSON else frame)

    async def recv(self, timeout: float = 10.0) -> ServerMessage:
        assert self.ws is not None
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        message = decode_server(frame, self.encoding, max_bytes=2**22)
        assert not isinstance(message, DecodeError), message
        if self.keep:
            self.received.append(message)
        self._track(message, frame)
        return message

    async def until(self, done: Callable[[ServerMessage], bool], timeout: float = 10.0) -> ServerMessage:
        while True:
            message = await self.recv(timeout)
            if done(message):
                return message

    async def until_view(self, timeout: float = 10.0) -> ViewMessage:
        message = await self.until(lambda m: isinstance(m, ViewMessage), timeout)
        assert isinstance(message, ViewMessage)
        return message

    async def idle(self, seconds: float) -> None:
        """Wait, still reading (so arrival times stay true)."""
        deadline = time.perf_counter() + seconds
        while (left := deadline - time.perf_counter()) > 0:
            try:
                await self.recv(timeout=left)
            except TimeoutError:
                return

    async def resume(self, since: int) -> None:
        await self.send(Resume(from_version=since))

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    def _track(self, message: ServerMessage, frame: bytes | str) -> None:
        if isinstance(message, Events):
            if message.from_version != self.version:
                self.broken.append(f"events from {message.from_version} after version {self.version}")
        elif isinstance(message, ViewMessage):
            self.view_times.setdefault(message.version, time.perf_counter())
            if message.version < self.version:
                self.broken.append(f"view {message.version} after version {self.version}")
            self.version = max(self.version, message.version)
            self.view = message
            self.document = decode_plain(frame, self.encoding, max_bytes=2**22)
        elif isinstance(message, Update):
            self._patch(message)
        elif isinstance(message, GameOver):
            self.over = message

    def _patch(self, update: Update) -> None:
        if update.version != self.version + 1 or self.document is None:
            self.broken.append(f"update to {update.version} after version {self.version}")
            return
        try:
            document = patch.apply(self.document, update.patch)
        except patch.PatchError as error:
            self.broken.append(f"update to {update.version} does not fit: {error}")
            return
        document["version"] = update.version
        self.document, self.version = document, update.version
        self.view = msgspec.convert(document, ViewMessage)
        self.view_times.setdefault(update.version, time.perf_counter())
        if update.action_id is not None:
            self.acked.add(update.action_id)


def answered(action_id: str) -> Callable[[ServerMessage], bool]:
    """Whether a message answers the action: its update, or an accepted or rejected."""

    def done(message: ServerMessage) -> bool:
        if isinstance(message, Update):
            return message.action_id == action_id
        return isinstance(message, Accepted | Rejected) and message.action_id == action_id

    return done


def pick(legal: LegalActions[Any], rng: random.Random, action_type: Any = Any) -> Any:
    """Any legal action, drawn as the engines' random policy draws; typed when ``action_type`` is given."""
    return random_action(legal, action_type, Rng(rng.getrandbits(53)))


def new_action_id() -> str:
    return f"a{next(_ids)}-{random.getrandbits(32):08x}"


class Bot:
    """Plays one seat through a :class:`Client` until the game is over."""

    def __init__(self, client: Client, rng: random.Random, think: float = 0.0) -> None:
        self.client = client
        self.rng = rng
        self.think = think
        """Mean seconds to wait before each action, as a person would (load tests)."""
        self.answers: list[Accepted | Rejected] = []
        """Each answer; an update that acknowledged an action counts as its ``accepted``."""
        self.sent: dict[str, float] = {}
        """When each action left (``time.perf_counter``), by action id."""

    async def step(self) -> bool:
        """Act if the seat is pending, then read up to a newer view; False once over."""
        client = self.client
        view = client.view
        if client.over is not None or view is None:
            return client.over is None
        if view.legal.actions or view.legal.choices:
            if self.think:
                await client.idle(self.think * self.rng.uniform(0.5, 1.5))
            act = Act(action_id=new_action_id(), version=view.version, action=pick(view.legal, self.rng))
            self.sent[act.action_id] = time.perf_counter()
            await client.send(act)
            answer = await client.until(answered(act.action_id))
            if isinstance(answer, Update):
                answer = Accepted(action_id=act.action_id, version=answer.version)
            assert isinstance(answer, Accepted | Rejected)
            self.answers.append(answer)
            if isinstance(answer, Rejected) and answer.reason is not RejectReason.STALE_VERSION:
                if answer.reason is RejectReason.RATE_LIMITED:
                    await asyncio.sleep(0.1)
                return True
        current = client.view
        if client.over is None and current is not None and current.version <= view.version:
            await client.until(lambda m: _newer(m, view))
        return client.over is None

    async def play(self, stop_after: int | None = None) -> None:
        steps = 0
        while await self.step():
            steps += 1
            if stop_after is not None and steps >= stop_after:
                return


def _newer(message: ServerMessage, than: ViewMessage) -> bool:
    return isinstance(message, GameOver) or (
        isinstance(message, ViewMessage | Update) and message.version > than.version
    )
