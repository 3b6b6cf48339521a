"""What replaces redis-py's reading of replies: a Redis connection taken over for batches. A
batch is one write, its replies are parsed as they arrive, and the batch is settled when its
last reply is in.

redis-py opens the connection (the address, TLS, AUTH, the database, a Sentinel's
master discovery); its socket's transport is then handed to this protocol, which feeds
what arrives to hiredis (the parser redis-py itself uses) and resolves one future per
batch. Reading through redis-py instead costs a stream reader's wakeup and an await per
reply: with them, a round trip cost the pipeline nearly three times the CPU it costs now
(``load/bench_redis_link.py`` measures a round trip).

Error replies come back as redis-py's exception types (``ResponseError``, ``MovedError``,
``NoScriptError``...), in their place among the replies. A link that fails (the
connection is lost, or a reply does not parse) fails every batch waiting on it and is
not used again.
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

import hiredis
from redis._parsers.base import BaseParser
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import InvalidResponse, RedisError

_Waiting = tuple["asyncio.Future[list[Any]]", list[Any], int]


class Link(asyncio.Protocol):
    """One open connection to one Redis node, for batches of packed commands."""

    def __init__(self, connection: AbstractConnection) -> None:
        writer = connection._writer  # set once redis-py's connect() has returned
        if writer is None:
            raise RedisConnectionError("the connection is not open")
        self._connection = connection
        self._transport: asyncio.WriteTransport = writer.transport
        self._parser = hiredis.Reader(protocolError=InvalidResponse, replyError=BaseParser.parse_error)
        self._waiting: deque[_Waiting] = deque()
        self._lost: RedisError | None = None
        self._transport.set_protocol(self)

    @classmethod
    async def open(cls, connection: AbstractConnection) -> Link:
        """Connect through redis-py (its handshake), then take the socket over."""
        await connection.connect()  # type: ignore[no-untyped-call]
        return cls(connection)

    @property
    def usable(self) -> bool:
        return self._lost is None and not self._transport.is_closing()

    def exchange(self, packed: bytes, replies: int) -> asyncio.Future[list[Any]]:
        """Send ``packed`` (``replies`` commands); its replies, in order, once all are in."""
        future: asyncio.Future[list[Any]] = asyncio.get_running_loop().create_future()
        if self._lost is not None:
            future.set_exception(self._lost)
            return future
        self._waiting.append((future, [], replies))
        self._transport.write(packed)
        return future

    def data_received(self, data: bytes) -> None:
        parser, waiting = self._parser, self._waiting
        parser.feed(data)
        while True:
            try:
                reply = parser.gets()
            except InvalidResponse as error:
                self._lose(RedisConnectionError(f"Redis sent what does not parse: {error}"))
                return
            if reply is False:
                return
            if not waiting:
                self._lose(RedisConnectionError("Redis sent a reply nobody asked for"))
                return
            future, replies, expected = waiting[0]
            replies.append(reply)
            if len(replies) == expected:
                waiting.popleft()
                if not future.done():
                    future.set_result(replies)

    def eof_received(self) -> bool:
        self._lose(RedisConnectionError("Redis closed the connection"))
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._lose(RedisConnectionError(f"the connection to Redis was lost: {exc or 'closed'}"))

    def close(self, error: RedisError | None = None) -> None:
        """Stop using the link: whatever still waits on it fails (with ``error``)."""
        self._lose(error or RedisConnectionError("the connection was closed"))

    def _lose(self, error: RedisError) -> None:
        """Close the transport (before letting go of redis-py's writer, which warns if
        collected open) and fail whatever waits."""
        if self._lost is None:
            self._lost = error
            self._transport.close()
            self._connection._reader = self._connection._writer = None  # redis-py: not connected
        while self._waiting:
            future = self._waiting.popleft()[0]
            if not future.done():
                future.set_exception(error)
