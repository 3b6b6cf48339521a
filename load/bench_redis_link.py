"""What a Redis round trip costs the server's process in CPU: the pipeline against redis-py's own client.

    python load/bench_redis_link.py [--calls 5000]

Against a private Redis on loopback, on uvloop as the server runs: one call at a
time (every call its own round trip), then ten at a time (one round trip carries ten
commands). Printed: microseconds of this process's CPU per round trip, or per command,
the Redis server's own time left out. Compare the lines of one run with each other:
absolute figures drift between machines and days.
"""

from __future__ import annotations

import argparse
import asyncio
import time
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
import uvloop

from packplay.server.storage.embedded import EmbeddedRedis
from packplay.server.storage.urls import connect


async def _cpu_per(count: int, step: Callable[[], Awaitable[object]]) -> float:
    for _ in range(200):
        await step()
    started = time.process_time()
    for _ in range(count):
        await step()
    return (time.process_time() - started) / count * 1e6


async def measure(url: str, calls: int) -> None:
    client, pipeline = connect(url)
    assert isinstance(client, aioredis.Redis)
    await client.set("key", "value")
    try:
        own = await _cpu_per(calls, lambda: client.get("key"))
        ours = await _cpu_per(calls, lambda: pipeline.call("GET", "key"))
        batched = await _cpu_per(
            calls // 10, lambda: asyncio.gather(*(pipeline.call("GET", "key") for _ in range(10)))
        )
    finally:
        await pipeline.close()
        await client.aclose()
    print(f"redis-py client, one call at a time: {own:6.1f} us of CPU per round trip")
    print(f"pipeline, one call at a time:        {ours:6.1f} us of CPU per round trip")
    print(f"pipeline, ten calls per round trip:  {batched / 10:6.1f} us of CPU per command")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--calls", type=int, default=5000, help="round trips measured per line")
    options = parser.parse_args()
    with EmbeddedRedis() as redis_server:
        uvloop.run(measure(redis_server.url, options.calls))
