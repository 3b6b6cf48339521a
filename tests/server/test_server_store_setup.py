"""A game set up with every seat taken, and the watchers of a game, against a private real Redis."""

from __future__ import annotations

import store_records as records

from packplay.server.play.ids import hash_token
from packplay.server.storage import keys
from packplay.server.storage.games import GameStore


async def _seated(store: GameStore, ttl: int = 600, deadline: float | None = None) -> None:
    seats = [(hash_token("a"), "ann"), (hash_token("b"), "bob"), (hash_token("c"), "cy")]
    await store.create_seated(records.meta(players=3), seats, b"cards", b"state", b"d", deadline, ttl)


async def test_a_seated_game_has_every_seat_and_starts_at_version_zero(store: GameStore) -> None:
    await _seated(store, deadline=123.0)
    assert await store.seats("g1") == {
        0: (hash_token("a"), "ann"),
        1: (hash_token("b"), "bob"),
        2: (hash_token("c"), "cy"),
    }
    snapshot = await store.load("g1")
    assert snapshot is not None
    assert (snapshot.status, snapshot.version, snapshot.state, snapshot.state_version) == (
        "active",
        0,
        b"state",
        0,
    )
    assert (snapshot.taken, snapshot.deadline, snapshot.cards) == (3, 123.0, b"cards")
    assert await store.dealt("g1") == b"state"
    assert await store.due_clocks(now=124.0) == [("g1", 123.0)]
    assert "g1" in await store.game_ids(None, open_only=False, limit=10)


async def test_every_key_of_a_seated_game_expires_at_the_time_its_hash_names(store: GameStore) -> None:
    before = int((await store.redis.time())[0])
    await _seated(store, ttl=600)
    for key in keys.game_keys("g1"):
        assert 590 <= await store.redis.ttl(key) <= 600, key
    expires = int(await store.redis.hget(keys.game("g1"), "expires"))
    assert before + 600 <= expires <= before + 602
    started = keys.games(keys.shard_of("g1"))
    assert await store.redis.ttl(started) >= 600


async def test_watching_adds_this_process_once_beside_the_others(store: GameStore) -> None:
    await _seated(store)
    other = GameStore(store.redis, store.pipeline, "other")
    assert await other.watch("g1") == 0
    assert await store.watch("g1") == 0
    assert await store.watch("g1") == 0
    assert await store.redis.hget(keys.game("g1"), "watchers") == f"other {store.process_id}".encode()
    await other.unwatch("g1")
    assert await store.redis.hget(keys.game("g1"), "watchers") == store.process_id.encode()
    assert await store.watch("gone") is None


async def test_a_watching_load_joins_the_watchers_and_creates_no_missing_game(store: GameStore) -> None:
    await _seated(store)
    other = GameStore(store.redis, store.pipeline, "other")
    await other.watch("g1")
    snapshot = await store.load("g1", watch=True)
    assert snapshot is not None and snapshot.version == 0
    assert await store.redis.hget(keys.game("g1"), "watchers") == f"other {store.process_id}".encode()
    assert await store.load("gone", watch=True) is None
    assert not await store.redis.exists(keys.game("gone"))
