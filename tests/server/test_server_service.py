"""The authority against the private Redis, without sockets: idempotency, lifetimes, refusals."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from server_client import pick

from packplay.server import keys
from packplay.server.service import Loaded, Service, ServiceError
from packplay.server.settings import Settings
from packplay.server.store import Store, hash_token
from packplay_protocol.errors import ErrorCode, RejectReason
from packplay_protocol.from_client import Act
from packplay_protocol.rest import CreateGame, JoinSeat

SETTINGS = Settings(lobby_ttl=100, active_ttl=1000, finished_ttl=50)


@pytest.fixture
async def service(redis_url: str) -> AsyncIterator[Service]:
    opened = Service(Store.from_url(redis_url), SETTINGS)
    yield opened
    await opened.store.close()


async def _started(service: Service, game: str = "mishra_factory", players: int = 2) -> tuple[str, list[str]]:
    created = await service.create(CreateGame(game=game, players=players))
    grants = [await service.join(created.game_id, JoinSeat(name=f"p{i}")) for i in range(players)]
    return created.game_id, [grant.token for grant in grants]


def _move(loaded: Loaded, seat: int, rng: random.Random) -> Any:
    return pick(loaded.engine.legal_actions(loaded.state, seat), rng, loaded.engine.action_type)


async def test_the_same_action_id_is_answered_the_same_and_applied_once(service: Service) -> None:
    game_id, _ = await _started(service)
    loaded = await service.current(game_id)
    seat = loaded.engine.pending(loaded.state)[0]
    act = Act(action_id="once", version=loaded.version, action=_move(loaded, seat, random.Random(1)))
    first = await service.act(game_id, seat, act)
    again = await service.act(game_id, seat, act)
    assert first.accepted and again == first
    assert (await service.current(game_id)).version == loaded.version + 1

    different = next(a for n in range(50) if (a := _move(loaded, seat, random.Random(n))) != act.action)
    other = Act(action_id="once", version=first.version, action=different)
    reused = await service.act(game_id, seat, other)
    assert not reused.accepted and reused.reason == RejectReason.DUPLICATE


async def test_a_refused_action_is_answered_the_same_when_repeated(service: Service) -> None:
    game_id, _ = await _started(service)
    loaded = await service.current(game_id)
    idle = 1 - loaded.engine.pending(loaded.state)[0]
    act = Act(action_id="early", version=loaded.version, action=_move(loaded, 1 - idle, random.Random(1)))
    first = await service.act(game_id, idle, act)
    assert first.reason == RejectReason.NOT_YOUR_TURN
    assert await service.act(game_id, idle, act) == first


async def test_lobbies_expire_sooner_than_games_and_finished_games_sooner_still(service: Service) -> None:
    created = await service.create(CreateGame(game="day_night", players=2))
    redis = service.store.redis
    assert 0 < await redis.ttl(keys.game(created.game_id)) <= SETTINGS.lobby_ttl
    game_id, tokens = await _started(service, "day_night")
    assert SETTINGS.lobby_ttl < await redis.ttl(keys.game(game_id)) <= SETTINGS.active_ttl
    assert SETTINGS.lobby_ttl < await redis.ttl(keys.token(hash_token(tokens[0]))) <= SETTINGS.active_ttl

    rng = random.Random(4)
    while pending := (loaded := await service.current(game_id)).engine.pending(loaded.state):
        for seat in pending:
            act = Act(action_id=f"a{rng.random()}", version=loaded.version, action=_move(loaded, seat, rng))
            await service.act(game_id, seat, act)
    for key in (*keys.game_keys(game_id), keys.token(hash_token(tokens[1]))):
        assert 0 < await redis.ttl(key) <= SETTINGS.finished_ttl


async def test_acting_in_a_game_that_waits_for_players_is_refused(service: Service) -> None:
    created = await service.create(CreateGame(game="day_night", players=2))
    act = Act(action_id="x", version=0, action={"type": "day_night.place", "cards": []})
    answer = await service.act(created.game_id, 0, act)
    assert answer.reason == RejectReason.NOT_STARTED
    with pytest.raises(ServiceError) as waiting:
        await service.current(created.game_id)
    assert waiting.value.code is ErrorCode.OUT_OF_ORDER


async def test_a_game_left_full_by_a_crash_is_started_by_whoever_looks_first(service: Service) -> None:
    created = await service.create(CreateGame(game="day_night", players=2))
    for seat in range(2):
        outcome = await service.store.join(created.game_id, hash_token(f"t{seat}"), "p", None, 100)
        assert outcome[0] == "ok"
    loaded = await service.current(created.game_id)
    assert (loaded.snapshot.status, loaded.version) == ("active", 0)
