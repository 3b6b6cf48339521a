"""The Redis store against a private real server: CAS, idempotency, seats, log, lobby."""

from __future__ import annotations

import asyncio
import time

from packplay.games.base import GameConfig
from packplay.server import keys
from packplay.server.store import (
    Answer,
    Commit,
    GameMeta,
    LogEntry,
    Store,
    StoredEvent,
    hash_token,
    update_decoder,
)


def _meta(game_id: str = "g1", players: int = 2) -> GameMeta:
    config = GameConfig(game="mishra_factory", players=players)
    return GameMeta(id=game_id, config=config, seed=7, created=time.time())


def _commit(expected: int, field: str = "", status: str = "active") -> Commit:
    entry = LogEntry(version=expected + 1, at=0.0, seat=0, events=(StoredEvent({"type": "x"}, (0,)),))
    answer = Answer(accepted=True, version=expected + 1) if field else None
    return Commit(
        game_id="g1",
        expected=expected,
        status=status,  # type: ignore[arg-type]
        state=f"state{expected + 1}".encode(),
        legal=b"",
        entry=entry,
        ttl=60,
        answer_field=field,
        answer=answer,
    )


async def _full_game(store: Store) -> None:
    await store.create(_meta(), ttl=60)
    for seat in range(2):
        await store.join("g1", hash_token(f"t{seat}"), "p", None, ttl=60)


async def test_join_fills_seats_in_order_then_starts(store: Store) -> None:
    await store.create(_meta(players=2), ttl=60)
    assert await store.join("g1", hash_token("a"), "p", None, 60) == ("ok", 0, 1)
    assert await store.join("g1", hash_token("b"), "p", 0, 60) == ("taken", -1, 0)
    assert await store.join("g1", hash_token("b"), "p", None, 60) == ("ok", 1, 2)
    assert (await store.join("g1", hash_token("c"), "p", None, 60))[0] == "started"
    snapshot, _ = await store.load("g1")
    assert snapshot is not None and snapshot.status == "starting" and snapshot.taken == 2
    assert await store.seat_of(hash_token("b")) == ("g1", 1)


async def test_tokens_are_stored_hashed_only(store: Store) -> None:
    await _full_game(store)
    dump = b"".join(
        [
            key + b"".join(map(bytes, (await store.redis.hgetall(key)).values()))
            for key in await store.redis.keys(f"{keys.PREFIX}:game:*seats")
        ]
    )
    assert b"t0" not in dump and hash_token("t0").encode() in dump
    assert await store.redis.exists(keys.token(hash_token("t0")))
    assert not await store.redis.exists(keys.token("t0"))


async def test_leave_frees_the_seat_before_start_only(store: Store) -> None:
    await store.create(_meta(players=3), ttl=60)
    await store.join("g1", hash_token("a"), "p", None, 60)
    assert await store.leave("g1", 0, hash_token("wrong")) == "not_seated"
    assert await store.leave("g1", 0, hash_token("a")) == "ok"
    assert await store.seat_of(hash_token("a")) is None
    assert await store.join("g1", hash_token("b"), "p", None, 60) == ("ok", 0, 1)


async def test_open_games_are_listed_until_full(store: Store) -> None:
    await store.create(_meta("g1"), ttl=60)
    await store.create(_meta("g2"), ttl=60)
    await store.join("g2", hash_token("a"), "ann", None, 60)
    ids = await store.game_ids("mishra_factory", open_only=True, limit=10, max_age=60)
    rows = await store.rows(ids)
    assert [(row.meta.id, row.names) for row in rows] == [("g2", {0: "ann"}), ("g1", {})]
    await store.join("g2", hash_token("b"), "bob", None, 60)
    assert await store.game_ids(None, True, 10, 60) == ["g1"]
    assert await store.game_ids("day_night", True, 10, 60) == []
    assert sorted(await store.game_ids(None, False, 10, 60)) == ["g1", "g2"]


async def test_commit_is_a_compare_and_set_on_the_version(store: Store) -> None:
    await _full_game(store)
    assert await store.commit(_commit(-1)) == ("ok", None, 0)
    outcome, _, found = await store.commit(_commit(-1))
    assert (outcome, found) == ("conflict", 0)
    snapshot, _ = await store.load("g1")
    assert snapshot is not None and (snapshot.version, snapshot.state) == (0, b"state0")
    assert [entry.version for entry in await store.entries_since("g1", -1)] == [0]


async def test_concurrent_commits_on_one_version_let_exactly_one_win(store: Store) -> None:
    await _full_game(store)
    await store.commit(_commit(-1))
    results = await asyncio.gather(*(store.commit(_commit(0)) for _ in range(20)))
    assert sorted(outcome for outcome, _, _ in results).count("ok") == 1
    assert len(await store.entries_since("g1", -1)) == 2


async def test_same_action_id_gets_the_stored_answer(store: Store) -> None:
    await _full_game(store)
    await store.commit(_commit(-1))
    first = await store.commit(_commit(0, field="0:a1"))
    again = await store.commit(_commit(1, field="0:a1"))
    assert first == ("ok", Answer(accepted=True, version=1), 1)
    assert again == ("duplicate", Answer(accepted=True, version=1), -1)
    _, stored = await store.load("g1", "0:a1")
    assert stored == Answer(accepted=True, version=1)


async def test_remember_keeps_the_first_answer(store: Store) -> None:
    first = Answer(accepted=False, version=3, reason="illegal_action", rule="MF-2")
    assert await store.remember("g1", "0:x", first) == first
    assert await store.remember("g1", "0:x", Answer(accepted=False, version=9)) == first


async def test_entries_since_reads_the_stream_from_a_version(store: Store) -> None:
    await _full_game(store)
    for version in range(-1, 5):
        await store.commit(_commit(version))
    assert [entry.version for entry in await store.entries_since("g1", 3)] == [4, 5]
    assert await store.entries_since("g1", 5) == []
    assert len(await store.entries_since("g1", -1)) == 6
    entry = (await store.entries_since("g1", 4))[0]
    assert entry.events == (StoredEvent({"type": "x"}, (0,)),)


async def test_commit_publishes_the_update(store: Store) -> None:
    await _full_game(store)
    pubsub = store.redis.pubsub()
    await pubsub.subscribe(keys.channel("g1"))
    await pubsub.get_message(timeout=1)
    await store.commit(_commit(-1))
    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=2)
    await pubsub.aclose()
    assert message is not None
    update = update_decoder.decode(message["data"])
    assert (update.game_id, update.entry.version, update.state) == ("g1", 0, b"state0")


async def test_finished_game_keys_expire_with_the_commit_ttl(store: Store) -> None:
    await _full_game(store)
    await store.commit(_commit(-1, field="0:a", status="finished"))
    for key in keys.game_keys("g1"):
        assert 0 < await store.redis.ttl(key) <= 60


async def test_clock_deadline_is_indexed_and_cleared(store: Store) -> None:
    await _full_game(store)
    commit = _commit(-1)
    await store.commit(Commit(**{**commit.__dict__, "deadline": 100.0}))
    assert await store.due_clocks(now=101.0) == [("g1", 100.0)]
    assert await store.due_clocks(now=99.0) == []
    await store.commit(_commit(0))
    assert await store.due_clocks(now=101.0) == []
