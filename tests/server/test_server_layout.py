"""The Redis layout for a cluster (each script's keys in one hash slot), the URLs of each
topology, and the replicas' acknowledgement of writes."""

from __future__ import annotations

import asyncio
import base64
import random
import signal
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import store_records as records
from redis_topologies import HOST, start_node

from packplay.games.base import GameConfig
from packplay.server.storage import keys
from packplay.server.storage.errors import NotReplicated
from packplay.server.storage.games import GameStore
from packplay.server.storage.pipeline import command_slot
from packplay.server.storage.urls import RedisUrlError, connect, topology
from packplay.table.records import GameMeta, decode_entry

# Ids drawn as the server draws them, from a fixed seed (the same on every test worker).
_ids = random.Random(7)
IDS = ["g1", "t1", *(base64.urlsafe_b64encode(_ids.randbytes(9)).decode() for _ in range(200))]


@pytest.mark.parametrize("entity_id", IDS)
def test_every_key_a_script_takes_is_in_the_slot_of_its_game_or_tournament(entity_id: str) -> None:
    shard = keys.shard_of(entity_id)
    game_script = [
        *keys.game_keys(entity_id),
        keys.lobby(shard),
        keys.lobby(shard, "day_night"),
        keys.clocks(shard),
        keys.games(shard),
        keys.channel(shard, "some-process"),
    ]
    tournament_script = [
        *keys.tournament_keys(entity_id),
        keys.running_tournaments(shard),
        keys.tournaments(shard),
    ]
    assert len({keys.slot(key) for key in game_script}) == 1
    assert len({keys.slot(key) for key in tournament_script}) == 1
    assert keys.slot(keys.game(entity_id)) == keys.slot(keys.tournament(entity_id))


def test_the_shards_are_spread_evenly_over_the_slots() -> None:
    width = keys.CLUSTER_SLOTS // keys.SHARDS
    slots = [keys.slot(keys.shard_key(shard, "x")) for shard in range(keys.SHARDS)]
    assert [slot // width for slot in slots] == list(range(keys.SHARDS))
    # Three masters with equal slot ranges (as redis-cli creates them) hold 21 or 22 shards each.
    per_master = Counter(min(slot * 3 // keys.CLUSTER_SLOTS, 2) for slot in slots)
    assert sorted(per_master.values()) == [21, 21, 22]


def test_the_slot_is_redis_clusters_crc16_of_the_hash_tag() -> None:
    # Values given by CLUSTER KEYSLOT on a Redis server.
    assert keys.slot("foo") == 12182
    assert keys.slot("{user1000}.following") == keys.slot("{user1000}.followers") == 3443
    assert keys.slot("foo{}{bar}") == keys.slot("foo{}{bar}")  # an empty tag: the whole key
    assert command_slot(("EVALSHA", "sha", 2, keys.game("g1"), "other")) == keys.slot(keys.game("g1"))
    assert command_slot(("HGET", keys.seats("g1"), "0")) == keys.slot(keys.game("g1"))
    assert command_slot(("PING",)) is None and command_slot(("EVALSHA", "sha", 0)) is None


def test_the_url_says_which_topology() -> None:
    assert topology("redis://127.0.0.1:6379/0") == "single"
    assert topology("redis+cluster://a:1,b:2") == "cluster"
    assert topology("rediss+sentinel://a:1/main") == "sentinel"
    with pytest.raises(RedisUrlError, match="master"):
        connect("redis+sentinel://127.0.0.1:26379")
    with pytest.raises(RedisUrlError, match="no host"):
        connect("redis+cluster://")


async def test_a_write_no_replica_acknowledges_fails_as_retryable_and_is_answered_when_sent_again(
    redis_url: str,
) -> None:
    durable = GameStore.from_url(redis_url, process_id="this", replicas=1, replica_timeout=0.05)
    plain = GameStore.from_url(redis_url, process_id="other")
    try:
        await durable.prepare()
        meta = GameMeta(id="g1", config=GameConfig(game="day_night", players=2), seed=1, created=0.0)
        with pytest.raises(NotReplicated, match="0 of 1 replicas"):
            await durable.create(meta, 60)
        assert await plain.game_ids(None, True, 10) == ["g1"], "the master applied it all the same"
        assert (await plain.pipeline.call("HGET", keys.game("g1"), "status")) == b"lobby"
        assert await durable.dealt("g1") is None, "reads do not wait for replicas"
    finally:
        await durable.close()
        await plain.close()


async def test_a_durable_commit_reaches_the_other_processes_only_once_a_replica_holds_it(
    tmp_path: Path,
) -> None:
    master = start_node(tmp_path / "master")
    replica = start_node(tmp_path / "replica", "--replicaof", HOST, str(master.port))
    durable = GameStore.from_url(
        f"redis://{HOST}:{master.port}", process_id="this", replicas=1, replica_timeout=0.5
    )
    other = GameStore.from_url(f"redis://{HOST}:{master.port}", process_id="other")
    listener = other.redis.pubsub()
    try:
        await asyncio.to_thread(
            master.wait_replica_in_sync
        )  # (not prepared: entries go by PUBLISH, as the listener expects)
        await records.started(durable)
        await other.load("g1", watch=True)
        await listener.subscribe(keys.channel(keys.shard_of("g1"), "other"))
        assert (await listener.get_message(timeout=1))["type"] == "subscribe"  # type: ignore[index]

        replica.process.send_signal(signal.SIGSTOP)  # it holds nothing more until it goes on
        try:
            with pytest.raises(NotReplicated):
                await durable.commit(records.commit(0, "a1"))
            assert await listener.get_message(ignore_subscribe_messages=True, timeout=0.5) is None, (
                "a version a failover may still lose reaches no other process"
            )
        finally:
            replica.process.send_signal(signal.SIGCONT)

        again = await durable.commit(records.commit(0, "a1"))  # the client, told unavailable, sends it again
        assert again.outcome == "duplicate" and again.previous is not None and again.previous.accepted
        assert _version_of(await listener.get_message(ignore_subscribe_messages=True, timeout=2)) == 1
        assert (await durable.commit(records.commit(1, "a2"))).outcome == "ok"
        assert _version_of(await listener.get_message(ignore_subscribe_messages=True, timeout=2)) == 2
    finally:
        await listener.aclose()
        await durable.close()
        await other.close()
        replica.stop()
        master.stop()


async def test_a_version_no_replica_holds_is_read_by_no_durable_process(tmp_path: Path) -> None:
    master = start_node(tmp_path / "master")
    replica = start_node(tmp_path / "replica", "--replicaof", HOST, str(master.port))
    url = f"redis://{HOST}:{master.port}"
    this = GameStore.from_url(url, process_id="this", replicas=1, replica_timeout=0.5)
    other = GameStore.from_url(url, process_id="other", replicas=1, replica_timeout=0.5)
    try:
        await asyncio.to_thread(master.wait_replica_in_sync)
        await records.started(this)
        replica.process.send_signal(signal.SIGSTOP)
        try:
            with pytest.raises(NotReplicated):
                await this.commit(records.commit(0, "a1"))  # version 1, on the master alone
            # Each read would show version 1, which a failover now would undo.
            with pytest.raises(NotReplicated):
                await other.load("g1")
            with pytest.raises(NotReplicated):
                await other.entries("g1", 0)
            with pytest.raises(NotReplicated):
                await other.commit(records.commit(0, "b1"))  # a conflict that would bring version 1 along
        finally:
            replica.process.send_signal(signal.SIGCONT)
        loaded = await other.load("g1")
        assert loaded is not None and loaded.version == 1
        assert [entry.action_id for entry, _ in await other.entries("g1", 0)] == ["a1"]
        conflict = await other.commit(records.commit(0, "b1"))
        assert conflict.outcome == "conflict" and conflict.version == 1 and len(conflict.missed) == 1
    finally:
        await this.close()
        await other.close()
        replica.stop()
        master.stop()


def _version_of(message: dict[str, Any] | None) -> int:
    assert message is not None, "the entry was published"
    game_id, _, raw = bytes(message["data"]).partition(b" ")
    assert game_id == b"g1"
    return decode_entry(raw).version
