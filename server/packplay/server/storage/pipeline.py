"""Every Redis command of a process goes through one pipeline: the commands issued
during one turn of the event loop, from all games and connections, travel to Redis
together in one write and come back in one read.

This is where the per-move cost of Redis is amortised. A command issued while every
lane is busy waits for the next batch: under load, batches grow and callers wait
longer (back-pressure), but nothing fails for having waited. A command fails only
when Redis does not answer within ``timeout`` or the connection breaks; the caller
then reports a retryable error.

On a Redis Cluster a batch is split by node: each command goes to the master of its
key's hash slot, the node groups travel at once (one round trip per node, in
parallel), and a command answered with a redirection (MOVED: its slot moved, or a
replica was promoted) is sent again to the node named, after the client re-reads the
cluster's slot map. While a slot migrates from one node to another (a resharding), its
keys already moved are answered ASK: the command goes to the node named, after ASKING
in the same write, and the slot map is left as it is (the slot still belongs to the
node it leaves until the migration ends). A redirected command was not run, so sending
it again is safe.

Durable writes: with ``replicas`` above 0, a batch that holds a durable command (every
script the store runs) ends with ``WAIT replicas timeout`` on the same connection, in
the same round trip; the durable commands of the batch are answered only once WAIT
reports that many replicas have every write of the connection so far, and fail as
retryable (:class:`NotReplicated`) when it reports fewer in time.

Commands are packed by hiredis (C) and sent on connections that redis-py opens
(connecting, authentication, TLS, a Sentinel's master discovery); a batch's replies are
then read by :class:`~packplay.server.storage.redis_connection.Link`, one write and one wakeup per
round trip.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import hiredis
import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import AbstractConnection
from redis.exceptions import (
    AskError,
    ClusterDownError,
    MovedError,
    NoScriptError,
    RedisClusterException,
    RedisError,
    ResponseError,
    TryAgainError,
)
from redis.exceptions import TimeoutError as RedisTimeoutError

from packplay.server.storage import keys
from packplay.server.storage.errors import NotReplicated, StorageUnavailable, unavailable
from packplay.server.storage.redis_connection import Link

log = logging.getLogger(__name__)
REDIRECTS = 5
"""Times one command may be redirected to another node before it fails."""
_KEYLESS = {b"PING", b"SCRIPT", b"WAIT", b"INFO", b"TIME"}


@dataclass(frozen=True)
class Script:
    """A Lua script, called by its SHA1 and loaded on first use."""

    source: str
    sha: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "sha", hashlib.sha1(self.source.encode()).hexdigest())


class _Call:
    __slots__ = ("args", "asking", "durable", "future", "packed", "redirects", "slot")

    def __init__(
        self, args: tuple[Any, ...], future: asyncio.Future[Any], slot: int | None, durable: bool
    ) -> None:
        self.args = args
        self.packed = hiredis.pack_command(args)
        self.future = future
        self.slot = slot
        self.durable = durable
        self.redirects = 0
        self.asking: tuple[str, int] | None = None
        """The node an ASK redirection named (host, port): the next send goes there, once."""


def command_slot(args: tuple[Any, ...]) -> int | None:
    """The hash slot of a command's first key (None: a command without keys)."""
    name = args[0].encode().upper() if isinstance(args[0], str) else bytes(args[0]).upper()
    if name in (b"EVALSHA", b"EVAL"):
        return keys.slot(_text(args[3])) if int(args[2]) > 0 else None
    if name in _KEYLESS or len(args) < 2:
        return None
    return keys.slot(_text(args[1]))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class Pipeline:
    """The process's Redis commands, batched per event-loop turn over a few connections.

    Over one Redis (``pool``, plain or Sentinel-managed) or a Redis Cluster (``cluster``).
    """

    def __init__(
        self,
        pool: aioredis.ConnectionPool | None = None,
        lanes: int = 4,
        timeout: float | None = 30.0,
        *,
        cluster: RedisCluster | None = None,
        replicas: int = 0,
        replica_timeout: float = 1.0,
    ) -> None:
        if (pool is None) == (cluster is None):
            raise ValueError("a pipeline runs over a pool or a cluster")
        self._pool = pool
        self._cluster = cluster
        self._lanes = lanes
        self._busy = 0
        self._links: dict[str, list[Link]] = {}
        """Per node, the lanes' connections not in use; kept across batches."""
        self._timeout = timeout
        self._queue: list[_Call] = []
        self._scheduled = False
        wait: tuple[Any, ...] = ("WAIT", replicas, max(1, round(replica_timeout * 1000)))
        self._wait = hiredis.pack_command(wait) if replicas > 0 else None
        self._replicas = replicas
        self._refreshing: asyncio.Task[None] | None = None
        self.round_trips = 0
        """Batches sent so far (each is one round trip, however many commands it holds)."""
        self.commands = 0
        self.redirected = 0
        """Commands sent again to another node after a cluster redirection."""

    @property
    def clustered(self) -> bool:
        return self._cluster is not None

    def call(self, *args: Any, route: str | None = None, durable: bool = False) -> Awaitable[Any]:
        """Send one command with the next batch; its reply (error replies raise).

        ``route``: a key whose node takes a command without keys (on a cluster);
        ``durable``: the reply waits for the replicas (when the pipeline asks for any).
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        slot = None
        if self._cluster is not None:
            slot = keys.slot(route) if route is not None else command_slot(args)
        self._queue.append(_Call(args, future, slot, durable))
        self._schedule()
        return future

    async def run(self, script: Script, keys_: list[str], args: list[Any], durable: bool = True) -> Any:
        """Run a Lua script (EVALSHA, loading it the first time a server lacks it); durable
        unless told otherwise (a script that only reads)."""
        try:
            return await self.call("EVALSHA", script.sha, len(keys_), *keys_, *args, durable=durable)
        except StorageUnavailable as error:
            if not isinstance(error.__cause__, NoScriptError):
                raise
            # On every master: the node that lacked it may be one that an ASK redirection
            # named, not the one the slot map names.
            await self.each_node("SCRIPT", "LOAD", script.source)
            return await self.call("EVALSHA", script.sha, len(keys_), *keys_, *args, durable=durable)

    async def each_node(self, *args: Any) -> list[Any]:
        """One command on every master (a cluster's) or on the one Redis; the replies."""
        if self._cluster is None:
            return [await self.call(*args)]
        routes: dict[str, str] = {}
        for shard in range(keys.SHARDS):
            key = keys.shard_key(shard, "route")  # a key of each shard routes the command to its master
            routes.setdefault(self._node(keys.slot(key)).name, key)
        return list(await asyncio.gather(*(self.call(*args, route=key) for key in routes.values())))

    def _schedule(self) -> None:
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._scheduled = False
        if not self._queue or self._busy >= self._lanes:
            return  # a lane that finishes sends what is queued
        batch, self._queue = self._queue, []
        self._busy += 1
        self._count(batch)
        idle = self._links.get("") if self._cluster is None else None
        if idle and idle[-1].usable:
            self._send_now(batch, idle.pop())
        else:
            asyncio.create_task(self._send(batch))  # to connect first, or to split by node

    def _count(self, batch: list[_Call]) -> None:
        self.round_trips += 1
        self.commands += len(batch)

    def _send_now(self, batch: list[_Call], link: Link) -> None:
        """The common case, without a task: one Redis, an open link. Its replies settle the
        batch from the link's callback; a timer gives up on it."""
        packed, waited = self._packed(batch)
        replies = link.exchange(packed, len(batch) + int(waited))
        timer = None
        if self._timeout is not None:
            timer = asyncio.get_running_loop().call_later(self._timeout, self._expired, link, len(batch))
        replies.add_done_callback(lambda done: self._sent_now(batch, link, done, timer, waited))

    def _packed(self, batch: list[_Call]) -> tuple[bytes, bool]:
        """The batch as one write, and whether it ends with a ``WAIT`` for the replicas."""
        packed = b"".join(c.packed if c.asking is None else _ASKING + c.packed for c in batch)
        if self._wait is not None and any(c.durable for c in batch):
            return packed + self._wait, True
        return packed, False

    def _expired(self, link: Link, size: int) -> None:
        link.close(self._unanswered(size))

    def _unanswered(self, size: int) -> RedisTimeoutError:
        log.warning("Redis did not answer a batch of %d commands in %s s", size, self._timeout)
        return RedisTimeoutError(f"no answer from Redis in {self._timeout} s")

    def _sent_now(
        self,
        batch: list[_Call],
        link: Link,
        done: asyncio.Future[list[Any]],
        timer: asyncio.TimerHandle | None,
        waited: bool,
    ) -> None:
        if timer is not None:
            timer.cancel()
        self._busy -= 1
        error = done.exception()
        if error is None:
            self._links.setdefault("", []).append(link)
            self._settle_all(batch, done.result(), waited, clustered=False)
        else:
            if not isinstance(error, RedisTimeoutError):
                log.warning("Redis pipeline of %d commands failed: %s", len(batch), error)
            _fail(batch, error)
        if self._queue:
            self._schedule()

    async def _send(self, batch: list[_Call]) -> None:
        try:
            if self._cluster is None:
                await self._exchange("", batch)
            else:
                await self._send_by_node(batch)
        except Exception as error:  # never leave a caller waiting for a batch that went wrong
            log.exception("a batch of %d commands failed", len(batch))
            _fail(batch, error)
        finally:
            self._busy -= 1
            if self._queue:
                self._schedule()

    # a cluster

    def _node(self, slot: int | None) -> ClusterNode:
        assert self._cluster is not None
        if slot is None:
            return self._cluster.get_default_node()
        return self._cluster.nodes_manager.get_node_from_slot(slot)

    async def _send_by_node(self, batch: list[_Call]) -> None:
        assert self._cluster is not None
        if not self._cluster.nodes_manager.slots_cache:
            try:
                await self._cluster.initialize()  # the slot map, read once (then on redirections)
            except (RedisError, RedisClusterException, OSError) as error:
                _fail(batch, error)
                return
        groups: dict[str, tuple[ClusterNode, list[_Call]]] = {}
        for call in batch:
            try:
                node = self._node(call.slot) if call.asking is None else self._asked(call.asking)
            except (RedisError, RedisClusterException) as error:  # a slot no node serves (a failover)
                _fail([call], error)
                self._refresh()
                continue
            groups.setdefault(node.name, (node, []))[1].append(call)
        redirected = await asyncio.gather(
            *(self._exchange(name, calls, node) for name, (node, calls) in groups.items())
        )
        again = [call for calls in redirected for call in calls]
        if not again:
            return
        self.redirected += len(again)
        moved = [call for call in again if call.asking is None]
        if moved:
            await self._refresh_now()
            await asyncio.sleep(0.05 * max(c.redirects for c in moved))  # a failover may take a while
        self._queue.extend(again)

    def _asked(self, address: tuple[str, int]) -> ClusterNode:
        """The node an ASK redirection named (a master of the cluster)."""
        assert self._cluster is not None
        node = self._cluster.get_node(host=address[0], port=address[1])
        if node is None:
            raise RedisClusterException(f"ASK named {address[0]}:{address[1]}, no node of the slot map")
        return node

    def _refresh(self) -> None:
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.create_task(self._reinitialize())

    async def _refresh_now(self) -> None:
        self._refresh()
        assert self._refreshing is not None
        await asyncio.shield(self._refreshing)

    async def _reinitialize(self) -> None:
        assert self._cluster is not None
        try:
            await self._cluster.nodes_manager.initialize()
        except (RedisError, RedisClusterException, OSError) as error:
            log.warning("reading the cluster's slot map failed: %s", error)
            await asyncio.sleep(0.2)

    # one node

    def _connect(self, node: ClusterNode | None) -> AbstractConnection:
        if node is None:
            assert self._pool is not None
            return self._pool.make_connection()  # type: ignore[no-untyped-call,no-any-return]
        return node.connection_class(**node.connection_kwargs)

    async def _exchange(self, name: str, batch: list[_Call], node: ClusterNode | None = None) -> list[_Call]:
        """Send one node its part of a batch and settle each call; the calls redirected elsewhere."""
        idle = self._links.setdefault(name, [])
        link = idle.pop() if idle else None
        packed, waited = self._packed(batch)
        try:
            async with asyncio.timeout(self._timeout):
                if link is None or not link.usable:
                    # Through connect(): a Sentinel-managed connection asks where the master is
                    # there (sending on an unconnected one would connect to its default address).
                    link = await Link.open(self._connect(node))
                asked = sum(1 for call in batch if call.asking is not None)
                replies = await link.exchange(packed, len(batch) + asked + int(waited))
                if asked:
                    replies = _without_asking(batch, replies)
        except TimeoutError:
            _fail(batch, self._unanswered(len(batch)))
        except (RedisError, OSError) as error:
            log.warning("Redis pipeline of %d commands failed: %s", len(batch), error)
            _fail(batch, error)
            if node is not None:
                self._refresh()  # a node that fails may have been replaced
        except BaseException as error:  # cancelled: nobody reads the replies still to come
            _fail(batch, error)
            if link is not None:
                link.close()
            raise
        else:
            idle.append(link)
            return self._settle_all(batch, replies, waited, node is not None)
        if link is not None:
            link.close()  # replies still on their way would answer the wrong calls
        return []

    def _settle_all(
        self, batch: list[_Call], replies: list[Any], waited: bool, clustered: bool
    ) -> list[_Call]:
        """Answer each call of a batch from its reply; the calls to send to another node."""
        redirected: list[_Call] = []
        held: list[tuple[_Call, Any]] = []
        """Durable calls' replies, answered once the replicas acknowledge."""
        for call, reply in zip(batch, replies, strict=False):
            call.asking = None
            if isinstance(reply, _REDIRECTIONS):
                if clustered and call.redirects < REDIRECTS:
                    call.redirects += 1
                    call.asking = reply.node_addr if isinstance(reply, AskError) else None
                    redirected.append(call)
                else:
                    _settle(call, error=reply)
            elif isinstance(reply, ResponseError):
                _settle(call, error=reply)
            elif waited and call.durable:
                held.append((call, reply))
            else:
                _settle(call, reply=reply)
        if waited:
            acknowledged = replies[-1]
            if not isinstance(acknowledged, ResponseError) and int(acknowledged) >= self._replicas:
                for call, reply in held:
                    _settle(call, reply=reply)
            else:
                _fail(
                    [c for c, _ in held],
                    NotReplicated(f"{acknowledged} of {self._replicas} replicas acknowledged in time"),
                )
        return redirected

    async def close(self) -> None:
        """Close the lanes' connections (the client's pool closes its own)."""
        links, self._links = self._links, {}
        for idle in links.values():
            for link in idle:
                link.close()


_REDIRECTIONS = (MovedError, AskError, TryAgainError, ClusterDownError)
_ASKING = hiredis.pack_command(("ASKING",))


def _without_asking(batch: list[_Call], replies: list[Any]) -> list[Any]:
    """The replies of a batch's calls, without those of the ASKING sent before some."""
    kept: list[Any] = []
    position = 0
    for call in batch:
        position += call.asking is not None  # that call's ASKING answered OK first
        kept.append(replies[position])
        position += 1
    kept.extend(replies[position:])  # WAIT's
    return kept


def _settle(call: _Call, reply: Any = None, error: BaseException | None = None) -> None:
    if call.future.done():
        return  # the caller gave up (cancelled)
    if error is not None:
        call.future.set_exception(unavailable(error))
    else:
        call.future.set_result(reply)


def _fail(calls: list[_Call], error: BaseException) -> None:
    failed = unavailable(error)
    for call in calls:
        if not call.future.done():
            call.future.set_exception(failed)
