"""The pipeline's connections, against a private real Redis: replies matched to their calls,
error replies in their place, and a connection that breaks or stalls given up cleanly."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis
from redis.exceptions import NoScriptError, RedisError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

from packplay.server.storage.errors import StorageUnavailable
from packplay.server.storage.pipeline import Pipeline, Script
from packplay.server.storage.urls import connect


@pytest.fixture
async def client_and_pipeline(redis_url: str) -> AsyncIterator[tuple[aioredis.Redis, Pipeline]]:
    client, pipeline = connect(redis_url, timeout=5.0)
    assert isinstance(client, aioredis.Redis)
    yield client, pipeline
    await pipeline.close()
    await client.aclose()


async def test_each_call_of_a_batch_gets_its_own_reply_and_an_error_reply_fails_only_its_call(
    client_and_pipeline: tuple[aioredis.Redis, Pipeline],
) -> None:
    client, pipeline = client_and_pipeline
    await client.hset("a hash", "field", "value")
    calls = [
        pipeline.call("SET", "k1", "one"),
        pipeline.call("GET", "a hash"),  # WRONGTYPE
        pipeline.call("GET", "k1"),
        pipeline.call("HGET", "a hash", "field"),
    ]
    replies = await asyncio.gather(*calls, return_exceptions=True)
    assert replies[0] == b"OK"
    assert isinstance(replies[1], StorageUnavailable) and isinstance(replies[1].__cause__, ResponseError)
    assert "WRONGTYPE" in str(replies[1])
    assert replies[2:] == [b"one", b"value"]
    assert pipeline.round_trips == 1


async def test_a_script_is_loaded_on_first_use_then_run_by_its_digest(
    client_and_pipeline: tuple[aioredis.Redis, Pipeline],
) -> None:
    client, pipeline = client_and_pipeline
    script = Script("return {KEYS[1], ARGV[1]}")
    await client.script_flush()
    assert await pipeline.run(script, ["key"], ["arg"]) == [b"key", b"arg"]
    assert await client.script_exists(script.sha) == [True]
    with pytest.raises(StorageUnavailable) as missing:
        await pipeline.call("EVALSHA", "0" * 40, 0)
    assert isinstance(missing.value.__cause__, NoScriptError)


async def test_a_connection_killed_by_the_server_fails_its_batch_and_the_next_call_reconnects(
    client_and_pipeline: tuple[aioredis.Redis, Pipeline],
) -> None:
    client, pipeline = client_and_pipeline
    waiting = asyncio.ensure_future(pipeline.call("BLPOP", "never", 4))
    await asyncio.sleep(0.2)  # the BLPOP is on its way
    assert await client.execute_command("CLIENT", "KILL", "SKIPME", "yes", "TYPE", "normal") >= 1
    with pytest.raises(StorageUnavailable) as killed:
        await waiting
    assert isinstance(killed.value.__cause__, RedisError)
    assert await pipeline.call("PING") == b"PONG"


async def test_a_batch_not_answered_in_time_fails_as_a_timeout_and_its_late_reply_answers_nobody(
    redis_url: str,
) -> None:
    client, pipeline = connect(redis_url, timeout=0.5)
    assert isinstance(client, aioredis.Redis)
    try:
        await client.rpush("late", "first")
        with pytest.raises(StorageUnavailable) as late:
            await pipeline.call("BLPOP", "nothing here", 2)  # answered (nil) after the deadline
        assert isinstance(late.value.__cause__, RedisTimeoutError)
        # A fresh connection: the nil still due on the old one must not answer this call.
        assert await pipeline.call("LPOP", "late") == b"first"
        await asyncio.sleep(2)
        assert await pipeline.call("PING") == b"PONG"
    finally:
        await pipeline.close()
        await client.aclose()
