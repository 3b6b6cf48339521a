"""GET /v2/game-types and the per-game create-game bodies, over a real socket: every
documented option is accepted with each of its values and has its effect; each invalid
value is refused with a problem whose pointer names the option."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import msgspec
import pytest
from support_servers import ServerProcess

from packplay.games.registry import GAME_NAMES, get_game
from packplay_protocol import catalog
from packplay_protocol.problems import PROBLEM_MEDIA_TYPE, Problem
from packplay_protocol.rest import CreatedGame, GameOption, GameSnapshot, GameType, GameTypeList


@pytest.fixture
async def http(servers: list[ServerProcess]) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=servers[0].url) as client:
        yield client


async def _types(http: httpx.AsyncClient) -> dict[str, GameType]:
    response = await http.get("/v2/game-types")
    assert response.status_code == 200, response.text
    listed = msgspec.json.decode(response.content, type=GameTypeList)
    return {t.game: t for t in listed.games}


async def _refusal(http: httpx.AsyncClient, body: dict[str, Any]) -> Problem:
    response = await http.post("/v2/games", json=body)
    assert response.status_code == 422, (body, response.text)
    assert response.headers["content-type"] == PROBLEM_MEDIA_TYPE
    return msgspec.json.decode(response.content, type=Problem)


async def _seated(http: httpx.AsyncClient, body: dict[str, Any], seat: int = 0) -> GameSnapshot:
    """Create the game with every seat taken; the game as ``seat`` sees it at version 0."""
    names = [f"p{n}" for n in range(body["players"])]
    response = await http.post("/v2/games", json={**body, "seats": names})
    assert response.status_code == 201, (body, response.text)
    created = msgspec.json.decode(response.content, type=CreatedGame)
    token = created.grants[seat].token
    read = await http.get(f"/v2/games/{created.game_id}", headers={"Authorization": f"Bearer {token}"})
    return msgspec.json.decode(read.content, type=GameSnapshot)


async def test_every_game_is_listed_as_its_engine_and_protocol_module_define_it(
    http: httpx.AsyncClient,
) -> None:
    types = await _types(http)
    assert list(types) == list(GAME_NAMES)
    for name, listed in types.items():
        engine = get_game(name)
        assert (listed.title, listed.min_players, listed.max_players, listed.default_sets) == (
            engine.title,
            engine.min_players,
            engine.max_players,
            engine.default_sets,
        )
        assert [o.name for o in listed.options] == list(catalog.GAMES[name].options.__struct_fields__)
        assert listed.audiences == ("seat", "spectator")
        alone = await http.get(f"/v2/game-types/{name}")
        assert msgspec.json.decode(alone.content, type=GameType) == listed
    assert [t.simultaneous for t in types.values()] == [True, False, False, True]
    assert {o.name: o.default for o in types["base_race"].options} == {"shuffle": True, "move_limit": 200}


async def test_every_rules_link_of_a_game_type_answers_markdown(http: httpx.AsyncClient) -> None:
    for listed in (await _types(http)).values():
        assert {link.lang for link in listed.rules} == {"en", "es", "fr"}
        for link in (*listed.rules, *listed.common_rules):
            page = await http.get(link.path)
            assert page.status_code == 200 and page.text.startswith("# "), link


async def test_an_unknown_game_type_is_not_found(http: httpx.AsyncClient) -> None:
    response = await http.get("/v2/game-types/chess")
    assert response.status_code == 404
    problem = msgspec.json.decode(response.content, type=Problem)
    assert problem.code == "not_found" and problem.detail is not None and "day_night" in problem.detail


def _valid_values(option: GameOption) -> list[Any]:
    if option.values is not None:
        return list(option.values)
    if option.type == "integer":
        assert option.minimum is not None
        return [option.minimum, option.minimum + 7]
    assert option.name == "themes", "a new option needs its valid values here"
    return [None]  # a real theme id: see the sandbox test below


def _invalid_values(option: GameOption) -> list[Any]:
    wrong_type = {"boolean": [1, "true"], "integer": ["1", 1.5, True], "array": ["x", 3, {}]}[option.type]
    bounds = [v for v in (option.minimum, option.maximum) if v is not None]
    out_of_range = [min(bounds) - 1, max(bounds) + 1] if bounds else []
    return wrong_type + out_of_range + ([] if option.nullable else [None])


async def test_each_documented_option_value_is_accepted(http: httpx.AsyncClient) -> None:
    tried = 0
    for name, listed in (await _types(http)).items():
        for option in listed.options:
            for value in _valid_values(option):
                players = listed.max_players if "seat" in option.name else listed.min_players
                body: dict[str, Any] = {"game": name, "players": players, "options": {option.name: value}}
                if option.name == "themes":
                    body["options"] = {"themes": [None] * players}
                snapshot = await _seated(http, body)
                assert snapshot.state is not None and snapshot.state.version == 0
                _assert_effect(option.name, value, snapshot)
                tried += 1
    assert tried >= 20


def _assert_effect(option: str, value: Any, snapshot: GameSnapshot) -> None:
    """The option did what it says, where the view at version 0 shows it."""
    assert snapshot.state is not None
    view = msgspec.to_builtins(snapshot.state.view)
    if value is None:
        return
    if option == "day_seat":
        assert [s["role"] for s in view["seats"]] == (["day", "night"] if value == 0 else ["night", "day"])
    elif option == "first_seat":
        assert snapshot.state.pending == (value,)
    elif option == "move_limit":
        assert view["move_limit"] == value


async def test_each_invalid_option_value_is_refused_naming_the_option(http: httpx.AsyncClient) -> None:
    refused = 0
    for name, listed in (await _types(http)).items():
        for option in listed.options:
            for value in _invalid_values(option):
                body = {"game": name, "players": listed.min_players, "options": {option.name: value}}
                problem = await _refusal(http, body)
                assert problem.code == "validation_failed", (body, problem)
                assert problem.pointer is not None, (body, problem)
                assert problem.pointer.startswith(f"/options/{option.name}"), (body, problem)
                assert problem.detail is not None and option.name in problem.detail, (body, problem)
                refused += 1
        unknown = await _refusal(http, {"game": name, "players": 2, "options": {"colour": "blue"}})
        assert (unknown.code, unknown.pointer) == ("validation_failed", "/options/colour")
    assert refused >= 30


async def test_seat_options_are_checked_against_the_game_s_own_player_count(http: httpx.AsyncClient) -> None:
    for game in ("mishra_factory", "wedding_planner"):
        problem = await _refusal(http, {"game": game, "players": 2, "options": {"first_seat": 2}})
        assert (problem.code, problem.pointer) == ("validation_failed", "/options/first_seat")
    themes = await _refusal(
        http, {"game": "wedding_planner", "players": 3, "options": {"themes": [None, None]}}
    )
    assert themes.pointer == "/options/themes"
    seats = await _refusal(http, {"game": "day_night", "players": 2, "seats": ["solo"]})
    assert seats.pointer == "/seats"


async def test_the_game_and_its_player_count_are_checked_per_game(http: httpx.AsyncClient) -> None:
    chess = await _refusal(http, {"game": "chess", "players": 2})
    assert (chess.code, chess.pointer) == ("validation_failed", "/game")
    crowd = await _refusal(http, {"game": "day_night", "players": 3})
    assert (crowd.code, crowd.pointer) == ("validation_failed", "/players")
    missing = await _refusal(http, {"players": 2})
    assert missing.pointer == "/game"


async def test_a_theme_is_fixed_by_its_card_id_in_a_sandbox_game(http: httpx.AsyncClient) -> None:
    # Unshuffled, seat 0's hand is the top of its own booster; the same seed deals the same ids.
    body: dict[str, Any] = {"game": "wedding_planner", "players": 2, "seed": 11}
    drawn = await _seated(http, {**body, "options": {"shuffle": False}})
    assert drawn.state is not None
    seat = msgspec.to_builtins(drawn.state.view)["seats"][0]
    cards = drawn.state.cards
    wanted = next(c for c in seat["cards"] if not cards[c].is_land and cards[c].colors and c != seat["theme"])
    fixed = await _seated(http, {**body, "options": {"shuffle": False, "themes": [wanted, None]}})
    assert fixed.state is not None
    assert msgspec.to_builtins(fixed.state.view)["seats"][0]["theme"] == wanted

    response = await http.post("/v2/games", json={**body, "options": {"themes": ["no-such-card", None]}})
    assert response.status_code == 422, response.text
    problem = msgspec.json.decode(response.content, type=Problem)
    assert (problem.code, problem.pointer) == ("bad_config", "/options/themes")
