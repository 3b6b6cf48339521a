"""Which Redis a process talks to, from its URL: one server, a cluster, or a Sentinel-managed master.

- ``redis://[user:password@]host:port[/db]`` (``rediss://`` for TLS, ``unix://path``): one
  Redis, or anything that looks like one (a proxy, a managed service's endpoint).
- ``redis+cluster://[user:password@]host:port[,host:port...]`` (``rediss+cluster://``): a Redis
  Cluster; the nodes listed are where the client first reads the slot map, any subset of
  the cluster's nodes will do. Each command goes to the master of its key's slot.
- ``redis+sentinel://[user:password@]host:port[,host:port...]/<master name>[/db]``
  (``rediss+sentinel://``): the master that the Sentinels listed name; every new connection
  asks them where it is, so a failover is followed once the old connections break. The
  credentials are the master's; the Sentinels are asked without any.

In every case the process's commands travel in one :class:`~packplay.server.storage.pipeline.Pipeline`.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import SplitResult, unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

from packplay.server.storage.pipeline import Pipeline

CLUSTER_SCHEMES = ("redis+cluster", "rediss+cluster")
SENTINEL_SCHEMES = ("redis+sentinel", "rediss+sentinel")


class RedisUrlError(ValueError):
    """The URL names no Redis this server can use."""


def topology(url: str) -> str:
    """``single``, ``cluster`` or ``sentinel``, from the URL's scheme."""
    scheme = urlsplit(url).scheme
    if scheme in CLUSTER_SCHEMES:
        return "cluster"
    if scheme in SENTINEL_SCHEMES:
        return "sentinel"
    return "single"


def connect(
    url: str,
    *,
    connections: int = 16,
    lanes: int = 4,
    timeout: float | None = 30.0,
    replicas: int = 0,
    replica_timeout: float = 1.0,
) -> tuple[aioredis.Redis | RedisCluster, Pipeline]:
    """A client (for pub/sub and direct use) and the pipeline of batched commands, for ``url``.

    Raises:
        RedisUrlError: a cluster or Sentinel URL without hosts, or a Sentinel URL without a
            master name.
    """
    parsed = urlsplit(url)
    # RESP2: replies of plain commands then have the same shape as those of scripts
    # (flat arrays), whatever protocol the client library prefers by default.
    common: dict[str, Any] = {
        "protocol": 2,
        "socket_connect_timeout": timeout,  # an unreachable Redis fails as fast as a slow one
        "health_check_interval": 30,
    }

    def batches(pool: aioredis.ConnectionPool | None = None, cluster: RedisCluster | None = None) -> Pipeline:
        return Pipeline(
            pool,
            lanes=lanes,
            timeout=timeout,
            cluster=cluster,
            replicas=replicas,
            replica_timeout=replica_timeout,
        )

    if parsed.scheme in CLUSTER_SCHEMES:
        cluster = RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in _hosts(parsed)],
            max_connections=connections,
            ssl=parsed.scheme.startswith("rediss"),
            **_credentials(parsed),
            **common,
        )
        return cluster, batches(cluster=cluster)
    if parsed.scheme in SENTINEL_SCHEMES:
        parts = [unquote(part) for part in parsed.path.split("/") if part]
        if not parts:
            raise RedisUrlError(f"a Sentinel URL names its master: {parsed.scheme}://host:port/<master name>")
        sentinel = Sentinel(  # type: ignore[no-untyped-call, unused-ignore]  # typed from redis 8.2 on
            _hosts(parsed),
            sentinel_kwargs={"socket_connect_timeout": timeout, "protocol": 2},
            ssl=parsed.scheme.startswith("rediss"),
            db=int(parts[1]) if len(parts) > 1 else 0,
            **_credentials(parsed),
            **common,
        )
        managed = SentinelConnectionPool(  # type: ignore[no-untyped-call]
            parts[0], sentinel, max_connections=connections, **sentinel.connection_kwargs
        )
        return aioredis.Redis.from_pool(managed), batches(managed)
    plain = aioredis.BlockingConnectionPool.from_url(url, max_connections=connections, timeout=None, **common)
    return aioredis.Redis.from_pool(plain), batches(plain)


def _hosts(parsed: SplitResult) -> list[tuple[str, int]]:
    where = parsed.netloc.rpartition("@")[2]
    hosts = []
    for part in where.split(","):
        host, _, port = part.strip().rpartition(":")
        if not host:
            host, port = port, "6379"
        hosts.append((host.strip("[]"), int(port) if port else 6379))
    if not where or not hosts:
        raise RedisUrlError(f"no host in {parsed.scheme}:// URL")
    return hosts


def _credentials(parsed: SplitResult) -> dict[str, Any]:
    found: dict[str, Any] = {}
    if parsed.username:
        found["username"] = unquote(parsed.username)
    if parsed.password:
        found["password"] = unquote(parsed.password)
    return found
