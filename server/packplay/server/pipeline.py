"""Every Redis command of a process goes through one pipeline: the commands issued
during one turn of the event loop, from all games and connections, travel to Redis
together in one write and come back in one read.

This is where the per-move cost of Redis is amortised. A command issued while every
lane is busy waits for the next batch: under load, batches grow and callers wait
longer (back-pressure), but nothing fails for having waited. A command fails only
when Redis does not answer within ``timeout`` or the connection breaks; the caller
then reports a retryable error.

Commands are packed by hiredis (C) and sent on redis-py connections, which keep
their handling of connecting, authentication, TLS and protocol errors.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import NoScriptError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger(__name__)
Observer = Callable[[int], None]
"""Told the size of each batch sent (for metrics)."""


@dataclass(frozen=True)
class Script:
    """A Lua script, called by its SHA1 and loaded on first use."""

    source: str

    @property
    def sha(self) -> str:
        return hashlib.sha1(self.source.encode()).hexdigest()


class _Call:
    __slots__ = ("future", "packed")

    def __init__(self, packed: bytes, future: asyncio.Future[Any]) -> None:
        self.packed = packed
        self.future = future


class Pipeline:
    """The process's Redis commands, batched per event-loop turn over a few connections."""

    def __init__(
        self,
        pool: aioredis.ConnectionPool,
        lanes: int = 4,
        timeout: float | None = 30.0,
        observe: Observer | None = None,
    ) -> None:
        self._pool = pool
        self._lanes = lanes
        self._busy = 0
        self._connections: list[AbstractConnection] = []
        """The lanes' connections not in use; made from the pool's settings, kept across batches."""
        self._timeout = timeout
        self._queue: list[_Call] = []
        self._scheduled = False
        self._observe = observe
        self.round_trips = 0
        """Batches sent so far (each is one round trip, however many commands it holds)."""
        self.commands = 0

    def call(self, *args: Any) -> Awaitable[Any]:
        """Send one command with the next batch; its reply (error replies raise)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append(_Call(hiredis.pack_command(args), future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        return future

    async def run(self, script: Script, keys: list[str], args: list[Any]) -> Any:
        """Run a Lua script (EVALSHA, loading it the first time a server lacks it)."""
        try:
            return await self.call("EVALSHA", script.sha, len(keys), *keys, *args)
        except NoScriptError:
            await self.call("SCRIPT", "LOAD", script.source)
            return await self.call("EVALSHA", script.sha, len(keys), *keys, *args)

    def _flush(self) -> None:
        self._scheduled = False
        if not self._queue or self._busy >= self._lanes:
            return  # a lane that finishes sends what is queued
        batch, self._queue = self._queue, []
        self._busy += 1
        asyncio.create_task(self._send(batch))

    async def _send(self, batch: list[_Call]) -> None:
        self.round_trips += 1
        self.commands += len(batch)
        if self._observe is not None:
            self._observe(len(batch))
        try:
            await self._exchange(batch)
        finally:
            self._busy -= 1
            if self._queue and not self._scheduled:
                self._scheduled = True
                asyncio.get_running_loop().call_soon(self._flush)

    async def _exchange(self, batch: list[_Call]) -> None:
        connection = self._connections.pop() if self._connections else self._pool.make_connection()  # type: ignore[no-untyped-call]
        healthy = False
        try:
            async with asyncio.timeout(self._timeout):
                await connection.send_packed_command(b"".join(c.packed for c in batch), check_health=False)
                for index, call in enumerate(batch):
                    try:
                        reply = await connection.read_response(timeout=math.inf)
                    except ResponseError as error:
                        _settle(call, error=error)
                    except BaseException as error:
                        _fail(batch[index:], error)
                        raise
                    else:
                        _settle(call, reply=reply)
            healthy = True
        except TimeoutError:
            log.warning("Redis did not answer a batch of %d commands in %s s", len(batch), self._timeout)
            _fail(batch, RedisTimeoutError(f"no answer from Redis in {self._timeout} s"))
        except (RedisError, OSError) as error:
            log.warning("Redis pipeline of %d commands failed: %s", len(batch), error)
            _fail(batch, error)
        finally:
            if healthy:
                self._connections.append(connection)
            else:
                await connection.disconnect(nowait=True)

    async def close(self) -> None:
        """Close the lanes' connections (the client's pool closes its own)."""
        connections, self._connections = self._connections, []
        for connection in connections:
            await connection.disconnect()


def _settle(call: _Call, reply: Any = None, error: BaseException | None = None) -> None:
    if call.future.done():
        return  # the caller gave up (cancelled)
    if error is not None:
        call.future.set_exception(error)
    else:
        call.future.set_result(reply)


def _fail(calls: list[_Call], error: BaseException) -> None:
    for call in calls:
        if not call.future.done():
            call.future.set_exception(error if isinstance(error, RedisError) else RedisError(str(error)))
