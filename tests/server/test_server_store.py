"""The Redis store against a private real server: CAS, idempotency, seats, log, lobby, watchers."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace

import store_records as records

from packplay.server.play.ids import hash_token
from packplay.server.storage import keys
from packplay.server.storage.games import GameStore
from packplay.table.records import Answer, decode_entry, encode


async def test_join_fills_seats_in_order_then_the_game_is_starting(store: GameStore) -> None:
    await store.create(records.meta(players=2), ttl=60)
    assert (await store.join("g1", hash_token("a"), "p", None, 60))[:3] == ("ok", 0, 1)
    assert (await store.join("g1", hash_token("b"), "p", 0, 60))[:3] == ("taken", -1, 0)
    outcome, seat, taken, meta = await store.join("g1", hash_token("b"), "bo", None, 60)
    assert (outcome, seat, taken) == ("ok", 1, 2) and meta is not None and meta.id == "g1"
    assert (await store.join("g1", hash_token("c"), "p", None, 60))[0] == "started"
    snapshot = await store.load("g1")
    assert snapshot is not None and snapshot.status == "starting" and snapshot.taken == 2
    assert await store.seats("g1") == {0: (hash_token("a"), "p"), 1: (hash_token("b"), "bo")}


async def test_a_game_is_started_once(store: GameStore) -> None:
    await store.create(records.meta(), ttl=60)
    assert not await store.start(records.meta(), b"c", b"s", b"", None, ttl=60), "not full yet"
    for seat in range(2):
        await store.join("g1", hash_token(f"t{seat}"), "p", None, ttl=60)
    assert await store.start(records.meta(), b"c", b"s", b"", 123.0, ttl=60)
    assert not await store.start(records.meta(), b"c", b"s", b"", None, ttl=60)
    snapshot = await store.load("g1")
    assert snapshot is not None and (snapshot.status, snapshot.version, snapshot.state) == ("active", 0, b"s")
    assert await store.entries("g1", -1) == []
    assert await store.dealt("g1") == b"s", "the log starts with the dealt state"
    assert await store.due_clocks(now=124.0) == [("g1", 123.0)]


async def test_a_started_game_is_small_in_redis(store: GameStore) -> None:
    """Small fields in small structures: Redis keeps them in its compact encodings."""
    await records.started(store)
    for key in (keys.game("g1"), keys.seats("g1"), keys.setup("g1"), keys.log("g1")):
        assert await store.redis.object("encoding", key) in (b"listpack", b"ziplist", b"quicklist"), key


async def test_tokens_are_stored_hashed_only(store: GameStore) -> None:
    await records.started(store)
    dump = b"".join(
        [
            key + b"".join(map(bytes, (await store.redis.hgetall(key)).values()))
            for key in await store.redis.keys(f"{keys.PREFIX}:*")
            if await store.redis.type(key) == b"hash"
        ]
    )
    assert b"t0" not in dump and hash_token("t0").encode() in dump


async def test_leave_frees_the_seat_before_start_only(store: GameStore) -> None:
    await store.create(records.meta(players=3), ttl=60)
    await store.join("g1", hash_token("a"), "p", None, 60)
    assert await store.leave("g1", 0, hash_token("wrong")) == "not_seated"
    assert await store.leave("g1", 0, hash_token("a")) == "ok"
    assert await store.seats("g1") == {}
    assert (await store.join("g1", hash_token("b"), "p", None, 60))[:3] == ("ok", 0, 1)


async def test_open_games_are_listed_until_full(store: GameStore) -> None:
    await store.create(records.meta("g1"), ttl=60)
    await store.create(records.meta("g2"), ttl=60)
    await store.join("g2", hash_token("a"), "ann", None, 60)
    ids = await store.game_ids("mishra_factory", open_only=True, limit=10)
    rows = await store.rows(ids)
    assert [(row.meta.id, row.names) for row in rows] == [("g2", {0: "ann"}), ("g1", {})]
    await store.join("g2", hash_token("b"), "bob", None, 60)
    assert await store.game_ids(None, True, 10) == ["g1"]
    assert await store.game_ids("day_night", True, 10) == []
    assert await store.game_ids(None, False, 10) == [], "no game has started"
    assert await store.start(records.meta("g2"), b"cards", b"state0", b"", None, ttl=60)
    assert await store.game_ids(None, False, 10) == ["g2"]


async def test_commit_is_a_compare_and_set_on_the_version(store: GameStore) -> None:
    await records.started(store)
    ok = await store.commit(records.commit(0))
    assert (ok.outcome, ok.version) == ("ok", 1)
    lost = await store.commit(records.commit(0, action_id="other"))
    assert (lost.outcome, lost.version) == ("conflict", 1)
    assert [decode_entry(raw).version for raw in lost.missed] == [1], "what the loser missed"
    snapshot = await store.load("g1")
    assert snapshot is not None and (snapshot.version, snapshot.state) == (1, b"state1")


async def test_concurrent_commits_on_one_version_let_exactly_one_win(store: GameStore) -> None:
    await records.started(store)
    results = await asyncio.gather(*(store.commit(records.commit(0, action_id=f"a{i}")) for i in range(20)))
    assert [result.outcome for result in results].count("ok") == 1
    assert len(await store.entries("g1", -1)) == 1


async def test_every_accepted_action_id_gets_its_stored_answer(store: GameStore) -> None:
    await records.started(store)
    first = await store.commit(records.commit(0, action_id="a1"))
    await store.commit(records.commit(1, action_id="a2"))
    again = await store.commit(records.commit(2, action_id="a1"))
    assert first.outcome == "ok"
    assert (again.outcome, again.previous) == ("duplicate", Answer(accepted=True, version=1, digest="d"))
    assert (await store.load("g1")).version == 2  # type: ignore[union-attr]


async def test_a_stored_refusal_blocks_its_action_id(store: GameStore) -> None:
    await records.started(store)
    refusal = Answer(accepted=False, version=0, reason="illegal_action", rule="MF-2", digest="d")
    assert await store.remember("g1", 0, "0:bad", refusal) == refusal
    assert await store.remember("g1", 0, "0:bad", Answer(accepted=False, version=9)) == refusal
    later = await store.commit(records.commit(0, action_id="bad"))
    assert (later.outcome, later.previous) == ("duplicate", refusal)
    assert 0 < await store.redis.ttl(keys.answers("g1")) <= 60, "refusals expire with their game"


async def test_the_card_table_and_the_dealt_state_are_stored_packed_and_read_back_whole(
    store: GameStore,
) -> None:
    cards = encode([[f"c{n:010x}", "MID", str(n), False, True] for n in range(32)])
    dealt = encode({"hands": [[f"c{n:010x}" for n in range(16)], [f"c{n:010x}" for n in range(16, 32)]]})
    await records.started(store, cards, dealt)
    stored_cards = await store.redis.lindex(keys.setup("g1"), 1)
    stored_dealt = await store.redis.lindex(keys.log("g1"), 0)
    assert len(stored_cards) < len(cards) / 2 and len(stored_dealt) < len(dealt) / 2
    snapshot = await store.load("g1")
    assert snapshot is not None and snapshot.cards == cards and snapshot.state == dealt
    assert await store.dealt("g1") == dealt
    # A game stored before they were packed is read as it was stored.
    await store.redis.lset(keys.setup("g1"), 1, cards)
    await store.redis.lset(keys.log("g1"), 0, dealt)
    assert (await store.load("g1")).cards == cards  # type: ignore[union-attr]
    assert await store.dealt("g1") == dealt


async def test_entries_read_the_log_from_a_version(store: GameStore) -> None:
    await records.started(store)
    for version in range(0, 5):
        await store.commit(records.commit(version))
    assert [entry.version for entry, _ in await store.entries("g1", 3)] == [4, 5]
    assert await store.entries("g1", 5) == []
    assert [entry.version for entry, _ in await store.entries("g1", -1, 2)] == [1, 2]
    entry, raw = (await store.entries("g1", 4))[0]
    assert entry == decode_entry(raw) and entry.action_id == "x4"


async def test_a_commit_sends_its_entry_to_the_other_watching_processes_only(store: GameStore) -> None:
    await records.started(store)
    other, third = (
        GameStore(store.redis, store.pipeline, "other"),
        GameStore(store.redis, store.pipeline, "third"),
    )
    pubsub = store.redis.pubsub()
    shard = keys.shard_of("g1")
    channels = [keys.channel(shard, name) for name in ("other", "third", store.process_id)]
    await pubsub.subscribe(*channels)
    for _ in channels:
        await pubsub.get_message(timeout=1)
    for watcher in (store, other, store, third, other):  # watching again adds nothing
        await watcher.load("g1", watch=True)
    watching = f"{store.process_id} other third"
    assert await store.redis.hget(keys.game("g1"), "watchers") == watching.encode()
    await store.commit(replace(records.commit(0), game_id="g1"))
    received = [await pubsub.get_message(ignore_subscribe_messages=True, timeout=2) for _ in range(2)]
    assert sorted(message["channel"] for message in received if message) == [c.encode() for c in channels[:2]]
    for message in received:
        game_id, _, raw = bytes(message["data"]).partition(b" ")
        assert game_id == b"g1" and decode_entry(raw).version == 1
    assert await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.3) is None, "not to itself"
    await other.unwatch("g1")
    await other.unwatch("g1")  # a second time changes nothing
    assert await store.redis.hget(keys.game("g1"), "watchers") == f"{store.process_id} third".encode()
    await store.commit(records.commit(1))
    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=2)
    assert message is not None and message["channel"] == channels[1].encode()
    assert await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.3) is None, "nor to 'other'"
    for watcher in (store, third):
        await watcher.unwatch("g1")
    assert await store.redis.hget(keys.game("g1"), "watchers") is None
    await third.unwatch("gone")
    assert not await store.redis.exists(keys.game("gone")), "unwatching a game that is gone writes nothing"
    await pubsub.aclose()


async def test_finished_game_keys_expire_with_the_commit_ttl(store: GameStore) -> None:
    await records.started(store)
    await store.load("g1", watch=True)
    await store.remember("g1", 0, "0:r", Answer(accepted=False, version=0, digest="d"))
    await store.commit(replace(records.commit(0, status="finished"), ttl=30))
    for key in keys.game_keys("g1"):
        assert 0 < await store.redis.ttl(key) <= 30, key


async def test_a_commit_gives_the_keys_their_time_again_only_when_half_of_it_is_gone(
    store: GameStore,
) -> None:
    """A started game's keys all have a time to live (its answers hash included); a move sets
    none while more than half of it is left, and sets every key's once less is."""
    await records.started(store)
    await store.load("g1", watch=True)
    game_keys = keys.game_keys("g1")
    for key in game_keys:
        assert 0 < await store.redis.ttl(key) <= 60, key
    for key in game_keys:
        await store.redis.expire(key, 40)  # 20 of its 60 seconds gone
    await store.commit(replace(records.commit(0), ttl=60))
    untouched = [await store.redis.ttl(key) for key in game_keys]
    assert untouched == [40] * len(game_keys), "more than half left: untouched"
    for key in game_keys:
        await store.redis.expire(key, 25)
    await store.redis.hset(keys.game("g1"), "expires", int(time.time()) + 25)
    await store.commit(replace(records.commit(1), ttl=60))
    for key in game_keys:
        assert 55 < await store.redis.ttl(key) <= 60, key
    await store.redis.hdel(keys.game("g1"), "expires")  # a game stored before lifetimes were kept
    for key in game_keys:
        await store.redis.persist(key)
    await store.commit(replace(records.commit(2), ttl=60))
    for key in game_keys:
        assert 55 < await store.redis.ttl(key) <= 60, key


async def test_clock_deadline_is_indexed_and_cleared(store: GameStore) -> None:
    await records.started(store)
    await store.commit(replace(records.commit(0), deadline=100.0))
    assert await store.due_clocks(now=101.0) == [("g1", 100.0)]
    assert await store.due_clocks(now=99.0) == []
    await store.commit(records.commit(1))
    assert await store.due_clocks(now=101.0) == []


async def test_the_commands_of_one_loop_turn_travel_in_one_round_trip(store: GameStore) -> None:
    await records.started(store)
    before = store.pipeline.round_trips
    replies = await asyncio.gather(
        *(store.pipeline.call("HGET", keys.game("g1"), "version") for _ in range(50))
    )
    assert replies == [b"0"] * 50
    assert store.pipeline.round_trips - before == 1
