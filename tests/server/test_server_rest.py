"""REST /v1 over a real socket: the lobby, snapshots, replays, problem documents, operations."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import httpx
import msgspec
import pytest
from openapi_spec_validator import validate
from server_client import Bot, Client
from server_lobby import open_game
from support_servers import ServerProcess

from packplay_protocol.rest import PROBLEM_MEDIA_TYPE, GameList, GameSnapshot, GameSummary, Problem, SeatGrant


@pytest.fixture
async def http(servers: list[ServerProcess]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[0].url) as client:
        yield client


def _problem(response: httpx.Response, status: int, code: str) -> Problem:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE
    found = msgspec.json.decode(response.content, type=Problem)
    assert found.code == code
    return found


async def _create(http: httpx.AsyncClient, game: str = "mishra_factory", players: int = 3) -> GameSummary:
    response = await http.post("/v1/games", json={"game": game, "players": players})
    assert response.status_code == 201, response.text
    return msgspec.json.decode(response.content, type=GameSummary)


async def _join(http: httpx.AsyncClient, game_id: str, name: str, seat: int | None = None) -> httpx.Response:
    return await http.post(f"/v1/games/{game_id}/seats", json={"name": name, "seat": seat})


async def test_a_new_game_is_listed_open_with_its_default_sets(http: httpx.AsyncClient) -> None:
    created = await _create(http)
    assert (created.status, created.sets, created.version) == ("open", ("MH2",), 0)
    listed = msgspec.json.decode((await http.get("/v1/games?game=mishra_factory")).content, type=GameList)
    assert created.game_id in [g.game_id for g in listed.games]
    other = msgspec.json.decode((await http.get("/v1/games?game=day_night")).content, type=GameList)
    assert created.game_id not in [g.game_id for g in other.games]


async def test_seats_are_taken_named_and_given_back_before_the_start(http: httpx.AsyncClient) -> None:
    game_id = (await _create(http)).game_id
    first = msgspec.json.decode((await _join(http, game_id, "ann", 1)).content, type=SeatGrant)
    _problem(await _join(http, game_id, "bob", 1), 409, "seat_taken")
    await _join(http, game_id, "bob")
    snapshot = msgspec.json.decode((await http.get(f"/v1/games/{game_id}")).content, type=GameSnapshot)
    assert [s.name for s in snapshot.summary.seats] == ["bob", "ann", None] and snapshot.state is None

    _problem(await http.delete(f"/v1/games/{game_id}/seat"), 401, "unauthorized")
    left = await http.delete(f"/v1/games/{game_id}/seat", headers={"Authorization": f"Bearer {first.token}"})
    assert left.status_code == 204
    snapshot = msgspec.json.decode((await http.get(f"/v1/games/{game_id}")).content, type=GameSnapshot)
    assert [s.name for s in snapshot.summary.seats] == ["bob", None, None]


async def test_the_last_seat_starts_the_game_and_closes_it(http: httpx.AsyncClient) -> None:
    game_id = (await _create(http, players=2)).game_id
    grants = [msgspec.json.decode((await _join(http, game_id, n)).content, type=SeatGrant) for n in "ab"]
    _problem(await _join(http, game_id, "late"), 409, "game_started")
    bearer = {"Authorization": f"Bearer {grants[0].token}"}
    _problem(await http.delete(f"/v1/games/{game_id}/seat", headers=bearer), 409, "game_started")

    seen = msgspec.json.decode(
        (await http.get(f"/v1/games/{game_id}", headers=bearer)).content, type=GameSnapshot
    )
    watched = msgspec.json.decode((await http.get(f"/v1/games/{game_id}")).content, type=GameSnapshot)
    assert seen.summary.status == "playing" and seen.state is not None and seen.state.seat == 0
    assert watched.state is not None and watched.state.seat is None and watched.state.legal.actions == ()
    playing = msgspec.json.decode((await http.get("/v1/games?status=playing")).content, type=GameList)
    assert game_id in [g.game_id for g in playing.games]
    open_now = msgspec.json.decode((await http.get("/v1/games")).content, type=GameList)
    assert game_id not in [g.game_id for g in open_now.games]


async def test_a_token_of_another_game_is_refused(http: httpx.AsyncClient) -> None:
    game_id, _ = await open_game(str(http.base_url), "day_night", 2)
    other, tokens = await open_game(str(http.base_url), "day_night", 2)
    bearer = {"Authorization": f"Bearer {tokens[0]}"}
    _problem(await http.get(f"/v1/games/{game_id}", headers=bearer), 401, "unauthorized")


async def test_the_replay_exists_once_the_game_is_over(
    http: httpx.AsyncClient, servers: list[ServerProcess]
) -> None:
    game_id, tokens = await open_game(servers[0].url, "day_night", 2)
    _problem(await http.get(f"/v1/games/{game_id}/replay"), 409, "game_not_over")
    seats = [Client(servers[0].url) for _ in tokens]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    for i, client in enumerate(seats):
        await Bot(client, random.Random(i)).play(stop_after=1)
    snapshot = msgspec.json.decode((await http.get(f"/v1/games/{game_id}")).content, type=GameSnapshot)
    assert snapshot.state is not None and snapshot.state.seed is None, "the seed stays secret until the end"
    for client in seats:
        await client.close()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "day_night", "players": "two"}, 422, "validation_failed"),
        ({"game": "chess", "players": 2}, 422, "bad_config"),
        ({"game": "day_night", "players": 3}, 422, "bad_config"),
        ({"game": "day_night", "players": 2, "sets": ["XXX"]}, 422, "bad_config"),
        (
            {"game": "day_night", "players": 2, "boosters": [[{"set": "MID", "number": "999999"}]]},
            422,
            "bad_config",
        ),
    ],
)
async def test_bad_games_are_refused_with_a_problem(
    http: httpx.AsyncClient, body: dict[str, object], status: int, code: str
) -> None:
    _problem(await http.post("/v1/games", json=body), status, code)


async def test_unknown_things_are_problems_too(http: httpx.AsyncClient) -> None:
    _problem(await http.get("/v1/games/nope-nope"), 404, "not_found")
    _problem(await http.get("/v1/games/bad%20id"), 404, "not_found")
    _problem(await http.get("/v1/nothing-here"), 404, "not_found")
    _problem(await http.post("/v1/games/nope/seats", json={"name": "x"}), 404, "not_found")
    _problem(await http.post("/v1/games", content=b"{not json"), 422, "validation_failed")
    _problem(await http.get("/v1/games?status=sideways"), 422, "validation_failed")


async def test_operations_endpoints(http: httpx.AsyncClient) -> None:
    assert (await http.get("/v1/health")).json()["status"] == "ok"
    ready = (await http.get("/v1/ready")).json()
    assert ready == {"ready": True, "checks": {"redis": True, "accepting": True}}
    metrics = await http.get("/v1/metrics")
    assert metrics.status_code == 200 and "packplay_ws_connections" in metrics.text
    document = (await http.get("/v1/openapi.json")).json()
    validate(document)
    assert "/v1/games/{game_id}/replay" in document["paths"]
