"""REST /v2 over a real socket: the lobby, snapshots, replays, problem documents, operations."""

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

from packplay_protocol.problems import PROBLEM_MEDIA_TYPE, Problem
from packplay_protocol.rest import CreatedGame, GameList, GameSnapshot, GameSummary, SeatGrant


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
    response = await http.post("/v2/games", json={"game": game, "players": players})
    assert response.status_code == 201, response.text
    return msgspec.json.decode(response.content, type=GameSummary)


async def _join(http: httpx.AsyncClient, game_id: str, name: str, seat: int | None = None) -> httpx.Response:
    return await http.post(f"/v2/games/{game_id}/seats", json={"name": name, "seat": seat})


async def test_a_new_game_is_listed_open_with_its_default_sets(http: httpx.AsyncClient) -> None:
    created = await _create(http)
    assert (created.status, created.sets, created.version) == ("open", ("MH2",), 0)
    listed = msgspec.json.decode((await http.get("/v2/games?game=mishra_factory")).content, type=GameList)
    assert created.game_id in [g.game_id for g in listed.games]
    other = msgspec.json.decode((await http.get("/v2/games?game=day_night")).content, type=GameList)
    assert created.game_id not in [g.game_id for g in other.games]


async def test_seats_are_taken_named_and_given_back_before_the_start(http: httpx.AsyncClient) -> None:
    game_id = (await _create(http)).game_id
    first = msgspec.json.decode((await _join(http, game_id, "ann", 1)).content, type=SeatGrant)
    _problem(await _join(http, game_id, "bob", 1), 409, "seat_taken")
    await _join(http, game_id, "bob")
    snapshot = msgspec.json.decode((await http.get(f"/v2/games/{game_id}")).content, type=GameSnapshot)
    assert [s.name for s in snapshot.summary.seats] == ["bob", "ann", None] and snapshot.state is None

    _problem(await http.delete(f"/v2/games/{game_id}/seat"), 401, "unauthorized")
    left = await http.delete(f"/v2/games/{game_id}/seat", headers={"Authorization": f"Bearer {first.token}"})
    assert left.status_code == 204
    snapshot = msgspec.json.decode((await http.get(f"/v2/games/{game_id}")).content, type=GameSnapshot)
    assert [s.name for s in snapshot.summary.seats] == ["bob", None, None]


async def test_the_last_seat_starts_the_game_and_closes_it(http: httpx.AsyncClient) -> None:
    game_id = (await _create(http, players=2)).game_id
    grants = [msgspec.json.decode((await _join(http, game_id, n)).content, type=SeatGrant) for n in "ab"]
    _problem(await _join(http, game_id, "late"), 409, "game_started")
    bearer = {"Authorization": f"Bearer {grants[0].token}"}
    _problem(await http.delete(f"/v2/games/{game_id}/seat", headers=bearer), 409, "game_started")

    seen = msgspec.json.decode(
        (await http.get(f"/v2/games/{game_id}", headers=bearer)).content, type=GameSnapshot
    )
    watched = msgspec.json.decode((await http.get(f"/v2/games/{game_id}")).content, type=GameSnapshot)
    assert seen.summary.status == "playing" and seen.state is not None and seen.state.seat == 0
    assert watched.state is not None and watched.state.seat is None and watched.state.legal.actions == ()
    playing = msgspec.json.decode((await http.get("/v2/games?status=playing")).content, type=GameList)
    assert game_id in [g.game_id for g in playing.games]
    open_now = msgspec.json.decode((await http.get("/v2/games")).content, type=GameList)
    assert game_id not in [g.game_id for g in open_now.games]


async def test_a_game_created_with_every_seat_named_starts_at_once(
    http: httpx.AsyncClient, servers: list[ServerProcess]
) -> None:
    response = await http.post("/v2/games", json={"game": "day_night", "players": 2, "seats": ["Ann", "Bo"]})
    assert response.status_code == 201, response.text
    created = msgspec.json.decode(response.content, type=CreatedGame)
    assert created.status == "playing" and [s.name for s in created.seats] == ["Ann", "Bo"]
    assert [grant.seat for grant in created.grants] == [0, 1]
    listed = msgspec.json.decode((await http.get("/v2/games")).content, type=GameList)
    assert created.game_id not in {game.game_id for game in listed.games}, "never an open lobby"
    for grant in created.grants:  # each token is a seat's, on any process
        client = Client(servers[grant.seat % 2].url)
        welcome = await client.connect(grant.token)
        view = await client.join(created.game_id)
        assert (welcome.seat, view.seat, view.version) == (grant.seat, grant.seat, 0)
        await client.close()
    short = await http.post("/v2/games", json={"game": "day_night", "players": 2, "seats": ["Ann"]})
    assert _problem(short, 422, "validation_failed").pointer == "/seats"


async def test_a_token_of_another_game_is_refused(http: httpx.AsyncClient) -> None:
    game_id, _ = await open_game(str(http.base_url), "day_night", 2)
    other, tokens = await open_game(str(http.base_url), "day_night", 2)
    bearer = {"Authorization": f"Bearer {tokens[0]}"}
    _problem(await http.get(f"/v2/games/{game_id}", headers=bearer), 401, "unauthorized")


async def test_the_replay_exists_once_the_game_is_over(
    http: httpx.AsyncClient, servers: list[ServerProcess]
) -> None:
    game_id, tokens = await open_game(servers[0].url, "day_night", 2)
    _problem(await http.get(f"/v2/games/{game_id}/replay"), 409, "game_not_over")
    seats = [Client(servers[0].url) for _ in tokens]
    for client, token in zip(seats, tokens, strict=True):
        await client.connect(token)
        await client.join(game_id)
    for i, client in enumerate(seats):
        await Bot(client, random.Random(i)).play(stop_after=1)
    snapshot = msgspec.json.decode((await http.get(f"/v2/games/{game_id}")).content, type=GameSnapshot)
    assert snapshot.state is not None and snapshot.state.seed is None, "the seed stays secret until the end"
    for client in seats:
        await client.close()


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"game": "day_night", "players": "two"}, 422, "validation_failed"),
        ({"game": "chess", "players": 2}, 422, "validation_failed"),
        ({"game": "day_night", "players": 3}, 422, "validation_failed"),
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
    _problem(await http.post("/v2/games", json=body), status, code)


async def test_unknown_things_are_problems_too(http: httpx.AsyncClient) -> None:
    _problem(await http.get("/v2/games/nope-nope"), 404, "not_found")
    _problem(await http.get("/v2/games/bad%20id"), 404, "not_found")
    _problem(await http.get("/v2/nothing-here"), 404, "not_found")
    _problem(await http.post("/v2/games/nope/seats", json={"name": "x"}), 404, "not_found")
    _problem(await http.post("/v2/games", content=b"{not json"), 422, "validation_failed")
    _problem(await http.get("/v2/games?status=sideways"), 422, "validation_failed")


async def test_the_retired_v1_paths_are_gone_with_a_problem_naming_v2(http: httpx.AsyncClient) -> None:
    for response in (
        await http.get("/v1/games"),
        await http.post("/v1/games", json={"game": "day_night", "players": 2}),
        await http.get("/v1"),
    ):
        problem = _problem(response, 410, "unsupported_version")
        assert problem.status == 410 and problem.detail is not None and "/v2/" in problem.detail


async def test_a_whole_number_written_with_a_fraction_is_an_integer(http: httpx.AsyncClient) -> None:
    """JSON Schema counts 1.0 as an integer; so does the server (1.5 is still refused)."""
    game = await _create(http, "day_night", 2)
    _problem(
        await http.post(f"/v2/games/{game.game_id}/seats", json={"name": "a", "seat": 1.5}),
        422,
        "validation_failed",
    )
    joined = await http.post(f"/v2/games/{game.game_id}/seats", json={"name": "a", "seat": 1.0})
    assert joined.status_code == 201 and joined.json()["seat"] == 1


async def test_the_replay_of_a_game_not_started_is_not_over_yet(http: httpx.AsyncClient) -> None:
    game = await _create(http, "day_night", 2)
    _problem(await http.get(f"/v2/games/{game.game_id}/replay"), 409, "game_not_over")


async def test_a_method_a_path_lacks_gets_405_with_every_method_it_has(http: httpx.AsyncClient) -> None:
    for method, path, allowed in (
        ("DELETE", "/v2/games", {"GET", "HEAD", "POST"}),
        ("PUT", "/v2/games/abc123/seats", {"POST"}),
        ("GET", "/v2/games/abc123/seat", {"DELETE"}),
    ):
        response = await http.request(method, path)
        _problem(response, 405, "validation_failed")
        assert {m.strip() for m in response.headers["allow"].split(",")} == allowed, (method, path)


async def test_operations_endpoints(http: httpx.AsyncClient) -> None:
    assert (await http.get("/v2/health")).json()["status"] == "ok"
    ready = (await http.get("/v2/ready")).json()
    assert ready == {"ready": True, "checks": {"redis": True, "accepting": True}}
    metrics = await http.get("/v2/metrics")
    assert metrics.status_code == 200 and "packplay_ws_connections" in metrics.text
    assert 'packplay_gc_pause_seconds_count{generation="0"}' in metrics.text
    document = (await http.get("/v2/openapi.json")).json()
    validate(document)
    assert "/v2/games/{game_id}/replay" in document["paths"]
