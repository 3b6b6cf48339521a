"""A slot that migrates from one master to another mid-game, as a resharding moves it
(``redis-cli --cluster reshard`` does it slot by slot): the slot is marked migrating on
the node it leaves and importing on the node it goes to, its keys are moved, then both
nodes are told its new owner. Meanwhile the node it leaves answers ASK for every key it
no longer holds, and the pipeline follows: ASKING, then the command, on the node named.
A command on several keys, some missing (every script of a game), waits for the end of
the migration."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import store_records as records
from redis.exceptions import TryAgainError
from redis_topologies import HOST, LocalCluster

from packplay.server.storage import keys
from packplay.server.storage.errors import StorageUnavailable
from packplay.server.storage.games import GameStore


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster() as started:
        yield started


async def test_a_game_whose_slot_migrates_is_played_on_through_ask_redirections(
    cluster: LocalCluster,
) -> None:
    store = GameStore.from_url(cluster.url, process_id="p")
    try:
        await records.started(store)  # game g1, at version 0
        slot = keys.slot(keys.game("g1"))
        source = cluster.master_of(keys.game("g1"))
        target = next(node for node in cluster.master_nodes() if node.port != source.port)
        with source.client() as leaving, target.client() as taking:
            leaving_id = leaving.execute_command("CLUSTER", "MYID")
            taking_id = taking.execute_command("CLUSTER", "MYID")
            taking.execute_command("CLUSTER", "SETSLOT", slot, "IMPORTING", leaving_id)
            leaving.execute_command("CLUSTER", "SETSLOT", slot, "MIGRATING", taking_id)
            moved = leaving.execute_command("CLUSTER", "GETKEYSINSLOT", slot, 1000)
            assert keys.game("g1").encode() in moved
            leaving.execute_command("MIGRATE", HOST, target.port, "", 0, 5000, "KEYS", *moved)

            # A single key is read where it went (ASK, then ASKING and the command there).
            redirected = store.pipeline.redirected
            assert await store.versions(["g1"]) == [0]
            assert await store.dealt("g1") == b"state0"
            assert store.pipeline.redirected > redirected, "the node it leaves answered ASK"
            # A script's keys are many, and some do not exist (a seat's limit, say): Redis
            # Cluster runs it on neither node until the slot is moved (TRYAGAIN). Sent again
            # a few times, it fails as any storage failure does (the client retries).
            with pytest.raises(StorageUnavailable) as moving:
                await store.commit(records.commit(0, "a1"))
            assert isinstance(moving.value.__cause__, TryAgainError)

            for node in (taking, leaving):
                node.execute_command("CLUSTER", "SETSLOT", slot, "NODE", taking_id)
        # The slot map the store holds still names the node it left: MOVED, then the new owner.
        committed = await store.commit(records.commit(0, "a1"))
        assert committed.outcome == "ok" and committed.version == 1, committed
        assert cluster.master_of(keys.game("g1")).port == target.port
        loaded = await store.load("g1")
        assert loaded is not None and loaded.version == 1
        assert [entry.action_id for entry, _ in await store.entries("g1", 0)] == ["a1"]
    finally:
        await store.close()


def _game_in_slot(slot: int) -> str:
    """A game id whose keys hash to ``slot`` (those of its shard)."""
    return next(f"g{n}" for n in range(2, 100_000) if keys.slot(keys.game(f"g{n}")) == slot)
