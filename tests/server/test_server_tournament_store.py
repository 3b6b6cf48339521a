"""Tournaments in the private Redis, without sockets: versioned steps, leases, set-once tables and
results, expiry, and two processes' runners racing over one event (each step done once)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest
import redis
import redis.asyncio as aioredis

from packplay.server.play.authority import Authority
from packplay.server.settings import Settings
from packplay.server.storage import keys
from packplay.server.storage.embedded import EmbeddedRedis
from packplay.server.storage.games import GameStore
from packplay.server.storage.tournaments import TournamentStore, encode
from packplay.server.tournaments.service import TournamentService
from packplay.tournaments import Result, Round, Table
from packplay.tournaments.records import PlayerRecord, TournamentConfig, TournamentMeta
from packplay_protocol.tournaments import CreateTournament, RegisterPlayer

SETTINGS = Settings(tournament_ttl=500, active_ttl=1000, finished_ttl=100)


def _meta(tournament_id: str = "t1") -> TournamentMeta:
    config = TournamentConfig(
        game="day_night",
        format="swiss",
        players_per_table=2,
        rounds=3,
        turn_seconds=5,
        late_registration=False,
    )
    return TournamentMeta(id=tournament_id, name="Friday", config=config, seed=1, created=1.0, organizer="x")


def _player(player_id: str, seq: int) -> PlayerRecord:
    return PlayerRecord(id=player_id, name=player_id.upper(), secret="s", seq=seq)


@pytest.fixture(scope="module")
def own_redis() -> Iterator[EmbeddedRedis]:
    """A Redis of this module's own: the shared one has server processes whose tournament
    runners would take part in the events of these tests."""
    with EmbeddedRedis() as server:
        yield server


@pytest.fixture
def private_url(own_redis: EmbeddedRedis) -> str:
    client = redis.Redis.from_url(own_redis.url)
    client.flushall()
    client.close()
    return own_redis.url


@pytest.fixture
async def tstore(private_url: str) -> AsyncIterator[TournamentStore]:
    store = GameStore.from_url(private_url, process_id="this")
    yield TournamentStore(store.pipeline)
    await store.close()


async def test_create_load_and_refuse_a_taken_id(tstore: TournamentStore) -> None:
    assert await tstore.create(_meta(), 60)
    assert not await tstore.create(_meta(), 60)
    snapshot = await tstore.load("t1")
    assert snapshot is not None
    assert (snapshot.status, snapshot.version, snapshot.round, snapshot.rounds) == ("registering", 0, 0, None)
    assert snapshot.meta == _meta()
    assert await tstore.load("nope") is None


async def test_a_versioned_write_wins_once(tstore: TournamentStore) -> None:
    await tstore.create(_meta(), 60)
    snapshot = await tstore.load("t1")
    assert snapshot is not None
    outcomes = await asyncio.gather(
        tstore.put_player("t1", snapshot.version, _player("a", 1), 60),
        tstore.put_player("t1", snapshot.version, _player("b", 1), 60),
    )
    assert sorted(outcomes) == ["moved", "ok"]
    after = await tstore.load("t1")
    assert after is not None and after.version == 1 and len(after.players) == 1
    assert await tstore.update(snapshot, {"round": 1}, 60) == "moved"
    assert await tstore.put_player("gone", 0, _player("a", 1), 60) == "missing"


async def test_players_come_back_in_registration_order(tstore: TournamentStore) -> None:
    await tstore.create(_meta(), 60)
    for version, (player_id, seq) in enumerate([("z", 1), ("a", 2), ("m", 3)]):
        assert await tstore.put_player("t1", version, _player(player_id, seq), 60) == "ok"
    snapshot = await tstore.load("t1")
    assert snapshot is not None and [p.id for p in snapshot.players] == ["z", "a", "m"]


async def test_update_sets_fields_and_the_running_index(tstore: TournamentStore) -> None:
    await tstore.create(_meta(), 60)
    snapshot = await tstore.load("t1")
    assert snapshot is not None
    paired = Round(number=1, tables=(Table(number=1, players=("a", "b")),), byes=("c",))
    fields = {"status": "running", "round": 1, "rounds": 3, "round:1": encode(paired)}
    assert await tstore.update(snapshot, fields, 60, running="add") == "ok"
    assert await tstore.running() == ["t1"]
    running = await tstore.load("t1")
    assert running is not None
    assert (running.status, running.round, running.rounds, running.version) == ("running", 1, 3, 1)
    assert running.pairings == {1: paired}
    assert await tstore.update(running, {"status": "finished"}, 60, running="remove") == "ok"
    assert await tstore.running() == []


async def test_a_claim_is_a_lease_and_a_seated_table_is_never_claimed(tstore: TournamentStore) -> None:
    await tstore.create(_meta(), 60)
    assert await tstore.claim("t1", 1, 1, "p1", now=100.0, lease=10, ttl=60) == "ok"
    assert await tstore.claim("t1", 1, 1, "p2", now=105.0, lease=10, ttl=60) == "busy"
    assert await tstore.claim("t1", 1, 1, "p1", now=105.0, lease=10, ttl=60) == "ok"
    assert await tstore.claim("t1", 1, 1, "p2", now=116.0, lease=10, ttl=60) == "ok"
    assert await tstore.seat("t1", 1, 1, "g1", {"a": (0, "tok-a"), "b": (1, "tok-b")}, 60) == "g1"
    assert await tstore.claim("t1", 1, 1, "p3", now=200.0, lease=10, ttl=60) == "seated"


async def test_a_table_is_seated_once_with_the_first_game(tstore: TournamentStore) -> None:
    await tstore.create(_meta(), 60)
    assert await tstore.seat("t1", 2, 3, "first", {"a": (1, "tok-a")}, 60) == "first"
    assert await tstore.seat("t1", 2, 3, "second", {"a": (0, "other")}, 60) == "first"
    assert await tstore.seat_of("t1", 2, "a") == ("first", 1, "tok-a")
    assert await tstore.seat_of("t1", 1, "a") is None
    snapshot = await tstore.load("t1")
    assert snapshot is not None and snapshot.games == {"2:3": "first"}


async def test_a_result_is_recorded_once(tstore: TournamentStore) -> None:
    await tstore.create(_meta(), 60)
    first = Result(winners=(0,), scores=(5.0, 2.0))
    assert await tstore.record("t1", 1, 1, first, 60) == first
    assert await tstore.record("t1", 1, 1, Result(winners=(1,)), 60) == first
    assert await tstore.record("gone", 1, 1, first, 60) is None
    snapshot = await tstore.load("t1")
    assert snapshot is not None and snapshot.results == {"1:1": first}


async def test_the_record_counts_the_round_s_results_once_each(tstore: TournamentStore) -> None:
    await tstore.create(_meta(), 60)
    first, second = Result(winners=(0,)), Result(winners=(1,))
    assert await tstore.record_counted("t1", 2, 1, first, 60) == (first, 1)
    assert await tstore.record_counted("t1", 2, 1, second, 60) == (first, 1), "a table counts once"
    assert await tstore.record_counted("t1", 2, 2, second, 60) == (second, 2)
    assert await tstore.record_counted("t1", 3, 1, second, 60) == (second, 1), "each round its own"
    assert await tstore.result("t1", 2, 2) == second
    assert await tstore.result("t1", 2, 3) is None


async def test_the_probe_and_the_seats_of_some_players(tstore: TournamentStore) -> None:
    assert await tstore.probe("t1") is None
    await tstore.create(_meta(), 60)
    snapshot = await tstore.load("t1")
    assert snapshot is not None
    await tstore.update(snapshot, {"round": 1}, 60, running="add")
    await tstore.seat("t1", 1, 1, "g1", {"a": (0, "ta"), "b": (1, "tb")}, 60)
    await tstore.seat("t1", 1, 2, "g2", {"c": (0, "tc"), "d": (1, "td")}, 60)
    await tstore.record("t1", 1, 2, Result(winners=(0,)), 60)
    probe = await tstore.probe("t1")
    assert probe is not None
    assert (probe.version, probe.round, probe.games, probe.done) == (snapshot.version + 1, 1, 2, 1)
    seats = await tstore.seats_of("t1", 1, ["a", "d", "nobody"])
    assert seats == {"a": ("g1", 0, "ta"), "d": ("g2", 1, "td")}


async def test_every_key_of_a_tournament_expires(tstore: TournamentStore, private_url: str) -> None:
    await tstore.create(_meta(), 60)
    await tstore.put_player("t1", 0, _player("a", 1), 70)
    snapshot = await tstore.load("t1")
    assert snapshot is not None
    await tstore.update(snapshot, {"round": 1}, 80, running="add")
    await tstore.claim("t1", 1, 1, "p", 1.0, 5, 90)
    await tstore.seat("t1", 1, 1, "g", {"a": (0, "t")}, 90)
    await tstore.record("t1", 1, 1, Result(winners=(0,)), 100)
    client = aioredis.Redis.from_url(private_url)
    try:
        names = [
            *keys.tournament_keys("t1"),
            keys.running_tournaments(keys.shard_of("t1")),
            keys.tournaments(keys.shard_of("t1")),
        ]
        for name in names:
            if name == keys.tournament_claims("t1"):
                continue  # emptied by the seating: a key without fields does not exist
            ttl = await client.ttl(name)
            assert 0 < ttl <= 100, name
    finally:
        await client.aclose()


# two processes' runners on one event


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def processes(private_url: str) -> AsyncIterator[tuple[list[TournamentService], Clock]]:
    clock = Clock()
    made = []
    for name in ("one", "two"):
        store = GameStore.from_url(private_url, process_id=name)
        authority = Authority(store, SETTINGS, now=clock)
        made.append(TournamentService(TournamentStore(store.pipeline), authority, SETTINGS, name, now=clock))
    yield made, clock
    for service in made:
        await service.runner.stop()
        await service.authority.store.close()


async def test_racing_runners_create_each_game_and_pair_each_round_once(
    processes: tuple[list[TournamentService], Clock], private_url: str
) -> None:
    (one, two), clock = processes
    created = await one.create(CreateTournament(name="Race", game="day_night", rounds=3, turn_seconds=1.0))
    tournament_id = created.tournament.tournament_id
    for i in range(7):
        await (one if i % 2 else two).register(tournament_id, RegisterPlayer(name=f"p{i}"))
    await one.start(tournament_id, created.organizer_token)
    versions = []
    for _ in range(200):
        await asyncio.gather(*(s.runner.advance(tournament_id) for s in (one, two, one, two)))
        snapshot = await one.store.load(tournament_id)
        assert snapshot is not None
        versions.append(snapshot.version)
        if snapshot.status == "finished":
            break
        clock.now += 1.5  # every seat's clock runs out: the default action plays the games
        await asyncio.gather(*(s.authority.clocks.expire() for s in (one, two)))
    assert snapshot.status == "finished"
    # 7 registrations, the start, rounds 2 and 3, the finish: one version each, nothing twice.
    assert snapshot.version == 7 + 1 + 2 + 1
    assert versions == sorted(versions)
    assert len(snapshot.games) == 3 * 3 and len(snapshot.results) == 3 * 3
    client = aioredis.Redis.from_url(private_url)
    try:
        counts = [await client.zcard(keys.games(shard)) for shard in range(keys.SHARDS)]
        assert sum(counts) == 9, "a game was created twice"
    finally:
        await client.aclose()
    assert sorted(r.byes[0] for r in snapshot.history()) == sorted(set(r.byes[0] for r in snapshot.history()))
    standings = await two.standings(tournament_id)
    assert standings.final and standings.complete_rounds == 3
    assert (
        all(line.matches == 3 for line in standings.lines) if hasattr(standings.lines[0], "matches") else True
    )
